/*
 * The gate engine as the session's decider (runner/run/decide_gates.c), driven
 * through its decider_ops by a fake session: no program, no tracer.  The
 * fake records what the decider asks of the session (releases, diagnoses),
 * and the tests compare the timeline the decider writes and the note it
 * adds when main exits first.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "decide_gates.h"
#include "diagnose.h"
#include "selectors.h"
#include "when.h"

/* ---- the fake session ------------------------------------------------ */

struct session {
	plan p;
	run_result res;
	run_opts o;
	double now;
	pid_t released[16];
	size_t nreleased;
	const plan_bp *at[16];    /* by tid (tids are small here) */
	int ndiagnose;
	bool stuck_unheld;        /* the stuck threads are none of the held ones */
};

void session_release(session *s, pid_t tid)
{
	ck_assert_uint_lt(s->nreleased, 16);
	s->released[s->nreleased++] = tid;
}

double session_now(const session *s) { return s->now; }
const plan_bp *session_thread_at(const session *s, pid_t tid)
{
	return tid >= 0 && tid < 16 ? s->at[tid] : NULL;
}
size_t session_threads(const session *s, pid_t **tids, const plan_bp ***at)
{
	(void)s;
	*tids = xcalloc(1, sizeof(**tids));
	*at = xcalloc(1, sizeof(**at));
	return 0;
}
bool session_ending(const session *s) { (void)s; return false; }
plan *session_plan(const session *s) { return (plan *)&s->p; }
tracer *session_tracer(const session *s) { (void)s; return NULL; }
uint64_t session_bias(const session *s) { (void)s; return 0; }
const run_bias *session_run_bias(const session *s)
{
	static const run_bias none = RUN_BIAS_INIT;

	(void)s;
	return &none;
}
run_result *session_result(const session *s) { return (run_result *)&s->res; }
bool session_stuck_held(const session *s) { return !s->stuck_unheld; }
/* one process: every thread is the program's */
bool session_thread_proc(const session *s, pid_t tid, session_proc *out)
{
	(void)s;
	(void)tid;
	(void)out;
	return false;
}
size_t session_nprocs(const session *s) { (void)s; return 1; }

/* What the decider needs of the rest of runner/, faked as well. */
void diagnose(const diag_input *in, run_result *res)
{
	(void)res;
	((struct session *)in->p)->ndiagnose++;   /* p is the fake's first member */
}
bool run_spec_uses_names(const spec *sp) { (void)sp; return false; }
/* selectors.h: start: as written (dwarf/'s rule), no runs: function anywhere */
bool plan_start_is(const plan *p, const char *want, const char *start)
{
	(void)p;
	return dwarfx_name_answers(start, want);
}
bool plan_runs_at(const plan *p, const run_bias *bt, const char *runs, uint64_t pc)
{
	(void)p; (void)bt; (void)runs; (void)pc;
	return false;
}
/* when.h: these specs have no when: conditions, so none is ever evaluated. */
struct when_run { int unused; };
when_run *when_new(session *s, const gate_engine *eng)
{
	(void)s;
	(void)eng;
	return xcalloc(1, sizeof(when_run));
}
void when_free(when_run *w) { free(w); }
void when_arrival(when_run *w) { (void)w; }
int when_eval(when_run *w, pid_t tid, size_t gate, rg_site site, unsigned long hit,
	      char **fault)
{
	(void)w; (void)tid; (void)gate; (void)site; (void)hit; (void)fault;
	ck_abort_msg("a condition was evaluated, but no gate has one");
	return 0;
}

/* ---- fixtures -------------------------------------------------------- */

static struct session S;
static spec *SP;
static gates_decider *G;
static plan_bp BP[5];
static size_t GATE_IX[5];

/*
 * Gates: 0 "w-write" (W waits for ready, then_open wrote), 1 "ready"
 * (main opens ready), 2 "w-done" and 3 "w-end" (W waits), 4 "o-end"
 * (another thread waits).  One site per gate.
 */
static const char YAML[] =
	"version: 1\n"
	"threads:\n"
	"  W: {start: writer}\n"
	"gates:\n"
	"  - {name: w-write, at: u.c:1, thread: W, wait: ready, then_open: wrote}\n"
	"  - {name: ready, at: u.c:2, thread: main, open: ready}\n"
	"  - {name: w-done, at: u.c:3, thread: W, wait: [ready, wrote]}\n"
	"  - {name: w-end, at: u.c:4, thread: W, wait: ready}\n"
	"  - {name: o-end, at: u.c:5, thread: {start: other}, wait: ready}\n";

