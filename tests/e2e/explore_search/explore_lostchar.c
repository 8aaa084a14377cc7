/*
 * Two threads append a character each to a shared buffer without a lock:
 * in the bad order one character is lost.  The program exits 0 either
 * way; only its stdout shows the bug ("2 chars" is right), so explore
 * must judge the output, and write it in expect:.
 */
#include <pthread.h>
#include <stdio.h>

static char buf[8];
static int len;

static void *append(void *arg)
{
	int at = len;                   /* where this thread will write */

	buf[at] = *(const char *)arg;
	len = at + 1;
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, append, "a");
	pthread_create(&b, NULL, append, "b");
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d chars\n", len);
	return 0;
}
