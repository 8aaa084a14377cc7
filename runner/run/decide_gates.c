/*
 * The gate engine as the session's decider (decide_gates.h, session.h).
 *
 * The engine reports what it decides as notes (gates.h); here each note
 * becomes a line of the timeline, and each RELEASE or TIMEOUT a thread the
 * session restarts.  An arrival that merely passes is written as "passed",
 * and replaced by what the same arrival then did (opened, held), so the
 * timeline has one line per arrival and one per later decision.
 */
#include "decide_gates.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose.h"
#include "gates.h"
#include "intmap.h"
#include "procstate.h"
#include "selectors.h"
#include "when.h"

#define TL_MAX 20000    /* timeline entries kept per run; later ones are counted */
#define RUNS_DEPTH 1024 /* frames looked at for a runs: function */

/* A thread that got past a gate: was main's exit before its own? */
struct released {
	pid_t tid;
	double t_ms;           /* its latest arrival or release */
	int gate;              /* at which gate */
	bool held;             /* it was held there, and released at t_ms */
	bool exited;           /* it is gone */
	bool outlived_main;    /* running when main exited, and no arrival since */
	size_t *ahead;         /* then: gates not yet reached that select it */
	size_t nahead;
};

struct gates_decider {
	session *s;
	plan *p;
	const run_opts *o;
	run_result *res;
	gate_engine *eng;
	when_run *when;        /* evaluates when: conditions (when.h) */
	double next_gate;      /* the next gate timeout (ms), or -1 */
	judge_verdict v;

	/* the last ARRIVE line, which a following OPEN/HOLD of the same arrival replaces */
	size_t arrive_idx;
	pid_t arrive_tid;
	int arrive_gate;
	bool arrive_plain;     /* it still says only that the thread passed */

	pid_t main_tid;        /* the initial thread, 0 before it starts */
	bool main_gone;
	struct released *rel;  /* every thread that got past a gate, once each */
	size_t nrel, caprel;
	rg_intmap rel_ix;      /* tid -> index in rel */
	const char *blocked_in; /* the system call of the gate_blocked() under way, or NULL */
};

/*
 * tid got past gate at t_ms: it passed, or was released (held); the latest
 * counts.  (An arrival that holds is past the gate only at its release.)
 */
static void note_released(gates_decider *g, pid_t tid, int gate, bool held,
			  double t_ms)
{
	size_t *i = rg_intmap_get(&g->rel_ix, (uint64_t)(uint32_t)tid);
	struct released *r;

	if (i && !g->rel[*i].exited) {
		r = &g->rel[*i];
	} else {
		RG_GROW(g->rel, g->nrel + 1, g->caprel);
		*rg_intmap_ref(&g->rel_ix, (uint64_t)(uint32_t)tid, 0) = g->nrel;
		r = &g->rel[g->nrel++];
		memset(r, 0, sizeof(*r));
		r->tid = tid;
	}
	r->t_ms = t_ms;
	r->gate = gate;
	r->held = held;
}

/* tid got somewhere after main's exit: that exit did not cut it short. */
static void ran_on(gates_decider *g, pid_t tid)
{
	size_t *i = rg_intmap_get(&g->rel_ix, (uint64_t)(uint32_t)tid);

	if (i && g->main_gone)
		g->rel[*i].outlived_main = false;
}

/* The gates not yet reached that could be r's next (main has just exited). */
static void note_ahead(gates_decider *g, struct released *r)
{
	const spec *sp = g->p->sp;
	size_t i;

	for (i = 0; i < sp->ngates; i++)
		if (!sp->gates[i].optional && !gate_reached(g->eng, i) &&
		    gate_selects(g->eng, i, r->tid)) {
			r->ahead = xrealloc(r->ahead, (r->nahead + 1) * sizeof(*r->ahead));
			r->ahead[r->nahead++] = i;
		}
}

