/*
 * The gate engine's filters (hit:, next:, when:, once:, as:, thread
 * selectors, thread lifecycle events) and named barriers: part of
 * check_gates, kept apart for the 1,500-line limit (fixture in check_gates.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_gates.h"

/*
 * A C++ start routine comes with its parameter types: {start:} without
 * them picks every overload, with them one; the label leaves them out.
 */
START_TEST(start_with_parameters)
{
	spec_gate *g;
	char *short_name;

	S = tspec_new(8);
	talias(S, "any_run", "Worker::run", NULL, 2);
	talias(S, "run_int", "Worker::run(int)", NULL, 1);
	g = tgate(S, "w.cpp:10");
	tsel_alias(&g->thread, "run_int");
	tlist(&g->open, "go", NULL);
	start_engine();

	gate_thread_started(E, 100, NULL, true, 0);
	gate_thread_started(E, 101, "Worker::run(char const*)", false, 0);
	gate_thread_started(E, 102, "app::Worker::run(int)", false, 0);
	gate_thread_started(E, 103, "Worker::start(int)::{lambda()#1}", false, 0);
	ck_assert_str_eq(take(),
		"bind 102 any_run\n"
		"open 102 @-1 started:any_run\n"
		"bind 102 run_int\n"
		"open 102 @-1 started:run_int\n");
	ck_assert_str_eq(gate_thread_label(E, 101), "Worker::run#1");
	/* a lambda's scope is no parameter list */
	ck_assert_str_eq(gate_thread_label(E, 103), "Worker::start(int)::{lambda()#1}#1");
	/* a name shorter than "operator" is read to its end, not past it */
	short_name = xstrdup("w");
	gate_thread_started(E, 104, short_name, false, 0);
	free(short_name);
	ck_assert_str_eq(gate_thread_label(E, 104), "w#1");
}
END_TEST

/* The caller's start_is hook decides what {start: want} picks. */
static bool lambda_line_is(void *ctx, const char *want, const char *start)
{
	(void)ctx;
	/* as the runner resolves FILE:LINE to what is defined there */
	return !strcmp(want, "q.cpp:42") ? !strcmp(start, "main::{lambda()#2}") :
	       !strcmp(want, start);
}

START_TEST(start_is_hook)
{
	gate_hooks h = {.ctx = &R, .note = rec_note, .start_is = lambda_line_is};
	spec_gate *g;

	S = tspec_new(8);
	talias(S, "popper", "q.cpp:42", NULL, 0);
	g = tgate(S, "q.cpp:50");
	tsel_alias(&g->thread, "popper");
	tlist(&g->open, "go", NULL);
	memset(&R, 0, sizeof(R));
	E = gate_engine_new(S, &h);
	R.e = E;

	gate_thread_started(E, 100, NULL, true, 0);
	gate_thread_started(E, 101, "main::{lambda()#1}", false, 0);
	gate_thread_started(E, 102, "main::{lambda()#2}", false, 0);
	ck_assert_str_eq(take(),
		"bind 102 popper\n"
		"open 102 @-1 started:popper\n");
}
END_TEST

/*
 * {runs: F}: the engine asks for F on the stack of a thread it does not
 * know to run F, only while an alias could still bind by it or a gate at
 * the location names it; found, the thread keeps it and binds.  Until
 * then no arrival may pass unseen.
 */
