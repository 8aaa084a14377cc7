/*
 * racegate's command line: `run` and `check`.
 */
#include "runner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RACEGATE_VERSION
#define RACEGATE_VERSION "0.0.0"
#endif

static const char usage_text[] =
"usage: racegate run   [OPTIONS] GATES.yaml [-- COMMAND [ARGS...]]\n"
"       racegate check GATES.yaml [-- COMMAND [ARGS...]]\n"
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
"\n"
"The program is the spec's command: (relative to the spec file), or the\n"
"COMMAND after `--` (relative to the current directory).  It must be built\n"
"with -g for FILE:LINE locations.\n"
"\n"
"Options of run:\n"
"  --repeat N         run N times (output is kept, and shown for runs with an\n"
"                     unexpected outcome)\n"
"  --timeout D        whole-run timeout, e.g. 10s, 500ms, 2m (default: the\n"
"                     spec's timeout:, else 60s)\n"
"  --on-deadlock fail|release\n"
"                     when every thread is held by the gates: end the run as\n"
"                     SCHEDULE-DEADLOCK (fail, the default), or release the\n"
"                     held threads oldest first and report ORDER-INFEASIBLE\n"
"  --quiet            print only the outcome line(s)\n"
"  --verbose          print every run's report and output\n"
"  --color=auto|always|never\n"
"                     colour the outcome (auto: on a terminal, unless NO_COLOR)\n"
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
"Outcomes: REPRODUCED, PASSED (the expectation was exit 0), NOT-REPRODUCED,\n"
"FAILED, SCHEDULE-DEADLOCK, ORDER-INFEASIBLE, NOT-ENFORCED, TIMEOUT, ERROR.\n"
"\n"
"Exit status:\n"
"  0  every run met its expectation (or the order proved infeasible with\n"
"     on_deadlock: release and the program was judged fine)\n"
"  1  some run did not meet its expectation\n"
"  2  usage, spec or setup error, or racegate could not trace the program\n"
"  3  the schedule could not be enforced in some run (every thread held,\n"
"     a gate never reached, a timeout)\n";

struct cli {
	const char *cmd;
	const char *spec_path;
	char **command;        /* after --, or NULL */
	long repeat;
	long timeout_ms;
	int on_deadlock;       /* -1: the spec's */
	bool quiet, verbose;
	int color;             /* -1 auto, 0 never, 1 always */
};

