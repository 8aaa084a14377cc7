/*
 * What the gate engine answers about itself (gates.h "queries"), and the
 * wait-for graph's view of a held thread (gate_needs).
 */
#include "gates_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- queries --------------------------------------------------------- */

size_t gate_pass_depth(const gate_engine *e, pid_t tid)
{
	const struct gate_thread *th = gi_thread_find(e, tid);

	return th ? th->nmarks : 0;
}

size_t gate_nheld(const gate_engine *e)
{
	return e->nheld;
}

bool gate_is_held(const gate_engine *e, pid_t tid)
{
	const struct gate_thread *th = gi_thread_find(e, tid);

	return th && th->held;
}

bool gate_reached(const gate_engine *e, size_t i)
{
	return i < e->ngates && e->gates[i].reached;
}

bool gate_timed_out(const gate_engine *e, size_t i)
{
	return i < e->ngates && e->gates[i].timed_out;
}

bool gate_live(const gate_engine *e, size_t i)
{
	const struct gate *g;

	if (i >= e->ngates)
		return false;
	g = &e->gates[i];
	if (g->done)
		return false;
	/* its thread is gone for good: nothing will ever match */
	if (g->sp->thread.kind == SPEC_SEL_ALIAS && g->sel_alias != NONE
	    && e->aliases[g->sel_alias].th && e->aliases[g->sel_alias].th->exited)
		return false;
	/* still to be seen arriving: "reached" is part of the verdict */
	if (!g->reached)
		return true;
	if (gi_any_closed(e, g->open, g->sp->open.n)
	    || gi_any_closed(e, g->then_open, g->sp->then_open.n)
	    || gi_any_closed(e, g->on_block, g->sp->open_when_blocked.n)
	    || gi_any_closed(e, g->wait, g->sp->wait.n))
		return true;
	if (g->barrier != NONE && !e->barriers[g->barrier].fired)
		return true;
	if (g->as != NONE && !e->aliases[g->as].th)
		return true;
	return false;
}

const char *gate_thread_label(const gate_engine *e, pid_t tid)
{
	const struct gate_thread *th = gi_thread_find(e, tid);

	if (!th)
		return "unknown";
	return th->alias != NONE ? e->aliases[th->alias].name : th->label;
}

bool gate_selects(const gate_engine *e, size_t i, pid_t tid)
{
	const struct gate_thread *th = gi_thread_find(e, tid);

	return i < e->ngates && th && gi_sel_match(e, &e->gates[i], th);
}

bool gate_thread_is(const gate_engine *e, pid_t tid, const char *alias)
{
	const struct gate_thread *th = gi_thread_find(e, tid);
	const size_t *v = gate_strmap_get(&e->alias_ix, alias);

	if (!th)
		return false;
	if (v)
		return e->aliases[*v].th == th;
	return !strcmp(alias, "main") && th->is_main;
}

bool gate_event_open(const gate_engine *e, const char *event)
{
	const size_t *v = gate_strmap_get(&e->event_ix, event);

	return v && e->events[*v].open;
}

const char *gate_hold_reason(const gate_engine *e, pid_t tid, int *gate)
{
	const struct gate_thread *th = gi_thread_find(e, tid);

	if (!th || !th->held)
		return NULL;
	if (gate)
		*gate = th->gate;
	gi_format_reason(e, th, e->reasonbuf);
	return e->reasonbuf->s;
}

/* ---- the wait-for graph's view (gate_needs) -------------------------- */

/* Could g's selector pick a thread not known now (a new one, a renamed one)? */
static bool sel_open_ended(const gate_engine *e, const struct gate *g)
{
	const spec_selector *sel = &g->sp->thread;

	switch (sel->kind) {
	case SPEC_SEL_MAIN:
		return false;
	case SPEC_SEL_ALIAS:
		return g->sel_alias == NONE || !e->aliases[g->sel_alias].th;
	case SPEC_SEL_MATCH:
		/* {start:, nth:} once its K-th thread exists is that thread
		 * (one of name: or runs: may yet come before it) */
		return !(g->cls && !sel->name && !sel->runs && g->cls->n >= (size_t)sel->nth);
	case SPEC_SEL_ANY:
	case SPEC_SEL_NOT_ALIAS:
		break;
	}
	return true;
}

bool gate_alias_bound(const gate_engine *e, const char *alias)
{
	const size_t *v = gate_strmap_get(&e->alias_ix, alias);

	return v && e->aliases[*v].th;
}

bool gate_open_ended(const gate_engine *e, size_t i)
{
	return i < e->ngates && gate_live(e, i) && sel_open_ended(e, &e->gates[i]);
}

static void need_by(gate_need *nd, pid_t tid)
{
	for (size_t i = 0; i < nd->nby; i++)
		if (nd->by[i] == tid)
			return;
	nd->by = xrealloc(nd->by, (nd->nby + 1) * sizeof(*nd->by));
	nd->by[nd->nby++] = tid;
}

