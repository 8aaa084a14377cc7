/*
 * A gate site that is a call whose callee throws (issue 15): in a pad the
 * call is the store of the program's return address and a jump, and the
 * unwinder must find the caller's handler from that address.  Four threads
 * call thrower() ROUNDS times each from the marked line; every third
 * call throws and the caller catches.
 *
 *   pads_throw ROUNDS
 *
 * Prints "ok N caught M" and exits 0 when every call returned or was caught
 * where it was made.
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <vector>

static std::atomic<long> ok, caught;
static thread_local long calls;

__attribute__((noinline)) static void thrower()
{
	if (++calls % 3 == 0)
		throw std::runtime_error("third");
	asm volatile("" ::: "memory");
}

__attribute__((noinline)) static void site()
{
	try {
		thrower();                                 /* THROW-SITE */
		ok++;
	} catch (const std::runtime_error &) {
		caught++;
	}
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 1000;
	std::vector<std::thread> ts;

	for (int i = 0; i < 4; i++)
		ts.emplace_back([rounds] {
			for (long r = 0; r < rounds; r++)
				site();
		});
	for (auto &t : ts)
		t.join();
	printf("ok %ld caught %ld\n", ok.load(), caught.load());
	return ok + caught == 4 * rounds ? 0 : 1;
}
