/*
 * The gate engine: gates.h is the contract, docs/gates.md ("How it works")
 * the semantics, docs/design.md its place among the modules.
 *
 * Every thread has a control block.  A held thread keeps the gates of the
 * arrival that held it (their then_open is still to come), the events it
 * waits for and the barriers it was counted at.  Each event keeps the
 * threads waiting for it and each barrier the threads counted there, so
 * opening an event or firing a barrier touches only the threads concerned.
 *
 * Entries of those lists are never taken out one by one: each carries the
 * serial number of the arrival that made it, and an entry whose thread has
 * since been released, has exited or is held by a later arrival no longer
 * matches its thread's serial and is skipped.
 *
 * Cascades.  Opening an event releases nobody directly: it queues the
 * threads whose last closed event it was, and drain() moves them on one at
 * a time until the queue is empty.  A chain of a thousand then_open links
 * runs in a loop, not in a recursion a thousand frames deep.
 *
 * The note hook must not call back into the functions that change the
 * engine (it may query it).
 */
#include "gates_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmap.h"
#include "intmap.h"
#include "msg.h"

static void emit(gate_engine *e, const gate_note *n)
{
	if (e->hooks.note)
		e->hooks.note(e->hooks.ctx, n);
}

static void buf_clear(rg_buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

static bool ref_live(struct ref r)
{
	return r.th->held && r.th->serial == r.serial;
}

/* ---- construction ---------------------------------------------------- */

static size_t event_intern(gate_engine *e, const char *name)
{
	size_t *v = gate_strmap_get(&e->event_ix, name);
	struct event *ev;

	if (v)
		return *v;
	RG_GROW(e->events, e->nevents + 1, e->capevents);
	ev = &e->events[e->nevents];
	memset(ev, 0, sizeof(*ev));
	ev->name = xstrdup(name);
	gate_strmap_put(&e->event_ix, ev->name, e->nevents);
	return e->nevents++;
}

static size_t *events_of(gate_engine *e, const spec_strv *v)
{
	size_t *ix = xcalloc(v->n, sizeof(*ix));
	size_t i;

	for (i = 0; i < v->n; i++)
		ix[i] = event_intern(e, v->v[i]);
	return ix;
}

static size_t alias_intern(gate_engine *e, const char *name)
{
	size_t *v = gate_strmap_get(&e->alias_ix, name);
	struct alias *a;
	char *ev;

	if (v)
		return *v;
	RG_GROW(e->aliases, e->naliases + 1, e->capaliases);
	a = &e->aliases[e->naliases];
	memset(a, 0, sizeof(*a));
	a->name = xstrdup(name);
	ev = xasprintf("started:%s", name);
	a->started = event_intern(e, ev);
	free(ev);
	ev = xasprintf("exited:%s", name);
	a->exited = event_intern(e, ev);
	free(ev);
	gate_strmap_put(&e->alias_ix, a->name, e->naliases);
	return e->naliases++;
}

static void route_add(gate_engine *e, const char *key, size_t ci)
{
	size_t *v = gate_strmap_get(&e->route_ix, key);
	struct route *r;

	if (!v) {
		RG_GROW(e->routes, e->nroutes + 1, e->caproutes);
		r = &e->routes[e->nroutes];
		memset(r, 0, sizeof(*r));
		r->key = xstrdup(key);
		gate_strmap_put(&e->route_ix, r->key, e->nroutes);
		e->nroutes++;
	} else {
		r = &e->routes[*v];
	}
	RG_GROW(r->cls, r->n + 1, r->cap);
	r->cls[r->n++] = ci;
}

/* {process: P} alone names P's initial thread (docs/gates.md, "Processes"). */
static bool sel_initial(const spec_selector *sel)
{
	return sel->process.kind != SPEC_PROC_UNSET && !sel->start && !sel->runs &&
	       !sel->name && !sel->tid && !sel->nth;
}

static const spec_process main_process = { SPEC_PROC_MAIN, NULL, 0, { 0, 0 } };

static struct tclass *class_intern(gate_engine *e, const spec_selector *sel)
{
	char *key = xasprintf("%c%s\x1f%c%s\x1f%c%s\x1f%ld\x1f%d\x1f%d\x1f%s",
			      sel->start ? '+' : '-', sel->start ? sel->start : "",
			      sel->runs ? '+' : '-', sel->runs ? sel->runs : "",
			      sel->name ? '+' : '-', sel->name ? sel->name : "",
			      sel->tid, (int)sel->process.kind, sel->process.nth,
			      sel->process.exe ? sel->process.exe : "");
	size_t *v = gate_strmap_get(&e->class_ix, key);
	struct tclass *c;
	char *rkey;

	if (v) {
		free(key);
		return e->classes[*v];
	}
	c = xcalloc(1, sizeof(*c));
	c->key = key;
	c->start = gi_start_intern(e, sel->start);
	c->runs = gi_runs_intern(e, sel->runs);
	c->name = sel->name;
	c->tid = sel->tid;
	c->proc = &sel->process;
	c->initial = sel_initial(sel);
	RG_GROW(e->classes, e->nclasses + 1, e->capclasses);
	e->classes[e->nclasses] = c;
	gate_strmap_put(&e->class_ix, c->key, e->nclasses);

	/*
	 * A name selector is routed by name even when it has a start too:
	 * its membership changes on rename, which only the name route sees;
	 * a runs: selector by what the thread is found to run, which may
	 * come before or after a rename.
	 */
	if (sel->runs) {
		rkey = xasprintf("r:%s", sel->runs);
		route_add(e, rkey, e->nclasses);
		free(rkey);
	}
	if (sel->runs && !sel->name)
		rkey = NULL;
	else if (sel->name)
		rkey = xasprintf("n:%s", sel->name);
	else if (sel->start)
		rkey = xasprintf("s:%s", sel->start);
	else if (sel->tid)
		rkey = xasprintf("t:%ld", sel->tid);
	else
		rkey = xstrdup("*");
	if (rkey)
		route_add(e, rkey, e->nclasses);
	free(rkey);
	e->nclasses++;
	return c;
}

static size_t barrier_new(gate_engine *e, const char *name, int count)
{
	struct barrier *b;

	RG_GROW(e->barriers, e->nbarriers + 1, e->capbarriers);
	b = &e->barriers[e->nbarriers];
	memset(b, 0, sizeof(*b));
	b->name = name;
	b->count = count;
	return e->nbarriers++;
}

/*
 * The processes a gate acts in: its process:, else those of the thread its
 * thread: names when that names a process (NULL: the selector alone
 * decides), else the main process.  Aliases are set up before the gates.
 */
static const spec_process *gate_process(const gate_engine *e, const struct gate *g,
					const spec_gate *sp)
{
	const spec_selector *sel = &sp->thread;

	if (sp->process.kind != SPEC_PROC_UNSET)
		return &sp->process;
	if (sel->kind == SPEC_SEL_ALIAS && g->sel_alias != NONE && e->aliases[g->sel_alias].sel)
		sel = e->aliases[g->sel_alias].sel;
	if (sel->kind == SPEC_SEL_MATCH && sel->process.kind != SPEC_PROC_UNSET)
		return NULL;
	return &main_process;
}

static void gate_setup(gate_engine *e, struct gate *g, const spec_gate *sp)
{
	g->sp = sp;
	g->open = events_of(e, &sp->open);
	g->wait = events_of(e, &sp->wait);
	g->then_open = events_of(e, &sp->then_open);
	g->on_block = events_of(e, &sp->open_when_blocked);
	g->sel_alias = NONE;
	g->sel_start = g->sel_runs = NONE;
	g->as = NONE;
	g->barrier = NONE;
	if ((sp->thread.kind == SPEC_SEL_ALIAS || sp->thread.kind == SPEC_SEL_NOT_ALIAS)
	    && sp->thread.alias)
		g->sel_alias = alias_intern(e, sp->thread.alias);
	if (sp->thread.kind == SPEC_SEL_MATCH) {
		g->sel_start = gi_start_intern(e, sp->thread.start);
		g->sel_runs = gi_runs_intern(e, sp->thread.runs);
	}
	if (sp->thread.kind == SPEC_SEL_MATCH && sp->thread.nth > 0)
		g->cls = class_intern(e, &sp->thread);
	g->proc = gate_process(e, g, sp);
	if (sp->as)
		g->as = alias_intern(e, sp->as);
	if (sp->barrier > 0) {
		if (sp->barrier_name) {
			size_t *v = gate_strmap_get(&e->barrier_ix, sp->barrier_name);

			/* the first gate naming a barrier gives its count; specs/ checks they agree */
			if (v) {
				g->barrier = *v;
			} else {
				g->barrier = barrier_new(e, sp->barrier_name, sp->barrier);
				gate_strmap_put(&e->barrier_ix, sp->barrier_name, g->barrier);
			}
		} else {
			g->barrier = barrier_new(e, sp->name ? sp->name : sp->at, sp->barrier);
		}
	}
}

/* Does a gate wait for started:main or exited:main? */
static bool waits_for_main(const spec *sp)
{
	size_t i, j;

	for (i = 0; i < sp->ngates; i++)
		for (j = 0; j < sp->gates[i].wait.n; j++)
			if (!strcmp(sp->gates[i].wait.v[j], "started:main") ||
			    !strcmp(sp->gates[i].wait.v[j], "exited:main"))
				return true;
	return false;
}

gate_engine *gate_engine_new(const spec *sp, const gate_hooks *hooks)
{
	gate_engine *e = xcalloc(1, sizeof(*e));
	size_t i;

	e->sp = sp;
	if (hooks)
		e->hooks = *hooks;
	e->notebuf = xcalloc(1, sizeof(*e->notebuf));
	e->reasonbuf = xcalloc(1, sizeof(*e->reasonbuf));

	/* threads: first, so alias indices follow the file and binds note in that order */
	for (i = 0; i < sp->naliases; i++) {
		const spec_alias *sa = &sp->aliases[i];
		size_t ai;

		if (gate_strmap_get(&e->alias_ix, sa->name))
			continue;  /* a duplicate: specs/ reports it; the first wins */
		ai = alias_intern(e, sa->name);
		e->aliases[ai].sel = &sa->sel;
		if (sa->sel.kind == SPEC_SEL_MAIN) {
			RG_GROW(e->main_aliases, e->nmain + 1, e->capmain);
			e->main_aliases[e->nmain++] = ai;
		} else if (sa->sel.kind == SPEC_SEL_MATCH) {
			struct tclass *c = class_intern(e, &sa->sel);

			RG_GROW(c->aliases, c->naliases + 1, c->capaliases);
			c->aliases[c->naliases++] = ai;
		}
	}
	/*
	 * exited:main needs no alias: "main" (never a threads: alias) is the
	 * initial thread's, bound when it starts, after any alias of the file
	 * (which stays its label).  Only when a gate waits for it, so that
	 * specs without it see no bind of their own.
	 */
	if (waits_for_main(sp) && !gate_strmap_get(&e->alias_ix, "main")) {
		size_t ai = alias_intern(e, "main");

		RG_GROW(e->main_aliases, e->nmain + 1, e->capmain);
		e->main_aliases[e->nmain++] = ai;
	}
	e->ngates = sp->ngates;
	e->gates = xcalloc(sp->ngates, sizeof(*e->gates));
	for (i = 0; i < sp->ngates; i++)
		gate_setup(e, &e->gates[i], &sp->gates[i]);
	return e;
}

static void thread_free(struct gate_thread *th)
{
	free(th->start);
	free(th->start_is);
	free(th->runs);
	free(th->name);
	free(th->exe);
	free(th->label);
	free(th->aliases);
	free(th->ar);
	free(th->wait);
	free(th->bars);
	free(th->pass);
	free(th->marks);
	free(th->blk);
	free(th);
}

void gate_engine_free(gate_engine *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->ngates; i++) {
		free(e->gates[i].open);
		free(e->gates[i].wait);
		free(e->gates[i].then_open);
		free(e->gates[i].on_block);
	}
	free(e->gates);
	for (i = 0; i < e->nevents; i++) {
		free(e->events[i].name);
		free(e->events[i].waiters);
	}
	free(e->events);
	gate_strmap_release(&e->event_ix);
	for (i = 0; i < e->naliases; i++)
		free(e->aliases[i].name);
	free(e->aliases);
	gate_strmap_release(&e->alias_ix);
	free(e->main_aliases);
	for (i = 0; i < e->nbarriers; i++)
		free(e->barriers[i].counted);
	free(e->barriers);
	gate_strmap_release(&e->barrier_ix);
	for (i = 0; i < e->nclasses; i++) {
		free(e->classes[i]->key);
		free(e->classes[i]->m);
		free(e->classes[i]->aliases);
		free(e->classes[i]);
	}
	free(e->classes);
	gate_strmap_release(&e->class_ix);
	free(e->sel_starts);
	free(e->sel_runs);
	for (i = 0; i < e->nroutes; i++) {
		free(e->routes[i].key);
		free(e->routes[i].cls);
	}
	free(e->routes);
	gate_strmap_release(&e->route_ix);
	for (i = 0; i < e->nthreads; i++)
		thread_free(e->threads[i]);
	free(e->threads);
	rg_intmap_release(&e->tid_ix);
	for (i = 0; i < e->nstarts; i++)
		free(e->starts[i].name);
	free(e->starts);
	gate_strmap_release(&e->start_ix);
	rg_intmap_release(&e->hits);
	free(e->queue);
	free(e->heap);
	free(e->binds);
	rg_buf_release(e->notebuf);
	rg_buf_release(e->reasonbuf);
	free(e->notebuf);
	free(e->reasonbuf);
	free(e);
}

