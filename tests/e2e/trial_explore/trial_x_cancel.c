/* A download manager: a worker waits for jobs on a condition variable and
 * is cancelled at shutdown; its cleanup handler gives back the slot it
 * holds.  The slot count is read and written back by the cleanup handler
 * and by main without the lock, so a slot can be lost.  "Sometimes after
 * shutdown one slot is missing." */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t jobs = PTHREAD_COND_INITIALIZER;
static int free_slots = 2;
static int have_job;

static void give_back(void *arg)
{
	(void)arg;
	int s = free_slots;
	free_slots = s + 1;
	pthread_mutex_unlock(&mu);
}

static void *worker(void *arg)
{
	(void)arg;
	free_slots--;
	pthread_mutex_lock(&mu);
	pthread_cleanup_push(give_back, NULL);
	while (!have_job)
		pthread_cond_wait(&jobs, &mu);
	pthread_cleanup_pop(1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	int s = free_slots;
	free_slots = s - 1;            /* main takes a slot for itself */
	pthread_cancel(t);
	pthread_join(t, NULL);
	free_slots++;                  /* and gives it back */
	printf("free slots: %d\n", free_slots);
	return free_slots == 2 ? 0 : 1;
}
