/*
 * Is my code my file's?  (issue 15)  Compares every executable file
 * mapping of this process (from /proc/self/maps; the program itself
 * through /proc/self/exe) with the file's bytes at the same offsets,
 * reading memory through /proc/self/mem, and prints "text intact" or
 * "text differs at ADDR (FILE+OFFSET: memory XX, file YY)".
 *
 *   pads_text serve   two workers pass the gated site for ever; main waits
 *                     for signals: SIGUSR1 pauses the workers (between
 *                     passes; "paused" once both are), SIGUSR2 checks the
 *                     text, then lets the workers make 100,000 more passes
 *                     each and exits 0 ("passes after the check N")
 *   pads_text fork    two workers pass the site 20,000 times each; then a
 *                     forked child passes it 20,000 times and checks its
 *                     text; then a forked child execs "pads_text execd"
 *                     (which does the same in the new image); exits 0 when
 *                     both children did
 *   pads_text execd   as the children of fork: pass, check, exit 0/1
 *   pads_text storm   the two workers pass the site all the time while
 *                     main forks 30 children one after another; each
 *                     child passes the site 20,000 times, checks its text
 *                     and exits 0/1; "storm children ok N of 30"
 *   pads_text outlive FILE
 *                     the workers pass the site 20,000 times each, then
 *                     main makes a child that shares its memory
 *                     (clone(CLONE_VM), a process of its own) and exits;
 *                     the child waits until no tracer is left, checks the
 *                     text of the memory main left it, passes the site
 *                     20,000 times and writes what it found to FILE
 *
 * Also prints how many executable mappings no file backs (racegate's
 * scratch pages), for the record: the check is about the files' bytes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long counts[2];
static volatile int pause_req, paused[2], quit;
static volatile long stop_at[2];   /* 0: no limit */

__attribute__((noinline)) static void pass(int who)
{
	__atomic_add_fetch(&counts[who], 1, __ATOMIC_RELAXED);        /* PASS-SITE */
}                                                                       /* PASS-END */

/* compares one mapping; returns 1 and prints the first difference */
static int check_map(int mem, unsigned long lo, unsigned long hi,
		     unsigned long off, const char *path)
{
	static unsigned char want[1 << 16], have[1 << 16];
	const char *file = path;
	unsigned long a, n, i;
	int fd;
	ssize_t got;

	/* the program's own mapping: read through /proc/self/exe */
	{
		char self[PATH_MAX];
		ssize_t l = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (l > 0 && (self[l] = 0, !strcmp(self, path)))
			file = "/proc/self/exe";
	}
	if ((fd = open(file, O_RDONLY)) < 0) {
		printf("cannot open %s\n", file);
		return 1;
	}
	for (a = lo; a < hi; a += n) {
		n = hi - a < sizeof(want) ? hi - a : sizeof(want);
		got = pread(fd, want, n, (off_t)(off + (a - lo)));
		if (got <= 0)
			break;          /* the mapping runs past the file's end */
		n = (unsigned long)got;
		if (pread(mem, have, n, (off_t)a) != (ssize_t)n) {
			printf("cannot read memory at 0x%lx\n", a);
			close(fd);
			return 1;
		}
		for (i = 0; i < n; i++)
			if (have[i] != want[i]) {
				printf("text differs at 0x%lx (%s+0x%lx: memory %02x, file %02x)\n",
				       a + i, path, off + (a - lo) + i, have[i], want[i]);
				close(fd);
				return 1;
			}
	}
	close(fd);
	return 0;
}

static int check_text(const char *who)
{
	char line[PATH_MAX + 256], perms[8], path[PATH_MAX];
	unsigned long lo, hi, off;
	int mem, bad = 0, anon = 0, nfiles = 0;
	FILE *maps = fopen("/proc/self/maps", "r");

	mem = open("/proc/self/mem", O_RDONLY);
	if (!maps || mem < 0) {
		printf("%s: cannot read /proc/self/maps or /proc/self/mem\n", who);
		return 1;
	}
	while (fgets(line, sizeof(line), maps)) {
		path[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095[^\n]", &lo, &hi, perms, &off, path) < 4
		    || !strchr(perms, 'x'))
			continue;
		if (path[0] != '/') {
			if (strcmp(path, "[vdso]") && strcmp(path, "[vsyscall]"))
				anon++;
			continue;
		}
		nfiles++;
		if (!bad)
			bad = check_map(mem, lo, hi, off, path);
	}
	fclose(maps);
	close(mem);
	if (!bad)
		printf("%s: text intact (%d file mappings)\n", who, nfiles);
	printf("%s: %d executable mappings no file backs\n", who, anon);
	fflush(stdout);
	return bad;
}

