/*
 * A gated instruction that faults, and a SIGSEGV handler that recovers by
 * looking at where (issue 15), as runtimes with implicit null checks do:
 * the handler accepts a fault only at the address of the load it knows
 * (fault_insn), and resumes at recover_label.  The load is the first
 * instruction of the gated line (7 bytes, so a jump can replace it); half
 * of the ROUNDS loads fault.  Wherever racegate runs the load, the program
 * must see the fault where the load is in its code.
 *
 *   pads_fault ROUNDS
 *
 * Prints "recovered N", "total passes N"; exits 0 when every odd round
 * faulted where the load is and every even round loaded the value.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

extern char fault_insn[], recover_label[];
static volatile long recovered, loaded, passes_done;
static long buf[4] = {42, 0, 0, 0};
long fault_sink;

static void on_segv(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t rip = uc->uc_mcontext.gregs[REG_RIP];
	char msg[128];
	int n;

	(void)sig;
	if (rip == (greg_t)fault_insn && si->si_addr == NULL) {
		recovered++;
		uc->uc_mcontext.gregs[REG_RIP] = (greg_t)recover_label;
		return;
	}
	n = snprintf(msg, sizeof(msg), "fault at rip %#llx (the load is at %p), address %p\n",
		     (unsigned long long)rip, (void *)fault_insn, si->si_addr);
	if (write(1, msg, (size_t)n) < 0)
		_exit(4);
	_exit(3);
}

__attribute__((noinline)) static void probe(long *base)
{
	fault_sink = 0;
	asm volatile("mov %0, %%rax" : : "r"((char *)base - 0x1000) : "rax");
	asm volatile(".globl fault_insn\nfault_insn: movq 0x1000(%%rax), %%rax\n\tmovq %%rax, fault_sink(%%rip)\n.globl recover_label\nrecover_label:" : : : "rax", "memory"); /* LOAD-SITE */
	passes_done++;
	if (fault_sink == 42)
		loaded++;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	long rounds = argc > 1 ? atol(argv[1]) : 1000, i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	for (i = 0; i < rounds; i++)
		probe(i & 1 ? NULL : buf);
	printf("recovered %ld\nloaded %ld\n", recovered, loaded);
	printf("total passes %ld\n", passes_done);              /* END-SITE */
	return recovered != rounds / 2 || loaded != rounds - rounds / 2;
}
