/*
 * C++ shapes whose gated line has several sites: a function template's
 * instances (twice<int>, twice<long>), and a method inlined into two
 * callers.  1,000 rounds call each once, so the sites alternate.  A gate's
 * hit: counts a thread's arrivals at every site of its location.
 */
#include <cstdio>

static volatile long total;

template <typename T> __attribute__((noipa)) T twice(T v)
{
	total++;
	return v + v;
}

struct Counter {
	long n = 0;
	void bump()
	{
		total++;                                /* METHOD-LINE */
		n++;
	}
};

int main()
{
	Counter a, b;
	long s = 0;

	for (int i = 0; i < 1000; i++) {
		s += twice<int>(i);
		a.bump();
		s += twice<long>(i);
		b.bump();
	}
	std::printf("total %ld sum %ld bumps %ld %ld\n", total, s, a.n, b.n);
	return 0;
}