/* ---- deadlines: a binary heap ordered by (time, arrival) ------------- */

static bool deadline_before(const struct deadline *a, const struct deadline *b)
{
	return a->at < b->at || (a->at == b->at && a->serial < b->serial);
}

static void heap_push(gate_engine *e, struct deadline d)
{
	size_t i = e->nheap;

	RG_GROW(e->heap, e->nheap + 1, e->capheap);
	e->nheap++;
	while (i > 0 && deadline_before(&d, &e->heap[(i - 1) / 2])) {
		e->heap[i] = e->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	e->heap[i] = d;
}

static struct deadline heap_pop(gate_engine *e)
{
	struct deadline top = e->heap[0], last = e->heap[--e->nheap];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= e->nheap)
			break;
		if (c + 1 < e->nheap && deadline_before(&e->heap[c + 1], &e->heap[c]))
			c++;
		if (!deadline_before(&e->heap[c], &last))
			break;
		e->heap[i] = e->heap[c];
		i = c;
	}
	if (e->nheap)
		e->heap[i] = last;
	return top;
}

static bool deadline_live(const struct deadline *d)
{
	return d->th->held && d->th->serial == d->serial;
}

/* ---- events, holds, releases ----------------------------------------- */

static void queue_push(gate_engine *e, struct ref r)
{
	RG_GROW(e->queue, e->nqueue + 1, e->capqueue);
	e->queue[e->nqueue++] = r;
}

