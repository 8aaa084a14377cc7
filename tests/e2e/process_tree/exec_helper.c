/*
 * Run by proctree's exec mode in a forked child (process_tree.cmake):
 * another executable, whose lines only process: {exe: exec_helper} gates.
 */
#include <stdio.h>

static void say(const char *what)
{
	printf("%s\n", what);                                 /* SAY-LINE */
	fflush(stdout);
}

int main(void)
{
	say("helper ran");
	return 0;
}
