/*
 * racegate's command line: `run`, `check` and `lines` (lines.c); cli.h.
 */
#include "cli.h"
#include "run.h"
#include "explore.h"
#include "interrupt.h"
#include "objects.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RACEGATE_VERSION
#define RACEGATE_VERSION "0.0.0"
#endif

static const char usage_text[] =
"usage: racegate run   [OPTIONS] GATES.yaml [-- COMMAND [ARGS...]]\n"
"       racegate check GATES.yaml [-- COMMAND [ARGS...]]\n"
"       racegate attach [OPTIONS] PID GATES.yaml\n"
"       racegate lines FILE[:FROM-TO] [--vars] [--source-dir DIR] -- PROGRAM\n"
"       racegate explore [OPTIONS] [--at LOC[,LOC...]] -- COMMAND [ARGS...]\n"
"       racegate --help | --version\n";

static const char help_text[] =
"racegate makes a concurrency bug happen on every run, without changing the\n"
"program: it runs the program under ptrace, puts breakpoints at the source\n"
"lines named in GATES.yaml, and holds each thread that reaches one until the\n"
"gate lets it go.  Only threads at a gate are ever stopped.\n"
"\n"
"Commands:\n"
"  run GATES.yaml [-- COMMAND...]    run the program under the gates and judge\n"
"                                    it against the spec's expect: block\n"
"  check GATES.yaml [-- COMMAND...]  validate the spec and resolve every gate's\n"
"                                    location in the program; runs nothing\n"
"  attach PID GATES.yaml             the gates on running process PID: seize\n"
"                                    its threads, arm, and once every gate\n"
"                                    that counts has acted (ENFORCED), --for\n"
"                                    runs out or racegate is interrupted, let\n"
"                                    it go on with nothing of racegate's left\n"
"                                    location in the program (and compile its\n"
"                                    when: condition there); runs nothing\n"
"  lines FILE[:FROM-TO] -- PROGRAM   every line of FILE (from FROM to TO) where\n"
"                                    a gate can go: its function, how many\n"
"                                    breakpoints (inlined copies) and its text\n"
"  explore [--at LOC,...] -- COMMAND  search the orderings of the program's\n"
"                                    threads at scheduling points for one that\n"
"                                    makes it fail; shrink it; write a gates\n"
"                                    file that reproduces it (docs/explore.md)\n"
"\n"
"The program is the spec's command: (relative to the spec file), or the\n"
"COMMAND after `--` (relative to the current directory).  It must be built\n"
"with -g for FILE:LINE locations.\n"
"\n"
"Options of run:\n"
"  --repeat N         run N times (output is kept, and shown for runs with an\n"
"                     unexpected outcome; racegate's stdin is shared by the\n"
"                     runs, so only the first one reads what is piped in)\n"
"  --jobs J, -j J     run up to J runs at once, each in a worker process\n"
"                     (0 or auto: one per CPU; also --jobs=J, -jJ)\n"
"  --stop-on-first    stop at the first run that is not what was expected,\n"
"                     or that reproduces the bug when the spec expects it\n"
"  --expect-outcome A,B\n"
"                     outcomes that count as a pass (default: exit status 0)\n"
"  --report FILE.json JSON report, one object per run (docs/report.md)\n"
"  --junit FILE.xml   JUnit XML report, one test case per run\n"
"  --tap              TAP version 13 on stdout (the program's stdout is\n"
"                     captured and shown in the YAML block)\n"
"  --trace FILE.json  Chrome trace events for Perfetto / chrome://tracing\n"
"                     (a report file that cannot be written is refused\n"
"                     before the first run)\n"
"  --timeout D        whole-run timeout, e.g. 10s, 500ms, 2m (default: the\n"
"                     spec's timeout:, else 60s)\n"
"  --on-deadlock fail|release\n"
"                     when held threads wait only on threads that wait on\n"
"                     them (the wait-for graph): end the run as\n"
"                     SCHEDULE-DEADLOCK (fail, the default), or release the\n"
"                     held threads oldest first and report ORDER-INFEASIBLE\n"
"  --quiet-period D   how long such threads must stay stuck, with nothing\n"
"                     changing, before it is a deadlock (default 100ms)\n"
"  --keep-stopped     at a verdict (deadlock, timeout) leave the program\n"
"                     stopped and detached, with no breakpoint in it, and\n"
"                     print the gdb -p PID command to look inside\n"
"  --no-fastpath      evaluate every gate hit through a trap (no jump pads;\n"
"                     for comparison, and as an escape hatch)\n"
"  --follow-fork      trace the program's fork children too: gates with\n"
"                     process: act in them (the default when the spec names\n"
"                     a process); --no-follow-fork lets them go untraced\n"
"  --quiet, -q        print only the outcome line(s)\n"
"  --verbose, -v      print every run's report and output, and what\n"
"                     racegate does (setup steps, breakpoint counts, the\n"
"                     arrivals each when: condition rejected)\n"
"  --color=auto|always|never\n"
"                     colour the outcome (auto: on a terminal, unless NO_COLOR)\n"
"\n"
"Options of lines:\n"
"  --vars             under each line, the variables a when: condition may\n"
"                     name there (the function's locals, parameters and\n"
"                     statics, with their types; those optimized out there\n"
"                     say so)\n"
"\n"
"Options of attach: --for D (also --timeout D: let the process go after D,\n"
"  NOT-ENFORCED if the gates did not all act; default: the spec's timeout:,\n"
"  else none), --on-deadlock, --quiet-period, --report, --junit, --tap,\n"
"  --trace, --quiet, --verbose, --color, --source-dir.  The program is the\n"
"  process's own (the spec's command: is not used); threads that exist\n"
"  already are selected by {tid: N} or {name: NAME} (started:ALIAS opens at\n"
"  the attach for them).  The process is never killed: an exit it makes\n"
"  while attached is judged by expect: (exit status only).  Children it\n"
"  forks while attached run untraced (--follow-fork is refused).\n"
"\n"
"Options of explore (and its --report, --timeout, --quiet-period (default\n"
"30ms), --quiet, --verbose, --source-dir, as for run):\n"
"  --at LOC[,LOC...]  scheduling points, may repeat: FILE (every line of it\n"
"                     with code), FUNCTION (every line of it), or any at:\n"
"                     location (FILE:LINE, FILE:LINE+N, *FUNCTION, ...)\n"
"  --points lines|accesses\n"
"                     a FILE or FUNCTION also gets a point before each\n"
"                     instruction that touches memory other threads see,\n"
"                     as FILE:LINE+N (accesses, the default), or not (lines)\n"
"  --sync, --no-sync  also schedule at the thread library's mutex, condition,\n"
"                     semaphore, rwlock, barrier, spin lock, create and join\n"
"                     calls (default: on); a lock, semaphore or barrier that\n"
"                     would block, or a join on a live thread, is known not\n"
"                     to run\n"
"  --strategy random|pct|pct-fair|dfs\n"
"                     uniform among runnable threads (default); probabilistic\n"
"                     concurrency testing with --depth D (default 3, steps\n"
"                     from a first run or --pct-steps K); pct where a thread\n"
"                     spinning at a point gives way; depth-first with at\n"
"                     most --delays K (default 3) per schedule, or at most\n"
"                     --preemptions K\n"
"  --schedules N      at most N schedules (default 1000); --time D: or D\n"
"  --seed S           random and pct(-fair) draw schedule I of seed S\n"
"                     (default 1)\n"
"  --shard I/N        run schedule indices I, I+N, I+2N, ... (random, pct,\n"
"                     pct-fair); dfs: the subtrees numbered I mod N\n"
"                     (docs/explore.md)\n"
"  --jobs J, -j J     run J random or pct(-fair) schedules at once, in worker\n"
"                     processes; the same failure and counts as with 1\n"
"  --replay ID        run the schedule ID printed by an earlier explore\n"
"  --expect-exit N    the exit status of a good run (default 0); crashes,\n"
"                     signals, deadlocks and timeouts always fail\n"
"  --expect-stdout RE a good run's stdout matches the extended regex RE\n"
"  --expect FILE.yaml judge each schedule by FILE's expect: as run does: a\n"
"                     bug there is what to find, a good run what not to miss\n"
"  -o FILE.yaml       write the gates file of the shrunk failing schedule,\n"
"                     only if racegate run reproduces it every time of\n"
"                     --verify N (default 20); --output FILE.yaml likewise\n"
"  --fewer-gates      leave out of it each gate that --verify replays, twice,\n"
"                     say the failure does not need (a statistical test)\n"
"  --trace FILE.json  a replay of that gates file, as run --trace writes it\n"
"  --markdown FILE.md a bug report: the command, the gates file, and the\n"
"                     failing interleaving as a Mermaid sequence diagram\n"
"  Exit status: 0 no failure found, 1 a failure found, 2 setup error.\n"
"\n"
"Options of run, check and lines:\n"
"  --source-dir DIR   read the program's sources (FILE:/REGEX/ anchors, lines)\n"
"                     under DIR, not where the program was compiled\n"
"\n"
"Locations (at:, see docs/gates.md):\n"
"  FILE:LINE          counter.c:12, every inlined copy of the line\n"
"  FILE:/REGEX/       the one line of FILE matching the POSIX regex, which\n"
"                     survives edits above it: counter.c:/count\\+\\+/\n"
"  FUNCTION:/REGEX/   the one line of FUNCTION matching the regex\n"
"  FILE:LINE+N        the N-th instruction (from 0) of the line: count.c:12+2\n"
"  FUNCTION           after the prologue; *FUNCTION: the exact entry;\n"
"                     *FUNCTION+N: its N-th instruction\n"
"  Class::method      C++ by qualified name; overloads with their parameter\n"
"                     types: 'Queue::push(int)', 'log(std::string)'; a\n"
"                     template by its bare name is every instantiation: Q::put\n"
"  *0xADDR            an address in the executable, before load bias\n"
"  Every breakpoint address must start an instruction: one inside an\n"
"  instruction is refused, naming the boundaries around it.\n"
"\n"
"A gates file (see docs/gates.md):\n"
"  version: 1\n"
"  command: [./counter]\n"
"  threads:\n"
"    w1: {start: worker, nth: 1}\n"
"  gates:\n"
"    - {name: w1-loaded, at: counter.c:12, thread: w1, wait: w2-stored}\n"
"    - {at: counter.c:14, thread: {start: worker, nth: 2}, open: w2-stored}\n"
"  expect: {exit: 1, stdout: \"counter = 1\"}\n"
"\n"
"Top-level keys: version: 1 (required), name: TEXT, command: [PROG, ARGS],\n"
"timeout: 10s, on_deadlock: fail|release, stdin: TEXT (what the program reads\n"
"on every run; or a FILE's), threads:, gates:, sequence:, expect:.\n"
"\n"
"threads: (aliases)   main | {start: worker, nth: 2} | {name: flusher}\n"
"                     (the name a thread sets, even after it started) |\n"
"                     {tid: 4242} (a kernel thread id: for attaching)\n"
"Gate keys:\n"
"  name: w1-loaded    unique; default: the at: text\n"
"  at: counter.c:12   where (required; Locations above)\n"
"  in: libplugin.so   the object at: is in; pending until it maps (a library\n"
"                     opened later with dlopen must say so)\n"
"  thread: w1         main | any | ALIAS | \"!ALIAS\" (any but ALIAS's) | an\n"
"                     inline selector {start: worker, nth: 1}\n"
"  hit: 3             only this thread's 3rd arrival here\n"
"  when: \"n > 0\"      a C condition over the variables at the line, $hit,\n"
"                     $tid, $thread == ALIAS: the gate applies when it is true\n"
"  open: ev           open ev on arrival (\"I have got here\")\n"
"  wait: [a, b]       hold until every listed event is open; built-in events:\n"
"                     started:ALIAS, exited:ALIAS, sequence:N (exited:main\n"
"                     needs no alias)\n"
"  barrier: 2         hold until 2 threads are here (one-shot);\n"
"                     barrier: {name: copy, count: 2} spans gates\n"
"  then_open: ev      open ev once the released thread has finished the\n"
"                     gated line (\"I have got past\")\n"
"  open_when_blocked: ev  open ev once the thread, gone on from here, next\n"
"                     sleeps in a system call (a condition or lock wait, a\n"
"                     join, a read), or exits (\"I am asleep\")\n"
"  as: first          bind alias first to the first thread that arrives\n"
"  once: true         act on the first matching arrival only\n"
"  optional: true     not reaching it does not make the run NOT-ENFORCED\n"
"  timeout: 2s        let a held thread go after 2s (then NOT-ENFORCED)\n"
"  process: {nth: 1}  the process it acts in: main (default) | any |\n"
"                     {exe: helper} | {nth: K} (K-th child process);\n"
"                     selectors take process: too, alone: its first thread\n"
"Gates at one location merge: every open, then every wait, barrier, then_open,\n"
"open_when_blocked.\n"
"sequence: [{thread: w1, at: c.c:12}, {thread: w2, at: c.c:14}]  a total\n"
"  order: each step is held until the step before it has got past its line.\n"
"expect: exit: N | signal: SIGSEGV | deadlock: true | timeout: true (a hang\n"
"  the run's timeout ends), and stdout:/stderr:\n"
"  \"text\" (contained) or \"/regex/\" (per line; with multiline: true, over\n"
"  the whole output).\n"
"\n"
"Outcomes: REPRODUCED, PASSED (the expectation was exit 0), NOT-REPRODUCED,\n"
"FAILED, DEADLOCK (the program deadlocked by itself: REPRODUCED when the\n"
"spec says expect: {deadlock: true}), SCHEDULE-DEADLOCK, ORDER-INFEASIBLE,\n"
"NOT-ENFORCED, TIMEOUT, INTERRUPTED (racegate got SIGINT, SIGTERM or SIGHUP:\n"
"the program was killed; no run starts after it, and the reports hold every\n"
"run that ended; a second signal ends racegate at once, but under attach not\n"
"before the process is let go), ENFORCED (attach: every gate that counts\n"
"acted, and the process was let go), ERROR.\n"
"\n"
"Exit status:\n"
"  0  every run met its expectation (or the order proved infeasible with\n"
"     on_deadlock: release and the program was judged fine)\n"
"     (attach: ENFORCED)\n"
"  1  some run did not meet its expectation\n"
"  2  usage, spec or setup error, or racegate could not trace the program\n"
"  3  the schedule could not be enforced in some run (SCHEDULE-DEADLOCK,\n"
"     an unexpected DEADLOCK, NOT-ENFORCED, TIMEOUT)\n"
"  128+N  interrupted by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP):\n"
"     racegate ends by that signal once it has cleaned up (attach too: the\n"
"     signal wins over the outcome)\n";

