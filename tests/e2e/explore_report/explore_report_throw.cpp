// Two threads bump a count without a lock; when one bump is lost the
// count names no shelf and map::at throws out of main: std::terminate
// prints "what():  map::at" on stderr, after 25 lines of the program's own.
#include <cstdio>
#include <map>
#include <string>
#include <thread>

static int count;

static void bump()
{
	int seen = count;
	count = seen + 1;
}

int main()
{
	const std::map<int, std::string> shelf = { { 2, "two" } };

	for (int i = 1; i <= 25; i++)
		std::fprintf(stderr, "stock line %d\n", i);
	std::thread a(bump), b(bump);
	a.join();
	b.join();
	std::printf("%s\n", shelf.at(count).c_str());
	return 0;
}
