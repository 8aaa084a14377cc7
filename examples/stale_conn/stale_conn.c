/* stale_conn: a check-then-use of a pointer that another thread frees.
 * The sender checks that the connection is still open (conn != NULL), builds
 * its message, and then uses conn, which it loads a second time.  The closer
 * sets conn to NULL and frees the connection.  If the close lands between
 * the check and the use, the sender dereferences NULL: SIGSEGV.  The window
 * is a snprintf wide, so plain runs practically never hit it.
 *
 * gates.yaml: the sender, having checked, waits at its use until the closer
 * has cleared conn.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS 10

struct conn {
    int fd;
    long sent;                          /* bytes sent */
};

struct conn *conn;                      /* NULL once closed */
/* (the fixed variant declares its mutex here) */

static void *sender(void *arg)
{
    char msg[32];
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        /* (the fixed variant takes the lock here) */
        if (conn != NULL) {                             /* check */
            snprintf(msg, sizeof msg, "round %d", i);
            conn->sent += (long)strlen(msg);            /* use: gated line */
        }
        /* (the fixed variant lets the lock go here) */
        usleep(1000);
    }
    return NULL;
}

static void *closer(void *arg)
{
    (void)arg;
    usleep(4000);
    /* (the fixed variant takes the lock here) */
    struct conn *c = conn;
    conn = NULL;                                        /* close: gated line */
    free(c);
    /* (the fixed variant lets the lock go here) */
    return NULL;
}

int main(void)
{
    pthread_t s, c;

    conn = calloc(1, sizeof *conn);
    if (conn == NULL)
        return 2;
    if (pthread_create(&s, NULL, sender, NULL) != 0 ||
        pthread_create(&c, NULL, closer, NULL) != 0) {
        fprintf(stderr, "stale_conn: pthread_create failed\n");
        return 2;
    }
    pthread_join(s, NULL);
    pthread_join(c, NULL);
    printf("sender done, connection closed\n");
    return 0;
}
