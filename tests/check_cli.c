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
#include "options.h"
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

/* racegate CMD --help parses, with c.help set: 0 */
static int parse_help(const char *cmd)
{
	struct cli c;
	char *msg;
	int r = parse(&c, &msg, "racegate", cmd, "--help", NULL);

	ck_assert_msg(r || c.help, "%s", cmd);
	free(msg);
	cli_release(&c);
	return r;
}

#define USAGE_LINE "usage: racegate run [OPTIONS] GATES.yaml"

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

	ck_assert_int_eq(parse(&c, &msg, "racegate", "run", "g.yaml", "-j", "4",
			       "--timeout=2m", "--color", NULL), 0);
	ck_assert_int_eq(c.jobs, 4);
	ck_assert_int_eq(c.timeout_ms, 120000);
	ck_assert_int_eq(c.color, 1);
	free(msg);
	ck_assert_int_eq(parse(&c, &msg, "racegate", "check", "g.yaml", "--source-dir=/s",
			       NULL), 0);
	ck_assert_str_eq(c.cmd, "check");
	ck_assert_str_eq(c.source_dir, "/s");
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

/* argv must be refused with exit 2, "racegate: want" and cmd's usage. */
static void refused_by(const char *cmd, const char *want, char *msg, int r)
{
	char *line = xasprintf("racegate: %s\nusage: racegate %s ", want, cmd);

	ck_assert_int_eq(r, RG_EXIT_SETUP);
	ck_assert_msg(!strncmp(msg, line, strlen(line)), "got: %s", msg);
	free(line);
	free(msg);
}
#define refused(want, msg, r) refused_by("run", want, msg, r)
#define refused_attach(want, msg, r) refused_by("attach", want, msg, r)

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
	refused("unknown option '--bogus' (see racegate run --help)", msg, r);
	r = parse(&c, &msg, "racegate", "run", "g.yaml", "other.yaml", NULL);
	refused("unexpected argument 'other.yaml' (the program goes after '--')", msg, r);
	r = parse(&c, &msg, "racegate", "run", "g.yaml", "--", NULL);
	refused("nothing after '--'", msg, r);
	r = parse(&c, &msg, "racegate", "check", "--source-dir", "/s", NULL);
	refused_by("check", "check needs a gates file", msg, r);
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
	refused("unknown option '--for' (an option of attach; see racegate run --help)",
		msg, r);
	r = parse(&c, &msg, "racegate", "attach", "g.yaml", NULL);
	refused_attach("attach takes a process id, then the gates file, not 'g.yaml'", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "0", "g.yaml", NULL);
	refused_attach("attach takes a process id, then the gates file, not '0'", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "4242", NULL);
	refused_attach("attach needs a gates file after the process id", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "-q", NULL);
	refused_attach("attach needs a process id and a gates file", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "--for", "soon", "1", "g.yaml", NULL);
	refused_attach("--for takes a duration such as 10s, 500ms or 2m, not 'soon'", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "--jobs", "2", "1", "g.yaml", NULL);
	refused_attach("--jobs does not apply to attach: a process is attached to once", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "--keep-stopped", "1", "g.yaml", NULL);
	refused_attach("--keep-stopped does not apply to attach: the process always goes on "
		"once racegate lets it go", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "--stop-on-first", "1", "g.yaml", NULL);
	refused_attach("--stop-on-first does not apply to attach: a process is attached to "
		"once", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "7", "g.yaml", "--", "/bin/true", NULL);
	refused_attach("attach runs no command: the program is process 7's own ('-- COMMAND' "
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
			     "run, check, attach, lines, explore, triage, completion, help)\n"
			     USAGE_LINE) == msg, "%s", msg);
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


/* ---- the option table ------------------------------------------------------ */

