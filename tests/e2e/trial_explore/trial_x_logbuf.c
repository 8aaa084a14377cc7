/* Two threads append a line each to a shared log buffer: each takes the
 * write offset, copies its line there, and moves the offset on -- without
 * a lock, so both can copy to one offset and a line is lost.  The program
 * always exits 0; only its output shows the bug ("lines: 1").  The two
 * lines may be given as its two arguments. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char log_buf[256];
static size_t log_len;

static void log_line(const char *s)
{
	size_t at = log_len;
	size_t n = strlen(s);
	memcpy(log_buf + at, s, n);
	log_len = at + n;
}

static void *task(void *arg)
{
	log_line(arg);
	return NULL;
}

int main(int argc, char **argv)
{
	char first[64] = "started", second[64] = "stopped";
	pthread_t a, b;

	if (argc != 1 && argc != 3) {
		fprintf(stderr, "usage: trial_x_logbuf [FIRST SECOND]\n");
		return 2;
	}
	if (argc == 3) {
		snprintf(first, sizeof first - 1, "%s", argv[1]);
		snprintf(second, sizeof second - 1, "%s", argv[2]);
	}
	strcat(first, "\n");
	strcat(second, "\n");
	pthread_create(&a, NULL, task, first);
	pthread_create(&b, NULL, task, second);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	int lines = 0;
	for (size_t i = 0; i < log_len; i++)
		lines += log_buf[i] == '\n';
	fwrite(log_buf, 1, log_len, stdout);
	printf("lines: %d\n", lines);
	return 0;
}