/*
 * Opens ev; threads for which it was the last closed event are queued for
 * drain(), not moved on here: see "Cascades" at the top.
 */
static void event_open_why(gate_engine *e, size_t ev, pid_t tid, int gate,
			   const char *why, double t)
{
	struct event *v = &e->events[ev];
	gate_note n = {.kind = GATE_NOTE_OPEN, .t_ms = t, .tid = tid, .gate = gate,
		       .text = why};
	size_t i;

	if (v->open)
		return;
	v->open = true;
	v->opened_at = t;
	n.event = v->name;
	emit(e, &n);
	for (i = 0; i < v->nwaiters; i++) {
		struct ref r = v->waiters[i];

		if (!ref_live(r) || r.th->stage != STAGE_WAIT)
			continue;
		if (--r.th->remaining == 0)
			queue_push(e, r);
	}
	/* a latch never closes: nobody will wait for it again */
	free(v->waiters);
	v->waiters = NULL;
	v->nwaiters = v->capwaiters = 0;
}

static void event_open(gate_engine *e, size_t ev, pid_t tid, int gate, double t)
{
	event_open_why(e, ev, tid, gate, NULL, t);
}

void gi_format_reason(const gate_engine *e, const struct gate_thread *th, rg_buf *b)
{
	size_t i;

	buf_clear(b);
	if (th->stage == STAGE_WAIT) {
		const char *sep = "";

		rg_buf_puts(b, "waiting for ");
		for (i = 0; i < th->nwait; i++) {
			const struct event *ev = &e->events[th->wait[i]];

			if (ev->open)
				continue;
			rg_buf_printf(b, "%s%s", sep, ev->name);
			sep = ", ";
		}
		return;
	}
	for (i = 0; i < th->nbars; i++) {
		const struct barrier *br = &e->barriers[e->gates[th->bars[i]].barrier];

		if (!br->fired) {
			rg_buf_printf(b, "at barrier '%s' (%d of %d)", br->name,
				      br->arrived, br->count);
			return;
		}
	}
	rg_buf_puts(b, "held");
}

