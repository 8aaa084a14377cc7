/* spin_handoff: a "race" with only one possible order.  The producer
 * writes data, then sets the plain int ready; the consumer spins until
 * ready is set, then reads data.  ThreadSanitizer does not see a plain int
 * as synchronization, so it reports the write and the read of data as a
 * data race (and the flag itself as another).  But the consumer cannot read
 * data before the producer has written it: it does not get past its loop
 * until the producer has set ready, after writing data.  (x86 keeps the two
 * stores in order; the compiler barriers keep the compiler from reordering
 * them.  C11 atomics would say the same to the compiler and to
 * ThreadSanitizer: fixed/spin_handoff.c.)
 *
 * gates.yaml asks for the impossible order, the read of data first: the
 * producer is held at its write until the gate's timeout lets it go.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

int data;                               /* written once, by the producer */
int ready;                              /* the hand-made handoff flag */

#define BARRIER() __asm__ __volatile__("" ::: "memory")

static void *producer(void *arg)
{
    (void)arg;
    usleep(2000);                       /* the consumer is spinning by now */
    data = 42;                          /* write: gated line */
    BARRIER();
    ready = 1;                          /* publish */
    return NULL;
}

static void *consumer(void *arg)
{
    int *out = arg;

    while (!ready)                      /* wait for the handoff */
        sched_yield();
    BARRIER();
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
