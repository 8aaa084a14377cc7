/*
 * A program that forks, for process: gates (process_tree.cmake).
 *
 *   proctree [race|fixed]  parent and child add one to a counter in shared
 *                          memory (MAP_SHARED) by load and store: the gates
 *                          make the child's update lost; fixed takes a
 *                          process-shared mutex around it
 *   proctree threads       the child runs two worker threads
 *   proctree crash         the child dies of SIGSEGV on its gated line
 *   proctree orphan        the parent exits without waiting for the child
 *   proctree hang          the child is held for ever, the parent waits for it
 *   proctree bomb          50 short children, one after the other
 *   proctree vfork         a vfork child runs the gated line, then _exit
 *   proctree exec          the child runs exec_helper (next to proctree);
 *                          the parent says it is done first
 *   proctree spawn         the same with posix_spawn (a vfork child's exec)
 */
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

struct shared {
	pthread_mutex_t lock;
	volatile int counter;
};

static struct shared *sh;
static int fixed;

static void bump(void)
{
	int v;

	if (fixed)
		pthread_mutex_lock(&sh->lock);
	v = sh->counter;                                      /* LOAD-LINE */
	sh->counter = v + 1;                                  /* STORE-LINE */
	if (fixed)
		pthread_mutex_unlock(&sh->lock);
}

static void *worker(void *arg)
{
	(void)arg;
	bump();                                               /* WORKER-LINE */
	return NULL;
}

static void child_threads(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}

static void crash(void)
{
	volatile int *nowhere = NULL;

	*nowhere = 1;                                         /* CRASH-LINE */
}

static void run_helper(void)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	char *slash;

	if (n <= 0)
		_exit(2);
	path[n] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash + 1, "exec_helper");
	execl(path, "exec_helper", (char *)NULL);
	_exit(2);
}

static void spawn_helper(pid_t *pid)
{
	char path[4096], *argv[] = { "exec_helper", NULL };
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);

	if (n <= 0)
		exit(2);
	path[n] = '\0';
	strcpy(strrchr(path, '/') + 1, "exec_helper");
	if (posix_spawn(pid, path, NULL, NULL, argv, NULL) != 0)
		exit(2);
}

static void parent_done(void)
{
	if (write(1, "parent done\n", 12) != 12)             /* DONE-LINE */
		_exit(2);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "race";
	pthread_mutexattr_t ma;
	int status = 0, kids = 1, want;
	pid_t pid[50];

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	fixed = !strcmp(mode, "fixed");
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&sh->lock, &ma);
	if (!strcmp(mode, "bomb"))
		kids = 50;
	for (int k = 0; k < kids; k++) {
		pid[k] = !strcmp(mode, "vfork") ? vfork() : fork();
		if (pid[k] < 0)
			return 2;
		if (pid[k] == 0) {
			if (!strcmp(mode, "threads"))
				child_threads();
			else if (!strcmp(mode, "crash"))
				crash();
			else if (!strcmp(mode, "exec"))
				run_helper();
			else
				bump();                               /* CHILD-LINE */
			_exit(0);
		}
	}
	if (!strcmp(mode, "spawn")) {
		spawn_helper(&pid[0]);
		parent_done();
		waitpid(pid[0], &status, 0);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	if (!strcmp(mode, "exec")) {
		parent_done();
		waitpid(pid[0], &status, 0);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	if (!strcmp(mode, "hang")) {
		waitpid(pid[0], &status, 0);
		return 0;
	}
	if (!strcmp(mode, "orphan")) {
		bump();
		printf("parent gone\n");
		return 0;
	}
	if (!strcmp(mode, "crash")) {
		bump();
		waitpid(pid[0], &status, 0);
		printf("child %s\n", WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exited");
		return 0;
	}
	bump();                                               /* PARENT-LINE */
	for (int k = 0; k < kids; k++)
		waitpid(pid[k], &status, 0);
	printf("counter = %d\n", sh->counter);
	want = kids + 1 + !strcmp(mode, "threads");
	return sh->counter == want ? 0 : 1;
}
