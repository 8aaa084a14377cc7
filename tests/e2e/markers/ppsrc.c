/* ppsrc.c: a program built from its preprocessed copy (ppgen.c, made
 * with cc -E), whose line markers credit every row of the line table to
 * this file.  No #include, so the copy's lines are the same everywhere. */
int puts(const char *s);

static int twice(int x)
{
	return 2 * x;
}

int main(void)
{
	return twice(21) == 42 ? puts("forty-two") < 0 : 1;
}