int cli_vusage(const char *usage, const char *fmt, va_list ap)
{
	rg_buf b = RG_BUF_INIT;

	rg_buf_vprintf(&b, fmt, ap);
	rg_say("%s", b.s);
	rg_buf_release(&b);
	fputs(usage, stderr);
	return RG_EXIT_SETUP;
}

static int usage_error(const char *fmt, ...) RG_PRINTF(1, 2);
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = cli_vusage(usage_text, fmt, ap);
	va_end(ap);
	return r;
}

static const char *option_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static bool is_option(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

/* --jobs J, --jobs=J, -j J, -jJ at argv[*i]; 0, or -1 once said why. */
static int parse_jobs(struct cli *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	char *end;

	/* -j 2 and -j2, as getopt reads a short option's value */
	if (!strcmp(a, "-j"))
		v = *i + 1 < argc ? argv[++*i] : NULL;
	else if (a[1] == 'j')
		v = a + 2;
	else
		v = option_value(argc, argv, i, "--jobs");
	if (!v) {
		usage_error("'%s' needs a number", a);
		return -1;
	}
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
	if (errno || *end || c->jobs < 1 || c->jobs > 64) {
		usage_error("--jobs takes a number from 1 to 64 (or 0 or auto: one "
			    "per CPU), not '%s'", v);
		return -1;
	}
	return 0;
}

/* What `racegate attach` takes of run's options, said clearly. */
static int attach_check_cli(const struct cli *c)
{
	if (!c->attach_pid)
		return usage_error("attach needs a process id and a gates file");
	if (!c->spec_path)
		return usage_error("attach needs a gates file after the process id");
	if (c->command)
		return usage_error("attach runs no command: the program is process "
				   "%d's own ('-- COMMAND' does not apply)",
				   (int)c->attach_pid);
	if (c->repeat != 1 || c->jobs != 1)
		return usage_error("%s does not apply to attach: a process is "
				   "attached to once", c->repeat != 1 ? "--repeat" :
				   "--jobs");
	if (c->keep_stopped)
		return usage_error("--keep-stopped does not apply to attach: the "
				   "process always goes on once racegate lets it go");
	if (c->stop_on_first)
		return usage_error("--stop-on-first does not apply to attach: a "
				   "process is attached to once");
	if (c->follow_fork == 1)
		return usage_error("--follow-fork does not apply to attach: the "
				   "children a process forks while attached run "
				   "untraced");
	return 0;
}

/*
 * The options of run, check and attach about the program's run: durations,
 * what to do on a deadlock, processes, sources, colour.  0 when argv[*i]
 * was one (c is set, *i past its value), RG_EXIT_SETUP when its value is
 * wrong, -1 when it is none of them.
 */
static int parse_valued(struct cli *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;

	if (is_option(a, "--timeout") ||
	    (!strcmp(c->cmd, "attach") && is_option(a, "--for"))) {
		if (!(v = option_value(argc, argv, i, a[2] == 'f' ? "--for" :
				       "--timeout")))
			return usage_error("'%s' needs a duration", a);
		c->timeout_ms = spec_parse_duration(v);
		if (c->timeout_ms <= 0)
			return usage_error("%s takes a duration such as 10s, "
					   "500ms or 2m, not '%s'",
					   a[2] == 'f' ? "--for" : "--timeout", v);
	} else if (is_option(a, "--quiet-period")) {
		if (!(v = option_value(argc, argv, i, "--quiet-period")))
			return usage_error("'%s' needs a duration", a);
		c->quiet_ms = spec_parse_duration(v);
		if (c->quiet_ms <= 0)
			return usage_error("--quiet-period takes a duration such as "
					   "100ms or 1s, not '%s'", v);
	} else if (!strcmp(a, "--keep-stopped")) {
		c->keep_stopped = true;
	} else if (!strcmp(a, "--no-fastpath")) {
		c->no_fastpath = true;
	} else if (!strcmp(a, "--follow-fork") || !strcmp(a, "--no-follow-fork")) {
		c->follow_fork = a[2] != 'n';
	} else if (is_option(a, "--on-deadlock")) {
		if (!(v = option_value(argc, argv, i, "--on-deadlock")))
			return usage_error("'%s' needs fail or release", a);
		if (!strcmp(v, "fail"))
			c->on_deadlock = SPEC_ON_DEADLOCK_FAIL;
		else if (!strcmp(v, "release"))
			c->on_deadlock = SPEC_ON_DEADLOCK_RELEASE;
		else
			return usage_error("--on-deadlock takes fail or release, "
					   "not '%s'", v);
	} else if (is_option(a, "--source-dir")) {
		if (!(v = option_value(argc, argv, i, "--source-dir")) || !*v)
			return usage_error("'%s' needs a folder", a);
		c->source_dir = v;
	} else if (is_option(a, "--color") || is_option(a, "--colour")) {
		v = strchr(a, '=') ? strchr(a, '=') + 1 : "always";
		if (!strcmp(v, "auto"))
			c->color = -1;
		else if (!strcmp(v, "always"))
			c->color = 1;
		else if (!strcmp(v, "never"))
			c->color = 0;
		else
			return usage_error("--color takes auto, always or never, "
					   "not '%s'", v);
	} else {
		return -1;
	}
	return 0;
}

int cli_parse(struct cli *c, int argc, char **argv)
{
	int i, r;

	memset(c, 0, sizeof(*c));
	c->repeat = 1;
	c->jobs = 1;
	c->on_deadlock = -1;
	c->follow_fork = -1;
	c->color = -1;
	c->cmd = argv[1];
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v;

		if (!strcmp(a, "--")) {
			if (i + 1 >= argc)
				return usage_error("nothing after '%s'", a);
			c->command = &argv[i + 1];
			break;
		}
		if ((a[0] != '-' || !a[1]) && !strcmp(c->cmd, "attach") &&
		    !c->attach_pid && !c->spec_path) {
			if (attach_parse_pid(a, &c->attach_pid) < 0)
				return usage_error("attach takes a process id, then the "
						   "gates file, not '%s'", a);
			continue;
		}
		if (a[0] != '-' || !a[1]) {
			if (c->spec_path)
				return usage_error("unexpected argument '%s' (the program "
						   "goes after '--')", a);
			c->spec_path = a;
			continue;
		}
		if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			c->quiet = true;
		} else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
			c->verbose = true;
			rg_set_verbose(1);
		} else if (is_option(a, "--repeat")) {
			char *end;

			if (!(v = option_value(argc, argv, &i, "--repeat")))
				return usage_error("'%s' needs a number", a);
			errno = 0;
			c->repeat = strtol(v, &end, 10);
			if (errno || *end || c->repeat < 1 || c->repeat > 1000000)
				return usage_error("--repeat takes a number from 1 to "
						   "1000000, not '%s'", v);
		} else if (is_option(a, "--jobs") || !strncmp(a, "-j", 2)) {
			if (parse_jobs(c, argc, argv, &i) < 0)
				return RG_EXIT_SETUP;
		} else if (!strcmp(a, "--stop-on-first")) {
			c->stop_on_first = true;
		} else if (is_option(a, "--expect-outcome")) {
			rg_err err = RG_ERR_INIT;

			if (!(v = option_value(argc, argv, &i, "--expect-outcome")))
				return usage_error("'%s' needs a list of outcomes", a);
			if (batch_parse_outcomes(v, &c->expect_mask, &err) < 0)
				return usage_error("--expect-outcome: %s", err.msg);
		} else if (is_option(a, "--report") || is_option(a, "--junit") ||
			   is_option(a, "--trace")) {
			const char *name = a[2] == 'r' ? "--report" :
					   a[2] == 'j' ? "--junit" : "--trace";

			if (!(v = option_value(argc, argv, &i, name)) || !*v)
				return usage_error("'%s' needs a file name", a);
			if (a[2] == 'r')
				c->report = v;
			else if (a[2] == 'j')
				c->junit = v;
			else
				c->trace = v;
		} else if (!strcmp(a, "--tap")) {
			c->tap = true;
		} else if ((r = parse_valued(c, argc, argv, &i)) >= 0) {
			if (r)
				return r;
		} else {
			return usage_error("unknown option '%s' (see racegate --help)", a);
		}
	}
	if (!strcmp(c->cmd, "attach"))
		return attach_check_cli(c);
	if (!c->spec_path)
		return usage_error("%s needs a gates file", c->cmd);
	return 0;
}

