/* job_queue: a thread pool whose workers sometimes crash on an empty queue.
 *
 * Two workers take jobs from a queue; main submits a few jobs and then one
 * stop job per worker.  queue_pop() waits on the condition `nonempty` when
 * the queue is empty -- with `if`, not `while`.  queue_push() signals after
 * it has let the lock go.  Between the two, a worker that was not waiting
 * can take the new job first; the worker that was woken for it does not
 * look again, takes an empty slot (NULL) and crashes in run_job (SIGSEGV).
 *
 * gates.yaml: worker 1 waits on the empty queue; main pushes and is held
 * before its signal until worker 2 has taken the job; the signal then wakes
 * worker 1 for nothing.
 */
#include <pthread.h>
#include <stdio.h>

#define QCAP 8
#define WORKERS 2
#define JOBS 4

struct job {
    int id;                     /* -1: stop */
    int arg;
};

struct queue {
    pthread_mutex_t lock;
    pthread_cond_t nonempty;
    struct job *slots[QCAP];
    int head, count;
};

static struct queue q = {.lock = PTHREAD_MUTEX_INITIALIZER,
                         .nonempty = PTHREAD_COND_INITIALIZER};
static struct job jobs[JOBS + WORKERS];
static long results[JOBS];

static void queue_push(struct queue *qu, struct job *j)
{
    pthread_mutex_lock(&qu->lock);
    qu->slots[(qu->head + qu->count) % QCAP] = j;
    qu->count++;
    pthread_mutex_unlock(&qu->lock);
    pthread_cond_signal(&qu->nonempty);     /* signal after unlock */
}

static struct job *queue_pop(struct queue *qu)
{
    struct job *j;

    pthread_mutex_lock(&qu->lock);
    while (qu->count == 0)                  /* the fix: look again */
        pthread_cond_wait(&qu->nonempty, &qu->lock);
    j = qu->slots[qu->head];
    qu->slots[qu->head] = NULL;
    qu->head = (qu->head + 1) % QCAP;
    qu->count--;
    pthread_mutex_unlock(&qu->lock);
    return j;
}

static int run_job(struct job *j)
{
    if (j->id < 0)                          /* crashes when j is NULL */
        return 0;
    results[j->id] = (long)j->arg * j->arg;
    return 1;
}

static void *worker(void *arg)
{
    (void)arg;
    while (run_job(queue_pop(&q)))
        ;
    return NULL;
}

int main(void)
{
    pthread_t t[WORKERS];
    long sum = 0;
    int i;

    for (i = 0; i < WORKERS; i++) {
        if (pthread_create(&t[i], NULL, worker, NULL) != 0) {
            fprintf(stderr, "job_queue: pthread_create failed\n");
            return 2;
        }
    }
    for (i = 0; i < JOBS + WORKERS; i++) {
        jobs[i].id = i < JOBS ? i : -1;
        jobs[i].arg = i + 1;
        queue_push(&q, &jobs[i]);
    }
    for (i = 0; i < WORKERS; i++)
        pthread_join(t[i], NULL);
    for (i = 0; i < JOBS; i++)
        sum += results[i];
    printf("sum of squares = %ld\n", sum);
    return sum == 30 ? 0 : 1;
}
