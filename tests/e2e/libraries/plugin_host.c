/* plugin_host: loads libe2e_plugin.so (next to this program) with dlopen
 * once it is running, then two threads call its plugin_add() once each.
 * plugin_add loses an update when both read before either writes.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void (*plugin_add)(void);

static void *worker(void *arg)
{
    (void)arg;
    plugin_add();
    return NULL;
}

int main(void)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
    int (*plugin_count)(void);
    pthread_t t[2];
    void *h;
    int i;

    if (n < 0)
        return 2;
    path[n] = '\0';
    strcpy(strrchr(path, '/') + 1, "libe2e_plugin.so");
    if (!(h = dlopen(path, RTLD_NOW))) {
        fprintf(stderr, "plugin_host: %s\n", dlerror());
        return 2;
    }
    plugin_add = (void (*)(void))dlsym(h, "plugin_add");
    plugin_count = (int (*)(void))dlsym(h, "plugin_count");
    for (i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("count = %d\n", plugin_count());
    n = plugin_count();
    dlclose(h);
    return n == 2 ? 0 : 1;
}
