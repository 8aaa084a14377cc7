/* hoisted_count: a race that only exists in the optimised build.
 *
 * Two workers scan half a table each and count the multiples of 7 in a
 * shared counter, without a lock: "each increment is one quick instruction".
 * At -O0 it is: every `matches++` loads, adds and stores at once.  At -O2
 * gcc keeps `matches` in a register for the whole loop (loop store motion):
 * it loads the counter before the loop and stores it after, so a worker
 * that is slow inside its loop overwrites everything the other one counted
 * meanwhile.
 *
 * gates.yaml holds worker 1 inside its loop until worker 2 has exited.
 */
#include <pthread.h>
#include <stdio.h>

#define ITEMS 1000

static int table[2][ITEMS];
static int matches;         /* shared by both workers, no lock */

static void *worker(void *arg)
{
	const int *v = arg;

	for (int i = 0; i < ITEMS; i++)
		if (v[i] % 7 == 0)          /* test: gated */
			matches++;          /* count */
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	int want = 0;

	for (int k = 0; k < 2; k++)
		for (int i = 0; i < ITEMS; i++) {
			table[k][i] = k * ITEMS + i;
			want += table[k][i] % 7 == 0;
		}
	for (int k = 0; k < 2; k++)
		if (pthread_create(&t[k], NULL, worker, table[k]) != 0) {
			fprintf(stderr, "hoisted_count: pthread_create failed\n");
			return 2;
		}
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	printf("matches = %d\n", matches);
	if (matches != want) {
		printf("FAIL: expected matches = %d: counts were lost\n", want);
		return 1;
	}
	return 0;
}