/*
 * Why an arrival at g will not be held by g, when g had something to hold
 * it with: its waits were all open already, its barrier had fired.  For
 * the timeline of a run that did not reproduce ("passed (b already open
 * since +2.030 ms)").  NULL when g holds, or never could.
 */
static const char *pass_reason(gate_engine *e, const struct gate *g)
{
	rg_buf *b = e->notebuf;
	size_t i;

	buf_clear(b);
	for (i = 0; i < g->sp->wait.n; i++) {
		const struct event *ev = &e->events[g->wait[i]];

		if (!ev->open)
			return NULL;
		rg_buf_printf(b, "%s%s%s since +%.3f ms", i ? ", " : "", ev->name,
			      i ? "" : " already open", ev->opened_at);
	}
	if (g->barrier != NONE) {
		const struct barrier *br = &e->barriers[g->barrier];

		if (!br->fired)
			return NULL;
		rg_buf_printf(b, "%sbarrier '%s' already fired at +%.3f ms",
			      b->len ? "; " : "", br->name, br->fired_at);
	}
	return b->len ? b->s : NULL;
}

static void hold_note(gate_engine *e, struct gate_thread *th, double t)
{
	gate_note n = {.kind = GATE_NOTE_HOLD, .t_ms = t, .tid = th->tid, .gate = th->gate};

	gi_format_reason(e, th, e->notebuf);
	n.text = e->notebuf->s;
	emit(e, &n);
}

bool gi_any_closed(const gate_engine *e, const size_t *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!e->events[ev[i]].open)
			return true;
	return false;
}

static bool gate_holding(const gate_engine *e, const struct gate *g)
{
	return gi_any_closed(e, g->wait, g->sp->wait.n)
	       || (g->barrier != NONE && !e->barriers[g->barrier].fired);
}

/* Starts a hold (a thread moving from its waits to a barrier keeps its own). */
static void hold_begin(gate_engine *e, struct gate_thread *th, double t)
{
	struct deadline d = {0};
	size_t i;

	if (th->held)
		return;
	th->held = true;
	th->since = t;
	e->nheld++;
	/*
	 * One clock per hold: the earliest timeout among the gates that hold
	 * it now (a closed wait, a barrier yet to fire), not those it merely
	 * matched on the way.
	 */
	d.gate = -1;
	for (i = 0; i < th->nar; i++) {
		const struct gate *g = &e->gates[th->ar[i]];
		double at;

		if (g->sp->timeout_ms <= 0 || !gate_holding(e, g))
			continue;
		at = t + (double)g->sp->timeout_ms;
		if (d.gate < 0 || at < d.at) {
			d.at = at;
			d.gate = (int)th->ar[i];
		}
	}
	if (d.gate >= 0) {
		d.serial = th->serial;
		d.th = th;
		heap_push(e, d);
	}
}

/*
 * Ends the hold without opening anything.  A thread that leaves a barrier
 * before it fired (exit, timeout, release_all) is no longer there, so it no
 * longer counts towards it.
 */
static void hold_end(gate_engine *e, struct gate_thread *th)
{
	size_t i;

	for (i = 0; i < th->nbars; i++) {
		struct barrier *b = &e->barriers[e->gates[th->bars[i]].barrier];

		if (!b->fired)
			b->arrived--;
	}
	th->nbars = 0;
	th->held = false;
	th->stage = STAGE_NONE;
	e->nheld--;
}

/*
 * th goes on from its arrival: its then_open events open when it has got
 * past the line (gate_passed), not now.  Nothing is pushed when no gate of
 * the arrival has then_open, so gate_pass_depth() says whether to watch.
 */
static void open_blocked_later(gate_engine *e, struct gate_thread *th);

static void open_then(gate_engine *e, struct gate_thread *th)
{
	size_t i, mark = th->npass;

	open_blocked_later(e, th);
	for (i = 0; i < th->nar; i++) {
		if (!e->gates[th->ar[i]].sp->then_open.n)
			continue;
		RG_GROW(th->pass, th->npass + 1, th->cappass);
		th->pass[th->npass++] = th->ar[i];
	}
	if (th->npass == mark)
		return;
	RG_GROW(th->marks, th->nmarks + 1, th->capmarks);
	th->marks[th->nmarks++] = mark;
}

/*
 * th goes on from its arrival: the open_when_blocked of its gates wait for
 * it to sleep in a system call (gate_blocked) or exit.
 */
static void open_blocked_later(gate_engine *e, struct gate_thread *th)
{
	size_t i, before = th->nblk;

	for (i = 0; i < th->nar; i++) {
		if (!e->gates[th->ar[i]].sp->open_when_blocked.n)
			continue;
		RG_GROW(th->blk, th->nblk + 1, th->capblk);
		th->blk[th->nblk++] = th->ar[i];
	}
	if (!before && th->nblk)
		e->nblocking++;
}

