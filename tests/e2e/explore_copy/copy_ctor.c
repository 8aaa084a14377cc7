/* A program whose library did things before main (copy_early.c): checks
 * them, as each run of it must see them, and exits 1 naming the first one
 * wrong (a copy of the program made after the library's constructor ran
 * would get each of them wrong).  Then two threads add to a counter under a
 * mutex.  With COPY_LOG set, appends the address of a local of main to
 * that file: the same in every copy of one template, another in each
 * exec'd run. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern pid_t early_pid, early_child;
extern char early_stdin[4];
extern int *early_shared;
extern int early_fd;
extern pthread_t early_thread;

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void fail(const char *what)
{
	printf("wrong: %s\n", what);
	exit(1);
}

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
	const char *log = getenv("COPY_LOG");
	pthread_t a, b;
	sigset_t pend;
	char rest[16] = "";
	int st;

	if (log) {
		FILE *f = fopen(log, "a");

		if (f) {
			fprintf(f, "%p\n", (void *)&st);
			fclose(f);
		}
	}
	if (early_pid != getpid())
		fail("the pid the library saw is not the process's");
	if (read(0, rest, sizeof(rest) - 1) < 0 || strcmp(early_stdin, "abc") ||
	    strcmp(rest, "def"))
		fail("stdin is not read on from where the library left it");
	if (early_shared == MAP_FAILED || (*early_shared)++ != 0)
		fail("the library's shared mapping is another run's");
	sigpending(&pend);
	if (!sigismember(&pend, SIGUSR2))
		fail("the signal the library left pending is gone");
	if (early_child <= 0 || waitpid(early_child, &st, 0) != early_child ||
	    !WIFEXITED(st) || WEXITSTATUS(st) != 5)
		fail("the library's child is not the process's");
	if (early_fd < 0 || fcntl(early_fd, F_GETFD) < 0)
		fail("the library's descriptor is not open");
	if (pthread_join(early_thread, NULL))
		fail("the library's thread cannot be joined");
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("ok\n");
	return counter == 2 ? 0 : 1;
}