/* Every row says what it is, for whom, and where its value goes. */
START_TEST(table_rows)
{
	const rg_opt *o, *p;
	size_t k, j, base, bb, n;
	const cli_command *cmds = cli_commands(&n);

	for (k = 0; (o = cli_option_row(k, &base)); k++) {
		ck_assert_msg(o->name && o->name[0] && o->name[0] != '-', "row %zu", k);
		ck_assert_msg(o->help && o->help[0], "--%s has no help", o->name);
		ck_assert_msg(o->cmds, "--%s is no command's", o->name);
		ck_assert_msg(!(o->cmds & o->refuse), "--%s taken and refused", o->name);
		ck_assert_msg(!o->refuse || o->refuse_why, "--%s refused, not why", o->name);
		ck_assert_msg(o->set || o->size, "--%s goes nowhere", o->name);
		if (o->kind == RG_OPT_NUMBER)
			ck_assert_msg(o->lo <= o->hi && (o->hi || o->set), "--%s range", o->name);
		if (o->kind == RG_OPT_ENUM)
			ck_assert_msg(o->words && o->words[0] && o->words[1], "--%s words", o->name);
		if (o->kind != RG_OPT_FLAG)
			ck_assert_msg(o->metavar || o->words, "--%s says no value", o->name);
		else
			ck_assert_msg(!o->metavar && !(o->flags & RG_OPT_OPTVAL), "--%s", o->name);
		ck_assert_msg(!(o->flags & RG_OPT_OPTVAL) || o->dflt, "--%s alone", o->name);
		/* a name, and a short name, once per command */
		for (j = k + 1; (p = cli_option_row(j, &bb)); j++) {
			ck_assert_msg(!(o->cmds & p->cmds) || strcmp(o->name, p->name),
				      "--%s twice for a command", o->name);
			ck_assert_msg(!(o->cmds & p->cmds) || !o->short_name ||
				      o->short_name != p->short_name, "-%c twice",
				      o->short_name);
		}
		if (!strcmp(o->name, "expect-outcome"))   /* run_outcome_name()'s */
			for (j = 0; j <= OUT_ERROR || o->words[j]; j++)
				ck_assert_str_eq(o->words[j] ? o->words[j] : "(end)",
						 j <= OUT_ERROR ?
						 run_outcome_name((enum run_outcome)j) : "(end)");
	}
	ck_assert_uint_gt(k, 40);
	for (k = 0; k < n; k++) {
		ck_assert(cmds[k].usage && cmds[k].summary && cmds[k].about);
		ck_assert_ptr_eq(cli_command_find(cmds[k].name), &cmds[k]);
		/* every command takes -h, --help */
		ck_assert_int_eq(parse_help(cmds[k].name), 0);
	}
	ck_assert_ptr_null(cli_command_find("nosuch"));
}
END_TEST

