/*
 * Hostile to a pad's when: condition: the page its load reads is made
 * unreadable and readable again by another thread while a worker passes
 * the gated line in a tight loop, so some loads fault inside the pad at
 * any moment.  The program must run to its end as without racegate (its
 * own SIGSEGV handler counts signals it gets: none may come from a pad).
 *
 *   pads_when_prot [ROUNDS]     (default 3,000,000 passes)
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

struct item {
	long x;
};

static struct item *volatile p;
static volatile long total, segv;
static volatile int done;

static void on_segv(int sig)
{
	(void)sig;
	segv++;
	mprotect((void *)p, 4096, PROT_READ | PROT_WRITE);
}

__attribute__((noinline)) static void step(long i)
{
	total += i >= 0;                                /* PROT-LINE */
}

static void *toggler(void *arg)
{
	(void)arg;
	while (!done) {
		sched_yield();
		mprotect((void *)p, 4096, PROT_NONE);
		mprotect((void *)p, 4096, PROT_READ | PROT_WRITE);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 3000000;
	pthread_t t;

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 2;
	p->x = 1;
	signal(SIGSEGV, on_segv);
	pthread_create(&t, NULL, toggler, NULL);
	for (long i = 0; i < rounds; i++)
		step(i);
	done = 1;
	pthread_join(t, NULL);
	printf("total %ld segv %ld\n", total, segv);
	return 0;
}
