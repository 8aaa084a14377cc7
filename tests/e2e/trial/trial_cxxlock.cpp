// Two std::threads and a std::mutex in a namespace: a held thread owns the
// lock its opener waits for, beside an event loop (trial.cmake).
#include <cstdio>
#include <mutex>
#include <sys/epoll.h>
#include <thread>

namespace store {
std::mutex table_lock;
int entries;
}

static void event_loop()
{
	epoll_event ev;
	int ep = epoll_create1(0);

	for (;;)
		epoll_wait(ep, &ev, 1, 50);
}

static void inserter()
{
	std::lock_guard<std::mutex> g(store::table_lock);
	store::entries++;                                // INSERTED
}

static void remover()
{
	std::lock_guard<std::mutex> g(store::table_lock);
	store::entries--;                                // REMOVED
}

int main()
{
	std::thread loop(event_loop);
	loop.detach();
	std::thread a(inserter), b(remover);
	a.join();
	b.join();
	std::printf("entries=%d\n", store::entries);
	return 0;
}
