/*
 * session_spawn: starting the program and taking its output (session.h):
 * the descriptors it starts with (its stdin from the spec, or racegate's;
 * stdout and stderr piped when captured), and what comes down the pipes,
 * kept within a bound and copied to racegate's own when asked.
 */
#include "session_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Captured output is bounded: a chatty program run a thousand times must
 * not take racegate's memory with it.  Past OUT_KEEP bytes, the first
 * OUT_HEAD and the latest bytes are kept with a marker between them (what
 * expect: looks for is usually at the start or the end).  Trimming only
 * when twice the bound is reached keeps it cheap.
 */
#define OUT_KEEP (8u << 20)
#define OUT_HEAD (1u << 20)

static void capture(rg_buf *b, const char *s, size_t n, struct capped *k)
{
	rg_buf_add(b, s, n);
	if (b->len > 2 * OUT_KEEP) {
		size_t tail = OUT_KEEP - OUT_HEAD;
		size_t cut = b->len - OUT_HEAD - tail;
		char mark[96];
		int m;

		k->dropped += cut - k->mark;   /* the old marker was not output */
		m = snprintf(mark, sizeof(mark), "\n[racegate: %zu bytes of output "
			     "not kept]\n", k->dropped);
		k->mark = (size_t)m;
		memmove(b->s + OUT_HEAD + m, b->s + b->len - tail, tail);
		memcpy(b->s + OUT_HEAD, mark, (size_t)m);
		b->len = OUT_HEAD + (size_t)m + tail;
		b->s[b->len] = '\0';
	}
}

void session_drain(session *s, int *fd, rg_buf *b, int to)
{
	char buf[65536];
	ssize_t n;

	while (*fd >= 0) {
		n = read(*fd, buf, sizeof(buf));
		if (n > 0) {
			capture(b, buf, (size_t)n, b == &s->res->out ?
				&s->out_cap : &s->err_cap);
			if (s->o->passthrough) {
				ssize_t off = 0;

				while (off < n) {
					ssize_t w = write(to, buf + off, (size_t)(n - off));
					if (w <= 0)
						break;
					off += w;
				}
			}
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		close(*fd);   /* EOF or error */
		*fd = -1;
	}
}

static int make_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	return 0;
}

/* After the exit, take what is left in the pipes (bounded: a detached
 * child of the program may keep them open; a copy's template holds them
 * open for good: what is in them is all there is). */
void session_finish_output(session *s)
{
	int rounds;

	if (s->copy) {         /* no end of file: the template holds the pipes */
		session_drain(s, &s->outfd, &s->res->out, STDOUT_FILENO);
		session_drain(s, &s->errfd, &s->res->err, STDERR_FILENO);
		return;
	}

	for (rounds = 0; rounds < 20 && (s->outfd >= 0 || s->errfd >= 0); rounds++) {
		struct pollfd pfd[2];
		int npfd = 0;

		session_drain(s, &s->outfd, &s->res->out, STDOUT_FILENO);
		session_drain(s, &s->errfd, &s->res->err, STDERR_FILENO);
		if (s->outfd >= 0)
			pfd[npfd++] = (struct pollfd){ .fd = s->outfd, .events = POLLIN };
		if (s->errfd >= 0)
			pfd[npfd++] = (struct pollfd){ .fd = s->errfd, .events = POLLIN };
		if (npfd && poll(pfd, (nfds_t)npfd, 10) <= 0)
			break;
	}
	if (s->outfd >= 0)
		close(s->outfd);
	if (s->errfd >= 0)
		close(s->errfd);
	s->outfd = s->errfd = -1;
}

/* Each run reads its own copy from the first byte, and racegate feeds no
 * pipe that a program which never reads would leave full. */
int session_stdin_file(const char *data, size_t len)
{
	int fd = memfd_create("racegate-stdin", MFD_CLOEXEC), ro;
	char path[64];

	if (fd < 0) {
		const char *dir = getenv("TMPDIR");
		char *tmp = xasprintf("%s/racegate-stdin-XXXXXX", dir && *dir ? dir : "/tmp");

		fd = mkostemp(tmp, O_CLOEXEC);
		if (fd >= 0)
			unlink(tmp);
		free(tmp);
		if (fd < 0)
			return -1;
	}
	while (len) {
		ssize_t w = write(fd, data, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w == 0 ? ENOSPC : errno;

			close(fd);
			errno = e;
			return -1;
		}
		data += w;
		len -= (size_t)w;
	}
	/* read-only from the first byte, as the read end of a pipe is: a
	 * program that writes to its stdin gets EBADF, not a changed copy */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ro = open(path, O_RDONLY | O_CLOEXEC);
	if (ro < 0 && lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	if (ro >= 0) {
		close(fd);
		fd = ro;
	}
	return fd;
}

/* Starts the program with its output piped when it is captured. */
int session_spawn(session *s)
{
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, in = -1;
	tracer_opts to;
	rg_err err = RG_ERR_INIT;
	int rc = -1;

	if (s->o->capture && (make_pipe(outp) < 0 || make_pipe(errp) < 0)) {
		s->res->note = xasprintf("cannot make a pipe: %s", strerror(errno));
		goto out;
	}
	if (s->o->has_stdin && (in = session_stdin_file(s->o->stdin_data, s->o->stdin_len)) < 0) {
		s->res->note = xasprintf("cannot hold the program's stdin in a file: %s",
					 strerror(errno));
		goto out;
	}
	memset(&to, 0, sizeof(to));
	to.argv = (const char *const *)s->p->argv;
	to.stdin_fd = -1;
	to.stdout_fd = outp[1];
	to.stderr_fd = errp[1];
	/* closed for racegate (and held by /dev/null there): closed for the
	 * program, as without racegate, captured or not */
	if (s->o->closed_std & 1)
		to.stdin_fd = TRACER_FD_CLOSED;
	if (in >= 0)           /* stdin: given, whatever racegate's own was */
		to.stdin_fd = in;
	if (s->o->closed_std & 2)
		to.stdout_fd = TRACER_FD_CLOSED;
	if (s->o->closed_std & 4)
		to.stderr_fd = TRACER_FD_CLOSED;
	to.inherit = s->o->inherit;
	to.ninherit = s->o->ninherit;
	to.follow_fork = s->o->follow_fork;
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	if (tracer_spawn(&to, &s->tr, &err) < 0) {
		s->res->note = xstrdup(err.msg);
		goto out;
	}
	s->outfd = outp[0];
	s->errfd = errp[0];
	outp[0] = errp[0] = -1;
	rc = 0;
out:
	if (in >= 0)           /* the program has its own copy of the descriptor */
		close(in);
	for (int i = 0; i < 2; i++) {
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp[i] >= 0)
			close(errp[i]);
	}
	return rc;
}