static void *worker(void *arg)
{
	int who = (int)(long)arg;

	for (;;) {
		if (pause_req) {
			paused[who] = 1;
			while (pause_req && !quit)
				usleep(1000);
			paused[who] = 0;
		}
		if (quit || (stop_at[who] && counts[who] >= stop_at[who]))
			break;
		pass(who);
	}
	return NULL;
}

static int child_check(const char *who)
{
	long i;

	for (i = 0; i < 20000; i++)
		pass(0);
	return check_text(who) ? 1 : 0;
}

static int serve(void)
{
	pthread_t t[2];
	sigset_t set;
	long before;
	int sig, k, bad = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	for (k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, worker, (void *)(long)k);
	printf("serving %d\n", (int)getpid());
	fflush(stdout);
	for (;;) {
		if (sigwait(&set, &sig))
			return 2;
		if (sig == SIGTERM) {
			quit = 1;
			break;
		}
		if (sig == SIGUSR1) {
			pause_req = 1;
			while (!paused[0] || !paused[1])
				usleep(1000);
			printf("paused\n");
			fflush(stdout);
			continue;
		}
		bad = check_text("serve");
		before = counts[0] + counts[1];
		stop_at[0] = counts[0] + 100000;
		stop_at[1] = counts[1] + 100000;
		pause_req = 0;
		break;
	}
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	if (!quit)
		printf("passes after the check %ld\n", counts[0] + counts[1] - before);
	return bad;
}

static int forks(const char *self)
{
	pthread_t t[2];
	pid_t c;
	int k, st, bad = 0;

	pause_req = 0;
	for (k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, worker, (void *)(long)k);
	while (counts[0] < 20000 || counts[1] < 20000)
		usleep(1000);
	quit = 1;
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	fflush(stdout);
	if ((c = fork()) == 0)
		_exit(child_check("fork child"));
	waitpid(c, &st, 0);
	printf("fork child: %s %d\n", WIFEXITED(st) ? "exit" : "signal",
	       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	fflush(stdout);
	if ((c = fork()) == 0) {
		execl(self, self, "execd", (char *)NULL);
		_exit(127);
	}
	waitpid(c, &st, 0);
	printf("exec child: %s %d\n", WIFEXITED(st) ? "exit" : "signal",
	       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	printf("parent passes %ld\n", counts[0] + counts[1]);  /* END-SITE */
	return bad;
}

static int storm(void)
{
	pthread_t t[2];
	int k, st, ok = 0;
	pid_t c;

	for (k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, worker, (void *)(long)k);
	while (counts[0] < 1000 || counts[1] < 1000)
		usleep(1000);
	for (k = 0; k < 30; k++) {
		fflush(stdout);
		if ((c = fork()) == 0)
			_exit(child_check("storm child"));
		if (waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0)
			ok++;
		else
			printf("storm child %d: status %#x\n", k, st);
	}
	quit = 1;
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	printf("storm children ok %d of 30\n", ok);          /* STORM-END */
	return ok != 30;
}

static char child_stack[1 << 16];

static int outliver(void *arg)
{
	char line[256];
	int i, traced = 1;
	FILE *f;

	/* racegate lets go of the memory once the program has ended */
	for (i = 0; i < 3000 && traced; i++) {
		usleep(10000);
		traced = 0;
		if ((f = fopen("/proc/self/status", "r"))) {
			while (fgets(line, sizeof(line), f))
				if (!strncmp(line, "TracerPid:", 10))
					traced = atoi(line + 10) != 0;
			fclose(f);
		}
	}
	if (!freopen(arg, "w", stdout))
		_exit(2);
	setvbuf(stdout, NULL, _IOLBF, 0);
	i = child_check("outliving child");
	printf("outliving child: passes %ld, still traced %d\n", counts[0], traced);
	fflush(stdout);
	_exit(i);
}

static int outlive(const char *file)
{
	pthread_t t[2];
	int k;

	for (k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, worker, (void *)(long)k);
	while (counts[0] < 20000 || counts[1] < 20000)
		usleep(1000);
	quit = 1;
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	counts[0] = 0;
	fflush(stdout);
	if (clone(outliver, child_stack + sizeof(child_stack), CLONE_VM | SIGCHLD,
		  (void *)file) < 0)
		return 2;
	return 0;
}

int main(int argc, char **argv)
{
	char self[PATH_MAX];
	ssize_t l;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "serve"))
		return serve();
	if (argc == 2 && !strcmp(argv[1], "storm"))
		return storm();
	if (argc == 3 && !strcmp(argv[1], "outlive"))
		return outlive(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "execd"))
		return child_check("exec child");
	if (argc == 2 && !strcmp(argv[1], "fork")) {
		if ((l = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0)
			return 2;
		self[l] = 0;
		return forks(self);
	}
	fprintf(stderr, "usage: pads_text serve|fork|execd|storm|outlive FILE\n");
	return 2;
}
