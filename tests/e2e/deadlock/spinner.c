/*
 * A spinner thread runs through SPIN-LINE, for ever, until a stopper thread
 * reaches STOP-LINE; main joins both.  Under spin_stopped.yaml the stopper
 * is held for ever and the spinner keeps hitting a gate's breakpoint when
 * the run ends.  With an argument, main writes "ok" to that file at the end
 * (tests that continue a program left stopped by --keep-stopped: an int3
 * left at SPIN-LINE would kill it with SIGTRAP).
 */
#include <pthread.h>
#include <stdio.h>

static volatile int stop;
static volatile long spins;

static void *spinner(void *arg)
{
	(void)arg;
	while (!stop)
		spins++;                                      /* SPIN-LINE */
	return NULL;
}

static void *stopper(void *arg)
{
	(void)arg;
	stop = 1;                                             /* STOP-LINE */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t s, t;

	pthread_create(&s, NULL, spinner, NULL);
	pthread_create(&t, NULL, stopper, NULL);
	pthread_join(s, NULL);
	pthread_join(t, NULL);
	printf("spun: %s\n", spins > 0 ? "yes" : "no");
	if (argc > 1) {
		FILE *f = fopen(argv[1], "w");

		if (f) {
			fputs("ok\n", f);
			fclose(f);
		}
	}
	return 0;
}
