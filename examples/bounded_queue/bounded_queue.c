/*
 * bounded_queue: a single-producer, single-consumer ring buffer whose
 * producer publishes an item (len + 1) before storing it.  A consumer that
 * found the queue empty and is waiting for an item can then read the slot
 * before the item is in it.
 *
 *   ./bounded_queue K     main puts K items first, then the producer puts 4
 *                         more while the consumer takes all K + 4
 *
 * Which take finds the queue empty depends on K (the input), so a spec
 * cannot name it with a hit count: the gate says `when: "q->len == 0"`.
 * Exit 1 when the consumer took an item that was not yet stored.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define CAP 64
#define MORE 4

struct queue {
	int items[CAP];
	int head, tail;
	int len;               /* items published; read and written atomically */
};

static struct queue queue;
static int total;

static void q_put(struct queue *q, int item)
{
	int slot = q->tail;

	__atomic_fetch_add(&q->len, 1, __ATOMIC_RELEASE);  /* BUG: published first */
	q->items[slot] = item;                              /* ...then stored */
	q->tail = (slot + 1) % CAP;
}

static int q_take(struct queue *q)
{
	int item;

	while (__atomic_load_n(&q->len, __ATOMIC_ACQUIRE) == 0)
		sched_yield();
	item = q->items[q->head];
	q->head = (q->head + 1) % CAP;
	__atomic_fetch_sub(&q->len, 1, __ATOMIC_RELEASE);
	return item;
}

static void *producer(void *arg)
{
	int first = *(int *)arg;

	for (int i = 0; i < MORE; i++)
		q_put(&queue, first + i);
	return NULL;
}

static void *consumer(void *arg)
{
	int *bad = arg;

	for (int want = 1; want <= total; want++) {
		int got = q_take(&queue);

		if (got != want && !*bad) {
			printf("took %d, expected %d: read before it was stored\n",
			       got, want);
			*bad = 1;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int k = argc > 1 ? atoi(argv[1]) : 3, first, bad = 0;
	pthread_t p, c;

	if (k < 0 || k > CAP - MORE)
		return 2;
	total = k + MORE;
	for (int i = 1; i <= k; i++)
		q_put(&queue, i);
	first = k + 1;
	pthread_create(&c, NULL, consumer, &bad);
	pthread_create(&p, NULL, producer, &first);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	if (!bad)
		printf("took %d items in order\n", total);
	return bad;
}
