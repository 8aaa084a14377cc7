/*
 * runner/report: the judge's decision table over made-up run results, and
 * the machine reports (JSON, JUnit XML, TAP, trace events) of a made-up
 * session of runs, parsed back or compared whole.
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
#include "gates.h"
#include "json_read.h"
#include "report.h"

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

/* Bad input gets an error naming the file, the line and column, and what is wrong. */
START_TEST(json_reader_says_where)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "{\"a\": 1,\n \"b\" 2}", "'r.json':2:6: not JSON: ':' expected after a key" },
		{ "[1, 2", "'r.json':1:6: not JSON: ',' or ']' expected" },
		{ "{\"a\": 01}", "'r.json':1:8: not JSON: ',' or '}' expected" },
		{ "", "'r.json':1:1: not JSON: the text ends where a value was expected" },
		{ "{} x", "'r.json':1:4: not JSON: text after the JSON value" },
		{ "\"ab", "'r.json':1:1: not JSON: a string not closed" },
		{ "[\"\\u12\"]", "'r.json':1:3: not JSON: a \\u escape needs four hex digits" },
		{ "-", "'r.json':1:1: not JSON: a value expected" },
		{ "1.", "'r.json':1:3: not JSON: a digit expected after '.'" },
		{ "{1: 2}", "'r.json':1:2: not JSON: a key (a string) expected" },
	};
	char deep[80];
	rg_err err = RG_ERR_INIT;
	jv v;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(json_read_text(bad[i].text, strlen(bad[i].text), "r.json",
						&v, &err), -1);
		ck_assert_str_eq(err.msg, bad[i].msg);
		ck_assert_uint_eq(v.n, 0);
	}
	memset(deep, '[', 40);
	deep[40] = '\0';
	ck_assert_int_eq(json_read_text(deep, 40, "d.json", &v, &err), -1);
	ck_assert_str_eq(err.msg, "'d.json':1:33: not JSON: nested too deep");
	ck_assert_int_eq(json_read_text("[1]\0]", 5, "n.json", &v, &err), -1);
	ck_assert_str_eq(err.msg, "'n.json':1:4: not JSON: a NUL byte in the text");
	ck_assert_int_eq(json_read_file("/nonexistent/r.json", &v, &err), -1);
	ck_assert_str_eq(err.msg, "cannot read '/nonexistent/r.json': No such file or directory");
	{
		static const char good[] = "{\"a\": [1, {\"b\": \"\"}]}";

		ck_assert_int_eq(json_read_text(good, strlen(good), "g.json", &v, &err), 0);
	}
	ck_assert_str_eq(json_get(json_get(&v, "a")->kids + 1, "b")->s, "");
	ck_assert_ptr_null(json_get(&v, "b"));
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

/* The JUnit class of a spec at path, from the written report. */
static char *junit_class(struct fixture *f, const char *path)
{
	rg_err err = RG_ERR_INIT;
	char *out = tmp_path(), *text, *cls;
	const char *a, *e;

	free(f->sp->path);
	f->sp->path = xstrdup(path);
	ck_assert_msg(report_junit_write(&f->rc, out, &err) == 0, "%s", err.msg);
	text = read_path(out);
	ck_assert_ptr_nonnull(a = strstr(text, " classname=\""));
	a += strlen(" classname=\"");
	ck_assert_ptr_nonnull(e = strchr(a, '"'));
	cls = xstrndup(a, (size_t)(e - a));
	free(text);
	unlink(out);
	free(out);
	return cls;
}

/* The spec file is the class, as ctest users name tests; the run the case. */
START_TEST(report_junit_names)
{
	struct fixture f;
	rg_err err = RG_ERR_INIT;
	char *path = tmp_path(), *text, *cwd = getcwd(NULL, 0), *abs, *cls;

	fixture_init(&f);
	ck_assert_msg(report_junit_write(&f.rc, path, &err) == 0, "%s", err.msg);
	text = read_path(path);
	ck_assert_msg(strstr(text, "<testsuite name=\"t\" "), "%s", text);
	ck_assert_msg(strstr(text, "<testcase name=\"run 1\" classname=\"t\""), "%s", text);
	ck_assert_msg(strstr(text, "<testcase name=\"run 2\" classname=\"t\""), "%s", text);
	/* the spec's prose name is kept, as a property */
	ck_assert_msg(strstr(text, "<property name=\"name\" value=\"lost update\"/>"),
		      "%s", text);
	ck_assert_ptr_null(strstr(text, "racegate.lost update"));
	free(text);
	unlink(path);
	free(path);

	ck_assert_ptr_nonnull(cwd);
	abs = xasprintf("%s/examples/lost_update/gates.yaml", strcmp(cwd, "/") ? cwd : "");
	cls = junit_class(&f, abs);
	ck_assert_str_eq(cls, "examples/lost_update/gates");
	free(cls);
	free(abs);
	cls = junit_class(&f, "./specs/race.yml");
	ck_assert_str_eq(cls, "specs/race");
	free(cls);
	cls = junit_class(&f, "../up/gates.yaml");
	ck_assert_str_eq(cls, "../up/gates");
	free(cls);
	cls = junit_class(&f, "gates");
	ck_assert_str_eq(cls, "gates");
	free(cls);
	cls = junit_class(&f, "/no-such-dir-racegate/x&y.yaml");
	ck_assert_str_eq(cls, "/no-such-dir-racegate/x&amp;y");
	free(cls);
	free(cwd);
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


static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc;

	tc = tcase_create("judge");
	tcase_add_test(tc, judge_repro_table);
	tcase_add_test(tc, judge_regression_table);
	tcase_add_test(tc, judge_signal_and_output);
	tcase_add_test(tc, judge_multiline);
	tcase_add_test(tc, judge_deadlocks_and_ends);
	tcase_add_test(tc, outcome_exit_status);
	suite_add_tcase(s, tc);

	tc = tcase_create("reports");
	tcase_add_test(tc, json_reader_refuses);
	tcase_add_test(tc, json_reader_says_where);
	tcase_add_test(tc, report_json_shape);
	tcase_add_test(tc, report_junit_shape);
	tcase_add_test(tc, report_junit_names);
	tcase_add_test(tc, report_tap_text);
	tcase_add_test(tc, report_trace_events);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(report_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
