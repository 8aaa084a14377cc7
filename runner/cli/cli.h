/*
 * cli: racegate's command line.  main.c calls cli_main; the parsing is
 * public so tests/check_cli.c can drive it without running anything.
 */
#ifndef RACEGATE_CLI_H
#define RACEGATE_CLI_H

#include <stdbool.h>
#include <sys/types.h>

#include "explore.h"
#include "tri.h"
#include "msg.h"
#include "options.h"

/* What racegate was asked, as parsed: every command's options (options.c). */
struct cli {
	const char *cmd;       /* "run", "check", "attach", "lines", "explore", ... */
	bool help;             /* -h, --help: print the command's help, run nothing */
	const char *spec_path; /* run, check, attach: GATES.yaml */
	const char *lines_file; /* lines FILE[:FROM-TO] */
	bool vars;             /* lines --vars */
	const char *topic;     /* help TOPIC, completion SHELL */
	char **command;        /* after --, or NULL */
	long repeat;
	long jobs;
	bool stop_on_first;
	unsigned expect_mask;  /* --expect-outcome, 0: by exit status */
	const char *report, *junit, *trace;
	bool tap;
	long timeout_ms;
	int on_deadlock;       /* -1: the spec's */
	long quiet_ms;         /* --quiet-period, 0: the default */
	bool keep_stopped;
	bool no_fastpath;      /* --no-fastpath: every gate hit traps */
	int follow_fork;       /* --follow-fork 1, --no-follow-fork 0, -1: the spec says */
	bool quiet, verbose;
	int color;             /* -1 auto, 0 never, 1 always */
	const char *source_dir; /* --source-dir, or NULL */
	unsigned closed_std;   /* bit i: racegate was started with fd i closed */
	bool *inherit;         /* fds from 3 up racegate was started with (run_opts) */
	int ninherit;
	pid_t attach_pid;      /* racegate attach PID GATES.yaml, else 0 */
	explore_opts x;        /* explore's own (-q, -v, --source-dir: above) */
	bool merge;            /* explore --merge: its arguments are reports */
	char **args;           /* explore's arguments before --: --merge's reports */
	size_t nargs;
	tri_opts t;            /* triage's own (likewise) */
};

/*
 * Parses argv[2..] of `racegate CMD` (argv[1] is the command) into c, by
 * the option table (options.h).  Returns 0 (with c->help set when -h or
 * --help asked for the command's help instead), or RG_EXIT_SETUP after
 * printing "racegate: PROBLEM" and the command's usage on stderr.
 * --verbose also calls rg_set_verbose(1).  cli_release frees what c holds.
 */
int cli_parse(struct cli *c, int argc, char **argv);
void cli_release(struct cli *c);

/* The whole program: returns racegate's exit status (or dies by a signal). */
int cli_main(int argc, char **argv);

/* lines.c: `racegate lines FILE[:FROM-TO] -- PROGRAM`, as c has it. */
int cmd_lines(const struct cli *c);

/* attach.c.  A process id as given on the command line; -1 when s is none. */
int attach_parse_pid(const char *s, pid_t *pid);
/*
 * The program process pid runs (/proc/PID/exe), malloc'd: what the plan is
 * built from.  NULL with a message when there is none to read (no such
 * process, a kernel thread, a program deleted since it started).
 */
char *attach_program_path(pid_t pid, rg_err *err);

#endif
