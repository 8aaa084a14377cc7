/*
 * padlib_b: another library with padlib's functions and other code at the
 * gated line, opened where padlib was closed (padlib_host swap): what
 * racegate made of padlib's code there (a pad, a copy of an instruction)
 * must not be run for this one.
 */
static volatile long other[3];
static volatile long counter[4];

void padlib_pass(long id)
{
	counter[id] += other[0] + 1;                            /* LIB-LINE */
}

long padlib_count(long id)
{
	return counter[id];
}
