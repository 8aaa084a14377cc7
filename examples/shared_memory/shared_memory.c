/* shared_memory: the seed paper's Figure 1 ("Shared Memory Access") in C.
 *
 * worker1 sets the multiplier to 1; worker2 computes result = multiplier * 10.
 * Nothing orders the two: if worker2 runs first it reads the initial -1 and
 * the result is -10 instead of 10.  main starts worker1 before worker2, so
 * in plain runs worker1 nearly always wins and the bug hides.
 *
 * gates.yaml holds worker1 at its store until worker2 has exited.
 */
#include <pthread.h>
#include <stdio.h>

static int multiplier = -1;
static int result = 0;
/* (the fixed variant declares its mutex, condition variable and flag here;
 * these lines keep the gated line at the same number in both files) */


static void *worker1(void *arg)
{
    (void)arg;
    /* (the fixed variant takes the lock here) */
    multiplier = 1;                     /* gated line */
    return NULL;
}

static void *worker2(void *arg)
{
    (void)arg;
    result = multiplier * 10;
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