static void print_diags(const spec_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		char *m = spec_diag_format(d, i);

		fprintf(stderr, "%s\n", m);
		free(m);
	}
}

/* Loads the spec and builds the plan; prints what went wrong. */
static int prepare(const struct cli *c, spec **sp, plan *p)
{
	spec_diags d = SPEC_DIAGS_INIT;
	rg_err err = RG_ERR_INIT;
	int ret = 0;

	memset(p, 0, sizeof(*p));
	p->source_dir = c->source_dir;
	if (spec_load_file(c->spec_path, sp, &d) < 0) {
		print_diags(&d);
		spec_diags_release(&d);
		return -1;
	}
	if (plan_build(p, *sp, c->command, &d, &err) < 0) {
		if (d.nerrors == 0)
			rg_say("%s", err.msg);
		ret = -1;
	}
	print_diags(&d);
	spec_diags_release(&d);
	return ret;
}

static int cmd_check(const struct cli *c)
{
	spec *sp = NULL;
	plan p;
	size_t i, j;

	if (prepare(c, &sp, &p) < 0) {
		plan_release(&p);
		spec_free(sp);
		return RG_EXIT_SETUP;
	}
	printf("%s: %zu gate%s, %zu breakpoint%s in '%s'%s\n", c->spec_path,
	       sp->ngates, sp->ngates == 1 ? "" : "s", p.nbps,
	       p.nbps == 1 ? "" : "s", p.exe,
	       dwarfx_is_pie(p.dx) ? " (PIE: addresses before load bias)" : "");
	for (i = 0; i < sp->ngates; i++) {
		printf("  %s  at %s\n", sp->gates[i].name, sp->gates[i].at);
		if (!plan_gate_in_image(sp, i, p.exe, true))
			printf("      resolved when a followed process runs the "
			       "executable its process: names\n");
		for (j = 0; j < p.nbps; j++) {
			const plan_bp *bp = &p.bps[j];
			size_t k;

			for (k = 0; k < bp->ngates; k++)
				if (bp->gates[k] == i)
					printf("      0x%llx  %s%s%s\n",
					       (unsigned long long)bp->site.link_addr,
					       bp->where, bp->function ? "  in " : "",
					       bp->function ? bp->function : "");
		}
		plan_locs_describe(&p, i, stdout);
	}
	plan_release(&p);
	spec_free(sp);
	return RG_EXIT_OK;
}

