/*
 * check_triage_driver: racegate triage's pure parts (runner/triage/tri.h)
 * on real ThreadSanitizer reports (tests/triage/, the tsan-*.txt): a race's two sides
 * and their threads' names, the gates file of each order (read back by the
 * spec loader), function names compared across builds, and the verdict
 * drawn from the runs' ends.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "spec.h"
#include "tri.h"
#include "dwarfx.h"

static triage_report *load(const char *name)
{
	char *path = xasprintf("%s/%s", TRIAGE_DATA, name);
	triage_report *r = NULL;
	rg_err err = RG_ERR_INIT;

	ck_assert_msg(triage_load(TRIAGE_TSAN, path, &r, &err) == TRIAGE_OK, "%s", err.msg);
	free(path);
	return r;
}

static triage_report *load_tool(enum triage_tool tool, const char *name)
{
	char *path = xasprintf("%s/%s", TRIAGE_DATA, name);
	triage_report *r = NULL;
	rg_err err = RG_ERR_INIT;

	ck_assert_msg(triage_load(tool, path, &r, &err) == TRIAGE_OK, "%s", err.msg);
	free(path);
	return r;
}

/* Is item it triaged, with the lines l0 and l1 for its sides, in this order? */
static void ck_places(const tri_item *it, int l0, int l1)
{
	ck_assert_msg(!it->note, "%s", it->note ? it->note : "");
	ck_assert_int_eq(it->s[0].line, l0);
	ck_assert_int_eq(it->s[1].line, l1);
}

START_TEST(sides_of_two_functions)
{
	triage_report *r = load("tsan-gcc-O1-stale_conn.txt");
	rg_err err = RG_ERR_INIT;
	tri_side s[2];

	ck_assert_uint_eq(triage_nraces(r), 2);
	ck_assert_int_eq(tri_sides(r, triage_race_at(r, 1), s, &err), 0);
	/* free() is TSan's write: the place is the program's line that calls it */
	ck_assert_str_eq(s[0].file, "stale_conn.c");
	ck_assert_int_eq(s[0].line, 50);
	ck_assert_str_eq(s[0].start, "closer");
	ck_assert_str_eq(s[0].alias, "closer");
	ck_assert_int_eq(s[0].nth, 0);
	ck_assert_int_eq(s[1].line, 35);
	ck_assert_str_eq(s[1].function, "sender");
	ck_assert_str_eq(s[1].alias, "sender");
	tri_side_release(&s[0]);
	tri_side_release(&s[1]);
	triage_free(r);
}
END_TEST

START_TEST(sides_of_one_start_nth_by_creation)
{
	triage_report *r = load("tsan-gcc-O1-tally.txt");
	rg_err err = RG_ERR_INIT;
	tri_side s[2];

	ck_assert_int_eq(tri_sides(r, triage_race_at(r, 0), s, &err), 0);
	/* the read is T2's, the write T1's: T1 was created first */
	ck_assert_int_eq(s[0].line, 30);
	ck_assert_str_eq(s[0].start, "counter");
	ck_assert_int_eq(s[0].nth, 2);
	ck_assert_str_eq(s[0].alias, "counter_2");
	ck_assert_int_eq(s[1].line, 32);
	ck_assert_int_eq(s[1].nth, 1);
	ck_assert_str_eq(s[1].alias, "counter_1");
	tri_side_release(&s[0]);
	tri_side_release(&s[1]);
	triage_free(r);
}
END_TEST

START_TEST(lambda_named_by_closure)
{
	triage_report *r = load("tsan-clang-O1-cxx_stock.txt");
	rg_err err = RG_ERR_INIT;
	tri_side s[2];
	char *start;

	ck_assert_int_eq(tri_sides(r, triage_race_at(r, 0), s, &err), 0);
	ck_assert_str_eq(s[0].alias, "lambda_2");
	ck_assert_str_eq(s[1].alias, "lambda_1");
	/* clang's $_0 is gcc's {lambda(char const*)#1} in the normal build */
	ck_assert(tri_same_function(s[0].function,
				    "main::{lambda(char const*)#1}::operator()(char const*) const"));
	start = tri_start_from_function(s[0].start,
					"main::{lambda(char const*)#1}::operator()(char const*) const");
	ck_assert_str_eq(start, "main::{lambda(char const*)#1}");
	free(start);
	ck_assert_ptr_null(tri_start_from_function("closer", "closer"));
	tri_side_release(&s[0]);
	tri_side_release(&s[1]);
	triage_free(r);
}
END_TEST

START_TEST(functions_compared)
{
	ck_assert(tri_same_function("closer", "closer"));
	ck_assert(!tri_same_function("closer", "sender"));
	ck_assert(tri_same_function("ns::f(int)", "f"));
	ck_assert(!tri_same_function("operator()", "main"));
}
END_TEST