START_TEST(runs_binds_at_arrival)
{
	const char **want;
	spec_gate *g;
	size_t g0 = 0, g1 = 1, n;

	S = tspec_new(8);
	talias(S, "flusher", NULL, NULL, 0);
	S->aliases[0].sel.runs = xstrdup("flush");
	g = tgate(S, "w.c:10");           /* 0: the flusher waits for go */
	tsel_alias(&g->thread, "flusher");
	tlist(&g->wait, "go", NULL);
	g = tgate(S, "w.c:20");           /* 1: any thread that runs prune opens go */
	tsel_match(&g->thread, NULL, NULL, 0, 0);
	g->thread.runs = xstrdup("prune");
	tlist(&g->open, "go", NULL);
	start_engine();

	gate_thread_started(E, 100, NULL, true, 0);
	gate_thread_started(E, 101, "thread_main", false, 0);
	gate_thread_started(E, 102, "thread_main", false, 0);
	ck_assert_str_eq(take(), "");

	/* at gate 0: only the alias's function is asked for */
	n = gate_runs_wanted(E, 101, &g0, 1, &want);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(want[0], "flush");
	free(want);
	ck_assert_uint_eq(gate_next_interest(E, 101, &g0, 1), 0);
	/* at gate 1: its own as well */
	n = gate_runs_wanted(E, 101, &g1, 1, &want);
	ck_assert_uint_eq(n, 2);
	free(want);

	/* 101 is found running flush: bound for good, and held at gate 0 */
	gate_thread_runs(E, 101, "flush", 1);
	ck_assert(arrive1(101, 0, 1));
	ck_assert_str_eq(take(),
		"bind 101 flusher\n"
		"open 101 @-1 started:flusher\n"
		"arrive 101 @0\n"
		"hold 101 @0 waiting for go\n");
	ck_assert(!gate_alias_bound(E, "nobody"));
	ck_assert(gate_alias_bound(E, "flusher"));

	/* the alias bound: 102 is asked for prune at gate 1 only */
	ck_assert_uint_eq(gate_runs_wanted(E, 102, &g0, 1, &want), 0);
	ck_assert_ptr_null(want);
	/* not found: gate 1 does not select it */
	ck_assert(!arrive1(102, 1, 2));
	ck_assert_str_eq(take(), "");
	gate_thread_runs(E, 102, "prune", 3);
	ck_assert(!arrive1(102, 1, 3));
	ck_assert_str_eq(take(),
		"arrive 102 @1\n"
		"open 102 @1 go\n"
		"release 101 @0 2\n");
	/* known now: nothing more is asked of it */
	ck_assert_uint_eq(gate_runs_wanted(E, 102, &g1, 1, &want), 0);
}
END_TEST

/* ---- filters --------------------------------------------------------- */

/* hit: 2 is each thread's own second arrival, counted whether other filters match or not. */
START_TEST(hit_n)
{
	spec_gate *g;

	S = tspec_new(4);
	talias(S, "w1", "worker", NULL, 1);
	g = tgate(S, "loop.c:7");
	g->hit = 2;
	tlist(&g->wait, "go", NULL);
	g = tgate(S, "loop.c:7");
	g->hit = 3;
	tsel_alias(&g->thread, "w1");
	tlist(&g->open, "third", NULL);
	start_engine();

	gate_thread_started(E, 1, "worker", false, 0);
	gate_thread_started(E, 2, "worker", false, 0);
	take();
	ck_assert(!arrive2(1, 0, 1, 1));
	ck_assert(!arrive2(2, 0, 1, 2));
	ck_assert(arrive2(2, 0, 1, 3));   /* 2's second */
	ck_assert_str_eq(take(),
		"arrive 2 @0\n"
		"hold 2 @0 waiting for go\n");
	gate_release_all(E, 4);
	ck_assert(!arrive2(2, 0, 1, 5));  /* 2's third: not w1 */
	ck_assert(arrive2(1, 0, 1, 6));   /* 1's second */
	gate_release_all(E, 7);
	ck_assert(!arrive2(1, 0, 1, 8));  /* 1's third */
	ck_assert(!arrive2(1, 0, 1, 9));
	ck_assert_str_eq(take(),
		"release 2 @0 1\n"
		"arrive 1 @0\n"
		"hold 1 @0 waiting for go\n"
		"release 1 @0 1\n"
		"arrive 1 @1\n"
		"open 1 @1 third\n");
}
END_TEST

/*
 * The fast path's question (gate_next_interest): how many arrivals may pass
 * unnoted.  A thread filter that does not match: never; hit: N: N-1 minus
 * those counted; passes counted by gate_count_passes make the N-th arrival
 * the one gate_arrive notes; once: done: never; when: matching: every one.
 */
