/*
 * Which file descriptors the program starts with: those racegate was
 * given, and none of racegate's own (it keeps its ELF file open through
 * libdwarf).  A standard fd racegate was started without is closed for the
 * program too, not taken by one of racegate's files.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char line[64];

	for (int fd = 0; fd < 256; fd++)
		if (fcntl(fd, F_GETFD) >= 0) {
			int n = snprintf(line, sizeof(line), "fd %d\n", fd);

			if (write(2, line, (size_t)n) < 0)
				return 1;
		}
	return 0;
}
