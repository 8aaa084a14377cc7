/* lost_update: the classic lost update.  Two threads each increment a shared
 * counter once, as a load, an add and a store on separate lines.  If both
 * load before either stores, both store 1 and one increment is lost.  The
 * window is three instructions wide, so plain runs almost never hit it.
 *
 * gates.yaml makes the two threads meet at the store: each one, having
 * loaded, waits there until the other one has loaded too, so both store the
 * same value.
 */
#include <pthread.h>
#include <stdio.h>

#define THREADS 2

static int counter = 0;
/* (the fixed variant declares its mutex here) */

static void counter_increment(void)
{
    /* (the fixed variant takes the lock here) */
    int tmp = counter;                  /* load */
    tmp = tmp + 1;                      /* add */
    counter = tmp;                      /* store: gated line */
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
