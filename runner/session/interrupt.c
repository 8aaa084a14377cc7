/*
 * interrupt: the signal handler and its self-pipe (interrupt.h).
 *
 * A handler can reach nothing but static state, so this file keeps the
 * signal caught and the pipe's two ends at file scope: one racegate
 * process (leader or worker) has one session at a time.  The handler only
 * sets a flag and writes a byte (async-signal-safe); the loops that would
 * otherwise sleep in poll() wake on the pipe and read the flag.
 */
#include "interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
#define NCAUGHT (sizeof(caught) / sizeof(caught[0]))

static volatile sig_atomic_t got;          /* the first signal caught, or 0 */
static volatile sig_atomic_t second_ends;  /* leader: a second signal ends racegate */
static volatile sig_atomic_t guarded;      /* interrupt_guard: none ends it */
static char guard_why[256];                /* what is done first (interrupt_guard) */
static int wake[2] = { -1, -1 };           /* the self-pipe; wake[1] is written */

/* Appends s to buf (of size cap, used *n): async-signal-safe. */
static void add(char *buf, size_t cap, size_t *n, const char *s)
{
	size_t len = strlen(s);

	if (len > cap - *n)
		len = cap - *n;
	memcpy(buf + *n, s, len);
	*n += len;
}

/* "racegate: got SIGINT: WHY" on stderr, from the handler (where rg_say,
 * stdio, may not be called: one write of a line put together here). */
static void say_guarded(int sig)
{
	char line[sizeof(guard_why) + 64];
	size_t n = 0;
	ssize_t unused;

	add(line, sizeof(line), &n, "racegate: got ");
	add(line, sizeof(line), &n, sig == SIGINT ? "SIGINT" : sig == SIGTERM ?
	    "SIGTERM" : "SIGHUP");
	add(line, sizeof(line), &n, ": ");
	add(line, sizeof(line), &n, guard_why);
	add(line, sizeof(line), &n, "\n");
	unused = write(STDERR_FILENO, line, n);
	(void)unused;
}

static void on_signal(int sig)
{
	int saved = errno;

	if (got && guarded)
		say_guarded(sig);
	else if (got && second_ends) {
		/* delivered once this handler returns, by the default action */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	if (!got)
		got = sig;
	if (wake[1] >= 0) {
		ssize_t unused = write(wake[1], "!", 1);   /* full: awake already */

		(void)unused;
	}
	errno = saved;
}

static void close_pipe(void)
{
	int i;

	for (i = 0; i < 2; i++)
		if (wake[i] >= 0) {
			close(wake[i]);
			wake[i] = -1;
		}
}

static int open_pipe(rg_err *err)
{
	if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		wake[0] = wake[1] = -1;
		return rg_error(err, "cannot make a pipe for signals: %s", strerror(errno));
	}
	return 0;
}

/*
 * Handlers for the three signals; SA_RESTART keeps other system calls
 * whole.  A signal racegate was started with ignored (nohup, a background
 * job of a script) stays ignored, as the shells do: by racegate, and by
 * the program, which inherits that across exec as it would without it.
 */
static int set_handlers(rg_err *err)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NCAUGHT; i++)
		sigaddset(&sa.sa_mask, caught[i]);
	for (i = 0; i < NCAUGHT; i++) {
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(caught[i], &sa, NULL) < 0)
			return rg_error(err, "cannot catch %s: %s",
					strsignal(caught[i]), strerror(errno));
	}
	return 0;
}

/* installs within an install (a search triage runs) keep the outer one */
static int depth;

int interrupt_install(rg_err *err)
{
	if (depth++)
		return 0;
	got = 0;
	second_ends = 1;
	guarded = 0;
	if (open_pipe(err) < 0) {
		depth = 0;
		return -1;
	}
	if (set_handlers(err) < 0) {
		interrupt_uninstall();
		return -1;
	}
	return 0;
}

void interrupt_uninstall(void)
{
	struct sigaction old;
	size_t i;

	if (depth > 0 && --depth)
		return;
	for (i = 0; i < NCAUGHT; i++)
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == on_signal)
			signal(caught[i], SIG_DFL);
	close_pipe();
}

/*
 * While guarded, SIGPIPE is ignored too: racegate's stderr or stdout may
 * be a pipe its reader closed (`racegate attach ... 2>&1 | head`), and a
 * write there must fail, not end racegate with the process not let go.
 */
void interrupt_guard(const char *why)
{
	static struct sigaction pipe_was;
	static bool pipe_saved;

	if (!why) {
		guarded = 0;
		if (pipe_saved)
			sigaction(SIGPIPE, &pipe_was, NULL);
		pipe_saved = false;
		return;
	}
	/* the handler reads guard_why only while guarded is set */
	guarded = 0;
	snprintf(guard_why, sizeof(guard_why), "%s", why);
	guarded = 1;
	if (!pipe_saved) {
		struct sigaction ign;

		memset(&ign, 0, sizeof(ign));
		ign.sa_handler = SIG_IGN;
		pipe_saved = sigaction(SIGPIPE, &ign, &pipe_was) == 0;
	}
}

int interrupt_signal(void)
{
	return got;
}

int interrupt_fd(void)
{
	return wake[0];
}

void interrupt_hold(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < NCAUGHT; i++)
		sigaddset(&set, caught[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

void interrupt_release(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

int interrupt_worker(pid_t leader, rg_err *err)
{
	/*
	 * The leader may be killed outright (SIGKILL, a second ^C): then the
	 * kernel kills this worker, and PTRACE_O_EXITKILL its program.  The
	 * leader may also have died already, before the prctl took effect.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return rg_error(err, "cannot tie the worker to racegate: %s",
				strerror(errno));
	if (getppid() != leader)
		_exit(1);
	close_pipe();
	got = 0;
	second_ends = 0;
	if (open_pipe(err) < 0)
		return -1;
	return set_handlers(err);
}

_Noreturn void interrupt_die(int sig)
{
	sigset_t set;

	interrupt_uninstall();
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	exit(128 + sig);
}
