/*
 * runner/ as a library: the judge's decision table over made-up run results,
 * plans built for a small program (tests/fixtures/runner), the machine
 * reports (JSON, JUnit XML, TAP, trace events) parsed back or compared
 * whole, and the command line's option parsing.  Nothing here traces a
 * program: tests/e2e does that through the racegate binary.
 */
#include <check.h>
#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "gates.h"
#include "json_read.h"
#include "runner.h"
#include "starts.h"

/* ---- helpers ----------------------------------------------------------- */

/* A spec from YAML text; the test fails on any error in it. */
static spec *load(const char *yaml)
{
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;
	size_t i;

	if (spec_load_string(yaml, strlen(yaml), "t.yaml", ".", &sp, &d) < 0) {
		for (i = 0; i < d.n; i++) {
			char *m = spec_diag_format(&d, i);
			fprintf(stderr, "%s\n", m);
			free(m);
		}
		ck_abort_msg("the test's spec does not load");
	}
	spec_diags_release(&d);
	return sp;
}

/* A run that ended by itself (sig: killed by it), every gate reached. */
static void res_init(run_result *r, const spec *sp, int exit_code, int sig)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->exited = true;
	r->exit_code = sig ? -1 : exit_code;
	r->term_signal = sig;
	r->ngates = sp->ngates;
	r->gate_reached = xcalloc(sp->ngates, sizeof(bool));
	r->gate_timed_out = xcalloc(sp->ngates, sizeof(bool));
	for (i = 0; i < sp->ngates; i++)
		r->gate_reached[i] = true;
}

static void res_unarmed(run_result *r, size_t gate, const char *why)
{
	if (!r->gate_unarmed)
		r->gate_unarmed = xcalloc(r->ngates, sizeof(char *));
	r->gate_unarmed[gate] = xstrdup(why);
	r->gate_reached[gate] = false;
}

#define ck_judged(r, want, text) do {                                        \
	ck_assert_str_eq(run_outcome_name((r)->outcome), run_outcome_name(want)); \
	if (text)                                                            \
		ck_assert_str_eq((r)->note ? (r)->note : "(none)",           \
				 (const char *)(text));                      \
} while (0)

/* Everything written to fd 2 between cap_begin and cap_end. */
struct cap {
	FILE *f;
	int saved;
};

static void cap_begin(struct cap *c)
{
	fflush(stderr);
	c->f = tmpfile();
	ck_assert_ptr_nonnull(c->f);
	c->saved = dup(STDERR_FILENO);
	dup2(fileno(c->f), STDERR_FILENO);
}

static char *slurp(FILE *f)
{
	rg_buf b = RG_BUF_INIT;
	char chunk[4096];
	size_t n;

	rewind(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		rg_buf_add(&b, chunk, n);
	return rg_buf_detach(&b);
}

static char *cap_end(struct cap *c)
{
	char *s;

	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	s = slurp(c->f);
	fclose(c->f);
	return s;
}

static char *read_path(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;

	ck_assert_msg(f != NULL, "cannot read '%s'", path);
	s = slurp(f);
	fclose(f);
	return s;
}

/* ---- the judge -------------------------------------------------------- */

static const char repro_yaml[] =
	"version: 1\n"
	"command: [./prog]\n"
	"gates:\n"
	"  - {name: g1, at: \"a.c:1\", open: e}\n"
	"  - {name: g2, at: \"a.c:2\", wait: e, optional: true}\n"
	"expect: {exit: 1}\n";

static const char regress_yaml[] =
	"version: 1\n"
	"command: [./prog]\n"
	"gates:\n"
	"  - {name: g1, at: \"a.c:1\", open: e}\n"
	"  - {name: g2, at: \"a.c:2\", wait: e}\n";

START_TEST(judge_repro_table)
{
	spec *sp = load(repro_yaml);
	run_result r;

	/* the expected bug, every gate held */
	res_init(&r, sp, 1, 0);
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_REPRODUCED, "exit 1");
	run_result_release(&r);

	/* no bug, gates held */
	res_init(&r, sp, 0, 0);
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_NOT_REPRODUCED, "expected exit 1, got exit 0");
	run_result_release(&r);

	/* the bug although a gate was never reached: still the bug */
	res_init(&r, sp, 1, 0);
	r.gate_reached[0] = false;
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_REPRODUCED, "reproduced although 'g1' (a.c:1) was never "
		  "reached; exit 1");
	run_result_release(&r);

	/* no bug and a gate never reached: the order did not take hold */
	res_init(&r, sp, 0, 0);
	r.gate_reached[0] = false;
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_NOT_ENFORCED, "the order did not take hold: 'g1' (a.c:1) "
		  "was never reached");
	run_result_release(&r);

	/* an optional gate never reached does not count */
	res_init(&r, sp, 0, 0);
	r.gate_reached[1] = false;
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_NOT_REPRODUCED, "expected exit 1, got exit 0");
	run_result_release(&r);

	/* an unarmed gate that counts: the bug showed, not in the gated order */
	res_init(&r, sp, 1, 0);
	res_unarmed(&r, 0, "is in 'libx.so', which never loaded");
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_NOT_ENFORCED, "the order did not take hold: 'g1' (a.c:1) "
		  "is in 'libx.so', which never loaded; what was expected "
		  "happened (exit 1), but not in the gated order");
	run_result_release(&r);

	/* an unarmed optional gate does not */
	res_init(&r, sp, 1, 0);
	res_unarmed(&r, 1, "is in 'libx.so', which never loaded");
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_REPRODUCED, "exit 1");
	run_result_release(&r);

	/* a gate that let its thread go by its timeout */
	res_init(&r, sp, 0, 0);
	r.gate_timed_out[0] = true;
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_NOT_ENFORCED, "the order did not take hold: 'g1' let a "
		  "thread go by its timeout");
	run_result_release(&r);
	spec_free(sp);
}
END_TEST

START_TEST(judge_regression_table)
{
	spec *sp = load(regress_yaml);
	run_result r;

	res_init(&r, sp, 0, 0);
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_PASSED, "exit 0");
	run_result_release(&r);

	res_init(&r, sp, 3, 0);
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_FAILED, "expected exit 0, got exit 3");
	run_result_release(&r);

	res_init(&r, sp, 0, SIGSEGV);
	r.core_dumped = true;
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_FAILED, "expected exit 0, got killed by SIGSEGV "
		  "(Segmentation fault), core dumped");
	run_result_release(&r);

	/* a regression spec whose gate stopped firing must not pass */
	res_init(&r, sp, 0, 0);
	r.gate_reached[1] = false;
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_NOT_ENFORCED, "the order did not take hold: 'g2' (a.c:2) "
		  "was never reached");
	run_result_release(&r);
	spec_free(sp);
}
END_TEST