START_TEST(next_interest_hit_and_thread)
{
	spec_gate *g;
	size_t v[2] = {0, 1};

	S = tspec_new(4);
	talias(S, "w1", "worker", NULL, 1);
	g = tgate(S, "loop.c:7");
	g->hit = 5;
	tsel_alias(&g->thread, "w1");
	tlist(&g->open, "fifth", NULL);
	g = tgate(S, "loop.c:7");
	g->hit = 3;
	tsel_alias(&g->thread, "w1");
	start_engine();

	gate_thread_started(E, 1, "worker", false, 0);
	gate_thread_started(E, 2, "worker", false, 0);
	take();
	ck_assert_uint_eq(gate_next_interest(E, 9, v, 2), 0);   /* unknown thread */
	ck_assert_uint_eq(gate_next_interest(E, 1, v, 2), 2);   /* hit 3 is the first */
	ck_assert_uint_eq(gate_next_interest(E, 2, v, 2), GATE_PASS_FOREVER);
	gate_count_passes(E, 1, v, 2, 2);
	ck_assert_uint_eq(gate_next_interest(E, 1, v, 2), 0);
	ck_assert(!arrive2(1, 0, 1, 1));                       /* its third */
	ck_assert_str_eq(take(), "arrive 1 @1\n");
	ck_assert_uint_eq(gate_next_interest(E, 1, v, 2), 1);   /* 4th passes, 5th noted */
	gate_count_passes(E, 1, v, 2, 1);
	ck_assert(!arrive2(1, 0, 1, 2));
	ck_assert_str_eq(take(), "arrive 1 @0\nopen 1 @0 fifth\n");
	ck_assert_uint_eq(gate_next_interest(E, 1, v, 2), GATE_PASS_FOREVER);
	/* thread 2's passes count too, although nothing selects it */
	gate_count_passes(E, 2, v, 2, 7);
	ck_assert_uint_eq(gate_next_interest(E, 2, v, 2), GATE_PASS_FOREVER);
}
END_TEST

/*
 * A {start:, nth:} thread filter picks at a thread's creation: a thread it
 * did not pick never needs to trap, even before the picked one exists; an
 * alias bound by as:, or a {name:} filter, may still come to pick anyone.
 */
START_TEST(next_interest_fixed_selectors)
{
	spec_gate *g;
	size_t z = 0, o = 1, t = 2, n = 3;

	S = tspec_new(4);
	talias(S, "w2", "worker", NULL, 2);
	g = tgate(S, "a.c:1");                 /* 0: the 2nd worker, not there yet */
	tsel_alias(&g->thread, "w2");
	g = tgate(S, "a.c:2");                 /* 1: inline {start: worker, nth: 1} */
	tsel_match(&g->thread, "worker", NULL, 0, 1);
	g = tgate(S, "a.c:3");                 /* 2: {name: flusher} */
	tsel_match(&g->thread, NULL, "flusher", 0, 0);
	g = tgate(S, "a.c:4");                 /* 3: any thread but w2 */
	tsel_alias(&g->thread, "!w2");
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	gate_thread_started(E, 2, "worker", false, 0);
	take();
	ck_assert_uint_eq(gate_next_interest(E, 1, &z, 1), GATE_PASS_FOREVER);
	ck_assert_uint_eq(gate_next_interest(E, 2, &z, 1), GATE_PASS_FOREVER);
	ck_assert_uint_eq(gate_next_interest(E, 1, &o, 1), GATE_PASS_FOREVER);
	ck_assert_uint_eq(gate_next_interest(E, 2, &o, 1), 0);
	/* a name can be taken at any time */
	ck_assert_uint_eq(gate_next_interest(E, 1, &t, 1), 0);
	gate_thread_started(E, 3, "worker", false, 0);
	take();
	ck_assert_uint_eq(gate_next_interest(E, 3, &z, 1), 0);
	/* "!w2", w2 bound to 3: 3 never again, every other thread every time */
	ck_assert_uint_eq(gate_next_interest(E, 3, &n, 1), GATE_PASS_FOREVER);
	ck_assert_uint_eq(gate_next_interest(E, 2, &n, 1), 0);
}
END_TEST

