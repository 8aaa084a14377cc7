/* ELF fuzzing corpus (tests/fuzz/elf): the shared object fz_main uses. */
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int fz_lib_add(int *cell, int v)
{
	int old;

	pthread_mutex_lock(&lock);
	old = *cell;                            /* @lib-load */
	*cell = old + v;
	pthread_mutex_unlock(&lock);
	return old;
}