/* Every kind of value, short and long, = and apart, into explore's options. */
START_TEST(table_kinds)
{
	struct cli c;
	char *msg;

	ck_assert_int_eq(parse(&c, &msg, "racegate", "explore", "--no-sync", "--depth", "5",
			       "--time=2m", "--strategy", "pct", "--points=lines",
			       "-of.yaml", "--source-dir", "src", "--at", "a.c", "--at=f,g",
			       "--expect-stdout", "^ok$", "--replay", "random:1:2",
			       "--shard=1/3", "-j3", "--seed", "18446744073709551615",
			       "--fewer-gates", "-q", "-v", "--", "./p", "x", NULL), 0);
	ck_assert_str_eq(msg, "");
	free(msg);
	ck_assert(!c.x.sync && c.x.lines_only && c.x.fewer_gates);
	ck_assert_int_eq(c.x.depth, 5);
	ck_assert_int_eq(c.x.time_ms, 120000);
	ck_assert_str_eq(c.x.strategy->name, "pct");
	ck_assert_str_eq(c.x.out, "f.yaml");
	ck_assert_uint_eq(c.x.nat, 2);
	ck_assert_str_eq(c.x.at[0], "a.c");
	ck_assert_str_eq(c.x.at[1], "f,g");
	ck_assert_str_eq(c.x.expect_stdout, "^ok$");
	ck_assert_str_eq(c.x.replay, "random:1:2");
	ck_assert_int_eq(c.x.shard_i, 1);
	ck_assert_int_eq(c.x.shard_n, 3);
	ck_assert_int_eq(c.x.jobs, 3);
	ck_assert(c.x.seed == UINT64_MAX);
	/* -q, -v, --source-dir are one row for every command: copied */
	ck_assert(c.x.quiet && c.x.verbose);
	ck_assert_str_eq(c.x.source_dir, "src");
	ck_assert_str_eq(c.x.command[0], "./p");
	ck_assert_str_eq(c.x.command[1], "x");
	rg_set_verbose(0);
	cli_release(&c);

	/* explore's defaults, from explore_opts_init */
	ck_assert_int_eq(parse(&c, &msg, "racegate", "explore", "--", "./p", NULL), 0);
	free(msg);
	ck_assert(c.x.sync && !c.x.lines_only && !c.x.bound_set);
	ck_assert_int_eq(c.x.depth, 3);
	ck_assert_int_eq(c.x.bound, 3);
	ck_assert_int_eq(c.x.schedules, 1000);
	ck_assert_int_eq(c.x.timeout_ms, 10000);
	ck_assert_int_eq(c.x.verify, 20);
	ck_assert(c.x.seed == 1);
	cli_release(&c);

	/* a bound of dfs, and the expected run */
	ck_assert_int_eq(parse(&c, &msg, "racegate", "explore", "--strategy=dfs",
			       "--preemptions", "2", "--expect-exit", "3", "--expect-stdout",
			       "x", "--output", "o.yaml", "--", "./p", NULL), 0);
	free(msg);
	ck_assert(c.x.bound_set && c.x.bound_kind == EXPLORE_PREEMPTIONS);
	ck_assert_int_eq(c.x.bound, 2);
	ck_assert(c.x.has_expect_exit);
	ck_assert_int_eq(c.x.expect_exit, 3);
	ck_assert_str_eq(c.x.out, "o.yaml");
	cli_release(&c);

	/* lines: its file, --vars, the program */
	ck_assert_int_eq(parse(&c, &msg, "racegate", "lines", "--vars", "a.c:3-9",
			       "--source-dir=s", "--", "./p", NULL), 0);
	free(msg);
	ck_assert(c.vars);
	ck_assert_str_eq(c.lines_file, "a.c:3-9");
	ck_assert_str_eq(c.source_dir, "s");
	ck_assert_str_eq(c.command[0], "./p");
	cli_release(&c);

	/* a flag's --no- form, an int field, an optional value */
	ck_assert_int_eq(parse(&c, &msg, "racegate", "run", "--no-follow-fork",
			       "--colour=auto", "g.yaml", NULL), 0);
	free(msg);
	ck_assert_int_eq(c.follow_fork, 0);
	ck_assert_int_eq(c.color, -1);
	ck_assert_int_eq(parse(&c, &msg, "racegate", "run", "--follow-fork", "g.yaml",
			       NULL), 0);
	free(msg);
	ck_assert_int_eq(c.follow_fork, 1);
}
END_TEST

#define refused_explore(want, msg, r) refused_by("explore", want, msg, r)

