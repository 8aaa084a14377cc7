/*
 * when: conditions over memory the program cannot read: a PROT_NONE guard
 * page (*guard), and a string "abc" that ends at the last byte before it,
 * with no NUL ($streq reads on into the guard page).  The program itself
 * would fault on both; through /proc/PID/mem a tracer can read the page
 * (as zeros).  Each condition is false and reported unreadable, with the
 * condition in a pad and without.
 *
 *   pads_guard ROUNDS      (default 100)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static volatile long total;
static char *buf;
static long *guard;
static long *ok;

__attribute__((noipa)) static void step(long i)
{
	total += i;                                     /* GUARD-LINE */
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100;
	char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || mprotect(m + 4096, 4096, PROT_NONE) < 0)
		return 2;
	buf = m + 4096 - 3;
	memcpy(buf, "abc", 3);
	guard = (long *)(m + 4096);
	ok = (long *)m;
	for (long i = 0; i < rounds; i++)
		step(i);
	printf("total %ld\n", total);                   /* END-LINE */
	return 0;
}