/* Opens th's pending open_when_blocked events; why says what it did. */
static void blocked_pop(gate_engine *e, struct gate_thread *th, const char *why,
			double t)
{
	size_t i, j;

	if (!th->nblk)
		return;
	for (i = 0; i < th->nblk; i++) {
		const struct gate *g = &e->gates[th->blk[i]];

		for (j = 0; j < g->sp->open_when_blocked.n; j++)
			event_open_why(e, g->on_block[j], th->tid, (int)th->blk[i], why, t);
	}
	th->nblk = 0;
	e->nblocking--;
}

/* Opens the then_open events of th's innermost pending set. */
static void pass_pop(gate_engine *e, struct gate_thread *th, double t)
{
	size_t i, j, mark;

	if (!th->nmarks)
		return;
	mark = th->marks[--th->nmarks];
	for (i = mark; i < th->npass; i++) {
		const struct gate *g = &e->gates[th->pass[i]];

		for (j = 0; j < g->sp->then_open.n; j++)
			event_open(e, g->then_open[j], th->tid, (int)th->pass[i], t);
	}
	th->npass = mark;
}

static void release(gate_engine *e, struct gate_thread *th,
		    enum gate_note_kind kind, int gate, double t)
{
	gate_note n = {.kind = kind, .t_ms = t, .tid = th->tid, .gate = gate,
		       .held_ms = t - th->since};

	hold_end(e, th);
	emit(e, &n);
	open_then(e, th);
}

static bool bars_fired(const gate_engine *e, const struct gate_thread *th, size_t *first)
{
	size_t i;

	for (i = 0; i < th->nbars; i++)
		if (!e->barriers[e->gates[th->bars[i]].barrier].fired) {
			if (first)
				*first = th->bars[i];
			return false;
		}
	return true;
}

bool gi_counted_at(const gate_engine *e, const struct gate_thread *th, size_t bi)
{
	size_t i;

	for (i = 0; i < th->nbars; i++)
		if (e->gates[th->bars[i]].barrier == bi)
			return true;
	return false;
}

/* Fires b: the threads held there go, oldest first, unless another barrier still holds them. */
static void barrier_fire(gate_engine *e, struct barrier *b, struct gate_thread *self, double t)
{
	size_t i;

	b->fired = true;
	b->fired_at = t;
	for (i = 0; i < b->ncounted; i++) {
		struct ref r = b->counted[i];

		if (r.th == self || !ref_live(r) || r.th->stage != STAGE_BARRIER)
			continue;
		if (bars_fired(e, r.th, NULL))
			release(e, r.th, GATE_NOTE_RELEASE, r.th->gate, t);
	}
	free(b->counted);
	b->counted = NULL;
	b->ncounted = b->capcounted = 0;
}

/*
 * th is past its waits: it counts at every barrier of its gates at once,
 * then is held until they have all fired, or goes (then_open).  Returns
 * true when it is held.
 */
static bool pass_barriers(gate_engine *e, struct gate_thread *th, double t)
{
	size_t i, first = 0;

	th->nbars = 0;
	for (i = 0; i < th->nar; i++) {
		size_t bi = e->gates[th->ar[i]].barrier;
		struct barrier *b;

		if (bi == NONE)
			continue;
		b = &e->barriers[bi];
		if (b->fired || gi_counted_at(e, th, bi))
			continue;
		RG_GROW(th->bars, th->nbars + 1, th->capbars);
		th->bars[th->nbars++] = th->ar[i];
		RG_GROW(b->counted, b->ncounted + 1, b->capcounted);
		b->counted[b->ncounted++] = (struct ref){th, th->serial};
		b->arrived++;
	}
	for (i = 0; i < th->nbars; i++) {
		struct barrier *b = &e->barriers[e->gates[th->bars[i]].barrier];

		if (!b->fired && b->arrived >= b->count)
			barrier_fire(e, b, th, t);
	}
	if (!bars_fired(e, th, &first)) {
		th->stage = STAGE_BARRIER;
		th->gate = (int)first;
		hold_begin(e, th, t);
		hold_note(e, th, t);
		return true;
	}
	if (th->held)
		release(e, th, GATE_NOTE_RELEASE, th->gate, t);
	else
		open_then(e, th);
	return false;
}

/* th's opens are done: hold it for every closed wait of its gates, or go on. */
static bool pass_waits(gate_engine *e, struct gate_thread *th, double t)
{
	unsigned long stamp = ++e->stamp;
	size_t i, j;
	int first = -1;

	th->nwait = 0;
	for (i = 0; i < th->nar; i++) {
		const struct gate *g = &e->gates[th->ar[i]];

		for (j = 0; j < g->sp->wait.n; j++) {
			struct event *ev = &e->events[g->wait[j]];

			if (ev->open || ev->stamp == stamp)
				continue;
			ev->stamp = stamp;
			RG_GROW(th->wait, th->nwait + 1, th->capwait);
			th->wait[th->nwait++] = g->wait[j];
			if (first < 0)
				first = (int)th->ar[i];
		}
	}
	if (!th->nwait)
		return pass_barriers(e, th, t);
	th->remaining = th->nwait;
	for (i = 0; i < th->nwait; i++) {
		struct event *ev = &e->events[th->wait[i]];

		RG_GROW(ev->waiters, ev->nwaiters + 1, ev->capwaiters);
		ev->waiters[ev->nwaiters++] = (struct ref){th, th->serial};
	}
	th->stage = STAGE_WAIT;
	th->gate = first;
	hold_begin(e, th, t);
	hold_note(e, th, t);
	return true;
}

/* Moves on every thread whose waits have opened, until nothing changes. */
static void drain(gate_engine *e, double t)
{
	size_t i;

	for (i = 0; i < e->nqueue; i++) {
		struct ref r = e->queue[i];

		if (ref_live(r) && r.th->stage == STAGE_WAIT && r.th->remaining == 0)
			pass_barriers(e, r.th, t);
	}
	e->nqueue = 0;
}

