/*
 * when: which arrival a condition picks.  walker visits six nodes; setter
 * sets flag.  The gates hold walker at the visit the condition picks until
 * setter has set flag, and hold setter until then: the output says at
 * which visit walker first saw flag -- the visit the condition picked.
 * (A condition that picked another visit prints another number.)
 */
#include <pthread.h>
#include <stdio.h>

struct node {
	int id;
	struct node *next;
	int vals[4];
	const char *name;
};

int round_no;                       /* a global */
static struct node nodes[6];
static volatile int flag;
static int trace[6];
static const char *const names[6] = {"ant", "bee", "cat", "dog", "eel", "fox"};

__attribute__((noinline)) static void visit(struct node *n, int i)
{
	int twice = 2 * i;              /* a local */

	trace[i] = flag;                /* the gated line (28) */
	__asm__ volatile("" : : "r"(twice), "r"(n) : "memory");
}

static void *walker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 6; i++) {
		round_no = i * 10;
		visit(&nodes[i], i);
	}
	return NULL;
}

static void *setter(void *arg)
{
	(void)arg;
	flag = 1;                       /* line 45 */
	return NULL;                    /* line 46 */
}

int main(void)
{
	pthread_t w, s;
	int i;

	for (i = 0; i < 6; i++) {
		nodes[i].id = 100 + i;
		nodes[i].next = i < 5 ? &nodes[i + 1] : NULL;
		nodes[i].vals[i % 4] = i;
		nodes[i].name = names[i];
	}
	/* main visits too, first, with flag clear: a condition that does not
	 * tell threads apart holds main here, before setter exists */
	for (i = 0; i < 6; i++)
		visit(&nodes[i], i);
	pthread_create(&w, NULL, walker, NULL);
	pthread_create(&s, NULL, setter, NULL);
	pthread_join(w, NULL);
	pthread_join(s, NULL);
	for (i = 0; i < 6 && !trace[i]; i++)
		;
	printf("flag first seen at %d\n", i);
	return 0;
}
