/*
 * Writes 24 MiB of output, then the line the spec expects: racegate keeps
 * the head and the tail of what it captures, so the tail still matches.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char line[1024];

	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	for (int i = 0; i < 24 * 1024; i++)
		puts(line);
	puts("the end");
	return 0;
}
