/*
 * mc_workers: a server shaped like memcached's threads.
 *
 *   mc_workers [--drive]
 *
 * The main thread is the dispatcher: an epoll loop over the listening
 * socket and a timer that ticks every second (memcached's clock event).
 * It hands each new connection to a worker thread, in turn, by writing
 * the descriptor to the worker's notify pipe.  Four workers each run an
 * epoll loop over their pipe and their connections.  Two housekeepers
 * sleep in loops (an LRU crawler, a stats ticker).  Commands, one a line:
 * "incr KEY N" (replies the new value), "get KEY" (replies "VALUE KEY N").
 * --drive also starts a client thread that sends "incr hits 1" on two
 * connections at once, then "get hits", prints "hits = N" and makes the
 * program exit 1 when an increment was lost.
 *
 * The bug: item_incr finds the item under the cache lock, lets the lock
 * go, adds, and stores under the lock again.  Two workers that both read
 * before either stores store the same value: an increment is lost.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define NWORKERS 4
#define NITEMS 16

struct item {
    char key[32];
    long value;
    int used;
};

struct worker {
    pthread_t tid;
    int notify[2];                  /* the dispatcher writes fds to [1] */
};

static struct item cache[NITEMS];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct worker workers[NWORKERS];
static atomic_long clock_ticks, crawls, stats_ticks;
static int listen_fd;
static unsigned short port;

/* ---- the cache ---- */

static struct item *item_get(const char *key)    /* cache_lock held */
{
    for (int i = 0; i < NITEMS; i++)
        if (cache[i].used && !strcmp(cache[i].key, key))
            return &cache[i];
    for (int i = 0; i < NITEMS; i++)
        if (!cache[i].used) {
            snprintf(cache[i].key, sizeof(cache[i].key), "%s", key);
            cache[i].value = 0;
            cache[i].used = 1;
            return &cache[i];
        }
    return NULL;
}

static long item_incr(const char *key, long delta)
{
    struct item *it;
    long value;

    pthread_mutex_lock(&cache_lock);
    it = item_get(key);
    pthread_mutex_unlock(&cache_lock);               /* INCR-UNLOCKED */
    if (!it)
        return -1;
    value = it->value + delta;                       /* INCR-READ */
    pthread_mutex_lock(&cache_lock);                 /* INCR-WRITE-BACK */
    it->value = value;
    pthread_mutex_unlock(&cache_lock);
    return value;
}

static long item_value(const char *key)
{
    long v;

    pthread_mutex_lock(&cache_lock);
    v = item_get(key)->value;
    pthread_mutex_unlock(&cache_lock);
    return v;
}

/* ---- a worker: its pipe and its connections ---- */

static void serve_line(int fd, char *line)
{
    char key[32], out[96];
    long n;
    int len;

    if (sscanf(line, "incr %31s %ld", key, &n) == 2)
        len = snprintf(out, sizeof(out), "%ld\n", item_incr(key, n));
    else if (sscanf(line, "get %31s", key) == 1)
        len = snprintf(out, sizeof(out), "VALUE %s %ld\n", key, item_value(key));
    else
        len = snprintf(out, sizeof(out), "ERROR\n");
    if (write(fd, out, (size_t)len) != len)
        perror("mc_workers: write");
}

static void *worker(void *arg)
{
    struct worker *me = arg;
    struct epoll_event ev = { .events = EPOLLIN }, got[8];
    int ep = epoll_create1(0);

    ev.data.fd = me->notify[0];
    epoll_ctl(ep, EPOLL_CTL_ADD, me->notify[0], &ev);
    for (;;) {
        int n = epoll_wait(ep, got, 8, -1);

        for (int i = 0; i < n; i++) {
            int fd = got[i].data.fd, c;
            char line[128];
            ssize_t k;

            if (fd == me->notify[0]) {               /* a connection handed over */
                if (read(fd, &c, sizeof(c)) == sizeof(c)) {
                    ev.data.fd = c;
                    epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev);
                }
                continue;
            }
            k = read(fd, line, sizeof(line) - 1);
            if (k <= 0) {
                epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
                close(fd);
                continue;
            }
            line[k] = '\0';
            serve_line(fd, line);
        }
    }
    return NULL;
}

