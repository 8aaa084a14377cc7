/*
 * The gate engine driven with synthetic threads, arrivals and time.  Specs
 * are built by hand (gates/ must not depend on specs/ code), every note is
 * recorded as one line, and tests compare the exact sequence.  The suite
 * is split in files of under 1,500 lines sharing check_gates.h: the filters
 * and barriers groups are in check_gates_filters.c.
 *
 * Note lines:  arrive TID @GATE | open TID @GATE EVENT | hold TID @GATE TEXT
 *              release TID @GATE HELD_MS | timeout TID @GATE HELD_MS | bind TID ALIAS
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gates.h"
#include "msg.h"
#include "check_gates.h"

/* ---- hand-built specs ------------------------------------------------ */

static size_t tspec_cap;  /* gates room in the spec under construction */

spec *tspec_new(size_t maxgates)
{
	spec *s = xcalloc(1, sizeof(*s));

	tspec_cap = maxgates;
	s->version = 1;
	s->gates = xcalloc(maxgates, sizeof(*s->gates));
	s->aliases = xcalloc(16, sizeof(*s->aliases));  /* talias() callers stay within 16 */
	return s;
}

/* A new gate at `at`, named like specs/ names it when no name: is given. */
spec_gate *tgate(spec *s, const char *at)
{
	spec_gate *g;

	ck_assert_uint_lt(s->ngates, tspec_cap);
	g = &s->gates[s->ngates++];
	g->name = xstrdup(at);
	g->at = xstrdup(at);
	g->thread.kind = SPEC_SEL_ANY;
	return g;
}

/* Sets a name list from NULL-terminated arguments. */
void tlist(spec_strv *v, ...)
{
	va_list ap;
	const char *s;

	va_start(ap, v);
	while ((s = va_arg(ap, const char *))) {
		v->v = xrealloc(v->v, (v->n + 1) * sizeof(*v->v));
		v->pos = xrealloc(v->pos, (v->n + 1) * sizeof(*v->pos));
		v->v[v->n] = xstrdup(s);
		v->pos[v->n] = (spec_pos){0, 0};
		v->n++;
	}
	va_end(ap);
}

void tsel_alias(spec_selector *sel, const char *text)
{
	if (text[0] == '!') {
		sel->kind = SPEC_SEL_NOT_ALIAS;
		sel->alias = xstrdup(text + 1);
	} else if (!strcmp(text, "main")) {
		sel->kind = SPEC_SEL_MAIN;
	} else {
		sel->kind = SPEC_SEL_ALIAS;
		sel->alias = xstrdup(text);
	}
}

void tsel_match(spec_selector *sel, const char *start, const char *name,
		long tid, int nth)
{
	sel->kind = SPEC_SEL_MATCH;
	sel->start = start ? xstrdup(start) : NULL;
	sel->name = name ? xstrdup(name) : NULL;
	sel->tid = tid;
	sel->nth = nth;
}

/* threads: NAME: {start, name, nth}, or main when start and name are both "main". */
void talias(spec *s, const char *alias, const char *start, const char *name, int nth)
{
	spec_alias *a;

	ck_assert_uint_lt(s->naliases, 16);
	a = &s->aliases[s->naliases++];

	a->name = xstrdup(alias);
	if (start && !strcmp(start, "main"))
		a->sel.kind = SPEC_SEL_MAIN;
	else
		tsel_match(&a->sel, start, name, 0, nth);
}

static void tstrv_free(spec_strv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->v[i]);
	free(v->v);
	free(v->pos);
}

static void tsel_free(spec_selector *sel)
{
	free(sel->alias);
	free(sel->start);
	free(sel->runs);
	free(sel->name);
}

static void tspec_free(spec *s)
{
	size_t i;

	for (i = 0; i < s->ngates; i++) {
		spec_gate *g = &s->gates[i];

		free(g->name);
		free(g->at);
		tsel_free(&g->thread);
		tstrv_free(&g->open);
		tstrv_free(&g->wait);
		tstrv_free(&g->then_open);
		tstrv_free(&g->open_when_blocked);
		free(g->barrier_name);
		free(g->as);
		free(g->when);
	}
	for (i = 0; i < s->naliases; i++) {
		free(s->aliases[i].name);
		tsel_free(&s->aliases[i].sel);
	}
	free(s->gates);
	free(s->aliases);
	free(s);
}

/* ---- the recorder ---------------------------------------------------- */

void rec_note(void *ctx, const gate_note *n)
{
	struct rec *r = ctx;

	switch (n->kind) {
	case GATE_NOTE_ARRIVE:
		rg_buf_printf(&r->log, "arrive %d @%d%s%s\n", (int)n->tid, n->gate,
			      n->text ? " " : "", n->text ? n->text : "");
		break;
	case GATE_NOTE_OPEN:
		rg_buf_printf(&r->log, "open %d @%d %s%s%s%s\n", (int)n->tid, n->gate, n->event,
			      n->text ? " (" : "", n->text ? n->text : "", n->text ? ")" : "");
		break;
	case GATE_NOTE_HOLD:
		rg_buf_printf(&r->log, "hold %d @%d %s\n", (int)n->tid, n->gate, n->text);
		/* a hook that asks why must not clobber the text it was given */
		if (r->e)
			ck_assert_ptr_nonnull(gate_hold_reason(r->e, n->tid, NULL));
		break;
	case GATE_NOTE_RELEASE:
		rg_buf_printf(&r->log, "release %d @%d %g\n", (int)n->tid, n->gate, n->held_ms);
		if (r->e)
			ck_assert(!gate_is_held(r->e, n->tid));
		break;
	case GATE_NOTE_TIMEOUT:
		rg_buf_printf(&r->log, "timeout %d @%d %g\n", (int)n->tid, n->gate, n->held_ms);
		break;
	case GATE_NOTE_BIND:
		rg_buf_printf(&r->log, "bind %d %s\n", (int)n->tid, n->alias);
		break;
	}
}

struct rec R;
spec *S;
gate_engine *E;

void start_engine(void)
{
	gate_hooks h = {.ctx = &R, .note = rec_note};

	memset(&R, 0, sizeof(R));
	E = gate_engine_new(S, &h);
	R.e = E;
}

/* The notes since the last call, one per line ("" when none). */
const char *take(void)
{
	static char *last;

	free(last);
	last = rg_buf_detach(&R.log);
	return last;
}