/* tid is gone; when it is main, every released thread still running outlived it. */
static void note_exited(gates_decider *g, pid_t tid)
{
	size_t *ix = rg_intmap_get(&g->rel_ix, (uint64_t)(uint32_t)tid);
	size_t i;

	if (ix)
		g->rel[*ix].exited = true;
	if (tid != g->main_tid || g->main_gone)
		return;
	g->main_gone = true;
	for (i = 0; i < g->nrel; i++)
		if (!g->rel[i].exited && !gate_is_held(g->eng, g->rel[i].tid)) {
			g->rel[i].outlived_main = true;
			note_ahead(g, &g->rel[i]);
		}
}

static void tl_add(gates_decider *g, const gate_note *n, const char *where,
		   const char *gate, char *what)
{
	run_result *r = g->res;
	session_proc sp;
	tl_entry *e;

	if (r->ntl >= TL_MAX) {
		r->tl_dropped++;
		free(what);
		return;
	}
	RG_GROW(r->tl, r->ntl + 1, r->captl);
	e = &r->tl[r->ntl++];
	e->t_ms = n->t_ms;
	e->tid = n->tid;
	e->pid = session_thread_proc(g->s, n->tid, &sp) ? sp.pid : 0;
	e->who = xstrdup(gate_thread_label(g->eng, n->tid));
	e->where = where;
	e->gate = gate;
	e->what = what;
	e->kind = (int)n->kind;
	e->gate_index = n->gate;
	e->event = n->event ? xstrdup(n->event) : NULL;
	e->held_ms = n->held_ms;
}

/* Does any gate wait for event?  (Built-in events nobody waits for are noise.) */
static bool waited_for(const spec *sp, const char *event)
{
	size_t i, j;

	for (i = 0; i < sp->ngates; i++)
		for (j = 0; j < sp->gates[i].wait.n; j++)
			if (!strcmp(sp->gates[i].wait.v[j], event))
				return true;
	return false;
}

static void on_note(void *ctx, const gate_note *n)
{
	gates_decider *g = ctx;
	const plan_bp *at = session_thread_at(g->s, n->tid);
	const char *where = at ? at->where : NULL;
	const char *gate = n->gate >= 0 ? g->p->sp->gates[n->gate].name : NULL;
	char *what = NULL;
	bool replaces_arrive = false;

	switch (n->kind) {
	case GATE_NOTE_ARRIVE:
		g->arrive_idx = g->res->ntl;
		g->arrive_tid = n->tid;
		g->arrive_gate = n->gate;
		g->arrive_plain = true;
		g->res->arrivals++;
		note_released(g, n->tid, n->gate, false, n->t_ms);
		tl_add(g, n, where, gate, n->text ? xasprintf("passed (%s)", n->text) :
		       xstrdup("passed"));
		return;
	case GATE_NOTE_OPEN:
		if (n->gate < 0 && !waited_for(g->p->sp, n->event))
			return;
		if (n->text) {
			/* open_when_blocked: later than the arrival, a line of its own */
			what = g->blocked_in ?
			       xasprintf("opened %s (%s: %s)", n->event, n->text, g->blocked_in) :
			       xasprintf("opened %s (%s)", n->event, n->text);
			break;
		}
		what = xasprintf("opened %s", n->event);
		replaces_arrive = true;
		break;
	case GATE_NOTE_HOLD:
		what = xasprintf("held: %s", n->text ? n->text : "");
		replaces_arrive = true;
		break;
	case GATE_NOTE_RELEASE:
	case GATE_NOTE_TIMEOUT:
		what = xasprintf("%s after %.3f ms",
				 n->kind == GATE_NOTE_RELEASE ? "released" :
				 "released by its timeout", n->held_ms);
		session_release(g->s, n->tid);
		note_released(g, n->tid, n->gate, true, n->t_ms);
		break;
	case GATE_NOTE_BIND:
		if (n->gate < 0)
			return;   /* a threads: alias: the label says it already */
		what = xasprintf("is now '%s'", n->alias);
		break;
	}
	if (replaces_arrive && g->arrive_idx < g->res->ntl &&
	    g->arrive_tid == n->tid && g->arrive_gate == n->gate && g->arrive_plain) {
		tl_entry *e = &g->res->tl[g->arrive_idx];

		free(e->what);
		e->what = what;
		e->kind = (int)n->kind;
		e->event = n->event ? xstrdup(n->event) : NULL;
		g->arrive_plain = false;
		return;
	}
	if (n->kind == GATE_NOTE_OPEN && n->gate < 0)
		where = NULL;
	tl_add(g, n, where, gate, what);
}