static bool use_color(const struct cli *c)
{
	const char *nc = getenv("NO_COLOR");

	if (c->color >= 0)
		return c->color == 1;
	return isatty(STDERR_FILENO) && !(nc && *nc);
}

/* prepare(), with the program of the process racegate attaches to. */
static int attach_prepare(const struct cli *c, spec **sp, plan *p)
{
	rg_err err = RG_ERR_INIT;
	char *exe = tracer_attach_check(c->attach_pid, &err) < 0 ? NULL :
		    attach_program_path(c->attach_pid, &err);
	char *cmd[2] = { exe, NULL };
	struct cli pc = *c;
	int rc;

	if (!exe) {
		rg_say("%s", err.msg);
		*sp = NULL;
		memset(p, 0, sizeof(*p));
		return -1;
	}
	pc.command = cmd;
	rc = prepare(&pc, sp, p);
	free(exe);
	if (rc < 0) {
		plan_release(p);
		spec_free(*sp);
	}
	return rc;
}

/* Runs the session: batch.c does the runs, the reports and the tally. */
static int cmd_run(const struct cli *c)
{
	spec *sp = NULL;
	plan p;
	run_opts o;
	batch_opts bo;
	int status;
	const char *outs[][2] = { { "--report", c->report }, { "--junit", c->junit },
				  { "--trace", c->trace } };
	size_t k;

	/* before anything runs: the reports are what the session is for */
	for (k = 0; k < sizeof(outs) / sizeof(outs[0]); k++) {
		rg_err err = RG_ERR_INIT;

		if (outs[k][1] && report_check_path(outs[k][1], &err) < 0) {
			rg_say("%s: %s", outs[k][0], err.msg);
			return RG_EXIT_SETUP;
		}
	}
	if (c->attach_pid && attach_prepare(c, &sp, &p) < 0)
		return RG_EXIT_SETUP;
	if (!c->attach_pid && prepare(c, &sp, &p) < 0) {
		plan_release(&p);
		spec_free(sp);
		return RG_EXIT_SETUP;
	}
	memset(&o, 0, sizeof(o));
	o.timeout_ms = c->timeout_ms ? c->timeout_ms :
		       sp->timeout_ms ? sp->timeout_ms : 60000;
	o.capture = judge_needs_output(sp) || c->repeat > 1;
	o.passthrough = c->repeat == 1;
	o.verbose = c->verbose;
	o.closed_std = c->closed_std;
	o.inherit = c->inherit;
	o.ninherit = c->ninherit;
	o.on_deadlock = c->on_deadlock >= 0 ? c->on_deadlock : (int)sp->on_deadlock;
	o.quiet_ms = c->quiet_ms;
	o.keep_stopped = c->keep_stopped;
	o.no_fastpath = c->no_fastpath;
	o.has_stdin = sp->has_stdin;
	o.stdin_data = sp->stdin_data;
	o.stdin_len = sp->stdin_len;
	if (c->attach_pid && sp->has_stdin)
		rg_warn("'%s' gives stdin:, but attach starts no program: the process "
			"keeps the stdin it has", c->spec_path);
	if (c->attach_pid) {
		/* the process's output is its own; --for (or the spec's) only */
		o.attach_pid = c->attach_pid;
		o.capture = o.passthrough = false;
		o.timeout_ms = c->timeout_ms ? c->timeout_ms : sp->timeout_ms;
	}
	o.follow_fork = c->follow_fork >= 0 ? c->follow_fork != 0 : spec_names_process(sp);
	if (c->attach_pid) {
		/* attach follows no fork (tracer_attach): one process */
		o.follow_fork = false;
		if (spec_names_process(sp))
			rg_warn("'%s' names processes, but attach follows no fork: "
				"only gates of process %d can act", c->spec_path,
				(int)c->attach_pid);
	} else if (!o.follow_fork && spec_names_process(sp))
		rg_warn("'%s' names processes, but --no-follow-fork lets the program's "
			"children go untraced: only gates of its main process can act",
			c->spec_path);

	memset(&bo, 0, sizeof(bo));
	bo.repeat = c->repeat;
	bo.jobs = (int)(c->jobs < c->repeat ? c->jobs : c->repeat);
	bo.stop_on_first = c->stop_on_first;
	bo.expect_mask = c->expect_mask;
	bo.report_path = c->report;
	bo.junit_path = c->junit;
	bo.trace_path = c->trace;
	bo.tap = c->tap;
	bo.quiet = c->quiet;
	bo.verbose = c->verbose;
	bo.color = use_color(c);
	bo.progress = c->repeat > 1 && !c->quiet && !c->verbose &&
		      isatty(STDERR_FILENO);
	status = batch_run(&p, sp, &o, &bo);
	plan_release(&p);
	spec_free(sp);
	if (status > RG_EXIT_SIGNAL) {
		/* the shell sees 128+N, and a loop running racegate stops too */
		fflush(stdout);
		fflush(stderr);
		interrupt_die(status - RG_EXIT_SIGNAL);
	}
	return status;
}

