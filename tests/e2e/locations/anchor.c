/* anchor: the spec gates its lines by regex, so that a copy of this file
 * with lines inserted above (locations.cmake makes one) runs the
 * same spec.  Thread 2 sets `ready` only after thread 1 has read it: the
 * gates force "read before set", and the program reports it.
 */
#include <pthread.h>
#include <stdio.h>

static int ready;
static int seen = -1;

static void *reader(void *arg)
{
	(void)arg;
	seen = ready;	/* ANCHOR: read */
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	ready = 1;	/* ANCHOR: write */
	return NULL;
}

int main(void)
{
	pthread_t r, w;

	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	printf("seen = %d\n", seen);
	return seen == 1 ? 0 : 1;
}
