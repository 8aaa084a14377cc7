/* A tool whose worker hits a fatal error and calls exit() from its own
 * thread, while the main thread is still writing the results file; main's
 * atexit handler then frees the buffer that main is writing from.
 * "Sometimes it crashes on a bad input instead of printing the error." */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *results;

static void cleanup(void)
{
	free(results);
	results = NULL;
}

static void *validator(void *arg)
{
	const char *input = arg;
	if (strchr(input, '!')) {
		fprintf(stderr, "bad input\n");
		exit(3);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *input = argc > 1 ? argv[1] : "bad!";
	results = calloc(16, 1);
	atexit(cleanup);
	pthread_t t;
	pthread_create(&t, NULL, validator, (void *)input);
	size_t n = 0;
	for (int i = 0; i < 4; i++) {
		char *r = results;
		n += strlen(r);
		r[i] = 'x';
	}
	pthread_join(t, NULL);
	printf("%zu\n", n);
	return 0;
}
