/*
 * racegate's command line: the commands, their options (options.c: the
 * one option table), help; `run`, `check` and `attach` here, `lines` in
 * lines.c, `explore` in runner/explore/.  cli.h.
 */
#include "cli.h"
#include "run.h"
#include "explore.h"
#include "interrupt.h"
#include "objects.h"
#include "selectors.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RACEGATE_VERSION
#define RACEGATE_VERSION "0.0.0"
#endif

static const char about_text[] =
"racegate makes a concurrency bug happen on every run, without changing the\n"
"program: it runs the program under ptrace, puts breakpoints at the source\n"
"lines named in GATES.yaml, and holds each thread that reaches one until the\n"
"gate lets it go.  Only threads at a gate are ever stopped.\n";

static const char more_text[] =
"racegate CMD --help (or racegate help CMD) lists a command's options;\n"
"racegate help gates sums up the gates file and its locations (gates.md,\n"
"gates.yaml(5)); racegate(1) has it all.  The guides gates.md, explore.md\n"
"and report.md are in share/doc/racegate of the install (docs/ of the source).\n"
"\n"
"Outcomes: REPRODUCED, PASSED, NOT-REPRODUCED, FAILED, DEADLOCK,\n"
"SCHEDULE-DEADLOCK, ORDER-INFEASIBLE, NOT-ENFORCED, TIMEOUT, INTERRUPTED,\n"
"ENFORCED (attach), ERROR.\n"
"\n"
"Exit status:\n"
"  0  every run met its expectation (attach: ENFORCED; explore: no failure)\n"
"  1  some run did not (explore: a failure found)\n"
"  2  usage, spec or setup error, or racegate could not trace the program\n"
"  3  the schedule could not be enforced in some run (explore: no schedule\n"
"     completed)\n"
"  128+N  interrupted by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP)\n";

/* racegate help gates: the gates file in brief (tests/e2e/help_man.sh reads its keys). */
static const char gates_text[] =
"Locations (at:, see gates.md in share/doc/racegate):\n"
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
"A gates file (see gates.md in share/doc/racegate):\n"
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
"                     {tid: 4242} (a kernel thread id: for attaching) |\n"
"                     {runs: flush_log} (a thread whose stack holds it when it\n"
"                     arrives: threads a wrapper starts, found once, kept)\n"
"  C++ start:         \"Worker::run(int)\" (an overload) | Worker::run (every\n"
"                     one) | \"main::{lambda()#1}\" or gdb's\n"
"                     \"main::{lambda()#1}::operator()\" (a std::thread's lambda)\n"
"                     | \"queue.cpp:42\" (the lambda or function defined there)\n"
"  A start: or runs: that matches nothing is an error that lists the\n"
"  program's start routines; an alias never bound is named in the outcome.\n"
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
"  the whole output).\n";

/* "usage: racegate CMD ARGS" for each command, and --help, --version. */
static void print_usages(FILE *f)
{
	size_t n, i;
	const cli_command *cmds = cli_commands(&n);

	for (i = 0; i < n; i++)
		fprintf(f, "%s racegate %s %s\n", i ? "      " : "usage:", cmds[i].name,
			cmds[i].usage);
	fputs("       racegate --help | --version\n", f);
}

