/*
 * The gates.yaml `racegate explore` hands back (explore.h).
 *
 * A schedule is a list of decisions (which thread goes on from which
 * point); consecutive decisions of one thread are a *stretch* it ran while
 * every other traced thread waited.  A stretch ends when its thread
 * arrives at a point where another thread is chosen (it is then held
 * there), exits, or blocks.  What the program's outcome depends on is,
 * mostly, where a stretch is cut short for another: a preemption.  For
 * each one the file says, with one event each way:
 *   the preempted thread X, arriving at its point, opens "X is stopped",
 *     and waits there until the preempting stretch has ended;
 *   the preempting thread Y waits at the point its stretch starts from
 *     until X is stopped; where Y's stretch ends (its next point, or its
 *     exit: exited:Y) opens "Y is stopped".
 * Everything else runs as the OS likes.  When that is not enough for the
 * failure to happen every time (explore.c replays the file to find out),
 * the next level chains every stretch to the one before it.
 */
#include "explore.h"

#include "cxxname.h"

#include <ctype.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/*
 * How the file names thread i: by its start routine without the
 * parameter types, unless another thread's start routine differs from it
 * in those alone (malloc'd).
 */
static char *start_written(const explore_run *r, size_t i)
{
	const char *s = r->threads[i].start, *p = rg_cxx_trailing_params(s);
	size_t n = p ? (size_t)(p - s) : strlen(s);

	for (size_t j = 0; p && j < r->nthreads; j++) {
		const char *o = r->threads[j].start;

		if (o && strcmp(o, s) && !strncmp(o, s, n) &&
		    (o[n] == '\0' || rg_cxx_trailing_params(o) == o + n))
			return xstrdup(s);
	}
	return xstrndup(s, n);
}

/*
 * Is thread i named by what it runs ({runs: F})?  When its start routine
 * is a wrapper (another thread has it too) and what it ran under it is
 * its own among the threads: a pool's or a library's threads are told
 * apart by their work, not by the order they were made in.  A thread of
 * the same start routine whose work was never seen (it reached no point
 * in this run) may run F as well: then F is nobody's own.
 */
static bool by_runs(const explore_write_in *in, size_t i)
{
	const explore_run *r = in->r;
	const explore_thread_info *t = &r->threads[i];
	bool shared = false;

	if (in->no_runs || t->is_main || !t->start || !t->runs)
		return false;
	for (size_t j = 0; j < r->nthreads; j++) {
		if (j == i || r->threads[j].proc != t->proc)
			continue;
		if (r->threads[j].runs && !strcmp(r->threads[j].runs, t->runs))
			return false;
		if (!r->threads[j].start || strcmp(r->threads[j].start, t->start))
			continue;
		if (!r->threads[j].runs)
			return false;
		shared = true;
	}
	return shared;
}

/*
 * A thread's alias: main, or NAME_NTH made of the start routine's name
 * (or of what it runs), each run of other characters than letters and
 * digits one '_' (a C++ "shop::Inventory::restock" is
 * shop_Inventory_restock_1, not shop__Inventory__restock_1).  A thread
 * of the K-th child process (--follow-fork) is childK_NAME_NTH, that
 * process's first thread childK.
 */
static char *alias_of(const explore_write_in *in, size_t i)
{
	const explore_thread_info *t = &in->r->threads[i];
	rg_buf b = RG_BUF_INIT;
	bool sep = false, runs = by_runs(in, i);
	char *name;

	if (t->is_main)
		return xstrdup("main");
	if (t->proc > 0 && !t->start)
		return xasprintf("child%d", t->proc);
	if (!t->start)
		return xasprintf("thread_%zu", i);
	if (t->proc > 0)
		rg_buf_printf(&b, "child%d_", t->proc);
	name = runs ? xstrdup(t->runs) : start_written(in->r, i);
	for (const char *p = name; *p; p++) {
		if (!isalnum((unsigned char)*p)) {
			sep = b.len > 0 && b.s[b.len - 1] != '_';
			continue;
		}
		if (sep)
			rg_buf_puts(&b, "_");
		sep = false;
		rg_buf_printf(&b, "%c", *p);
	}
	rg_buf_printf(&b, "%s%d", b.len ? "_" : "thread_", runs ? 1 : t->nth);
	free(name);
	return rg_buf_detach(&b);
}

/* name as a YAML value: plain when it is a word, else quoted (a C++ name
 * has ':' and braces in it) */
static void put_name(rg_buf *b, const char *name)
{
	if (strspn(name, "abcdefghijklmnopqrstuvwxyz"
		   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(name))
		rg_buf_puts(b, name);
	else
		spec_put_quoted(b, name);
}

/* One gate of the file: a thread's hit-th arrival at a point. */
struct wgate {
	int thread;
	size_t point;
	long hit;
	char **open, **wait;   /* event names */
	size_t nopen, nwait;
	char **onblock;        /* open_when_blocked: its thread's next block opens them */
	size_t nonblock;
	int other;             /* the thread it lets run / waits for, for the comment */
	bool blocks;           /* its thread blocks after it (blocked_event) */
	bool woken;            /* its thread got here woken from a wait (wake_gates) */
	bool for_woken;        /* it waits for a woken thread's arrival (wake_gates) */
	bool slept;            /* a woken thread's, it waits for what others did
				  while it slept (slept_through) */
};

struct wgates {
	struct wgate *v;
	size_t n, cap;
};

static struct wgate *wgate_at(struct wgates *g, int thread, size_t point, long hit)
{
	struct wgate *w;

	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].thread == thread && g->v[i].point == point && g->v[i].hit == hit)
			return &g->v[i];
	RG_GROW(g->v, g->n + 1, g->cap);
	w = &g->v[g->n++];
	memset(w, 0, sizeof(*w));
	w->thread = thread;
	w->point = point;
	w->hit = hit;
	w->other = -1;
	return w;
}

