/* spin_handoff (FIXED): the handoff flag is a C11 atomic, stored with
 * release and loaded with acquire order.  That is what the compiler
 * barriers and x86's store order did by hand, now said in a way the
 * compiler and ThreadSanitizer both understand: it reports nothing.
 * Nothing changes in what the program does: the consumer still reads
 * data only after the producer has written it.
 *
 * The gated lines keep their numbers, and gates.yaml's order is as
 * impossible as before: the producer is held at its write until the gate's
 * timeout lets it go.  (The buggy program had this one order only, too:
 * its "race" is ThreadSanitizer not seeing the hand-made handoff.)
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

int data;                               /* written once, by the producer */
atomic_int ready;                       /* the handoff flag */

/* (no hand-made barriers: the atomic accesses order the others) */


static void *producer(void *arg)
{
    (void)arg;
    usleep(2000);                       /* the consumer is spinning by now */
    data = 42;                          /* write: gated line */
    atomic_store_explicit(&ready, 1, memory_order_release); /* publish */

    return NULL;
}

static void *consumer(void *arg)
{
    int *out = arg;

    while (!atomic_load_explicit(&ready, memory_order_acquire)) /* wait */
        sched_yield();

    *out = data;                        /* read: gated line */
    return NULL;
}

int main(void)
{
    pthread_t p, c;
    int got = 0;

    if (pthread_create(&c, NULL, consumer, &got) != 0 ||
        pthread_create(&p, NULL, producer, NULL) != 0) {
        fprintf(stderr, "spin_handoff: pthread_create failed\n");
        return 2;
    }
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    printf("data = %d\n", got);
    return got == 42 ? 0 : 1;
}
