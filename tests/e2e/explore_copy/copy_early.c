/* The library of copy_refused.c: its constructor runs before the
 * program's entry point, as a shared library's does (the dynamic linker
 * runs it), and does what explore's fork server must not copy, as the
 * environment's COPY_REFUSED says:
 *   fd      opens a file: the copies would share the descriptor
 *   thread  starts a thread
 * (the executable's own constructors run after the entry point, in each
 * copy, and change nothing). */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int copy_early_value;
static pthread_t early;

static void *idle(void *arg)
{
	(void)arg;
	return NULL;
}

__attribute__((constructor)) static void before_main(void)
{
	const char *why = getenv("COPY_REFUSED");

	if (!why)
		return;
	if (!strcmp(why, "fd"))
		open("/dev/null", O_RDONLY);
	else if (!strcmp(why, "thread"))
		pthread_create(&early, NULL, idle, NULL);
	copy_early_value = 1;
}
