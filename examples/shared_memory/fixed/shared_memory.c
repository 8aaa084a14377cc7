/* shared_memory (FIXED): worker2 waits until worker1 has published the
 * multiplier (mutex + condition variable), so result is 10 whatever order
 * the scheduler picks.
 *
 * Under the example's gates (worker1 held at its store until worker2 has
 * exited) this order is now impossible: worker2 waits for worker1's store,
 * worker1 waits for worker2's exit.  racegate reports SCHEDULE-DEADLOCK.
 * The store keeps its line number (the same gates.yaml runs on both).
 */
#include <pthread.h>
#include <stdio.h>

static int multiplier = -1;
static int result = 0;
static int multiplier_ready = 0;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cv = PTHREAD_COND_INITIALIZER;

static void *worker1(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    multiplier = 1;                     /* gated line */
    multiplier_ready = 1;
    pthread_cond_signal(&ready_cv);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void *worker2(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!multiplier_ready)
        pthread_cond_wait(&ready_cv, &lock);
    result = multiplier * 10;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;

    if (pthread_create(&t1, NULL, worker1, NULL) != 0 ||
        pthread_create(&t2, NULL, worker2, NULL) != 0) {
        fprintf(stderr, "shared_memory: pthread_create failed\n");
        return 2;
    }
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);

    printf("result = %d\n", result);
    if (result != 10) {
        printf("FAIL: expected result = 10 (worker2 read the multiplier "
               "before worker1 set it)\n");
        return 1;
    }
    return 0;
}