/* ---- the housekeepers ---- */

static void *lru_crawler(void *arg)
{
    (void)arg;
    for (;;) {
        usleep(20000);
        pthread_mutex_lock(&cache_lock);
        crawls++;
        pthread_mutex_unlock(&cache_lock);
    }
    return NULL;
}

static void *stats_ticker(void *arg)
{
    struct timespec t = { 0, 50 * 1000000 };

    (void)arg;
    for (;;) {
        nanosleep(&t, NULL);
        stats_ticks++;
    }
    return NULL;
}

/* ---- the client of --drive ---- */

static int dial(void)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
        perror("mc_workers: connect");
        exit(2);
    }
    return fd;
}

static void ask(int fd, const char *req, char *reply, size_t size)
{
    ssize_t n;

    if (write(fd, req, strlen(req)) < 0 || (n = read(fd, reply, size - 1)) <= 0) {
        perror("mc_workers: the server did not answer");
        exit(2);
    }
    reply[n] = '\0';
}

static void *driver(void *arg)
{
    char r1[64], r2[64], v[64];
    int c1 = dial(), c2 = dial();
    long hits = -1;

    (void)arg;
    /* both requests first, then both replies: the workers serve them at once */
    if (write(c1, "incr hits 1\n", 12) != 12 || write(c2, "incr hits 1\n", 12) != 12)
        exit(2);
    if (read(c1, r1, sizeof(r1)) <= 0 || read(c2, r2, sizeof(r2)) <= 0)
        exit(2);
    ask(c1, "get hits\n", v, sizeof(v));
    sscanf(v, "VALUE hits %ld", &hits);
    printf("hits = %ld\n", hits);
    fflush(stdout);
    exit(hits == 2 ? 0 : 1);
}

/* ---- the dispatcher ---- */

int main(int argc, char **argv)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    struct itimerspec second = { { 1, 0 }, { 1, 0 } };
    struct epoll_event ev = { .events = EPOLLIN }, got[8];
    socklen_t len = sizeof(a);
    int ep, tfd, next = 0;
    pthread_t t;

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if ((listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
        bind(listen_fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(listen_fd, 16) < 0 ||
        getsockname(listen_fd, (struct sockaddr *)&a, &len) < 0) {
        perror("mc_workers: listen");
        return 2;
    }
    port = ntohs(a.sin_port);
    for (int i = 0; i < NWORKERS; i++)
        if (pipe(workers[i].notify) < 0 ||
            pthread_create(&workers[i].tid, NULL, worker, &workers[i]) != 0)
            return 2;
    if (pthread_create(&t, NULL, lru_crawler, NULL) != 0 ||
        pthread_create(&t, NULL, stats_ticker, NULL) != 0)
        return 2;
    if (argc > 1 && !strcmp(argv[1], "--drive") &&
        pthread_create(&t, NULL, driver, NULL) != 0)
        return 2;
    ep = epoll_create1(0);
    tfd = timerfd_create(CLOCK_MONOTONIC, 0);
    timerfd_settime(tfd, 0, &second, NULL);
    ev.data.fd = listen_fd;
    epoll_ctl(ep, EPOLL_CTL_ADD, listen_fd, &ev);
    ev.data.fd = tfd;
    epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
    for (;;) {
        int n = epoll_wait(ep, got, 8, 1000);

        for (int i = 0; i < n; i++) {
            uint64_t expired;
            int c;

            if (got[i].data.fd == tfd) {             /* the clock event */
                if (read(tfd, &expired, sizeof(expired)) == sizeof(expired))
                    clock_ticks += (long)expired;
                continue;
            }
            if ((c = accept(listen_fd, NULL, NULL)) < 0)
                continue;
            /* hand it over: the next worker, in turn */
            if (write(workers[next].notify[1], &c, sizeof(c)) != sizeof(c))
                close(c);
            next = (next + 1) % NWORKERS;
        }
    }
}
