/*
 * kv_server: a small threaded TCP key-value server, memcached-style.
 *
 *   kv_server [--port N] [--drive]
 *
 * The main thread runs an epoll loop with a timeout (accepting clients), a
 * sleeper thread wakes every 50 ms (a stand-in for expiry), and each client
 * connection gets a thread.  Commands, one per line: SET key value, GET
 * key, INCR key delta, DEL key, QUIT (the server exits).  --drive also
 * starts the client driver below in the same process (so a test needs no
 * other tool) and exits 1 when it saw the bug.
 *
 * The bug (memcached's historic incr/delete race): INCR checks that the
 * key exists and reads it under the table lock, lets the lock go, then
 * stores value + delta under the lock again.  A DEL in between is undone:
 * the store puts the deleted key back.  The client was told DELETED, and
 * later GET still sends the key.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define NITEMS 64

struct item {
	char key[32];
	long value;
	int used;
};

static struct item table[NITEMS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int quit;
static atomic_long ticks;

/* ---- the table (callers hold table_lock) ---- */

static struct item *table_find(const char *key)
{
	for (int i = 0; i < NITEMS; i++)
		if (table[i].used && !strcmp(table[i].key, key))
			return &table[i];
	return NULL;
}

static int table_store(const char *key, long value)
{
	struct item *it = table_find(key);

	for (int i = 0; !it && i < NITEMS; i++)
		if (!table[i].used)
			it = &table[i];
	if (!it)
		return -1;
	snprintf(it->key, sizeof(it->key), "%s", key);
	it->value = value;
	it->used = 1;
	return 0;
}

static int table_remove(const char *key)
{
	struct item *it = table_find(key);

	if (!it)
		return 0;
	it->used = 0;
	return 1;
}

/* ---- requests ---- */

static void reply(int fd, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	buf[n++] = '\n';
	if (write(fd, buf, (size_t)n) != n)
		perror("kv_server: write");
}

static void handle_set(int fd, const char *key, long value)
{
	int r;

	pthread_mutex_lock(&table_lock);
	r = table_store(key, value);
	pthread_mutex_unlock(&table_lock);
	reply(fd, r ? "SERVER_ERROR full" : "STORED");
}

static void handle_get(int fd, const char *key)
{
	struct item *it;
	long v = 0;

	pthread_mutex_lock(&table_lock);
	it = table_find(key);
	if (it)
		v = it->value;
	pthread_mutex_unlock(&table_lock);
	if (it)
		reply(fd, "VALUE %s %ld", key, v);
	else
		reply(fd, "NOT_FOUND");
}

static void handle_del(int fd, const char *key)
{
	int found;

	pthread_mutex_lock(&table_lock);
	found = table_remove(key);
	pthread_mutex_unlock(&table_lock);
	reply(fd, found ? "DELETED" : "NOT_FOUND");                /* DEL-REPLY */
}

/* The act of INCR: store the new value (the key may be gone by now). */
static long incr_apply(const char *key, long value)
{
	pthread_mutex_lock(&table_lock);
	table_store(key, value);
	pthread_mutex_unlock(&table_lock);
	return value;
}

static void handle_incr(int fd, const char *key, long delta)
{
	struct item *it;
	long v = 0;

	pthread_mutex_lock(&table_lock);
	it = table_find(key);                       /* check ... */
	if (it)
		v = it->value;
	pthread_mutex_unlock(&table_lock);
	if (!it) {
		reply(fd, "NOT_FOUND");
		return;
	}
	v = incr_apply(key, v + delta);             /* ... then act, unlocked in between */
	reply(fd, "%ld", v);
}

/* One command line; returns 0 on QUIT. */
static int handle_line(int fd, char *line)
{
	char cmd[16], key[32];
	long n = 0;
	int k = sscanf(line, "%15s %31s %ld", cmd, key, &n);

	if (k >= 1 && !strcmp(cmd, "QUIT")) {
		reply(fd, "BYE");
		atomic_store(&quit, 1);
		return 0;
	}
	if (k == 3 && !strcmp(cmd, "SET"))
		handle_set(fd, key, n);
	else if (k == 2 && !strcmp(cmd, "GET"))
		handle_get(fd, key);
	else if (k == 3 && !strcmp(cmd, "INCR"))
		handle_incr(fd, key, n);
	else if (k == 2 && !strcmp(cmd, "DEL"))
		handle_del(fd, key);
	else
		reply(fd, "ERROR");
	return 1;
}