/*
 * A condition false at an arrival is counted for the report; the first
 * unreadable read at each gate is also a line of the timeline.
 */
static bool on_when(void *ctx, pid_t tid, size_t gate, unsigned long hit)
{
	gates_decider *g = ctx;
	run_result *r = g->res;
	const plan_bp *at = session_thread_at(g->s, tid);
	char *fault = NULL;
	int v;

	if (!at)
		rg_bug("thread %d arrived nowhere", (int)tid);
	v = when_eval(g->when, tid, gate, at->site, hit, &fault);
	if (v > 0)
		return true;
	r->when_false[gate]++;
	if (v < 0) {
		r->when_faults[gate]++;
		if (!r->when_fault[gate]) {
			gate_note n = {.kind = GATE_NOTE_ARRIVE, .t_ms = session_now(g->s),
				       .tid = tid, .gate = (int)gate};

			size_t ntl = r->ntl;

			r->when_fault[gate] = xstrdup(fault);
			tl_add(g, &n, at->where, g->p->sp->gates[gate].name, fault);
			if (r->ntl > ntl)   /* not past the timeline's cap */
				r->tl[ntl].kind = TL_WHEN_FAULT;
			fault = NULL;   /* the timeline's now */
		}
	}
	free(fault);
	return false;
}

/* {start: want}: what the plan resolved want to (selectors.h). */
static bool on_start_is(void *ctx, const char *want, const char *start)
{
	gates_decider *g = ctx;

	return plan_start_is(g->p, want, start);
}

gates_decider *gates_decider_new(session *s, const run_opts *o)
{
	gates_decider *g = xcalloc(1, sizeof(*g));
	gate_hooks hooks = { .ctx = g, .note = on_note, .when = on_when,
			     .start_is = on_start_is };
	size_t n;

	g->s = s;
	g->p = session_plan(s);
	g->o = o;
	g->res = session_result(s);
	g->next_gate = -1;
	g->arrive_idx = (size_t)-1;
	g->eng = gate_engine_new(g->p->sp, &hooks);
	g->when = when_new(s, g->eng);
	n = g->p->sp->ngates ? g->p->sp->ngates : 1;
	g->res->when_false = xcalloc(n, sizeof(size_t));
	g->res->when_faults = xcalloc(n, sizeof(size_t));
	g->res->when_fault = xcalloc(n, sizeof(char *));
	return g;
}

void gates_decider_free(gates_decider *g)
{
	if (!g)
		return;
	gate_engine_free(g->eng);
	when_free(g->when);
	rg_intmap_release(&g->rel_ix);
	for (size_t i = 0; i < g->nrel; i++)
		free(g->rel[i].ahead);
	free(g->rel);
	free(g);
}

/* A selector as the spec wrote it: "{start: worker, nth: 2}". */
static void describe_sel(rg_buf *b, const spec_selector *sel)
{
	const char *sep = "{";

	if (sel->start)
		rg_buf_printf(b, "%sstart: %s", sep, sel->start), sep = ", ";
	if (sel->runs)
		rg_buf_printf(b, "%sruns: %s", sep, sel->runs), sep = ", ";
	if (sel->name)
		rg_buf_printf(b, "%sname: %s", sep, sel->name), sep = ", ";
	if (sel->tid)
		rg_buf_printf(b, "%stid: %ld", sep, sel->tid), sep = ", ";
	if (sel->nth)
		rg_buf_printf(b, "%snth: %d", sep, sel->nth), sep = ", ";
	if (sel->process.kind != SPEC_PROC_UNSET)
		rg_buf_printf(b, "%sprocess: ...", sep), sep = ", ";
	rg_buf_puts(b, *sep == '{' ? "{}" : "}");
}

