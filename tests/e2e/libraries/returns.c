/* returns: a recursive function two threads are inside at once, for
 * FUNCTION:return gates (each return, per thread and per frame).
 */
#include <pthread.h>
#include <stdio.h>

static int depth(int n)
{
    if (n == 0)
        return 0;
    return 1 + depth(n - 1);
}

static void *worker(void *arg)
{
    printf("worker %ld: depth %d\n", (long)arg, depth(2));
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
    printf("done\n");
    return 0;
}
