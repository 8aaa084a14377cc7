// cxxthreads: threads started the ways C++ code starts them -- std::thread
// with a function, a member function, a virtual member function, a lambda,
// and a std::jthread with a lambda -- for {start:} selectors, plus a class
// template with two instantiations and a std::string overload for
// locations written as people write them.  Every thread says who it is in
// touch(); the gates decide the order.
#include <cstdio>
#include <string>
#include <thread>

static void touch(const char *who)
{
	std::printf("%s\n", who);
	std::fflush(stdout);
}

static void free_worker(int k)
{
	touch(k == 1 ? "function" : "?");
}

struct Account {
	long balance = 0;
	void run(int k)
	{
		balance += k;
		touch("member");
	}
	virtual void audit(int k)
	{
		balance -= k;
		touch("wrong override");
	}
	virtual ~Account() {}
};

struct Savings : Account {
	void audit(int k) override
	{
		balance += k;
		touch("virtual");
	}
};

template <class T> struct Q {
	T last{};
	int n = 0;
	void put(const T &v)
	{
		last = v;
		n++;
	}
};

// external: its overloads keep their linkage names even at -O2
void log_line(int v);
void log_line(std::string s);

void log_line(int v)
{
	std::printf("int %d\n", v);
}

void log_line(std::string s)
{
	std::printf("string %s\n", s.c_str());
}

int main()
{
	Savings acct;
	Account *base = &acct;
	Q<int> qi;
	Q<std::string> qs;
	std::thread a(free_worker, 1);
	std::thread b(&Account::run, base, 2);
	std::thread c([&qi, &qs] {
		qi.put(3);
		qs.put("x");
		touch("lambda");
	});
	std::thread v(&Account::audit, base, 2);
	std::jthread d([](int k) { touch(k == 4 ? "jthread" : "?"); }, 4);

	a.join();
	b.join();
	c.join();
	v.join();
	d.join();
	log_line(qi.n + qs.n);
	log_line(qs.last);
	return 0;
}