static void strv_add(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

/*
 * A stretch that ended blocked in the kernel (a condition wait, a read)
 * stopped at no point: its "stopped" event is opened by open_when_blocked
 * at the stretch's last point, so whoever waits for it goes on only once
 * the thread sleeps (a condition's waiter is then a waiter, and a signal
 * cannot come before it).  open_when_blocked acts after the gate's waits,
 * so a stretch one decision long (its last point is the one it starts
 * from, where it waits for its turn) is ordered too.
 */
static char *blocked_event(const explore_run *r, size_t next, char **alias,
			   struct wgates *g, int other)
{
	const explore_step *last;
	struct wgate *w;
	char *ev;

	if (next < 1 || r->steps[next - 1].thread != r->steps[next].prev)
		return NULL;
	last = &r->steps[next - 1];
	ev = xasprintf("%s-stop%zu", alias[last->thread], next);
	w = wgate_at(g, last->thread, last->gate, last->hit);
	strv_add(&w->onblock, &w->nonblock, ev);
	w->blocks = true;
	if (w->other < 0)
		w->other = other;
	return ev;
}

/*
 * The event that says the stretch before decision next has stopped,
 * opened where its thread stopped (a gate, or its exit); NULL when it
 * blocked (there is nothing to wait for).
 */
static char *stopped_event(const explore_run *r, size_t next, char **alias,
			   struct wgates *g, int other)
{
	const explore_step *s = &r->steps[next];
	struct wgate *w;
	char *ev;

	switch (s->prev_stop) {
	case XS_ARRIVED:
		ev = xasprintf("%s-stop%zu", alias[s->prev], next);
		w = wgate_at(g, s->prev, s->prev_gate, s->prev_hit);
		for (size_t i = 0; i < w->nopen; i++)
			if (!strcmp(w->open[i], ev))
				return ev;
		strv_add(&w->open, &w->nopen, ev);
		if (w->other < 0)
			w->other = other;
		return ev;
	case XS_EXITED:
		return xasprintf("exited:%s", alias[s->prev]);
	case XS_BLOCKED:
		return blocked_event(r, next, alias, g, other);
	default:
		return NULL;
	}
}

/*
 * The same for the last stretch, which no decision follows: in a deadlock
 * its thread is held where it cannot go on, and its arrival there is what
 * the thread it preempted must wait for (or that one may take the lock
 * first, and nothing deadlocks).  NULL when it did not end at a point.
 */
static char *last_stop_event(const explore_run *r, char **alias, struct wgates *g)
{
	int t = r->steps[r->nsteps - 1].thread;
	char *ev;
	struct wgate *w;

	if (!r->end_held)
		return NULL;
	ev = xasprintf("%s-stop%zu", alias[t], r->nsteps);
	w = wgate_at(g, t, r->end_gate, r->end_hit);
	strv_add(&w->open, &w->nopen, ev);
	return ev;
}

/* The decision that starts the stretch after the one starting at k, or nsteps. */
static size_t stretch_end(const explore_run *r, size_t k)
{
	size_t e = k + 1;

	while (e < r->nsteps && r->steps[e].thread == r->steps[k].thread)
		e++;
	return e;
}

/* The gates for the switch at decision k (a stretch starts there). */
static void switch_gates(const explore_run *r, size_t k, bool both_ways, char **alias,
			 struct wgates *g)
{
	const explore_step *s = &r->steps[k];
	size_t next = stretch_end(r, k);
	char *ev = stopped_event(r, k, alias, g, s->thread);
	struct wgate *w;

	if (ev) {
		w = wgate_at(g, s->thread, s->gate, s->hit);
		strv_add(&w->wait, &w->nwait, ev);
		if (w->other < 0)
			w->other = s->prev;
		free(ev);
	}
	/* the preempted thread goes on only once the preempting stretch ended */
	if (!both_ways || s->prev_stop != XS_ARRIVED)
		return;
	if (next >= r->nsteps)
		ev = last_stop_event(r, alias, g);
	else
		ev = stopped_event(r, next, alias, g, -1);
	if (!ev)
		return;
	w = wgate_at(g, s->prev, s->prev_gate, s->prev_hit);
	strv_add(&w->wait, &w->nwait, ev);
	free(ev);
}

static void put_strv(rg_buf *b, const char *key, char **v, size_t n)
{
	if (!n)
		return;
	rg_buf_printf(b, ", %s: [", key);
	for (size_t i = 0; i < n; i++)
		rg_buf_printf(b, "%s%s", i ? ", " : "", v[i]);
	rg_buf_puts(b, "]");
}

/* Is ev a thread's exit ("exited:ALIAS", which the engine opens itself)? */
static bool exit_event(const char *ev)
{
	return !strncmp(ev, "exited:", 7);
}

static void put_gate(rg_buf *b, const struct wgate *w, const explore_write_in *in,
		     char **alias, size_t n)
{
	const char *me = alias[w->thread];
	const char *other = w->other >= 0 ? alias[w->other] : "the others";
	/* what the gate waits for the other to have done */
	const char *done = w->nwait == 1 && exit_event(w->wait[0]) ? "exited" : "stopped";

	if (w->slept)
		rg_buf_printf(b, "  # %s, woken from its wait, goes on from here only once %s "
			      "got as far as it did while %s slept\n", me, other, me);
	else if (w->woken && !w->nwait)
		rg_buf_printf(b, "  # %s, woken from its wait, gets here before %s "
			      "goes on\n", me, other);
	else if (w->for_woken)
		rg_buf_printf(b, "  # %s goes on from here only once %s, woken from its "
			      "wait, got to its next point\n", me, other);
	else if (w->blocks && !w->nwait)
		rg_buf_printf(b, "  # %s blocks soon after here: %s may run once it "
			      "sleeps\n", me, other);
	else if (w->blocks && !w->nopen)
		rg_buf_printf(b, "  # %s goes on from here once %s has stopped; %s "
			      "runs once it sleeps\n", me, other, other);
	else if (w->nopen && w->nwait)
		rg_buf_printf(b, "  # %s stops here and lets %s run; it goes on once "
			      "that has %s\n", me, other, done);
	else if (w->nopen)
		rg_buf_printf(b, "  # %s stops here: %s may run\n", me, other);
	else
		rg_buf_printf(b, "  # %s runs on from here only once %s %s %s\n",
			      me, other, w->other >= 0 ? "has" : "have", done);
	rg_buf_printf(b, "  - {name: %s-%zu, thread: %s, at: ", me, n, me);
	spec_put_quoted(b, in->at[w->point]);
	if (w->hit > 1)
		rg_buf_printf(b, ", hit: %ld", w->hit);
	put_strv(b, "open", w->open, w->nopen);
	put_strv(b, "wait", w->wait, w->nwait);
	put_strv(b, "open_when_blocked", w->onblock, w->nonblock);
	rg_buf_puts(b, "}\n");
}

static void wgates_release(struct wgates *g)
{
	for (size_t i = 0; i < g->n; i++) {
		for (size_t k = 0; k < g->v[i].nopen; k++)
			free(g->v[i].open[k]);
		for (size_t k = 0; k < g->v[i].nwait; k++)
			free(g->v[i].wait[k]);
		for (size_t k = 0; k < g->v[i].nonblock; k++)
			free(g->v[i].onblock[k]);
		free(g->v[i].open);
		free(g->v[i].wait);
		free(g->v[i].onblock);
	}
	free(g->v);
}

/* A pattern of expect: as the file says it: plain text quoted, /regex/ too. */
static void put_pattern(rg_buf *b, const char *key, const char *text, bool regex)
{
	char *s = regex ? xasprintf("/%s/", text) : xstrdup(text);

	rg_buf_printf(b, "  %s: ", key);
	spec_put_quoted(b, s);
	rg_buf_puts(b, "\n");
	free(s);
}

/* The expect: of --expect FILE, key by key as it loaded. */
static void put_given_expect(rg_buf *b, const spec_expect *x)
{
	if (x->has_exit)
		rg_buf_printf(b, "  exit: %d\n", x->exit_code);
	if (x->has_signal)
		rg_buf_printf(b, "  signal: %s\n", spec_signal_name(x->signo));
	if (x->deadlock)
		rg_buf_puts(b, "  deadlock: true\n");
	if (x->stdout_text)
		put_pattern(b, "stdout", x->stdout_text, x->stdout_regex);
	if (x->stderr_text)
		put_pattern(b, "stderr", x->stderr_text, x->stderr_regex);
	if (x->multiline)
		rg_buf_puts(b, "  multiline: true\n");
}

/*
 * A run whose stdout was wrong: expect: says the stdout it printed, all of
 * it, as text the replays must print (no exit:, which with 0 would make
 * the file a regression test).  An empty stdout is a regex that only the
 * empty string matches.
 */
static int put_stdout_expect(rg_buf *b, const explore_run *r, rg_err *err)
{
	const char *out = r->out ? r->out : "";
	size_t n = strlen(out);
	char *text;

	if (!n) {
		rg_buf_puts(b, "  stdout: \"/^$/\"\n  multiline: true\n");
		return 0;
	}
	if (n > 2000)
		return rg_error(err, "the failing run's stdout (%zu bytes) is too long "
				"to be said in expect:", n);
	if (n >= 2 && out[0] == '/' && out[n - 1] == '/')
		return rg_error(err, "the failing run's stdout reads as a /regex/ in "
				"expect:");
	/* as a person would write it: without the last line's newline */
	if (n > 1 && out[n - 1] == '\n' && out[n - 2] != '\n')
		n--;
	text = xstrndup(out, n);
	put_pattern(b, "stdout", text, false);
	free(text);
	return 0;
}

int explore_put_expect(rg_buf *b, const spec_expect *given, const explore_run *r,
		       rg_err *err)
{
	const char *sig;

	rg_buf_puts(b, "expect:\n");
	if (given) {
		put_given_expect(b, given);
		return 0;
	}
	switch (r->fail) {
	case XF_EXIT:
		rg_buf_printf(b, "  exit: %d\n", r->exit_code);
		return 0;
	case XF_SIGNAL:
		sig = spec_signal_name(r->signo);
		if (!sig)
			return rg_error(err, "signal %d has no name a gates file knows",
					r->signo);
		rg_buf_printf(b, "  signal: %s\n", sig);
		return 0;
	case XF_DEADLOCK:
		rg_buf_puts(b, "  deadlock: true\n");
		return 0;
	case XF_STDOUT:
		return put_stdout_expect(b, r, err);
	case XF_TIMEOUT:
		rg_buf_puts(b, "  timeout: true\n");
		return 0;
	default:
		return rg_error(err, "what failed (%s) cannot be said in a gates "
				"file's expect:", explore_fail_name(r->fail));
	}
}

static void put_header(rg_buf *b, const explore_write_in *in)
{
	/* "dev:" alone is the default order: no "from schedule dev::" */
	rg_buf_printf(b, "# Written by racegate explore from schedule %s%s;\n"
		      "# the order below made the program fail (%s).\n"
		      "# Run it with: racegate run FILE --repeat 20\n"
		      "version: 1\n", in->id,
		      strcmp(in->id, "dev:") ? "" : " (the default order)",
		      explore_fail_name(in->r->fail));
	if (in->name) {
		rg_buf_puts(b, "name: ");
		spec_put_quoted(b, in->name);
		rg_buf_puts(b, "\n");
	}
	rg_buf_puts(b, "command: [");
	for (size_t i = 0; in->command[i]; i++) {
		if (i)
			rg_buf_puts(b, ", ");
		spec_put_quoted(b, in->command[i]);
	}
	if (in->timeout_ms > 0 && in->timeout_ms % 1000)
		rg_buf_printf(b, "]\ntimeout: %ldms\n", in->timeout_ms);
	else
		rg_buf_printf(b, "]\ntimeout: %lds\n",
			      in->timeout_ms > 0 ? in->timeout_ms / 1000 : 10);
	/* the program's input is part of the test */
	if (in->stdin_yaml)
		rg_buf_printf(b, "stdin: %s\n", in->stdin_yaml);
}

static void strv_drop(char **v, size_t *n, size_t i)
{
	free(v[i]);
	memmove(v + i, v + i + 1, (*n - i - 1) * sizeof(*v));
	(*n)--;
}

static bool strv_has(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/* Does a gate of g list ev in its opens (or its waits)? */
static bool anyone(const struct wgates *g, const char *ev, bool opens)
{
	for (size_t i = 0; i < g->n; i++)
		if (opens ? strv_has(g->v[i].open, g->v[i].nopen, ev) ||
			    strv_has(g->v[i].onblock, g->v[i].nonblock, ev) :
			    strv_has(g->v[i].wait, g->v[i].nwait, ev))
			return true;
	return false;
}

/* in->drop applied to g, then what it left dangling (explore_write_ngates). */
static void drop_gates(struct wgates *g, const explore_write_in *in)
{
	bool changed = true;

	for (size_t i = 0; i < g->n && i < in->ndrop; i++)
		if (in->drop[i]) {
			while (g->v[i].nopen)
				strv_drop(g->v[i].open, &g->v[i].nopen, 0);
			while (g->v[i].nwait)
				strv_drop(g->v[i].wait, &g->v[i].nwait, 0);
			while (g->v[i].nonblock)
				strv_drop(g->v[i].onblock, &g->v[i].nonblock, 0);
		}
	while (changed) {
		changed = false;
		for (size_t i = 0; i < g->n; i++) {
			struct wgate *w = &g->v[i];

			for (size_t k = w->nwait; k-- > 0;)
				if (!exit_event(w->wait[k]) &&
				    !anyone(g, w->wait[k], true)) {
					strv_drop(w->wait, &w->nwait, k);
					changed = true;
				}
			for (size_t k = w->nopen; k-- > 0;)
				if (!anyone(g, w->open[k], false)) {
					strv_drop(w->open, &w->nopen, k);
					changed = true;
				}
			for (size_t k = w->nonblock; k-- > 0;)
				if (!anyone(g, w->onblock[k], false)) {
					strv_drop(w->onblock, &w->nonblock, k);
					changed = true;
				}
		}
	}
}

/* Does a gate left in g name thread t (alias a), or wait for its exit? */
static bool thread_used(const struct wgates *g, const char *a, size_t t)
{
	char *ev = xasprintf("exited:%s", a);
	bool used = anyone(g, ev, false);

	for (size_t i = 0; i < g->n && !used; i++)
		used = g->v[i].thread == (int)t &&
		       (g->v[i].nopen || g->v[i].nwait || g->v[i].nonblock);
	free(ev);
	return used;
}

/*
 * A thread left at a point and never chosen again (a preempted one that
 * still holds a lock, say) stayed there until the run ended.  In a
 * deadlock it must not go on before the last stretch was held, or it may
 * take the lock the cycle needs the last thread to hold first: its gate
 * there waits for the last stop too.  In a run that ended otherwise (a
 * crash, an exit) it was held until the thread that ran last ended it: it
 * waits for that thread's exit, which the failure comes first (main gone
 * on from its return would end the process before a checker thread's
 * assert).  With only the preemptions written (level), only a preempted
 * thread's.
 */
static void never_resumed_gates(const explore_run *r, bool preempted_only, char **alias,
				struct wgates *g)
{
	int last = r->steps[r->nsteps - 1].thread;
	char *ev = NULL;

	/* a deadlock of the program's own (threads blocked on each other, none
	   held at a point): the thread that ran last never exits */
	if (!r->end_held && r->fail == XF_DEADLOCK)
		return;
	for (size_t t = 0; t < r->nthreads; t++) {
		const explore_step *s = NULL;
		struct wgate *w;

		if ((int)t == last)
			continue;
		/* t's last switch away, unless it was chosen after it */
		for (size_t i = r->nsteps; i-- > 1 && !s;) {
			if (r->steps[i].thread == (int)t)
				break;
			if (r->steps[i].prev == (int)t)
				s = &r->steps[i];
		}
		if (!s || s->prev_stop != XS_ARRIVED || (preempted_only && !s->preempt))
			continue;
		if (!ev)
			ev = r->end_held ? last_stop_event(r, alias, g) :
			     xasprintf("exited:%s", alias[last]);
		w = wgate_at(g, (int)t, s->prev_gate, s->prev_hit);
		strv_add(&w->wait, &w->nwait, ev);
	}
	free(ev);
}

/* t's gate at (point, hit) waits for ev, the woken thread's arrival. */
static void wait_for_woken(struct wgates *g, int t, size_t point, long hit,
			   const char *ev, int woken)
{
	struct wgate *w = wgate_at(g, t, point, hit);

	strv_add(&w->wait, &w->nwait, ev);
	w->for_woken = true;
	if (w->other < 0)
		w->other = woken;
}

/* k's woken thread goes on from its arrival only once ev is open (ev is taken). */
static void wait_after_sleep(struct wgates *g, const explore_wake *k, char *ev, int other)
{
	struct wgate *w = wgate_at(g, k->thread, k->gate, k->hit);

	strv_add(&w->wait, &w->nwait, ev);
	w->slept = true;
	if (w->other < 0)
		w->other = other;
	free(ev);
}

/*
 * What the others did while a woken thread slept (k): each thread that
 * reached a point after it was given up as blocked, up to the decision its
 * wake was seen at, got there before the woken thread went on from its
 * own (at that decision every thread stood at a point); and the woken
 * thread stayed there until it was chosen again, after the stretch before
 * that choice had stopped.  Under racegate run the sleep may end sooner
 * than it did (a helper process exits, a reply comes), and the woken
 * thread would run ahead of them: it goes on only after each one's last
 * arrival in between, and after that stretch's stop.
 */
static void slept_through(const explore_run *r, const explore_wake *k, char **alias,
			  struct wgates *g)
{
	size_t b = k->before, i;
	size_t top = k->before < r->nsteps ? k->before + 1 : r->nsteps;

	while (b > 0 && !(r->steps[b - 1].prev == k->thread &&
			  r->steps[b - 1].prev_stop == XS_BLOCKED))
		b--;
	if (b == 0)
		return;            /* not given up at a decision: nothing to order */
	for (size_t t = 0; t < r->nthreads; t++) {
		char *ev = NULL;

		if ((int)t == k->thread)
			continue;
		for (i = top; i-- > b && !ev;)
			if (r->steps[i].prev == (int)t && r->steps[i].prev_stop == XS_ARRIVED)
				ev = stopped_event(r, i, alias, g, k->thread);
		if (ev)
			wait_after_sleep(g, k, ev, (int)t);
	}
	/* its next turn: only a stop at a point, which a replay reaches too */
	for (i = k->before; i < r->nsteps && r->steps[i].thread != k->thread; i++)
		;
	if (i < r->nsteps && i > k->before && r->steps[i].prev != k->thread &&
	    r->steps[i].prev_stop == XS_ARRIVED)
		wait_after_sleep(g, k, stopped_event(r, i, alias, g, k->thread),
				 r->steps[i].prev);
}

/*
 * A thread woken from a wait (a condition signalled, a lock let go) ran to
 * its next point before the schedule's next decision, while the others
 * stood at theirs: nothing else in the file orders it, and a woken thread
 * is slower to get going than one that runs (the signaller usually takes
 * the lock back first).  The thread that ran last (most often the one
 * that woke it) and the one chosen next wait at their points for the
 * woken one's arrival.
 */
static void wake_gates(const explore_run *r, char **alias, struct wgates *g)
{
	for (size_t i = 0; i < r->nwakes; i++) {
		const explore_wake *k = &r->wakes[i];
		const explore_step *d;
		struct wgate *w;
		char *ev;
		bool any = false;

		if (k->before >= r->nsteps)
			continue;
		d = &r->steps[k->before];
		ev = xasprintf("%s-woke%zu", alias[k->thread], k->before);
		if (d->prev >= 0 && d->prev != k->thread && d->prev_stop == XS_ARRIVED) {
			wait_for_woken(g, d->prev, d->prev_gate, d->prev_hit, ev, k->thread);
			any = true;
		}
		if (d->thread != k->thread && d->thread != d->prev) {
			wait_for_woken(g, d->thread, d->gate, d->hit, ev, k->thread);
			any = true;
		}
		if (any) {
			w = wgate_at(g, k->thread, k->gate, k->hit);
			strv_add(&w->open, &w->nopen, ev);
			w->woken = true;
			if (w->other < 0)
				w->other = d->prev != k->thread ? d->prev : d->thread;
		}
		free(ev);
		slept_through(r, k, alias, g);
	}
}

/* The gates of r at level, before any is dropped. */
static void level_gates(const explore_run *r, enum explore_write_level level,
			char **alias, struct wgates *g)
{
	for (size_t i = 1; i < r->nsteps; i++)
		if (r->steps[i].prev != r->steps[i].thread &&
		    (level == XW_STRETCHES || r->steps[i].preempt))
			switch_gates(r, i, level == XW_PREEMPTIONS, alias, g);
	if (r->nsteps)
		never_resumed_gates(r, level == XW_PREEMPTIONS, alias, g);
	wake_gates(r, alias, g);
}

/* Did the run follow a fork: has it a thread of a child process? */
static bool in_tree(const explore_run *r)
{
	for (size_t i = 0; i < r->nthreads; i++)
		if (r->threads[i].proc > 0)
			return true;
	return false;
}

/*
 * Thread i's line under threads:.  In a process tree every selector names
 * its process, the program's too: the file names a process, so racegate
 * run follows the forks as the search did.
 */
static void put_selector(rg_buf *b, const explore_write_in *in, size_t i, const char *alias)
{
	const explore_thread_info *t = &in->r->threads[i];
	char *start;

	rg_buf_printf(b, "  %s: {", alias);
	if (by_runs(in, i)) {
		rg_buf_puts(b, "runs: ");
		put_name(b, t->runs);
	} else if (t->start) {
		rg_buf_puts(b, "start: ");
		start = start_written(in->r, i);
		put_name(b, start);
		free(start);
		rg_buf_printf(b, ", nth: %d", t->nth);
	}
	if (t->proc > 0)
		rg_buf_printf(b, "%sprocess: {nth: %d}", t->start ? ", " : "", t->proc);
	else if (in_tree(in->r))
		rg_buf_puts(b, ", process: main");
	rg_buf_puts(b, "}\n");
}

size_t explore_write_ngates(const explore_write_in *in, enum explore_write_level level)
{
	const explore_run *r = in->r;
	struct wgates g = { NULL, 0, 0 };
	char **alias = xcalloc(r->nthreads ? r->nthreads : 1, sizeof(char *));
	size_t n;

	for (size_t i = 0; i < r->nthreads; i++)
		alias[i] = alias_of(in, i);
	level_gates(r, level, alias, &g);
	n = g.n;
	wgates_release(&g);
	for (size_t i = 0; i < r->nthreads; i++)
		free(alias[i]);
	free(alias);
	return n;
}

char *explore_write_yaml(const explore_write_in *in, enum explore_write_level level,
			 rg_err *err)
{
	const explore_run *r = in->r;
	rg_buf b = RG_BUF_INIT;
	struct wgates g = { NULL, 0, 0 };
	char **alias = xcalloc(r->nthreads ? r->nthreads : 1, sizeof(char *));
	size_t i, k;
	char *out = NULL;

	for (i = 0; i < r->nthreads; i++) {
		if (!r->threads[i].is_main && !r->threads[i].start && !r->threads[i].proc) {
			rg_error(err, "thread %zu of the schedule has no known start "
				 "routine to name it by", i);
			goto out;
		}
		alias[i] = alias_of(in, i);
		/* two start routines may differ only in what became '_' */
		for (size_t j = 0; j < i; j++)
			if (!strcmp(alias[j], alias[i])) {
				char *a = xasprintf("%s_t%zu", alias[i], i);

				free(alias[i]);
				alias[i] = a;
				break;
			}
	}
	level_gates(r, level, alias, &g);
	if (!g.n) {
		rg_error(err, "the schedule has no switch between threads to write");
		goto out;
	}
	if (in->drop)
		drop_gates(&g, in);
	put_header(&b, in);
	rg_buf_puts(&b, "threads:\n");
	for (i = 0; i < r->nthreads; i++)
		if (!r->threads[i].is_main && thread_used(&g, alias[i], i))
			put_selector(&b, in, i, alias[i]);
	rg_buf_puts(&b, "gates:\n");
	for (i = 0, k = 0; i < g.n; i++)
		if (g.v[i].nopen || g.v[i].nwait || g.v[i].nonblock)
			put_gate(&b, &g.v[i], in, alias, ++k);
	if (!k) {
		rg_error(err, "no gate is left to write");
		goto out;
	}
	if (explore_put_expect(&b, in->expect, in->r, err) < 0)
		goto out;
	out = rg_buf_detach(&b);
out:
	rg_buf_release(&b);
	wgates_release(&g);
	for (i = 0; i < r->nthreads; i++)
		free(alias[i]);
	free(alias);
	return out;
}

/* ---- the Markdown bug report ---- */

void explore_put_mermaid_text(rg_buf *b, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case ';': rg_buf_puts(b, "#59;"); break;
		case '#': rg_buf_puts(b, "#35;"); break;
		case '<': rg_buf_puts(b, "#60;"); break;
		case '>': rg_buf_puts(b, "#62;"); break;
		case '\n': case '\r': rg_buf_puts(b, " "); break;
		default: rg_buf_add(b, s, 1);
		}
}

/* "sbuf.c:20 in sbuf_append: `text`" for point g (its at: text without a line). */
static void put_point(rg_buf *b, const explore_write_in *in, const explore_md_in *md,
		      size_t g, bool mermaid)
{
	const explore_point_src *p = md->src ? &md->src[g] : NULL;

	if (mermaid)
		explore_put_mermaid_text(b, in->at[g]);
	else
		rg_buf_printf(b, "`%s`", in->at[g]);
	if (p && p->function && mermaid) {
		rg_buf_puts(b, " in ");
		explore_put_mermaid_text(b, p->function);
	} else if (p && p->function) {
		rg_buf_printf(b, " in `%s`", p->function);
	}
	if (p && p->text) {
		rg_buf_puts(b, ": ");
		if (mermaid)
			explore_put_mermaid_text(b, p->text);
		else
			rg_buf_printf(b, "`%s`", p->text);
	}
}

/* " sbuf.c:20-31" (or "sbuf.c:20") for the lines of steps [first, end) in file f. */
static void put_file_lines(rg_buf *b, const explore_run *r, const explore_md_in *md,
			   size_t first, size_t end, const char *f)
{
	int lo = 0, hi = 0;

	for (size_t i = first; i < end; i++) {
		const explore_point_src *p = &md->src[r->steps[i].gate];

		if (!p->file || !p->line || strcmp(p->file, f))
			continue;
		if (!lo || p->line < lo)
			lo = p->line;
		if (p->line > hi)
			hi = p->line;
	}
	explore_put_mermaid_text(b, f);
	if (lo == hi)
		rg_buf_printf(b, ":%d", lo);
	else
		rg_buf_printf(b, ":%d-%d", lo, hi);
}

/* The last of thread t's steps in [first, end) whose point has a source line, or -1. */
static long last_with_line(const explore_run *r, const explore_md_in *md, size_t first,
			   size_t end, int t)
{
	for (size_t i = end; md->src && i-- > first;)
		if (r->steps[i].thread == t && md->src[r->steps[i].gate].file &&
		    md->src[r->steps[i].gate].line)
			return (long)i;
	return -1;
}

/* Point of step k, and when that is a library's, the source line before it. */
static void put_step(rg_buf *b, const explore_write_in *in, const explore_md_in *md,
		     size_t first, size_t k, bool mermaid)
{
	const explore_run *r = in->r;
	long l = last_with_line(r, md, first, k + 1, r->steps[k].thread);

	if (l >= 0 && (size_t)l != k) {
		put_point(b, in, md, r->steps[l].gate, mermaid);
		rg_buf_puts(b, mermaid ? ", then " : ", then at ");
	}
	put_point(b, in, md, r->steps[k].gate, mermaid);
}

/*
 * A stretch: decisions [first, end) of one thread, collapsed into one
 * note: how many steps, the lines they span per file (three files at
 * most), how many were elsewhere (a library's calls), then the point it
 * stopped at with its source line.
 */
static void put_stretch(rg_buf *b, const explore_run *r, const explore_write_in *in,
			const explore_md_in *md, char **alias, size_t first, size_t end)
{
	const explore_step *s = &r->steps[first];
	const char *files[3];
	size_t nfiles = 0, other = 0, more = 0;

	rg_buf_printf(b, "    Note over %s: ", alias[s->thread]);
	if (end - first == 1 || !md->src) {
		if (end - first > 1)
			rg_buf_printf(b, "%zu steps, ", end - first);
		put_point(b, in, md, r->steps[end - 1].gate, true);
		rg_buf_puts(b, "\n");
		return;
	}
	for (size_t i = first; i < end; i++) {
		const explore_point_src *p = &md->src[r->steps[i].gate];
		size_t k;

		if (!p->file || !p->line) {
			other++;
			continue;
		}
		for (k = 0; k < nfiles && strcmp(files[k], p->file); k++)
			;
		if (k == nfiles && nfiles < 3)
			files[nfiles++] = p->file;
		else if (k == nfiles)
			more++;
	}
	rg_buf_printf(b, "%zu steps", end - first);
	for (size_t k = 0; k < nfiles; k++) {
		rg_buf_puts(b, k ? ", " : ", ");
		put_file_lines(b, r, md, first, end, files[k]);
	}
	if (more)
		rg_buf_printf(b, ", %zu in other files", more);
	if (other)
		rg_buf_printf(b, "%s%zu at library calls", nfiles ? ", " : ", ", other);
	rg_buf_puts(b, "<br/>last ");
	put_step(b, in, md, first, end - 1, true);
	rg_buf_puts(b, "\n");
}

/* How the stretch before decision k ended, as the arrow's label. */
static void put_switch(rg_buf *b, const explore_run *r, const explore_write_in *in,
		       char **alias, size_t k)
{
	const explore_step *s = &r->steps[k];

	rg_buf_printf(b, "    %s->>%s: ", alias[s->prev], alias[s->thread]);
	switch (s->prev_stop) {
	case XS_ARRIVED:
		rg_buf_printf(b, "%s at ", s->preempt ? "preempted" : "cannot go on");
		explore_put_mermaid_text(b, in->at[s->prev_gate]);
		break;
	case XS_EXITED:
		rg_buf_puts(b, "exited");
		break;
	default:
		rg_buf_puts(b, "blocked");
	}
	rg_buf_puts(b, "\n");
}

/* The last step of thread t in r, or -1 when it took none. */
static long last_step_of(const explore_run *r, size_t t)
{
	for (size_t i = r->nsteps; i-- > 0;)
		if ((size_t)r->steps[i].thread == t)
			return (long)i;
	return -1;
}

/* Which thread failed and where: the one that ran last, or every thread when none could go on. */
static void put_where(rg_buf *b, const explore_write_in *in, const explore_md_in *md,
		      char **alias)
{
	const explore_run *r = in->r;
	size_t last = r->steps[r->nsteps - 1].thread;

	rg_buf_puts(b, "## Where it failed\n\n");
	if (r->fail == XF_DEADLOCK || r->fail == XF_TIMEOUT) {
		rg_buf_printf(b, "%s; where each thread was last seen:\n\n",
			      r->fail == XF_DEADLOCK ? "No thread could go on (it hung)" :
			      "It ran until the timeout (it hung)");
		for (size_t t = 0; t < r->nthreads; t++) {
			long k = last_step_of(r, t);

			if (k < 0)
				continue;
			rg_buf_printf(b, "- `%s`%s at ", alias[t], t == last ? " (ran last)" : "");
			put_step(b, in, md, 0, (size_t)k, false);
			/* where it stood when the others ran: the point it arrived at */
			for (size_t i = (size_t)k + 1; i < r->nsteps; i++)
				if (r->steps[i].prev == (int)t && r->steps[i].prev_stop == XS_ARRIVED &&
				    r->steps[i].prev_gate != r->steps[k].gate)
					rg_buf_printf(b, ", stopped at `%s`",
						      in->at[r->steps[i].prev_gate]);
			if (t == last && r->end_held && r->end_gate != r->steps[k].gate)
				rg_buf_printf(b, ", stopped at `%s`", in->at[r->end_gate]);
			rg_buf_puts(b, "\n");
		}
		rg_buf_puts(b, "\n");
		return;
	}
	rg_buf_printf(b, "`%s` was running when the program ", alias[last]);
	if (r->fail == XF_SIGNAL && spec_signal_name(r->signo))
		rg_buf_printf(b, "was killed by %s", spec_signal_name(r->signo));
	else if (r->fail == XF_EXIT)
		rg_buf_printf(b, "exited with status %d", r->exit_code);
	else
		rg_buf_printf(b, "failed (%s)", explore_fail_name(r->fail));
	rg_buf_puts(b, "; the last point it passed: ");
	put_step(b, in, md, 0, r->nsteps - 1, false);
	rg_buf_puts(b, "\n\n");
}

/* A fence for text: three backticks, or more than the longest run in it. */
static size_t fence_len(const char *s)
{
	size_t best = 2, n = 0;

	for (; *s; s++) {
		n = *s == '`' ? n + 1 : 0;
		if (n > best)
			best = n;
	}
	return best + 1;
}

/* The program's stderr: its last EXPLORE_MD_ERR_LINES lines, said when cut. */
static void put_stderr(rg_buf *b, const char *err)
{
	size_t n = 0, fl;
	const char *from = err, *p;

	rg_buf_puts(b, "## stderr\n\n");
	if (!err || !*err) {
		rg_buf_puts(b, "The program wrote nothing on stderr.\n\n");
		return;
	}
	for (p = err; *p; p++)
		if (*p == '\n' && p[1])
			n++;
	n++;               /* lines, the last with or without its newline */
	if (n > EXPLORE_MD_ERR_LINES) {
		size_t skip = n - EXPLORE_MD_ERR_LINES;

		for (p = err; skip; p++)
			if (*p == '\n')
				skip--;
		from = p;
		rg_buf_printf(b, "Its last %d lines of %zu:\n\n", EXPLORE_MD_ERR_LINES, n);
	}
	fl = fence_len(from);
	for (size_t i = 0; i < fl; i++)
		rg_buf_puts(b, "`");
	rg_buf_printf(b, "\n%s%s", from, from[strlen(from) - 1] == '\n' ? "" : "\n");
	for (size_t i = 0; i < fl; i++)
		rg_buf_puts(b, "`");
	rg_buf_puts(b, "\n\n");
}

char *explore_write_markdown(const explore_write_in *in, const explore_md_in *md)
{
	const explore_run *r = in->r;
	rg_buf b = RG_BUF_INIT;
	char **alias = xcalloc(r->nthreads ? r->nthreads : 1, sizeof(char *));
	size_t i, k;

	for (i = 0; i < r->nthreads; i++)
		alias[i] = alias_of(in, i);
	rg_buf_puts(&b, "# racegate explore: ");
	if (r->fail == XF_EXIT)
		rg_buf_printf(&b, "exit status %d\n\n", r->exit_code);
	else if (r->fail == XF_SIGNAL && spec_signal_name(r->signo))
		rg_buf_printf(&b, "killed by %s\n\n", spec_signal_name(r->signo));
	else
		rg_buf_printf(&b, "%s\n\n", explore_fail_name(r->fail));
	rg_buf_printf(&b, "Found by `%s`\n\nSchedule `%s`: %zu preemption%s, %zu "
		      "decisions.\n\n", md->found_by ? md->found_by : md->replay, in->id,
		      r->npreempt, r->npreempt == 1 ? "" : "s", r->nsteps);
	if (md->fails_alone)
		rg_buf_printf(&b, "It failed this way in %d of %d plain runs too (not traced): "
			      "the failure may not depend on the order of the threads.\n\n",
			      md->fails_alone, md->fails_alone);
	else if (md->passed_before)
		rg_buf_puts(&b, "Its interleaving passed in an earlier schedule of the "
			    "search: the failure does not follow from the order at the "
			    "points alone.\n\n");
	if (r->nsteps)
		put_where(&b, in, md, alias);
	put_stderr(&b, r->err);
	rg_buf_printf(&b, "## Replay\n\n`%s`\n\n", md->replay);
	if (md->yaml) {
		rg_buf_printf(&b, "## Reproduce\n\n`racegate run --repeat 100 %s`\n\n"
			      "```yaml\n%s```\n\n", md->yaml_path, md->yaml);
	} else if (md->no_file) {
		rg_buf_printf(&b, "## No gates file\n\nNo gates file was written: %s.\n\n",
			      md->no_file);
		if (md->no_file_try)
			rg_buf_printf(&b, "To try: %s.\n\n", md->no_file_try);
	}
	rg_buf_puts(&b, "## The interleaving\n\nEach note is a stretch one thread "
		    "ran while the others waited at their points (its steps, the "
		    "lines they span, the last one's source); each arrow, a "
		    "switch.\n\n```mermaid\nsequenceDiagram\n");
	for (i = 0; i < r->nthreads; i++)
		rg_buf_printf(&b, "    participant %s\n", alias[i]);
	for (i = 0; i < r->nsteps; i = k) {
		for (k = i + 1; k < r->nsteps && r->steps[k].thread == r->steps[i].thread; k++)
			;
		if (i && r->steps[i].prev >= 0 && r->steps[i].prev != r->steps[i].thread)
			put_switch(&b, r, in, alias, i);
		put_stretch(&b, r, in, md, alias, i, k);
	}
	rg_buf_puts(&b, "```\n");
	for (i = 0; i < r->nthreads; i++)
		free(alias[i]);
	free(alias);
	return rg_buf_detach(&b);
}
