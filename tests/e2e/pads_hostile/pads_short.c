/*
 * Gate sites whose first instructions are shorter than the 5 bytes of a
 * pad's jump, and whose next bytes no pad may take (issue 15): the jump
 * replaces the short instructions only and ends in the next ones' bytes,
 * kept as they are, which fix where the pad goes.  The sites: a 2-byte
 * `jmp` whose next instruction is a loop's jump target; a one-byte `nop`
 * followed by a `loop`, which never moves; the `}` of a function at -O0
 * (`leave` or `pop %rbp`, then `ret`, then the next function's code,
 * whose first line, a site too, has a jump of its own there first).  The
 * asm sites pick their next bytes so that the pad goes below the program
 * (a `movabs` whose opcode is in the jump's last byte).  Two threads run
 * every site ROUNDS times; each site checks its own result.
 *
 *   pads_short ROUNDS
 *
 * Prints "SITE ok N" per site, "total passes N", and exits 0 when every
 * result was right.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NSITES 4

static const char *names[NSITES] = {"shortjmp", "nopnever", "brace", "bracenext"};
static long bad[NSITES], done[NSITES];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void note(int site, int ok)
{
	pthread_mutex_lock(&lock);
	done[site]++;
	if (!ok)
		bad[site]++;
	pthread_mutex_unlock(&lock);
}

/* the asms have no operands, so nothing comes before the site's own
 * first instruction on its line (pads_insns.sh checks it in the binary) */
__thread long pads_n, pads_c, pads_v;

/* jmp to the test; the loop's body (jumped back to) right behind it */
__attribute__((noinline)) static void site_shortjmp(long x)
{
	pads_n = x;
	asm volatile("jmp 2f\n1:\tmovabs $0x9090909090909090, %%rax\n\taddq $1, %%fs:pads_n@tpoff\n2:\tcmpq $5, %%fs:pads_n@tpoff\n\tjl 1b" : : : "rax", "cc", "memory"); /* SHORTJMP-SITE */
	note(0, pads_n == (x < 5 ? 5 : x));
}

/* a one-byte nop, then a `loop` (it never moves: the pad ends before it) */
__attribute__((noinline)) static void site_nopnever(void)
{
	asm volatile("mov $1, %%ecx" : : : "rcx");
	asm volatile("nop\n\tloop 1f\n1:\tmovabs $0x8888888888888888, %%rax\n\tmov %%rax, %%fs:pads_v@tpoff\n\tmov %%rcx, %%fs:pads_c@tpoff" : : : "rax", "rcx", "memory"); /* NOPNEVER-SITE */
	note(1, pads_c == 0 && pads_v == (long)0x8888888888888888UL);
}

/* its `}` is the site: leave (or pop %rbp) and ret, the next function behind */
__attribute__((noinline)) static long brace(long x)
{
	volatile long a = x * 3;

	return a + 1;
}                                                               /* BRACE-SITE */

/* its `{` is a site too: the `}` above ends its jump in this one's jump */
__attribute__((noinline)) static void site_brace(long x)
{                                                               /* BRACENEXT-SITE */
	note(2, brace(x) == 3 * x + 1);
	note(3, 1);
}

static long rounds;

static void *worker(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < rounds; i++) {
		site_shortjmp(i & 7);
		site_nopnever();
		site_brace(i);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	long total = 0, nbad = 0;
	int k;

	rounds = argc > 1 ? atol(argv[1]) : 1000;
	for (k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, worker, NULL);
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	for (k = 0; k < NSITES; k++) {
		printf("%s %s %ld\n", names[k], bad[k] ? "BAD" : "ok", done[k] - bad[k]);
		total += done[k];
		nbad += bad[k];
	}
	printf("total passes %ld\n", total);                    /* END-SITE */
	return nbad != 0 || total != 2 * rounds * NSITES;
}
