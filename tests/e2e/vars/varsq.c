/* `racegate lines --vars` (vars.cmake): a queue, its producer's locals. */
#include <stdio.h>
#include <stdlib.h>

struct queue {
	int items[16];
	int len;
};

static int produced;                            /* a file static: not listed */
int limit = 8;                                  /* a global: not listed */

__attribute__((noinline)) int produce(struct queue *q, int n)
{
	static int rounds;                      /* listed: the function's static */
	int i, sum = 0;

	rounds++;
	for (i = 0; i < n && q->len < limit; i++) {
		int item = i * 3;

		q->items[q->len++] = item;      /* the loop body */
		sum += item;
	}
	produced += sum;
	return sum + rounds;
}

int main(int argc, char **argv)
{
	struct queue q = {{0}, 0};
	int got = produce(&q, argc + 4);

	(void)argv;
	printf("%d %d %d\n", got, q.len, produced);
	return 0;
}