START_TEST(next_interest_once_when_alias)
{
	spec_gate *g;
	size_t z = 0, o = 1, w = 2, h = 3;

	S = tspec_new(4);
	g = tgate(S, "a.c:1");                 /* 0: once, any thread */
	g->once = true;
	g = tgate(S, "a.c:2");                 /* 1: for an alias bound later */
	tsel_alias(&g->thread, "late");
	g = tgate(S, "a.c:3");                 /* 2: when:, thread main */
	g->thread.kind = SPEC_SEL_MAIN;
	g->when = xstrdup("$hit % 2 == 0");
	g = tgate(S, "a.c:4");                 /* 3: binds late */
	g->as = xstrdup("late");
	g->hit = 2;
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	gate_thread_started(E, 2, "worker", false, 0);
	take();
	ck_assert_uint_eq(gate_next_interest(E, 2, &z, 1), 0);
	ck_assert(!arrive1(2, 0, 1));
	ck_assert_uint_eq(gate_next_interest(E, 1, &z, 1), GATE_PASS_FOREVER);
	/* an alias not bound yet may come to name anyone: every arrival */
	ck_assert_uint_eq(gate_next_interest(E, 1, &o, 1), 0);
	ck_assert_uint_eq(gate_next_interest(E, 2, &o, 1), 0);
	/* when: is asked on every arrival its thread filter matches */
	ck_assert_uint_eq(gate_next_interest(E, 1, &w, 1), 0);
	ck_assert_uint_eq(gate_next_interest(E, 2, &w, 1), GATE_PASS_FOREVER);
	ck_assert_uint_eq(gate_next_interest(E, 2, &h, 1), 1);
	gate_count_passes(E, 2, &h, 1, 1);
	ck_assert(!arrive1(2, 3, 2));          /* binds late to 2 */
	take();
	ck_assert_uint_eq(gate_next_interest(E, 1, &o, 1), GATE_PASS_FOREVER);
	ck_assert_uint_eq(gate_next_interest(E, 2, &o, 1), 0);
	ck_assert_uint_eq(gate_next_interest(E, 2, &h, 1), GATE_PASS_FOREVER);
}
END_TEST

/*
 * gate_next_when: a when: gate without hit:, not done, selecting the thread,
 * may be left to a condition evaluated in the pad when every other gate at
 * the line passes the thread for ever; not with hit:, not for a thread it
 * does not select, not beside a gate with an interest of its own.
 */
START_TEST(next_when_alone)
{
	spec_gate *g;
	size_t one[1] = {0}, two[2] = {0, 1}, three[2] = {0, 2}, four[1] = {3}, w = 99;

	S = tspec_new(4);
	talias(S, "w1", "worker", NULL, 1);
	g = tgate(S, "a.c:1");                 /* 0: when:, any thread */
	g->when = xstrdup("x == 1");
	g = tgate(S, "a.c:1");                 /* 1: main only: passes workers for ever */
	g->thread.kind = SPEC_SEL_MAIN;
	g = tgate(S, "a.c:1");                 /* 2: hit: for w1 */
	g->hit = 4;
	tsel_alias(&g->thread, "w1");
	g = tgate(S, "a.c:2");                 /* 3: when: with hit: */
	g->when = xstrdup("x == 1");
	g->hit = 2;
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	gate_thread_started(E, 2, "worker", false, 0);
	take();
	ck_assert(!gate_next_when(E, 9, one, 1, &w));           /* unknown thread */
	ck_assert(gate_next_when(E, 2, one, 1, &w));
	ck_assert_uint_eq(w, 0);
	w = 99;
	ck_assert(gate_next_when(E, 2, two, 2, &w));            /* main's passes it */
	ck_assert_uint_eq(w, 0);
	ck_assert(!gate_next_when(E, 1, two, 2, &w));           /* main: gate 1 acts */
	ck_assert(!gate_next_when(E, 2, three, 2, &w));         /* w1's hit: counts too */
	ck_assert(!gate_next_when(E, 2, four, 1, &w));          /* hit: with when: */
	w = 99;
	ck_assert(gate_next_when(E, 1, three, 2, &w));          /* w1's hit: is not main's */
	ck_assert_uint_eq(w, 0);
}
END_TEST

/*
 * The fake condition: logs what it was asked, and is true on even passes,
 * or (gate text "$thread == first") when the thread is first.
 */
static bool rec_when(void *ctx, pid_t tid, size_t gate, unsigned long hit)
{
	struct rec *r = ctx;

	rg_buf_printf(&r->log, "when %d @%zu hit %lu\n", (int)tid, gate, hit);
	if (!strcmp(S->gates[gate].when, "$thread == first"))
		return gate_thread_is(r->e, tid, "first");
	return hit % 2 == 0;
}