/*
 * The fds from 3 up that racegate was started with: the program gets these
 * and no file racegate opens itself (tracer_opts.inherit).
 */
static void note_inherited(struct cli *c)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	c->inherit = NULL;
	c->ninherit = 0;
	if (!d)
		return;         /* no /proc: everything not O_CLOEXEC goes on */
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);

		if (fd < 3 || fd == dirfd(d) || e->d_name[0] == '.')
			continue;
		if (fd >= c->ninherit) {
			int n = fd + 1;

			c->inherit = xrealloc(c->inherit, (size_t)n * sizeof(bool));
			memset(c->inherit + c->ninherit, 0,
			       (size_t)(n - c->ninherit) * sizeof(bool));
			c->ninherit = n;
		}
		c->inherit[fd] = true;
	}
	closedir(d);
	if (!c->inherit)        /* none: still say "close racegate's own" */
		c->inherit = xcalloc(1, sizeof(bool));
}

/*
 * Standard fds racegate was started without: each gets /dev/null, so that
 * no file racegate opens takes its number (the program would inherit it as
 * its stdin: its own executable, say), and the program is started with it
 * closed again.  Returns the mask of those fds.
 */
static unsigned hold_closed_std(void)
{
	unsigned mask = 0;

	for (int fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int nul = open("/dev/null", O_RDWR);

		if (nul != fd) {        /* lower ones are open: it is fd */
			if (nul >= 0)
				close(nul);
			continue;
		}
		mask |= 1u << fd;
	}
	return mask;
}

