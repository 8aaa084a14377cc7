/*
 * Code entered in the middle of a gated line from another function: the
 * line is a run of short instructions (one-byte nops), and a second entry
 * point lies one byte into it: a global label (second_entry, called from
 * other()), and a local one no symbol names (reached by a call from
 * third(), found only by decoding).  A pad's jump over those bytes would
 * send such a call into its middle; racegate's jump there must cover the
 * first instruction alone, or there must be none.
 *
 *   pads_entry ROUNDS      (default 10)
 */
#include <stdio.h>
#include <stdlib.h>

extern void second_entry(void);
static volatile long calls;

__attribute__((noipa)) void first(void)
{
	__asm__ volatile("nop\n.globl second_entry\nsecond_entry:\nnop\nnop\nnop\nnop\nnop\n"); /* LABEL-LINE */
}

__attribute__((noipa)) void local_first(void)
{
	__asm__ volatile("nop\n.Llocal_entry:\nnop\nnop\nnop\nnop\nnop\n"); /* LOCAL-LINE */
}

__attribute__((noipa)) void other(void)
{
	second_entry();
	calls++;
}

__attribute__((noipa)) void third(void)
{
	/* below the red zone: this call is not the compiler's */
	__asm__ volatile("sub $128,%%rsp\ncall .Llocal_entry\nadd $128,%%rsp\n" ::: "memory");
	calls++;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 10;

	for (long i = 0; i < rounds; i++) {
		first();
		other();
		local_first();
		third();
	}
	printf("calls %ld\n", calls);                   /* END-LINE */
	return 0;
}