void teardown(void)
{
	gate_engine_free(E);
	E = NULL;
	if (S)
		tspec_free(S);
	S = NULL;
	rg_buf_release(&R.log);
	take();
}

bool arrive1(pid_t tid, size_t gate, double t)
{
	return gate_arrive(E, tid, &gate, 1, t);
}

bool arrive2(pid_t tid, size_t g1, size_t g2, double t)
{
	size_t v[2] = {g1, g2};

	return gate_arrive(E, tid, v, 2, t);
}

/* ---- the paper's scenarios ------------------------------------------- */

/* wait at A + open at B: B happens before A, whatever the scheduler does. */
START_TEST(wait_open_b_before_a)
{
	spec_gate *g;

	S = tspec_new(8);
	talias(S, "writer", "worker", NULL, 1);
	talias(S, "reader", "worker", NULL, 2);
	g = tgate(S, "counter.c:12");
	tsel_alias(&g->thread, "writer");
	tlist(&g->wait, "reader-stored", NULL);
	g = tgate(S, "counter.c:14");
	tsel_alias(&g->thread, "reader");
	tlist(&g->open, "reader-stored", NULL);
	start_engine();

	gate_thread_started(E, 100, NULL, true, 0);
	gate_thread_started(E, 101, "worker", false, 0);
	gate_thread_started(E, 102, "worker", false, 0);
	ck_assert_str_eq(take(),
		"bind 101 writer\n"
		"open 101 @-1 started:writer\n"
		"bind 102 reader\n"
		"open 102 @-1 started:reader\n");

	/* the reader at line 12 is not the writer: nothing happens */
	ck_assert(!arrive1(102, 0, 1));
	ck_assert(arrive1(101, 0, 2));
	ck_assert_str_eq(take(),
		"arrive 101 @0\n"
		"hold 101 @0 waiting for reader-stored\n");
	ck_assert(gate_is_held(E, 101));
	ck_assert_uint_eq(gate_nheld(E), 1);

	ck_assert(!arrive1(102, 1, 5));
	ck_assert_str_eq(take(),
		"arrive 102 @1\n"
		"open 102 @1 reader-stored\n"
		"release 101 @0 3\n");
	ck_assert(!gate_is_held(E, 101));
	ck_assert(gate_reached(E, 0) && gate_reached(E, 1));
	ck_assert(!gate_timed_out(E, 0));
	ck_assert(gate_event_open(E, "reader-stored"));
	ck_assert(!gate_live(E, 0) && !gate_live(E, 1));
}
END_TEST

/* {start:} names a start routine in full or by a tail of its qualified name. */
START_TEST(start_by_qualified_tail)
{
	spec_gate *g;

	S = tspec_new(8);
	talias(S, "teller", "Account::run", NULL, 1);
	talias(S, "lambda", "{lambda()#1}", NULL, 1);
	g = tgate(S, "bank.cpp:10");
	tsel_alias(&g->thread, "teller");
	tlist(&g->wait, "go", NULL);
	g = tgate(S, "bank.cpp:20");
	tsel_alias(&g->thread, "lambda");
	tlist(&g->open, "go", NULL);
	start_engine();

	gate_thread_started(E, 100, NULL, true, 0);
	gate_thread_started(E, 101, "bank::Account::run", false, 0);
	gate_thread_started(E, 102, "Account::runner", false, 0);
	gate_thread_started(E, 103, "bank::MyAccount::run", false, 0);
	gate_thread_started(E, 104, "main::{lambda()#1}", false, 0);
	ck_assert_str_eq(take(),
		"bind 101 teller\n"
		"open 101 @-1 started:teller\n"
		"bind 104 lambda\n"
		"open 104 @-1 started:lambda\n");
}
END_TEST

/*
 * StringBuffer.append(sb2): t1 reads sb2's length, t2 empties sb2, t1 copies
 * the old length.  Two wait/open pairs pin both steps.
 */
START_TEST(string_buffer_two_pairs)
{
	spec_gate *g;

	S = tspec_new(8);
	talias(S, "t1", "appender", NULL, 1);
	talias(S, "t2", "eraser", NULL, 1);
	g = tgate(S, "sb.c:30");          /* t2 erases: after t1 read the length */
	tsel_alias(&g->thread, "t2");
	tlist(&g->wait, "len-read", NULL);
	g = tgate(S, "sb.c:20");          /* t1 has read the length */
	tsel_alias(&g->thread, "t1");
	tlist(&g->open, "len-read", NULL);
	g = tgate(S, "sb.c:21");          /* t1 copies: after t2 erased */
	tsel_alias(&g->thread, "t1");
	tlist(&g->wait, "erased", NULL);
	g = tgate(S, "sb.c:31");          /* t2 has erased */
	tsel_alias(&g->thread, "t2");
	tlist(&g->open, "erased", NULL);
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	gate_thread_started(E, 2, "eraser", false, 0);
	gate_thread_started(E, 3, "appender", false, 0);
	take();
	ck_assert(arrive1(2, 0, 1));
	ck_assert(!arrive1(3, 1, 2));
	ck_assert(arrive1(3, 2, 3));
	ck_assert(!arrive1(2, 3, 4));
	ck_assert_str_eq(take(),
		"arrive 2 @0\n"
		"hold 2 @0 waiting for len-read\n"
		"arrive 3 @1\n"
		"open 3 @1 len-read\n"
		"release 2 @0 1\n"
		"arrive 3 @2\n"
		"hold 3 @2 waiting for erased\n"
		"arrive 2 @3\n"
		"open 2 @3 erased\n"
		"release 3 @2 1\n");
	ck_assert_str_eq(gate_thread_label(E, 3), "t1");
}
END_TEST

/* Two threads inserting into a list, both held at the same line: one element is lost. */
START_TEST(barrier_two_threads)
{
	spec_gate *g;
	int gate = -7;

	S = tspec_new(4);
	g = tgate(S, "list.c:40");
	g->barrier = 2;
	start_engine();

	gate_thread_started(E, 10, NULL, true, 0);
	gate_thread_started(E, 11, "inserter", false, 0);
	gate_thread_started(E, 12, "inserter", false, 0);
	ck_assert(arrive1(11, 0, 1));
	ck_assert_str_eq(gate_hold_reason(E, 11, &gate), "at barrier 'list.c:40' (1 of 2)");
	ck_assert_int_eq(gate, 0);
	ck_assert(gate_live(E, 0));
	ck_assert(!arrive1(12, 0, 3));
	ck_assert_str_eq(take(),
		"arrive 11 @0\n"
		"hold 11 @0 at barrier 'list.c:40' (1 of 2)\n"
		"arrive 12 @0\n"
		"release 11 @0 2\n");
	ck_assert_uint_eq(gate_nheld(E), 0);
	ck_assert_ptr_null(gate_hold_reason(E, 11, &gate));
	ck_assert(!gate_live(E, 0));
}
END_TEST

