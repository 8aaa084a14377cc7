/*
 * The gated site of padwhere.c, in a shared library built -O2 (issue 26):
 * the same 5-byte nop as padloop.c's, the shortest instruction a
 * `jmp rel32` replaces on its own.
 */
static volatile long counter;

__attribute__((noinline)) void bench_lib_hit(long i)
{
	__asm__ volatile(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00" ::: "memory"); /* SITE */
	counter += i;
}

long bench_lib_sum(void)
{
	return counter;
}
