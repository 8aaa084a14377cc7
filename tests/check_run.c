/*
 * runner/run: what a --jobs worker sends back for a run is what the parent
 * reads; --expect-outcome's list.
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
#include "run.h"

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

static Suite *run_suite(void)
{
	Suite *s = suite_create("run");
	TCase *tc;

	tc = tcase_create("run");
	tcase_add_test(tc, result_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(run_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
