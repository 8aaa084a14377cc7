// when: in a C++ method, over this->state and the plain member name.
// walker steps a Machine through six states; setter sets flag; the gates
// hold walker at the step the condition picks until flag is set.
#include <pthread.h>
#include <cstdio>

static volatile int flag;

namespace rig {
struct Machine {
	int state = 0;
	int seen[6] = {};
	void step();
};

__attribute__((noinline)) void Machine::step()
{
	seen[state] = flag;             // the gated line (18)
}
}

static rig::Machine machine;

static void *walker(void *)
{
	for (int i = 0; i < 6; i++) {
		machine.state = i;
		machine.step();
	}
	return nullptr;
}

static void *setter(void *)
{
	flag = 1;                       // line 35
	return nullptr;                 // line 36
}

int main()
{
	pthread_t w, s;
	int i;

	pthread_create(&w, nullptr, walker, nullptr);
	pthread_create(&s, nullptr, setter, nullptr);
	pthread_join(w, nullptr);
	pthread_join(s, nullptr);
	for (i = 0; i < 6 && !machine.seen[i]; i++)
		;
	std::printf("flag first seen at %d\n", i);
	return 0;
}
