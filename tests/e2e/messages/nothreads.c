/*
 * No thread library at all: linked statically and never calling
 * pthread_create, so a {start: worker} selector can never bind, however
 * often worker runs.  racegate must say so rather than only report the
 * gate as never reached.
 */
#include <stdio.h>

static int counter;

static void worker(void)
{
	counter++;                              /* gated */
}

int main(void)
{
	worker();
	printf("counter = %d\n", counter);
	return 0;
}
