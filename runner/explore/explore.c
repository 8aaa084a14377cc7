/*
 * racegate explore: search the orderings of a program's threads at
 * scheduling points for one that makes it fail, shrink that schedule, and
 * write the gates.yaml that reproduces it (explore.h).
 *
 * The scheduling points become gates of a spec made here (one gate per
 * point, doing nothing), so the plan, the session and shared objects work
 * as for `run`; the decider is the explorer's (decide_explore.h) instead
 * of the gate engine.
 */
#include "explore_int.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"
#include "intmap.h"
#include "session.h"

#define EXPLORE_QUIET_MS 30   /* default --quiet-period of explore */
/*
 * A thread running to a point that uses this much CPU time, or sleeps this
 * long in a wait that ends by itself, without reaching one is let loose
 * (decide_explore.h).  CPU time, not the clock, so that a loaded machine
 * does not make a schedule depend on timing; short enough that a
 * spin-wait costs little.
 */
#define EXPLORE_RUN_MAX_MS 500.0
/* schedules the shrinker's search for fewer preemptions may run, all bounds together */
#define SHRINK_DFS_RUNS 150
/*
 * Without --shrink-runs, shrinking a failure found with more than
 * SHRINK_FEW deviations stops after SHRINK_RUNS runs once it has taken
 * SHRINK_MS: a fast program shrinks as far as it goes, a random schedule
 * of a server (hundreds of deviations, 0.2 s a run) does not take
 * minutes.  A failure of few deviations always shrinks as far as it goes
 * (delta debugging needs few runs there, the search for fewer preemptions
 * at most SHRINK_DFS_RUNS): the same seed then shrinks to
 * the same schedule however loaded the machine is.
 */
#define SHRINK_RUNS 200
#define SHRINK_MS 20000.0
#define SHRINK_FEW 20
/* plain runs after a failure in the default order (after_failure) */
#define ALONE_RUNS 5



const char *explore_fail_name(enum explore_fail f)
{
	static const char *const names[XF_NKINDS] = {
		"pass", "exit status", "fatal signal", "deadlock", "timeout",
		"stdout mismatch", "expected failure", "stderr mismatch",
	};

	return f < XF_NKINDS ? names[f] : "?";
}

void explore_run_release(explore_run *r)
{
	for (size_t i = 0; i < r->nthreads; i++) {
		free(r->threads[i].start);
		free(r->threads[i].runs);
	}
	free(r->threads);
	free(r->steps);
	free(r->wakes);
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

double explore_elapsed_ms(const struct xctx *c)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - c->t0.tv_sec) * 1e3 +
	       (double)(t.tv_nsec - c->t0.tv_nsec) / 1e6;
}

/* ---- options ---- */

void explore_opts_init(explore_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->strategy = explore_strategies[0];
	o->sync = true;
	o->fork_server = true;
	o->virtual_time = true;
	o->depth = 3;
	o->bound = 3;          /* dfs, of delays unless --preemptions K */
	o->schedules = 1000;
	o->seed = 1;
	o->shard_n = 1;
	o->verify = 20;
	o->shrink_runs = -1;   /* SHRINK_RUNS, more while shrinking is quick */
	o->jobs = 1;
	o->timeout_ms = 10000;
}

void explore_opts_release(explore_opts *o)
{
	free(o->at);
	o->at = NULL;
	o->nat = 0;
}

int explore_opts_check(const explore_opts *o, rg_err *err)
{
	if (o->bound_set && !explore_strategy_takes(o->strategy, "--delays") && !o->replay)
		return rg_error(err, "--delays and --preemptions bound a %s search; "
				"--strategy %s takes neither",
				explore_strategy_taking("--delays")->name, o->strategy->name);
	if (o->jobs > 1 && !strategy_independent(o->strategy))
		return rg_error(err, "%s runs its schedules one after another, each "
				"from what the ones before found; to run it on several "
				"cores, run --shard I/N shards of it at once", o->strategy->name);
	if (o->expect_file && (o->has_expect_exit || o->expect_stdout))
		return rg_error(err, "--expect FILE says what to look for; it goes with "
				"neither --expect-exit nor --expect-stdout");
	return 0;
}

/* ---- scheduling points ---- */

/* The point at, added once; its index. */
static size_t add_point(struct xctx *c, const char *at, enum explore_point_kind k)
{
	for (size_t i = 0; i < c->npoints; i++)
		if (!strcmp(c->at[i], at))
			return i;
	if (c->npoints == c->cappoints) {
		c->cappoints = c->cappoints ? 2 * c->cappoints : 16;
		c->at = xrealloc(c->at, c->cappoints * sizeof(*c->at));
		c->kinds = xrealloc(c->kinds, c->cappoints * sizeof(*c->kinds));
		c->quiet = xrealloc(c->quiet, c->cappoints * sizeof(*c->quiet));
	}
	c->at[c->npoints] = xstrdup(at);
	c->quiet[c->npoints] = false;
	c->kinds[c->npoints] = k;
	return c->npoints++;
}

struct line_walk {
	struct xctx *c;
	const char *file;      /* as the user wrote it */
	const char *function;  /* only lines of it, or NULL */
	size_t n;
	int *lines;            /* the lines found, in order */
	size_t caplines;
};

static int add_line(const dwarfx_line_info *li, void *arg)
{
	struct line_walk *w = arg;

	if (w->function && (!li->function || strcmp(li->function, w->function)))
		return 0;
	RG_GROW(w->lines, w->n + 1, w->caplines);
	w->lines[w->n++] = li->line;
	return 0;
}

/*
 * The points of the lines w found in dx: each line, and (unless --points
 * lines) after it each instruction of it that may touch memory another
 * thread sees, as FILE:LINE+N.  A race inside one line (count++: load, add,
 * store) needs a point between its instructions; accesses to the thread's
 * own stack cannot race, so they get none (dwarfx_line_accesses).
 */
