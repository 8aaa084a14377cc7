/*
 * racegate's commands and the one table of their options (options.h): a
 * row per option and meaning.  An option that means one thing for several
 * commands is one row with their bits (--source-dir); one that means
 * another thing for another command is a row of its own (explore's --jobs
 * and run's).  The rows' words are what `racegate CMD --help` prints
 * (options_help.c), what racegate(1) must list (tests/e2e/help_man.sh)
 * and what bash completes.
 *
 * Tables.  The rows come from a list of tables (tables[] below), each with
 * the offset in struct cli that its rows' offsets count from: racegate's
 * own rows count from struct cli itself.  A module that owns options of
 * its own (an explore strategy with its own bound, say) hands up rows of
 * common/opt.h whose offsets count from its struct (explore_opts): add
 * { its rows, its count, offsetof(struct cli, x) } to tables[], and the
 * parser, the help, the man check and the completion take them as they
 * take these.  A name may be in two tables only for two commands.
 */
#include "options.h"
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the commands ---- */

static const cli_command commands[] = {
	{ "run", CLI_RUN, "[OPTIONS] GATES.yaml [-- COMMAND [ARGS...]]",
	  "run the program under the gates; judge it by the spec's expect:",
	  "Run the program under the gates of GATES.yaml and judge each run "
	  "against its expect: block.  The program is the spec's command: "
	  "(relative to the spec file), or the COMMAND after -- (relative to "
	  "the current directory); it must be built with -g for FILE:LINE "
	  "locations." },
	{ "check", CLI_CHECK, "[OPTIONS] GATES.yaml [-- COMMAND [ARGS...]]",
	  "validate the spec; resolve its gates in the program; run nothing",
	  "Validate GATES.yaml and resolve every gate's location in the program "
	  "(and compile its when: condition there), printing the addresses; "
	  "runs nothing." },
	{ "attach", CLI_ATTACH, "[OPTIONS] PID GATES.yaml",
	  "the gates on running process PID, then let it go on as it was",
	  "Put the gates on running process PID: seize its threads, arm, and "
	  "once every gate that counts has acted (ENFORCED), --for runs out or "
	  "racegate is interrupted, let it go on with nothing of racegate's left "
	  "in it.  The program is the process's own (the spec's command: is not "
	  "used); threads that exist already are selected by {tid: N} or "
	  "{name: NAME} (started:ALIAS opens at the attach for them).  The "
	  "process is never killed: an exit it makes while attached is judged "
	  "by expect: (exit status only).  Children it forks while attached run "
	  "untraced." },
	{ "lines", CLI_LINES, "FILE[:FROM-TO] [--vars] [--source-dir DIR] -- PROGRAM",
	  "the lines of FILE where a gate can go, and their functions",
	  "List every line of FILE (from FROM to TO) where a gate can go in "
	  "PROGRAM: its function, how many breakpoints it takes (inlined "
	  "copies) and its text." },
	{ "explore", CLI_EXPLORE, "[OPTIONS] [--at LOC[,LOC...]] -- COMMAND [ARGS...]",
	  "search thread orderings for a failure; write a gates file for it",
	  "Search the orderings of the program's threads at scheduling points "
	  "for one that makes it fail; shrink it; write a gates file that "
	  "reproduces it (explore.md in share/doc/racegate).  Exit status: 0 no failure found, "
	  "1 a failure found, 2 setup error, 3 no schedule completed (each "
	  "ended by --timeout)." },
	{ "triage", CLI_TRIAGE, "[OPTIONS] --TOOL REPORT... -- PROGRAM [ARGS...]",
	  "force both orders of each race a sanitizer reported; say what it does",
	  "Read data-race reports of PROGRAM (--TOOL: --tsan, --helgrind, "
	  "--drd): ThreadSanitizer's (of its -fsanitize=thread build), "
	  "Helgrind's, DRD's, one of each at most, each pair of places once; "
	  "put each race's two accesses in PROGRAM by FILE:LINE and "
	  "function (PROGRAM built with -g), force each of the two orders with "
	  "gates, run each a few times, and say what the race does: HARMFUL (an "
	  "order crashes, deadlocks or hangs: its gates file is written and "
	  "replayed), OUTPUT-DIFFERS (the orders end with another output or exit "
	  "status), BENIGN (both end alike: both files are written), NOT-REACHED "
	  "or SINGLE-ORDER (triage.md in share/doc/racegate).  Exit status: 0 no "
	  "race is HARMFUL or OUTPUT-DIFFERS, 1 some is (with --expect-verdicts: "
	  "some race's verdict is not the one listed), 2 setup error or, when "
	  "none is, a race that could not be triaged, 128+N interrupted by "
	  "signal N (the races finished are told)." },
	{ "completion", CLI_COMPLETION, "bash",
	  "print a bash completion script for racegate",
	  "Print a bash completion script for racegate, made from its option "
	  "table: load it with `source <(racegate completion bash)`, or "
	  "install it as share/bash-completion/completions/racegate (cmake "
	  "--install does)." },
	{ "help", CLI_HELP, "[CMD | gates]",
	  "this overview; a command's options; the gates file in brief",
	  "racegate help CMD is racegate CMD --help; racegate help gates "
	  "summarises the gates file (gates.md in share/doc/racegate, "
	  "gates.yaml(5))." },
};

