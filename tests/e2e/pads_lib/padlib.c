/*
 * padlib: the gated line lives in a shared library.  Four workers of the
 * host pass it 50,000 times each (padlib_host.c); with jump pads those
 * passes cost no trap, and every count must be exact all the same.
 */
static volatile long counter[4];

void padlib_pass(long id)
{
	counter[id]++;                                          /* LIB-LINE */
}

long padlib_count(long id)
{
	return counter[id];
}