/* A client's thread: reads lines until EOF or QUIT. */
static void *conn_thread(void *arg)
{
	int fd = (int)(long)arg;
	char buf[512];
	size_t len = 0;
	ssize_t r;

	while ((r = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0) {
		char *nl;

		len += (size_t)r;
		buf[len] = '\0';
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			if (!handle_line(fd, buf)) {
				close(fd);
				return NULL;
			}
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len + 1);
		}
		if (len == sizeof(buf) - 1)
			len = 0;           /* a line too long: dropped */
	}
	close(fd);
	return NULL;
}

/* The housekeeper: wakes every 50 ms, as an expiry pass would. */
static void *sleeper(void *arg)
{
	while (!atomic_load(&quit)) {
		usleep(50 * 1000);
		atomic_fetch_add(&ticks, 1);
	}
	return arg;
}

/* ---- the client driver (--drive) ---- */

static int dial(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		perror("kv_server: connect");
		exit(2);
	}
	return fd;
}

static void send_line(int fd, const char *line)
{
	size_t n = strlen(line);

	if (write(fd, line, n) != (ssize_t)n || write(fd, "\n", 1) != 1) {
		perror("kv_server: send");
		exit(2);
	}
}

/* One reply line (without the newline) into buf. */
static void read_reply(int fd, char *buf, size_t len)
{
	size_t n = 0;

	while (n + 1 < len && read(fd, buf + n, 1) == 1 && buf[n] != '\n')
		n++;
	buf[n] = '\0';
}

static void request(int fd, const char *line, char *buf, size_t len)
{
	send_line(fd, line);
	read_reply(fd, buf, len);
	printf("%s -> %s\n", line, buf);
	fflush(stdout);
}

static atomic_int drive_port;

/*
 * SET k 41, then INCR k 1 on one connection and DEL k on another at the
 * same time, then GET k.  Correct answers: INCR 42 then DELETED (GET:
 * NOT_FOUND), or DELETED then NOT_FOUND.  The bug: DELETED, and later GET
 * still sends the key.
 */
static void *driver(void *arg)
{
	int a, b, port;
	char r1[128], r2[128], r3[128];

	while (!(port = atomic_load(&drive_port)))
		usleep(1000);
	a = dial(port);
	b = dial(port);
	request(a, "SET k 41", r1, sizeof(r1));
	send_line(a, "INCR k 1");
	send_line(b, "DEL k");
	read_reply(b, r2, sizeof(r2));
	read_reply(a, r1, sizeof(r1));
	printf("DEL k -> %s\n", r2);
	printf("INCR k 1 -> %s\n", r1);
	request(b, "GET k", r3, sizeof(r3));
	request(b, "QUIT", r1, sizeof(r1));
	close(a);
	close(b);
	if (!strcmp(r2, "DELETED") && !strncmp(r3, "VALUE", 5)) {
		printf("bug: DEL said DELETED, and later GET still sends the key\n");
		return (void *)1;
	}
	return arg;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	pthread_t sl, dr;
	int port = 0, drive = 0, lfd, ep, one = 1;
	struct epoll_event ev = { .events = EPOLLIN };
	void *bug = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--drive"))
			drive = 1;
		else if (!strcmp(argv[i], "--port") && i + 1 < argc)
			port = atoi(argv[++i]);
	}
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)port);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(lfd, 16) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&a, &alen) < 0) {
		perror("kv_server: listen");
		return 2;
	}
	if (!drive)
		printf("listening on port %d\n", ntohs(a.sin_port));
	fflush(stdout);
	pthread_create(&sl, NULL, sleeper, NULL);
	if (drive)
		pthread_create(&dr, NULL, driver, NULL);
	atomic_store(&drive_port, ntohs(a.sin_port));
	ep = epoll_create1(0);
	ev.data.fd = lfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
	while (!atomic_load(&quit)) {
		struct epoll_event got[4];
		int n = epoll_wait(ep, got, 4, 100);

		for (int i = 0; i < n; i++) {
			int cfd = accept(lfd, NULL, NULL);
			pthread_t t;

			if (cfd < 0)
				continue;
			if (pthread_create(&t, NULL, conn_thread, (void *)(long)cfd) == 0)
				pthread_detach(t);
			else
				close(cfd);
		}
		if (n < 0 && errno != EINTR)
			break;
	}
	pthread_join(sl, NULL);
	if (drive)
		pthread_join(dr, &bug);
	close(lfd);
	return bug ? 1 : 0;
}
