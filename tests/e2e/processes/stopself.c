/*
 * The program stops itself (raise(SIGSTOP), or SIGTSTP) and a helper
 * process it forked sends SIGCONT later, as a shell's "kill -CONT" would.
 * Under racegate, as natively, nothing of the program runs in between —
 * not even a thread that a gate lets go meanwhile — and the run then goes
 * on to its end.  The helper counts the worker's ticks while the program
 * is stopped; "nocont" sends none, and the program stays stopped.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long *shared;   /* [0] ticks, [1] stop ticking, [2] ticks while stopped */

static void tick(void)
{
	shared[0]++;
}

static void *worker(void *arg)
{
	(void)arg;
	while (!shared[1])
		tick();                                       /* TICK-LINE */
	return NULL;
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "stop";
	pid_t me = getpid(), helper;
	pthread_t t;
	long before;

	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return 2;
	pthread_create(&t, NULL, worker, NULL);
	helper = fork();                                      /* FORK-LINE */
	if (helper == 0) {
		/* well inside the stop: the window the ticks are counted in */
		usleep(300000);
		before = shared[0];
		usleep(500000);
		shared[2] = shared[0] - before;
		if (strcmp(how, "nocont"))
			kill(me, SIGCONT);
		_exit(0);
	}
	raise(!strcmp(how, "tstp") ? SIGTSTP : SIGSTOP);
	shared[1] = 1;                                        /* CONTINUED */
	pthread_join(t, NULL);
	waitpid(helper, NULL, 0);
	printf("ticks while stopped: %ld\n", shared[2]);
	return shared[2] != 0;
}
