/* A shared buffer with a reference count: each user drops its reference
 * when done, and whoever sees the count at zero frees the buffer.  The
 * decrement and the check are two steps, so both users can see zero and
 * both free it.  "Sometimes it crashes in free()." */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buffer {
	atomic_int refs;
	char data[64];
};

static void buffer_put(struct buffer *b)
{
	atomic_fetch_sub(&b->refs, 1);
	if (atomic_load(&b->refs) == 0) {
		memset(b->data, 0, sizeof b->data);
		free(b);
	}
}

static void *user(void *arg)
{
	struct buffer *b = arg;
	size_t n = strlen(b->data);
	buffer_put(b);
	return (void *)n;
}

int main(void)
{
	struct buffer *b = malloc(sizeof *b);
	atomic_init(&b->refs, 2);
	strcpy(b->data, "hello");
	pthread_t t1, t2;
	pthread_create(&t1, NULL, user, b);
	pthread_create(&t2, NULL, user, b);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	puts("ok");
	return 0;
}
