/* abba_deadlock (FIXED): both threads take the locks in the same order,
 * lock_a then lock_b, so neither can hold one while waiting for the other.
 * The gated lines (each thread's second lock) keep their numbers, so the
 * same gates.yaml runs here, and its order is now impossible: transfer holds
 * lock_a at its gate until refund has taken its first lock, which is lock_a.
 * racegate reports SCHEDULE-DEADLOCK, or ORDER-INFEASIBLE with
 * --on-deadlock release.
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static int balance_a = 100, balance_b = 0;

static void *transfer(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock_a);
    pthread_mutex_lock(&lock_b);        /* second lock: gated line */
    balance_a -= 10;
    balance_b += 10;
    pthread_mutex_unlock(&lock_b);
    pthread_mutex_unlock(&lock_a);
    return NULL;
}

static void *refund(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock_a);        /* the same order as transfer */
    pthread_mutex_lock(&lock_b);        /* second lock: gated line */
    balance_b -= 5;
    balance_a += 5;
    pthread_mutex_unlock(&lock_a);
    pthread_mutex_unlock(&lock_b);
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;

    if (pthread_create(&t1, NULL, transfer, NULL) != 0 ||
        pthread_create(&t2, NULL, refund, NULL) != 0) {
        fprintf(stderr, "abba_deadlock: pthread_create failed\n");
        return 2;
    }
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    printf("a = %d, b = %d\n", balance_a, balance_b);
    return balance_a + balance_b == 100 ? 0 : 1;
}
