/* A program whose start costs more than its work: it links five shared
 * libraries (capstone, libunwind, libelf, libyaml, zlib: thousands of
 * relocations for the dynamic linker), then two threads take turns on a
 * counter under a mutex.  explore_copy.sh measures explore's schedules per
 * second on it with and without the fork server. */
#include <capstone/capstone.h>
#include <libelf.h>
#include <libunwind-ptrace.h>
#include <pthread.h>
#include <stdio.h>
#include <yaml.h>
#include <zlib.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&m);
		counter++;
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	int major, minor;

	/* one call into each library: they are needed, and stay linked */
	cs_version(&major, &minor);
	if (elf_version(EV_CURRENT) == EV_NONE || !zlibVersion() || !yaml_get_version_string() ||
	    !_UPT_accessors.find_proc_info)
		return 2;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return counter == 6 ? 0 : 1;
}