const cli_command *cli_commands(size_t *n)
{
	*n = sizeof(commands) / sizeof(commands[0]);
	return commands;
}

const cli_command *cli_command_find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* ---- setters: values that are more than a store ---- */

/* --jobs J of run: 1 to 64, or 0 or auto: one per CPU. */
static int set_run_jobs(void *base, const rg_opt *o, const char *v, rg_err *err)
{
	struct cli *c = base;
	char *end;

	(void)o;
	errno = 0;
	c->jobs = strtol(v, &end, 10);
	if (!strcmp(v, "auto") || (!errno && !*end && c->jobs == 0)) {
		c->jobs = sysconf(_SC_NPROCESSORS_ONLN);
		if (c->jobs < 1)
			c->jobs = 1;
		if (c->jobs > 64)
			c->jobs = 64;
		return 0;
	}
	if (errno || *end || c->jobs < 1 || c->jobs > 64)
		return rg_error(err, "--jobs takes a number from 1 to 64 (or 0 or auto: "
				"one per CPU), not '%s'", v);
	return 0;
}

static int set_outcomes(void *base, const rg_opt *o, const char *v, rg_err *err)
{
	(void)o;
	if (batch_parse_outcomes(v, &((struct cli *)base)->expect_mask, err) < 0)
		return rg_error_prefix(err, "--expect-outcome");
	return 0;
}

/* --at LOC,...: may repeat, each value kept. */
static int set_at(void *base, const rg_opt *o, const char *v, rg_err *err)
{
	explore_opts *x = &((struct cli *)base)->x;

	(void)o;
	(void)err;
	x->at = xrealloc(x->at, (x->nat + 1) * sizeof(*x->at));
	x->at[x->nat++] = (char *)v;
	return 0;
}

/* --tsan, --helgrind, --drd REPORT: one report of each tool. */
static int set_report(void *base, const rg_opt *o, const char *v, rg_err *err)
{
	const char **p = (const char **)(void *)((char *)base + o->off);

	if (*p)
		return rg_error(err, "--%s is given twice: triage takes one report of "
				"each tool", o->name);
	*p = v;
	return 0;
}

static bool parse_long(const char *v, long lo, long hi, long *out)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(v, &end, 10);
	if (errno || *end || end == v || x < lo || x > hi)
		return false;
	*out = x;
	return true;
}

/* --delays K, --preemptions K: dfs's bound, of one kind or the other. */
static int set_bound(void *base, const rg_opt *o, const char *v, rg_err *err)
{
	explore_opts *x = &((struct cli *)base)->x;
	enum explore_bound_kind k = o->name[0] == 'd' ? EXPLORE_DELAYS : EXPLORE_PREEMPTIONS;
	long n;

	if (!parse_long(v, o->lo, o->hi, &n))
		return rg_error(err, "--%s takes a number from %ld to %ld, not '%s'",
				o->name, o->lo, o->hi, v);
	if (x->bound_set && x->bound_kind != k)
		return rg_error(err, "--delays and --preemptions are two bounds of dfs: "
				"give one");
	x->bound_set = true;
	x->bound_kind = k;
	x->bound = (int)n;
	return 0;
}

static int set_seed(void *base, const rg_opt *o, const char *v, rg_err *err)
{
	char *end;

	(void)o;
	errno = 0;
	((struct cli *)base)->x.seed = strtoull(v, &end, 10);
	if (errno || *end || end == v || *v == '-')
		return rg_error(err, "--seed takes a number, not '%s'", v);
	return 0;
}

static int set_shard(void *base, const rg_opt *o, const char *v, rg_err *err)
{
	explore_opts *x = &((struct cli *)base)->x;
	const char *slash = strchr(v, '/');
	char *i = slash ? xstrndup(v, (size_t)(slash - v)) : NULL;
	bool ok = slash && parse_long(i, 0, LONG_MAX, &x->shard_i) &&
		  parse_long(slash + 1, 1, 1000000, &x->shard_n) &&
		  x->shard_i < x->shard_n;

	(void)o;
	free(i);
	if (!ok)
		return rg_error(err, "--shard takes I/N with 0 <= I < N, not '%s'", v);
	return 0;
}

static int set_expect_exit(void *base, const rg_opt *o, const char *v, rg_err *err)
{
	explore_opts *x = &((struct cli *)base)->x;
	long n;

	if (!parse_long(v, o->lo, o->hi, &n))
		return rg_error(err, "--expect-exit takes a number from %ld to %ld, "
				"not '%s'", o->lo, o->hi, v);
	x->has_expect_exit = true;
	x->expect_exit = (int)n;
	return 0;
}

static int bad_value(const rg_opt *o, const char *v, rg_err *err);

/*
 * --strategy's words and help come from explore's table of strategies
 * (runner/explore/strategies.c), so that a new strategy is its own file
 * and its row there: cli_option_row fills them before any row is read.
 */
static const char *w_strategy[16];
static char strategy_help[1024];

static void strategy_words(void)
{
	rg_buf b = RG_BUF_INIT;
	size_t n = 0;

	if (w_strategy[0])
		return;
	for (const explore_strategy *const *r = explore_strategies; *r; r++) {
		if (!(*r)->name || n + 1 >= sizeof(w_strategy) / sizeof(w_strategy[0]))
			continue;
		w_strategy[n] = (*r)->name;
		rg_buf_printf(&b, "%s%s: %s%s", n ? "; " : "", (*r)->name, (*r)->help,
			      n ? "" : " (the default)");
		n++;
	}
	snprintf(strategy_help, sizeof(strategy_help), "%s", b.s ? b.s : "");
	rg_buf_release(&b);
}