/* The threads: aliases no thread was bound to (their selectors matched none). */
static void note_unbound(gates_decider *g, run_result *res)
{
	const spec *sp = g->p->sp;

	for (size_t i = 0; i < sp->naliases; i++) {
		const spec_alias *a = &sp->aliases[i];
		size_t j;

		if (a->sel.kind != SPEC_SEL_MATCH || gate_alias_bound(g->eng, a->name))
			continue;
		for (j = 0; j < res->nunbound && strcmp(res->unbound[j], a->name); j++)
			;
		if (j < res->nunbound)
			continue;   /* a duplicate alias: specs/ said so */
		res->unbound = xrealloc(res->unbound, (res->nunbound + 1) * sizeof(char *));
		res->unbound[res->nunbound++] = xstrdup(a->name);
	}
}

void gates_decider_note_unbound(gates_decider *g, run_result *res)
{
	const spec *sp = g->p->sp;
	rg_buf b = RG_BUF_INIT;
	char *note;

	for (size_t i = 0; i < res->nunbound; i++)
		for (size_t k = 0; k < sp->naliases; k++) {
			if (strcmp(sp->aliases[k].name, res->unbound[i]))
				continue;
			rg_buf_printf(&b, "%sthread alias '%s' was never bound: no thread "
				      "matched ", b.len ? "; " : "", res->unbound[i]);
			describe_sel(&b, &sp->aliases[k].sel);
			if (sp->aliases[k].sel.runs)
				rg_buf_printf(&b, " at an arrival");
			break;
		}
	if (!b.len) {
		rg_buf_release(&b);
		return;
	}
	note = res->note ? xasprintf("%s; %s", res->note, b.s) : xstrdup(b.s);
	rg_buf_release(&b);
	free(res->note);
	res->note = note;
}

void gates_decider_finish(gates_decider *g, run_result *res, judge_verdict *v)
{
	size_t i, n = g->p->sp->ngates;

	note_unbound(g, res);
	res->gate_reached = xcalloc(n, sizeof(bool));
	res->gate_timed_out = xcalloc(n, sizeof(bool));
	for (i = 0; i < n; i++) {
		res->gate_reached[i] = gate_reached(g->eng, i);
		res->gate_timed_out[i] = gate_timed_out(g->eng, i);
	}
	*v = g->v;
}

/*
 * The gates still unreached at the end that could have been r's next, as
 * "'a' or 'b'" (empty when none): what main's exit may have cut short.
 */
static void ahead_words(const gates_decider *g, const struct released *r,
			const run_result *res, rg_buf *b)
{
	size_t i, n = 0;

	for (i = 0; i < r->nahead; i++)
		if (!res->gate_reached[r->ahead[i]])
			rg_buf_printf(b, "%s'%s'", n++ ? " or " : "",
				      g->p->sp->gates[r->ahead[i]].name);
}

/*
 * The classic spec mistake: main returns (the program ends) while a thread
 * that got past a gate is still on its way to its next gate, which is then
 * never reached.  What racegate knows is said as it is: the thread passed
 * the gate or was released from it, was neither held nor gone when main
 * exited, arrived nowhere after, and a gate that selects it was never
 * reached.
 */
