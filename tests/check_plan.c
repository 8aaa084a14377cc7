/*
 * runner/plan: plans built for a small program (tests/fixtures/runner),
 * never run; what a new thread runs.
 */
#include <check.h>
#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "plan.h"
#include "starts.h"

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

/* ---- threads -------------------------------------------------------- */

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


static Suite *plan_suite(void)
{
	Suite *s = suite_create("plan");
	TCase *tc;

	tc = tcase_create("plan");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, plan_gates_to_breakpoints);
	tcase_add_test(tc, plan_errors_at_gate_positions);
	tcase_add_test(tc, plan_without_program);
	tcase_add_test(tc, thread_library_names);
	tcase_add_test(tc, no_thread_library_warning);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(plan_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
