/* exit_flush, fixed: main joins the flusher before it returns.
 *
 * main opens a log buffer, registers log_close() with atexit, starts a
 * flusher thread that appends a few lines to the log, does its own work
 * and returns without joining the flusher.  exit() runs log_close(), which
 * frees the buffer and marks the log closed, while the flusher may still
 * be appending: a flusher that finds the log closed under it aborts.  In
 * plain runs the flusher is done long before main returns.
 *
 * The failure happens while main is inside exit(), after its return: the
 * gates must keep main there, past log_close(), until the flusher fails.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_SIZE 256

struct log {
    char *buf;
    size_t len;
    int closed;
};

static struct log lg;

static void log_close(void)
{
    free(lg.buf);
    lg.buf = NULL;
    lg.closed = 1;                              /* CLOSED */
}

static void log_append(const char *line)
{
    size_t n = strlen(line);

    if (lg.closed) {                            /* CHECK-OPEN */
        fprintf(stderr, "flusher: the log was closed under it\n");
        abort();
    }
    if (lg.len + n < LOG_SIZE) {
        memcpy(lg.buf + lg.len, line, n);
        lg.len += n;
    }
}

static void *flusher(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        log_append("flushed\n");
    return NULL;
}

static int work(void)
{
    int sum = 0;

    for (int i = 0; i < 10; i++)
        sum += i % 7;
    return sum;
}

int main(void)
{
    pthread_t t;

    lg.buf = malloc(LOG_SIZE);
    if (!lg.buf)
        return 2;
    atexit(log_close);
    if (pthread_create(&t, NULL, flusher, NULL) != 0)
        return 2;
    printf("work: %d\n", work());
    pthread_join(t, NULL);
    return 0;                                   /* RETURN */
}