static void start_engine_when(void)
{
	gate_hooks h = {.ctx = &R, .note = rec_note, .when = rec_when};

	memset(&R, 0, sizeof(R));
	E = gate_engine_new(S, &h);
	R.e = E;
}

/*
 * when: is asked last and lazily (after thread:, hit: and once: matched),
 * with this thread's pass count at the location even when no hit: is
 * given; a false condition leaves a once: gate live; an alias bound by an
 * earlier gate of the same arrival is seen by a later gate's condition.
 */
START_TEST(when_hook)
{
	spec_gate *g;

	S = tspec_new(8);
	talias(S, "w1", "worker", NULL, 1);
	g = tgate(S, "q.c:7");             /* 0: w1, even passes, once */
	tsel_alias(&g->thread, "w1");
	g->when = xstrdup("$hit % 2 == 0");
	g->once = true;
	tlist(&g->open, "even", NULL);
	g = tgate(S, "q.c:7");             /* 1: any thread's 3rd pass, if even: never */
	g->hit = 3;
	g->when = xstrdup("$hit % 2 == 0");
	g = tgate(S, "q.c:9");             /* 2: binds first */
	g->as = xstrdup("first");
	g = tgate(S, "q.c:9");             /* 3: $thread == first */
	g->when = xstrdup("$thread == first");
	tlist(&g->open, "first-here", NULL);
	start_engine_when();

	gate_thread_started(E, 1, "worker", false, 0);
	gate_thread_started(E, 2, "worker", false, 0);
	take();
	ck_assert(!arrive2(2, 0, 1, 1));   /* not w1: gate 0 never asks */
	ck_assert(!arrive2(1, 0, 1, 2));   /* pass 1: false */
	ck_assert_str_eq(take(), "when 1 @0 hit 1\n");
	ck_assert(gate_live(E, 0));
	ck_assert(!arrive2(1, 0, 1, 3));   /* pass 2: true, once */
	ck_assert(!arrive2(1, 0, 1, 4));   /* done: not asked; gate 1's hit 3 is */
	ck_assert(!arrive2(2, 0, 1, 5));
	ck_assert(!arrive2(2, 0, 1, 6));   /* 2's third pass */
	ck_assert_str_eq(take(),
		"when 1 @0 hit 2\n"
		"arrive 1 @0\n"
		"open 1 @0 even\n"
		"when 1 @1 hit 3\n"
		"when 2 @1 hit 3\n");
	ck_assert(!gate_live(E, 0));
	ck_assert(!arrive2(2, 2, 3, 7));   /* binds 2 as first, then asks */
	ck_assert(!arrive2(1, 2, 3, 8));
	ck_assert_str_eq(take(),
		"arrive 2 @2\n"
		"bind 2 first\n"
		"open 2 @-1 started:first\n"
		"when 2 @3 hit 1\n"
		"arrive 2 @3\n"
		"open 2 @3 first-here\n"
		"arrive 1 @2\n"
		"when 1 @3 hit 1\n");
	ck_assert(gate_thread_is(E, 2, "first"));
	ck_assert(!gate_thread_is(E, 1, "first"));
	ck_assert(!gate_thread_is(E, 1, "nobody"));
	ck_assert(!gate_thread_is(E, 99, "first"));
}
END_TEST

START_TEST(once_gate)
{
	spec_gate *g;

	S = tspec_new(4);
	g = tgate(S, "o.c:3");
	g->once = true;
	tlist(&g->wait, "go", NULL);
	g = tgate(S, "o.c:4");
	tlist(&g->open, "go", NULL);
	start_engine();

	ck_assert(gate_live(E, 0));
	ck_assert(arrive1(1, 0, 1));
	ck_assert(!gate_live(E, 0));
	ck_assert(!arrive1(2, 0, 2));     /* done: no ARRIVE, passes */
	ck_assert(arrive1(1, 1, 3));      /* 1 is stopped: it cannot arrive, stays held */
	ck_assert_str_eq(take(),
		"arrive 1 @0\n"
		"hold 1 @0 waiting for go\n");
	ck_assert(!arrive1(3, 1, 4));
	ck_assert_str_eq(take(),
		"arrive 3 @1\n"
		"open 3 @1 go\n"
		"release 1 @0 3\n");
}
END_TEST

