/*
 * Fails every other run, whatever its threads do: each run counts itself
 * in the file argv[1] names, and an even count exits 1.  One worker, so
 * every schedule over its lines is the same interleaving: the second
 * schedule fails where the first passed.
 */
#include <pthread.h>
#include <stdio.h>

static int work;

static void *worker(void *arg)
{
	(void)arg;
	work = work + 1;
	work = work * 2;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	FILE *f;
	long n = 0;

	if (argc < 2)
		return 2;
	f = fopen(argv[1], "r");
	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = 0;
		fclose(f);
	}
	f = fopen(argv[1], "w");
	if (!f)
		return 2;
	fprintf(f, "%ld\n", ++n);
	fclose(f);
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	printf("run %ld, work %d\n", n, work);
	return n % 2 == 0;
}
