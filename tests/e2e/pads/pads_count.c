/*
 * Four workers pass one line 50,000 times each.  Under pads_count.yaml,
 * gates for one worker at one count (hit:, a when: on $hit) act while the
 * other workers pass the same line without anything to note: with jump
 * pads those passes never trap, and every count must still be exact (the
 * program prints its own; racegate --verbose prints the hits it counted).
 */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 50000

static volatile long counter[4];

static void *worker(void *arg)
{
	long id = (long)arg, i;

	for (i = 0; i < ROUNDS; i++)
		counter[id]++;                                /* PAD-LINE */
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	long i;

	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("counts %ld %ld %ld %ld\n", counter[0], counter[1], counter[2],
	       counter[3]);                                  /* END-LINE */
	return 0;
}