/*
 * tally's TSan and Helgrind reports at once: TSan's read-write pair is
 * Helgrind's first race too (counted once, under TSan's number and
 * threads); Helgrind's write-write pair on line 32 comes after it.
 */
START_TEST(reports_merged_by_places)
{
	tri_reports rs;

	memset(&rs, 0, sizeof(rs));
	tri_reports_add(&rs, load_tool(TRIAGE_TSAN, "tsan-gcc-O1-tally.txt"));
	tri_reports_add(&rs, load_tool(TRIAGE_HELGRIND, "helgrind-tally.txt"));
	tri_reports_build(&rs);
	ck_assert_uint_eq(rs.nitems, 2);
	ck_places(&rs.items[0], 30, 32);
	ck_assert_int_eq(triage_report_tool(rs.items[0].rep), TRIAGE_TSAN);
	ck_assert_uint_eq(rs.items[0].nseen, 2);
	ck_assert_ptr_nonnull(strstr(rs.items[0].seen[0], "tsan-gcc-O1-tally.txt:"));
	ck_assert_ptr_nonnull(strstr(rs.items[0].seen[1], "helgrind-tally.txt:"));
	ck_assert_str_eq(rs.items[0].s[0].alias, "counter_2");
	ck_places(&rs.items[1], 32, 32);
	ck_assert_int_eq(triage_report_tool(rs.items[1].rep), TRIAGE_HELGRIND);
	ck_assert_uint_eq(rs.items[1].nseen, 1);
	ck_assert_ptr_null(rs.items[0].inferred);
	/* built again: the same items, none counted twice */
	tri_reports_build(&rs);
	ck_assert_uint_eq(rs.nitems, 2);
	ck_assert_uint_eq(rs.items[0].nseen, 2);
	tri_reports_release(&rs);

	/* Helgrind's first: its numbering */
	tri_reports_add(&rs, load_tool(TRIAGE_HELGRIND, "helgrind-tally.txt"));
	tri_reports_add(&rs, load_tool(TRIAGE_TSAN, "tsan-gcc-O1-tally.txt"));
	tri_reports_build(&rs);
	ck_assert_uint_eq(rs.nitems, 2);
	ck_assert_int_eq(triage_report_tool(rs.items[0].rep), TRIAGE_HELGRIND);
	ck_assert_uint_eq(rs.items[0].nseen, 2);
	ck_places(&rs.items[1], 32, 32);
	tri_reports_release(&rs);
}
END_TEST

/*
 * DRD's tally: both conflicts are thread 3's, thread 2's side not shown.
 * The load at 30 conflicts with the store at 32 the report shows; the
 * store at 32 with the load at 30 (that pair again) and with itself.
 */
START_TEST(drd_second_access_from_the_report)
{
	tri_reports rs;

	memset(&rs, 0, sizeof(rs));
	tri_reports_add(&rs, load_tool(TRIAGE_DRD, "drd-tally.txt"));
	tri_reports_build(&rs);
	ck_assert_uint_eq(rs.nitems, 2);
	ck_places(&rs.items[0], 30, 32);
	ck_assert_str_eq(rs.items[0].s[0].alias, "counter_2");
	ck_assert_str_eq(rs.items[0].s[1].alias, "counter_1");
	ck_assert_int_eq(rs.items[0].s[1].tsan_thread, 2);
	ck_assert_ptr_nonnull(rs.items[0].inferred);
	ck_assert_ptr_nonnull(strstr(rs.items[0].inferred, "thread 2's access"));
	ck_assert_ptr_nonnull(strstr(rs.items[0].inferred, "store at tally.c:32"));
	ck_assert_uint_eq(rs.items[0].nseen, 2);
	ck_places(&rs.items[1], 32, 32);
	tri_reports_release(&rs);

	/* with TSan's first: its race, its details, nothing inferred */
	tri_reports_add(&rs, load_tool(TRIAGE_TSAN, "tsan-gcc-O1-tally.txt"));
	tri_reports_add(&rs, load_tool(TRIAGE_DRD, "drd-tally.txt"));
	tri_reports_build(&rs);
	ck_assert_uint_eq(rs.nitems, 2);
	ck_assert_ptr_null(rs.items[0].inferred);
	ck_assert_uint_eq(rs.items[0].nseen, 3);
	tri_reports_release(&rs);
}
END_TEST