static void setup(void)
{
	spec_diags d;
	size_t i;

	memset(&d, 0, sizeof(d));
	memset(&S, 0, sizeof(S));
	ck_assert_int_eq(spec_load_string(YAML, sizeof(YAML) - 1, "u.yaml", NULL,
					  &SP, &d), 0);
	spec_diags_release(&d);
	S.p.sp = SP;
	S.res.ngates = SP->ngates;
	for (i = 0; i < 5; i++) {
		GATE_IX[i] = i;
		BP[i].gates = &GATE_IX[i];
		BP[i].ngates = 1;
		BP[i].where = (char *)SP->gates[i].at;
	}
	G = gates_decider_new(&S, &S.o);
}

static void teardown(void)
{
	size_t i;

	gates_decider_free(G);
	for (i = 0; i < S.res.ntl; i++) {
		free(S.res.tl[i].who);
		free(S.res.tl[i].what);
		free(S.res.tl[i].event);
	}
	free(S.res.tl);
	free(S.res.note);
	free(S.res.gate_reached);
	free(S.res.gate_timed_out);
	free(S.res.when_false);
	free(S.res.when_faults);
	free(S.res.when_fault);
	spec_free(SP);
}

/* The decider's view of one arrival: tid at gate i, at time t. */
static enum decision arrive(pid_t tid, size_t i, double t)
{
	S.at[tid] = &BP[i];
	return gates_decider_ops.arrive(G, tid, &BP[i], t);
}

/* The timeline as "who what" lines. */
static char *timeline(void)
{
	rg_buf b = RG_BUF_INIT;
	size_t i;

	for (i = 0; i < S.res.ntl; i++)
		rg_buf_printf(&b, "%s %s\n", S.res.tl[i].who, S.res.tl[i].what);
	return rg_buf_detach(&b);
}

/* ---- tests ----------------------------------------------------------- */

/*
 * A hold, the open that ends it, the release the session is asked for,
 * and then_open after the session says the line was passed.
 */
START_TEST(hold_release_pass)
{
	const decider_ops *ops = &gates_decider_ops;
	char *tl;

	ops->thread_started(G, 1, NULL, true, 0);
	ops->thread_started(G, 2, "writer", false, 0.5);
	ck_assert_int_eq(arrive(2, 0, 1), DECIDE_HOLD);
	ck_assert(ops->is_held(G, 2));
	ck_assert_uint_eq(ops->nheld(G), 1);
	ck_assert_int_eq(arrive(1, 1, 3), DECIDE_PASS);
	ck_assert_uint_eq(S.nreleased, 1);
	ck_assert_int_eq(S.released[0], 2);
	ck_assert_uint_eq(ops->lines->pass_depth(G, 2), 1);
	ops->lines->passed(G, 2, false, 4);
	ck_assert_uint_eq(ops->lines->pass_depth(G, 2), 0);
	ck_assert_int_eq(arrive(2, 2, 5), DECIDE_PASS);
	tl = timeline();
	ck_assert_str_eq(tl,
		"W held: waiting for ready\n"
		"main opened ready\n"
		"W released after 2.000 ms\n"
		"W opened wrote\n"
		"W passed (ready already open since +3.000 ms, wrote since +4.000 ms)\n");
	free(tl);
	ck_assert_uint_eq(S.res.arrivals, 3);
}
END_TEST

/* Stuck with a thread held: a verdict (SCHEDULE-DEADLOCK), after a diagnosis. */
START_TEST(stuck_is_a_verdict)
{
	const decider_ops *ops = &gates_decider_ops;
	judge_verdict v;

	ops->thread_started(G, 1, NULL, true, 0);
	ops->thread_started(G, 2, "writer", false, 0);
	ck_assert_int_eq(arrive(2, 0, 1), DECIDE_HOLD);
	ck_assert(!ops->stuck(G, 200));
	gates_decider_finish(G, &S.res, &v);
	ck_assert(v.stuck && !v.deadlock && !v.infeasible);
	ck_assert(S.res.gate_reached[0] && !S.res.gate_reached[1]);
}
END_TEST

/* on_deadlock: release lets the held thread go, and the run goes on. */
START_TEST(stuck_release)
{
	const decider_ops *ops = &gates_decider_ops;
	judge_verdict v;

	S.o.on_deadlock = SPEC_ON_DEADLOCK_RELEASE;
	ops->thread_started(G, 1, NULL, true, 0);
	ops->thread_started(G, 2, "writer", false, 0);
	ck_assert_int_eq(arrive(2, 0, 1), DECIDE_HOLD);
	ck_assert(ops->stuck(G, 200));
	ck_assert_int_eq(S.ndiagnose, 1);
	ck_assert_uint_eq(S.nreleased, 1);
	gates_decider_finish(G, &S.res, &v);
	ck_assert(v.infeasible && !v.stuck);
}
END_TEST

