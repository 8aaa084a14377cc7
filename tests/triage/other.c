/* Warnings that are not data races, for tests/triage/gen.sh: two locks
 * taken in both orders (TSan's lock-order-inversion, Helgrind's "lock order
 * violated") and a thread never joined (TSan's thread leak), around one
 * data race.  The parser lists the others and reads the race.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
static int shared;

static void *racer(void *arg)
{
    (void)arg;
    shared = 1;
    return NULL;
}

int main(void)
{
    pthread_t t, leak;

    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    pthread_create(&t, NULL, racer, NULL);
    usleep(2000);
    printf("%d\n", shared);
    pthread_join(t, NULL);
    pthread_create(&leak, NULL, racer, NULL);
    usleep(2000);
    return 0;
}
