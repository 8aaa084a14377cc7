/*
 * child_deadlock.c with std::thread and std::mutex, for {start:} selectors
 * in a forked child (process_tree.cmake): a std::thread's
 * callable is read from its state, in the memory of the process that
 * creates it.
 *
 *   child_deadlock_cxx [fork]
 */
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

static std::mutex lock;
static int done;

static void holder()
{
	lock.lock();
	done++;                                               // HOLDS
	lock.unlock();
}

static void locker()
{
	lock.lock();                                          // LOCKS
	done++;
	lock.unlock();
}

static int work()
{
	std::thread h(holder), l(locker);

	l.join();
	std::printf("done=%d\n", done);                       // OPENS
	h.join();
	return 0;
}

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	if (argc < 2 || std::strcmp(argv[1], "fork"))
		return work();
	if ((pid = fork()) < 0)
		return 2;
	if (pid == 0)
		_exit(work());
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