/* Both sides shown (stale_conn: paired); one never shown nor inferable (spin_handoff's flag). */
START_TEST(drd_paired_and_unknown)
{
	tri_reports rs;

	memset(&rs, 0, sizeof(rs));
	tri_reports_add(&rs, load_tool(TRIAGE_DRD, "drd-stale_conn.txt"));
	tri_reports_build(&rs);
	ck_assert_uint_eq(rs.nitems, 1);
	ck_places(&rs.items[0], 49, 33);
	ck_assert_ptr_null(rs.items[0].inferred);
	ck_assert_str_eq(rs.items[0].s[1].alias, "sender");
	tri_reports_release(&rs);

	tri_reports_add(&rs, load_tool(TRIAGE_DRD, "drd-spin_handoff.txt"));
	tri_reports_build(&rs);
	ck_assert_uint_eq(rs.nitems, 2);
	ck_places(&rs.items[0], 31, 39);
	ck_assert_ptr_nonnull(rs.items[1].note);
	ck_assert_ptr_nonnull(strstr(rs.items[1].note, "DRD did not show the other access "
					    "(thread 3's, its stack no longer available)"));
	ck_assert_ptr_null(rs.items[1].s[0].file);
	tri_reports_release(&rs);
}
END_TEST

/* The gates file of each order: a spec the loader takes, the right thread waiting. */
START_TEST(gates_of_each_order)
{
	triage_report *r = load("tsan-gcc-O1-stale_conn.txt");
	rg_err err = RG_ERR_INIT;
	char *cmd[] = { "./stale_conn", NULL };
	tri_side s[2];

	ck_assert_int_eq(tri_sides(r, triage_race_at(r, 1), s, &err), 0);
	for (int first = 0; first < 2; first++) {
		char *y = tri_gates_yaml(s, first, false, cmd, 2000, 10000, "race 2",
					 "expect:\n  signal: SIGSEGV\n");
		spec_diags d = SPEC_DIAGS_INIT;
		spec *sp = NULL;
		const tri_side *f = &s[first], *o = &s[!first];
		char *at;

		ck_assert_msg(spec_load_string(y, strlen(y), "t", NULL, &sp, &d) == 0, "%s", y);
		ck_assert_uint_eq(sp->ngates, 2);
		/* gate 0: the other waits at its line for the first's done */
		at = xasprintf("%s:%d", o->file, o->line);
		ck_assert_str_eq(sp->gates[0].at, at);
		free(at);
		at = xasprintf("%s:%d", f->file, f->line);
		ck_assert_str_eq(sp->gates[1].at, at);
		free(at);
		ck_assert_ptr_nonnull(strstr(y, "then_open: "));
		ck_assert(sp->expect.has_signal);
		/* the first waits for the other to be at its line */
		at = xasprintf("wait: %s-here", o->alias);
		ck_assert_ptr_nonnull(strstr(y, at));
		free(at);
		spec_free(sp);
		spec_diags_release(&d);
		free(y);
		/* weak: the first does not wait for the other */
		y = tri_gates_yaml(s, first, true, cmd, 2000, 10000, "race 2", NULL);
		ck_assert_msg(spec_load_string(y, strlen(y), "t", NULL, &sp, &d) == 0, "%s", y);
		ck_assert_ptr_null(strstr(y, "-here"));
		ck_assert_ptr_nonnull(strstr(y, "then_open: "));
		spec_free(sp);
		spec_diags_release(&d);
		free(y);
		/* with its next line known, the first holds there for the other */
		s[first].next_line = s[first].line + 2;
		y = tri_gates_yaml(s, first, false, cmd, 2000, 10000, "race 2", NULL);
		ck_assert_msg(spec_load_string(y, strlen(y), "t", NULL, &sp, &d) == 0, "%s", y);
		ck_assert_uint_eq(sp->ngates, 3);
		at = xasprintf("%s:%d", f->file, f->line + 2);
		ck_assert_str_eq(sp->gates[2].at, at);
		free(at);
		at = xasprintf("then_open: %s-past", o->alias);
		ck_assert_ptr_nonnull(strstr(y, at));
		free(at);
		at = xasprintf("wait: %s-past", o->alias);
		ck_assert_ptr_nonnull(strstr(y, at));
		free(at);
		spec_free(sp);
		spec_diags_release(&d);
		free(y);
		/* the second's next line known: its arrival there opens -past */
		s[!first].next_line = s[!first].line + 1;
		y = tri_gates_yaml(s, first, false, cmd, 2000, 10000, "race 2", NULL);
		ck_assert_msg(spec_load_string(y, strlen(y), "t", NULL, &sp, &d) == 0, "%s", y);
		ck_assert_uint_eq(sp->ngates, 4);
		at = xasprintf("%s:%d", o->file, o->line + 1);
		ck_assert_str_eq(sp->gates[3].at, at);
		free(at);
		at = xasprintf("then_open: %s-past", o->alias);
		ck_assert_ptr_null(strstr(y, at));
		free(at);
		at = xasprintf("open: %s-past", o->alias);
		ck_assert_ptr_nonnull(strstr(y, at));
		free(at);
		spec_free(sp);
		spec_diags_release(&d);
		free(y);
		s[!first].next_line = 0;
		/* weak: no hold */
		y = tri_gates_yaml(s, first, true, cmd, 2000, 10000, "race 2", NULL);
		ck_assert_ptr_null(strstr(y, "-past"));
		free(y);
		s[first].next_line = 0;
	}
	tri_side_release(&s[0]);
	tri_side_release(&s[1]);
	triage_free(r);
}
END_TEST