START_TEST(table_errors)
{
	struct cli c;
	char *msg;
	int r;

	r = parse(&c, &msg, "racegate", "explore", "--at", "--", "./p", NULL);
	refused_explore("'--at' needs a list of locations", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--strategy", NULL);
	refused_explore("'--strategy' needs random, pct, pct-fair or dfs", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--strategy=bfs", "--", "./p", NULL);
	refused_explore("--strategy takes random, pct, pct-fair or dfs, not 'bfs'", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--depth", "0", "--", "./p", NULL);
	refused_explore("--depth takes a number from 1 to 64, not '0'", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--depth", "3x", "--", "./p", NULL);
	refused_explore("--depth takes a number from 1 to 64, not '3x'", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--time", "soon", "--", "./p", NULL);
	refused_explore("--time takes a duration such as 10s, 500ms or 2m, not 'soon'",
			msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--expect-stdout", "(", "--", "./p",
		  NULL);
	refused_explore("--expect-stdout: '(' is not a POSIX extended regex", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "-o=", "--", "./p", NULL);
	refused_explore("'-o=' needs a file name", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--shard", "3", "--", "./p", NULL);
	refused_explore("--shard takes I/N with 0 <= I < N, not '3'", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--seed", "-1", "--", "./p", NULL);
	refused_explore("--seed takes a number, not '-1'", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--delays", "1", "--preemptions", "1",
		  "--", "./p", NULL);
	refused_explore("--delays and --preemptions are two bounds of dfs: give one",
			msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--delays", "1", "--", "./p", NULL);
	refused_explore("--delays and --preemptions bound a dfs search; --strategy "
			"random takes neither", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--quiet=yes", "--", "./p", NULL);
	refused_explore("--quiet takes no value, not 'yes'", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "-qv", "--", "./p", NULL);
	refused_explore("unknown option '-qv' (see racegate explore --help)", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--strateg", "dfs", "--", "./p", NULL);
	refused_explore("unknown option '--strateg' (did you mean '--strategy'?)", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--timout=5s", "--", "./p", NULL);
	refused_explore("unknown option '--timout=5s' (did you mean '--timeout'?)", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--no-sink", "--", "./p", NULL);
	refused_explore("unknown option '--no-sink' (did you mean '--no-sync'?)", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--repeat", "2", "--", "./p", NULL);
	refused_explore("unknown option '--repeat' (an option of run; see racegate "
			"explore --help)", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "./p", NULL);
	refused_explore("unexpected argument './p' (the program goes after '--'; "
			"reports to merge after --merge)", msg, r);
	cli_release(&c);       /* the argument, kept for --merge */
	r = parse(&c, &msg, "racegate", "explore", "--merge", "--", "./p", NULL);
	refused_explore("--merge needs the shards' reports: --merge shard-0.json "
			"shard-1.json ...", msg, r);
	r = parse(&c, &msg, "racegate", "explore", "--merge", "a.json", "-o", "r.yaml", NULL);
	refused_explore("--merge with -o, --trace or --markdown replays the failure: "
			"give the program after '--'", msg, r);
	cli_release(&c);
	r = parse(&c, &msg, "racegate", "explore", "--merge", "a.json", "--at", "f.c", NULL);
	refused_explore("--merge takes the search's options from the reports; give only "
			"-o, --report, --trace, --markdown, --verify and --fewer-gates "
			"with it", msg, r);
	cli_release(&c);
	r = parse(&c, &msg, "racegate", "explore", "--report", "r.json", NULL);
	refused_explore("explore needs the program to run after '--'", msg, r);
	r = parse(&c, &msg, "racegate", "run", "--report", "--", "./p", NULL);
	refused("'--report' needs a file name", msg, r);
	r = parse(&c, &msg, "racegate", "run", "--jobs", "-q", "g.yaml", NULL);
	refused("--jobs takes a number from 1 to 64 (or 0 or auto: one per CPU), "
		"not '-q'", msg, r);
	r = parse(&c, &msg, "racegate", "check", "--repeat", "2", "g.yaml", NULL);
	refused_by("check", "unknown option '--repeat' (an option of run; see racegate "
		   "check --help)", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "--no-follow-fork", "1", "g.yaml", NULL);
	refused_attach("--follow-fork does not apply to attach: the children a process "
		       "forks while attached run untraced", msg, r);
	r = parse(&c, &msg, "racegate", "attach", "-j2", "1", "g.yaml", NULL);
	refused_attach("--jobs does not apply to attach: a process is attached to once",
		       msg, r);
	r = parse(&c, &msg, "racegate", "lines", "a.c", "b.c", "--", "./p", NULL);
	refused_by("lines", "unexpected argument 'b.c'", msg, r);
	r = parse(&c, &msg, "racegate", "completion", "zsh", NULL);
	refused_by("completion", "completion takes bash, not 'zsh'", msg, r);
	cli_release(&c);
}
END_TEST

/* -h and --help: the command's help, whatever else is missing. */
START_TEST(table_help_flag)
{
	struct cli c;
	char *msg;
	int r;

	ck_assert_int_eq(parse(&c, &msg, "racegate", "run", "-h", NULL), 0);
	ck_assert(c.help);
	free(msg);
	ck_assert_int_eq(parse(&c, &msg, "racegate", "explore", "--at", "x.c", "--help",
			       "--bogus", NULL), 0);
	ck_assert(c.help);
	free(msg);
	cli_release(&c);
	/* what comes before it is still read */
	r = parse(&c, &msg, "racegate", "explore", "--bogus", "--help", NULL);
	refused_explore("unknown option '--bogus' (see racegate explore --help)", msg, r);
}
END_TEST

/* f's text (malloc'd) once fn printed into it. */
#define PRINTED(out, call) do {                                              \
	size_t len_;                                                         \
	FILE *f = open_memstream(&(out), &len_);                             \
	call;                                                                \
	fclose(f);                                                           \
} while (0)

/* Is word in text, not as the start of a longer one (--time in --timeout)? */
static bool has_word(const char *text, const char *word)
{
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		char next = p[strlen(word)];

		if (next != '-' && !(next >= 'a' && next <= 'z'))
			return true;
	}
	return false;
}

/* Does a row of the command of bit have this name? */
static bool takes_name(const char *name, unsigned bit)
{
	const rg_opt *o;
	size_t k, base;

	for (k = 0; (o = cli_option_row(k, &base)); k++)
		if ((o->cmds & bit) && !strcmp(o->name, name))
			return true;
	return false;
}

/* racegate CMD --help: usage, options aligned and wrapped, each one there. */
START_TEST(table_help_shape)
{
	size_t n, k, i, base;
	const cli_command *cmds = cli_commands(&n);

	for (i = 0; i < n; i++) {
		char *out, *line, *save = NULL, *names;
		char *want = xasprintf("usage: racegate %s %s\n", cmds[i].name, cmds[i].usage);
		const rg_opt *o;
		bool in_options = false;

		PRINTED(out, cli_print_help(f, &cmds[i]));
		ck_assert_msg(!strncmp(out, want, strlen(want)), "%s", out);
		ck_assert_msg(strstr(out, "\nOptions:\n"), "%s", out);
		/* every name --list-options gives is at the start of a row */
		PRINTED(names, cli_print_option_names(f, &cmds[i]));
		for (k = 0; (o = cli_option_row(k, &base)); k++) {
			char *left = o->short_name ? xasprintf("\n  -%c, --%s", o->short_name, o->name) :
				     xasprintf("\n      --%s", o->name);
			char *nm = xasprintf("--%s\n", o->name);

			bool takes = takes_name(o->name, cmds[i].bit);

			ck_assert_msg(takes == has_word(out, left),
				      "%s --help and --%s", cmds[i].name, o->name);
			ck_assert_msg(!takes == !strstr(names, nm),
				      "%s --list-options and --%s", cmds[i].name, o->name);
			free(left);
			free(nm);
		}
		for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			ck_assert_msg(strlen(line) <= 80, "%s: '%s'", cmds[i].name, line);
			size_t sp = strspn(line, " ");

			if (!in_options || sp == 0) {
				in_options |= !strcmp(line, "Options:");
				continue;
			}
			if (sp != 28) {        /* an option: its help at column 28, or below */
				ck_assert_msg((sp == 2 || sp == 6) && line[sp] == '-', "'%s'", line);
				ck_assert_msg(!strstr(line + sp, "  ") ||
					      (line[26] == ' ' && line[27] == ' ' &&
					       line[28] != ' '), "'%s'", line);
			}
		}
		free(names);
		free(out);
		free(want);
	}
}
END_TEST

/* The completion script names every command and each one's options. */
START_TEST(table_completion)
{
	char *out;
	size_t n, i;
	const cli_command *cmds = cli_commands(&n);

	PRINTED(out, cli_print_completion_bash(f));
	ck_assert(strstr(out, "\ncomplete -F _racegate racegate\n"));
	for (i = 0; i < n; i++) {
		char *arm = xasprintf("\n\t%s)\n", cmds[i].name);

		ck_assert_msg(strstr(out, arm), "%s", cmds[i].name);
		free(arm);
	}
	ck_assert(strstr(out, "--strategy) _racegate_words 'random pct pct-fair dfs'; return ;;"));
	ck_assert(strstr(out, "--source-dir) _racegate_dirs; return ;;"));
	ck_assert(strstr(out, "-o|--output) _racegate_files; return ;;"));
	ck_assert(strstr(out, "--color) [[ -n $eq ]] && { _racegate_words 'auto always never'"));
	free(out);
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
	tc = tcase_create("table");
	tcase_add_test(tc, table_rows);
	tcase_add_test(tc, table_kinds);
	tcase_add_test(tc, table_errors);
	tcase_add_test(tc, table_help_flag);
	tcase_add_test(tc, table_help_shape);
	tcase_add_test(tc, table_completion);
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
