/*
 * ptrace_floor: the least a ptrace tool can do per breakpoint hit, as the
 * yardstick for racegate's hit cost.  Single-threaded programs only, and
 * only hitloop (it relies on hitloop's bench_site nop and bench_slot copy).
 *
 *   ptrace_floor MODE SITE SLOT -- PROGRAM ARGS...
 *
 * SITE and SLOT are link-time addresses (nm); the load bias is read from
 * /proc/PID/maps.  MODE:
 *   bare     int3 over the nop, PTRACE_CONT at once (RIP is already past
 *            the one-byte nop): a stop and a continue, nothing else
 *   onetrap  the breakpoint stays armed, RIP is set to bench_slot (the nop
 *            run out of line, then a jump back): one trap per hit
 *   twotrap  the naive step-over: put the byte back, rewind, single-step,
 *            re-insert the int3, continue: two traps per hit
 * Prints "hits N" on stderr and exits with the program's status.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

enum mode { BARE, ONETRAP, TWOTRAP };

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static uint64_t load_bias(pid_t pid, const char *exe)
{
	char path[64], line[PATH_MAX + 128], real[PATH_MAX];
	unsigned char eh[18];
	FILE *f;
	int fd;
	uint64_t bias = 0;

	fd = open(exe, O_RDONLY);
	if (fd < 0 || read(fd, eh, sizeof(eh)) != (ssize_t)sizeof(eh))
		die(exe);
	close(fd);
	if (eh[16] != 3)           /* ET_DYN: PIE, linked at 0 */
		return 0;
	if (!realpath(exe, real))
		die(exe);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "r")))
		die(path);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char *p = strchr(line, '/');

		if (!p || sscanf(line, "%llx-%llx %*s %llx", &start, &end, &off) != 3)
			continue;
		p[strcspn(p, "\n")] = 0;
		if (off == 0 && !strcmp(p, real)) {
			bias = start;
			break;
		}
	}
	fclose(f);
	return bias;
}

int main(int argc, char **argv)
{
	enum mode mode;
	uint64_t site, slot, bias;
	uint8_t orig, cc = 0xcc;
	char mempath[64];
	long hits = 0;
	int memfd, status;
	pid_t pid;

	if (argc < 6 || strcmp(argv[4], "--")) {
		fprintf(stderr, "usage: ptrace_floor bare|onetrap|twotrap SITE SLOT -- PROGRAM ARGS...\n");
		return 2;
	}
	mode = !strcmp(argv[1], "bare") ? BARE : !strcmp(argv[1], "onetrap") ? ONETRAP : TWOTRAP;
	site = strtoull(argv[2], NULL, 16);
	slot = strtoull(argv[3], NULL, 16);

	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0L, 0L, 0L);
		execv(argv[5], argv + 5);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFSTOPPED(status))
		die("exec");
	ptrace(PTRACE_SETOPTIONS, pid, 0L, (void *)(long)PTRACE_O_EXITKILL);
	bias = load_bias(pid, argv[5]);
	site += bias;
	slot += bias;
	snprintf(mempath, sizeof(mempath), "/proc/%d/mem", (int)pid);
	if ((memfd = open(mempath, O_RDWR)) < 0)
		die(mempath);
	if (pread(memfd, &orig, 1, (off_t)site) != 1 || pwrite(memfd, &cc, 1, (off_t)site) != 1)
		die("breakpoint");

	for (int sig = 0;;) {
		struct user_regs_struct r;

		if (ptrace(PTRACE_CONT, pid, 0L, (void *)(long)sig) < 0)
			die("PTRACE_CONT");
		sig = 0;
		if (waitpid(pid, &status, 0) < 0)
			die("waitpid");
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (WSTOPSIG(status) != SIGTRAP) {
			sig = WSTOPSIG(status);
			continue;
		}
		hits++;
		switch (mode) {
		case BARE:
			break;
		case ONETRAP:
			ptrace(PTRACE_GETREGS, pid, 0L, &r);
			r.rip = slot;
			ptrace(PTRACE_SETREGS, pid, 0L, &r);
			break;
		case TWOTRAP:
			pwrite(memfd, &orig, 1, (off_t)site);
			ptrace(PTRACE_GETREGS, pid, 0L, &r);
			r.rip = site;
			ptrace(PTRACE_SETREGS, pid, 0L, &r);
			ptrace(PTRACE_SINGLESTEP, pid, 0L, 0L);
			if (waitpid(pid, &status, 0) < 0 || !WIFSTOPPED(status))
				die("single-step");
			pwrite(memfd, &cc, 1, (off_t)site);
			break;
		}
	}
	fprintf(stderr, "hits %ld\n", hits);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
