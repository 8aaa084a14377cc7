/* deeprec: FUNCTION:return under deep recursion (issue 11), with frames
 * that never return (longjmp out of the bottom) and two threads recursing
 * at once.  Every return of rec() is counted by the gates in deeprec.yaml.
 *
 *   main:    rec(20000)           20,001 returns
 *            rec(5000), longjmp   no return: 5,001 frames left behind
 *            rec(3)               4 returns                -> 20,005
 *   w1, w2:  rec(10000) each, both inside at once: 10,001 returns each
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>

static jmp_buf out;
static int jump;

static int rec(int n)
{
    if (n == 0) {
        if (jump)
            longjmp(out, 1);
        return 0;
    }
    return 1 + rec(n - 1);
}

static void *worker(void *arg)
{
    printf("worker %ld: %d\n", (long)arg, rec(10000));
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    long i;
    int a, b = -1;

    a = rec(20000);
    jump = 1;
    if (!setjmp(out))
        b = rec(5000);
    jump = 0;
    b = rec(3);
    printf("main: %d %d\n", a, b);
    for (i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)(i + 1));
    for (i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("done\n"); /* end */
    return 0;
}
