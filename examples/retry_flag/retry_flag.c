/* retry_flag: a benign race.  Each worker handles its requests and, when
 * one needs a retry, sets the shared flag saw_retry to 1.  Both workers
 * store the same value, without a lock, and main reads the flag after
 * joining them to print one log line.  ThreadSanitizer reports the two
 * stores as a data race; in either order the flag ends at 1 and the program
 * prints the same lines.
 *
 * gates.yaml makes worker 2 store first and worker 1 second, and expects the
 * usual output.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define REQUESTS 4

static int saw_retry;                   /* some request needed a retry */

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
            saw_retry = 1;              /* store: gated line */
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
    if (saw_retry)
        printf("note: some requests needed a retry\n");
    return 0;
}