START_TEST(judge_signal_and_output)
{
	spec *sp = load("version: 1\ncommand: [./p]\n"
			"gates: [{at: \"a.c:1\", open: e}, {at: \"a.c:2\", wait: e}]\n"
			"expect: {signal: SIGSEGV}\n");
	spec *re = load("version: 1\ncommand: [./p]\n"
			"gates: [{at: \"a.c:1\"}]\n"
			"expect: {exit: 1, stdout: \"/^counter = 1$/\", stderr: lost}\n");
	run_result r;

	res_init(&r, sp, 0, SIGSEGV);
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_REPRODUCED, "killed by SIGSEGV (Segmentation fault)");
	run_result_release(&r);

	res_init(&r, sp, 0, 0);
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_NOT_REPRODUCED, "expected SIGSEGV, got exit 0");
	run_result_release(&r);

	ck_assert(judge_needs_output(re));
	ck_assert(!judge_needs_output(sp));

	/* the regex sees lines (REG_NEWLINE); stderr is a substring */
	res_init(&r, re, 1, 0);
	rg_buf_puts(&r.out, "start\ncounter = 1\nend\n");
	rg_buf_puts(&r.err, "an update was lost\n");
	judge_run(re, &r, false, false, false);
	ck_judged(&r, OUT_REPRODUCED, "exit 1");
	run_result_release(&r);

	res_init(&r, re, 1, 0);
	rg_buf_puts(&r.out, "counter = 11\n");
	judge_run(re, &r, false, false, false);
	ck_judged(&r, OUT_NOT_REPRODUCED, "stdout does not match '^counter = 1$'; "
		  "stderr does not contain 'lost'");
	run_result_release(&r);
	spec_free(sp);
	spec_free(re);
}
END_TEST

/* multiline: true: the regex sees the whole output; without it, lines. */
START_TEST(judge_multiline)
{
	spec *ml = load("version: 1\ncommand: [./p]\n"
			"gates: [{at: \"a.c:1\"}]\n"
			"expect: {exit: 1, multiline: true, stdout: \"/DELETED.*VALUE k/\"}\n");
	spec *one = load("version: 1\ncommand: [./p]\n"
			 "gates: [{at: \"a.c:1\"}]\n"
			 "expect: {exit: 1, stdout: \"/DELETED.*VALUE k/\"}\n");
	spec *anch = load("version: 1\ncommand: [./p]\n"
			  "gates: [{at: \"a.c:1\"}]\n"
			  "expect: {exit: 1, multiline: true, stdout: \"/^GET.*k$/\"}\n");
	const char *out = "DEL k -> DELETED\nINCR k 1 -> 42\nGET k -> VALUE k 42\n";
	run_result r;

	res_init(&r, ml, 1, 0);
	rg_buf_puts(&r.out, out);
	judge_run(ml, &r, false, false, false);
	ck_judged(&r, OUT_REPRODUCED, "exit 1");
	run_result_release(&r);

	/* line by line, '.' never crosses the newline */
	res_init(&r, one, 1, 0);
	rg_buf_puts(&r.out, out);
	judge_run(one, &r, false, false, false);
	ck_judged(&r, OUT_NOT_REPRODUCED, "stdout does not match 'DELETED.*VALUE k'");
	run_result_release(&r);

	/* the order counts: the key before DELETED is no match */
	res_init(&r, ml, 1, 0);
	rg_buf_puts(&r.out, "GET k -> VALUE k 41\nDEL k -> DELETED\n");
	judge_run(ml, &r, false, false, false);
	ck_judged(&r, OUT_NOT_REPRODUCED, "stdout does not match 'DELETED.*VALUE k'");
	run_result_release(&r);

	/* ^ and $ are the whole output's ends */
	res_init(&r, anch, 1, 0);
	rg_buf_puts(&r.out, "GET k\n");
	judge_run(anch, &r, false, false, false);
	ck_judged(&r, OUT_NOT_REPRODUCED, "stdout does not match '^GET.*k$'");
	run_result_release(&r);
	res_init(&r, anch, 1, 0);
	rg_buf_puts(&r.out, "GET k");
	judge_run(anch, &r, false, false, false);
	ck_judged(&r, OUT_REPRODUCED, "exit 1");
	run_result_release(&r);
	spec_free(ml);
	spec_free(one);
	spec_free(anch);
}
END_TEST

START_TEST(judge_deadlocks_and_ends)
{
	spec *dl = load("version: 1\ncommand: [./p]\n"
			"gates: [{name: g1, at: \"a.c:1\"}]\n"
			"expect: {deadlock: true}\n");
	spec *sp = load(repro_yaml);
	spec *rg = load(regress_yaml);
	run_result r;

	/* the program's own deadlock, as expected */
	res_init(&r, dl, 0, 0);
	r.exited = false;
	r.outcome = OUT_DEADLOCK;
	judge_run(dl, &r, false, false, false);
	ck_judged(&r, OUT_REPRODUCED, "the program deadlocked, as expected");
	run_result_release(&r);

	/* expected, but the gate that orders it never armed */
	res_init(&r, dl, 0, 0);
	r.outcome = OUT_DEADLOCK;
	res_unarmed(&r, 0, "is in 'libx.so', which never loaded");
	judge_run(dl, &r, false, false, false);
	ck_judged(&r, OUT_NOT_ENFORCED, "the order did not take hold: 'g1' (a.c:1) "
		  "is in 'libx.so', which never loaded; the program deadlocked, "
		  "as expected, but not in the gated order");
	run_result_release(&r);

	/* not expected */
	res_init(&r, sp, 0, 0);
	r.outcome = OUT_DEADLOCK;
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_DEADLOCK, "the program deadlocked by itself: its blocked "
		  "threads wait only on each other");
	run_result_release(&r);

	/* expected a deadlock, the program ended */
	res_init(&r, dl, 0, 0);
	judge_run(dl, &r, false, false, false);
	ck_judged(&r, OUT_NOT_REPRODUCED, "expected a deadlock, got exit 0");
	run_result_release(&r);

	/* held for ever by the gates */
	res_init(&r, sp, 0, 0);
	judge_run(sp, &r, true, false, false);
	ck_judged(&r, OUT_SCHEDULE_DEADLOCK, NULL);
	run_result_release(&r);

	/* on_deadlock: release, then judged by expect */
	res_init(&r, sp, 0, 0);
	judge_run(sp, &r, false, true, false);
	ck_judged(&r, OUT_ORDER_INFEASIBLE, "the gated order could not happen: the "
		  "held threads waited only on threads that waited on them, so they "
		  "were released (on_deadlock: release); the program then "
		  "ended with expected exit 1, got exit 0");
	run_result_release(&r);
	res_init(&r, sp, 1, 0);
	judge_run(sp, &r, false, true, false);   /* the bug showed anyway */
	ck_judged(&r, OUT_REPRODUCED, "exit 1");
	run_result_release(&r);
	res_init(&r, rg, 0, 0);
	judge_run(rg, &r, false, true, false);
	ck_judged(&r, OUT_ORDER_INFEASIBLE, NULL);
	ck_assert_ptr_nonnull(strstr(r.note, "the program then ended with exit 0"));
	run_result_release(&r);
	res_init(&r, rg, 2, 0);
	judge_run(rg, &r, false, true, false);
	ck_judged(&r, OUT_FAILED, NULL);
	run_result_release(&r);

	/* the whole-run timeout wins over what the program showed */
	res_init(&r, sp, 1, 0);
	r.note = xstrdup("killed");
	judge_run(sp, &r, false, false, true);
	ck_judged(&r, OUT_TIMEOUT, "killed; the run did not end within its timeout");
	run_result_release(&r);

	/* interrupted and error runs keep what run.c said */
	res_init(&r, sp, 1, 0);
	r.outcome = OUT_INTERRUPTED;
	r.note = xstrdup("racegate got SIGINT");
	judge_run(sp, &r, true, true, true);
	ck_judged(&r, OUT_INTERRUPTED, "racegate got SIGINT");
	run_result_release(&r);
	res_init(&r, sp, 1, 0);
	r.outcome = OUT_ERROR;
	judge_run(sp, &r, false, false, false);
	ck_judged(&r, OUT_ERROR, "(none)");
	run_result_release(&r);
	spec_free(dl);
	spec_free(sp);
	spec_free(rg);
}
END_TEST

