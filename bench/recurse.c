/*
 * FUNCTION:return cost against recursion depth (issue 11): recurse(D, R)
 * makes R recursions D calls deep, so D * R returns of rec(); a gate on
 * `rec:return` traps at every call (its entry) and every return.  With the
 * same D * R at every depth, the time per return must not grow with D.
 *
 *   recurse D R    prints "returns N" (N = D * R, counted by the program)
 */
#include <stdio.h>
#include <stdlib.h>

static volatile long returns;

/* Not a tail call, not a loop: every level is a real call and return. */
__attribute__((noinline)) static long rec(long n)
{
	long r = n > 1 ? rec(n - 1) : 0;

	returns++;
	return r + 1;
}

int main(int argc, char **argv)
{
	long d = argc > 1 ? atol(argv[1]) : 1000;
	long r = argc > 2 ? atol(argv[2]) : 1, i;

	for (i = 0; i < r; i++)
		if (rec(d) != d)
			return 1;
	printf("returns %ld\n", returns);                        /* END */
	return 0;
}
