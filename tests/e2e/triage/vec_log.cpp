// vec_log: two threads push onto one std::vector without a lock.  The
// race TSan reports is inside push_back (vector.tcc, the library's code
// built into the program), called from the program's line 10: racegate
// triage forces its orders at that call, whole, and must say so rather
// than call the race benign without a word (the program crashes now and
// then when a push reallocates under the other).
#include <cstdio>
#include <thread>
#include <vector>

static std::vector<int> log_entries;

static void worker(int id)
{
	for (int i = 0; i < 1000; i++)
		log_entries.push_back(id * 1000 + i);
}

int main()
{
	std::thread a(worker, 1), b(worker, 2);
	a.join();
	b.join();
	std::printf("%zu entries\n", log_entries.size());
	return log_entries.size() == 2000 ? 0 : 1;
}