void gates_decider_explain(gates_decider *g, run_result *res)
{
	rg_buf b = RG_BUF_INIT, ahead = RG_BUF_INIT;
	size_t i, n = 0;
	char *note;

	if (!res->exited || !res->gate_reached ||
	    (res->outcome != OUT_NOT_ENFORCED && res->outcome != OUT_NOT_REPRODUCED &&
	     res->outcome != OUT_FAILED))
		return;
	for (i = 0; i < g->nrel; i++) {
		const struct released *r = &g->rel[i];

		if (!r->outlived_main)
			continue;
		ahead.len = 0;
		ahead_words(g, r, res, &ahead);
		if (!ahead.len)
			continue;
		rg_buf_printf(&b, "%s'%s' (%s gate '%s' at +%.3f ms, not yet at %s)",
			      n++ ? " and " : "main exited while ",
			      gate_thread_label(g->eng, r->tid),
			      r->held ? "released from" : "past",
			      g->p->sp->gates[r->gate].name, r->t_ms, ahead.s);
	}
	rg_buf_release(&ahead);
	if (!n) {
		rg_buf_release(&b);
		return;
	}
	rg_buf_printf(&b, " %s still running", n > 1 ? "were" : "was");
	note = res->note ? xasprintf("%s; %s", res->note, b.s) : xstrdup(b.s);
	rg_buf_release(&b);
	free(res->note);
	res->note = note;
}

/* ---- the decider's callbacks (session.h) ---- */

static bool dg_wants_names(void *d)
{
	gates_decider *g = d;

	return run_spec_uses_names(g->p->sp);
}

static void dg_thread_started(void *d, pid_t tid, const char *start, bool is_main,
			      double t_ms)
{
	gates_decider *g = d;

	session_proc sp;
	gate_proc gp = { 0, NULL, is_main };

	if (is_main && !g->main_tid)
		g->main_tid = tid;
	if (session_thread_proc(g->s, tid, &sp)) {
		gp.nth = sp.nth;
		gp.exe = sp.exe;
		gp.initial = sp.initial;
	}
	gate_thread_started_in(g->eng, tid, start, is_main, &gp, t_ms);
}

static void dg_thread_named(void *d, pid_t tid, const char *name, double t_ms)
{
	gates_decider *g = d;

	gate_thread_named(g->eng, tid, name, t_ms);
}

static void dg_thread_exited(void *d, pid_t tid, double t_ms)
{
	gates_decider *g = d;

	note_exited(g, tid);
	gate_thread_exited(g->eng, tid, t_ms);
}

static void dg_thread_exec(void *d, pid_t tid, double t_ms)
{
	gates_decider *g = d;
	session_proc sp;

	if (session_thread_proc(g->s, tid, &sp))
		gate_thread_exe(g->eng, tid, sp.exe, t_ms);
}

/*
 * {runs: F}: before an arrival that could bind or select by a function the
 * thread is not known to run, its stack is looked at (the engine asks only
 * until it knows: a thread found running F keeps it).  Frames above the
 * first are return addresses: the call is the byte before.
 */
static void look_for_runs(gates_decider *g, pid_t tid, const plan_bp *at, double t_ms)
{
	const char **want;
	size_t n = gate_runs_wanted(g->eng, tid, at->gates, at->ngates, &want), i, k, npcs;
	uint64_t pcs[RUNS_DEPTH];
	rg_err err = RG_ERR_INIT;

	if (!n)
		return;
	if (tracer_backtrace(session_tracer(g->s), tid, pcs, RUNS_DEPTH, &npcs, &err) < 0)
		rg_trace("runs: %s", err.msg);
	for (i = 0; i < n && npcs; i++)
		for (k = 0; k < npcs; k++)
			if (plan_runs_at(g->p, session_run_bias(g->s), want[i],
					 k ? pcs[k] - 1 : pcs[k])) {
				rg_trace("thread %d runs %s (frame #%zu)", (int)tid, want[i], k);
				gate_thread_runs(g->eng, tid, want[i], t_ms);
				break;
			}
	free(want);
}

static enum decision dg_arrive(void *d, pid_t tid, const plan_bp *at, double t_ms)
{
	gates_decider *g = d;
	session_proc sp;

