/* pastlib.c: a library whose one gated line takes a while to finish (a
 * sleep, then the write it stands for), so that an event opened "after the
 * line" and one opened at the arrival tell apart. */
#include <unistd.h>

volatile int past_shared;

void past_write(void)
{
	usleep(300000); past_shared = 1;
}