/*
 * Two other threads deadlock on each other's mutex while W is held at a
 * gate, waiting for something a running thread may still do: the
 * program's own DEADLOCK, and W is not released as if its order were the
 * impossible one.
 */
START_TEST(stuck_without_the_held)
{
	const decider_ops *ops = &gates_decider_ops;
	judge_verdict v;

	S.o.on_deadlock = SPEC_ON_DEADLOCK_RELEASE;
	S.stuck_unheld = true;
	ops->thread_started(G, 1, NULL, true, 0);
	ops->thread_started(G, 2, "writer", false, 0);
	ck_assert_int_eq(arrive(2, 0, 1), DECIDE_HOLD);
	ck_assert(!ops->stuck(G, 200));
	ck_assert_uint_eq(S.nreleased, 0);
	gates_decider_finish(G, &S.res, &v);
	ck_assert(v.deadlock && !v.stuck && !v.infeasible);
}
END_TEST

/*
 * main exits while W, released from w-write, still runs: the note says so.
 * A thread that never got past a gate is not named; a run that met its
 * expectation gets no such note.
 */
START_TEST(main_exited_first)
{
	const decider_ops *ops = &gates_decider_ops;
	judge_verdict v;

	ops->thread_started(G, 1, NULL, true, 0);
	ops->thread_started(G, 2, "writer", false, 0);
	ops->thread_started(G, 3, "writer", false, 0);
	ck_assert_int_eq(arrive(2, 0, 1), DECIDE_HOLD);
	ck_assert_int_eq(arrive(1, 1, 2.25), DECIDE_PASS);
	ops->thread_exited(G, 1, 3);
	ops->thread_exited(G, 2, 4);
	ops->thread_exited(G, 3, 4);
	gates_decider_finish(G, &S.res, &v);
	S.res.exited = true;
	S.res.outcome = OUT_PASSED;
	S.res.note = xstrdup("exit 0");
	gates_decider_explain(G, &S.res);
	ck_assert_str_eq(S.res.note, "exit 0");
	S.res.outcome = OUT_NOT_ENFORCED;
	gates_decider_explain(G, &S.res);
	ck_assert_str_eq(S.res.note, "exit 0; main exited while 'W' (released from "
			 "gate 'w-write' at +2.250 ms, not yet at 'w-done' or 'w-end') was "
			 "still running");
}
END_TEST

/* W exited before main: main's exit explains nothing. */
START_TEST(main_exited_last)
{
	const decider_ops *ops = &gates_decider_ops;
	judge_verdict v;

	ops->thread_started(G, 1, NULL, true, 0);
	ops->thread_started(G, 2, "writer", false, 0);
	ck_assert_int_eq(arrive(2, 0, 1), DECIDE_HOLD);
	ck_assert_int_eq(arrive(1, 1, 2), DECIDE_PASS);
	ops->thread_exited(G, 2, 3);
	ops->thread_exited(G, 1, 4);
	gates_decider_finish(G, &S.res, &v);
	S.res.exited = true;
	S.res.outcome = OUT_NOT_ENFORCED;
	gates_decider_explain(G, &S.res);
	ck_assert_ptr_null(S.res.note);
}
END_TEST

/*
 * main exits (pthread_exit) while W runs, but W arrives at a gate after:
 * main's exit did not cut it short, although 'w-end' is never reached.
 */
START_TEST(main_exited_not_cut_short)
{
	const decider_ops *ops = &gates_decider_ops;
	judge_verdict v;

	ops->thread_started(G, 1, NULL, true, 0);
	ops->thread_started(G, 2, "writer", false, 0);
	ops->thread_started(G, 3, "other", false, 0);
	ck_assert_int_eq(arrive(2, 0, 1), DECIDE_HOLD);
	ck_assert_int_eq(arrive(1, 1, 2), DECIDE_PASS);
	ops->lines->passed(G, 2, false, 2.5);
	ops->thread_exited(G, 1, 3);
	ck_assert_int_eq(arrive(2, 2, 4), DECIDE_PASS);
	ops->thread_exited(G, 2, 5);
	ops->thread_exited(G, 3, 5);
	gates_decider_finish(G, &S.res, &v);
	S.res.exited = true;
	S.res.outcome = OUT_NOT_REPRODUCED;
	gates_decider_explain(G, &S.res);
	ck_assert_ptr_null(S.res.note);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("decide_gates");
	TCase *tc = tcase_create("decider");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, hold_release_pass);
	tcase_add_test(tc, stuck_is_a_verdict);
	tcase_add_test(tc, stuck_release);
	tcase_add_test(tc, stuck_without_the_held);
	tcase_add_test(tc, main_exited_first);
	tcase_add_test(tc, main_exited_last);
	tcase_add_test(tc, main_exited_not_cut_short);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
