/*
 * explore: `racegate explore` (explore.c: the command, its search loop and
 * the shrinker's runs; explore_write.c: the gates.yaml it writes).  The
 * scheduler is decide_explore.h, the strategies explore_strategy.h.
 */
#ifndef RACEGATE_EXPLORE_H
#define RACEGATE_EXPLORE_H

#include "decide_explore.h"
#include "runner.h"

/* What made a schedule fail (none: it met the expectation). */
enum explore_fail {
	XF_NONE,
	XF_EXIT,               /* exit status other than the expected one */
	XF_SIGNAL,             /* killed by a signal (crash, assert/abort) */
	XF_DEADLOCK,           /* no thread could move */
	XF_TIMEOUT,            /* the whole-run timeout */
	XF_STDOUT,             /* stdout did not match --expect-stdout */
	XF_NKINDS,
};

const char *explore_fail_name(enum explore_fail f);

/* One schedule's run, as the writer and the summary need it. */
typedef struct explore_run {
	enum explore_fail fail;
	int exit_code;         /* when it exited, else -1 */
	int signo;             /* when killed by a signal, else 0 */
	explore_step *steps;
	size_t nsteps;
	explore_thread_info *threads; /* by logical id */
	size_t nthreads;
	size_t npreempt;
	uint64_t hash;
} explore_run;

void explore_run_release(explore_run *r);

/* What the writer needs besides the run. */
typedef struct explore_write_in {
	const explore_run *r;
	const char *const *at;  /* per gate of the explore plan: its at: text */
	char *const *command;   /* as the gates file should say it */
	const char *id;         /* the schedule id, for the header comment */
	const char *name;       /* name: of the spec */
	long timeout_ms;        /* timeout: of the spec; 0: 10 s */
} explore_write_in;

/* How much of the schedule the gates.yaml enforces. */
enum explore_write_level {
	XW_PREEMPTIONS,        /* only each preemption */
	XW_STRETCHES,          /* every switch from one thread to another */
	XW_NLEVELS,
};

/*
 * A gates.yaml (malloc'd text) that replays r's order at level: thread
 * aliases by start routine and nth, wait/open pairs at the switches that
 * matter, hit: only where the arrival is not the thread's first there,
 * expect: from r's failure, and a comment per gate.  NULL (with err) when
 * r's failure or threads cannot be said in a gates file.
 */
char *explore_write_yaml(const explore_write_in *in, enum explore_write_level level,
			 rg_err *err);

/*
 * A Markdown bug report (malloc'd) of the run in: the command line that
 * found it, the gates file (yaml, written at yaml_path; both NULL when
 * none was written) and the interleaving as a Mermaid sequence diagram:
 * one note per stretch a thread ran, one arrow per switch.
 */
char *explore_write_markdown(const explore_write_in *in, const char *yaml,
			     const char *yaml_path, const char *cmdline);

/*
 * racegate explore ARGS... (argv[0] is "explore"); racegate's exit status.
 * closed_std, inherit: as run_opts has them (the fds racegate got).
 */
int cmd_explore(int argc, char **argv, unsigned closed_std, const bool *inherit,
		int ninherit);

#endif