	ran_on(g, tid);
	/* its process may run another image since it started (exec): {exe:} */
	if (session_thread_proc(g->s, tid, &sp))
		gate_thread_exe(g->eng, tid, sp.exe, t_ms);
	look_for_runs(g, tid, at, t_ms);
	when_arrival(g->when);
	return gate_arrive(g->eng, tid, at->gates, at->ngates, t_ms) ?
	       DECIDE_HOLD : DECIDE_PASS;
}

static bool dg_site_live(void *d, const plan_bp *at)
{
	gates_decider *g = d;
	size_t i;

	for (i = 0; i < at->ngates; i++)
		if (gate_live(g->eng, at->gates[i]))
			return true;
	return false;
}

static size_t dg_pass_depth(void *d, pid_t tid)
{
	gates_decider *g = d;

	return gate_pass_depth(g->eng, tid);
}

static void dg_passed(void *d, pid_t tid, bool at_once, double t_ms)
{
	gates_decider *g = d;

	/* a line got past later is a line of its own, at its own time */
	if (!at_once)
		g->arrive_idx = (size_t)-1;
	ran_on(g, tid);
	gate_passed(g->eng, tid, t_ms);
}

/* Fills the run's diagnosis (diagnose.c); unwinding stops every thread. */
static void dg_diagnose(void *d, bool unwind)
{
	gates_decider *g = d;
	diag_input in;
	pid_t *tids;
	const plan_bp **at;

	memset(&in, 0, sizeof(in));
	in.ntids = session_threads(g->s, &tids, &at);
	in.p = g->p;
	in.tr = session_tracer(g->s);
	in.eng = g->eng;
	in.bias = session_bias(g->s);
	in.tids = tids;
	in.at = at;
	in.unwind = unwind;
	if (session_nprocs(g->s) > 1) {
		pid_t *pids = xcalloc(in.ntids + 1, sizeof(*pids));
		diag_image *imgs = xcalloc(in.ntids + 1, sizeof(*imgs));
		session_proc sp;

		for (size_t i = 0; i < in.ntids; i++) {
			if (!session_thread_proc(g->s, tids[i], &sp))
				continue;
			pids[i] = sp.pid;
			/* each process once, at its first thread */
			if (sp.initial && (sp.img || sp.foreign))
				imgs[in.nimages++] = (diag_image){ sp.pid, sp.img, sp.bias };
		}
		in.pids = pids;
		in.images = imgs;
	}
	diagnose(&in, g->res);
	free((pid_t *)in.pids);
	free((diag_image *)in.images);
	free(tids);
	free(at);
}

static double dg_tick(void *d, double t_ms)
{
	gates_decider *g = d;

	/*
	 * A gate's timeout is about to let its thread go, and the run will
	 * say NOT-ENFORCED: record who waited for what at that moment (the
	 * first time; threads are not stopped to unwind, since the run goes
	 * on).
	 */
	if (!session_ending(g->s) && g->next_gate >= 0 && t_ms >= g->next_gate &&
	    !g->res->ndiag)
		dg_diagnose(g, false);
	g->next_gate = gate_tick(g->eng, t_ms);
	return g->next_gate;
}

static bool dg_is_held(void *d, pid_t tid)
{
	gates_decider *g = d;

	return gate_is_held(g->eng, tid);
}

static size_t dg_nheld(void *d)
{
	gates_decider *g = d;

	return gate_nheld(g->eng);
}

/*
 * Some threads wait only on each other (the wait-for graph).  When one of
 * them is held, on_deadlock: release lets the held threads go, oldest
 * first, and the run goes on; otherwise it ends: SCHEDULE-DEADLOCK when
 * the gates hold one of them, DEADLOCK (the program's own) when not.
 */
static bool dg_stuck(void *d, double t_ms)
{
	gates_decider *g = d;
	/* a held thread among the stuck ones: the gates' doing */
	bool gated = gate_nheld(g->eng) && session_stuck_held(g->s);

	if (gated && g->o->on_deadlock == SPEC_ON_DEADLOCK_RELEASE) {
		g->v.infeasible = true;
		dg_diagnose(g, false);
		gate_release_all(g->eng, t_ms);
		return true;
	}
	if (gated)
		g->v.stuck = true;
	else
		g->v.deadlock = true;
	return false;
}

