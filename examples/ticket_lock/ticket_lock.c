/* ticket_lock: a hand-rolled ticket lock whose waiters spin with sched_yield.
 *
 * Three threads each take the lock twice to bump a shared count.  A thread
 * takes a ticket (reads next, stores next + 1), then spins, calling
 * sched_yield, until now_serving reaches its ticket.  Taking the ticket is
 * a read and a write, not one atomic step: two threads that both read
 * before either writes hold the same ticket and are inside the lock at
 * once: each notes itself as the owner and checks, after its bump, that
 * it still is; it aborts when it is not.  When the two pass through one
 * after the other instead, now_serving skips a ticket and its holder spins
 * for ever.  Plain runs almost never show either (the window is two
 * instructions).
 *
 * The waiters spin: a scheduler that keeps choosing a spinning thread
 * never runs the one it waits for.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 3
#define ROUNDS 2

static volatile unsigned next_ticket;   /* the next ticket to hand out */
static volatile unsigned now_serving;   /* the ticket that may go in */
static volatile int owner;              /* the bumper inside the lock */
static int count;

static void ticket_lock(void)
{
    unsigned mine = next_ticket;                 /* TAKE-READ */
    next_ticket = mine + 1;                      /* TAKE-WRITE */

    while (now_serving != mine)
        sched_yield();
}

static void ticket_unlock(void)
{
    now_serving = now_serving + 1;
}

static void *bumper(void *arg)
{
    int me = (int)(long)arg;

    for (int i = 0; i < ROUNDS; i++) {
        ticket_lock();
        owner = me;                              /* INSIDE */
        count++;
        if (owner != me) {                       /* ALONE */
            fprintf(stderr, "bumper %d: bumper %d is inside the ticket lock too\n",
                    me, owner);
            abort();
        }
        ticket_unlock();
    }
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];

    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, bumper, (void *)(long)(i + 1)) != 0)
            return 2;
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    printf("count = %d\n", count);
    return count != THREADS * ROUNDS;
}
