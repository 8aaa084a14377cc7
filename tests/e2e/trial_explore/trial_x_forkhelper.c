/* A program that forks a helper process to compute a checksum while two
 * threads fill in the header.  The helper is fine; the threads update the
 * header's length without a lock.  "Sometimes the length is short." */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int length;

static void *writer(void *arg)
{
	int n = (int)(long)arg;
	int len = length;
	len += n;
	length = len;
	return NULL;
}

static int checksum_in_child(void)
{
	int fd[2];
	if (pipe(fd) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(fd[0]);
		int sum = 0;
		for (int i = 0; i < 1000; i++)
			sum += i;
		if (write(fd[1], &sum, sizeof sum) != sizeof sum)
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	int sum = 0;
	if (read(fd[0], &sum, sizeof sum) != sizeof sum)
		sum = -1;
	close(fd[0]);
	int st;
	waitpid(pid, &st, 0);
	return sum;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, writer, (void *)10L);
	int sum = checksum_in_child();
	pthread_create(&b, NULL, writer, (void *)20L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("checksum %d length %d\n", sum, length);
	return length == 30 && sum == 499500 ? 0 : 1;
}
