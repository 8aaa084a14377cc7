/*
 * The program's own int3s are its own: its SIGTRAP handler runs for each,
 * also for one on a gated line (whose breakpoint sits on that very int3),
 * and a raw int3 elsewhere.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t traps;

static void on_trap(int sig)
{
	(void)sig;
	traps++;
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_trap;
	sigaction(SIGTRAP, &sa, NULL);
	for (int i = 0; i < 3; i++)
		__asm__ volatile("int3");                     /* GATED-TRAP */
	__asm__ volatile("int3");         /* RAW-TRAP: line 28 right behind */
	printf("traps %d\n", (int)traps);
	return traps == 4 ? 0 : 1;
}