START_TEST(outcome_exit_status)
{
	static const struct { enum run_outcome o; const char *name; int exit; } t[] = {
		{OUT_REPRODUCED, "REPRODUCED", 0},
		{OUT_PASSED, "PASSED", 0},
		{OUT_NOT_REPRODUCED, "NOT-REPRODUCED", 1},
		{OUT_FAILED, "FAILED", 1},
		{OUT_DEADLOCK, "DEADLOCK", 3},
		{OUT_SCHEDULE_DEADLOCK, "SCHEDULE-DEADLOCK", 3},
		{OUT_ORDER_INFEASIBLE, "ORDER-INFEASIBLE", 0},
		{OUT_NOT_ENFORCED, "NOT-ENFORCED", 3},
		{OUT_TIMEOUT, "TIMEOUT", 3},
		{OUT_INTERRUPTED, "INTERRUPTED", 3},
		{OUT_ENFORCED, "ENFORCED", 0},
		{OUT_ERROR, "ERROR", 2},
	};
	size_t i;

	ck_assert_uint_eq(sizeof(t) / sizeof(t[0]), OUT_ERROR + 1);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_str_eq(run_outcome_name(t[i].o), t[i].name);
		ck_assert_int_eq(run_outcome_exit(t[i].o), t[i].exit);
	}
}
END_TEST

/* ---- plans ------------------------------------------------------------ */

/* The line of the fixture's source that carries marker "@name". */
static int marker_line(const char *name)
{
	char *src = read_path(RFX_SRC), *p, *mark = xasprintf("@%s", name);
	int line = 1;

	ck_assert_ptr_nonnull(strstr(src, mark));
	for (p = src; p < strstr(src, mark); p++)
		line += *p == '\n';
	free(mark);
	free(src);
	return line;
}

/* The link-time addresses dwarf/ gives for a location. */
static size_t resolve(dwarfx *dx, const char *at, uint64_t *addrs, size_t max)
{
	dwarfx_loc *locs = NULL;
	size_t n = 0, i;
	rg_err err = RG_ERR_INIT;

	ck_assert_msg(dwarfx_resolve(dx, at, &locs, &n, NULL, &err) == DWARFX_OK, "%s", err.msg);
	for (i = 0; i < n && i < max; i++)
		addrs[i] = locs[i].addr;
	free(locs);
	return n;
}

START_TEST(plan_gates_to_breakpoints)
{
	int ln_load = marker_line("load"), ln_store = marker_line("store");
	char *yaml = xasprintf(
		"version: 1\n"
		"command: [\"%s\", arg1]\n"
		"gates:\n"
		"  - {name: a, at: \"plan_prog.c:%d\", open: x}\n"
		"  - {name: b, at: \"*worker\"}\n"
		"  - {name: c, at: \"plan_prog.c:%d\", wait: x}\n"
		"  - {name: d, at: \"plan_prog.c:%d\"}\n",
		RFX_PROG, ln_load, ln_store, ln_load);
	spec *sp = load(yaml);
	spec_diags d = SPEC_DIAGS_INIT;
	rg_err err = RG_ERR_INIT;
	plan p;
	uint64_t a_load[4], a_store[4], a_entry[4];
	const plan_bp *bp;
	char *where;
	size_t i;

	memset(&p, 0, sizeof(p));
	ck_assert_msg(plan_build(&p, sp, NULL, &d, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(d.nerrors, 0);
	ck_assert_str_eq(p.exe, RFX_PROG);
	ck_assert_str_eq(p.argv[0], RFX_PROG);
	ck_assert_str_eq(p.argv[1], "arg1");
	ck_assert_ptr_null(p.argv[2]);

	ck_assert_uint_eq(resolve(p.dx, sp->gates[0].at, a_load, 4), 1);
	ck_assert_uint_eq(resolve(p.dx, sp->gates[2].at, a_store, 4), 1);
	ck_assert_uint_eq(resolve(p.dx, "*worker", a_entry, 4), 1);
	ck_assert_uint_eq(p.nbps, 3);
	for (i = 1; i < p.nbps; i++)
		ck_assert(p.bps[i - 1].site.link_addr < p.bps[i].site.link_addr);

	/* a and d share a line: one breakpoint, gates in file order */
	bp = plan_find(&p, a_load[0]);
	ck_assert_ptr_nonnull(bp);
	ck_assert_uint_eq(bp->ngates, 2);
	ck_assert_uint_eq(bp->gates[0], 0);
	ck_assert_uint_eq(bp->gates[1], 3);
	where = xasprintf("plan_prog.c:%d", ln_load);
	ck_assert_str_eq(bp->where, where);
	free(where);
	ck_assert_str_eq(bp->function, "worker");

	bp = plan_find(&p, a_store[0]);
	ck_assert_ptr_nonnull(bp);
	ck_assert_uint_eq(bp->ngates, 1);
	ck_assert_uint_eq(bp->gates[0], 2);

	bp = plan_find(&p, a_entry[0]);
	ck_assert_ptr_nonnull(bp);
	ck_assert_uint_eq(bp->ngates, 1);
	ck_assert_uint_eq(bp->gates[0], 1);
	ck_assert(a_entry[0] < a_load[0]);

	ck_assert_ptr_null(plan_find(&p, a_store[0] + 1));
	plan_release(&p);
	spec_diags_release(&d);
	spec_free(sp);
	free(yaml);
}
END_TEST

/* The diagnostic of d at pos (of severity sev, or any when -1), formatted, or NULL. */
static char *diag_at(const spec_diags *d, spec_pos pos, int sev)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].pos.line == pos.line && d->v[i].pos.col == pos.col &&
		    (sev < 0 || (int)d->v[i].severity == sev))
			return spec_diag_format(d, i);
	return NULL;
}