static int set_strategy(void *base, const rg_opt *o, const char *v, rg_err *err)
{
	const explore_strategy *st = explore_strategy_named(v);

	if (!st)
		return bad_value(o, v, err);
	((struct cli *)base)->x.strategy = st;
	return 0;
}

/* ---- the table ---- */

#define AT(m) RG_OPT_AT(struct cli, m)
#define X(m) RG_OPT_AT(struct cli, x.m)
#define T(m) RG_OPT_AT(struct cli, t.m)
#define ATTACH_ONCE "a process is attached to once"

static const char *const w_on_deadlock[] = { "fail", "release", NULL };
static const char *const w_color[] = { "auto", "always", "never", NULL };
static const int v_color[] = { -1, 1, 0 };
static const char *const w_points[] = { "lines", "accesses", NULL };
static const int v_points[] = { 1, 0 };
/* run_outcome_name()'s, in order: tests/check_cli.c checks they agree */
static const char *const w_outcomes[] = {
	"REPRODUCED", "PASSED", "NOT-REPRODUCED", "FAILED", "DEADLOCK",
	"SCHEDULE-DEADLOCK", "ORDER-INFEASIBLE", "NOT-ENFORCED", "TIMEOUT",
	"INTERRUPTED", "ENFORCED", "ERROR", NULL,
};

static const char *const w_verdicts[] = {
	"HARMFUL", "OUTPUT-DIFFERS", "BENIGN", "NOT-REACHED", "SINGLE-ORDER", NULL,
};