static int usage_error(const char *fmt, const char *arg)
{
	fputs("racegate: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fputs(usage_text, stderr);
	return RG_EXIT_SETUP;
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

static int parse_args(struct cli *c, int argc, char **argv)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->repeat = 1;
	c->on_deadlock = -1;
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
		} else if (is_option(a, "--repeat")) {
			char *end;

			if (!(v = option_value(argc, argv, &i, "--repeat")))
				return usage_error("'%s' needs a number", a);
			errno = 0;
			c->repeat = strtol(v, &end, 10);
			if (errno || *end || c->repeat < 1 || c->repeat > 1000000)
				return usage_error("--repeat takes a number from 1 to "
						   "1000000, not '%s'", v);
		} else if (is_option(a, "--timeout")) {
			if (!(v = option_value(argc, argv, &i, "--timeout")))
				return usage_error("'%s' needs a duration", a);
			c->timeout_ms = spec_parse_duration(v);
			if (c->timeout_ms <= 0)
				return usage_error("--timeout takes a duration such as 10s, "
						   "500ms or 2m, not '%s'", v);
		} else if (is_option(a, "--on-deadlock")) {
			if (!(v = option_value(argc, argv, &i, "--on-deadlock")))
				return usage_error("'%s' needs fail or release", a);
			if (!strcmp(v, "fail"))
				c->on_deadlock = SPEC_ON_DEADLOCK_FAIL;
			else if (!strcmp(v, "release"))
				c->on_deadlock = SPEC_ON_DEADLOCK_RELEASE;
			else
				return usage_error("--on-deadlock takes fail or release, "
						   "not '%s'", v);
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
			return usage_error("unknown option '%s' (see racegate --help)", a);
		}
	}
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
	if (spec_load_file(c->spec_path, sp, &d) < 0) {
		print_diags(&d);
		spec_diags_release(&d);
		return -1;
	}
	if (plan_build(p, *sp, c->command, &d, &err) < 0) {
		if (d.nerrors == 0)
			fprintf(stderr, "racegate: %s\n", err.msg);
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
		for (j = 0; j < p.nbps; j++) {
			const plan_bp *bp = &p.bps[j];
			size_t k;

			for (k = 0; k < bp->ngates; k++)
				if (bp->gates[k] == i)
					printf("      0x%llx  %s%s%s\n",
					       (unsigned long long)bp->addr, bp->where,
					       bp->function ? "  in " : "",
					       bp->function ? bp->function : "");
		}
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

static void show_output(const run_result *r)
{
	if (r->out.len) {
		fprintf(stderr, "--- stdout ---\n%s", r->out.s);
		if (r->out.s[r->out.len - 1] != '\n')
			fputc('\n', stderr);
	}
	if (r->err.len) {
		fprintf(stderr, "--- stderr ---\n%s", r->err.s);
		if (r->err.s[r->err.len - 1] != '\n')
			fputc('\n', stderr);
	}
}

static int cmd_run(const struct cli *c)
{
	spec *sp = NULL;
	plan p;
	run_opts o;
	size_t counts[OUT_ERROR + 1] = { 0 };
	int status = RG_EXIT_OK, k;
	long i;
	bool color = use_color(c);

	if (prepare(c, &sp, &p) < 0) {
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
	o.on_deadlock = c->on_deadlock >= 0 ? c->on_deadlock : (int)sp->on_deadlock;

	for (i = 1; i <= c->repeat; i++) {
		run_result r;
		int ex;

		fflush(stdout);
		fflush(stderr);
		run_once(&p, &o, &r);
		ex = run_outcome_exit(r.outcome);
		counts[r.outcome]++;
		/* the worst exit: setup error, then not enforced, then unmet */
		if ((ex == RG_EXIT_SETUP) ||
		    (ex == RG_EXIT_ENFORCE && status != RG_EXIT_SETUP) ||
		    (ex == RG_EXIT_UNMET && status == RG_EXIT_OK))
			status = ex;
		if (c->repeat == 1 || c->verbose || ex != RG_EXIT_OK) {
			if (c->repeat > 1 && !c->quiet)
				show_output(&r);
			if (c->quiet && c->repeat > 1) {
				fprintf(stderr, "racegate: %s: run %ld: %s\n",
					sp->name ? sp->name : sp->path, i,
					run_outcome_name(r.outcome));
			} else if (c->quiet) {
				fprintf(stderr, "racegate: %s: %s\n",
					sp->name ? sp->name : sp->path,
					run_outcome_name(r.outcome));
			} else {
				report_run(stderr, sp, &r, (int)i, (int)c->repeat, color);
			}
		}
		run_result_release(&r);
	}
	if (c->repeat > 1) {
		bool first = true;

		fprintf(stderr, "racegate: %ld runs:", c->repeat);
		for (k = 0; k <= OUT_ERROR; k++)
			if (counts[k]) {
				fprintf(stderr, "%s %zu %s", first ? "" : ",", counts[k],
					run_outcome_name((enum run_outcome)k));
				first = false;
			}
		fputc('\n', stderr);
	}
	plan_release(&p);
	spec_free(sp);
	return status;
}

int main(int argc, char **argv)
{
	struct cli c;
	int r;

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
	if (strcmp(argv[1], "run") && strcmp(argv[1], "check"))
		return usage_error("unknown command '%s' (commands: run, check)", argv[1]);
	r = parse_args(&c, argc, argv);
	if (r)
		return r;
	if (!strcmp(c.cmd, "check"))
		return cmd_check(&c);
	return cmd_run(&c);
}
