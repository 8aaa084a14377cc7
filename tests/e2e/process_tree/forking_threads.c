/*
 * Threads that fork while others run through a gated line (stepped over
 * out of line, in the slot, or held): every child
 * runs the gated line too, with the breakpoint table, scratch pages and
 * out-of-line copies of the moment of its fork, and exits with how many
 * times it did (process_tree.cmake).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static __thread int mine;

static void step(void)
{
	mine++;                                               /* STEP-LINE */
}

static void *worker(void *arg)
{
	long id = (long)arg;
	int bad = 0;

	for (int i = 0; i < 400; i++) {
		step();
		if (i % 40 == 0) {
			pid_t p = fork();
			int st;

			if (p == 0) {
				int before = mine;
				for (int k = 0; k < 50; k++)
					step();
				_exit(mine - before == 50 ? 0 : 3);
			}
			if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st))
				bad++;
		}
	}
	if (mine != 400 || bad)
		fprintf(stderr, "worker %ld: %d steps, %d bad children\n", id, mine, bad);
	return (void *)(long)(mine != 400 || bad);
}

int main(void)
{
	pthread_t t[4];
	long fails = 0;

	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 4; i++) {
		void *r;
		pthread_join(t[i], &r);
		fails += (long)r;
	}
	printf("fails %ld\n", fails);
	return fails != 0;
}