START_TEST(plan_errors_at_gate_positions)
{
	int ln_load = marker_line("load");
	char *yaml = xasprintf(
		"version: 1\n"
		"command: [\"%s\"]\n"
		"threads:\n"
		"  w: {start: wroker}\n"
		"gates:\n"
		"  - {name: fine, at: \"plan_prog.c:%d\", thread: w}\n"
		"  - {name: nowhere, at: \"plan_prog.c:2\"}\n"
		"  - {name: cond, at: \"plan_prog.c:%d\", when: \"1 + nosuch > 0\"}\n"
		"  - {name: typo, at: \"wroker\"}\n",
		RFX_PROG, ln_load, ln_load);
	spec *sp = load(yaml);
	spec_diags d = SPEC_DIAGS_INIT;
	rg_err err = RG_ERR_INIT;
	plan p;
	char *m;

	d.file = xstrdup("t.yaml");
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(plan_build(&p, sp, NULL, &d, &err), -1);
	ck_assert_uint_ge(d.nerrors, 2);

	/* a line without code: an error at the gate's at:, on line 7 */
	ck_assert_int_eq(sp->gates[1].at_pos.line, 7);
	m = diag_at(&d, sp->gates[1].at_pos, SPEC_ERROR);
	ck_assert_msg(m != NULL, "no error at the at: of gate 'nowhere'");
	ck_assert_msg(strstr(m, "t.yaml:7:") == m && strstr(m, "plan_prog.c:2"),
		      "%s", m);
	free(m);

	/* a condition naming what is not there: at the name, inside the text */
	ck_assert_int_eq(spec_when_pos(&sp->gates[2], 4).col,
			 sp->gates[2].when_pos.col + 1 + 4);
	m = diag_at(&d, spec_when_pos(&sp->gates[2], 4), SPEC_ERROR);
	ck_assert_msg(m != NULL, "no error at the when: of gate 'cond'");
	ck_assert_msg(strstr(m, "'nosuch' is not visible at plan_prog.c:") != NULL,
		      "%s", m);
	free(m);

	/* a misspelt function, with a suggestion (an error, or a warning while
	 * a library loaded later may have it) */
	m = diag_at(&d, sp->gates[3].at_pos, -1);
	ck_assert_msg(m != NULL, "no error at the at: of gate 'typo'");
	ck_assert_msg(strstr(m, "'worker'") != NULL, "%s", m);
	free(m);

	/* {start: wroker}: an error at the selector, with a suggestion and the
	 * program's start routines */
	m = diag_at(&d, sp->aliases[0].sel.pos, SPEC_ERROR);
	ck_assert_msg(m != NULL, "no error at {start: wroker}");
	ck_assert_msg(strstr(m, "{start: wroker} matches no thread") &&
		      strstr(m, "(did you mean 'worker'?)") &&
		      strstr(m, "start in: worker (plan_prog.c:"), "%s", m);
	free(m);

	plan_release(&p);
	spec_diags_release(&d);
	spec_free(sp);
	free(yaml);
}
END_TEST

START_TEST(plan_without_program)
{
	spec *sp = load("version: 1\ngates: [{at: \"a.c:1\"}]\n");
	spec *gone = load("version: 1\ncommand: [/nonexistent/prog]\n"
			  "gates: [{at: \"a.c:1\"}]\n");
	spec_diags d = SPEC_DIAGS_INIT;
	rg_err err = RG_ERR_INIT;
	plan p;

	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(plan_build(&p, sp, NULL, &d, &err), -1);
	ck_assert_str_eq(err.msg, "no program to run: give 'command:' in 't.yaml' "
			 "or '-- PROGRAM ARGS' on the command line");
	plan_release(&p);
	ck_assert_int_eq(plan_build(&p, gone, NULL, &d, &err), -1);
	ck_assert_str_eq(err.msg, "cannot run '/nonexistent/prog': no such file");
	plan_release(&p);
	ck_assert_uint_eq(d.n, 0);
	spec_free(sp);
	spec_free(gone);
}
END_TEST

/* ---- JSON, for the reports ------------------------------------------- */

/* The whole text is one JSON value. */
static void jload(const char *text, jv *v)
{
	const char *end = jparse(text, v, 0);

	ck_assert_msg(end != NULL, "not JSON: %s", text);
	ck_assert_msg(*jspace(end) == '\0', "text after the JSON value: %s", end);
}

static const jv *jget(const jv *o, const char *key)
{
	size_t i;

	ck_assert_int_eq(o->t, J_OBJ);
	for (i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return &o->kids[i];
	ck_abort_msg("no key '%s'", key);
	return NULL;
}

/* o's keys are exactly keys (NULL-terminated), in this order. */
static void jkeys(const jv *o, const char *const *keys)
{
	size_t i;

	ck_assert_int_eq(o->t, J_OBJ);
	for (i = 0; keys[i]; i++) {
		ck_assert_msg(i < o->n, "key '%s' missing", keys[i]);
		ck_assert_str_eq(o->keys[i], keys[i]);
	}
	ck_assert_uint_eq(o->n, i);
}

/* ---- reports ---------------------------------------------------------- */

static const char report_yaml[] =
	"version: 1\n"
	"name: lost update\n"
	"command: [./prog]\n"
	"gates:\n"
	"  - {name: w1-loaded, at: \"c.c:12\", wait: w2-stored}\n"
	"  - {name: w2-stored, at: \"c.c:14\", then_open: w2-stored}\n"
	"expect: {exit: 1, stdout: \"counter = 1\"}\n";

static void tl_add(run_result *r, double t, pid_t tid, const char *who, int kind,
		   int gate, const char *what, const char *event, double held)
{
	tl_entry *e;

	RG_GROW(r->tl, r->ntl + 1, r->captl);
	e = &r->tl[r->ntl++];
	memset(e, 0, sizeof(*e));
	e->t_ms = t;
	e->tid = tid;
	e->who = xstrdup(who);
	e->where = gate == 0 ? "c.c:12" : "c.c:14";
	e->gate = gate == 0 ? "w1-loaded" : "w2-stored";
	e->what = xstrdup(what);
	e->kind = kind;
	e->gate_index = gate;
	e->event = event ? xstrdup(event) : NULL;
	e->held_ms = held;
}

/* Two runs: run 1 reproduced (with a timeline), run 2 not, odd output. */
struct fixture {
	spec *sp;
	plan p;
	run_record runs[2];
	batch_opts bo;
	report_ctx rc;
};

static void fixture_init(struct fixture *f)
{
	static char *argv[] = {"/bin/prog", "-n", "2", NULL};
	run_result *r;

	memset(f, 0, sizeof(*f));
	f->sp = load(report_yaml);
	f->p.sp = f->sp;
	f->p.exe = "/bin/prog";
	f->p.argv = argv;
	f->bo.repeat = 2;
	f->bo.jobs = 1;

	r = &f->runs[0].r;
	res_init(r, f->sp, 1, 0);
	r->outcome = OUT_REPRODUCED;
	r->elapsed_ms = 20.25;
	r->note = xstrdup("exit 1");
	rg_buf_puts(&r->out, "counter = 1\n");
	tl_add(r, 1.0, 101, "w1", GATE_NOTE_HOLD, 0, "held: waiting for w2-stored",
	       NULL, 0);
	tl_add(r, 2.0, 102, "w2", GATE_NOTE_ARRIVE, 1, "passed", NULL, 0);
	tl_add(r, 3.0, 102, "w2", GATE_NOTE_OPEN, 1, "opened w2-stored", "w2-stored", 0);
	tl_add(r, 3.0, 101, "w1", GATE_NOTE_RELEASE, 0, "released", NULL, 2.0);
	r->arrivals = 2;
	r->bp_hits = 2;
	f->runs[0].no = 1;
	f->runs[0].ok = true;
	f->runs[0].tap_point = 1;

	r = &f->runs[1].r;
	res_init(r, f->sp, 0, 0);
	r->outcome = OUT_NOT_REPRODUCED;
	r->elapsed_ms = 12.5;
	r->gate_reached[1] = false;
	r->note = xstrdup("expected exit 1, got exit 0; stdout does not contain "
			  "'counter = 1'");
	rg_buf_puts(&r->out, "counter = 2\n");
	rg_buf_add(&r->err, "<&> \x01\xff\"q\"\n", 10);
	f->runs[1].no = 2;
	f->runs[1].start_ms = 21.0;
	f->runs[1].tap_point = 2;

	f->rc.sp = f->sp;
	f->rc.p = &f->p;
	f->rc.runs = f->runs;
	f->rc.nruns = 2;
	f->rc.bo = &f->bo;
	f->rc.status = RG_EXIT_UNMET;
	f->rc.elapsed_ms = 40.0;
	f->rc.started_unix_ms = 1700000000000LL;
}

static void fixture_release(struct fixture *f)
{
	run_result_release(&f->runs[0].r);
	run_result_release(&f->runs[1].r);
	spec_free(f->sp);
}

/* The reports' strings outlive the run results: here they are the test's. */
static const char *intern_same(void *ctx, const char *str)
{
	static const char *const known[] = {"c.c:12", "c.c:14", "w1-loaded",
					    "w2-stored"};
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i], str))
			return known[i];
	return "?";
}

