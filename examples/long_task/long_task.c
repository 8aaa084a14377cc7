/* long_task: the seed paper's "unspecified time" test (section 4.1.1) in C.
 *
 * A background task needs a few milliseconds of CPU (how many varies from
 * run to run).  The test starts it, sleeps MAX_TIME_MS, the time the task
 * "never exceeds", and then checks task_done.  On an idle machine the task
 * is done by then; on a loaded one (CI, a debugger, a sanitizer) the task
 * gets less of the CPU, runs longer than MAX_TIME_MS in wall time, and the
 * test fails although the task is correct: a flaky test.
 *
 * gates.yaml replaces the sleep's hope with an order: the check waits until
 * the task has reached its last line.  Expected outcome: exit 0, every run.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_TIME_MS 20      /* what the test believes the task never exceeds */

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
    struct timespec max_time = {0, MAX_TIME_MS * 1000000L};

    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    work_us = 4000 + rand() % 8000;     /* 4 to 12 ms of CPU */

    if (pthread_create(&task, NULL, long_running_task, NULL) != 0) {
        fprintf(stderr, "long_task: pthread_create failed\n");
        return 2;
    }
    nanosleep(&max_time, NULL);         /* "the task is done by now" */
    if (!atomic_load(&task_done)) {     /* the check: gated line */
        printf("FAIL: task not done after %d ms\n", MAX_TIME_MS);
        return 1;
    }
    pthread_join(task, NULL);
    printf("task done\n");
    return 0;
}
