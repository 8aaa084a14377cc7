/* tally (FIXED): each counter adds its share under total_lock, so the two
 * additions cannot interleave and the total is always 7.
 *
 * The gated line keeps its number.  The order gates.yaml asks for (both
 * counters load before either stores) is impossible now: the first counter
 * waits at its store, holding the lock, for the other to have loaded, and
 * the other waits for the lock.  racegate reports SCHEDULE-DEADLOCK; with
 * --on-deadlock release, ORDER-INFEASIBLE and total = 7.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static long total;                      /* the sum of the counters' shares */
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

struct share {
    const char *votes;                  /* one character per ballot, 'y' counts */
};

static void *counter(void *arg)
{
    const struct share *sh = arg;
    long mine = 0;

    for (const char *v = sh->votes; *v; v++)
        mine += *v == 'y';
    usleep(1000);                       /* both counters are live when they add */
    pthread_mutex_lock(&total_lock);
    long t = total;                     /* load */
    t = t + mine;                       /* add */
    total = t;                          /* store: gated line */
    pthread_mutex_unlock(&total_lock);
    return NULL;
}

int main(void)
{
    struct share shares[2] = {{"yynyn"}, {"yyyny"}};
    pthread_t t[2];

    for (int i = 0; i < 2; i++) {
        if (pthread_create(&t[i], NULL, counter, &shares[i]) != 0) {
            fprintf(stderr, "tally: pthread_create failed\n");
            return 2;
        }
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("total = %ld\n", total);
    return 0;
}
