#include <stdio.h>

static volatile int sink_v;
__attribute__((noinline)) int opaque(void) { __asm__ volatile(""); return 5; }

static inline __attribute__((always_inline)) void step(int v, int scale)
{
	sink_v = v * scale;
	sink_v = v;                     /* the gated line (9) */
}

__attribute__((noinline)) void first(int v)
{
	step(v, opaque());
}

__attribute__((noinline)) void second(int v, int s)
{
	step(v, s);
	sink_v = s;
}

int main(int argc, char **argv)
{
	(void)argv;
	first(argc);
	second(argc, argc + 2);
	printf("done\n");
	return 0;
}