/* The main thread's check waits for a long task that opens its event at its very end. */
START_TEST(long_task_opens_at_end)
{
	spec_gate *g;

	S = tspec_new(4);
	g = tgate(S, "main.c:50");
	tsel_alias(&g->thread, "main");
	tlist(&g->wait, "task-done", NULL);
	g = tgate(S, "task.c:99");
	tsel_match(&g->thread, "long_task", NULL, 0, 0);
	tlist(&g->open, "task-done", NULL);
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	gate_thread_started(E, 2, "long_task", false, 0);
	gate_thread_started(E, 3, "other", false, 0);
	ck_assert(!arrive1(2, 0, 1));     /* not main */
	ck_assert(arrive1(1, 0, 10));
	ck_assert(!arrive1(3, 1, 20));    /* not the long task */
	ck_assert(!arrive1(2, 1, 5010));
	ck_assert_str_eq(take(),
		"arrive 1 @0\n"
		"hold 1 @0 waiting for task-done\n"
		"arrive 2 @1\n"
		"open 2 @1 task-done\n"
		"release 1 @0 5000\n");
}
END_TEST

/*
 * An arrival that a wait cannot hold says why: every event it waits for
 * opened before, and when (the timeline of a run that did not reproduce).
 * One still closed: it holds, and the arrival says nothing more; a gate
 * with nothing to hold with says nothing either.
 */
START_TEST(pass_says_why)
{
	spec_gate *g;

	S = tspec_new(4);
	g = tgate(S, "p.c:1");
	tlist(&g->open, "a", NULL);
	g = tgate(S, "p.c:2");
	tlist(&g->open, "b", NULL);
	g = tgate(S, "p.c:3");
	tlist(&g->wait, "a", "b", NULL);
	g = tgate(S, "p.c:4");
	tlist(&g->wait, "a", NULL);
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	gate_thread_started(E, 2, NULL, false, 0);
	ck_assert(!arrive1(1, 0, 1.5));
	ck_assert(arrive1(2, 2, 2));
	ck_assert(!arrive1(1, 1, 3.25));
	ck_assert(!arrive1(1, 2, 4));
	ck_assert(!arrive1(2, 3, 5));
	ck_assert_str_eq(take(),
		"arrive 1 @0\n"
		"open 1 @0 a\n"
		"arrive 2 @2\n"
		"hold 2 @2 waiting for b\n"
		"arrive 1 @1\n"
		"open 1 @1 b\n"
		"release 2 @2 1.25\n"
		"arrive 1 @2 a already open since +1.500 ms, b since +3.250 ms\n"
		"arrive 2 @3 a already open since +1.500 ms\n");
}
END_TEST

/* ---- actions --------------------------------------------------------- */

/* open a + wait b on one thread, open b + wait a on the other: they meet. */
START_TEST(rendezvous)
{
	spec_gate *g;

	S = tspec_new(4);
	talias(S, "x", "fx", NULL, 0);
	talias(S, "y", "fy", NULL, 0);
	g = tgate(S, "r.c:1");
	tsel_alias(&g->thread, "x");
	tlist(&g->open, "a", NULL);
	tlist(&g->wait, "b", NULL);
	g = tgate(S, "r.c:2");
	tsel_alias(&g->thread, "y");
	tlist(&g->open, "b", NULL);
	tlist(&g->wait, "a", NULL);
	start_engine();

	gate_thread_started(E, 5, "fx", false, 0);
	gate_thread_started(E, 6, "fy", false, 0);
	take();
	ck_assert(arrive1(5, 0, 1));
	ck_assert(!arrive1(6, 1, 2));
	ck_assert_str_eq(take(),
		"arrive 5 @0\n"
		"open 5 @0 a\n"
		"hold 5 @0 waiting for b\n"
		"arrive 6 @1 a already open since +1.000 ms\n"
		"open 6 @1 b\n"
		"release 5 @0 1\n");
}
END_TEST

/* wait prev + then_open mine: three links run in order, whatever order they arrive in. */
START_TEST(chain)
{
	spec_gate *g;

	S = tspec_new(4);
	g = tgate(S, "c.c:1");
	tsel_match(&g->thread, "w", NULL, 0, 1);
	tlist(&g->then_open, "s1", NULL);
	g = tgate(S, "c.c:1");
	tsel_match(&g->thread, "w", NULL, 0, 2);
	tlist(&g->wait, "s1", NULL);
	tlist(&g->then_open, "s2", NULL);
	g = tgate(S, "c.c:1");
	tsel_match(&g->thread, "w", NULL, 0, 3);
	tlist(&g->wait, "s2", NULL);
	tlist(&g->then_open, "s3", NULL);
	start_engine();

	gate_thread_started(E, 1, "w", false, 0);
	gate_thread_started(E, 2, "w", false, 0);
	gate_thread_started(E, 3, "w", false, 0);
	{
		size_t all[3] = {0, 1, 2};

		ck_assert(gate_arrive(E, 3, all, 3, 1));
		ck_assert(gate_arrive(E, 2, all, 3, 2));
		ck_assert(!gate_arrive(E, 1, all, 3, 4));
	}
	/* each link opens its event once past its line, not at its release */
	ck_assert_uint_eq(gate_pass_depth(E, 1), 1);
	ck_assert(!gate_event_open(E, "s1"));
	ck_assert(gate_is_held(E, 2));
	gate_passed(E, 1, 5);
	ck_assert_uint_eq(gate_pass_depth(E, 1), 0);
	ck_assert_uint_eq(gate_pass_depth(E, 2), 1);
	gate_passed(E, 2, 6);
	gate_passed(E, 3, 7);
	ck_assert_uint_eq(gate_pass_depth(E, 3), 0);
	ck_assert_str_eq(take(),
		"arrive 3 @2\n"
		"hold 3 @2 waiting for s2\n"
		"arrive 2 @1\n"
		"hold 2 @1 waiting for s1\n"
		"arrive 1 @0\n"
		"open 1 @0 s1\n"
		"release 2 @1 3\n"
		"open 2 @1 s2\n"
		"release 3 @2 5\n"
		"open 3 @2 s3\n");
}
END_TEST