/* Gate gi could meet nd: the threads it selects (not those counted at bi). */
static void need_gate(const gate_engine *e, gate_need *nd, size_t gi, size_t bi)
{
	const struct gate *g = &e->gates[gi];
	size_t i;

	if (!gate_live(e, gi))
		return;
	if (nd->gate < 0)
		nd->gate = (int)gi;
	/* anyone who can move will do: naming them all would add nothing */
	if (sel_open_ended(e, g))
		nd->anyone = true;
	for (i = 0; !nd->anyone && i < e->nthreads; i++) {
		const struct gate_thread *th = e->threads[i];

		if (th->exited || !gi_sel_match(e, g, th))
			continue;
		if (bi != NONE && th->held && gi_counted_at(e, th, bi))
			continue;
		need_by(nd, th->tid);
	}
}

static bool has_ev(const size_t *v, size_t n, size_t ev)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == ev)
			return true;
	return false;
}

/* Who could open closed event ev. */
static void need_event(const gate_engine *e, gate_need *nd, size_t ev)
{
	size_t i, j;

	nd->event = e->events[ev].name;
	for (i = 0; i < e->ngates; i++) {
		const struct gate *g = &e->gates[i];

		if (has_ev(g->open, g->sp->open.n, ev) ||
		    has_ev(g->then_open, g->sp->then_open.n, ev) ||
		    has_ev(g->on_block, g->sp->open_when_blocked.n, ev))
			need_gate(e, nd, i, NONE);
	}
	for (i = 0; i < e->nthreads; i++) {
		const struct gate_thread *th = e->threads[i];

		if (th->exited)
			continue;
		/* then_open pending, or to come when its hold ends */
		for (j = 0; j < th->npass; j++)
			if (has_ev(e->gates[th->pass[j]].then_open,
				   e->gates[th->pass[j]].sp->then_open.n, ev))
				need_by(nd, th->tid);
		for (j = 0; th->held && j < th->nar; j++)
			if (has_ev(e->gates[th->ar[j]].then_open,
				   e->gates[th->ar[j]].sp->then_open.n, ev) ||
			    has_ev(e->gates[th->ar[j]].on_block,
				   e->gates[th->ar[j]].sp->open_when_blocked.n, ev))
				need_by(nd, th->tid);
		/* open_when_blocked pending: its next block opens it */
		for (j = 0; j < th->nblk; j++)
			if (has_ev(e->gates[th->blk[j]].on_block,
				   e->gates[th->blk[j]].sp->open_when_blocked.n, ev))
				need_by(nd, th->tid);
	}
	for (i = 0; i < e->naliases; i++) {
		const struct alias *a = &e->aliases[i];

		if (a->started == ev)
			nd->anyone = true;
		if (a->exited == ev && a->th)
			need_by(nd, a->th->tid);
		else if (a->exited == ev)
			nd->anyone = true;
	}
}

/* Who could still arrive at barrier bi. */
static void need_barrier(const gate_engine *e, gate_need *nd, size_t bi)
{
	const struct barrier *b = &e->barriers[bi];

	nd->barrier = b->name;
	nd->missing = b->count - b->arrived;
	for (size_t i = 0; i < e->ngates; i++)
		if (e->gates[i].barrier == bi)
			need_gate(e, nd, i, bi);
}

size_t gate_needs(const gate_engine *e, pid_t tid, gate_need **out)
{
	const struct gate_thread *th = gi_thread_find(e, tid);
	gate_need *v;
	size_t i, k, n = 0;

	*out = NULL;
	if (!th || !th->held)
		return 0;
	v = xcalloc(th->nwait + th->nbars + 1, sizeof(*v));
	for (i = 0; th->stage == STAGE_WAIT && i < th->nwait; i++) {
		if (e->events[th->wait[i]].open)
			continue;
		v[n].gate = -1;
		need_event(e, &v[n++], th->wait[i]);
	}
	for (i = 0; th->stage == STAGE_BARRIER && i < th->nbars; i++) {
		size_t bi = e->gates[th->bars[i]].barrier;

		for (k = 0; k < i; k++)
			if (e->gates[th->bars[k]].barrier == bi)
				break;
		if (k < i || e->barriers[bi].fired)
			continue;
		v[n].gate = -1;
		need_barrier(e, &v[n++], bi);
	}
	if (!n) {
		free(v);
		v = NULL;
	}
	*out = v;
	return n;
}

void gate_needs_free(gate_need *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].by);
	free(v);
}

/* ---- the fast path's view (gate_next_interest) ----------------------- */

/*
 * Is sel's choice among threads known now final?  A {start:, tid:, nth:}
 * selector (no name:, no process exe) picks at a thread's creation, from
 * what the thread was created with: a thread it did not pick then, it never
 * picks.  main is main.
 */
static bool sel_fixed_at_start(const spec_selector *sel)
{
	if (sel->kind == SPEC_SEL_MAIN)
		return true;
	return sel->kind == SPEC_SEL_MATCH && !sel->name && !sel->runs &&
	       sel->process.kind == SPEC_PROC_UNSET;
}

