/*
 * Plain runs (explore_int.h): the program run as the user runs it, not
 * traced, with the same command, stdin bytes and --timeout.  A failure
 * found in the default order, with no preemption, may need no order at
 * all: a program that fails whatever its threads do.  explore says so
 * when plain runs fail the same way, as the search's summary would
 * otherwise present a bug that is not a race as one.  (Traced runs that
 * hold no thread would still stop each thread at its first point, and
 * those stops alone make some races happen.)
 */
#define _GNU_SOURCE 1
#include "explore_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Reads what fd has into b; false at its end. */
static bool drain_into(int fd, rg_buf *b)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n > 0)
		rg_buf_add(b, buf, (size_t)n);
	return n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN));
}

/* In the child, between fork and exec: async-signal-safe calls only. */
static void child_exec(const struct xctx *c, int in, int out, int err, pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	closefrom(3);
	execvp(c->o->command[0], c->o->command);
	_exit(127);
}

/* One plain run: how it failed (XF_NONE: it passed); -1 not run or cut. */
static int plain_run(struct xctx *c)
{
	const long limit = explore_run_limit(c, c->o->timeout_ms);
	int in, out[2] = { -1, -1 }, err[2] = { -1, -1 }, status = 0, fail = -1;
	bool timed_out = false, open_out = true, open_err = true;
	run_result res;
	double end;
	pid_t pid, parent = getpid();

	if (!limit || (in = session_stdin_file(c->ro.stdin_data, c->ro.stdin_len)) < 0)
		return -1;
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		close(in);
		for (int i = 0; i < 2; i++) {
			if (out[i] >= 0)
				close(out[i]);
			if (err[i] >= 0)
				close(err[i]);
		}
		return -1;
	}
	if (pid == 0)
		child_exec(c, in, out[1], err[1], parent);
	close(in);
	close(out[1]);
	close(err[1]);
	memset(&res, 0, sizeof(res));
	end = now_ms() + (double)limit;
	while ((open_out || open_err) && !interrupt_signal()) {
		struct pollfd pf[3] = { { open_out ? out[0] : -1, POLLIN, 0 },
					{ open_err ? err[0] : -1, POLLIN, 0 },
					{ interrupt_fd(), POLLIN, 0 } };
		double left = end - now_ms();

		if (left <= 0) {
			timed_out = true;
			break;
		}
		if (poll(pf, 3, (int)left + 1) < 0 && errno != EINTR)
			break;
		if (pf[0].revents)
			open_out = drain_into(out[0], &res.out);
		if (pf[1].revents)
			open_err = drain_into(err[0], &res.err);
	}
	if (timed_out || open_out || open_err)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	close(out[0]);
	close(err[0]);
	rg_buf_add(&res.out, "", 1);
	res.out.len--;
	rg_buf_add(&res.err, "", 1);
	res.err.len--;
	res.exited = WIFEXITED(status);
	res.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	res.term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	res.ngates = c->sp->ngates;
	if (!interrupt_signal() && !explore_cut_by_time(c, c->o->timeout_ms, limit, timed_out))
		fail = (int)explore_judge(c, &res, false, timed_out);
	run_result_release(&res);
	return fail;
}

bool explore_fails_alone(struct xctx *c, enum explore_fail kind, int n)
{
	/* --expect FILE judges gates' outcomes too: a plain run has none */
	if (kind == XF_DEADLOCK || kind == XF_TIMEOUT || c->xspec)
		return false;
	/* no stopped template beside them: its tracer holds signals back */
	explore_copy_free(c);
	for (int i = 0; i < n; i++)
		if (plain_run(c) != (int)kind)
			return false;
	return true;
}
