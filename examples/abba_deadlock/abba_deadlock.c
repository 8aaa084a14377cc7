/* abba_deadlock: the classic lock-order deadlock.  transfer() takes lock_a
 * then lock_b; refund() takes lock_b then lock_a.  If each thread has taken
 * its first lock before either takes its second, both wait for ever.  The
 * window is one line wide, so plain runs almost never hit it.
 *
 * gates.yaml holds each thread after its first lock until the other one
 * has taken its first lock too; then both go on and deadlock by themselves.
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
    pthread_mutex_lock(&lock_b);        /* lock order b, a: the bug */
    pthread_mutex_lock(&lock_a);        /* second lock: gated line */
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