/* as: in a pool of three identical workers: the first to arrive gets the alias. */
START_TEST(as_in_pool)
{
	spec_gate *g;

	S = tspec_new(4);
	g = tgate(S, "pool.c:5");
	g->as = xstrdup("first");
	g = tgate(S, "pool.c:5");
	tsel_alias(&g->thread, "first");
	tlist(&g->wait, "go", NULL);
	g = tgate(S, "pool.c:5");
	tsel_alias(&g->thread, "!first");
	tlist(&g->open, "other-here", NULL);
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	gate_thread_started(E, 2, "worker", false, 0);
	gate_thread_started(E, 3, "worker", false, 0);
	gate_thread_started(E, 4, "worker", false, 0);
	ck_assert_str_eq(take(), "");
	{
		size_t all[3] = {0, 1, 2};

		ck_assert(gate_arrive(E, 3, all, 3, 1));
		ck_assert(!gate_arrive(E, 2, all, 3, 2));
		ck_assert(!gate_arrive(E, 4, all, 3, 3));
	}
	ck_assert_str_eq(take(),
		"arrive 3 @0\n"
		"bind 3 first\n"
		"open 3 @-1 started:first\n"
		"arrive 3 @1\n"
		"hold 3 @1 waiting for go\n"
		"arrive 2 @0\n"
		"arrive 2 @2\n"
		"open 2 @2 other-here\n"
		"arrive 4 @0\n"
		"arrive 4 @2\n");
	ck_assert_str_eq(gate_thread_label(E, 3), "first");
	ck_assert_str_eq(gate_thread_label(E, 2), "worker#1");
	ck_assert(gate_event_open(E, "started:first"));
	ck_assert(!gate_live(E, 0) && gate_live(E, 1) && !gate_live(E, 2));
}
END_TEST

/* "!ALIAS" is any thread while ALIAS is unbound, any thread but its own after. */
START_TEST(not_alias)
{
	spec_gate *g;

	S = tspec_new(4);
	talias(S, "fl", NULL, "flusher", 0);
	g = tgate(S, "n.c:1");
	tsel_alias(&g->thread, "!fl");
	start_engine();

	gate_thread_started(E, 1, "a", false, 0);
	gate_thread_started(E, 2, "b", false, 0);
	ck_assert(!arrive1(2, 0, 1));
	gate_thread_named(E, 2, "flusher", 2);
	ck_assert(!arrive1(2, 0, 3));
	ck_assert(!arrive1(1, 0, 4));
	ck_assert_str_eq(take(),
		"arrive 2 @0\n"
		"bind 2 fl\n"
		"open 2 @-1 started:fl\n"
		"arrive 1 @0\n");
}
END_TEST

/* {start, nth} counts threads with that start routine, others interleaved. */
START_TEST(start_nth)
{
	spec_gate *g;

	S = tspec_new(4);
	g = tgate(S, "s.c:1");
	tsel_match(&g->thread, "worker", NULL, 0, 2);
	tlist(&g->open, "second", NULL);
	g = tgate(S, "s.c:1");
	tsel_match(&g->thread, "worker", NULL, 0, 0);
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	gate_thread_started(E, 2, "worker", false, 0);
	gate_thread_started(E, 3, "reader", false, 0);
	gate_thread_started(E, 4, "worker", false, 0);
	gate_thread_started(E, 5, "worker", false, 0);
	ck_assert(!arrive2(1, 0, 1, 1));
	ck_assert(!arrive2(2, 0, 1, 2));
	ck_assert(!arrive2(3, 0, 1, 3));
	ck_assert(!arrive2(5, 0, 1, 4));
	ck_assert(!arrive2(4, 0, 1, 5));
	ck_assert_str_eq(take(),
		"arrive 2 @1\n"
		"arrive 5 @1\n"
		"arrive 4 @0\n"
		"arrive 4 @1\n"
		"open 4 @0 second\n");
	ck_assert_str_eq(gate_thread_label(E, 4), "worker#2");
	ck_assert_str_eq(gate_thread_label(E, 3), "reader#1");
}
END_TEST

