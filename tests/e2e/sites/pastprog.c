/* pastprog.c: the writer calls into libpastlib.so, whose gated line sleeps
 * and then writes; the reader waits (through the gates) for that line to be
 * passed and says what it saw.  then_open on a library line must open after
 * the line, as in the executable: "saw 1". */
#include <pthread.h>
#include <stdio.h>

extern volatile int past_shared;
void past_write(void);

static void *writer(void *arg)
{
	(void)arg;
	past_write();
	return NULL;
}

static void *reader(void *arg)
{
	int seen;

	(void)arg;
	seen = past_shared;                   /* the read: gated */
	printf("saw %d\n", seen);
	return NULL;
}

int main(void)
{
	pthread_t w, r;

	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	return 0;
}
