/*
 * Threads pass one line (step) many times; a `when:` gate there holds
 * worker 1 at the arrival whose i is held_at (pads_when_*.yaml), every
 * other arrival's condition being false: with jump pads the condition runs
 * in the thread and only the true arrival traps.  main waits until worker 1
 * stands still, says where (it must be held_at: a false arrival taken for
 * true, or a true one passed, prints another number), then opens the gate.
 *   pads_when MODE THREADS ROUNDS HELD_AT
 * MODE: false (p always points to an item), null (worker 1's p is NULL every fourth
 * arrival: "p->x" faults), signal (another thread sends the workers SIGUSR1
 * in a tight loop; the handler passes the line too, with i = -1).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NT_MAX 8

struct item {
	long x;
};

static volatile long progress[NT_MAX], total[NT_MAX], handled[NT_MAX];
static struct item items[4] = { { 1 }, { 2 }, { 3 }, { 7 } };
static long nthreads, rounds, held_at;   /* held_at: the conditions read it */
static int null_mode;
static volatile int done, opened_go;
static pthread_t workers[NT_MAX];
static __thread long self_id = -1;

__attribute__((noinline)) static void step(long id, long i, struct item *p)
{
	total[id] += i >= 0 && (!p || p->x);          /* WHEN-LINE */
	if (i < 0)
		handled[id]++;
}

static void on_usr1(int sig)
{
	(void)sig;
	if (self_id >= 0)
		step(self_id, -1, &items[0]);
}

static void *worker(void *arg)
{
	long id = (long)arg, i;

	self_id = id;
	for (i = 0; i < rounds; i++) {
		struct item *p = &items[i == held_at ? 3 : i % 3];

		if (null_mode && id == 1 && i % 4 == 0)
			p = NULL;
		progress[id] = i;
		step(id, i, p);
	}
	done = 1;                     /* the sender stops at the first to end */
	return NULL;
}

static void *sender(void *arg)
{
	(void)arg;
	while (!done)
		for (long k = 0; k < nthreads && !done; k++)
			pthread_kill(workers[k], SIGUSR1);
	return NULL;
}

/* main's gate: a function of its own, so that -O2 cannot copy the line */
__attribute__((noinline)) static void open_go(void)
{
	opened_go = 1;                                  /* OPEN-LINE */
}

int main(int argc, char **argv)
{
	pthread_t snd;
	long sum = 0, i;
	int sig = 0;

	if (argc != 5)
		return 2;
	nthreads = atol(argv[2]);
	rounds = atol(argv[3]);
	held_at = atol(argv[4]);
	null_mode = !strcmp(argv[1], "null");
	sig = !strcmp(argv[1], "signal");
	if (nthreads < 2 || nthreads > NT_MAX)
		return 2;
	signal(SIGUSR1, on_usr1);
	for (i = 0; i < nthreads; i++)
		pthread_create(&workers[i], NULL, worker, (void *)i);
	if (sig)
		pthread_create(&snd, NULL, sender, NULL);
	while (progress[1] < held_at)
		usleep(1000);
	usleep(300000);
	printf("held at %ld\n", progress[1]);
	fflush(stdout);
	open_go();
	if (sig)
		pthread_join(snd, NULL);
	for (i = 0; i < nthreads; i++)
		pthread_join(workers[i], NULL);
	for (i = 0; i < nthreads; i++)
		sum += total[i];
	printf("arrivals %ld\n", sum);
	return 0;
}
