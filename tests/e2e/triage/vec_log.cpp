// vec_log: two threads each push one entry onto a std::vector without a
// lock.  The race TSan reports is inside push_back (vector.tcc, the
// library's code built into the program), called from the program's line
// 17: racegate triage forces its orders at that call, whole, and must say
// so rather than call the race benign without a word (in a plain run the
// two pushes may interleave inside and lose an entry).
#include <cstdio>
#include <thread>
#include <vector>

static std::vector<int> log_entries;

static void worker(int id)
{
	int entry = id * 1000;

	log_entries.push_back(entry);
}

int main()
{
	log_entries.reserve(8);     // no reallocation: the race is on the end
	std::thread a(worker, 1), b(worker, 2);
	a.join();
	b.join();
	std::printf("%zu entries\n", log_entries.size());
	return log_entries.size() == 2 ? 0 : 1;
}
