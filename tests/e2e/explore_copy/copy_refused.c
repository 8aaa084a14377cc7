/* A program explore's fork server must not copy, for the reason the
 * environment's COPY_REFUSED names (its library, copy_early.c, acts on it
 * before the program's entry point), or may copy when it is unset.  Two
 * threads add to a counter under a mutex: the search runs to its end,
 * each schedule anew or in a copy. */
#include <pthread.h>

extern int copy_early_value;   /* copy_early.c: the library is linked */
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	counter++;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return counter == 2 && copy_early_value >= 0 ? 0 : 1;
}
