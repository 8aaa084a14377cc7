/*
 * when: one of each kind of variable a condition can get wrong, all visible
 * at one line, for the table of type errors (when_types.tsv).
 * Never run: racegate check only reads it.
 */
#include <stdio.h>

struct queue {
	int length;
	int items[4];
	struct queue *next;
	unsigned flags : 3;
};
struct opaque;

__thread int total;                 /* thread-local */
__int128 huge;
double ratio = 0.5;
struct opaque *op;
char name[16] = "q";
int n = 3;
struct queue q0;
static volatile int sink;

__attribute__((noinline)) void spot(struct queue *q, int k)
{
	sink = q->length + k + (int)huge + (int)ratio + name[0] + n + total;
	sink = q0.length;               /* the gated line (28) */
	(void)op;
}

int main(void)
{
	struct queue q = {0};

	spot(&q, 1);
	printf("%d\n", sink);
	return 0;
}
