/*
 * padlib_host [early|late] [LIBRARY]: four workers call padlib_pass (in a
 * shared library) 50,000 times each, then main prints the library's counts.
 * Linked with the library (built with -DLINKED), or opening LIBRARY (next
 * to this program) with dlopen: early, before any thread exists, or late,
 * while a thread sleeps in epoll_wait (racegate stops every thread to pad
 * the library's sites: the sleeper must not see its call fail with EINTR;
 * it prints what it got otherwise, and main exits 3); or reopen: opened,
 * passed by main 10 times, closed (dlclose) and opened again, as a plugin
 * reloaded; or swap: the same with libe2e_padlib.so, then LIBRARY opened
 * (at the same address, as a rule).
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS 50000

#ifdef LINKED
void padlib_pass(long id);
long padlib_count(long id);
static void (*pass)(long) = padlib_pass;
static long (*count)(long) = padlib_count;
#else
static void (*pass)(long);
static long (*count)(long);
#endif

static int efd, ep, bad;
static void *handle;

static void *worker(void *arg)
{
	long id = (long)arg, i;

	for (i = 0; i < ROUNDS; i++)
		pass(id);
	return NULL;
}

/* a thread asleep while the library is opened late: woken by main's event */
static void *bystander(void *arg)
{
	struct epoll_event ev;
	int n = epoll_wait(ep, &ev, 1, 20000);

	(void)arg;
	if (n != 1) {
		printf("bystander: epoll_wait returned %d (%s)\n", n,
		       n < 0 ? strerror(errno) : "timed out");
		bad = 1;
	}
	return NULL;
}

static int open_lib(const char *name)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 64);
	void *h;

	if (n < 0)
		return -1;
	path[n] = '\0';
	strcpy(strrchr(path, '/') + 1, name);
	if (!(h = handle = dlopen(path, RTLD_NOW))) {
		fprintf(stderr, "padlib_host: %s\n", dlerror());
		return -1;
	}
	pass = (void (*)(long))dlsym(h, "padlib_pass");
	count = (long (*)(long))dlsym(h, "padlib_count");
	return pass && count ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *when = argc > 1 ? argv[1] : "early";
	const char *lib = argc > 2 ? argv[2] : "libe2e_padlib.so";
	pthread_t t[4], by;
	long i;

	if (!strcmp(when, "late")) {
		struct epoll_event ev = { .events = EPOLLIN };

		efd = eventfd(0, 0);
		ep = epoll_create1(0);
		epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
		pthread_create(&by, NULL, bystander, NULL);
		usleep(100000);     /* asleep in epoll_wait by now */
	}
	if (!strcmp(when, "reopen") || !strcmp(when, "swap")) {
		if (open_lib(strcmp(when, "swap") ? lib : "libe2e_padlib.so") < 0)
			return 2;
		for (i = 0; i < 10; i++)
			pass(0);
		dlclose(handle);
		pass = NULL;
	}
	if (!pass && open_lib(lib) < 0)
		return 2;
	if (!strcmp(when, "late")) {
		uint64_t one = 1;

		if (write(efd, &one, sizeof(one)) != sizeof(one))
			return 2;
		pthread_join(by, NULL);
		if (bad)
			return 3;
	}
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("counts %ld %ld %ld %ld\n", count(0), count(1), count(2), count(3));
	return 0;                                               /* END-LINE */
}
