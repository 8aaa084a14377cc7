/*
 * Linked into half_g with sleeper.c, which is built without -g: this file
 * alone has debug information, so the executable has some, but none for
 * sleeper.c.  A gate at sleeper.c:LINE must then say to rebuild with -g,
 * not wait for a library that will never have that file.
 */
int half_g_helper(int x);

int half_g_helper(int x)
{
	return x + 1;
}