/* racegate --help: the commands, one line each, and where to read more. */
static void print_overview(FILE *f)
{
	size_t n, i;
	const cli_command *cmds = cli_commands(&n);

	print_usages(f);
	fprintf(f, "\n%s\nCommands:\n", about_text);
	for (i = 0; i < n; i++)
		fprintf(f, "  %-11s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "\n%s", more_text);
}

static int usage_error(const cli_command *cmd, const char *fmt, ...) RG_PRINTF(2, 3);
/* Says what is wrong with the command line, then cmd's usage; RG_EXIT_SETUP. */
static int usage_error(const cli_command *cmd, const char *fmt, ...)
{
	rg_buf b = RG_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	rg_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	rg_say("%s", b.s);
	rg_buf_release(&b);
	if (cmd)
		fprintf(stderr, "usage: racegate %s %s\n", cmd->name, cmd->usage);
	else
		print_usages(stderr);
	return RG_EXIT_SETUP;
}

/* What `racegate attach` takes, said clearly (its refused options: options.c). */
static int attach_check_cli(const struct cli *c, const cli_command *cmd)
{
	if (!c->attach_pid)
		return usage_error(cmd, "attach needs a process id and a gates file");
	if (!c->spec_path)
		return usage_error(cmd, "attach needs a gates file after the process id");
	if (c->command)
		return usage_error(cmd, "attach runs no command: the program is process "
				   "%d's own ('-- COMMAND' does not apply)",
				   (int)c->attach_pid);
	return 0;
}

/* An argument that is no option: what it is to cmd.  0, or the exit status. */
static int take_arg(struct cli *c, const cli_command *cmd, const char *a)
{
	switch (cmd->bit) {
	case CLI_ATTACH:
		if (c->attach_pid || c->spec_path)
			break;
		if (attach_parse_pid(a, &c->attach_pid) < 0)
			return usage_error(cmd, "attach takes a process id, then the "
					   "gates file, not '%s'", a);
		return 0;
	case CLI_LINES:
		if (c->lines_file)
			return usage_error(cmd, "unexpected argument '%s'", a);
		c->lines_file = a;
		return 0;
	case CLI_HELP:
	case CLI_COMPLETION:
		if (c->topic)
			return usage_error(cmd, "unexpected argument '%s'", a);
		c->topic = a;
		return 0;
	case CLI_EXPLORE:      /* --merge's reports; checked in check_args */
		c->args = xrealloc(c->args, (c->nargs + 1) * sizeof(*c->args));
		c->args[c->nargs++] = (char *)a;
		return 0;
	case CLI_TRIAGE:
		return usage_error(cmd, "unexpected argument '%s' (the program goes "
				   "after '--')", a);
	}
	if (c->spec_path)
		return usage_error(cmd, "unexpected argument '%s' (the program "
				   "goes after '--')", a);
	c->spec_path = a;
	return 0;
}

/*
 * explore --merge REPORT.json ...: the search's own options belong to the
 * shards, and a file to write needs the program after --.
 */
static int check_merge(struct cli *c, const cli_command *cmd)
{
	if (!c->nargs)
		return usage_error(cmd, "--merge needs the shards' reports: --merge "
				   "shard-0.json shard-1.json ...");
	if (c->x.nat || c->x.shard_n > 1 || c->x.replay || c->x.bound_set ||
	    c->x.jobs > 1 || c->x.expect_file || c->x.expect_stdout ||
	    c->x.has_expect_exit)
		return usage_error(cmd, "--merge takes the search's options from the "
				   "reports; give only -o, --report, --trace, --markdown, "
				   "--verify and --fewer-gates with it");
	if ((c->x.out || c->x.trace || c->x.markdown) && !c->command)
		return usage_error(cmd, "--merge with -o, --trace or --markdown replays "
				   "the failure: give the program after '--'");
	c->x.quiet = c->quiet;
	c->x.verbose = c->verbose;
	c->x.source_dir = c->source_dir;
	c->x.command = c->command;
	return 0;
}

/* What the command line as a whole lacks or cannot have; 0, or the exit status. */
static int check_args(struct cli *c, const cli_command *cmd)
{
	rg_err err = RG_ERR_INIT;

	switch (cmd->bit) {
	case CLI_ATTACH:
		return attach_check_cli(c, cmd);
	case CLI_LINES:
		if (!c->lines_file || !c->command)
			return usage_error(cmd, "lines needs a source file and, after "
					   "'--', the program");
		return 0;
	case CLI_EXPLORE:
		if (c->merge)
			return check_merge(c, cmd);
		if (c->nargs)
			return usage_error(cmd, "unexpected argument '%s' (the program goes "
					   "after '--'; reports to merge after --merge)",
					   c->args[0]);
		if (!c->command)
			return usage_error(cmd, "explore needs the program to run after '--'");
		/* -q, -v and --source-dir are one row for every command */
		c->x.quiet = c->quiet;
		c->x.verbose = c->verbose;
		c->x.source_dir = c->source_dir;
		c->x.command = c->command;
		if (explore_opts_check(&c->x, &err) < 0)
			return usage_error(cmd, "%s", err.msg);
		return 0;
	case CLI_TRIAGE:
		if ((!c->t.tsan && !c->t.helgrind && !c->t.drd) || !c->command)
			return usage_error(cmd, "triage needs a report (--tsan, --helgrind or "
					   "--drd REPORT) and, after '--', the program");
		if (c->x.expect_file && (c->x.has_expect_exit || c->x.expect_stdout))
			return usage_error(cmd, "--expect FILE says what a run must do; it "
					   "goes with neither --expect-exit nor "
					   "--expect-stdout");
		if (c->t.expect_verdicts &&
		    tri_expect_parse(c->t.expect_verdicts, NULL, &(size_t){ 0 }, &err) < 0)
			return usage_error(cmd, "--expect-verdicts: %s", err.msg);
		c->t.quiet = c->quiet;
		c->t.source_dir = c->source_dir;
		c->t.command = c->command;
		/* --expect-exit, --expect-stdout and --expect are explore's rows */
		c->t.has_expect_exit = c->x.has_expect_exit;
		c->t.expect_exit = c->x.expect_exit;
		c->t.expect_stdout = c->x.expect_stdout;
		c->t.expect_file = c->x.expect_file;
		return 0;
	case CLI_COMPLETION:
		if (!c->topic || strcmp(c->topic, "bash"))
			return usage_error(cmd, "completion takes bash, not '%s'",
					   c->topic ? c->topic : "");
		return 0;
	case CLI_HELP:
		return 0;
	}
	if (!c->spec_path)
		return usage_error(cmd, "%s needs a gates file", c->cmd);
	return 0;
}

/* "unknown command 'X' (commands: ...)", or "(did you mean 'Y'?)". */
static int unknown_command(const char *name)
{
	size_t n, i, best = (size_t)-1;
	const cli_command *cmds = cli_commands(&n), *near = NULL;
	rg_buf b = RG_BUF_INIT;
	int r;

	for (i = 0; i < n; i++) {
		size_t d = rg_edit_distance(name, cmds[i].name);

		if (d < best) {
			best = d;
			near = &cmds[i];
		}
		rg_buf_printf(&b, "%s%s", i ? ", " : "", cmds[i].name);
	}
	if (near && best <= (strlen(name) >= 5 ? 2u : 1u))
		r = usage_error(NULL, "unknown command '%s' (did you mean '%s'?)", name,
				near->name);
	else
		r = usage_error(NULL, "unknown command '%s' (commands: %s)", name, b.s);
	rg_buf_release(&b);
	return r;
}

int cli_parse(struct cli *c, int argc, char **argv)
{
	const cli_command *cmd = cli_command_find(argv[1]);
	int i, r;

	memset(c, 0, sizeof(*c));
	c->repeat = 1;
	c->jobs = 1;
	c->on_deadlock = -1;
	c->follow_fork = -1;
	c->color = -1;
	explore_opts_init(&c->x);
	c->t.search = TRI_SEARCH;
	c->cmd = argv[1];
	if (!cmd)
		return unknown_command(argv[1]);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];
		rg_err err = RG_ERR_INIT;

		if (!strcmp(a, "--")) {
			if (i + 1 >= argc && cmd->bit != CLI_LINES)
				return usage_error(cmd, "nothing after '%s'", a);
			c->command = i + 1 < argc ? &argv[i + 1] : NULL;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if ((r = take_arg(c, cmd, a)) != 0)
				return r;
			continue;
		}
		if (cli_take_option(c, cmd, argc, argv, &i, &err) < 0)
			return usage_error(cmd, "%s", err.msg);
		if (c->help)
			return 0;
	}
	if (c->verbose)
		rg_set_verbose(1);
	c->x.argv = argv + 1;  /* the bug report quotes it */
	c->x.argc = argc - 1;
	return check_args(c, cmd);
}

