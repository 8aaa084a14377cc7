/* lockorder: two workers each take one mutex twice and log their id while
 * holding it.  Which one logs first is the scheduler's choice; the gates in
 * lockorder.yaml, all on libc's pthread_mutex_lock and pthread_mutex_unlock
 * (no debug information there), force the order 2 1 2 1.
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int log_ids[4];
static int nlog;

static void *worker(void *arg)
{
    int id = (int)(long)arg, i;

    for (i = 0; i < 2; i++) {
        pthread_mutex_lock(&lock);
        log_ids[nlog++] = id;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    long i;

    for (i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)(i + 1));
    for (i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("log: %d %d %d %d\n", log_ids[0], log_ids[1], log_ids[2], log_ids[3]);
    return 0;
}
