/*
 * when: locals of an -O2 build.  walker's loop counter lives in a register
 * and sq's location changes along the loop (a location list); the gates
 * hold walker at the pass the condition picks until setter has set flag.
 */
#include <pthread.h>
#include <stdio.h>

static volatile int flag;
static int trace[8];
static volatile int sink_v;

__attribute__((noinline)) static void sink(int v)
{
	sink_v = v;
}

__attribute__((noinline)) static void walk(int n)
{
	for (int i = 0; i < n; i++) {
		int sq = i * i + 1;

		sink(sq);
		trace[i] = flag;                /* the gated line (24) */
		sink(sq + i);
	}
}

static void *walker(void *arg)
{
	walk(*(int *)arg);
	return NULL;
}

static void *setter(void *arg)
{
	(void)arg;
	flag = 1;                       /* line 38 */
	return NULL;                    /* line 39 */
}

int main(void)
{
	pthread_t w, s;
	int n = 8, i;

	pthread_create(&w, NULL, walker, &n);
	pthread_create(&s, NULL, setter, NULL);
	pthread_join(w, NULL);
	pthread_join(s, NULL);
	for (i = 0; i < 8 && !trace[i]; i++)
		;
	printf("flag first seen at %d\n", i);
	return 0;
}