static char *tmp_path(void)
{
	char *path = xstrdup("/tmp/check_runner_XXXXXX");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	return path;
}

/* The reader the report tests rest on refuses what is not JSON. */
START_TEST(json_reader_refuses)
{
	static const char *const bad[] = {"{\"a\":1,}", "[1 2]", "\"\x01\"", "nan",
		"{a: 1}", "[\"\\x\"]", "\"open", "{\"a\" 1}"};
	static const char *const good[] = {"{\"a\":[1,-2.5e3,true,false,null]}",
		"\"\\u00e9\\n\"", "[]"};
	size_t i;
	jv v;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(jparse(bad[i], &v, 0) == NULL, "took %s", bad[i]);
		jfree(&v);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const char *end = jparse(good[i], &v, 0);

		ck_assert_msg(end && !*end, "refused %s", good[i]);
		jfree(&v);
	}
	jparse(good[1], &v, 0);
	ck_assert_str_eq(v.s, "\xc3\xa9\n");
	jfree(&v);
}
END_TEST

START_TEST(report_json_shape)
{
	static const char *const root[] = {"schema", "version", "racegate",
		"started_unix_ms", "elapsed_ms", "spec", "summary", "runs", NULL};
	static const char *const summary[] = {"requested", "runs", "jobs",
		"exit_status", "stopped", "outcomes", NULL};
	static const char *const run[] = {"run", "outcome", "ok", "exit_status",
		"exited", "exit_code", "signal", "core_dumped", "start_ms",
		"elapsed_ms", "note", "gates", "unbound_aliases", "arrivals", "breakpoint_hits",
		"events", "events_dropped", "diagnosis", "stdout", "stderr", NULL};
	static const char *const event[] = {"t_ms", "tid", "thread", "kind",
		"gate_index", "gate", "where", "event", "held_ms", "text", NULL};
	struct fixture f;
	rg_err err = RG_ERR_INIT;
	char *path = tmp_path(), *text;
	const jv *runs, *r1, *r2, *ev;
	jv v;

	fixture_init(&f);
	ck_assert_msg(report_json_write(&f.rc, path, &err) == 0, "%s", err.msg);
	text = read_path(path);
	jload(text, &v);
	jkeys(&v, root);
	ck_assert_str_eq(jget(&v, "schema")->s, "racegate-report");
	ck_assert(jget(&v, "version")->num == REPORT_SCHEMA_VERSION);
	ck_assert_int_eq(jget(&v, "spec")->t, J_OBJ);
	jkeys(jget(&v, "summary"), summary);
	ck_assert(jget(jget(&v, "summary"), "exit_status")->num == RG_EXIT_UNMET);
	ck_assert(jget(jget(jget(&v, "summary"), "outcomes"), "REPRODUCED")->num == 1);
	ck_assert(jget(jget(jget(&v, "summary"), "outcomes"), "NOT-REPRODUCED")->num == 1);
	ck_assert_uint_eq(jget(jget(&v, "summary"), "outcomes")->n, 2);

	runs = jget(&v, "runs");
	ck_assert_int_eq(runs->t, J_ARR);
	ck_assert_uint_eq(runs->n, 2);
	r1 = &runs->kids[0];
	r2 = &runs->kids[1];
	jkeys(r1, run);
	jkeys(r2, run);
	ck_assert_str_eq(jget(r1, "outcome")->s, "REPRODUCED");
	ck_assert(jget(r1, "ok")->num == 1 && jget(r2, "ok")->num == 0);
	ck_assert(jget(r1, "exit_code")->num == 1);
	ck_assert(jget(r2, "exit_status")->num == RG_EXIT_UNMET);
	ck_assert_int_eq(jget(r1, "diagnosis")->t, J_NULL);
	ck_assert_uint_eq(jget(r1, "events")->n, 4);
	ev = &jget(r1, "events")->kids[2];
	jkeys(ev, event);
	ck_assert_str_eq(jget(ev, "kind")->s, "open");
	ck_assert_str_eq(jget(ev, "event")->s, "w2-stored");
	ck_assert_int_eq(jget(&jget(r1, "events")->kids[0], "held_ms")->t, J_NULL);
	ck_assert(jget(&jget(r1, "events")->kids[3], "held_ms")->num == 2.0);
	ck_assert_uint_eq(jget(r2, "gates")->n, 2);
	ck_assert(jget(&jget(r2, "gates")->kids[1], "reached")->num == 0);
	ck_assert_str_eq(jget(&jget(r2, "gates")->kids[1], "name")->s, "w2-stored");
	/* the program's bytes, as valid JSON: control and invalid bytes escaped */
	ck_assert_str_eq(jget(r2, "stderr")->s, "<&> \x01\xef\xbf\xbd\"q\"\n");
	ck_assert_str_eq(jget(r1, "stdout")->s, "counter = 1\n");

	jfree(&v);
	free(text);
	unlink(path);
	free(path);
	fixture_release(&f);
}
END_TEST

/* XML elements nest and close; returns the number of elements named name. */
static int xml_count(const char *s, const char *name)
{
	const char *stack[64];
	size_t nstack = 0, len = strlen(name);
	int count = 0;

	for (; (s = strchr(s, '<')); s++) {
		const char *e;

		if (!strncmp(s, "<?", 2) || !strncmp(s, "<!--", 4)) {
			ck_assert_ptr_nonnull(e = strstr(s, s[1] == '?' ? "?>" : "-->"));
			s = e;
			continue;
		}
		if (!strncmp(s, "<![CDATA[", 9)) {
			ck_assert_ptr_nonnull(e = strstr(s, "]]>"));
			s = e;
			continue;
		}
		ck_assert_ptr_nonnull(e = strchr(s, '>'));
		if (s[1] == '/') {
			ck_assert_uint_gt(nstack, 0);
			nstack--;
			ck_assert_msg(!strncmp(stack[nstack], s + 2,
					       strcspn(s + 2, " >")),
				      "</%.*s> closes <%.20s", 20, s + 2, stack[nstack]);
		} else {
			if (!strncmp(s + 1, name, len) &&
			    (s[1 + len] == ' ' || s[1 + len] == '>' || s[1 + len] == '/'))
				count++;
			if (e[-1] != '/') {
				ck_assert_uint_lt(nstack, 64);
				stack[nstack++] = s + 1;
			}
		}
		s = e;
	}
	ck_assert_uint_eq(nstack, 0);
	return count;
}

