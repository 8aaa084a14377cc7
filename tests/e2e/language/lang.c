/* lang: small threads whose output shows the order racegate enforces, one
 * scenario per argument; the specs lang_*.yaml gate it.
 * Each line the specs name is marked with its tag: they name lines by
 * number, so keep the numbers when editing (add below main): each
 * tag says the line it must be on. */

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_barrier_t go;
static int jobs;
static pthread_t namer_thread;

static void say(const char *s)
{
	printf("%s\n", s);
	fflush(stdout);
}

static void *alpha(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&go);
	say("alpha one");                                  /* A1: line 27 */
	say("alpha two");                                  /* A2: line 28 */
	return NULL;
}

static void *beta(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&go);
	say("beta one");                                   /* B1: line 36 */
	say("beta two");                                   /* B2: line 37 */
	return NULL;
}

static void *gamma_(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&go);
	say("gamma one");                                  /* C1: line 45 */
	say("gamma two");                                  /* C2: line 46 */
	return NULL;
}

static void *namer(void *arg)
{
	(void)arg;
	usleep(20000);           /* main usually gets to its gate first */
	pthread_setname_np(pthread_self(), "flusher");
	say("flusher named");                              /* N1: line 55 */
	say("flusher flushes");                            /* N2: line 56 */
	return NULL;
}

static void *looper(void *arg)
{
	(void)arg;
	for (int i = 1; i <= 5; i++)
		printf("loop %d\n", i), fflush(stdout);    /* L: line 64 */
	return NULL;
}

static void never(void)
{
	say("never");                                      /* NEVER: line 70 */
}

static void *pool_worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&go);
	__atomic_add_fetch(&jobs, 1, __ATOMIC_SEQ_CST);    /* TAKE: line 77 */
	printf("job done by tid %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	return NULL;                                       /* POOL_DONE: line 80 */
}

static void run(void *(*fn[])(void *), int n)
{
	pthread_t t[8];
	int i;

	pthread_barrier_init(&go, NULL, (unsigned)n);
	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, fn[i], NULL);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
	const char *s = argc > 1 ? argv[1] : "";
	char name[32] = "";

	if (!strcmp(s, "abc")) {
		void *(*fn[])(void *) = {gamma_, beta, alpha};

		run(fn, 3);
	} else if (!strcmp(s, "pool")) {
		void *(*fn[])(void *) = {pool_worker, pool_worker, pool_worker, pool_worker};

		run(fn, 4);
		printf("%d jobs\n", jobs);
	} else if (!strcmp(s, "named")) {
		pthread_create(&namer_thread, NULL, namer, NULL);
		pthread_getname_np(namer_thread, name, sizeof(name)); /* MAIN_NAMED: line 111 */
		printf("main sees the thread named '%s'\n", name);
		fflush(stdout);
		pthread_join(namer_thread, NULL);                 /* MAIN_SAW: line 114 */
	} else if (!strcmp(s, "loop")) {
		pthread_t t;

		pthread_create(&t, NULL, looper, NULL);
		say("main ready");                                /* MAIN_READY: line 119 */
		pthread_join(t, NULL);                            /* MAIN_JOIN: line 120 */
	} else if (!strcmp(s, "never")) {
		never();
	}
	say("main done");
	return 0;
}
