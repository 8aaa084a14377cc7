/* prefork_slots, fixed: a mutex makes the look and the mark one step.
 *
 * The master process forks one worker process, as pre-fork servers do,
 * and waits for it.  The worker starts two handler threads; each claims a
 * free slot of the worker's connection table for the request it serves:
 * it looks for a slot not in use, then marks it its own.  The look and the
 * mark are two steps, so two handlers can both find slot 0 free and both
 * take it: the second overwrites the first one's claim, and the worker,
 * which checks that each handler got a slot of its own, aborts.  The
 * master says how the worker ended and exits 1 when it did not end well.
 *
 * The threads run in the child process: racegate explore finds the bug
 * only when it follows the fork (--follow-fork), and gates.yaml names the
 * worker's threads with process: {nth: 1}.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define SLOTS 4
#define HANDLERS 2

struct slot {
    int used;
    int owner;
};

static struct slot slots[SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

static int claim(int me)
{
    int i;

    pthread_mutex_lock(&slots_lock);
    for (i = 0; i < SLOTS; i++)
        if (!slots[i].used)                   /* CLAIM-LOOK */
            break;
    slots[i].used = 1;                        /* CLAIM-MARK */
    slots[i].owner = me;
    pthread_mutex_unlock(&slots_lock);
    return i;
}

static int got[HANDLERS + 1];     /* per handler (1, 2): its slot */

static void *handler(void *arg)
{
    int me = (int)(long)arg;

    got[me] = claim(me);                      /* SERVE */
    return NULL;
}

static int worker(void)
{
    pthread_t t[HANDLERS];
    long i;

    for (i = 0; i < HANDLERS; i++)
        if (pthread_create(&t[i], NULL, handler, (void *)(i + 1)) != 0)
            return 2;
    for (i = 0; i < HANDLERS; i++)
        pthread_join(t[i], NULL);
    if (got[1] == got[2]) {
        fprintf(stderr, "worker: handlers 1 and 2 both hold slot %d (its owner: %d)\n",
                got[1], slots[got[1]].owner);
        abort();
    }
    return 0;
}

int main(void)
{
    int status;
    pid_t pid = fork();

    if (pid < 0) {
        perror("prefork_slots: fork");
        return 2;
    }
    if (pid == 0)
        _exit(worker());
    if (waitpid(pid, &status, 0) < 0) {
        perror("prefork_slots: waitpid");
        return 2;
    }
    if (WIFSIGNALED(status)) {
        printf("worker %d killed by signal %d\n", (int)pid, WTERMSIG(status));
        return 1;
    }
    printf("worker %d exited %d\n", (int)pid, WEXITSTATUS(status));
    return WEXITSTATUS(status) != 0;
}