START_TEST(report_junit_shape)
{
	struct fixture f;
	rg_err err = RG_ERR_INIT;
	char *path = tmp_path(), *text;

	fixture_init(&f);
	ck_assert_msg(report_junit_write(&f.rc, path, &err) == 0, "%s", err.msg);
	text = read_path(path);
	ck_assert_msg(!strncmp(text, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 38),
		      "%s", text);
	ck_assert_int_eq(xml_count(text, "testsuite"), 1);
	ck_assert_int_eq(xml_count(text, "testcase"), 2);
	ck_assert_int_eq(xml_count(text, "failure"), 1);
	ck_assert_int_eq(xml_count(text, "error"), 0);
	ck_assert_ptr_nonnull(strstr(text, "tests=\"2\""));
	ck_assert_ptr_nonnull(strstr(text, "failures=\"1\""));
	ck_assert_ptr_nonnull(strstr(text, "value=\"/bin/prog\""));
	/* the program's stderr: escaped, and no control or invalid bytes */
	ck_assert_ptr_nonnull(strstr(text, "&lt;&amp;&gt; \xef\xbf\xbd\xef\xbf\xbd"
				     "&quot;q&quot;"));
	ck_assert_ptr_null(strchr(text, '\x01'));
	free(text);
	unlink(path);
	free(path);
	fixture_release(&f);
}
END_TEST

START_TEST(report_tap_text)
{
	static const char want[] =
		"TAP version 13\n"
		"ok 1 - run 1: REPRODUCED\n"
		"not ok 2 - run 2: NOT-REPRODUCED\n"
		"  ---\n"
		"  outcome: NOT-REPRODUCED\n"
		"  message: \"expected exit 1, got exit 0; stdout does not contain "
		"'counter = 1'\"\n"
		"  exit: 0\n"
		"  duration_ms: 12.500\n"
		"  stdout: |-\n"
		"    counter = 2\n"
		"  stderr: |-\n"
		"    <&> ?\xff\"q\"\n"
		"  ...\n"
		"ok 1 - run 1: REPRODUCED\n"
		"  ---\n"
		"  outcome: REPRODUCED\n"
		"  message: \"exit 1\"\n"
		"  exit: 1\n"
		"  duration_ms: 20.250\n"
		"  stdout: |-\n"
		"    counter = 1\n"
		"  ...\n"
		"# stopped at run 2 of 5 (--stop-on-first): NOT-REPRODUCED\n"
		"1..2\n";
	struct fixture f;
	FILE *out = tmpfile();
	char *text;

	fixture_init(&f);
	report_tap_begin(out);
	report_tap_run(out, &f.runs[0], false);
	report_tap_run(out, &f.runs[1], false);
	report_tap_run(out, &f.runs[0], true);
	report_tap_end(out, 2, "stopped at run 2 of 5 (--stop-on-first): "
		       "NOT-REPRODUCED");
	text = slurp(out);
	ck_assert_str_eq(text, want);
	free(text);
	fclose(out);
	fixture_release(&f);
}
END_TEST

START_TEST(report_trace_events)
{
	struct fixture f;
	rg_err err = RG_ERR_INIT;
	char *path = tmp_path(), *text;
	const jv *evs;
	jv v;
	size_t i;
	int held = 0, flows_s = 0, flows_f = 0, names = 0;

	fixture_init(&f);
	ck_assert_msg(report_trace_write(&f.rc, path, &err) == 0, "%s", err.msg);
	text = read_path(path);
	jload(text, &v);
	ck_assert_str_eq(jget(&v, "displayTimeUnit")->s, "ms");
	evs = jget(&v, "traceEvents");
	ck_assert_int_eq(evs->t, J_ARR);
	for (i = 0; i < evs->n; i++) {
		const jv *e = &evs->kids[i];
		const char *ph = jget(e, "ph")->s;

		ck_assert_int_eq(jget(e, "pid")->t, J_NUM);
		ck_assert_int_eq(jget(e, "tid")->t, J_NUM);
		if (!strcmp(ph, "M")) {
			names++;
			continue;
		}
		ck_assert_int_eq(jget(e, "ts")->t, J_NUM);
		/* run 1: w1 held at w1-loaded from 1 ms to 3 ms */
		if (!strcmp(ph, "X") && !strcmp(jget(e, "name")->s, "w1-loaded")) {
			held++;
			ck_assert(jget(e, "pid")->num == 1 && jget(e, "tid")->num == 101);
			ck_assert(jget(e, "ts")->num == 1000.0);
			ck_assert(jget(e, "dur")->num == 2000.0);
		}
		flows_s += !strcmp(ph, "s");
		flows_f += !strcmp(ph, "f");
	}
	ck_assert_int_eq(held, 1);
	/* the open of w2-stored let w1 go: one arrow */
	ck_assert_int_eq(flows_s, 1);
	ck_assert_int_eq(flows_f, 1);
	ck_assert_int_ge(names, 4);   /* two processes, two threads */
	jfree(&v);
	free(text);
	unlink(path);
	free(path);
	fixture_release(&f);
}
END_TEST

START_TEST(thread_library_names)
{
	static const char *const yes[] = {"/lib/x86_64-linux-gnu/libc.so.6",
		"/lib64/libc-2.17.so", "/lib/x86_64-linux-gnu/libpthread.so.0",
		"/lib/ld-musl-x86_64.so.1", "/lib/libc.musl-x86_64.so.1",
		"/usr/lib/x86_64-linux-musl/libc.so", "libc.so.6"};
	static const char *const no[] = {"/lib/x86_64-linux-gnu/libcap.so.2",
		"/usr/lib/libcrypto.so.3", "/lib64/ld-linux-x86-64.so.2",
		"/home/u/libc-tools/prog", "/usr/lib/libmusl-helper.so"};
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		ck_assert_msg(starts_thread_library(yes[i]), "%s", yes[i]);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		ck_assert_msg(!starts_thread_library(no[i]), "%s", no[i]);
}
END_TEST

START_TEST(no_thread_library_warning)
{
	spec *sp = load("version: 1\ncommand: [./p]\n"
			"threads: {w: {start: worker}}\n"
			"gates: [{at: \"a.c:1\", thread: w, as: x}]\n");
	spec *plain = load("version: 1\ncommand: [./p]\ngates: [{at: \"a.c:1\", as: x}]\n");
	plan p;
	rg_buf w = RG_BUF_INIT;

	memset(&p, 0, sizeof(p));
	p.exe = "./p";
	p.sp = plain;
	starts_none_found(&p, NULL, &w);
	ck_assert_uint_eq(w.len, 0);   /* no {start:}: nothing to say */
	p.sp = sp;
	starts_none_found(&p, NULL, &w);
	starts_none_found(&p, "no such process", &w);
	ck_assert_str_eq(w.s, "no pthread_create found in './p' or its libraries: "
			 "{start: worker} selectors cannot match\n"
			 "cannot look for pthread_create in './p' or its libraries "
			 "(no such process): {start: worker} selectors cannot match\n");
	rg_buf_release(&w);

	/* threads of unknown start: said once a run, and only for {start:} */
	starts_unnamed(&p, &w);
	starts_unnamed(&p, &w);
	ck_assert_str_eq(w.s, "a thread of './p' started without pthread_create, or "
			 "with a start routine racegate cannot name: {start: worker} "
			 "selectors cannot match it\n");
	rg_buf_release(&w);
	p.sp = plain;
	starts_unnamed(&p, &w);
	ck_assert_uint_eq(w.len, 0);
	spec_free(sp);
	spec_free(plain);
}
END_TEST