/* ---- threads, selectors, aliases ------------------------------------- */

struct gate_thread *gi_thread_find(const gate_engine *e, pid_t tid)
{
	size_t *v = rg_intmap_get(&e->tid_ix, (uint64_t)(uint32_t)tid);

	return v ? e->threads[*v] : NULL;
}

static void alias_bind(gate_engine *e, size_t ai, struct gate_thread *th, double t)
{
	struct alias *a = &e->aliases[ai];
	gate_note n = {.kind = GATE_NOTE_BIND, .t_ms = t, .tid = th->tid, .gate = -1};

	if (a->th)
		return;
	a->th = th;
	if (th->alias == NONE)
		th->alias = ai;
	RG_GROW(th->aliases, th->naliases + 1, th->capaliases);
	th->aliases[th->naliases++] = ai;
	n.alias = a->name;
	emit(e, &n);
	/* started:ALIAS says "that thread has started": true from the moment we know which */
	event_open(e, a->started, th->tid, -1, t);
	if (th->exited)
		event_open(e, a->exited, th->tid, -1, t);
}

static void bind_request(gate_engine *e, size_t ai, struct gate_thread *th)
{
	RG_GROW(e->binds, e->nbinds + 1, e->capbinds);
	e->binds[e->nbinds++] = (struct bindreq){ai, th};
}

static int bindreq_cmp(const void *a, const void *b)
{
	const struct bindreq *x = a, *y = b;

	return x->alias < y->alias ? -1 : x->alias > y->alias;
}

/* Binds what one thread event made bindable, in threads: order. */
static void binds_flush(gate_engine *e, double t)
{
	size_t i;

	if (!e->nbinds)
		return;
	qsort(e->binds, e->nbinds, sizeof(*e->binds), bindreq_cmp);
	for (i = 0; i < e->nbinds; i++)
		alias_bind(e, e->binds[i].alias, e->binds[i].th, t);
	e->nbinds = 0;
}

/* Is th in a process p names (not given: the main process)? */
static bool proc_match(const spec_process *p, const struct gate_thread *th)
{
	switch (p->kind) {
	case SPEC_PROC_UNSET:
	case SPEC_PROC_MAIN:
		return th->proc_nth == 0;
	case SPEC_PROC_ANY:
		return true;
	case SPEC_PROC_NTH:
		return th->proc_nth == p->nth;
	case SPEC_PROC_EXE:
		return th->exe && !strcmp(th->exe, p->exe);
	}
	return false;
}

static bool class_match(const gate_engine *e, const struct tclass *c,
			const struct gate_thread *th)
{
	return gi_base_match(e, c->start, c->runs, c->name, c->tid, th) &&
	       proc_match(c->proc, th) &&
	       (!c->initial || th->proc_initial);
}

/* Adds th to c keeping creation order; false if it was there already. */
static bool class_add(struct tclass *c, const struct gate_thread *th)
{
	size_t lo = 0, hi = c->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->m[mid] < th->seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->n && c->m[lo] == th->seq)
		return false;
	RG_GROW(c->m, c->n + 1, c->cap);
	memmove(c->m + lo + 1, c->m + lo, (c->n - lo) * sizeof(*c->m));
	c->m[lo] = th->seq;
	c->n++;
	return true;
}

static void class_remove(struct tclass *c, const struct gate_thread *th)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->m[i] == th->seq) {
			memmove(c->m + i, c->m + i + 1, (c->n - i - 1) * sizeof(*c->m));
			c->n--;
			return;
		}
}

/*
 * th may have joined the classes behind key: add it to those it matches now
 * and ask for the binds that makes possible.  With nth, the K-th member may
 * be another thread than th (a rename can slot an older thread in front).
 */
static void route_join(gate_engine *e, const char *key, struct gate_thread *th)
{
	size_t *v = gate_strmap_get(&e->route_ix, key);
	size_t i, j;

	if (!v)
		return;
	for (i = 0; i < e->routes[*v].n; i++) {
		struct tclass *c = e->classes[e->routes[*v].cls[i]];

		if (!class_match(e, c, th) || !class_add(c, th))
			continue;
		for (j = 0; j < c->naliases; j++) {
			size_t ai = c->aliases[j];
			int nth = e->aliases[ai].sel->nth;

			if (e->aliases[ai].th)
				continue;
			if (nth <= 0)
				bind_request(e, ai, th);
			else if (c->n >= (size_t)nth)
				bind_request(e, ai, e->threads[c->m[nth - 1]]);
		}
	}
}

static void route_leave(gate_engine *e, const char *key, struct gate_thread *th)
{
	size_t *v = gate_strmap_get(&e->route_ix, key);
	size_t i;

	if (!v)
		return;
	for (i = 0; i < e->routes[*v].n; i++)
		class_remove(e->classes[e->routes[*v].cls[i]], th);
}

bool gi_sel_match(const gate_engine *e, const struct gate *g,
		      const struct gate_thread *th)
{
	const spec_selector *sel = &g->sp->thread;

	if (g->proc && !proc_match(g->proc, th))
		return false;
	switch (sel->kind) {
	case SPEC_SEL_ANY:
		return true;
	case SPEC_SEL_MAIN:
		return th->is_main;
	case SPEC_SEL_ALIAS:
		return g->sel_alias != NONE && e->aliases[g->sel_alias].th == th;
	case SPEC_SEL_NOT_ALIAS:
		return g->sel_alias == NONE || e->aliases[g->sel_alias].th != th;
	case SPEC_SEL_MATCH:
		if (g->cls)
			return g->cls->n >= (size_t)sel->nth
			       && g->cls->m[sel->nth - 1] == th->seq;
		return gi_base_match(e, g->sel_start, g->sel_runs, sel->name, sel->tid, th) &&
		       proc_match(&sel->process, th) &&
		       (!sel_initial(sel) || th->proc_initial);
	}
	return false;
}

