/*
 * A child made with clone(CLONE_VM) outlives the program and runs gated
 * code after the program's end: racegate lets it go with its breakpoints
 * taken out of the memory it keeps, so it finishes as natively and writes
 * its report to the file named by argv[1].
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile int work;
static char stack[1 << 16];

static void step(void)
{
	work++;                                               /* STEP-LINE */
}

static int child(void *arg)
{
	FILE *f;

	usleep(200000);         /* the program has ended by now */
	for (int i = 0; i < 5; i++)
		step();
	if ((f = fopen(arg, "w"))) {
		fprintf(f, "child steps %d\n", work);
		fclose(f);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	step();
	if (clone(child, stack + sizeof(stack), CLONE_VM | SIGCHLD, argv[1]) < 0)
		return 2;
	step();
	return 0;
}