/* What a worker process sends back is what the parent reads. */
START_TEST(result_round_trip)
{
	struct fixture f;
	rg_buf b = RG_BUF_INIT;
	run_result got;
	const run_result *r;
	size_t i;

	fixture_init(&f);
	r = &f.runs[0].r;
	rg_buf_puts(&f.runs[0].r.warnings, "first\nsecond\n");
	run_result_encode(&b, r);
	ck_assert_int_eq(run_result_decode(b.s, b.len, &got, intern_same, NULL), 0);
	ck_assert_int_eq(got.outcome, r->outcome);
	ck_assert_int_eq(got.exit_code, 1);
	ck_assert_str_eq(got.out.s, "counter = 1\n");
	ck_assert_str_eq(got.note, "exit 1");
	ck_assert_str_eq(got.warnings.s, "first\nsecond\n");
	ck_assert_uint_eq(got.ntl, r->ntl);
	for (i = 0; i < got.ntl; i++) {
		ck_assert_str_eq(got.tl[i].what, r->tl[i].what);
		ck_assert_str_eq(got.tl[i].gate, r->tl[i].gate);
	}
	ck_assert_uint_eq(got.ngates, 2);
	/* a short record is refused, not half read */
	run_result_release(&got);
	ck_assert_int_eq(run_result_decode(b.s, b.len - 1, &got, intern_same, NULL), -1);
	run_result_release(&got);
	rg_buf_release(&b);
	fixture_release(&f);
}
END_TEST

/* ---- the command line --------------------------------------------------- */

/* Parses argv (NULL-terminated); *msg gets what it printed on stderr. */
static int parse(struct cli *c, char **msg, ...)
{
	static char *argv[32];   /* c->command points into it */
	int argc = 0, r;
	va_list ap;
	struct cap cap;

	va_start(ap, msg);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	cap_begin(&cap);
	r = cli_parse(c, argc, argv);
	*msg = cap_end(&cap);
	return r;
}

#define USAGE_LINE "usage: racegate run   [OPTIONS] GATES.yaml"

START_TEST(cli_options)
{
	struct cli c;
	char *msg;

	ck_assert_int_eq(parse(&c, &msg, "racegate", "run", "-j2", "g.yaml", NULL), 0);
	ck_assert_str_eq(msg, "");
	ck_assert_int_eq(c.jobs, 2);
	ck_assert_str_eq(c.cmd, "run");
	ck_assert_str_eq(c.spec_path, "g.yaml");
	ck_assert_int_eq(c.repeat, 1);
	ck_assert_int_eq(c.on_deadlock, -1);
	ck_assert_int_eq(c.color, -1);
	ck_assert_ptr_null(c.command);
	free(msg);

	ck_assert_int_eq(parse(&c, &msg, "racegate", "run", "--jobs=3", "--timeout",
			       "500ms", "--repeat", "7", "g.yaml", "--quiet-period=250ms",
			       "--on-deadlock", "release", "--keep-stopped",
			       "--stop-on-first", "-q", "--tap", "--color=never",
			       "--source-dir", "/src", "--report", "r.json",
			       "--junit=j.xml", "--trace", "t.json",
			       "--expect-outcome", "reproduced,ORDER-INFEASIBLE",
			       "--", "./prog", "-x", NULL), 0);
	ck_assert_str_eq(msg, "");
	ck_assert_int_eq(c.jobs, 3);
	ck_assert_int_eq(c.timeout_ms, 500);
	ck_assert_int_eq(c.repeat, 7);
	ck_assert_int_eq(c.quiet_ms, 250);
	ck_assert_int_eq(c.on_deadlock, SPEC_ON_DEADLOCK_RELEASE);
	ck_assert(c.keep_stopped && c.stop_on_first && c.quiet && c.tap);
	ck_assert_int_eq(c.color, 0);
	ck_assert_str_eq(c.source_dir, "/src");
	ck_assert_str_eq(c.report, "r.json");
	ck_assert_str_eq(c.junit, "j.xml");
	ck_assert_str_eq(c.trace, "t.json");
	ck_assert_uint_eq(c.expect_mask, (1u << OUT_REPRODUCED) |
					 (1u << OUT_ORDER_INFEASIBLE));
	ck_assert_str_eq(c.command[0], "./prog");
	ck_assert_str_eq(c.command[1], "-x");
	ck_assert_ptr_null(c.command[2]);
	free(msg);

	ck_assert_int_eq(parse(&c, &msg, "racegate", "check", "g.yaml", "-j", "4",
			       "--timeout=2m", "--color", NULL), 0);
	ck_assert_int_eq(c.jobs, 4);
	ck_assert_int_eq(c.timeout_ms, 120000);
	ck_assert_int_eq(c.color, 1);
	ck_assert_str_eq(c.cmd, "check");
	free(msg);

	/* 0 and auto: one per CPU, within 1..64 */
	ck_assert_int_eq(parse(&c, &msg, "racegate", "run", "-j0", "g.yaml", NULL), 0);
	ck_assert(c.jobs >= 1 && c.jobs <= 64);
	free(msg);
	ck_assert_int_eq(parse(&c, &msg, "racegate", "run", "--jobs", "auto", "g.yaml",
			       NULL), 0);
	ck_assert(c.jobs >= 1 && c.jobs <= 64);
	free(msg);

	rg_set_verbose(0);
	ck_assert_int_eq(parse(&c, &msg, "racegate", "run", "--verbose", "g.yaml",
			       NULL), 0);
	ck_assert(c.verbose);
	ck_assert_int_eq(rg_verbose(), 1);
	rg_set_verbose(0);
	free(msg);
}
END_TEST

/* argv must be refused with exit 2, "racegate: want" and the usage. */
static void refused(const char *want, char *msg, int r)
{
	char *line = xasprintf("racegate: %s\n" USAGE_LINE, want);

	ck_assert_int_eq(r, RG_EXIT_SETUP);
	ck_assert_msg(!strncmp(msg, line, strlen(line)), "got: %s", msg);
	free(line);
	free(msg);
}