/*
 * then_open is "I have got past": pending from the release until
 * gate_passed; nested sets pass innermost first; a thread that exits
 * before it got past opens them too; gates without then_open push nothing.
 */
START_TEST(then_open_when_past)
{
	spec_gate *g;

	S = tspec_new(8);
	g = tgate(S, "p.c:1");            /* 0: the outer line */
	tlist(&g->then_open, "outer", NULL);
	g = tgate(S, "p.c:9");            /* 1: a line of a function it calls */
	tlist(&g->then_open, "inner", NULL);
	g = tgate(S, "p.c:5");            /* 2: a plain wait, nothing to pass */
	tlist(&g->wait, "outer", NULL);
	g = tgate(S, "p.c:7");            /* 3 */
	tlist(&g->then_open, "gone", NULL);
	start_engine();

	ck_assert(arrive1(2, 2, 1));
	ck_assert(!arrive1(1, 0, 2));
	ck_assert_uint_eq(gate_pass_depth(E, 1), 1);
	ck_assert(!arrive1(1, 1, 3));
	ck_assert_uint_eq(gate_pass_depth(E, 1), 2);
	gate_passed(E, 1, 4);
	ck_assert(gate_event_open(E, "inner") && !gate_event_open(E, "outer"));
	ck_assert(gate_is_held(E, 2));
	gate_passed(E, 1, 5);
	ck_assert_uint_eq(gate_pass_depth(E, 1), 0);
	ck_assert_uint_eq(gate_pass_depth(E, 2), 0);
	gate_passed(E, 1, 6);             /* nothing pending: nothing happens */
	ck_assert(!arrive1(3, 3, 7));
	gate_thread_exited(E, 3, 8);
	ck_assert_str_eq(take(),
		"arrive 2 @2\n"
		"hold 2 @2 waiting for outer\n"
		"arrive 1 @0\n"
		"arrive 1 @1\n"
		"open 1 @1 inner\n"
		"open 1 @0 outer\n"
		"release 2 @2 4\n"
		"arrive 3 @3\n"
		"open 3 @3 gone\n");
}
END_TEST

static const char *needs_text(pid_t tid);

/* The threads gate_blocking lists, as text. */
static const char *blocking_text(void)
{
	static char buf[128];
	pid_t *v;
	size_t n = gate_blocking(E, &v), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d", i ? " " : "",
					(int)v[i]);
	free(v);
	return buf;
}

/*
 * open_when_blocked: pending from when the thread goes on (passes, or is
 * released: not while held), opened by its next gate_blocked (only its
 * own), or by its exit; the wait-for graph knows who will open it.
 */
START_TEST(open_when_blocked_at_block)
{
	spec_gate *g;

	S = tspec_new(8);
	g = tgate(S, "b.c:1");            /* 0 */
	tlist(&g->open_when_blocked, "slept", NULL);
	g = tgate(S, "b.c:5");            /* 1 */
	tlist(&g->wait, "slept", NULL);
	g = tgate(S, "b.c:7");            /* 2 */
	tlist(&g->wait, "x", NULL);
	tlist(&g->open_when_blocked, "late", NULL);
	g = tgate(S, "b.c:9");            /* 3 */
	tlist(&g->open, "x", NULL);
	g = tgate(S, "b.c:11");           /* 4 */
	tlist(&g->wait, "late", NULL);
	start_engine();

	ck_assert(arrive1(2, 1, 1));
	ck_assert_str_eq(blocking_text(), "");
	ck_assert(!arrive1(1, 0, 2));
	ck_assert_str_eq(blocking_text(), "1");
	ck_assert_str_eq(needs_text(2), "slept/0 anyone: 1");
	gate_blocked(E, 2, 3);            /* held, and nothing pending: nothing */
	gate_blocked(E, 1, 4);
	ck_assert(!gate_is_held(E, 2));
	ck_assert_str_eq(blocking_text(), "");
	gate_blocked(E, 1, 5);            /* opened once */
	ck_assert(arrive1(3, 2, 6));
	ck_assert_str_eq(blocking_text(), "");   /* held: not gone on yet */
	gate_blocked(E, 3, 7);
	ck_assert(arrive1(4, 4, 8));
	ck_assert_str_eq(needs_text(4), "late/2 anyone: 3");
	ck_assert(!arrive1(1, 3, 9));
	ck_assert_str_eq(blocking_text(), "3");
	gate_thread_exited(E, 3, 10);
	ck_assert_str_eq(blocking_text(), "");
	ck_assert(!gate_is_held(E, 4));
	ck_assert_str_eq(take(),
		"arrive 2 @1\n"
		"hold 2 @1 waiting for slept\n"
		"arrive 1 @0\n"
		"open 1 @0 slept (" GATE_WHY_BLOCKED ")\n"
		"release 2 @1 3\n"
		"arrive 3 @2\n"
		"hold 3 @2 waiting for x\n"
		"arrive 4 @4\n"
		"hold 4 @4 waiting for late\n"
		"arrive 1 @3\n"
		"open 1 @3 x\n"
		"release 3 @2 3\n"
		"open 3 @2 late (" GATE_WHY_EXITED ")\n"
		"release 4 @4 2\n");
}
END_TEST

/* A cascade a thousand links long runs without deep recursion, in order. */
START_TEST(cascade_long)
{
	enum { N = 1000 };
	rg_buf want = RG_BUF_INIT;
	size_t i;
	char *s;

	S = tspec_new(N);
	for (i = 0; i < N; i++) {
		spec_gate *g = tgate(S, "link.c:1");
		char ev[32], prev[32];

		tsel_match(&g->thread, "link", NULL, 0, (int)i + 1);
		snprintf(ev, sizeof(ev), "l%zu", i);
		snprintf(prev, sizeof(prev), "l%zu", i - 1);
		if (i)
			tlist(&g->wait, prev, NULL);
		tlist(&g->then_open, ev, NULL);
	}
	start_engine();
	for (i = 0; i < N; i++)
		gate_thread_started(E, 1000 + (pid_t)i, "link", false, 0);
	/* every link arrives, last first: all held but the first */
	for (i = N; i-- > 1;)
		ck_assert(arrive1(1000 + (pid_t)i, i, 1));
	ck_assert_uint_eq(gate_nheld(E), N - 1);
	take();
	ck_assert(!arrive1(1000, 0, 2));
	/* each link goes once the one before it is past its line */
	for (i = 0; i < N; i++)
		gate_passed(E, 1000 + (pid_t)i, 2);
	rg_buf_printf(&want, "arrive 1000 @0\nopen 1000 @0 l0\n");
	for (i = 1; i < N; i++)
		rg_buf_printf(&want, "release %d @%zu 1\nopen %d @%zu l%zu\n",
			      1000 + (int)i, i, 1000 + (int)i, i, i);
	s = rg_buf_detach(&want);
	ck_assert_str_eq(take(), s);
	free(s);
	ck_assert_uint_eq(gate_nheld(E), 0);
}
END_TEST