/* {name} binds when the thread gets its name, after it started; {name, nth} too. */
START_TEST(name_after_rename)
{
	spec_gate *g;

	S = tspec_new(4);
	talias(S, "flusher", NULL, "flusher", 0);
	talias(S, "io2", NULL, "io", 2);
	g = tgate(S, "f.c:1");
	tsel_alias(&g->thread, "flusher");
	tlist(&g->open, "flushed", NULL);
	g = tgate(S, "f.c:1");
	tsel_match(&g->thread, NULL, "io", 0, 1);
	tlist(&g->open, "io1", NULL);
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	gate_thread_started(E, 2, "run", false, 0);
	gate_thread_started(E, 3, "run", false, 0);
	gate_thread_started(E, 4, "run", false, 0);
	ck_assert(!arrive2(2, 0, 1, 1));
	ck_assert_str_eq(take(), "");
	gate_thread_named(E, 2, "flusher", 2);
	ck_assert_str_eq(gate_thread_label(E, 2), "flusher");
	ck_assert(!arrive2(2, 0, 1, 3));
	/* io: the younger thread is named first, then the older one slots in front */
	gate_thread_named(E, 4, "io", 4);
	ck_assert(!arrive2(4, 0, 1, 5));
	gate_thread_named(E, 3, "io", 6);
	ck_assert(!arrive2(3, 0, 1, 7));
	ck_assert_str_eq(take(),
		"bind 2 flusher\n"
		"open 2 @-1 started:flusher\n"
		"arrive 2 @0\n"
		"open 2 @0 flushed\n"
		"arrive 4 @1\n"
		"open 4 @1 io1\n"
		"bind 4 io2\n"
		"open 4 @-1 started:io2\n"
		"arrive 3 @1\n");
	/* renamed away: no longer {name: io} */
	gate_thread_named(E, 3, "idle", 8);
	ck_assert(!arrive2(4, 0, 1, 9));
	ck_assert_str_eq(take(), "arrive 4 @1\n");
}
END_TEST

/* started:ALIAS / exited:ALIAS open with the thread, and with as: at bind time. */
START_TEST(started_exited_events)
{
	spec_gate *g;

	S = tspec_new(4);
	talias(S, "w", "worker", NULL, 1);
	g = tgate(S, "main.c:9");
	tsel_alias(&g->thread, "main");
	tlist(&g->wait, "exited:w", "started:late", NULL);
	g = tgate(S, "x.c:1");
	g->as = xstrdup("late");
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	ck_assert(arrive1(1, 0, 1));
	ck_assert_str_eq(gate_hold_reason(E, 1, NULL), "waiting for exited:w, started:late");
	gate_thread_started(E, 2, "worker", false, 2);
	gate_thread_started(E, 3, "worker", false, 3);
	gate_thread_exited(E, 2, 4);
	ck_assert_str_eq(gate_hold_reason(E, 1, NULL), "waiting for started:late");
	ck_assert(!arrive1(3, 1, 5));
	ck_assert_str_eq(take(),
		"arrive 1 @0\n"
		"hold 1 @0 waiting for exited:w, started:late\n"
		"bind 2 w\n"
		"open 2 @-1 started:w\n"
		"open 2 @-1 exited:w\n"
		"arrive 3 @1\n"
		"bind 3 late\n"
		"open 3 @-1 started:late\n"
		"release 1 @0 4\n");
	ck_assert_str_eq(gate_thread_label(E, 2), "w");
}
END_TEST

/* exited:main and started:main need no alias; an alias of main stays its label. */
START_TEST(exited_main_builtin)
{
	spec_gate *g;

	S = tspec_new(4);
	talias(S, "boss", "main", NULL, 0);
	g = tgate(S, "w.c:3");
	tlist(&g->wait, "started:main", "exited:main", NULL);
	start_engine();

	gate_thread_started(E, 1, NULL, true, 0);
	gate_thread_started(E, 2, "worker", false, 1);
	ck_assert(arrive1(2, 0, 2));
	ck_assert_str_eq(gate_hold_reason(E, 2, NULL), "waiting for exited:main");
	gate_thread_exited(E, 1, 3);
	ck_assert_str_eq(take(),
		"bind 1 boss\n"
		"open 1 @-1 started:boss\n"
		"bind 1 main\n"
		"open 1 @-1 started:main\n"
		"arrive 2 @0\n"
		"hold 2 @0 waiting for exited:main\n"
		"open 1 @-1 exited:boss\n"
		"open 1 @-1 exited:main\n"
		"release 2 @0 1\n");
	ck_assert_str_eq(gate_thread_label(E, 1), "boss");
}
END_TEST