static struct gate_thread *thread_new(gate_engine *e, pid_t tid, const char *start,
				      bool is_main, const gate_proc *proc)
{
	struct gate_thread *th = xcalloc(1, sizeof(*th));

	th->tid = tid;
	th->seq = e->nthreads;
	th->start = start ? xstrdup(start) : NULL;
	th->is_main = is_main;
	th->alias = NONE;
	th->proc_nth = proc && !is_main ? proc->nth : 0;
	th->proc_initial = is_main || (proc && proc->initial);
	th->exe = proc && proc->exe ? xstrdup(proc->exe) : NULL;
	if (is_main) {
		th->label = xstrdup("main");
	} else if (th->proc_initial && th->proc_nth) {
		th->label = xasprintf("process#%d", th->proc_nth);
	} else if (start) {
		char *base = gi_start_label(start);
		size_t *v = gate_strmap_get(&e->start_ix, base);
		struct startcount *sc;

		if (!v) {
			RG_GROW(e->starts, e->nstarts + 1, e->capstarts);
			sc = &e->starts[e->nstarts];
			sc->name = base;
			sc->n = 0;
			gate_strmap_put(&e->start_ix, sc->name, e->nstarts);
			e->nstarts++;
		} else {
			sc = &e->starts[*v];
			free(base);
		}
		th->label = xasprintf("%s#%d", sc->name, ++sc->n);
	} else {
		th->label = xasprintf("thread#%d", ++e->nanon);
	}
	RG_GROW(e->threads, e->nthreads + 1, e->capthreads);
	e->threads[e->nthreads++] = th;
	*rg_intmap_ref(&e->tid_ix, (uint64_t)(uint32_t)tid, 0) = th->seq;
	return th;
}

void gate_thread_started(gate_engine *e, pid_t tid, const char *start,
			 bool is_main, double t_ms)
{
	gate_thread_started_in(e, tid, start, is_main, NULL, t_ms);
}

void gate_thread_started_in(gate_engine *e, pid_t tid, const char *start,
			    bool is_main, const gate_proc *proc, double t_ms)
{
	struct gate_thread *th = gi_thread_find(e, tid);
	char key[32];
	size_t i;

	if (th && !th->exited)
		return;  /* told twice: the first call counts */
	th = thread_new(e, tid, start, is_main, proc);
	if (is_main)
		for (i = 0; i < e->nmain; i++)
			bind_request(e, e->main_aliases[i], th);
	gi_thread_starts(e, th);
	for (i = 0; th->start_is && i < e->nsel_starts; i++)
		if (th->start_is[i]) {
			char *k = xasprintf("s:%s", e->sel_starts[i]);

			route_join(e, k, th);
			free(k);
		}
	snprintf(key, sizeof(key), "t:%ld", (long)tid);
	route_join(e, key, th);
	route_join(e, "*", th);
	binds_flush(e, t_ms);
	drain(e, t_ms);
}

void gate_thread_exe(gate_engine *e, pid_t tid, const char *exe, double t_ms)
{
	struct gate_thread *th = gi_thread_find(e, tid);

	if (!th || th->exited || !exe || (th->exe && !strcmp(th->exe, exe)))
		return;
	free(th->exe);
	th->exe = xstrdup(exe);
	route_join(e, "*", th);
	binds_flush(e, t_ms);
	drain(e, t_ms);
}

void gate_thread_runs(gate_engine *e, pid_t tid, const char *runs, double t_ms)
{
	struct gate_thread *th = gi_thread_find(e, tid);
	size_t r;
	char *k;

	if (!th || th->exited || !runs)
		return;
	for (r = 0; r < e->nsel_runs && strcmp(e->sel_runs[r], runs); r++)
		;
	if (r == e->nsel_runs || (th->runs && th->runs[r]))
		return;
	if (!th->runs)
		th->runs = xcalloc(e->nsel_runs, sizeof(bool));
	th->runs[r] = true;
	k = xasprintf("r:%s", runs);
	route_join(e, k, th);
	free(k);
	binds_flush(e, t_ms);
	drain(e, t_ms);
}

void gate_thread_named(gate_engine *e, pid_t tid, const char *name, double t_ms)
{
	struct gate_thread *th = gi_thread_find(e, tid);
	char *k;

	if (!th || th->exited)
		return;
	if (name && th->name && !strcmp(name, th->name))
		return;
	if (th->name) {
		k = xasprintf("n:%s", th->name);
		route_leave(e, k, th);
		free(k);
		free(th->name);
		th->name = NULL;
	}
	if (name) {
		th->name = xstrdup(name);
		k = xasprintf("n:%s", name);
		route_join(e, k, th);
		free(k);
	}
	binds_flush(e, t_ms);
	drain(e, t_ms);
}

void gate_thread_exited(gate_engine *e, pid_t tid, double t_ms)
{
	struct gate_thread *th = gi_thread_find(e, tid);
	size_t i;

	if (!th || th->exited)
		return;
	th->exited = true;
	/* it will not run its then_open: it is gone, not released */
	if (th->held)
		hold_end(e, th);
	/* released, it did not get past its line, but it will never be there again */
	while (th->nmarks)
		pass_pop(e, th, t_ms);
	/* it never blocked after its gate: its exit stands for it (no hang) */
	blocked_pop(e, th, GATE_WHY_EXITED, t_ms);
	for (i = 0; i < th->naliases; i++)
		event_open(e, e->aliases[th->aliases[i]].exited, tid, -1, t_ms);
	drain(e, t_ms);
}

