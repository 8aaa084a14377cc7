/* A work queue: the main thread submits jobs, a worker takes them, and at
 * the end main sets the shutdown flag and wakes the worker.  The worker
 * checks the flag before the queue, so a shutdown that comes while jobs are
 * still queued drops them.  "Sometimes a job is never done." */
#include <pthread.h>
#include <stdio.h>

#define NJOBS 3

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static int queue[NJOBS];
static int head, tail;
static int shutting_down;
static int done;

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&mu);
		while (head == tail && !shutting_down)
			pthread_cond_wait(&more, &mu);
		if (shutting_down) {
			pthread_mutex_unlock(&mu);
			break;
		}
		int job = queue[head++ % NJOBS];
		pthread_mutex_unlock(&mu);
		done += job;
	}
	return NULL;
}

static void submit(int job)
{
	pthread_mutex_lock(&mu);
	queue[tail++ % NJOBS] = job;
	pthread_cond_signal(&more);
	pthread_mutex_unlock(&mu);
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	for (int i = 1; i <= NJOBS; i++)
		submit(1);
	pthread_mutex_lock(&mu);
	shutting_down = 1;
	pthread_cond_broadcast(&more);
	pthread_mutex_unlock(&mu);
	pthread_join(t, NULL);
	printf("%d of %d jobs done\n", done, NJOBS);
	return done == NJOBS ? 0 : 1;
}
