/*
 * when: a gate inside a shared library's function, over the library's file
 * static (libwhenlib.so, when_libpart.c).  walker calls lib_visit six times;
 * setter sets flag; the gates hold walker at the call the condition picks.
 */
#include <pthread.h>
#include <stdio.h>

void lib_visit(int *trace, int i, volatile int *flag);

static volatile int flag;
static int trace[6];

static void *walker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 6; i++)
		lib_visit(trace, i, &flag);
	return NULL;
}

static void *setter(void *arg)
{
	(void)arg;
	flag = 1;                       /* line 25 */
	return NULL;                    /* line 26 */
}

int main(void)
{
	pthread_t w, s;
	int i;

	pthread_create(&w, NULL, walker, NULL);
	pthread_create(&s, NULL, setter, NULL);
	pthread_join(w, NULL);
	pthread_join(s, NULL);
	for (i = 0; i < 6 && !trace[i]; i++)
		;
	printf("flag first seen at %d\n", i);
	return 0;
}
