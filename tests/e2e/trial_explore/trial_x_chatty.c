/* A converter that logs every record it handles, a lot of output, while
 * two threads share a record counter without a lock.  "Sometimes the
 * summary says one record less" -- after a megabyte of log. */
#include <pthread.h>
#include <stdio.h>

static int handled;

static void *convert(void *arg)
{
	const char *who = arg;
	for (int i = 0; i < 8000; i++)
		printf("%s: record %d converted, checksum %08x ok\n", who, i, i * 2654435761u);
	int h = handled;
	handled = h + 1;
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, convert, "left");
	pthread_create(&b, NULL, convert, "right");
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("handled %d\n", handled);
	return handled == 2 ? 0 : 1;
}
