/* payment_ring: three payments that each lock two accounts, in a ring.
 *
 * transfer() locks the payer's account, then the payee's.  Any two of the
 * payments below are safe together (alice->bob and bob->carol never wait on
 * each other in a cycle), and a review that checks the lock order pair by
 * pair passes.  All three at once form a cycle: when each payment holds its
 * payer's lock, each waits for the next one's, for ever.  Two payments must
 * be stopped between their two locks at once: a bug that needs two
 * preemptions.
 *
 * gates.yaml: a barrier of three at the second lock.
 */
#include <pthread.h>
#include <stdio.h>

struct account {
    const char *name;
    pthread_mutex_t lock;
    long balance;
};

struct payment {
    struct account *from, *to;
    long amount;
};

static struct account alice = {"alice", PTHREAD_MUTEX_INITIALIZER, 100};
static struct account bob = {"bob", PTHREAD_MUTEX_INITIALIZER, 100};
static struct account carol = {"carol", PTHREAD_MUTEX_INITIALIZER, 100};

static void transfer(struct account *from, struct account *to, long amount)
{
    struct account *first = from, *second = to;     /* the payer first */

    pthread_mutex_lock(&first->lock);
    pthread_mutex_lock(&second->lock);      /* gated line */
    from->balance -= amount;
    to->balance += amount;
    pthread_mutex_unlock(&second->lock);
    pthread_mutex_unlock(&first->lock);
}

static void *settle(void *arg)
{
    struct payment *p = arg;

    transfer(p->from, p->to, p->amount);
    return NULL;
}

int main(void)
{
    struct payment ring[3] = {
        {&alice, &bob, 10}, {&bob, &carol, 20}, {&carol, &alice, 30},
    };
    pthread_t t[3];
    int i;

    for (i = 0; i < 3; i++) {
        if (pthread_create(&t[i], NULL, settle, &ring[i]) != 0) {
            fprintf(stderr, "payment_ring: pthread_create failed\n");
            return 2;
        }
    }
    for (i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    printf("alice %ld, bob %ld, carol %ld\n", alice.balance, bob.balance,
           carol.balance);
    return alice.balance + bob.balance + carol.balance == 300 ? 0 : 1;
}
