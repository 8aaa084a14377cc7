/*
 * xp_timed: two workers wait for main's go-ahead, one on a semaphore with
 * sem_timedwait, one on a condition with pthread_cond_timedwait (deadlines
 * a minute away: only the order matters), then each counts itself done
 * without a lock, so one count can be lost.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static sem_t go;
static int ready, done;

static struct timespec far_away(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 60;
	return ts;
}

static void *sem_worker(void *arg)
{
	struct timespec ts = far_away();

	(void)arg;
	while (sem_timedwait(&go, &ts) != 0)
		;
	done++;	/* load, add, store: not atomic */
	return NULL;
}

static void *cond_worker(void *arg)
{
	struct timespec ts = far_away();

	(void)arg;
	pthread_mutex_lock(&m);
	while (!ready)
		pthread_cond_timedwait(&cv, &m, &ts);
	pthread_mutex_unlock(&m);
	done++;
	return NULL;
}

int main(void)
{
	pthread_t s, c;

	sem_init(&go, 0, 0);
	pthread_create(&s, NULL, sem_worker, NULL);
	pthread_create(&c, NULL, cond_worker, NULL);
	sem_post(&go);
	pthread_mutex_lock(&m);
	ready = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
	pthread_join(s, NULL);
	pthread_join(c, NULL);
	printf("done %d\n", done);
	return done != 2;
}
