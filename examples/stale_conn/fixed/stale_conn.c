/* stale_conn (FIXED): the sender checks and uses conn under conn_lock, and
 * the closer clears and frees it under the same lock, so no close can land
 * between a check and its use.
 *
 * The gated lines keep their numbers.  Under gates.yaml the sender waits at
 * its use, holding the lock, for the closer to clear conn, and the closer
 * waits for the lock: racegate reports SCHEDULE-DEADLOCK, the order is
 * impossible.  Without racegate the sender sends until the closer has
 * closed, then checks and finds conn NULL.
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
static pthread_mutex_t conn_lock = PTHREAD_MUTEX_INITIALIZER;

static void *sender(void *arg)
{
    char msg[32];
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        pthread_mutex_lock(&conn_lock);
        if (conn != NULL) {                             /* check */
            snprintf(msg, sizeof msg, "round %d", i);
            conn->sent += (long)strlen(msg);            /* use: gated line */
        }
        pthread_mutex_unlock(&conn_lock);
        usleep(1000);
    }
    return NULL;
}

static void *closer(void *arg)
{
    (void)arg;
    usleep(4000);
    pthread_mutex_lock(&conn_lock);
    struct conn *c = conn;
    conn = NULL;                                        /* close: gated line */
    free(c);
    pthread_mutex_unlock(&conn_lock);
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