static const rg_opt rows[] = {
	/* run, and attach where it applies */
	{ .name = "repeat", .kind = RG_OPT_NUMBER, .metavar = "N", .cmds = CLI_RUN,
	  AT(repeat), .lo = 1, .hi = 1000000, .refuse = CLI_ATTACH,
	  .refuse_why = ATTACH_ONCE,
	  .help = "run N times (output is kept; of the runs with an unexpected "
		  "outcome the first is shown in full, five more in a line, the "
		  "rest counted; racegate's stdin is shared by the runs, so "
		  "only the first one reads what is piped in)" },
	{ .name = "jobs", .short_name = 'j', .kind = RG_OPT_NUMBER, .metavar = "J",
	  .cmds = CLI_RUN, .set = set_run_jobs, .lo = 0, .hi = 64,
	  .refuse = CLI_ATTACH, .refuse_why = ATTACH_ONCE,
	  .help = "run up to J runs at once, each in a worker process (0 or auto: "
		  "one per CPU; also --jobs=J, -jJ)" },
	{ .name = "stop-on-first", .kind = RG_OPT_FLAG, .cmds = CLI_RUN,
	  AT(stop_on_first), .refuse = CLI_ATTACH, .refuse_why = ATTACH_ONCE,
	  .help = "stop at the first run that is not what was expected, or that "
		  "reproduces the bug when the spec expects it" },
	{ .name = "expect-outcome", .kind = RG_OPT_LIST, .metavar = "LIST",
	  .cmds = CLI_RUN | CLI_ATTACH, .set = set_outcomes, .words = w_outcomes,
	  .needs = "a list of outcomes",
	  .help = "outcomes that count as a pass, comma-separated (default: by "
		  "exit status: 0 when every run met its expectation)" },
	{ .name = "report", .kind = RG_OPT_FILE, .metavar = "FILE.json",
	  .cmds = CLI_RUN | CLI_ATTACH, AT(report),
	  .help = "JSON report, one object per run (report.md in "
		  "share/doc/racegate); - for stdout" },
	{ .name = "junit", .kind = RG_OPT_FILE, .metavar = "FILE.xml",
	  .cmds = CLI_RUN | CLI_ATTACH, AT(junit),
	  .help = "JUnit XML report, one test case per run" },
	{ .name = "tap", .kind = RG_OPT_FLAG, .cmds = CLI_RUN | CLI_ATTACH, AT(tap),
	  .help = "TAP version 13 on stdout (the program's stdout is captured and "
		  "shown in the YAML block)" },
	{ .name = "trace", .kind = RG_OPT_FILE, .metavar = "FILE.json",
	  .cmds = CLI_RUN | CLI_ATTACH, AT(trace),
	  .help = "Chrome trace events for Perfetto / chrome://tracing (a report "
		  "file that cannot be written is refused before the first run)" },
	{ .name = "timeout", .kind = RG_OPT_DURATION, .metavar = "D", .cmds = CLI_RUN,
	  AT(timeout_ms),
	  .help = "whole-run timeout, e.g. 10s, 500ms, 2m (default: the spec's "
		  "timeout:, else 60s)" },
	{ .name = "for", .kind = RG_OPT_DURATION, .metavar = "D", .cmds = CLI_ATTACH,
	  AT(timeout_ms),
	  .help = "let the process go after D, NOT-ENFORCED if the gates did not "
		  "all act (default: the spec's timeout:, else no limit)" },
	{ .name = "timeout", .kind = RG_OPT_DURATION, .metavar = "D",
	  .cmds = CLI_ATTACH, AT(timeout_ms),
	  .help = "the same as --for" },
	{ .name = "on-deadlock", .kind = RG_OPT_ENUM, .cmds = CLI_RUN | CLI_ATTACH,
	  AT(on_deadlock), .words = w_on_deadlock,
	  .help = "when held threads wait only on threads that wait on them (the "
		  "wait-for graph): end the run as SCHEDULE-DEADLOCK (fail, the "
		  "default), or release the held threads oldest first and report "
		  "ORDER-INFEASIBLE" },
	{ .name = "quiet-period", .kind = RG_OPT_DURATION, .metavar = "D",
	  .cmds = CLI_RUN | CLI_ATTACH, AT(quiet_ms),
	  .takes = "a duration such as 100ms or 1s",
	  .help = "how long such threads must stay stuck, with nothing changing, "
		  "before it is a deadlock (default 100ms, or two looks that "
		  "agree when none of them waits for anyone)" },
	{ .name = "keep-stopped", .kind = RG_OPT_FLAG, .cmds = CLI_RUN,
	  AT(keep_stopped), .refuse = CLI_ATTACH,
	  .refuse_why = "the process always goes on once racegate lets it go",
	  .help = "at a verdict (deadlock, timeout) leave the program stopped and "
		  "detached, with no breakpoint in it, and print the gdb -p PID "
		  "command to look inside" },
	{ .name = "no-fastpath", .kind = RG_OPT_FLAG, .cmds = CLI_RUN | CLI_ATTACH,
	  AT(no_fastpath),
	  .help = "evaluate every gate hit through a trap (no jump pads; for "
		  "comparison, and as an escape hatch)" },
	{ .name = "follow-fork", .kind = RG_OPT_FLAG, .flags = RG_OPT_NEGATABLE,
	  .cmds = CLI_RUN, AT(follow_fork), .refuse = CLI_ATTACH,
	  .refuse_why = "the children a process forks while attached run untraced",
	  .help = "trace the program's fork children too: gates with process: act "
		  "in them (the default when the spec names a process); "
		  "--no-follow-fork lets them go untraced" },
	{ .name = "color", .kind = RG_OPT_ENUM, .flags = RG_OPT_OPTVAL, .dflt = "always",
	  .alias = "colour", .cmds = CLI_RUN | CLI_ATTACH, AT(color),
	  .words = w_color, .vals = v_color,
	  .help = "colour the outcome (auto, the default: on a terminal, unless "
		  "NO_COLOR is set; --color alone: always)" },

	/* lines */
	{ .name = "vars", .kind = RG_OPT_FLAG, .cmds = CLI_LINES, AT(vars),
	  .help = "under each line, the variables a when: condition may name there "
		  "(the function's locals, parameters and statics, with their "
		  "types; those optimized out there say so)" },

	/* explore */
	{ .name = "at", .kind = RG_OPT_LIST, .metavar = "LOC[,LOC...]",
	  .cmds = CLI_EXPLORE, .set = set_at, .needs = "a list of locations",
	  .help = "scheduling points, may repeat: FILE (every line of it with "
		  "code), FUNCTION (every line of it), or any at: location "
		  "(FILE:LINE, FILE:LINE+N, *FUNCTION, ...)" },
	{ .name = "points", .kind = RG_OPT_ENUM, .cmds = CLI_EXPLORE, X(lines_only),
	  .words = w_points, .vals = v_points,
	  .help = "a FILE or FUNCTION also gets a point before each instruction "
		  "that touches memory other threads see, as FILE:LINE+N "
		  "(accesses, the default), or not (lines)" },
	{ .name = "sync", .kind = RG_OPT_FLAG, .flags = RG_OPT_NEGATABLE,
	  .cmds = CLI_EXPLORE, X(sync),
	  .help = "also schedule at the thread library's mutex, condition, "
		  "semaphore, rwlock, barrier, spin lock, create and join calls "
		  "(default: on); a lock, semaphore or barrier that would block, or "
		  "a join on a live thread, is known not to run" },
	{ .name = "virtual-time", .kind = RG_OPT_FLAG, .flags = RG_OPT_NEGATABLE,
	  .cmds = CLI_EXPLORE, X(virtual_time),
	  .help = "a thread asleep in nanosleep, usleep, poll or epoll_wait with a "
		  "timeout is parked there, and its timeout fires when the schedule "
		  "says, at the latest when no held thread can run: sleeps cost a "
		  "schedule nothing (default: on; explore.md, Time under "
		  "serialisation)" },
	{ .name = "follow-fork", .kind = RG_OPT_FLAG, .flags = RG_OPT_NEGATABLE,
	  .cmds = CLI_EXPLORE, X(follow_fork),
	  .help = "trace the program's fork children too and schedule their "
		  "threads with the others; the file written names them with "
		  "process: (default: off; each schedule then runs anew)" },
	{ .name = "fork-server", .kind = RG_OPT_FLAG, .flags = RG_OPT_NEGATABLE,
	  .cmds = CLI_EXPLORE, X(fork_server),
	  .help = "run each schedule in a copy of the program made once its "
		  "libraries are loaded, before any of its code runs, not in a new "
		  "exec (default: on, where the program can be copied: explore.md, "
		  "The fork server)" },
	{ .name = "strategy", .kind = RG_OPT_ENUM, .cmds = CLI_EXPLORE,
	  .set = set_strategy, .words = w_strategy, .help = strategy_help },
	{ .name = "depth", .kind = RG_OPT_NUMBER, .metavar = "D", .cmds = CLI_EXPLORE,
	  X(depth), .lo = 1, .hi = 64,
	  .help = "pct: D-1 priority change points per schedule (default 3)" },
	{ .name = "pct-steps", .kind = RG_OPT_NUMBER, .metavar = "K",
	  .cmds = CLI_EXPLORE, X(est_steps), .lo = 1, .hi = 1L << 30,
	  .takes = "a positive number",
	  .help = "pct: the change points fall among the first K decisions "
		  "(default: as many as a first run made)" },
	{ .name = "delays", .kind = RG_OPT_NUMBER, .metavar = "K", .cmds = CLI_EXPLORE,
	  .set = set_bound, .lo = 0, .hi = 64,
	  .help = "dfs: at most K delays (threads that could run, skipped) per "
		  "schedule, fewest first (default 3)" },
	{ .name = "preemptions", .kind = RG_OPT_NUMBER, .metavar = "K",
	  .cmds = CLI_EXPLORE, .set = set_bound, .lo = 0, .hi = 64,
	  .help = "dfs: at most K preemptions per schedule instead" },
	{ .name = "schedules", .kind = RG_OPT_NUMBER, .metavar = "N",
	  .cmds = CLI_EXPLORE, X(schedules), .lo = 1, .hi = 100000000,
	  .help = "at most N schedules (default 1000)" },
	{ .name = "shrink-runs", .kind = RG_OPT_NUMBER, .metavar = "N",
	  .cmds = CLI_EXPLORE, X(shrink_runs), .lo = 0, .hi = 100000000,
	  .help = "shrink a failure in at most N runs, then write the shortest "
		  "schedule found by then (default: as many as it needs for a failure "
		  "of at most 20 deviations, else 200, or more while shrinking has "
		  "taken less than 20 s; 0: the schedule as found)" },
	{ .name = "time", .kind = RG_OPT_DURATION, .metavar = "D", .cmds = CLI_EXPLORE,
	  X(time_ms), .help = "the whole command within D: search, shrinking and --verify" },
	{ .name = "seed", .kind = RG_OPT_NUMBER, .metavar = "S", .cmds = CLI_EXPLORE,
	  .set = set_seed, .takes = "a number",
	  .help = "random and pct draw schedule I of seed S (default 1)" },
	{ .name = "shard", .kind = RG_OPT_TEXT, .metavar = "I/N", .cmds = CLI_EXPLORE,
	  .set = set_shard, .needs = "I/N",
	  .help = "run schedule indices I, I+N, I+2N, ... (random, pct); dfs: the "
		  "subtrees numbered I mod N (explore.md in share/doc/racegate)" },
	{ .name = "jobs", .short_name = 'j', .kind = RG_OPT_NUMBER, .metavar = "J",
	  .cmds = CLI_EXPLORE, X(jobs), .lo = 1, .hi = 256,
	  .help = "run J random or pct schedules at once, in worker processes; the "
		  "same failure and counts as with 1" },
	{ .name = "merge", .kind = RG_OPT_FLAG, .cmds = CLI_EXPLORE, AT(merge),
	  .help = "read the --report files of a search's --shard I/N runs, given as "
		  "arguments, and say what the whole search found" },
	{ .name = "replay", .kind = RG_OPT_TEXT, .metavar = "ID", .cmds = CLI_EXPLORE,
	  X(replay), .needs = "a schedule id",
	  .help = "run the schedule ID printed by an earlier explore" },
	{ .name = "expect-exit", .kind = RG_OPT_NUMBER, .metavar = "N",
	  .cmds = CLI_EXPLORE | CLI_TRIAGE, .set = set_expect_exit, .lo = 0, .hi = 255,
	  .help = "the exit status of a good run (default 0); crashes, signals, "
		  "deadlocks and timeouts always fail" },
	{ .name = "expect-stdout", .kind = RG_OPT_REGEX, .metavar = "RE",
	  .cmds = CLI_EXPLORE | CLI_TRIAGE, X(expect_stdout),
	  .help = "a good run's stdout matches the extended regex RE" },
	{ .name = "expect", .kind = RG_OPT_FILE, .metavar = "FILE.yaml",
	  .cmds = CLI_EXPLORE | CLI_TRIAGE, X(expect_file),
	  .help = "judge each run by FILE's expect: as run does: a bug there "
		  "is what to find, a good run what not to miss" },
	{ .name = "output", .short_name = 'o', .kind = RG_OPT_FILE,
	  .metavar = "FILE.yaml", .cmds = CLI_EXPLORE, X(out),
	  .help = "write the gates file of the shrunk failing schedule, only if "
		  "racegate run reproduces it every time of --verify N" },
	{ .name = "verify", .kind = RG_OPT_NUMBER, .metavar = "N", .cmds = CLI_EXPLORE,
	  X(verify), .lo = 1, .hi = 100000,
	  .help = "replays of the gates file before it is written (default 20)" },
	{ .name = "fewer-gates", .kind = RG_OPT_FLAG, .cmds = CLI_EXPLORE,
	  X(fewer_gates),
	  .help = "leave out of it each gate that --verify replays, twice, say the "
		  "failure does not need (a statistical test)" },
	{ .name = "report", .kind = RG_OPT_FILE, .metavar = "FILE.json",
	  .cmds = CLI_EXPLORE, X(report),
	  .help = "a JSON report of the search (explore.md in share/doc/racegate)" },
	{ .name = "trace", .kind = RG_OPT_FILE, .metavar = "FILE.json",
	  .cmds = CLI_EXPLORE, X(trace),
	  .help = "a replay of the gates file written, as run --trace writes it" },
	{ .name = "markdown", .kind = RG_OPT_FILE, .metavar = "FILE.md",
	  .cmds = CLI_EXPLORE, X(markdown),
	  .help = "a bug report: the command, the gates file, and the failing "
		  "interleaving as a Mermaid sequence diagram" },
	{ .name = "timeout", .kind = RG_OPT_DURATION, .metavar = "D",
	  .cmds = CLI_EXPLORE, X(timeout_ms),
	  .help = "each schedule's run timeout (default 10s)" },
	{ .name = "quiet-period", .kind = RG_OPT_DURATION, .metavar = "D",
	  .cmds = CLI_EXPLORE, X(quiet_ms),
	  .help = "how long a thread that blocks where explore cannot see it is "
		  "waited for (default 30ms)" },

	/* triage */
	{ .name = "tsan", .kind = RG_OPT_FILE, .metavar = "REPORT", .cmds = CLI_TRIAGE,
	  T(tsan), .set = set_report,
	  .help = "the ThreadSanitizer report to triage (what the program printed on "
		  "stderr)" },
	{ .name = "helgrind", .kind = RG_OPT_FILE, .metavar = "REPORT",
	  .cmds = CLI_TRIAGE, T(helgrind), .set = set_report,
	  .help = "a Helgrind report (valgrind --tool=helgrind's output, its "
		  "default --history-level=full); with another report, the races "
		  "of both, each pair of places once" },
	{ .name = "drd", .kind = RG_OPT_FILE, .metavar = "REPORT",
	  .cmds = CLI_TRIAGE, T(drd), .set = set_report,
	  .help = "a DRD report (valgrind --tool=drd's output); an access DRD "
		  "does not show is taken from the report's other accesses to the "
		  "same bytes, else the race is not triaged" },
	{ .name = "output", .short_name = 'o', .kind = RG_OPT_DIR, .metavar = "DIR",
	  .cmds = CLI_TRIAGE, T(outdir),
	  .help = "where the gates files go (default: the current folder): "
		  "race-N.yaml for a HARMFUL race, race-N-order-1.yaml and "
		  "race-N-order-2.yaml for the others that ran both ways" },
	{ .name = "report", .kind = RG_OPT_FILE, .metavar = "FILE.json",
	  .cmds = CLI_TRIAGE, T(report),
	  .help = "a JSON report: a races list, each with its verdict, first and "
		  "second access and gates files (triage.md in share/doc/racegate)" },
	{ .name = "markdown", .kind = RG_OPT_FILE, .metavar = "FILE.md",
	  .cmds = CLI_TRIAGE, T(markdown),
	  .help = "a bug report of the HARMFUL races: their accesses and source "
		  "lines, the order that fails as a Mermaid diagram, its gates file" },
	{ .name = "search", .kind = RG_OPT_NUMBER, .metavar = "N", .cmds = CLI_TRIAGE,
	  T(search), .lo = 0, .hi = 1000000,
	  .help = "when no order of a race fails, search N schedules with its "
		  "accesses and the sync operations as the only points (default "
		  "100; 0: no search)" },
	{ .name = "expect-verdicts", .kind = RG_OPT_LIST, .metavar = "LIST",
	  .cmds = CLI_TRIAGE, T(expect_verdicts), .words = w_verdicts,
	  .needs = "a list of verdicts",
	  .help = "one verdict per race of the report, in its order, comma-separated: "
		  "exit 0 when each race's verdict is the one listed, 1 when one is "
		  "not (a test that keeps a race BENIGN)" },
	{ .name = "time", .kind = RG_OPT_DURATION, .metavar = "D", .cmds = CLI_TRIAGE,
	  T(wait_ms),
	  .help = "how long a gated thread waits for the other before the order is "
		  "called impossible (default 2s)" },

	/* several commands */
	{ .name = "source-dir", .kind = RG_OPT_DIR, .metavar = "DIR",
	  .cmds = CLI_RUN | CLI_CHECK | CLI_ATTACH | CLI_LINES | CLI_EXPLORE |
		  CLI_TRIAGE, AT(source_dir),
	  .help = "read the program's sources (FILE:/REGEX/ anchors, lines) under "
		  "DIR, not where the program was compiled" },
	{ .name = "quiet", .short_name = 'q', .kind = RG_OPT_FLAG,
	  .cmds = CLI_RUN | CLI_ATTACH | CLI_EXPLORE | CLI_TRIAGE, AT(quiet),
	  .help = "print only the outcome line(s); of many runs, the tally" },
	{ .name = "verbose", .short_name = 'v', .kind = RG_OPT_FLAG,
	  .cmds = CLI_RUN | CLI_CHECK | CLI_ATTACH | CLI_EXPLORE, AT(verbose),
	  .help = "say what racegate does (setup steps, breakpoint counts, the "
		  "arrivals each when: condition rejected), and print every run's "
		  "report and output" },
	{ .name = "help", .short_name = 'h', .kind = RG_OPT_FLAG, .cmds = CLI_EVERY,
	  AT(help), .help = "print this help" },
};