/* ---- barriers -------------------------------------------------------- */

START_TEST(named_barrier_two_gates)
{
	spec_gate *g;

	S = tspec_new(4);
	g = tgate(S, "a.c:1");
	g->barrier = 2;
	g->barrier_name = xstrdup("copy");
	g = tgate(S, "b.c:2");
	g->barrier = 2;
	g->barrier_name = xstrdup("copy");
	tlist(&g->then_open, "copied", NULL);
	start_engine();

	ck_assert(arrive1(1, 0, 1));
	ck_assert_str_eq(gate_hold_reason(E, 1, NULL), "at barrier 'copy' (1 of 2)");
	ck_assert(!arrive1(2, 1, 2));
	ck_assert_str_eq(take(),
		"arrive 1 @0\n"
		"hold 1 @0 at barrier 'copy' (1 of 2)\n"
		"arrive 2 @1\n"
		"release 1 @0 1\n");
	gate_passed(E, 1, 3);     /* gate 0 has no then_open: nothing pending */
	ck_assert_str_eq(take(), "");
	gate_passed(E, 2, 4);
	ck_assert_str_eq(take(), "open 2 @1 copied\n");
}
END_TEST

/* One-shot: the third thread passes; a barrier of 3 counts 1 of 3, 2 of 3. */
START_TEST(barrier_one_shot)
{
	spec_gate *g;

	S = tspec_new(4);
	g = tgate(S, "b.c:1");
	g->barrier = 2;
	g = tgate(S, "b.c:2");
	g->barrier = 3;
	start_engine();

	ck_assert(arrive1(1, 0, 1));
	ck_assert(!arrive1(2, 0, 2));
	ck_assert(!arrive1(3, 0, 3));
	ck_assert_str_eq(take(),
		"arrive 1 @0\n"
		"hold 1 @0 at barrier 'b.c:1' (1 of 2)\n"
		"arrive 2 @0\n"
		"release 1 @0 1\n"
		"arrive 3 @0 barrier 'b.c:1' already fired at +2.000 ms\n");
	ck_assert(arrive1(1, 1, 4));
	ck_assert(arrive1(2, 1, 5));
	ck_assert_str_eq(gate_hold_reason(E, 1, NULL), "at barrier 'b.c:2' (2 of 3)");
	ck_assert(!arrive1(3, 1, 6));
	ck_assert_str_eq(take(),
		"arrive 1 @1\n"
		"hold 1 @1 at barrier 'b.c:2' (1 of 3)\n"
		"arrive 2 @1\n"
		"hold 2 @1 at barrier 'b.c:2' (2 of 3)\n"
		"arrive 3 @1\n"
		"release 1 @1 2\n"
		"release 2 @1 1\n");
}
END_TEST

/* The "filters" and "barriers" groups, in check_gates' order. */
void gates_add_filters(Suite *s)
{
	TCase *tc = tcase_create("filters");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, hit_n);
	tcase_add_test(tc, next_interest_hit_and_thread);
	tcase_add_test(tc, next_interest_once_when_alias);
	tcase_add_test(tc, next_interest_fixed_selectors);
	tcase_add_test(tc, next_when_alone);
	tcase_add_test(tc, when_hook);
	tcase_add_test(tc, once_gate);
	tcase_add_test(tc, as_in_pool);
	tcase_add_test(tc, not_alias);
	tcase_add_test(tc, start_nth);
	tcase_add_test(tc, start_with_parameters);
	tcase_add_test(tc, start_is_hook);
	tcase_add_test(tc, runs_binds_at_arrival);
	tcase_add_test(tc, name_after_rename);
	tcase_add_test(tc, started_exited_events);
	tcase_add_test(tc, exited_main_builtin);
	suite_add_tcase(s, tc);

	tc = tcase_create("barriers");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, named_barrier_two_gates);
	tcase_add_test(tc, barrier_one_shot);
	suite_add_tcase(s, tc);
}
