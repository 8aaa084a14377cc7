/* lost_update (FIXED): the read-modify-write runs under a mutex, so the two
 * increments cannot interleave and the counter always ends at 2.
 *
 * The gated lines keep their numbers, so the same gates.yaml runs on this
 * binary: the order it asks for (both threads load before either stores) is
 * now impossible.  The first thread to take the lock reaches the store
 * while holding it and waits for the other one to have loaded too; the other
 * one is blocked on the lock.  racegate reports SCHEDULE-DEADLOCK.
 */
#include <pthread.h>
#include <stdio.h>

#define THREADS 2

static int counter = 0;
static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;

static void counter_increment(void)
{
    pthread_mutex_lock(&counter_lock);
    int tmp = counter;                  /* load */
    tmp = tmp + 1;                      /* add */
    counter = tmp;                      /* store: gated line */
    pthread_mutex_unlock(&counter_lock);
}

static void *worker(void *arg)
{
    (void)arg;
    counter_increment();
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];
    int i;

    for (i = 0; i < THREADS; i++) {
        if (pthread_create(&t[i], NULL, worker, NULL) != 0) {
            fprintf(stderr, "lost_update: pthread_create failed\n");
            return 2;
        }
    }
    for (i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);

    printf("counter = %d\n", counter);
    if (counter != THREADS) {
        printf("FAIL: expected counter = %d: an increment was lost\n", THREADS);
        return 1;
    }
    return 0;
}
