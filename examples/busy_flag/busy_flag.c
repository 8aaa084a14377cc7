/* busy_flag: a hand-rolled try-lock in front of a non-reentrant encoder.
 *
 * The frame encoder keeps its work in static state, so one thread at a time
 * may use it.  Three workers each encode one message; a worker that finds
 * the encoder busy takes the slow path (snprintf) instead of waiting.  The
 * "lock" is a plain flag: check it, then set it.  A worker stopped between
 * the check and the set, while another worker is inside the encoder, goes
 * in as well; the two share the encoder's buffer, and the encoder's own
 * check of the frame's length aborts the program.  Two threads must
 * be stopped at once, each in its own window: a bug that needs two
 * preemptions.  Plain runs never show it.
 *
 * gates.yaml: worker 1 checks the flag and waits; worker 2 goes in and
 * waits inside the encoder; worker 1 goes in and encodes; worker 2 ends its
 * frame behind worker 1's bytes, and its assertion fails.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORKERS 3
#define FRAME_MAX 32

static struct {
    char buf[FRAME_MAX];
    int len;
} enc;                              /* the encoder's state: not reentrant */
static int encoder_busy;            /* "someone is in the encoder" */
/* (the fixed variant declares its lock here) */

static const char *const messages[WORKERS] = {"ab", "cd", "ef"};
static char frames[WORKERS][FRAME_MAX];

static void enc_put(const char *s)
{
    while (*s)
        enc.buf[enc.len++] = *s++;
}

/* the fast path: <msg> through the encoder's own buffer */
static void encode(const char *msg, char *out)
{
    enc.len = 0;
    enc_put("<");
    enc_put(msg);
    enc_put(">");
    if (enc.len != (int)strlen(msg) + 2) abort();  /* <msg>, nothing else */
    memcpy(out, enc.buf, enc.len);
    out[enc.len] = '\0';
}

static void *worker(void *arg)
{
    int id = (int)(long)arg;

    if (!encoder_busy) {                    /* check ... */
        encoder_busy = 1;                   /* ... then act: gated line */
        encode(messages[id], frames[id]);
        encoder_busy = 0;
        /* (the fixed variant lets its lock go here) */
    } else {
        snprintf(frames[id], FRAME_MAX, "<%s>", messages[id]);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[WORKERS];
    char want[FRAME_MAX];
    int i, bad = 0;

    for (i = 0; i < WORKERS; i++) {
        if (pthread_create(&t[i], NULL, worker, (void *)(long)i) != 0) {
            fprintf(stderr, "busy_flag: pthread_create failed\n");
            return 2;
        }
    }
    for (i = 0; i < WORKERS; i++)
        pthread_join(t[i], NULL);
    for (i = 0; i < WORKERS; i++) {
        snprintf(want, sizeof want, "<%s>", messages[i]);
        if (strcmp(frames[i], want) != 0) {
            printf("FAIL: worker %d sent '%s', not '%s'\n", i + 1, frames[i], want);
            bad = 1;
        }
    }
    if (!bad)
        printf("all %d frames intact\n", WORKERS);
    return bad;
}
