/*
 * A gate whose line has several sites, as the trap path counts them: a
 * gate's hit: is per thread across every site of its line.  Under -O2,
 * spin() is inlined twice (its line has two breakpoints), and pick() has
 * several returns.
 *
 *   pads_sites seq   spin(1000), then spin(1000) again: the two copies one
 *                    after the other (1,000 arrivals at each)
 *   pads_sites alt   1,000 rounds of both copies, one after the other
 *   pads_sites thr   two threads, each running seq
 *   pads_sites ret   pick() 2,000 times, from each of its returns in turn
 *
 * It prints the count it made itself; the specs compare it with the
 * arrival at which a gate acts (when: "total == N").
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static volatile long total;
static __thread long mine;

static inline void spin(long n)
{
	for (long i = 0; i < n; i++) {
		total++;                                /* SITE-LINE */
		mine++;
	}
}

__attribute__((noipa)) static long pick(long i)
{
	total++;                                        /* PICK-LINE */
	if (i % 3 == 0)
		return 1;
	if (i % 3 == 1)
		return 2;
	return 3;
}

static void *seq(void *arg)
{
	(void)arg;
	spin(1000);
	__asm__ volatile("" ::: "memory");
	spin(1000);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "seq";
	long sum = 0;

	if (!strcmp(mode, "seq")) {
		seq(NULL);
	} else if (!strcmp(mode, "alt")) {
		for (int r = 0; r < 1000; r++) {
			spin(1);
			__asm__ volatile("" ::: "memory");
			spin(1);
		}
	} else if (!strcmp(mode, "thr")) {
		pthread_t t[2];

		for (int k = 0; k < 2; k++)
			pthread_create(&t[k], NULL, seq, NULL);
		for (int k = 0; k < 2; k++)
			pthread_join(t[k], NULL);
	} else if (!strcmp(mode, "ret")) {
		for (long i = 0; i < 2000; i++)
			sum += pick(i);
	} else {
		return 2;
	}
	printf("%s total %ld sum %ld\n", mode, total, sum);   /* END-LINE */
	return 0;
}