/* ---- tables ---- */

static const struct {
	const rg_opt *rows;
	size_t n;
	size_t base;           /* where in struct cli the rows' offsets count from */
} tables[] = {
	{ rows, sizeof(rows) / sizeof(rows[0]), 0 },
};

const rg_opt *cli_option_row(size_t k, size_t *base)
{
	strategy_words();
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); k -= tables[t++].n)
		if (k < tables[t].n) {
			*base = tables[t].base;
			return &tables[t].rows[k];
		}
	return NULL;
}

/* ---- a value ---- */

/* "a, b or c" of words. */
static void put_words(rg_buf *b, const char *const *w, const char *last)
{
	for (size_t i = 0; w[i]; i++)
		rg_buf_printf(b, "%s%s", i == 0 ? "" : w[i + 1] ? ", " : last, w[i]);
}

/* What o's value must be, for "--NAME takes ...". */
static void put_takes(rg_buf *b, const rg_opt *o)
{
	if (o->takes)
		rg_buf_puts(b, o->takes);
	else if (o->kind == RG_OPT_NUMBER)
		rg_buf_printf(b, "a number from %ld to %ld", o->lo, o->hi);
	else if (o->kind == RG_OPT_DURATION)
		rg_buf_puts(b, "a duration such as 10s, 500ms or 2m");
	else if (o->kind == RG_OPT_ENUM)
		put_words(b, o->words, " or ");
	else
		rg_buf_puts(b, "a value");
}

