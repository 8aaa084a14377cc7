/*
 * Hit cost: bench_hit() runs N times; its first line is a one-byte nop, so
 * every competitor (racegate, gdb, ptrace_floor) traps on the same
 * instruction.  bench_slot is the floor's out-of-line copy of that nop: a
 * nop and a jump back behind the breakpoint, the least work a tracer that
 * keeps its breakpoint armed can do per hit (one trap, no single-step).
 *
 *   hitloop N      prints "sum S" (S = N*(N-1)/2) so a lost or doubled
 *                  iteration shows
 */
#include <stdio.h>
#include <stdlib.h>

static volatile long counter;

__attribute__((noinline)) void bench_hit(long i)
{
	__asm__ volatile(".globl bench_site\nbench_site: nop\n.globl bench_after\nbench_after:" ::: "memory"); /* SITE */
	counter += i;
}

__asm__(".text\n.globl bench_slot\nbench_slot:\n\tnop\n\tjmp bench_after\n");

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, i;

	for (i = 0; i < n; i++)
		bench_hit(i);
	printf("sum %ld\n", counter);                          /* END */
	return counter == n * (n - 1) / 2 ? 0 : 1;
}