int cli_main(int argc, char **argv)
{
	struct cli c;
	int r;

	unsigned closed_std = hold_closed_std();

	if (argc < 2) {
		fputs(usage_text, stderr);
		return RG_EXIT_SETUP;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage_text, stdout);
		fputc('\n', stdout);
		fputs(help_text, stdout);
		return RG_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("racegate %s\n", RACEGATE_VERSION);
		return RG_EXIT_OK;
	}
	if (!strcmp(argv[1], "lines"))
		return cmd_lines(argc - 1, argv + 1);
	if (!strcmp(argv[1], "explore")) {
		c.closed_std = closed_std;
		note_inherited(&c);
		r = cmd_explore(argc - 1, argv + 1, closed_std, c.inherit, c.ninherit);
		free(c.inherit);
		if (r > RG_EXIT_SIGNAL) {
			/* as for run: the shell sees 128+N, a loop stops too */
			fflush(stdout);
			fflush(stderr);
			interrupt_die(r - RG_EXIT_SIGNAL);
		}
		return r;
	}
	if (strcmp(argv[1], "run") && strcmp(argv[1], "check") &&
	    strcmp(argv[1], "attach"))
		return usage_error("unknown command '%s' (commands: run, check, "
				   "lines, attach, explore)", argv[1]);
	r = cli_parse(&c, argc, argv);
	if (r)
		return r;
	c.closed_std = closed_std;
	note_inherited(&c);
	r = !strcmp(c.cmd, "check") ? cmd_check(&c) : cmd_run(&c);
	free(c.inherit);
	return r;
}
