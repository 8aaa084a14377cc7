/* retry_flag (FIXED): the flag is a C11 atomic, stored with a relaxed
 * atomic store.  Nothing changes in what the program does (the race was
 * benign); ThreadSanitizer no longer reports it, and the intent is written
 * down.
 *
 * The gated line keeps its number, and the same gates.yaml passes: worker 2
 * stores first, worker 1 second, and the output is the usual one, as it
 * was for the buggy program.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

#define REQUESTS 4

static atomic_int saw_retry;                   /* some request needed a retry */

struct batch {
    int first_try_fails[REQUESTS];      /* 1: the request fails once */
    int done;
};

static int handle(int fails_once)
{
    usleep(200);                        /* the request's work */
    return fails_once ? -1 : 0;
}

static void *worker(void *arg)
{
    struct batch *b = arg;

    for (int i = 0; i < REQUESTS; i++) {
        if (handle(b->first_try_fails[i]) != 0) {
            atomic_store_explicit(&saw_retry, 1, memory_order_relaxed); /* store: gated line */
            handle(0);
        }
        b->done++;
    }
    return NULL;
}

int main(void)
{
    struct batch batches[2] = {{{0, 1, 0, 0}, 0}, {{0, 0, 1, 0}, 0}};
    pthread_t t[2];

    for (int i = 0; i < 2; i++) {
        if (pthread_create(&t[i], NULL, worker, &batches[i]) != 0) {
            fprintf(stderr, "retry_flag: pthread_create failed\n");
            return 2;
        }
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("handled %d requests\n", batches[0].done + batches[1].done);
    if (atomic_load_explicit(&saw_retry, memory_order_relaxed))
        printf("note: some requests needed a retry\n");
    return 0;
}
