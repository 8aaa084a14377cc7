/*
 * Pass-through hit cost with jump pads (issue 15): as hitloop.c, but the
 * site is a 5-byte nop (nopl 0x0(%rax,%rax,1), written as bytes: the
 * assembler would shorten it), the shortest instruction a
 * `jmp rel32` can replace on its own, so racegate can give it a pad.
 * bench_slot is ptrace_floor's out-of-line copy of it (onetrap mode).
 *
 *   padloop N      prints "sum S" (S = N*(N-1)/2) so a lost or doubled
 *                  iteration shows
 */
#include <stdio.h>
#include <stdlib.h>

static volatile long counter;

__attribute__((noinline)) void bench_hit(long i)
{
	__asm__ volatile(".globl bench_site\nbench_site: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n.globl bench_after\nbench_after:" ::: "memory"); /* SITE */
	counter += i;
}

__asm__(".text\n.globl bench_slot\nbench_slot:\n\t.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\tjmp bench_after\n");

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, i;

	for (i = 0; i < n; i++)
		bench_hit(i);
	printf("sum %ld\n", counter);                          /* END */
	return counter == n * (n - 1) / 2 ? 0 : 1;
}