/*
 * Opens act at once: here 2's open releases 1, whose then_open is what 2
 * waits for; 2 is held until 1 has got past its line.
 */
START_TEST(open_cascade_before_own_wait)
{
	spec_gate *g;

	S = tspec_new(4);
	g = tgate(S, "k.c:1");
	tlist(&g->wait, "a", NULL);
	tlist(&g->then_open, "b", NULL);
	g = tgate(S, "k.c:2");
	tlist(&g->open, "a", NULL);
	tlist(&g->wait, "b", NULL);
	start_engine();

	ck_assert(arrive1(1, 0, 1));
	ck_assert(arrive1(2, 1, 2));
	gate_passed(E, 1, 3);
	ck_assert_str_eq(take(),
		"arrive 1 @0\n"
		"hold 1 @0 waiting for a\n"
		"arrive 2 @1\n"
		"open 2 @1 a\n"
		"release 1 @0 1\n"
		"hold 2 @1 waiting for b\n"
		"open 1 @0 b\n"
		"release 2 @1 1\n");
	ck_assert_uint_eq(gate_nheld(E), 0);
}
END_TEST

/* A thread held by a wait goes on to its barrier, and only then is released. */
START_TEST(wait_then_barrier)
{
	spec_gate *g;

	S = tspec_new(4);
	g = tgate(S, "wb.c:1");
	tlist(&g->wait, "go", NULL);
	g->barrier = 2;
	tlist(&g->then_open, "past", NULL);
	g = tgate(S, "wb.c:9");
	tlist(&g->open, "go", NULL);
	start_engine();

	ck_assert(arrive1(1, 0, 1));
	ck_assert(arrive1(2, 0, 2));
	ck_assert(!arrive1(3, 1, 3));
	ck_assert_str_eq(take(),
		"arrive 1 @0\n"
		"hold 1 @0 waiting for go\n"
		"arrive 2 @0\n"
		"hold 2 @0 waiting for go\n"
		"arrive 3 @1\n"
		"open 3 @1 go\n"
		"hold 1 @0 at barrier 'wb.c:1' (1 of 2)\n"
		"release 1 @0 2\n"
		"release 2 @0 1\n");
	ck_assert_uint_eq(gate_nheld(E), 0);
	gate_passed(E, 1, 4);
	gate_passed(E, 2, 5);
	ck_assert_str_eq(take(), "open 1 @0 past\n");
}
END_TEST

/* ---- time, release_all, exits ---------------------------------------- */

START_TEST(gate_timeout)
{
	spec_gate *g;

	S = tspec_new(8);
	g = tgate(S, "t.c:1");
	tlist(&g->wait, "never", NULL);
	tlist(&g->then_open, "after", NULL);
	g->timeout_ms = 100;
	g = tgate(S, "t.c:2");
	tlist(&g->wait, "after", NULL);
	g = tgate(S, "t.c:3");
	tlist(&g->wait, "never", NULL);
	g->timeout_ms = 500;
	g = tgate(S, "t.c:4");            /* 3: holds nobody, so its timeout holds no clock */
	tlist(&g->open, "o", NULL);
	g->timeout_ms = 10;
	g = tgate(S, "t.c:4");
	tlist(&g->wait, "never", NULL);
	start_engine();

	ck_assert(gate_tick(E, 0) < 0);
	ck_assert(arrive1(1, 0, 10));
	ck_assert(arrive1(2, 1, 20));
	ck_assert(arrive1(3, 2, 30));
	ck_assert(gate_tick(E, 50) == 110);
	ck_assert(!gate_timed_out(E, 0));
	take();
	ck_assert(gate_tick(E, 115) == 530);
	ck_assert(gate_timed_out(E, 0));
	ck_assert(!gate_timed_out(E, 1));
	ck_assert_str_eq(take(), "timeout 1 @0 105\n");
	gate_passed(E, 1, 116);
	ck_assert_str_eq(take(),
		"open 1 @0 after\n"
		"release 2 @1 96\n");
	ck_assert(gate_tick(E, 600) < 0);
	ck_assert_str_eq(take(), "timeout 3 @2 570\n");
	ck_assert(gate_timed_out(E, 2));
	ck_assert_uint_eq(gate_nheld(E), 0);
	ck_assert(arrive2(4, 3, 4, 700));
	ck_assert(gate_tick(E, 800) < 0);
	ck_assert(gate_is_held(E, 4) && !gate_timed_out(E, 3));
}
END_TEST

/* release_all goes oldest hold first; then_open opens later, once past the line. */
START_TEST(release_all_order)
{
	spec_gate *g;

	S = tspec_new(4);
	g = tgate(S, "r.c:1");
	tlist(&g->wait, "x", NULL);
	tlist(&g->then_open, "y", NULL);
	g = tgate(S, "r.c:2");
	tlist(&g->wait, "y", NULL);
	g = tgate(S, "r.c:3");
	g->barrier = 3;
	start_engine();

	ck_assert(arrive1(7, 2, 1));
	ck_assert(arrive1(5, 0, 2));
	ck_assert(arrive1(8, 2, 3));
	ck_assert(arrive1(6, 1, 4));
	take();
	gate_release_all(E, 10);
	ck_assert_str_eq(take(),
		"release 7 @2 9\n"
		"release 5 @0 8\n"
		"release 8 @2 7\n"
		"release 6 @1 6\n");
	ck_assert_uint_eq(gate_nheld(E), 0);
	gate_passed(E, 5, 11);
	ck_assert_str_eq(take(), "open 5 @0 y\n");
	/* the barrier emptied and did not fire: the next one waits anew */
	ck_assert(arrive1(9, 2, 11));
	ck_assert_str_eq(take(),
		"arrive 9 @2\n"
		"hold 9 @2 at barrier 'r.c:3' (1 of 3)\n");
}
END_TEST

