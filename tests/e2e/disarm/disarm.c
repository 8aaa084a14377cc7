/*
 * Gates in hot loops: once no gate at a breakpoint can act again, racegate
 * takes the breakpoint out (disarm.yaml), so 200,000 loop passes cost one
 * trap each loop, and a hit: gate costs traps only until its hit.
 */
#include <stdio.h>

#define ROUNDS 100000
#define SHORT 1000

static volatile long sum;

int main(void)
{
	long i;

	sum = 0;                                              /* GO-LINE */
	for (i = 0; i < ROUNDS; i++)
		sum += i;                                     /* ONCE-LINE */
	for (i = 0; i < ROUNDS; i++)
		sum -= i;                                     /* WAIT-LINE */
	for (i = 0; i < SHORT; i++)
		sum += 2;                                     /* HIT-LINE */
	printf("sum %ld\n", sum);
	return sum == 2 * SHORT ? 0 : 1;
}
