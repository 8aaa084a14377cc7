/* tally: two counters each count their share of the votes, then add it to
 * the shared total as a load and a store on separate lines.  If both load
 * before either stores, one share is lost.  Nothing checks the total: the
 * program prints it and exits 0 either way, so only its output differs
 * (total = 7 when both shares arrive, 3 or 4 when one is lost).
 *
 * gates.yaml makes both counters load the total before either stores it,
 * and the second share (4 votes) store last: total = 4.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static long total;                      /* the sum of the counters' shares */
/* (the fixed variant declares its mutex here) */

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
    /* (the fixed variant takes the lock here) */
    long t = total;                     /* load */
    t = t + mine;                       /* add */
    total = t;                          /* store: gated line */
    /* (the fixed variant lets the lock go here) */
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