/* A held thread that exits is forgotten: no release, no then_open, out of its barrier. */
START_TEST(held_thread_exits)
{
	spec_gate *g;

	S = tspec_new(4);
	talias(S, "a", "fa", NULL, 1);
	g = tgate(S, "e.c:1");
	tlist(&g->wait, "go", NULL);
	tlist(&g->then_open, "past", NULL);
	g->timeout_ms = 50;
	g = tgate(S, "e.c:2");
	g->barrier = 2;
	g = tgate(S, "e.c:3");
	tlist(&g->open, "go", NULL);
	start_engine();

	gate_thread_started(E, 1, "fa", false, 0);
	gate_thread_started(E, 2, "fb", false, 0);
	gate_thread_started(E, 3, "fc", false, 0);
	take();
	ck_assert(arrive1(1, 0, 1));
	ck_assert(arrive1(2, 1, 2));
	gate_thread_exited(E, 1, 3);
	gate_thread_exited(E, 2, 4);
	ck_assert_uint_eq(gate_nheld(E), 0);
	ck_assert(!gate_is_held(E, 1));
	ck_assert(!arrive1(3, 2, 5));
	ck_assert(gate_tick(E, 1000) < 0);
	ck_assert(arrive1(3, 1, 6));
	ck_assert_str_eq(take(),
		"arrive 1 @0\n"
		"hold 1 @0 waiting for go\n"
		"arrive 2 @1\n"
		"hold 2 @1 at barrier 'e.c:2' (1 of 2)\n"
		"open 1 @-1 exited:a\n"
		"arrive 3 @2\n"
		"open 3 @2 go\n"
		"arrive 3 @1\n"
		"hold 3 @1 at barrier 'e.c:2' (1 of 2)\n");
	ck_assert(!gate_event_open(E, "past"));
	ck_assert(!gate_timed_out(E, 0));
	/* a reused tid is a new thread */
	gate_thread_started(E, 1, "fz", false, 7);
	ck_assert_str_eq(gate_thread_label(E, 1), "fz#1");
}
END_TEST

/* ---- merging ---------------------------------------------------------- */

/*
 * Gates at one location merge in file order: every ARRIVE, every open, then
 * the waits of all, the barriers, then_open at release.  A gate's own wait
 * sees the opens of a later gate at the same place.
 */
START_TEST(merge_in_file_order)
{
	spec_gate *g;
	size_t all[4] = {0, 1, 2, 3};

	S = tspec_new(8);
	g = tgate(S, "m.c:1");
	tlist(&g->wait, "b", "c", NULL);
	tlist(&g->then_open, "d", NULL);
	g = tgate(S, "m.c:1");
	tlist(&g->open, "a", NULL);
	g = tgate(S, "m.c:1");
	tlist(&g->open, "c", NULL);
	tlist(&g->wait, "a", "b", NULL);
	tlist(&g->then_open, "e", NULL);
	g = tgate(S, "m.c:1");
	tsel_alias(&g->thread, "main");
	tlist(&g->open, "zzz", NULL);
	g = tgate(S, "m.c:2");
	tlist(&g->open, "b", NULL);
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	gate_thread_started(E, 2, NULL, false, 0);
	ck_assert(gate_arrive(E, 2, all, 4, 1));
	ck_assert_str_eq(gate_hold_reason(E, 2, NULL), "waiting for b");
	ck_assert(!arrive1(1, 4, 3));
	ck_assert_str_eq(take(),
		"arrive 2 @0\n"
		"arrive 2 @1\n"
		"arrive 2 @2\n"
		"open 2 @1 a\n"
		"open 2 @2 c\n"
		"hold 2 @0 waiting for b\n"
		"arrive 1 @4\n"
		"open 1 @4 b\n"
		"release 2 @0 2\n");
	ck_assert_uint_eq(gate_pass_depth(E, 2), 1);
	gate_passed(E, 2, 4);
	ck_assert_str_eq(take(),
		"open 2 @0 d\n"
		"open 2 @2 e\n");
	ck_assert_str_eq(gate_thread_label(E, 2), "thread#1");
	ck_assert_str_eq(gate_thread_label(E, 1), "main");
}
END_TEST

/* Labels: alias, main, START#K, thread#K. */
START_TEST(labels)
{
	spec_gate *g;

	S = tspec_new(2);
	talias(S, "boss", "main", "main", 0);
	talias(S, "w2", "worker", NULL, 2);
	g = tgate(S, "l.c:1");
	tsel_alias(&g->thread, "w2");
	g = tgate(S, "l.c:2");
	tsel_alias(&g->thread, "!w2");
	start_engine();

	gate_thread_started(E, 10, "main", true, 0);
	gate_thread_started(E, 11, "worker", false, 0);
	gate_thread_started(E, 12, NULL, false, 0);
	gate_thread_started(E, 13, "worker", false, 0);
	gate_thread_started(E, 14, "worker", false, 0);
	gate_thread_started(E, 15, NULL, false, 0);
	ck_assert_str_eq(gate_thread_label(E, 10), "boss");
	ck_assert_str_eq(gate_thread_label(E, 11), "worker#1");
	ck_assert_str_eq(gate_thread_label(E, 12), "thread#1");
	ck_assert_str_eq(gate_thread_label(E, 13), "w2");
	ck_assert_str_eq(gate_thread_label(E, 14), "worker#3");
	ck_assert_str_eq(gate_thread_label(E, 15), "thread#2");
	ck_assert_str_eq(take(),
		"bind 10 boss\n"
		"open 10 @-1 started:boss\n"
		"bind 13 w2\n"
		"open 13 @-1 started:w2\n");
	/* which gates select whom: an exited thread too */
	ck_assert(gate_selects(E, 0, 13) && !gate_selects(E, 0, 11));
	ck_assert(!gate_selects(E, 1, 13) && gate_selects(E, 1, 11));
	ck_assert(!gate_selects(E, 2, 11) && !gate_selects(E, 0, 99));
	gate_thread_exited(E, 13, 1);
	ck_assert(gate_selects(E, 0, 13));
	ck_assert_str_eq(gate_thread_label(E, 13), "w2");
	ck_assert(gate_event_open(E, "exited:w2"));
	ck_assert(!gate_event_open(E, "exited:boss"));
	ck_assert(!gate_event_open(E, "no-such-event"));
}
END_TEST

