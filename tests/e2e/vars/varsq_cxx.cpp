// `racegate lines --vars` (vars.cmake), C++: a method's `this`, a
// reference parameter, and a static member that is not listed.
#include <cstdio>

namespace shop {
class Till {
public:
	static int opened;
	int total = 0;

	__attribute__((noinline)) int ring(const int &price, int qty)
	{
		int line = price * qty;

		total += line;                  // ring's body
		return total;
	}
};
int Till::opened = 1;
} // namespace shop

int main(int argc, char **)
{
	shop::Till t;

	std::printf("%d\n", t.ring(argc, 3) + shop::Till::opened);
	return 0;
}
