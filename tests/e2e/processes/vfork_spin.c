/*
 * A vfork child that never execs, spinning through a gated function in the
 * program's memory (racegate follows it, with its int3s in that memory),
 * while a gate holds a thread until the whole-run timeout.  When racegate
 * kills the program the child must go too: it would run on with the int3s.
 */
#include <pthread.h>
#include <unistd.h>

static volatile long counter;

__attribute__((noinline)) static void spin_work(void)
{
	counter++;                                            /* SPIN-LINE */
}

static void *held(void *arg)
{
	(void)arg;
	counter = 0;                                          /* HELD-LINE */
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, held, NULL);
	if (vfork() == 0)
		for (;;)
			spin_work();
	pthread_join(t, NULL);
	return 0;
}