START_TEST(cli_bad_values)
{
	struct cli c;
	char *msg;
	int r;

	r = parse(&c, &msg, "racegate", "run", "--jobs=65", "g.yaml", NULL);
	refused("--jobs takes a number from 1 to 64 (or 0 or auto: one per CPU), "
		"not '65'", msg, r);
	r = parse(&c, &msg, "racegate", "run", "-jx", "g.yaml", NULL);
	refused("--jobs takes a number from 1 to 64 (or 0 or auto: one per CPU), "
		"not 'x'", msg, r);
	r = parse(&c, &msg, "racegate", "run", "g.yaml", "-j", NULL);
	refused("'-j' needs a number", msg, r);
	r = parse(&c, &msg, "racegate", "run", "--timeout", "10", "g.yaml", NULL);
	refused("--timeout takes a duration such as 10s, 500ms or 2m, not '10'", msg, r);
	r = parse(&c, &msg, "racegate", "run", "g.yaml", "--timeout", NULL);
	refused("'--timeout' needs a duration", msg, r);
	r = parse(&c, &msg, "racegate", "run", "--repeat=0", "g.yaml", NULL);
	refused("--repeat takes a number from 1 to 1000000, not '0'", msg, r);
	r = parse(&c, &msg, "racegate", "run", "--quiet-period", "0s", "g.yaml", NULL);
	refused("--quiet-period takes a duration such as 100ms or 1s, not '0s'", msg, r);
	r = parse(&c, &msg, "racegate", "run", "--on-deadlock=maybe", "g.yaml", NULL);
	refused("--on-deadlock takes fail or release, not 'maybe'", msg, r);
	r = parse(&c, &msg, "racegate", "run", "--color=red", "g.yaml", NULL);
	refused("--color takes auto, always or never, not 'red'", msg, r);
	r = parse(&c, &msg, "racegate", "run", "--expect-outcome", "WON", "g.yaml", NULL);
	ck_assert_int_eq(r, RG_EXIT_SETUP);
	ck_assert_msg(!strncmp(msg, "racegate: --expect-outcome: ", 28), "%s", msg);
	free(msg);
	r = parse(&c, &msg, "racegate", "run", "--report=", "g.yaml", NULL);
	refused("'--report=' needs a file name", msg, r);
	r = parse(&c, &msg, "racegate", "run", "--bogus", "g.yaml", NULL);
	refused("unknown option '--bogus' (see racegate --help)", msg, r);
	r = parse(&c, &msg, "racegate", "run", "g.yaml", "other.yaml", NULL);
	refused("unexpected argument 'other.yaml' (the program goes after '--')", msg, r);
	r = parse(&c, &msg, "racegate", "run", "g.yaml", "--", NULL);
	refused("nothing after '--'", msg, r);
	r = parse(&c, &msg, "racegate", "check", "-q", NULL);
	refused("check needs a gates file", msg, r);
}
END_TEST

/* racegate attach PID GATES.yaml: run's options that apply, --for, refusals */
START_TEST(cli_attach)
{
	struct cli c;
	char *msg;
	int r;

	r = parse(&c, &msg, "racegate", "attach", "--for", "2s", "-q", "4242", "g.yaml", NULL);
	ck_assert_int_eq(r, 0);
	ck_assert_str_eq(msg, "");
	free(msg);
	ck_assert_int_eq(c.attach_pid, 4242);
	ck_assert_str_eq(c.spec_path, "g.yaml");
	ck_assert_int_eq(c.timeout_ms, 2000);
	ck_assert(c.quiet);
	r = parse(&c, &msg, "racegate", "attach", "4242", "--timeout=500ms",
		  "--report", "r.json", "g.yaml", NULL);
	ck_assert_int_eq(r, 0);
	free(msg);
	ck_assert_int_eq(c.timeout_ms, 500);
	ck_assert_str_eq(c.report, "r.json");
	/* --for is attach's: run has --timeout */
	r = parse(&c, &msg, "racegate", "run", "--for", "2s", "g.yaml", NULL);
	refused("unknown option '--for' (see racegate --help)", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "g.yaml", NULL);
	refused("attach takes a process id, then the gates file, not 'g.yaml'", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "0", "g.yaml", NULL);
	refused("attach takes a process id, then the gates file, not '0'", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "4242", NULL);
	refused("attach needs a gates file after the process id", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "-q", NULL);
	refused("attach needs a process id and a gates file", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "--for", "soon", "1", "g.yaml", NULL);
	refused("--for takes a duration such as 10s, 500ms or 2m, not 'soon'", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "--jobs", "2", "1", "g.yaml", NULL);
	refused("--jobs does not apply to attach: a process is attached to once", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "--keep-stopped", "1", "g.yaml", NULL);
	refused("--keep-stopped does not apply to attach: the process always goes on "
		"once racegate lets it go", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "--stop-on-first", "1", "g.yaml", NULL);
	refused("--stop-on-first does not apply to attach: a process is attached to "
		"once", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "7", "g.yaml", "--", "/bin/true", NULL);
	refused("attach runs no command: the program is process 7's own ('-- COMMAND' "
		"does not apply)", msg, r);
}
END_TEST

START_TEST(cli_main_commands)
{
	char *argv[] = {"racegate", "launch", NULL};
	struct cap cap;
	char *msg;

	cap_begin(&cap);
	ck_assert_int_eq(cli_main(2, argv), RG_EXIT_SETUP);
	msg = cap_end(&cap);
	ck_assert_msg(strstr(msg, "racegate: unknown command 'launch' (commands: "
			     "run, check, lines, attach, explore)\n" USAGE_LINE) == msg, "%s", msg);
	free(msg);

	/* lines has its own arguments (lines.c) */
	{
		char *l1[] = {"racegate", "lines", "a.c", NULL};
		char *l2[] = {"racegate", "lines", "a.c:9-3", "--", "/bin/true", NULL};

		cap_begin(&cap);
		ck_assert_int_eq(cli_main(3, l1), RG_EXIT_SETUP);
		msg = cap_end(&cap);
		ck_assert_str_eq(msg, "racegate: lines needs a source file and, after "
				 "'--', the program\nusage: racegate lines "
				 "FILE[:FROM-TO] [--vars] [--source-dir DIR] -- PROGRAM\n");
		free(msg);
		cap_begin(&cap);
		ck_assert_int_eq(cli_main(5, l2), RG_EXIT_SETUP);
		msg = cap_end(&cap);
		ck_assert_str_eq(msg, "racegate: 'a.c:9-3': give lines as FILE:LINE or "
				 "FILE:FROM-TO (FROM-TO ascending, from 1)\n");
		free(msg);
	}
}
END_TEST

static Suite *runner_suite(void)
{
	Suite *s = suite_create("runner");
	TCase *tc = tcase_create("judge");

	tcase_add_test(tc, judge_repro_table);
	tcase_add_test(tc, judge_regression_table);
	tcase_add_test(tc, judge_signal_and_output);
	tcase_add_test(tc, judge_multiline);
	tcase_add_test(tc, judge_deadlocks_and_ends);
	tcase_add_test(tc, outcome_exit_status);
	suite_add_tcase(s, tc);

	tc = tcase_create("plan");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, plan_gates_to_breakpoints);
	tcase_add_test(tc, plan_errors_at_gate_positions);
	tcase_add_test(tc, plan_without_program);
	tcase_add_test(tc, thread_library_names);
	tcase_add_test(tc, no_thread_library_warning);
	suite_add_tcase(s, tc);

	tc = tcase_create("reports");
	tcase_add_test(tc, json_reader_refuses);
	tcase_add_test(tc, report_json_shape);
	tcase_add_test(tc, report_junit_shape);
	tcase_add_test(tc, report_tap_text);
	tcase_add_test(tc, report_trace_events);
	tcase_add_test(tc, result_round_trip);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli");
	tcase_add_test(tc, cli_options);
	tcase_add_test(tc, cli_bad_values);
	tcase_add_test(tc, cli_main_commands);
	tcase_add_test(tc, cli_attach);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(runner_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