size_t gates_wf_needs(const gate_engine *e, pid_t tid, wf_need **out)
{
	gate_need *g = NULL;
	size_t n = gate_needs(e, tid, &g);

	*out = NULL;
	if (!n) {
		gate_needs_free(g, 0);
		return 0;
	}
	*out = xcalloc(n, sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		(*out)[i] = (wf_need){ g[i].event, g[i].barrier, g[i].missing, g[i].gate,
				       g[i].by, g[i].nby, g[i].anyone };
		g[i].by = NULL;        /* now the wait-for graph's */
	}
	gate_needs_free(g, n);
	return n;
}

static size_t dg_needs(void *d, pid_t tid, wf_need **out)
{
	gates_decider *g = d;

	return gates_wf_needs(g->eng, tid, out);
}

/* attach: every gate that counts reached, and no thread held any more. */
static bool dg_done(void *d)
{
	gates_decider *g = d;
	const spec *sp = g->p->sp;

	if (gate_nheld(g->eng))
		return false;
	for (size_t i = 0; i < sp->ngates; i++)
		if (!sp->gates[i].optional && !gate_reached(g->eng, i))
			return false;
	return true;
}

static unsigned long dg_next_interest(void *d, pid_t tid, const plan_bp *at)
{
	gates_decider *g = d;

	return gate_next_interest(g->eng, tid, at->gates, at->ngates);
}

static void dg_count_passes(void *d, pid_t tid, const plan_bp *at, unsigned long k)
{
	gates_decider *g = d;

	gate_count_passes(g->eng, tid, at->gates, at->ngates, k);
}

static bool dg_next_when(void *d, pid_t tid, const plan_bp *at, size_t *gate)
{
	gates_decider *g = d;

	return gate_next_when(g->eng, tid, at->gates, at->ngates, gate);
}

static void dg_when_false(void *d, size_t gate, unsigned long k)
{
	gates_decider *g = d;

	g->res->when_false[gate] += k;
}

static size_t dg_blocking(void *d, pid_t **tids)
{
	gates_decider *g = d;

	return gate_blocking(g->eng, tids);
}

static void dg_blocked(void *d, pid_t tid, const char *syscall, double t_ms)
{
	gates_decider *g = d;

	rg_trace("thread %d (%s) sleeps in %s: its open_when_blocked opens", (int)tid,
		 gate_thread_label(g->eng, tid), syscall);
	g->blocked_in = syscall;
	gate_blocked(g->eng, tid, t_ms);
	g->blocked_in = NULL;
}

static const decider_names dg_names = { dg_wants_names, dg_thread_named };
static const decider_lines dg_lines = { dg_pass_depth, dg_passed };
static const decider_waits dg_waits = { dg_needs };
static const decider_fastpath dg_fastpath = {
	dg_next_interest, dg_count_passes, dg_next_when, dg_when_false,
};
static const decider_blocking dg_blocking_group = { dg_blocking, dg_blocked };
static const decider_attach dg_attach = { dg_done };
static const decider_processes dg_processes = { dg_thread_exec };

const decider_ops gates_decider_ops = {
	.thread_started = dg_thread_started,
	.thread_exited = dg_thread_exited,
	.arrive = dg_arrive,
	.site_live = dg_site_live,
	.tick = dg_tick,
	.is_held = dg_is_held,
	.nheld = dg_nheld,
	.stuck = dg_stuck,
	.diagnose = dg_diagnose,
	.names = &dg_names,
	.lines = &dg_lines,
	.waits = &dg_waits,
	.fastpath = &dg_fastpath,
	.blocking = &dg_blocking_group,
	.attach = &dg_attach,
	.processes = &dg_processes,
};
