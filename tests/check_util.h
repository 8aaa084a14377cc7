/*
 * What the runner's Check suites share: specs from text, made-up run
 * results, stderr captured, and a made-up session of two runs (what the
 * reports and the --jobs workers' records are tested on).
 */
#ifndef RACEGATE_CHECK_UTIL_H
#define RACEGATE_CHECK_UTIL_H

#include <stdio.h>

#include "report.h"

/* A spec from YAML text; the test fails on any error in it. */
spec *load(const char *yaml);

/* A run that ended by itself (sig: killed by it), every gate reached. */
void res_init(run_result *r, const spec *sp, int exit_code, int sig);
/* Gate gate was never armed, for why. */
void res_unarmed(run_result *r, size_t gate, const char *why);
/* r was judged want, with note text (NULL: any note). */
#define ck_judged(r, want, text) do {                                        \
	ck_assert_str_eq(run_outcome_name((r)->outcome), run_outcome_name(want)); \
	if (text)                                                            \
		ck_assert_str_eq((r)->note ? (r)->note : "(none)",           \
				 (const char *)(text));                      \
} while (0)

/* Everything written to fd 2 between cap_begin and cap_end (malloc'd). */
struct cap {
	FILE *f;
	int saved;
};
void cap_begin(struct cap *c);
char *cap_end(struct cap *c);
/* The rest of f, or the whole file at path (malloc'd). */
char *slurp(FILE *f);
char *read_path(const char *path);

/* Two runs of check_report_yaml: run 1 reproduced (with a timeline), run
 * 2 not, odd output. */
extern const char check_report_yaml[];
struct fixture {
	spec *sp;
	plan p;
	run_record runs[2];
	report_ctx rc;
};
void fixture_init(struct fixture *f);
void fixture_release(struct fixture *f);
/* A timeline entry of check_report_yaml's gate 0 or 1. */
void tl_add(run_result *r, double t, pid_t tid, const char *who, int kind,
	    int gate, const char *what, const char *event, double held);
/* The reports' strings outlive the run results: here they are the test's. */
const char *intern_same(void *ctx, const char *str);
/* A new file name under the temporary folder (malloc'd). */
char *tmp_path(void);

#endif