/* What o needs when given no value, for "'ARG' needs ...". */
static void put_needs(rg_buf *b, const rg_opt *o)
{
	static const char *const noun[] = {
		[RG_OPT_NUMBER] = "a number", [RG_OPT_DURATION] = "a duration",
		[RG_OPT_FILE] = "a file name", [RG_OPT_DIR] = "a folder",
		[RG_OPT_LIST] = "a list", [RG_OPT_REGEX] = "a regex",
		[RG_OPT_TEXT] = "a value",
	};

	if (o->needs)
		rg_buf_puts(b, o->needs);
	else if (o->kind == RG_OPT_ENUM)
		put_words(b, o->words, " or ");
	else
		rg_buf_puts(b, noun[o->kind] ? noun[o->kind] : "a value");
}

static int bad_value(const rg_opt *o, const char *v, rg_err *err)
{
	rg_buf b = RG_BUF_INIT;

	put_takes(&b, o);
	rg_error(err, "--%s takes %s, not '%s'", o->name, b.s, v);
	rg_buf_release(&b);
	return -1;
}

/* n into the field at p, of its size (a bool, an int or a long). */
static void store_int(void *p, size_t size, long n)
{
	if (size == sizeof(bool))
		*(bool *)p = n != 0;
	else if (size == sizeof(int))
		*(int *)p = (int)n;
	else if (size == sizeof(long))
		*(long *)p = n;
	else
		rg_bug("an option's field of %zu bytes", size);
}

