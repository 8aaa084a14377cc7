/* ELF fuzzing corpus (tests/fuzz/elf): a small threaded program built -g,
 * linked with libfz.so.  Its ELF and DWARF are mutated, never its code. */
#include <pthread.h>
#include <stdio.h>

int fz_lib_add(int *cell, int v);

static int total;

static int square(int x)
{
	return x * x;                         /* @square */
}

static void *worker(void *arg)
{
	int i, n = *(int *)arg;

	for (i = 0; i < n; i++)
		fz_lib_add(&total, square(i)); /* @worker-add */
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	int n = 3, i;

	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, &n);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("total = %d\n", total);          /* @main-print */
	return 0;
}