/* Could g's thread filter, which does not select th now, come to select it? */
static bool may_come_to_select(const gate_engine *e, const struct gate *g)
{
	const spec_selector *sel = &g->sp->thread;

	if (g->proc && g->proc->kind == SPEC_PROC_EXE)
		return true;            /* an exe may match after an exec */
	if (sel->kind == SPEC_SEL_ALIAS && g->sel_alias != NONE &&
	    !e->aliases[g->sel_alias].th) {
		const struct alias *a = &e->aliases[g->sel_alias];

		/* bound by as: at some arrival, or by a selector that may still */
		for (size_t i = 0; i < e->ngates; i++)
			if (e->gates[i].as == g->sel_alias)
				return true;
		return !a->sel || !sel_fixed_at_start(a->sel);
	}
	/* "!A" that does not select th: A is th, bound for good */
	if (sel_fixed_at_start(sel) || sel->kind == SPEC_SEL_NOT_ALIAS)
		return false;
	return sel_open_ended(e, g);
}

/* Must th's arrival at gates[0..n) be seen, to look for a runs: function? */
static bool runs_wanted(const gate_engine *e, const struct gate_thread *th,
			const size_t *gates, size_t n)
{
	size_t *r, k = gi_runs_wanted(e, th, gates, n, &r);

	free(r);
	return k > 0;
}

size_t gate_runs_wanted(const gate_engine *e, pid_t tid, const size_t *gates, size_t n,
			const char ***out)
{
	const struct gate_thread *th = gi_thread_find(e, tid);
	size_t *r, k, i;

	*out = NULL;
	if (!th || !(k = gi_runs_wanted(e, th, gates, n, &r)))
		return 0;
	*out = xcalloc(k, sizeof(**out));
	for (i = 0; i < k; i++)
		(*out)[i] = e->sel_runs[r[i]];
	free(r);
	return k;
}

/* How many of th's next arrivals gate gi lets pass unnoted (see gates.h). */
static unsigned long gate_interest(const gate_engine *e, size_t gi,
				   const struct gate_thread *th)
{
	const struct gate *g = &e->gates[gi];
	const size_t *c;
	uint64_t key;

	if (g->done)
		return GATE_PASS_FOREVER;
	if (!gi_sel_match(e, g, th))
		/* a filter that may still come to select th: every arrival */
		return may_come_to_select(e, g) ? 0 : GATE_PASS_FOREVER;
	if (g->sp->hit <= 0)
		return 0;
	key = ((uint64_t)th->seq << 32) | (uint32_t)gi;
	c = rg_intmap_get(&e->hits, key);
	if (c && *c >= (size_t)g->sp->hit)
		return GATE_PASS_FOREVER;
	/* the hit-th arrival is the one: the ones before it pass */
	return (unsigned long)g->sp->hit - (c ? *c : 0) - 1;
}

unsigned long gate_next_interest(const gate_engine *e, pid_t tid, const size_t *gates,
				 size_t n)
{
	const struct gate_thread *th = gi_thread_find(e, tid);
	unsigned long best = GATE_PASS_FOREVER;

	if (!th || th->exited || th->held || runs_wanted(e, th, gates, n))
		return 0;
	for (size_t k = 0; k < n && best; k++) {
		unsigned long v;

		if (gates[k] >= e->ngates)
			continue;
		v = gate_interest(e, gates[k], th);
		if (v < best)
			best = v;
	}
	return best;
}

bool gate_next_when(const gate_engine *e, pid_t tid, const size_t *gates, size_t n,
		    size_t *when)
{
	const struct gate_thread *th = gi_thread_find(e, tid);
	size_t found = NONE;

	if (!th || th->exited || th->held || runs_wanted(e, th, gates, n))
		return false;
	for (size_t k = 0; k < n; k++) {
		const struct gate *g;

		if (gates[k] >= e->ngates)
			continue;
		g = &e->gates[gates[k]];
		if (gate_interest(e, gates[k], th) == GATE_PASS_FOREVER)
			continue;
		/* interest 0 or a count: only a when: gate that acts on its
		 * condition alone, once, may be left to the condition */
		if (found != NONE || !g->sp->when || g->sp->hit > 0 || g->done ||
		    !gi_sel_match(e, g, th))
			return false;
		found = gates[k];
	}
	if (found == NONE)
		return false;
	*when = found;
	return true;
}

void gate_count_passes(gate_engine *e, pid_t tid, const size_t *gates, size_t n,
		       unsigned long k)
{
	const struct gate_thread *th = gi_thread_find(e, tid);

	if (!th || th->exited || th->held || !k)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct gate *g;

		if (gates[i] >= e->ngates)
			continue;
		g = &e->gates[gates[i]];
		/* counted as gate_arrive counts: every arrival, for hit: and when: */
		if (g->sp->hit > 0 || g->sp->when)
			*rg_intmap_ref(&e->hits, ((uint64_t)th->seq << 32) |
				       (uint32_t)gates[i], 0) += k;
	}
}