void cli_release(struct cli *c)
{
	explore_opts_release(&c->x);
	free(c->args);
	free(c->inherit);
	c->inherit = NULL;
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
	/* what a lambda's start: stands for: its type, as threads are named */
	for (i = 0; i < sp->naliases; i++) {
		const char *const *names;
		size_t n = sp->aliases[i].sel.start ?
			   plan_start_names(&p, sp->aliases[i].sel.start, &names) : 0;

		for (j = 0; j < n; j++)
			printf("  thread %s: {start: %s} is %s\n", sp->aliases[i].name,
			       sp->aliases[i].sel.start, names[j]);
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

/* racegate help [TOPIC]: the overview, a command's help, or the gates file's. */
static int cmd_help(const struct cli *c)
{
	const cli_command *cmd = c->topic ? cli_command_find(c->topic) : NULL;

	if (!c->topic)
		print_overview(stdout);
	else if (!strcmp(c->topic, "gates"))
		fputs(gates_text, stdout);
	else if (cmd)
		cli_print_help(stdout, cmd);
	else
		return usage_error(cli_command_find("help"), "no help on '%s' (topics: "
				   "a command, or gates)", c->topic);
	return RG_EXIT_OK;
}

/* Runs what c asks for; racegate's exit status. */
static int cmd_dispatch(struct cli *c, const cli_command *cmd)
{
	if (c->help) {
		cli_print_help(stdout, cmd);
		return RG_EXIT_OK;
	}
	switch (cmd->bit) {
	case CLI_HELP:
		return cmd_help(c);
	case CLI_COMPLETION:
		cli_print_completion_bash(stdout);
		return RG_EXIT_OK;
	case CLI_LINES:
		return cmd_lines(c);
	case CLI_CHECK:
		return cmd_check(c);
	case CLI_TRIAGE:
		c->t.closed_std = c->closed_std;
		return tri_main(&c->t, stdout);
	case CLI_EXPLORE:
		if (c->merge)
			return explore_merge(&c->x, c->args, c->nargs, c->closed_std,
					     c->inherit, c->ninherit);
		return cmd_explore(&c->x, c->closed_std, c->inherit, c->ninherit);
	}
	return cmd_run(c);
}

int cli_main(int argc, char **argv)
{
	const cli_command *cmd;
	struct cli c;
	int r;

	unsigned closed_std = hold_closed_std();

	if (argc < 2) {
		print_usages(stderr);
		return RG_EXIT_SETUP;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_overview(stdout);
		return RG_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("racegate %s\n", RACEGATE_VERSION);
		return RG_EXIT_OK;
	}
	/* for tests/e2e/help_man.sh: the names a command takes, one a line */
	if (!strcmp(argv[1], "--list-options") && argc == 3 &&
	    (cmd = cli_command_find(argv[2]))) {
		cli_print_option_names(stdout, cmd);
		return RG_EXIT_OK;
	}
	r = cli_parse(&c, argc, argv);
	if (r) {
		cli_release(&c);
		return r;
	}
	cmd = cli_command_find(c.cmd);
	c.closed_std = closed_std;
	note_inherited(&c);
	r = cmd_dispatch(&c, cmd);
	cli_release(&c);
	if (r > RG_EXIT_SIGNAL) {
		/* the shell sees 128+N, and a loop running racegate stops too */
		fflush(stdout);
		fflush(stderr);
		interrupt_die(r - RG_EXIT_SIGNAL);
	}
	return r;
}