/* gate_live: what can still matter keeps its breakpoint. */
START_TEST(liveness)
{
	spec_gate *g;

	S = tspec_new(8);
	talias(S, "w", "worker", NULL, 1);
	g = tgate(S, "l.c:1");             /* 0: open only */
	tlist(&g->open, "a", NULL);
	g = tgate(S, "l.c:2");             /* 1: its event opened elsewhere, not yet reached */
	tlist(&g->open, "a", NULL);
	g = tgate(S, "l.c:3");             /* 2: w's gate: dead with w */
	tsel_alias(&g->thread, "w");
	tlist(&g->wait, "z", NULL);
	g = tgate(S, "l.c:4");             /* 3: as: until bound */
	g->as = xstrdup("p");
	tlist(&g->wait, "a", NULL);
	start_engine();

	ck_assert(!arrive1(1, 0, 1));
	ck_assert(!gate_live(E, 0));
	ck_assert(gate_live(E, 1));
	ck_assert(gate_live(E, 2) && gate_live(E, 3));
	gate_thread_started(E, 2, "worker", false, 2);
	gate_thread_exited(E, 2, 3);
	ck_assert(!gate_live(E, 2));
	ck_assert(!arrive1(1, 3, 4));
	ck_assert(!gate_live(E, 3));
	ck_assert(!gate_live(E, 99));
	ck_assert(!gate_reached(E, 99));
}
END_TEST

/* ---- what held threads need ---------------------------------------- */

static const char *needs_text(pid_t tid)
{
	static char buf[256];
	gate_need *v;
	size_t n = gate_needs(E, tid, &v), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s%s/%d%s:",
					i ? "; " : "", v[i].event ? v[i].event : v[i].barrier,
					v[i].barrier ? "+" : "", v[i].barrier ? v[i].missing : v[i].gate,
					v[i].anyone ? " anyone" : "");
		for (size_t j = 0; j < v[i].nby; j++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, " %d",
						(int)v[i].by[j]);
	}
	gate_needs_free(v, n);
	return buf;
}

/* What the engine says a held thread needs, and who could meet it. */
START_TEST(needs_events)
{
	spec_gate *g;

	S = tspec_new(8);
	talias(S, "w", "worker", NULL, 1);
	g = tgate(S, "kv.c:1");            /* 0: deleter binds, holds for checked */
	g->as = xstrdup("deleter");
	tlist(&g->wait, "checked", NULL);
	g = tgate(S, "kv.c:2");            /* 1: incr opens checked, waits deleted */
	g->as = xstrdup("incr");
	tlist(&g->open, "checked", NULL);
	tlist(&g->wait, "deleted", "exited:w", NULL);
	g = tgate(S, "kv.c:3");            /* 2: only the deleter opens deleted */
	tsel_alias(&g->thread, "deleter");
	tlist(&g->open, "deleted", NULL);
	g = tgate(S, "kv.c:4");            /* 3: and w past its line */
	tsel_alias(&g->thread, "w");
	tlist(&g->then_open, "late", NULL);
	g = tgate(S, "kv.c:5");            /* 4: waits for late */
	tlist(&g->wait, "late", NULL);
	start_engine();

	gate_thread_started(E, 1, "main", true, 0);
	gate_thread_started(E, 2, "conn", false, 0);
	gate_thread_started(E, 3, "conn", false, 0);
	ck_assert_str_eq(needs_text(2), "");
	ck_assert(arrive1(2, 1, 1));       /* incr held */
	/* deleter unbound: anyone; exited:w, w not started: anyone */
	ck_assert_str_eq(needs_text(2), "deleted/2 anyone:; exited:w/-1 anyone:");
	ck_assert(!arrive1(3, 0, 2));      /* binds deleter, checked is open */
	ck_assert_str_eq(needs_text(2), "deleted/2: 3; exited:w/-1 anyone:");
	gate_thread_started(E, 4, "worker", false, 3);
	ck_assert_str_eq(needs_text(2), "deleted/2: 3; exited:w/-1: 4");
	/* then_open: w held there counts as the opener, and so while pending */
	ck_assert(!arrive1(4, 3, 4));
	ck_assert(arrive1(1, 4, 5));
	ck_assert_str_eq(needs_text(1), "late/3: 4");
	gate_thread_exited(E, 3, 6);       /* the deleter is gone: nobody opens deleted */
	ck_assert_str_eq(needs_text(2), "deleted/-1:; exited:w/-1: 4");
}
END_TEST

START_TEST(needs_barrier)
{
	spec_gate *g;

	S = tspec_new(4);
	talias(S, "w", "worker", NULL, 1);
	g = tgate(S, "b.c:1");
	tsel_alias(&g->thread, "main");
	g->barrier = 3;
	g->barrier_name = xstrdup("copy");
	g = tgate(S, "b.c:2");
	tsel_alias(&g->thread, "w");
	g->barrier = 3;
	g->barrier_name = xstrdup("copy");
	g = tgate(S, "b.c:3");             /* a third that anyone may reach */
	g->barrier = 3;
	g->barrier_name = xstrdup("other");
	start_engine();

	gate_thread_started(E, 1, "main", true, 0);
	gate_thread_started(E, 2, "worker", false, 0);
	ck_assert(arrive1(1, 0, 1));
	/* main is counted already: only w can still come */
	ck_assert_str_eq(needs_text(1), "copy+/2: 2");
	ck_assert(arrive1(2, 1, 2));
	ck_assert_str_eq(needs_text(2), "copy+/1:");
	ck_assert_str_eq(needs_text(1), "copy+/1:");
	gate_thread_started(E, 3, "worker", false, 3);
	ck_assert(arrive1(3, 2, 4));
	ck_assert_str_eq(needs_text(3), "other+/2 anyone:");
}
END_TEST

/*
 * 1,000 threads and 10,000 gates: worker k runs gates k, k + 1000, ...; gate
 * i waits for gate i - 1.  Each round every worker but the first is held,
 * then the first one's then_open releases all the others in one cascade.
 */
