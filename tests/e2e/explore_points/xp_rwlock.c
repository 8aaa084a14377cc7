/*
 * xp_rwlock: a reader/writer inversion.  Each thread reads one table under
 * its rwlock and, still reading, takes the other table's lock to write.
 * When both have taken their read lock before either asks to write, each
 * writer waits for the other's reader for ever: a deadlock that needs a
 * switch between the two rwlock calls of a thread.
 */
#include <pthread.h>
#include <stdio.h>

static pthread_rwlock_t users = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t groups = PTHREAD_RWLOCK_INITIALIZER;
static int nusers = 1, ngroups = 1;

static void *add_user(void *arg)
{
	(void)arg;
	pthread_rwlock_rdlock(&groups);
	pthread_rwlock_wrlock(&users);
	nusers += ngroups;
	pthread_rwlock_unlock(&users);
	pthread_rwlock_unlock(&groups);
	return NULL;
}

static void *add_group(void *arg)
{
	(void)arg;
	pthread_rwlock_rdlock(&users);
	pthread_rwlock_wrlock(&groups);
	ngroups += nusers;
	pthread_rwlock_unlock(&groups);
	pthread_rwlock_unlock(&users);
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, add_user, NULL);
	pthread_create(&b, NULL, add_group, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("users %d groups %d\n", nusers, ngroups);
	return 0;
}
