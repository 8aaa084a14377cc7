/* long_task (FIXED): the test joins the task instead of sleeping and
 * hoping, so it checks task_done only after the task has finished, however
 * long the task took and however loaded the machine is.  (Where the test
 * must not block forever, the same idea works with a condition variable and
 * pthread_cond_timedwait with a generous deadline: wait for the event, not
 * for a guessed duration.)
 *
 * The gated lines keep their numbers, so the same gates.yaml runs on this
 * binary.  Its gates still fire: the task reaches its last line (opening
 * task-done) before it exits, so by the time main reaches the check the
 * event is open and nothing waits.  The outcome is still PASSED.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* (no MAX_TIME_MS: the test no longer guesses how long the task takes) */

static atomic_int task_done;
static long work_us;        /* CPU time the task needs this run */

static long cpu_time_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

/* The long running task: busy work for work_us microseconds of its own CPU
 * time, then it reports completion. */
static void *long_running_task(void *arg)
{
    volatile unsigned long sink = 0;
    long start = cpu_time_us();
    unsigned long i = 0;

    (void)arg;
    while (cpu_time_us() - start < work_us)
        sink += ++i * 2654435761UL;
    atomic_store(&task_done, 1);
    return NULL;                        /* last line of the task: gated */
}

int main(void)
{
    pthread_t task;
    /* (no max_time: there is nothing to sleep for) */

    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    work_us = 4000 + rand() % 8000;     /* 4 to 12 ms of CPU */

    if (pthread_create(&task, NULL, long_running_task, NULL) != 0) {
        fprintf(stderr, "long_task: pthread_create failed\n");
        return 2;
    }
    pthread_join(task, NULL);           /* wait for the task itself */
    if (!atomic_load(&task_done)) {     /* the check: gated line */
        printf("FAIL: task not done after it was joined\n");
        return 1;
    }

    printf("task done\n");
    return 0;
}
