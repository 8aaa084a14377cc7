/*
 * Gate sites whose first instruction is hard to run anywhere but where it
 * is (issue 15): a RIP-relative load, a call (its callee checks the return
 * address it got), a short conditional jump (jcc rel8), a `rep movsb`, a
 * one-byte nop followed by the target of a loop's back jump, and a line of
 * a leaf function whose locals live in the red zone below the stack
 * pointer.  Each site is an `asm volatile` on a line of its own (nothing
 * else on the line: its first instruction is the asm's, which
 * pads_insns.sh checks in the binary), and each function checks its own
 * result.  Two threads run every site ROUNDS times.
 *
 *   pads_insns ROUNDS
 *
 * Prints "SITE ok N" per site, "total passes N", and exits 0 when every
 * result was right.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSITES 6

static const char *names[NSITES] = {"rip", "call", "jcc", "rep", "target", "redzone"};
static long bad[NSITES], done[NSITES];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
long rip_global = 0x1234567887654321L;
unsigned long ret_seen;

__asm__(".text\n"
	".globl pads_callee\n"
	".type pads_callee, @function\n"
	"pads_callee:\n"
	"\tmov (%rsp), %rax\n"
	"\tmov %rax, ret_seen(%rip)\n"
	"\tmov $0x5a5a, %eax\n"
	"\tret\n"
	".size pads_callee, .-pads_callee\n");

static void note(int site, int ok)
{
	pthread_mutex_lock(&lock);
	done[site]++;
	if (!ok)
		bad[site]++;
	pthread_mutex_unlock(&lock);
}

__attribute__((noinline)) static void site_rip(void)
{
	long v;

	asm volatile("mov rip_global(%%rip), %0" : "=r"(v));          /* RIP-SITE */
	note(0, v == 0x1234567887654321L);
}

/* the callee stores the return address it was given: it must be the
 * instruction after the call in this function, wherever the call ran */
__attribute__((noinline)) static void site_call(void)
{
	unsigned long after, got;

	asm volatile("call pads_callee" : : : "rax", "memory");        /* CALL-SITE */
	asm volatile("lea 1f(%%rip), %0\n1:" : "=r"(after));
	/* "after" is where the call's asm ended: the return address's line */
	got = ret_seen;
	note(1, got != 0 && got <= after && after - got < 64);
}

/* the asms have no operands, so nothing comes between the cmp and the
 * jne: the jne is the first instruction of its line */
__thread long pads_jcc_out, pads_x;
__thread char pads_src[64], pads_dst[64];

__attribute__((noinline)) static void site_jcc(long x)
{
	pads_jcc_out = 0;
	asm volatile("cmp $1, %0" : : "r"(x) : "cc");
	asm volatile("jne 1f\n\tmovq $7, %%fs:pads_jcc_out@tpoff\n1:" : : : "memory"); /* JCC-SITE */
	note(2, pads_jcc_out == (x == 1 ? 7 : 0));
}

__attribute__((noinline)) static void site_rep(long i)
{
	int k;

	for (k = 0; k < 64; k++)
		pads_src[k] = (char)(k * 7 + i), pads_dst[k] = 0;
	asm volatile("mov %%fs:0, %%rsi\n\tlea pads_dst@tpoff(%%rsi), %%rdi\n\t"
		     "lea pads_src@tpoff(%%rsi), %%rsi\n\tmov $64, %%ecx" : : : "rsi", "rdi", "rcx");
	asm volatile("rep movsb" : : : "rsi", "rdi", "rcx", "memory");       /* REP-SITE */
	note(3, !memcmp(pads_src, pads_dst, sizeof(pads_src)));
}

/* the site is a one-byte nop; the loop jumps back to the byte after it */
__attribute__((noinline)) static void site_target(void)
{
	pads_x = 0;
	asm volatile("nop\n1:\taddq $1, %%fs:pads_x@tpoff\n\tcmpq $10, %%fs:pads_x@tpoff\n\tjl 1b" : : : "cc", "memory"); /* TARGET-SITE */
	note(4, pads_x == 10);
}

/* a leaf: at -O0 its locals sit below the stack pointer, in the red zone */
__attribute__((noinline)) static long leaf(long a)
{
	volatile long l1 = a + 1, l2 = a + 2, l3 = a + 3, l4 = a + 4;
	volatile long l5 = a + 5, l6 = a + 6, l7 = a + 7, l8 = a + 8;

	asm volatile("movabs $0x0102030405060708, %%rax" : : : "rax");   /* REDZONE-SITE */
	return l1 + l2 + l3 + l4 + l5 + l6 + l7 + l8 - 8 * a;
}

static void site_redzone(long i)
{
	note(5, leaf(i) == 36);
}

static long rounds;

static void *worker(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < rounds; i++) {
		site_rip();
		site_call();
		site_jcc(i & 1);
		site_rep(i);
		site_target();
		site_redzone(i);
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