START_TEST(scale)
{
	enum { NT = 1000, NG = 10000 };
	size_t i, next[NT], nrel = 0, round;
	clock_t c0 = clock();
	const char *log, *p;
	double secs;

	S = tspec_new(NG);
	for (i = 0; i < NG; i++) {
		spec_gate *g = tgate(S, "big.c:1");
		char ev[32], prev[32];

		tsel_match(&g->thread, "worker", NULL, 0, (int)(i % NT) + 1);
		snprintf(ev, sizeof(ev), "e%zu", i);
		snprintf(prev, sizeof(prev), "e%zu", i - 1);
		if (i)
			tlist(&g->wait, prev, NULL);
		tlist(&g->then_open, ev, NULL);
		g->hit = 1;
	}
	for (i = 0; i < 16; i++) {
		char a[16];

		snprintf(a, sizeof(a), "a%zu", i);
		talias(S, a, "worker", NULL, (int)i + 1);
	}
	start_engine();
	R.e = NULL;
	gate_thread_started(E, 1, NULL, true, 0);
	for (i = 0; i < NT; i++) {
		gate_thread_started(E, 100 + (pid_t)i, "worker", false, 0);
		next[i] = i;
	}
	for (round = 0; round < NG / NT; round++) {
		for (i = NT; i-- > 0;) {
			ck_assert(!gate_is_held(E, 100 + (pid_t)i));
			ck_assert_int_eq(gate_arrive(E, 100 + (pid_t)i, &next[i], 1, (double)round),
					 i != 0);
			next[i] += NT;
		}
		/* worker k is released when worker k - 1 is past its line */
		for (i = 0; i < NT; i++)
			gate_passed(E, 100 + (pid_t)i, (double)round);
		ck_assert_uint_eq(gate_nheld(E), 0);
	}
	log = take();
	for (p = log; (p = strstr(p, "release ")); p++)
		nrel++;
	ck_assert_uint_eq(nrel, (NT - 1) * (NG / NT));
	ck_assert(gate_event_open(E, "e9999"));
	for (i = 0; i < NG; i += 997)
		ck_assert(gate_reached(E, i) && !gate_live(E, i));
	ck_assert_str_eq(gate_thread_label(E, 100 + 15), "a15");
	ck_assert_str_eq(gate_thread_label(E, 100 + 16), "worker#17");
	secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
	ck_assert_msg(secs < 5.0, "scale test took %.2f s", secs);
}
END_TEST

/*
 * process: a child process's initial thread waits for the parent's event;
 * gates without process: act in the main process only, a gate with
 * process: any in every one, and {exe:} by the image a process runs.
 */
START_TEST(processes_share_events)
{
	static char helper[] = "helper";
	gate_proc kid = { 1, "forker", true }, kid_thread = { 1, "forker", false };
	gate_proc other = { 2, "helper", true };
	spec_gate *g;

	S = tspec_new(8);
	talias(S, "kid", NULL, NULL, 0);
	S->aliases[0].sel.process.kind = SPEC_PROC_NTH;
	S->aliases[0].sel.process.nth = 1;
	g = tgate(S, "p.c:1");                 /* 0: the child, held for the parent */
	tsel_alias(&g->thread, "kid");
	tlist(&g->wait, "parent-here", NULL);
	g = tgate(S, "p.c:2");                 /* 1: main process only */
	tlist(&g->open, "parent-here", NULL);
	g = tgate(S, "p.c:3");                 /* 2: every process */
	g->process.kind = SPEC_PROC_ANY;
	tlist(&g->open, "any-here", NULL);
	g = tgate(S, "p.c:4");                 /* 3: the process running helper */
	g->process.kind = SPEC_PROC_EXE;
	g->process.exe = helper;
	tlist(&g->open, "helper-here", NULL);
	start_engine();

	gate_thread_started(E, 100, NULL, true, 0);
	gate_thread_started_in(E, 200, NULL, false, &kid, 1);
	gate_thread_started_in(E, 201, "worker", false, &kid_thread, 1);
	gate_thread_started_in(E, 300, NULL, false, &other, 1);
	ck_assert_str_eq(take(),
		"bind 200 kid\n"
		"open 200 @-1 started:kid\n");
	ck_assert_str_eq(gate_thread_label(E, 200), "kid");
	ck_assert_str_eq(gate_thread_label(E, 300), "process#2");

	/* the child's other thread is not kid; the child at line 2 acts not */
	ck_assert(!arrive1(201, 0, 2));
	ck_assert(!arrive1(200, 1, 2));
	ck_assert(arrive1(200, 0, 3));
	ck_assert_str_eq(take(),
		"arrive 200 @0\n"
		"hold 200 @0 waiting for parent-here\n");
	ck_assert(!arrive1(300, 2, 4));
	ck_assert(!arrive1(100, 3, 4));
	ck_assert(!arrive1(300, 3, 4));
	ck_assert(!arrive1(100, 1, 5));
	ck_assert_str_eq(take(),
		"arrive 300 @2\n"
		"open 300 @2 any-here\n"
		"arrive 300 @3\n"
		"open 300 @3 helper-here\n"
		"arrive 100 @1\n"
		"open 100 @1 parent-here\n"
		"release 200 @0 2\n");
	gate_thread_exited(E, 200, 6);
	ck_assert_str_eq(take(), "open 200 @-1 exited:kid\n");
	S->gates[3].process.exe = NULL;
}
END_TEST

static Suite *gates_suite(void)
{
	Suite *s = suite_create("gates");
	TCase *tc = tcase_create("paper");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, wait_open_b_before_a);
	tcase_add_test(tc, start_by_qualified_tail);
	tcase_add_test(tc, string_buffer_two_pairs);
	tcase_add_test(tc, barrier_two_threads);
	tcase_add_test(tc, long_task_opens_at_end);
	tcase_add_test(tc, processes_share_events);
	suite_add_tcase(s, tc);

	tc = tcase_create("actions");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, rendezvous);
	tcase_add_test(tc, pass_says_why);
	tcase_add_test(tc, chain);
	tcase_add_test(tc, cascade_long);
	tcase_add_test(tc, wait_then_barrier);
	tcase_add_test(tc, open_cascade_before_own_wait);
	tcase_add_test(tc, merge_in_file_order);
	suite_add_tcase(s, tc);

	gates_add_filters(s);

	tc = tcase_create("lifecycle");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, gate_timeout);
	tcase_add_test(tc, release_all_order);
	tcase_add_test(tc, then_open_when_past);
	tcase_add_test(tc, held_thread_exits);
	tcase_add_test(tc, labels);
	tcase_add_test(tc, liveness);
	suite_add_tcase(s, tc);

	tc = tcase_create("needs");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, needs_events);
	tcase_add_test(tc, open_when_blocked_at_block);
	tcase_add_test(tc, needs_barrier);
	suite_add_tcase(s, tc);

	tc = tcase_create("scale");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, scale);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(gates_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