/* ---- arrivals -------------------------------------------------------- */

bool gate_arrive(gate_engine *e, pid_t tid, const size_t *gates, size_t n,
		 double t_ms)
{
	struct gate_thread *th = gi_thread_find(e, tid);
	size_t k, j, hit = 0;
	bool held;

	if (!th || th->exited) {
		/* the caller missed its start: better an anonymous thread than none */
		gate_thread_started(e, tid, NULL, false, t_ms);
		th = gi_thread_find(e, tid);
	}
	if (th->held)
		return true;  /* cannot arrive anywhere while stopped */
	th->serial = ++e->serial;
	th->nar = 0;
	th->nwait = 0;
	th->nbars = 0;
	for (k = 0; k < n; k++) {
		size_t gi = gates[k];
		struct gate *g;
		gate_note note = {.kind = GATE_NOTE_ARRIVE, .t_ms = t_ms, .tid = tid};

		if (gi >= e->ngates)
			continue;
		g = &e->gates[gi];
		if (g->sp->hit > 0 || g->sp->when) {
			/* counted on every arrival here, whatever the other filters say */
			size_t *c = rg_intmap_ref(&e->hits,
						    ((uint64_t)th->seq << 32) | (uint32_t)gi, 0);

			hit = ++*c;
			if (g->sp->hit > 0 && hit != (size_t)g->sp->hit)
				continue;
		}
		if (g->done || !gi_sel_match(e, g, th))
			continue;
		/* last and lazily: a thread the gate does not select never reads */
		if (g->sp->when && e->hooks.when &&
		    !e->hooks.when(e->hooks.ctx, tid, gi, (unsigned long)hit))
			continue;
		g->reached = true;
		if (g->sp->once)
			g->done = true;
		note.gate = (int)gi;
		note.text = pass_reason(e, g);
		emit(e, &note);
		/* bound now, so later gates at this location already see the alias */
		if (g->as != NONE)
			alias_bind(e, g->as, th, t_ms);
		RG_GROW(th->ar, th->nar + 1, th->capar);
		th->ar[th->nar++] = gi;
	}
	for (k = 0; k < th->nar; k++) {
		const struct gate *g = &e->gates[th->ar[k]];

		for (j = 0; j < g->sp->open.n; j++)
			event_open(e, g->open[j], tid, (int)th->ar[k], t_ms);
	}
	/* opens act at once: what they release goes before this thread decides */
	drain(e, t_ms);
	held = th->nar ? pass_waits(e, th, t_ms) : false;
	drain(e, t_ms);
	return held;
}

double gate_tick(gate_engine *e, double t_ms)
{
	while (e->nheap && e->heap[0].at <= t_ms) {
		struct deadline d = heap_pop(e);

		if (!deadline_live(&d))
			continue;
		e->gates[d.gate].timed_out = true;
		release(e, d.th, GATE_NOTE_TIMEOUT, d.gate, t_ms);
		/* a thread whose wait this satisfies gets a RELEASE, not a TIMEOUT */
		drain(e, t_ms);
	}
	while (e->nheap && !deadline_live(&e->heap[0]))
		heap_pop(e);
	return e->nheap ? e->heap[0].at : -1;
}

static int serial_cmp(const void *a, const void *b)
{
	const struct gate_thread *x = *(struct gate_thread *const *)a;
	const struct gate_thread *y = *(struct gate_thread *const *)b;

	return x->serial < y->serial ? -1 : x->serial > y->serial;
}

void gate_release_all(gate_engine *e, double t_ms)
{
	struct gate_thread **v;
	size_t i, n = 0;

	if (!e->nheld)
		return;
	v = xcalloc(e->nheld, sizeof(*v));
	for (i = 0; i < e->nthreads && n < e->nheld; i++)
		if (e->threads[i]->held)
			v[n++] = e->threads[i];
	/* serials grow with arrivals, and a hold starts at its arrival */
	qsort(v, n, sizeof(*v), serial_cmp);
	/*
	 * No drain between releases: a thread whose waits a then_open
	 * satisfies is released in its turn anyway, and the order stays oldest
	 * first.
	 */
	for (i = 0; i < n; i++)
		if (v[i]->held)
			release(e, v[i], GATE_NOTE_RELEASE, v[i]->gate, t_ms);
	free(v);
	drain(e, t_ms);
}

void gate_passed(gate_engine *e, pid_t tid, double t_ms)
{
	struct gate_thread *th = gi_thread_find(e, tid);

	if (!th || th->exited)
		return;
	pass_pop(e, th, t_ms);
	drain(e, t_ms);
}

void gate_blocked(gate_engine *e, pid_t tid, double t_ms)
{
	struct gate_thread *th = gi_thread_find(e, tid);

	if (!th || th->exited)
		return;
	blocked_pop(e, th, GATE_WHY_BLOCKED, t_ms);
	drain(e, t_ms);
}

size_t gate_blocking(const gate_engine *e, pid_t **tids)
{
	size_t i, n = 0;

	*tids = NULL;
	if (!e->nblocking)
		return 0;
	*tids = xcalloc(e->nblocking, sizeof(**tids));
	for (i = 0; i < e->nthreads && n < e->nblocking; i++)
		if (e->threads[i]->nblk && !e->threads[i]->exited)
			(*tids)[n++] = e->threads[i]->tid;
	return n;
}
