/*
 * The program calls exec: racegate follows it into the new image, which
 * gets no gates, runs to its end, and is judged by its own exit status and
 * output.
 *   execer               two gated steps, then exec itself: "execer again 7"
 *   execer again N       the new image: three more steps, exits N
 *   execer true          two gated steps, then exec /bin/true
 *   execer thread        a second thread calls exec while main is held
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *self;
static volatile int work;

static void step(void)
{
	work++;                                               /* STEP-LINE */
}

static void *execs(void *arg)
{
	(void)arg;
	step();
	execl(self, self, "again", "9", (char *)NULL);
	perror("execl");
	exit(126);
}

int main(int argc, char **argv)
{
	pthread_t t;

	self = argv[0];
	if (argc > 2 && !strcmp(argv[1], "again")) {
		for (int i = 0; i < 3; i++)
			step();
		printf("second image, %d steps\n", work);
		return atoi(argv[2]);
	}
	step();
	step();
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "true")) {
		execl("/bin/true", "true", (char *)NULL);
	} else if (argc > 1 && !strcmp(argv[1], "thread")) {
		pthread_create(&t, NULL, execs, NULL);
		step();         /* held here until the other thread's exec */
		pthread_join(t, NULL);
		return 1;
	} else {
		execl(self, self, "again", "7", (char *)NULL);
	}
	perror("execl");
	return 126;
}