static void add_lines(struct line_walk *w, dwarfx *dx)
{
	for (size_t i = 0; i < w->n; i++) {
		char *at = xasprintf("%s:%d", w->file, w->lines[i]);
		size_t *plus = NULL, nplus = 0;
		rg_err err = RG_ERR_INIT;

		size_t own = add_point(w->c, at, XP_LINE);
		bool quiet = false;

		if (!w->c->o->lines_only) {
			if (dwarfx_line_accesses(dx, at, &plus, NULL, &nplus, &err) != DWARFX_OK)
				rg_trace("no instruction points in '%s': %s", at, err.msg);
			else
				quiet = !nplus || plus[0] != 0;
		}
		/* its first instruction touches nothing shared: dfs deviates there last */
		w->c->quiet[own] = quiet;
		for (size_t k = 0; k < nplus; k++) {
			char *in;

			if (!plus[k])
				continue;   /* the line's own point */
			in = xasprintf("%s+%zu", at, plus[k]);
			add_point(w->c, in, XP_LINE);
			free(in);
		}
		free(plus);
		free(at);
	}
	free(w->lines);
	w->lines = NULL;
}

/* A bare FILE: every line of it with code. */
static bool looks_like_file(const char *loc)
{
	const char *dot = strrchr(loc, '.');

	return !strchr(loc, ':') && loc[0] != '*' && dot && dot[1] &&
	       strspn(dot + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+") ==
	       strlen(dot + 1);
}

/* A bare FUNCTION (C or C++ name): every line of it. */
static bool looks_like_function(const char *loc)
{
	for (const char *p = loc; *p; p++)
		if (!(p[0] == '_' || (p[0] >= '0' && p[0] <= '9') ||
		      ((p[0] | 32) >= 'a' && (p[0] | 32) <= 'z') ||
		      (p[0] == ':' && (p[1] == ':' || (p > loc && p[-1] == ':')))))
			return false;
	return loc[0] && !(loc[0] >= '0' && loc[0] <= '9');
}

/* Every line of FUNCTION, when its file has debug information. */
static int function_lines(struct xctx *c, const char *loc, rg_err *err)
{
	dwarfx_loc *locs = NULL;
	size_t n = 0;
	dwarfx_hint h = DWARFX_HINT_INIT;
	struct line_walk w = { c, NULL, loc, 0, NULL, 0 };

	if (dwarfx_resolve(c->p.dx, loc, &locs, &n, &h, err) != DWARFX_OK || !n ||
	    !locs[0].file) {
		free(locs);
		add_point(c, loc, XP_LINE);   /* the plan says what is wrong with it */
		return 0;
	}
	/* the file by its name, as a person writes it in a gates file */
	w.file = strrchr(locs[0].file, '/') ? strrchr(locs[0].file, '/') + 1 : locs[0].file;
	if (dwarfx_lines(c->p.dx, w.file, 0, 0, add_line, &w, err) < 0 || !w.n)
		add_point(c, loc, XP_LINE);
	add_lines(&w, c->p.dx);
	free(locs);
	return 0;
}

static int expand_at(struct xctx *c, const char *list, rg_err *err)
{
	char *copy = xstrdup(list), *save = NULL, *loc;
	int r = 0;

	for (loc = strtok_r(copy, ",", &save); loc && !r; loc = strtok_r(NULL, ",", &save)) {
		if (looks_like_file(loc)) {
			struct line_walk w = { c, loc, NULL, 0, NULL, 0 };
			int listed = dwarfx_lines(c->p.dx, loc, 0, 0, add_line, &w, err);
			dwarfx *lib = NULL;

			/* a library's source, as run and lines find it */
			if (listed == DWARFX_NO_ENTRY)
				listed = plan_lines_in_libs(c->p.exe, loc, 0, 0, c->o->source_dir,
							   add_line, &w, &lib, err);
			if (listed >= 0)
				add_lines(&w, lib ? lib : c->p.dx);
			free(w.lines);
			if (lib)
				dwarfx_free(lib);
			if (listed < 0)
				r = rg_error_prefix(err, "--at '%s'", loc);
			else if (!w.n)
				r = rg_error(err, "--at '%s': no line of it has code", loc);
		} else if (looks_like_function(loc)) {
			r = function_lines(c, loc, err);
		} else {
			add_point(c, loc, XP_LINE);
		}
	}
	free(copy);
	return r;
}

static void add_sync_points(struct xctx *c)
{
	static const struct { const char *at; enum explore_point_kind k; } ops[] = {
		{ "*pthread_mutex_lock", XP_MUTEX_LOCK },
		{ "*pthread_mutex_trylock", XP_SYNC },
		{ "*pthread_mutex_unlock", XP_SYNC },
		{ "*pthread_cond_wait", XP_WAIT },
		{ "*pthread_cond_signal", XP_SYNC },
		{ "*pthread_cond_broadcast", XP_SYNC },
		{ "*pthread_create", XP_SYNC },
		{ "*pthread_join", XP_JOIN },
		{ "*sem_wait", XP_SEM_WAIT },
		{ "*sem_post", XP_SYNC },
		/* after the ten above, so that earlier schedule ids keep their points */
		{ "*pthread_cond_timedwait", XP_WAIT },
		{ "*sem_timedwait", XP_WAIT },
		{ "*sem_trywait", XP_SYNC },
		{ "*pthread_rwlock_rdlock", XP_RDLOCK },
		{ "*pthread_rwlock_wrlock", XP_WRLOCK },
		{ "*pthread_rwlock_tryrdlock", XP_SYNC },
		{ "*pthread_rwlock_trywrlock", XP_SYNC },
		{ "*pthread_rwlock_unlock", XP_SYNC },
		{ "*pthread_barrier_wait", XP_BARRIER },
		{ "*pthread_spin_lock", XP_SPIN_LOCK },
		{ "*pthread_spin_unlock", XP_SYNC },
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		add_point(c, ops[i].at, ops[i].k);
}

/* The spec of the points: one gate each, doing nothing but stopping. */
static char *points_spec(const struct xctx *c)
{
	rg_buf b = RG_BUF_INIT;

	rg_buf_puts(&b, "version: 1\nname: explore\ngates:\n");
	for (size_t i = 0; i < c->npoints; i++) {
		rg_buf_printf(&b, "  - {name: \"point %zu\", optional: true, at: \"", i);
		for (const char *p = c->at[i]; *p; p++)
			rg_buf_printf(&b, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
		/* --follow-fork: a point stops the threads of every process */
		rg_buf_puts(&b, c->o->follow_fork ? "\", process: any}\n" : "\"}\n");
	}
	return rg_buf_detach(&b);
}

/* Opens the program, makes the points and the plan over them; says what failed. */
static int prepare(struct xctx *c)
{
	spec_diags d = SPEC_DIAGS_INIT;
	rg_err err = RG_ERR_INIT;
	spec *empty = NULL;
	char *text;
	int r = -1;

	/* the program first, for FILE and FUNCTION: a plan of no gates */
	if (spec_load_string("version: 1\ngates: []\n", 20, "explore", ".", &empty, &d) < 0 ||
	    (c->p.source_dir = c->o->source_dir,
	     plan_build(&c->p, empty, c->o->command, &d, &err) < 0)) {
		rg_say("%s", d.nerrors ? d.v[0].msg : err.msg);
		goto out;
	}
	for (size_t i = 0; i < c->o->nat; i++)
		if (expand_at(c, c->o->at[i], &err) < 0) {
			rg_say("%s", err.msg);
			goto out;
		}
	if (c->o->sync)
		add_sync_points(c);
	if (!c->npoints) {
		rg_say("no scheduling points: give --at LOC (a file, a function, a "
		       "line), or leave --sync on");
		goto out;
	}
	plan_release(&c->p);
	spec_diags_release(&d);
	text = points_spec(c);
	if (spec_load_string(text, strlen(text), "explore", ".", &c->sp, &d) < 0) {
		rg_bug("the spec of the scheduling points does not load: %s", d.v[0].msg);
	}
	free(text);
	c->p.source_dir = c->o->source_dir;
	if (plan_build(&c->p, c->sp, c->o->command, &d, &err) < 0) {
		for (size_t i = 0; i < d.n; i++)
			if (d.v[i].severity == SPEC_ERROR)
				rg_say("--at: %s", d.v[i].msg);
		if (!d.nerrors)
			rg_say("%s", err.msg);
		goto out;
	}
	r = 0;
out:
	spec_diags_release(&d);
	spec_free(empty);
	return r;
}

/* ---- one schedule ---- */

static void take_run(explore_decider *x, explore_sched *sc, explore_run *out)
{
	const explore_step *st;
	const explore_wake *wk;

	out->nsteps = explore_decider_steps(x, &st);
	out->steps = xcalloc(out->nsteps ? out->nsteps : 1, sizeof(*st));
	if (out->nsteps)       /* none: interrupted before the first point */
		memcpy(out->steps, st, out->nsteps * sizeof(*st));
	out->nwakes = explore_decider_wakes(x, &wk);
	out->wakes = xcalloc(out->nwakes ? out->nwakes : 1, sizeof(*wk));
	if (out->nwakes)
		memcpy(out->wakes, wk, out->nwakes * sizeof(*wk));
	out->nthreads = explore_decider_nthreads(x);
	out->threads = xcalloc(out->nthreads ? out->nthreads : 1, sizeof(*out->threads));
	for (size_t i = 0; i < out->nthreads; i++) {
		out->threads[i] = *explore_decider_thread(x, i);
		if (out->threads[i].start)
			out->threads[i].start = xstrdup(out->threads[i].start);
		if (out->threads[i].runs)
			out->threads[i].runs = xstrdup(out->threads[i].runs);
	}
	out->hash = explore_decider_hash(x);
	out->npreempt = sc->npreempt;
	out->end_held = explore_decider_last_stop(x, &out->end_gate, &out->end_hit);
}

/* A run that did not end as wanted (exit status want_exit): how not, or
 * XF_NONE when only its output is left to judge. */
static enum explore_fail ending_failure(const run_result *res, bool deadlock, bool timed_out,
					int want_exit)
{
	if (deadlock)
		return XF_DEADLOCK;
	if (timed_out)
		return XF_TIMEOUT;
	if (res->term_signal)
		return XF_SIGNAL;
	if (res->exit_code != want_exit)
		return XF_EXIT;
	return XF_NONE;
}

/*
 * --expect FILE: the run judged as `racegate run` judges it against the
 * file's expect: (judge.c).  When that describes a bug, finding it (a
 * REPRODUCED run) is the failure explore looks for; when it describes a
 * good run, anything but PASSED is one, of the kind the run shows.
 */
static enum explore_fail judged_fail(const struct xctx *c, run_result *res,
				     bool deadlock, bool timed_out)
{
	spec js = *c->sp;      /* the points, judged by the file's expect: */
	enum explore_fail f;

	js.expect = c->xspec->expect;
	if (deadlock)
		res->outcome = OUT_DEADLOCK;
	judge_run(&js, res, false, false, timed_out);
	if (judge_expects_bug(&js.expect))
		return res->outcome == OUT_REPRODUCED ? XF_EXPECTED : XF_NONE;
	if (res->outcome == OUT_PASSED)
		return XF_NONE;
	f = ending_failure(res, deadlock, timed_out, js.expect.has_exit ? js.expect.exit_code : 0);
	if (f != XF_NONE)
		return f;
	return judge_stdout_met(&js.expect, res->out.s) ? XF_OUTPUT : XF_STDOUT;
}

enum explore_fail explore_judge(const struct xctx *c, run_result *res, bool deadlock,
				bool timed_out)
{
	enum explore_fail f;

	if (c->xspec)
		return judged_fail(c, res, deadlock, timed_out);
	f = ending_failure(res, deadlock, timed_out, c->o->has_expect_exit ? c->o->expect_exit : 0);
	if (f == XF_NONE && c->has_re && regexec(&c->re, res->out.s ? res->out.s : "", 0, NULL, 0))
		f = XF_STDOUT;
	return f;
}

/*
 * Runs the program once under schedule sc, in this process: in a copy of
 * the fork server's template when one was made for it, else anew.
 */
static int run_traced(struct xctx *c, explore_sched *sc, explore_run *out)
{
	run_result res;
	session *s, *tmpl;
	explore_decider *x;
	session_end end;
	pid_t child;
	int r = 0;

	const long limit = explore_run_limit(c, c->o->timeout_ms);
	double t0 = explore_elapsed_ms(c);

	memset(out, 0, sizeof(*out));
	if (!limit) {          /* --time is up: not run */
		c->out_of_time = true;
		return 1;
	}
	memset(&res, 0, sizeof(res));
	res.exit_code = -1;
	res.ngates = c->sp->ngates;
	c->ro.timeout_ms = limit;
	tmpl = explore_copy_take(c, &child);
	s = tmpl ? tmpl : session_new(&c->p, &c->ro, &res);
	x = explore_decider_new(s, c->kinds, sc, EXPLORE_RUN_MAX_MS, c->o->virtual_time);
	if (tmpl)
		session_run_copy(s, child, &explore_decider_ops, x, &res, &end);
	else
		session_run(s, &explore_decider_ops, x, &end);
	take_run(x, sc, out);
	out->exit_code = res.exited ? res.exit_code : -1;
	out->signo = res.exited ? res.term_signal : 0;
	out->timed_out = end.timed_out;
	out->forked = res.untraced_forks > 0;
	explore_note_run(c, explore_elapsed_ms(c) - t0);
	if (end.interrupted || interrupt_signal() ||
	    explore_cut_by_time(c, c->o->timeout_ms, limit, end.timed_out)) {
		r = 1;     /* cut short by racegate, not judged */
	} else if (!end.started || end.failed) {
		rg_say("cannot explore '%s': %s", c->p.exe, res.note ? res.note : "the run failed");
		r = -1;
	} else {
		out->fail = explore_judge(c, &res, explore_decider_deadlock(x), end.timed_out);
	}
	if (out->fail != XF_NONE && res.out.s)
		out->out = xstrndup(res.out.s, res.out.len);
	if (out->fail != XF_NONE && res.err.s)
		out->err = xstrndup(res.err.s, res.err.len);
	explore_decider_free(x);
	if (!tmpl)
		session_free(s);
	run_result_release(&res);
	return r;
}

/*
 * Runs the program once under schedule sc; out says how it went.  0, 1
 * when racegate was interrupted, -1 when the program could not be run
 * (said).
 */
static int run_schedule(struct xctx *c, explore_sched *sc, explore_run *out)
{
	const long limit = explore_run_limit(c, c->o->timeout_ms);
	double t0 = explore_elapsed_ms(c);
	int rc;

	if (!limit || !explore_copy_prepare(c, 0))
		return run_traced(c, sc, out);
	/* the fork's pace and its cut by --time, kept here */
	rc = explore_copy_run(c, sc, out, run_traced);
	explore_note_run(c, explore_elapsed_ms(c) - t0);
	if (rc >= 0 && explore_cut_by_time(c, c->o->timeout_ms, limit, out->timed_out))
		rc = 1;
	return rc;
}

/* ---- the search ---- */


/* Counts r's interleaving; was it new?  (The search ends at its first
 * failure: one seen before passed.) */
static bool note_seen(struct search *se, const explore_run *r)
{
	se->forked |= r->forked;
	if (rg_intmap_get(&se->seen, r->hash))
		return false;
	*rg_intmap_ref(&se->seen, r->hash, 0) = 1;
	se->distinct++;
	return true;
}

static void progress(struct xctx *c, const struct search *se, bool done)
{
	if (done)
		explore_progress_clear(c);
	else
		explore_progress(c, XP_SEARCH, se->tried, c->o->schedules, se->distinct);
}

/*
 * The strategy's first run, before its search (pct: how many decisions a
 * run makes): a schedule like any other once it fails, which then ends
 * the search.  0, 1 interrupted, -1 error.
 */
/*
 * A schedule that failed by --timeout counts only if it times out again
 * when replayed: a run the machine slowed (a loaded CI runner) is no
 * failure, and a search must not stop at it.  When the replay does not
 * time out, r is no failure and says so (flaky_timeout).
 */
static void check_timeout(struct xctx *c, const explore_sched *sc, explore_run *r)
{
	explore_dev *devs = NULL;
	explore_sched again;
	explore_run r2;
	size_t n;

	if (r->fail != XF_TIMEOUT || interrupt_signal() || explore_search_time_up(c))
		return;
	n = explore_deviations(sc, &devs);
	explore_sched_init_forced(&again, devs, n);
	if (!run_schedule(c, &again, &r2) && r2.fail != XF_TIMEOUT) {
		r->fail = XF_NONE;
		r->flaky_timeout = true;
	}
	explore_run_release(&r2);
	explore_sched_release(&again);
	free(devs);
}

static int first_run(struct xctx *c, strategy_search *x, explore_sched *sc,
		     struct search *se)
{
	explore_run r;
	int rc = run_schedule(c, sc, &r);

	if (!rc)
		strategy_learn(x, sc);
	if (!rc)
		check_timeout(c, sc, &r);
	se->flaky_timeouts += !rc && r.flaky_timeout;
	if (!rc && r.fail != XF_NONE) {
		se->passed_before = !note_seen(se, &r); /* a schedule like any other */
		se->timeouts = r.timed_out;
		se->failed = true;
		se->fail_id = explore_sched_id(sc);
		se->fail_sc = *sc;
		se->fail_run = r;
		se->tried++;
		return 0;
	}
	explore_run_release(&r);
	explore_sched_release(sc);
	return rc;
}

/* ---- --jobs: the search's schedules in worker processes (explore_jobs.c) ---- */

struct jobs_ctx {
	struct xctx *c;
	struct search *se;
	strategy_search *x;
};

static int job_run(void *ctx, long k, explore_run *r, explore_dev **devs, size_t *ndevs)
{
	struct jobs_ctx *j = ctx;
	explore_sched sc;
	int rc;

	strategy_next(j->x, (uint64_t)k, &sc);
	if ((rc = run_schedule(j->c, &sc, r)) == 0)
		check_timeout(j->c, &sc, r);
	*ndevs = explore_deviations(&sc, devs);
	explore_sched_release(&sc);
	return rc;
}

/* As the loop of search() takes a schedule's result, in schedule order. */
static bool job_take(void *ctx, long k, explore_run *r, explore_dev *devs, size_t ndevs)
{
	struct jobs_ctx *j = ctx;
	struct search *se = j->se;

	se->tried++;
	se->timeouts += r->timed_out && !r->flaky_timeout;
	se->passed_before = !note_seen(se, r);
	progress(j->c, se, false);
	/* the pace of one schedule, --jobs of them at a time */
	j->c->run_ms = explore_elapsed_ms(j->c) * (double)j->c->o->jobs;
	j->c->nruns = se->tried;
	se->flaky_timeouts += r->flaky_timeout;
	if (r->fail == XF_NONE) {
		explore_run_release(r);
		free(devs);
		return false;
	}
	se->failed = true;
	strategy_next(j->x, (uint64_t)k, &se->fail_sc);   /* its id; no steps */
	se->fail_id = explore_sched_id(&se->fail_sc);
	strategy_rank(j->x, (uint64_t)k, se->fail_rank);
	se->fail_run = *r;
	se->fail_devs = devs;
	se->nfail_devs = ndevs;
	se->has_fail_devs = true;
	return true;
}

static bool job_more(void *ctx, long k)
{
	struct jobs_ctx *j = ctx;

	return k < j->c->o->schedules && !explore_search_time_up(j->c);
}

/* Before the worker of a slot is forked: a copy of that slot's template. */
static void job_fork(void *ctx, int slot)
{
	explore_copy_prepare(((struct jobs_ctx *)ctx)->c, slot);
}

/*
 * Schedules J at a time, of a strategy that hands out schedule k from k
 * alone: results are taken in schedule order, so the failure is the
 * lowest-numbered one and the counts are those of one schedule at a
 * time, with any J.
 */
static int search_jobs(struct xctx *c, struct search *se, strategy_search *x)
{
	static const explore_jobs_ops ops = { job_run, job_take, job_more, job_fork };
	struct jobs_ctx j = { c, se, x };
	int rc = explore_jobs_run((int)c->o->jobs, &ops, &j);

	explore_copy_reap(c);
	return rc;
}

/* The failing schedule's deviations (malloc'd), however it was run. */
static size_t failing_devs(const struct search *se, explore_dev **out)
{
	if (!se->has_fail_devs)
		return explore_deviations(&se->fail_sc, out);
	*out = xcalloc(se->nfail_devs ? se->nfail_devs : 1, sizeof(**out));
	memcpy(*out, se->fail_devs, se->nfail_devs * sizeof(**out));
	return se->nfail_devs;
}

/* Runs schedules until one fails, or a limit; 0, 1 interrupted, -1 error. */
static int search(struct xctx *c, struct search *se)
{
	const explore_opts *o = c->o;
	strategy_cfg cfg = {
		.seed = o->seed, .depth = o->depth, .est_steps = o->est_steps,
		.bound = o->bound, .bound_kind = o->bound_kind,
		.quiet = c->quiet, .nquiet = c->npoints,
		.shard_i = (unsigned)o->shard_i, .shard_n = (unsigned)o->shard_n,
	};
	strategy_search *x = strategy_search_new(o->strategy, &cfg);
	strategy_tally t;
	explore_sched sc;
	int rc = 0;
	bool mine;

	if (strategy_first(x, &sc) && (rc = first_run(c, x, &sc, se)) != 0)
		goto out;
	if (o->jobs > 1 && !se->failed) {
		rc = search_jobs(c, se, x);
		goto out;
	}
	for (long k = 0; !se->failed; k++) {
		explore_run r;

		if (se->tried >= o->schedules || explore_search_time_up(c))
			break;
		if (!strategy_next(x, (uint64_t)k, &sc)) {
			se->exhausted = true;
			break;
		}
		/* a search may run others' schedules only to learn (dfs: the tree) */
		mine = strategy_owned(x);
		if ((rc = run_schedule(c, &sc, &r)) == 0 && mine)
			check_timeout(c, &sc, &r);
		if (rc) {      /* cut short: not counted, nor judged */
			explore_run_release(&r);
			explore_sched_release(&sc);
			break;
		}
		se->tried += mine;
		se->learning += !mine;
		se->timeouts += mine && r.timed_out && !r.flaky_timeout;
		se->flaky_timeouts += r.flaky_timeout;
		if (mine)
			se->passed_before = !note_seen(se, &r);
		strategy_observe(x, &sc);
		progress(c, se, false);
		if (mine && r.fail != XF_NONE) {
			se->failed = true;
			se->fail_id = explore_sched_id(&sc);
			strategy_rank(x, (uint64_t)k, se->fail_rank);
			se->fail_sc = sc;
			se->fail_run = r;
			break;
		}
		explore_run_release(&r);
		explore_sched_release(&sc);
	}
out:
	progress(c, se, true);
	strategy_tally_of(x, &t);
	se->diverged = t.diverged;
	se->bound = t.bound;
	strategy_search_free(x);
	return rc;
}

/* ---- shrinking ---- */

struct shrink_ctx {
	struct xctx *c;
	const explore_run *found; /* the failure to keep */
	explore_run best;      /* the latest run that failed as wanted */
	bool best_from_job;    /* best came from a --jobs worker: without its wakes */
	bool stop;             /* interrupted or broken: every candidate "passes" */
	bool capped;           /* stopped at --shrink-runs */
	long runs;             /* schedules run so far, for the progress line */
	bool few;              /* the failure had at most SHRINK_FEW deviations */
	double t0;             /* when shrinking began (explore_elapsed_ms) */
};

/* Has shrinking had all the runs it may take? */
static bool shrink_spent(const struct shrink_ctx *k, long runs)
{
	if (k->c->o->shrink_runs >= 0)
		return runs >= k->c->o->shrink_runs;
	return !k->few && runs >= SHRINK_RUNS &&
	       explore_elapsed_ms(k->c) - k->t0 >= SHRINK_MS;
}

/* Must shrinking stop (a signal, --time, --shrink-runs)?  Once yes, always. */
static bool shrink_stop(struct shrink_ctx *k)
{
	if (!k->stop && shrink_spent(k, k->runs))
		k->stop = k->capped = true;
	if (!k->stop)
		k->stop = interrupt_signal() || explore_shrink_time_up(k->c);
	return k->stop;
}

/*
 * Does r fail as found did: of the same kind, with the same detail (the
 * exit status, the signal, the stdout the gates file would expect)?  A
 * candidate that failed otherwise found another failure, which the
 * summary, the replay id and the file would then give the first one's
 * name.
 */
static bool same_failure(const explore_run *r, const explore_run *found)
{
	if (r->fail != found->fail)
		return false;
	switch (r->fail) {
	case XF_EXIT:
		return r->exit_code == found->exit_code;
	case XF_SIGNAL:
		return r->signo == found->signo;
	case XF_STDOUT:
		return !strcmp(r->out ? r->out : "", found->out ? found->out : "");
	default:
		return true;
	}
}

/*
 * A candidate that failed as wanted is cut to the deviations that took
 * effect in its run (the others did nothing): a subset, so *n only
 * shrinks.
 */
static void keep_took(explore_dev *devs, size_t *n, const explore_dev *took, size_t ntook)
{
	if (ntook > *n)
		return;
	if (ntook)
		memcpy(devs, took, ntook * sizeof(*devs));
	*n = ntook;
}

static bool still_fails(void *ctx, explore_dev *devs, size_t *n)
{
	struct shrink_ctx *k = ctx;
	explore_sched sc;
	explore_run r;
	explore_dev *took;
	size_t ntook;

	if (shrink_stop(k))
		return false;
	explore_progress(k->c, XP_SHRINK, k->runs++, -1, 0);
	explore_sched_init_forced(&sc, devs, *n);
	if (run_schedule(k->c, &sc, &r)) {
		k->stop = true;
		explore_run_release(&r);
		explore_sched_release(&sc);
		return false;
	}
	if (!same_failure(&r, k->found)) {
		explore_run_release(&r);
		explore_sched_release(&sc);
		return false;
	}
	ntook = explore_deviations(&sc, &took);
	keep_took(devs, n, took, ntook);
	free(took);
	explore_sched_release(&sc);
	explore_run_release(&k->best);
	k->best = r;
	k->best_from_job = false;
	return true;
}

/* ---- shrinking with --jobs: a round's candidates in worker processes ---- */

struct shrink_jobs {
	struct shrink_ctx *k;
	explore_dev **cands;
	size_t *lens, m, tried;
	long first;            /* the first candidate that failed as found did, or -1 */
};

static int sjob_run(void *ctx, long i, explore_run *r, explore_dev **devs, size_t *ndevs)
{
	struct shrink_jobs *j = ctx;
	explore_sched sc;
	int rc;

	explore_sched_init_forced(&sc, j->cands[i], j->lens[i]);
	rc = run_schedule(j->k->c, &sc, r);
	*ndevs = explore_deviations(&sc, devs);
	explore_sched_release(&sc);
	return rc;
}

/* In candidate order: the first that fails as found did stops the round. */
static bool sjob_take(void *ctx, long i, explore_run *r, explore_dev *devs, size_t ndevs)
{
	struct shrink_jobs *j = ctx;

	j->tried = (size_t)i + 1;
	/* a candidate started before the budget ran out, which --jobs 1 would
	   not have run: not taken, so that both shrink alike */
	if (shrink_stop(j->k)) {
		explore_run_release(r);
		free(devs);
		return false;
	}
	explore_progress(j->k->c, XP_SHRINK, j->k->runs++, -1, 0);
	if (!same_failure(r, j->k->found)) {
		explore_run_release(r);
		free(devs);
		return false;
	}
	j->first = i;
	keep_took(j->cands[i], &j->lens[i], devs, ndevs);
	free(devs);
	explore_run_release(&j->k->best);
	j->k->best = *r;
	j->k->best_from_job = true;
	return true;
}

static bool sjob_more(void *ctx, long i)
{
	struct shrink_jobs *j = ctx;

	/* runs counts the candidates taken; those started but not yet taken
	   count against --shrink-runs too */
	return !shrink_stop(j->k) && (size_t)i < j->m &&
	       !shrink_spent(j->k, j->k->runs + (i - (long)j->tried));
}

static void sjob_fork(void *ctx, int slot)
{
	explore_copy_prepare(((struct shrink_jobs *)ctx)->k->c, slot);
}

/* explore_shrink_first's first(), with --jobs workers (as still_fails would say). */
static long first_fails_jobs(void *ctx, explore_dev **cands, size_t *lens, size_t m,
			     size_t *tried)
{
	static const explore_jobs_ops ops = { sjob_run, sjob_take, sjob_more, sjob_fork };
	struct shrink_ctx *k = ctx;
	struct shrink_jobs j = { k, cands, lens, m, 0, -1 };

	if (!k->stop && explore_jobs_run((int)k->c->o->jobs, &ops, &j) != 0)
		k->stop = true;
	explore_copy_reap(k->c);
	*tried = j.tried;
	return j.first;
}

/* ddmin, a round's candidates at once under --jobs (the same result). */
static void shrink_devs(struct shrink_ctx *k, explore_dev **devs, size_t *n)
{
	if (k->c->o->jobs > 1)
		explore_shrink_first(devs, n, first_fails_jobs, k);
	else
		explore_shrink(devs, n, still_fails, k);
}

/*
 * A worker's run lacks what only the parent records (woken threads'
 * arrivals, for the file's wake gates): the shrunk schedule once more,
 * here.
 */
static void rerun_best(struct shrink_ctx *k, const explore_dev *devs, size_t n)
{
	explore_sched sc;
	explore_run r;

	if (!k->best_from_job || (k->stop && !k->capped))
		return;
	explore_sched_init_forced(&sc, devs, n);
	if (!run_schedule(k->c, &sc, &r) && same_failure(&r, k->found)) {
		explore_run_release(&k->best);
		k->best = r;
		k->best_from_job = false;
	} else {
		explore_run_release(&r);
	}
	explore_sched_release(&sc);
}

/*
 * A schedule that fails as k->found did with at most bound preemptions, by a
 * depth-first search of at most *budget schedules, less those it ran: its
 * deviations in *devs (and its run in k->best); k->runs counts the
 * schedules run.
 */
static bool dfs_within(struct shrink_ctx *k, int bound, long *budget,
		       explore_dev **devs, size_t *n)
{
	const strategy_cfg cfg = { .bound = bound, .bound_kind = EXPLORE_PREEMPTIONS,
				   .shard_n = 1 };
	strategy_search *x = strategy_search_new(explore_strategy_named("dfs"), &cfg);
	explore_sched sc;
	bool found = false;

	for (long i = 0; *budget > 0 && !found && !k->stop &&
	     strategy_next(x, (uint64_t)i, &sc); i++) {
		explore_run r;

		if (shrink_stop(k)) {
			explore_sched_release(&sc);
			break;
		}
		explore_progress(k->c, XP_SHRINK, k->runs++, -1, 0);
		(*budget)--;
		if (run_schedule(k->c, &sc, &r)) {
			k->stop = true;
		} else if (same_failure(&r, k->found)) {
			free(*devs);
			*n = explore_deviations(&sc, devs);
			explore_run_release(&k->best);
			k->best = r;
			k->best_from_job = false;
			found = true;
			explore_sched_release(&sc);
			break;
		}
		strategy_observe(x, &sc);
		explore_run_release(&r);
		explore_sched_release(&sc);
	}
	strategy_search_free(x);
	return found;
}

/*
 * Fewest preemptions, then fewest points: delta debugging drops the
 * deviations from the default schedule that the failure does not need;
 * then a small depth-first search with fewer preemptions than are left
 * looks for a simpler schedule that fails the same way (ddmin is only
 * 1-minimal: a pair of preemptions that only work together stays).
 * se's failing run is replaced by the shrunk one.
 */
static size_t shrink(struct xctx *c, struct search *se, char **shrunk_id)
{
	struct shrink_ctx k;
	explore_dev *devs;
	size_t n = failing_devs(se, &devs);
	size_t pre = se->fail_run.npreempt;
	long budget = SHRINK_DFS_RUNS;

	memset(&k, 0, sizeof(k));
	k.c = c;
	k.found = &se->fail_run;
	k.few = n <= SHRINK_FEW;
	k.t0 = explore_elapsed_ms(c);
	shrink_devs(&k, &devs, &n);
	if (k.best.nsteps || k.best.nthreads)
		pre = k.best.npreempt;
	/* the bounds in turn, each with what the smaller ones left */
	for (int b = 0; (size_t)b < pre && !k.stop && budget > 0; b++)
		if (dfs_within(&k, b, &budget, &devs, &n)) {
			shrink_devs(&k, &devs, &n);
			break;
		}
	rerun_best(&k, devs, n);
	if (k.best.nsteps || k.best.nthreads) {
		explore_run_release(&se->found_run);
		se->found_run = se->fail_run;
		se->fail_run = k.best;
	}
	explore_progress_clear(c);
	*shrunk_id = explore_id_forced(devs, n);
	se->ndevs = n;
	se->shrink_cut = k.stop;
	se->shrink_capped = k.capped;
	free(devs);
	/* the runs made (k.runs): a candidate met once shrinking had to stop
	   made none, though ddmin counts it */
	return (size_t)k.runs;
}

/* --replay ID: that one schedule. */
static int replay(struct xctx *c, struct search *se)
{
	explore_sched sc;
	explore_run r;
	rg_err err = RG_ERR_INIT;
	int rc;

	if (explore_id_parse(c->o->replay, &sc, &err) < 0) {
		rg_say("--replay: %s", err.msg);
		return -1;
	}
	rc = run_schedule(c, &sc, &r);
	if (rc) {
		explore_run_release(&r);
		explore_sched_release(&sc);
		return rc;
	}
	se->tried = 1;
	se->timeouts = r.timed_out;
	note_seen(se, &r);
	if (r.fail != XF_NONE) {
		se->failed = true;
		se->fail_id = xstrdup(c->o->replay);
		se->fail_sc = sc;
		se->fail_run = r;
		return 0;
	}
	explore_run_release(&r);
	explore_sched_release(&sc);
	return 0;
}

/* Shrinks the failure, prints how to replay it, writes the files. */
static int after_failure(struct xctx *c, struct search *se, char **shrunk_id)
{
	const char *id;
	char *cmd, *yaml = NULL;
	size_t runs;
	int r = 0;

	explore_dev *devs;

	se->found_preempt = se->fail_run.npreempt;
	se->found_steps = se->fail_run.nsteps;
	se->ndevs = failing_devs(se, &devs);   /* shrink cuts it */
	free(devs);
	se->reproduced = se->repro_shrunk = se->repro_found = -1;
	if (!c->o->replay) {
		runs = shrink(c, se, shrunk_id);
		se->shrink_runs = runs;
		printf("  shrunk to %s (%zu preemption%s, %zu decisions) in %zu run%s%s\n",
		       *shrunk_id, se->fail_run.npreempt,
		       se->fail_run.npreempt == 1 ? "" : "s", se->fail_run.nsteps,
		       runs, runs == 1 ? "" : "s", !se->shrink_cut ? "" :
		       se->shrink_capped ? ", all --shrink-runs allows" :
		       interrupt_signal() ? ", cut short" :
		       ", cut short for the time left (--time)");
		/* the default order failed: a program may fail whatever it does */
		if (!se->fail_run.npreempt && !interrupt_signal() &&
		    explore_fails_alone(c, se->fail_run.fail, ALONE_RUNS)) {
			se->fails_alone = ALONE_RUNS;
			printf("  it fails this way in %d of %d plain runs too (not traced): the "
			       "failure may not depend on the order of its threads\n",
			       ALONE_RUNS, ALONE_RUNS);
		}
	}
	if (se->passed_before && !se->fails_alone)
		printf("  its interleaving passed in an earlier schedule: the failure does "
		       "not follow from the order at the points alone\n");
	id = *shrunk_id ? *shrunk_id : se->fail_id;
	cmd = explore_replay_cmdline(c, id);
	printf("  replay: %s\n", cmd);
	if (c->ro.has_stdin && c->ro.stdin_len && strncmp(cmd, "printf '", 8))
		printf("  (with the %zu bytes of stdin this search had, on its stdin)\n",
		       c->ro.stdin_len);
	se->replay_cmd = cmd;  /* the report says it */
	/* cut short (a signal, --time): the best file, marked unverified */
	if (c->o->out || c->o->trace) {
		/* the replays are traced here: no stopped template beside them */
		explore_copy_free(c);
		r = explore_write_repro(c, se, id, &yaml);
		if (r == 1 && !interrupt_signal() && !explore_time_up(c))
			r = explore_write_found(c, se, &id, &yaml);
		if (r == 1)
			explore_no_file(c, se);
		r = r < 0 ? -1 : 0;
	}
	if (c->o->markdown &&
	    explore_markdown_file(c, se, id, c->o->out ? yaml : NULL) < 0)
		r = -1;
	free(yaml);
	return r;
}

int explore_load_expect(const char *path, spec **out)
{
	spec_diags d = SPEC_DIAGS_INIT;
	int r = 0;

	*out = NULL;
	if (spec_load_file(path, out, &d) < 0) {
		for (size_t i = 0; i < d.n; i++)
			if (d.v[i].severity == SPEC_ERROR) {
				char *m = spec_diag_format(&d, i);

				rg_say("--expect: %s", m);
				free(m);
			}
		r = -1;
	} else if (!(*out)->expect.any) {
		rg_say("--expect: '%s' has no expect: block to look for", path);
		r = -1;
	}
	spec_diags_release(&d);
	return r;
}

const char *const *explore_file_points(struct xctx *c)
{
	if (!c->anchored) {
		c->anchored = xcalloc(c->npoints ? c->npoints : 1, sizeof(*c->anchored));
		for (size_t i = 0; i < c->npoints; i++) {
			char *a = c->at[i][0] != '*' ? dwarfx_anchor(c->p.dx, c->at[i]) : NULL;

			c->anchored[i] = a ? a : xstrdup(c->at[i]);
		}
	}
	return (const char *const *)c->anchored;
}

static void xctx_release(struct xctx *c)
{
	plan_release(&c->p);
	spec_free(c->sp);
	spec_free(c->xspec);
	for (size_t i = 0; i < c->npoints; i++) {
		free(c->at[i]);
		if (c->anchored)
			free(c->anchored[i]);
	}
	free(c->at);
	free(c->anchored);
	free(c->kinds);
	free(c->quiet);
	free(c->stdin_buf);
	if (c->has_re)
		regfree(&c->re);
}

/*
 * Everything before the first schedule: what judges a run, the files to
 * write (said now: a search may take hours), the points and the plan, the
 * options of each run.  0, or -1 said.
 */
static int setup(struct xctx *c, unsigned closed_std, const bool *inherit, int ninherit)
{
	const explore_opts *o = c->o;
	const char *outs[][2] = { { "--report", o->report }, { "--trace", o->trace },
				  { "--markdown", o->markdown }, { "-o", o->out } };
	rg_err err = RG_ERR_INIT;

	if (o->expect_stdout) {
		if (regcomp(&c->re, o->expect_stdout, REG_EXTENDED | REG_NOSUB | REG_NEWLINE)) {
			rg_say("--expect-stdout: '%s' is not a POSIX extended regex",
			       o->expect_stdout);
			return -1;
		}
		c->has_re = true;
	}
	if (o->expect_file && explore_load_expect(o->expect_file, &c->xspec) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++)
		if (outs[i][1] && report_check_path(outs[i][1], &err) < 0) {
			rg_say("%s: %s", outs[i][0], err.msg);
			return -1;
		}
	if (prepare(c) < 0)
		return -1;
	c->ro.timeout_ms = o->timeout_ms;
	c->ro.capture = true;
	/* a schedule waits this long on a thread that blocks unseen */
	c->ro.quiet_ms = o->quiet_ms ? o->quiet_ms : EXPLORE_QUIET_MS;
	c->ro.verbose = o->verbose;
	c->ro.follow_fork = o->follow_fork;
	c->ro.closed_std = closed_std;
	c->ro.inherit = inherit;
	c->ro.ninherit = ninherit;
	return 0;
}

void explore_found_release(explore_found *f)
{
	free(f->id);
	free(f->no_file);
	memset(f, 0, sizeof(*f));
}

/* What the search se found, for the caller of explore_search. */
static void tell_found(const struct search *se, const char *shrunk_id, explore_found *f)
{
	memset(f, 0, sizeof(*f));
	f->tried = se->tried;
	f->exhausted = se->exhausted;
	f->failed = se->failed;
	if (!se->failed)
		return;
	f->fail = se->fail_run.fail;
	f->exit_code = se->fail_run.exit_code;
	f->signo = se->fail_run.signo;
	f->id = xstrdup(shrunk_id ? shrunk_id : se->fail_id);
	f->wrote = se->wrote;
	f->reproduced = se->reproduced;
	f->no_file = se->no_file ? xstrdup(se->no_file) : NULL;
}

int cmd_explore(const explore_opts *o, unsigned closed_std, const bool *inherit,
		int ninherit)
{
	return explore_search(o, closed_std, inherit, ninherit, NULL);
}

int explore_search(const explore_opts *o, unsigned closed_std, const bool *inherit,
		   int ninherit, explore_found *found)
{
	struct xctx c;
	struct search se;
	rg_err err = RG_ERR_INIT;
	char *shrunk_id = NULL;
	int r = -1, status = RG_EXIT_SETUP;

	/* each line out as it is printed: a second signal ends racegate at
	 * once, and must not take what was said with it */
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&c, 0, sizeof(c));
	memset(&se, 0, sizeof(se));
	c.o = o;
	explore_copy_init(&c);
	clock_gettime(CLOCK_MONOTONIC, &c.t0);
	/* first: a signal during the set-up (seconds, for a large program)
	 * ends explore with its summary, as one during the search does */
	if (interrupt_install(&err) < 0) {
		rg_say("%s", err.msg);
		goto out;
	}
	r = setup(&c, closed_std, inherit, ninherit) < 0 ? -1 :
	    explore_read_stdin(&c, closed_std);
	if (r == 0 && !interrupt_signal())
		r = o->replay ? replay(&c, &se) : search(&c, &se);
	if (r < 0)
		goto done;
	explore_summary(&c, &se);
	status = se.failed ? RG_EXIT_UNMET :
		 se.tried && se.timeouts == se.tried && !interrupt_signal() ?
		 RG_EXIT_ENFORCE : RG_EXIT_OK;
	if (se.failed && after_failure(&c, &se, &shrunk_id) < 0)
		status = RG_EXIT_SETUP;
	if (o->report && explore_write_report(&c, &se, shrunk_id) < 0)
		status = RG_EXIT_SETUP;
done:
	if (interrupt_signal()) {
		const char *n = spec_signal_name(interrupt_signal());

		/* the summary said it, unless the failure came first */
		if (r >= 0 && se.failed)
			printf("racegate explore: interrupted by %s after the failure above "
			       "was found; what was to follow it was cut short%s\n",
			       n ? n : "a signal", se.unverified ? ", and the gates file "
			       "written is unverified" : "");
		status = RG_EXIT_SIGNAL + interrupt_signal();
	}
	interrupt_uninstall();
out:
	if (found)
		tell_found(&se, shrunk_id, found);
	if (se.failed) {
		explore_run_release(&se.fail_run);
		explore_run_release(&se.found_run);
		explore_sched_release(&se.fail_sc);
	}
	free(se.fail_id);
	free(se.replay_cmd);
	free(se.nofile_err);
	free(se.no_file);
	free(se.unverified);
	free(se.fail_devs);
	free(se.bound);
	free(shrunk_id);
	rg_intmap_release(&se.seen);
	explore_copy_free(&c);
	xctx_release(&c);
	return status;
}
