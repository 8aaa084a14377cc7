/* A batch job whose two loader threads count loaded files without a lock.
 * When the count comes out short, it waits for the missing file to turn
 * up (a few seconds, as the real one waits for a network share) before it
 * gives up with exit 1.  A run that fails takes longer than 10 s.
 * "Sometimes the nightly job fails after a long wait." */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int loaded;

static void *loader(void *arg)
{
	(void)arg;
	int n = loaded;
	loaded = n + 1;
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned wait_ms = argc > 1 ? (unsigned)atoi(argv[1]) : 11000;
	pthread_t a, b;
	pthread_create(&a, NULL, loader, NULL);
	pthread_create(&b, NULL, loader, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	if (loaded != 2) {
		usleep(wait_ms * 1000);
		printf("loaded %d of 2 files\n", loaded);
		return 1;
	}
	return 0;
}
