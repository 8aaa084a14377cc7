/* libwhenlib.so: a function with a file static, for when_lib.c. */
static int calls;                   /* the file static a condition reads */

void lib_visit(int *trace, int i, volatile int *flag)
{
	calls++;
	trace[i] = *flag;               /* the gated line (7) */
}
