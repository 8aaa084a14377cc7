/* The report formats' corners, for tests/triage/gen.sh: races whose
 * accesses hold a lock on one side, on a heap block, on another thread's
 * thread-local variable, an atomic store against a plain load, a named
 * thread, main as one side, and one racing line reached through two
 * callers (two warnings, one pair of places).  Not an example: nothing
 * here is meant to be triaged, only reported.
 */
#define _GNU_SOURCE                     /* pthread_setname_np */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct item {
    long id;
    long hits;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cv = PTHREAD_COND_INITIALIZER;
static struct item *item;
static int *tls_of_worker;
static __thread int mine;
static int flag;
static long slots[4][8];

static void bump(long *slot)
{
    *slot += 1;                         /* one line, two callers */
}

static void via_a(void) { bump(&slots[0][0]); }
static void via_b(void) { bump(&slots[2][0]); }

static void *worker(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "worker-a");
    pthread_mutex_lock(&ready_lock);
    tls_of_worker = &mine;
    pthread_cond_signal(&ready_cv);
    pthread_mutex_unlock(&ready_lock);
    usleep(2000);
    mine = 7;                           /* TLS, racing with main's read */
    pthread_mutex_lock(&lock);
    item->hits++;                       /* heap, under lock */
    pthread_mutex_unlock(&lock);
    __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
    via_a();
    via_b();
    return NULL;
}

static void *other(void *arg)
{
    (void)arg;
    usleep(1000);
    via_b();
    via_a();
    return NULL;
}

int main(void)
{
    pthread_t w, o;
    int seen;

    item = calloc(1, sizeof *item);
    if (item == NULL)
        return 2;
    pthread_create(&w, NULL, worker, NULL);
    pthread_create(&o, NULL, other, NULL);
    pthread_mutex_lock(&ready_lock);
    while (tls_of_worker == NULL)
        pthread_cond_wait(&ready_cv, &ready_lock);
    pthread_mutex_unlock(&ready_lock);
    usleep(5000);
    seen = *tls_of_worker;              /* TLS of worker-a */
    seen += (int)item->hits;            /* heap, no lock */
    seen += flag;                       /* plain load of an atomic store */
    pthread_join(w, NULL);
    pthread_join(o, NULL);
    printf("%d\n", seen);
    free(item);
    return 0;
}
