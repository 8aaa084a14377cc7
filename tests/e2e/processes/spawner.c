/*
 * Children that share the program's memory run through gated code before
 * their exec: a vfork child calls a gated function of the program, and
 * posix_spawn (with a dup2 file action), system() and popen(), which glibc
 * makes with clone(CLONE_VM | CLONE_VFORK), run dup2 and execve.  Under
 * racegate they must behave exactly as natively (no SIGTRAP, never held),
 * while the gates still hold the program's own threads: the worker is held
 * in dup2 until main is done with all of them.
 */
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static volatile int work;

static void step(void)
{
	work++;                                               /* STEP-LINE */
}

static void *worker(void *arg)
{
	(void)arg;
	close(dup2(1, 100));
	return NULL;
}

static int status_of(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(void)
{
	char *const sh4[] = { "sh", "-c", "exit 4", NULL };
	posix_spawn_file_actions_t fa;
	char line[64] = "";
	pthread_t t;
	pid_t pid;
	int v, s, y, p;
	FILE *f;

	pthread_create(&t, NULL, worker, NULL);

	pid = vfork();
	if (pid == 0) {
		step();
		execl("/bin/sh", "sh", "-c", "exit 3", (char *)NULL);
		_exit(127);
	}
	v = status_of(pid);

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	if (posix_spawn(&pid, "/bin/sh", &fa, NULL, sh4, environ) != 0)
		pid = -1;
	s = status_of(pid);

	y = system("exit 5");
	y = y >= 0 && WIFEXITED(y) ? WEXITSTATUS(y) : -1;

	f = popen("echo hello", "r");
	if (!f || !fgets(line, sizeof(line), f))
		strcpy(line, "failed\n");
	p = f ? pclose(f) : -1;

	step();                                               /* ALL-DONE */
	pthread_join(t, NULL);
	printf("vfork %d, spawn %d, system %d, popen %.*s, pclose %d\n",
	       v, s, y, (int)strcspn(line, "\n"), line, p);
	return v == 3 && s == 4 && y == 5 && p == 0 ? 0 : 1;
}
