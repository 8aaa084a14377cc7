/*
 * session_copy: a session stopped before any of the program's code runs,
 * and runs of copies of it (session.h; explore's fork server,
 * docs/design.md).
 *
 * The template is a session like any other until the dynamic linker has
 * mapped and relocated every library and calls its rendezvous with the
 * list of objects consistent: every breakpoint and pad is in place, and
 * no constructor of a library, nor the program's entry point, has run.
 * The loop runs with a decider of its own, which only notes whether
 * anything happened that a schedule would have to see (a point reached,
 * a thread started), and stops there holding the thread.  Each run then
 * happens in a fork of racegate, whose memory holds this session as it
 * was: session_copy makes the program fork itself, and the fork of
 * racegate takes the copy over (session_run_copy), turns the session's
 * process and thread ids into the copy's, and goes on from there with the
 * run's own decider, as session_run would have.  What the program does
 * from its first constructor on, each copy does itself.
 */
#include "session_int.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the template's decider: nothing may happen before the entry ---- */

static void snap_started(void *d, pid_t tid, const char *start, bool is_main, double t)
{
	session *s = d;

	(void)tid, (void)start, (void)t;
	if (!is_main && !s->snap_why)
		s->snap_why = "a thread was started before the dynamic linker finished";
}

static void snap_exited(void *d, pid_t tid, double t)
{
	(void)d, (void)tid, (void)t;
}

static enum decision snap_arrive(void *d, pid_t tid, const plan_bp *at, double t)
{
	session *s = d;

	(void)tid, (void)at, (void)t;
	if (!s->snap_why)
		s->snap_why = "a point was reached before the dynamic linker finished";
	return DECIDE_PASS;
}

static bool snap_live(void *d, const plan_bp *at)
{
	(void)d, (void)at;
	return true;
}

static const decider_ops snap_ops = {
	.thread_started = snap_started, .thread_exited = snap_exited,
	.arrive = snap_arrive, .site_live = snap_live, .tick = decider_no_tick,
	.is_held = decider_holds_none, .nheld = decider_none_held,
	.stuck = decider_never_stuck, .diagnose = decider_no_diagnosis,
};

/* ---- the template ---- */

static bool inherited(const session *s, int fd)
{
	return fd >= 0 && fd < s->o->ninherit && s->o->inherit && s->o->inherit[fd];
}

/*
 * A descriptor open in the template (none the dynamic linker leaves open,
 * as a rule) would be shared by every copy, its offset and its peer: NULL
 * when there is none (the standard ones and those racegate passes on are
 * the same in every run anyway).
 */
static const char *own_descriptor(const session *s, char *buf, size_t len)
{
	char path[64];
	struct dirent *e;
	const char *why = NULL;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)tracer_pid(s->tr));
	if (!(d = opendir(path)))
		return "its descriptors cannot be read";
	while (!why && (e = readdir(d))) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		if (e->d_name[0] == '.' || *end || fd <= 2 || inherited(s, (int)fd))
			continue;
		snprintf(buf, len, "descriptor %ld is open before its code runs, which its "
			 "copies would share", fd);
		why = buf;
	}
	closedir(d);
	return why;
}

/* Does the program load glibc's libc.so.6, whose fork racegate's copy
 * imitates?  (A static program may be glibc's too: it is not told apart.) */
static bool on_glibc(const session *s)
{
	tracer_map *maps = NULL;
	size_t n = 0;
	bool yes = false;
	rg_err err = RG_ERR_INIT;

	if (tracer_maps(s->tr, &maps, &n, &err) < 0)
		return false;
	for (size_t i = 0; i < n && !yes; i++) {
		const char *p = maps[i].path, *b = p ? strrchr(p, '/') : NULL;

		yes = b && !strcmp(b + 1, "libc.so.6");
	}
	tracer_maps_free(maps, n);
	return yes;
}

int session_snapshot(session *s, rg_err *err)
{
	static char why[160];
	const char *own;

	if (s->o->follow_fork || s->o->attach_pid || s->o->keep_stopped)
		return rg_error(err, "the run follows forks, attaches or keeps the program");
	s->dec = (decider){ &snap_ops, s };
	s->snap = true;
	if (session_spawn(s) < 0)
		return rg_error(err, "%s", s->res->note ? s->res->note : "it could not be run");
	session_started(s);
	session_go(s);
	if (s->end.failed)
		return rg_error(err, "%s", s->res->note ? s->res->note : "it could not be traced");
	if (!s->snapped)
		return rg_error(err, "%s", s->snap_why ? s->snap_why :
				"it ended before the dynamic linker finished");
	if (!on_glibc(s))
		return rg_error(err, "it does not load glibc's libc.so.6 (a static program, or "
				"another C library)");
	if ((own = own_descriptor(s, why, sizeof(why))))
		return rg_error(err, "%s", own);
	tracer_ready_steps(s->tr);
	return 0;
}

/* Reads what is in a pipe of the template's, and drops it. */
static void discard(int fd)
{
	char buf[4096];

	while (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
		;
}

void session_copy_clear(session *s)
{
	discard(s->outfd);
	discard(s->errfd);
}

bool session_copy_early(const session *s)
{
	return !s->o->has_stdin || !s->o->stdin_len;
}

int session_copy(session *s, pid_t *child, rg_err *err)
{
	return tracer_copy(s->tr, s->o->has_stdin, child, err);
}

/* The session's process and first thread become the copy's, pid. */
static void rebind(session *s, pid_t old, pid_t pid)
{
	s->procs[0].pid = pid;
	s->thr[0].tid = pid;
	rg_intmap_del(&s->thr_ix, (uint64_t)(uint32_t)old);
	*rg_intmap_ref(&s->thr_ix, (uint64_t)(uint32_t)pid, 0) = 0;
	stall_free(s->stall);
	s->stall = stall_new(pid, (double)s->o->quiet_ms);
}

void session_run_copy(session *s, pid_t child, const decider_ops *ops, void *d,
		      run_result *res, session_end *end)
{
	rg_err err = RG_ERR_INIT;
	pid_t old = tracer_pid(s->tr);

	decider_check(ops);
	*res = *s->res;        /* the template's record so far (its warnings) */
	s->res = res;
	s->snap = false;
	s->copy = true;
	if (tracer_adopt(s->tr, child, &err) < 0) {
		kill(child, SIGKILL);
		s->end.started = false;
		s->res->note = xstrdup(err.msg);
		*end = s->end;
		return;
	}
	rebind(s, old, child);
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	s->dec = (decider){ ops, d };
	s->names = decider_wants_names(&s->dec);
	session_go(s);
	*end = s->end;
}
