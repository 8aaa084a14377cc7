/* main starts its threads and returns: exit() runs while a checker thread
 * still looks at what a worker left half done.  The worker sets two fields
 * that must agree; the checker checks they do (abort).  The bug needs the checker
 * to run between the worker's two stores, and main to stay where it was
 * meanwhile: let main go on and its return ends the process (status 0)
 * before the checker's assert does.  An argument: milliseconds main
 * sleeps first, for a program whose every run takes that long (in
 * select(2), whose timeout explore's time leaves to the clock). */
#include <pthread.h>
#include <stdlib.h>
#include <sys/select.h>

static volatile int lo, hi;

static void *worker(void *arg)
{
	(void)arg;
	lo = 1;
	hi = 1;
	return NULL;
}

static void *checker(void *arg)
{
	(void)arg;
	if (lo != hi)
		abort();   /* an assert, whatever NDEBUG says */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w, c;

	if (argc > 1) {
		struct timeval tv = { .tv_sec = 0, .tv_usec = atoi(argv[1]) * 1000L };

		select(0, NULL, NULL, NULL, &tv);
	}
	pthread_create(&w, NULL, worker, NULL);
	pthread_create(&c, NULL, checker, NULL);
	return 0;
}
