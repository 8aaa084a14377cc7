/*
 * stage_watch (../triage/stage_watch.c) with sleeps far shorter than a
 * look at a running thread (5 ms): a worker steps a stage counter every
 * 300 us, a watcher polls it every 30 us and aborts when it sees a stage
 * skipped.  explore parks each sleep as it begins, whatever its length
 * or the machine's load, so the schedules are the same as with 10 ms
 * sleeps: the skip needs the worker's timeout to fire while the watcher
 * is held (an sN choice in the id).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int stage = -1;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		stage = i;                      /* step */
		usleep(300);
	}
	return NULL;
}

static void *watcher(void *arg)
{
	int last = -1, seen = 0;

	(void)arg;
	for (int n = 0; n < 100 && last < 2; n++) {
		int s = stage;                  /* poll */

		if (s > last + 1) {             /* a stage skipped */
			fprintf(stderr, "brief_sleeps: stage %d after %d\n", s, last);
			abort();
		}
		seen += s != last;
		last = s;
		usleep(30);
	}
	printf("saw %d stages\n", seen);
	return NULL;
}

int main(void)
{
	pthread_t w, v;

	pthread_create(&v, NULL, watcher, NULL);
	pthread_create(&w, NULL, worker, NULL);
	pthread_join(w, NULL);
	pthread_join(v, NULL);
	return 0;
}
