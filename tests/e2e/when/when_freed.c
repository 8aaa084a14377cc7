/*
 * when: hostile programs for conditions.
 *
 *   when_freed unmap   reader's node is unmapped by freer while reader is
 *                      on its way to the gated line: the condition reads
 *                      through a dangling pointer (a fault: false, said once)
 *   when_freed exit    spinner arrives at the gated line in a hot loop while
 *                      main ends the process: threads die between their stop
 *                      and the condition's reads
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct node {
	int id;
	int pad[1023];
};

static struct node *shared;
static volatile long spins;

__attribute__((noinline)) static int look(struct node *p)
{
	return p != NULL;                /* the gated line (27) */
}

static void *reader(void *arg)
{
	struct node *p = shared;

	(void)arg;
	usleep(1000);                    /* line 35: freer unmaps meanwhile */
	return (void *)(long)look(p);
}

static void *freer(void *arg)
{
	(void)arg;
	munmap(shared, sizeof(*shared)); /* line 42 */
	return NULL;                     /* line 43 */
}

static void *spinner(void *arg)
{
	struct node n = {.id = 1};

	(void)arg;
	for (;;) {
		look(&n);
		spins++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc > 1 && !strcmp(argv[1], "exit")) {
		pthread_create(&a, NULL, spinner, NULL);
		while (spins < 2000)
			;
		printf("exiting with the spinner at full speed\n");
		fflush(stdout);
		_exit(0);
	}
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	shared->id = 7;
	pthread_create(&a, NULL, reader, NULL);
	pthread_create(&b, NULL, freer, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("reader done\n");
	return 0;
}