/*
 * Checks v (NULL for a flag; for a flag "0" means --no-NAME) as o's kind
 * says and stores it into base.  0, or -1 with err.
 */
static int take_value(const rg_opt *o, void *base, const char *v, rg_err *err)
{
	char *p = (char *)base + o->off;
	regex_t re;
	long n;
	size_t k;

	if (o->set)
		return o->set(base, o, v ? v : "1", err);
	switch (o->kind) {
	case RG_OPT_FLAG:
		store_int(p, o->size, !(v && !strcmp(v, "0")));
		return 0;
	case RG_OPT_NUMBER:
		if (!parse_long(v, o->lo, o->hi, &n))
			return bad_value(o, v, err);
		store_int(p, o->size, n);
		return 0;
	case RG_OPT_DURATION:
		n = spec_parse_duration(v);
		if (n <= 0)
			return bad_value(o, v, err);
		store_int(p, o->size, n);
		return 0;
	case RG_OPT_ENUM:
		for (k = 0; o->words[k] && strcmp(o->words[k], v); k++)
			;
		if (!o->words[k])
			return bad_value(o, v, err);
		store_int(p, o->size, o->vals ? o->vals[k] : (long)k);
		return 0;
	case RG_OPT_REGEX:
		if (regcomp(&re, v, REG_EXTENDED | REG_NOSUB | REG_NEWLINE))
			return rg_error(err, "--%s: '%s' is not a POSIX extended regex",
					o->name, v);
		regfree(&re);
		break;
	default:
		break;
	}
	*(const char **)p = v;
	return 0;
}

/* Is a value of kind k a name or text, which is missing when empty? */
static bool names_text(enum rg_opt_kind k)
{
	return k == RG_OPT_FILE || k == RG_OPT_DIR || k == RG_OPT_LIST ||
	       k == RG_OPT_REGEX || k == RG_OPT_TEXT;
}

/* ---- an option on the command line ---- */

/* What argv[*i] names: a row of cmd, with its value if it carries one. */
struct named {
	const rg_opt *o;
	size_t base;
	bool neg;              /* --no-NAME */
	const char *inline_v;  /* after '=' (or a short option's rest), or NULL */
};

