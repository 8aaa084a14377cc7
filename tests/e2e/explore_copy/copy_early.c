/* The library of copy_ctor.c.  Its constructor runs before the program's
 * entry point, as a shared library's does (the dynamic linker runs it),
 * and leaves what a copy made after it would get wrong: the pid it saw, a
 * few bytes read from stdin, a shared mapping, a pending signal, a child
 * process, an open descriptor, a thread of its own.  explore's fork server
 * makes its copies before any constructor runs, so each copy runs this
 * one itself, as an exec'd run does. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

pid_t early_pid, early_child = -1;
char early_stdin[4];
int *early_shared;
int early_fd = -1;
pthread_t early_thread;

static void *early_work(void *arg)
{
	(void)arg;
	return NULL;
}

__attribute__((constructor)) static void before_main(void)
{
	sigset_t usr2;

	early_pid = getpid();
	if (read(0, early_stdin, 3) < 0)
		early_stdin[0] = '\0';
	early_shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			    -1, 0);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, NULL);
	raise(SIGUSR2);
	if ((early_child = fork()) == 0)
		_exit(5);
	early_fd = open("/dev/null", O_RDONLY);
	pthread_create(&early_thread, NULL, early_work, NULL);
}
