/* reopen.c: opens a library, closes it, fills the hole it left, and opens
 * it again, so that it maps at another place: its gates, and the line
 * their then_open waits for, must follow it there (the run's bias table).
 * argv[1]: the library (libpastlib.so). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>

static void (*write_fn)(void);
static volatile int *shared;

static void *writer(void *a)
{
	(void)a;
	write_fn();
	return NULL;
}

static void *reader(void *a)
{
	int seen;

	(void)a;
	seen = *shared;                       /* gated: reopen.yaml */
	printf("saw %d\n", seen);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w, r;
	void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;

	if (!h)
		return 2;
	printf("first at %p\n", dlsym(h, "past_write"));
	dlclose(h);
	/* the hole it left: so the second dlopen maps it elsewhere */
	for (int i = 0; i < 64; i++)
		mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	h = dlopen(argv[1], RTLD_NOW);
	printf("second at %p\n", dlsym(h, "past_write"));
	write_fn = (void (*)(void))dlsym(h, "past_write");
	shared = dlsym(h, "past_shared");
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	return 0;
}