static void end(tri_order *o, const char *text)
{
	o->runs++;
	o->ends = xrealloc(o->ends, (size_t)(o->nends + 1) * sizeof(*o->ends));
	o->ends[o->nends++] = xstrdup(text);
	o->reached[0] = o->reached[1] = true;
}

/* Of a line's shared accesses, the first that does what the report says. */
START_TEST(access_picked)
{
	const size_t plus[] = { 0, 1, 6, 8 };
	const unsigned char how[] = { DWARFX_READS, DWARFX_READS, DWARFX_READS,
				      DWARFX_WRITES };
	tri_side s = { .kind = TRIAGE_WRITE };

	ck_assert_int_eq(tri_pick_access(&s, plus, how, 4), 8);
	s.kind = TRIAGE_READ;
	ck_assert_int_eq(tri_pick_access(&s, plus, how, 4), 0);
	ck_assert_int_eq(tri_pick_access(&s, plus + 2, how + 2, 2), 6);
	/* one access, or the kind not said: the line's start */
	ck_assert_int_eq(tri_pick_access(&s, plus + 2, how + 2, 1), 0);
	s.kind = TRIAGE_ACCESS_UNKNOWN;
	ck_assert_int_eq(tri_pick_access(&s, plus + 2, how + 2, 2), 0);
	s.file = "f.c";
	s.line = 9;
	s.plus = 2;
	char *at = tri_side_at(&s);
	ck_assert_str_eq(at, "f.c:9+2");
	free(at);
}
END_TEST

/* How two orders' ends differ, in words. */
START_TEST(ends_compared)
{
	char *d = tri_ends_differ("exit 1\ncount = 1\nFAIL\n", "exit 0\ncount = 2\n");

	ck_assert_str_eq(d, "exit 1 against exit 0, stdout line 1 \"count = 1\" "
			 "against \"count = 2\"");
	free(d);
	d = tri_ends_differ("exit 0\na\nb\n", "exit 0\na\n");
	ck_assert_str_eq(d, "stdout line 2 \"b\" against \"\"");
	free(d);
	d = tri_ends_differ("exit 0\n", "exit 3\n");
	ck_assert_str_eq(d, "exit 0 against exit 3");
	free(d);
}
END_TEST

START_TEST(verdicts)
{
	tri_order o[2];
	int w;

	memset(o, 0, sizeof(o));
	end(&o[0], "exit 0\ntotal = 7\n");
	end(&o[1], "exit 0\ntotal = 4\n");
	ck_assert_int_eq(tri_classify(o, &w), TRI_OUTPUT_DIFFERS);
	/* one end in common: the other output is not the order's doing */
	end(&o[1], "exit 0\ntotal = 7\n");
	ck_assert_int_eq(tri_classify(o, &w), TRI_BENIGN);
	ck_assert_int_eq(w, -1);
	o[1].failed = 1;
	ck_assert_int_eq(tri_classify(o, &w), TRI_HARMFUL);
	ck_assert_int_eq(w, 1);
	tri_order_release(&o[0]);
	tri_order_release(&o[1]);

	/* an order that never took hold */
	end(&o[0], "exit 0\n");
	o[1].runs = 1;
	o[1].unenforced = 1;
	o[1].reached[0] = o[1].reached[1] = true;
	ck_assert_int_eq(tri_classify(o, &w), TRI_SINGLE_ORDER);
	ck_assert_int_eq(w, 1);
	tri_order_release(&o[0]);
	tri_order_release(&o[1]);

	/* side 1 reached in no run of either order */
	o[0].runs = o[1].runs = 1;
	o[0].unenforced = o[1].unenforced = 1;
	o[0].reached[0] = o[1].reached[0] = true;
	ck_assert_int_eq(tri_classify(o, &w), TRI_NOT_REACHED);
	ck_assert_int_eq(w, 1);
	ck_assert_str_eq(tri_verdict_name(TRI_NOT_REACHED), "NOT-REACHED");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("triage_driver");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, sides_of_two_functions);
	tcase_add_test(tc, sides_of_one_start_nth_by_creation);
	tcase_add_test(tc, lambda_named_by_closure);
	tcase_add_test(tc, functions_compared);
	tcase_add_test(tc, gates_of_each_order);
	tcase_add_test(tc, access_picked);
	tcase_add_test(tc, ends_compared);
	tcase_add_test(tc, verdicts);
	tcase_add_test(tc, reports_merged_by_places);
	tcase_add_test(tc, drd_second_access_from_the_report);
	tcase_add_test(tc, drd_paired_and_unknown);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
