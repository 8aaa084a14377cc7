/*
 * runner/cli: the command line's option parsing, and what each command
 * says about a command line it cannot take.  Nothing is run.
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
#include "cli.h"
#include "run.h"

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

static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc;

	tc = tcase_create("cli");
	tcase_add_test(tc, cli_options);
	tcase_add_test(tc, cli_bad_values);
	tcase_add_test(tc, cli_attach);
	tcase_add_test(tc, cli_main_commands);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cli_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
