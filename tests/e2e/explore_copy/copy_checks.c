/* A program that notices when it is not the process it thinks it is: what
 * explore's fork server must get right in each copy of the program it
 * makes before any of its code runs (docs/explore.md, "The fork server").  Two
 * threads take turns on a counter under an error-checking mutex; then the
 * program checks, and exits 1 naming the first thing wrong:
 *   - the thread library's idea of each thread's id (a mutex's owner,
 *     pthread_kill, raise) is the kernel's;
 *   - its parent is racegate, as an exec'd program's is;
 *   - it reads its whole stdin from the first byte (argv[1]: what it must be);
 *   - a child it forks runs, execs and is reaped;
 *   - a signal sent to itself is taken by its handler;
 *   - a robust mutex main holds when it exits (pthread_exit) is seen by
 *     the thread that takes it next as its owner's death (the kernel
 *     knows main's robust list).
 * Prints "ok" and exits 0 when all is well. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t m;
static int counter;
static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

static void fail(const char *what)
{
	printf("wrong: %s\n", what);
	exit(1);
}

/* The mutex's owner is the thread id glibc keeps for the caller. */
static void owner_is_me(void)
{
	if (m.__data.__owner != (int)syscall(SYS_gettid))
		fail("the thread library's thread id is not the kernel's");
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		if (pthread_mutex_lock(&m))
			fail("lock");
		owner_is_me();
		counter++;
		if (pthread_mutex_lock(&m) != EDEADLK)
			fail("an error-checking mutex does not know its owner");
		pthread_mutex_unlock(&m);
	}
	if (pthread_kill(pthread_self(), SIGUSR1))
		fail("pthread_kill of the thread itself");
	return NULL;
}

static void parent_is_racegate(void)
{
	char path[64], comm[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)getppid());
	if ((f = fopen(path, "r"))) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
	}
	if (strncmp(comm, "racegate", 8))
		fail("its parent is not racegate");
}

static void stdin_whole(const char *want)
{
	char buf[256];
	size_t n = fread(buf, 1, sizeof(buf) - 1, stdin);

	buf[n] = '\0';
	if (strcmp(buf, want))
		fail("stdin is not read from its first byte");
}

static void child_runs(void)
{
	int st;
	pid_t c = fork();

	if (c < 0)
		fail("fork");
	if (c == 0) {
		execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
		_exit(99);
	}
	if (waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st) != 7)
		fail("a child it forks does not run and exec");
}

static pthread_mutex_t robust;

/* Takes the robust mutex main held as it went: its owner's death. */
static void *heir(void *arg)
{
	struct timespec t;

	(void)arg;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 5;
	if (pthread_mutex_timedlock(&robust, &t) != EOWNERDEAD)
		fail("a robust mutex main held is not seen as its owner's death");
	printf("ok\n");
	exit(0);
}

int main(int argc, char **argv)
{
	pthread_mutexattr_t a;
	pthread_t t1, t2;

	signal(SIGUSR1, on_usr1);
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&m, &a);
	pthread_mutex_lock(&m);
	owner_is_me();
	pthread_mutex_unlock(&m);
	pthread_create(&t1, NULL, worker, NULL);
	pthread_create(&t2, NULL, worker, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	if (counter != 6)
		fail("the counter");
	if (raise(SIGUSR1) || got != 3)
		fail("a signal sent to itself");
	parent_is_racegate();
	stdin_whole(argc > 1 ? argv[1] : "");
	child_runs();
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&robust, &a);
	pthread_mutex_lock(&robust);
	pthread_create(&t1, NULL, heir, NULL);
	pthread_exit(NULL);
}
