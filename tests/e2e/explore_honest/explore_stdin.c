/*
 * The program's input is part of the test: it reads a word from stdin and
 * prints it, and two workers each add its length to a counter without a
 * lock (a load and a store on separate lines).  With no word it exits 3 at
 * once; a lost update exits 1.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static long counter;
static long add;

static void *worker(void *arg)
{
	long v = counter;

	(void)arg;
	v += add;
	counter = v;
	return NULL;
}

int main(void)
{
	char word[64];
	pthread_t a, b;

	if (!fgets(word, sizeof(word), stdin)) {
		printf("no input\n");
		return 3;
	}
	word[strcspn(word, "\n")] = '\0';
	add = (long)strlen(word);
	printf("read '%s'\n", word);
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("counter = %ld\n", counter);
	return counter == 2 * add ? 0 : 1;
}