/* Does arg (without its dashes, up to '=' or its end) name o? */
static bool names_long(const rg_opt *o, const char *arg, size_t len, bool *neg)
{
	*neg = false;
	if (strlen(o->name) == len && !strncmp(o->name, arg, len))
		return true;
	if (o->alias && strlen(o->alias) == len && !strncmp(o->alias, arg, len))
		return true;
	if ((o->flags & RG_OPT_NEGATABLE) && len == strlen(o->name) + 3 &&
	    !strncmp(arg, "no-", 3) && !strncmp(arg + 3, o->name, len - 3))
		return *neg = true;
	return false;
}

/* The row arg names among the rows whose cmds or refuse has bits; false if none. */
static bool find(const char *arg, unsigned bits, bool refused, struct named *m)
{
	const rg_opt *o;
	size_t k, base;

	memset(m, 0, sizeof(*m));
	for (k = 0; (o = cli_option_row(k, &base)); k++) {
		if (!((refused ? o->refuse : o->cmds) & bits))
			continue;
		if (arg[1] == '-') {
			const char *eq = strchr(arg + 2, '=');
			size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);

			if (!names_long(o, arg + 2, len, &m->neg))
				continue;
			m->inline_v = eq ? eq + 1 : NULL;
		} else {
			if (!o->short_name || arg[1] != o->short_name)
				continue;
			/* -j2, -j=2; a flag's -q alone */
			m->inline_v = !arg[2] ? NULL : arg[2] == '=' ? arg + 3 : arg + 2;
		}
		m->o = o;
		m->base = base;
		return true;
	}
	return false;
}

/* Is arg short flags run together (-qv), which m does not name alone? */
static bool bundle(const char *arg, const struct named *m)
{
	return arg[1] != '-' && m->o->kind == RG_OPT_FLAG && m->inline_v;
}

/* The name of cmd's options nearest to arg's, when it is near enough. */
static const char *nearest(const char *arg, unsigned bit, char *buf, size_t size)
{
	const char *eq = strchr(arg, '=');
	char *typed = eq ? xstrndup(arg, (size_t)(eq - arg)) : xstrdup(arg);
	size_t best = (size_t)-1, k, base, d;
	const rg_opt *o;

	for (k = 0; (o = cli_option_row(k, &base)); k++) {
		if (!(o->cmds & bit) || (o->flags & RG_OPT_HIDDEN))
			continue;
		for (int neg = 0; neg <= !!(o->flags & RG_OPT_NEGATABLE); neg++) {
			char cand[96];

			snprintf(cand, sizeof(cand), "--%s%s", neg ? "no-" : "", o->name);
			d = rg_edit_distance(typed, cand);
			if (d < best) {
				best = d;
				snprintf(buf, size, "%s", cand);
			}
		}
	}
	/* a slip of a key or two, not another word */
	d = strlen(typed) >= 8 ? 2 : 1;
	free(typed);
	return best <= d ? buf : NULL;
}

/* Says why cmd does not take arg. */
static int unknown(const cli_command *cmd, const char *arg, rg_err *err)
{
	struct named m;
	char near[96];
	size_t n, i;
	const cli_command *all = cli_commands(&n);

	if (find(arg, cmd->bit, true, &m) && !bundle(arg, &m))
		return rg_error(err, "--%s does not apply to %s: %s", m.o->name,
				cmd->name, m.o->refuse_why);
	for (i = 0; i < n; i++)
		if (all[i].bit != cmd->bit && find(arg, all[i].bit, false, &m) &&
		    !bundle(arg, &m))
			return rg_error(err, "unknown option '%s' (an option of %s; see "
					"racegate %s --help)", arg, all[i].name, cmd->name);
	if (arg[1] == '-' && nearest(arg, cmd->bit, near, sizeof(near)))
		return rg_error(err, "unknown option '%s' (did you mean '%s'?)", arg, near);
	return rg_error(err, "unknown option '%s' (see racegate %s --help)", arg,
			cmd->name);
}

int cli_take_option(struct cli *c, const cli_command *cmd, int argc, char **argv,
		    int *i, rg_err *err)
{
	const char *a = argv[*i], *v;
	struct named m;
	rg_buf b = RG_BUF_INIT;

	if (!find(a, cmd->bit, false, &m))
		return unknown(cmd, a, err);
	if (m.o->kind == RG_OPT_FLAG) {
		if (m.inline_v && a[1] == '-')
			return rg_error(err, "--%s takes no value, not '%s'", m.o->name,
					m.inline_v);
		if (bundle(a, &m))      /* -qv: no bundles of short options */
			return unknown(cmd, a, err);
		return take_value(m.o, (char *)c + m.base, m.neg ? "0" : NULL, err);
	}
	v = m.inline_v;
	if (!v && (m.o->flags & RG_OPT_OPTVAL))
		v = m.o->dflt;
	else if (!v && *i + 1 < argc && strcmp(argv[*i + 1], "--"))
		v = argv[++*i];         /* "--" ends the options: never a value */
	if (!v || (!*v && names_text(m.o->kind))) {
		put_needs(&b, m.o);
		rg_error(err, "'%s' needs %s", a, b.s);
		rg_buf_release(&b);
		return -1;
	}
	return take_value(m.o, (char *)c + m.base, v, err);
}
