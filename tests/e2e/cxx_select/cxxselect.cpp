// cxxselect: threads a C++17 program starts, to be named by thread
// selectors the way a C++ programmer names them: two lambdas (one by the
// name gdb prints for its code, one by the line it is written on), a
// member function overloaded (by its parameter types), one that is not
// (without them), and two threads started through a C library's wrapper,
// thread_main(void *), which calls a function pointer: alike by their
// start routine, told apart by what they run.  Every thread says who it
// is in touch(); the gates decide the order.
//
// With "explore" as its argument the two wrapped threads race instead:
// each reads the shared count, yields, and writes it back plus one; the
// program fails (exit 1) when an increment is lost.
#include <cstdio>
#include <cstring>
#include <pthread.h>
#include <sched.h>
#include <thread>

static void touch(const char *who)
{
	std::printf("%s\n", who);
	std::fflush(stdout);
}

class Worker {
public:
	void run(int k)
	{
		id_ = k;
		touch("run(int)");
	}
	void run(const char *why)
	{
		touch(why);
	}
	int id() const
	{
		return id_;
	}

private:
	int id_ = 0;
};

class Logger {
public:
	void flush()
	{
		lines_++;
		touch("flush");
	}

private:
	int lines_ = 0;
};

// A C library's thread entry: every thread it starts has this routine.
extern "C" {
struct job {
	void (*fn)(int);
	int arg;
};

void *thread_main(void *p)
{
	struct job *j = static_cast<struct job *>(p);

	j->fn(j->arg);
	return nullptr;
}
}

static volatile int count;

__attribute__((noinline)) void add_one(void)
{
	int seen = count;

	sched_yield();
	count = seen + 1;
}

__attribute__((noinline)) void flusher(int k)
{
	if (k)
		touch("flusher");
	else
		add_one();
}

__attribute__((noinline)) void pruner(int k)
{
	if (k)
		touch("pruner");
	else
		add_one();
}

int main(int argc, char **argv)
{
	bool racing = argc > 1 && !strcmp(argv[1], "explore");
	struct job jf = {flusher, racing ? 0 : 1}, jp = {pruner, racing ? 0 : 1};
	pthread_t tf, tp;
	Worker w;
	Logger log;

	if (racing) {
		pthread_create(&tf, nullptr, thread_main, &jf);
		pthread_create(&tp, nullptr, thread_main, &jp);
		pthread_join(tf, nullptr);
		pthread_join(tp, nullptr);
		std::printf("count %d\n", count);
		return count == 2 ? 0 : 1;
	}
	std::thread a([] { touch("lambda 1"); });
	std::thread b([](int k) { touch(k == 2 ? "lambda 2" : "?"); }, 2);  // @lambda-2
	std::thread c(static_cast<void (Worker::*)(int)>(&Worker::run), &w, 3);
	std::thread d(static_cast<void (Worker::*)(const char *)>(&Worker::run), &w,
		      "run(char const*)");
	std::thread e(&Logger::flush, &log);

	pthread_create(&tf, nullptr, thread_main, &jf);
	pthread_create(&tp, nullptr, thread_main, &jp);
	a.join();
	b.join();
	c.join();
	d.join();
	e.join();
	pthread_join(tf, nullptr);
	pthread_join(tp, nullptr);
	return w.id() == 3 ? 0 : 1;
}
