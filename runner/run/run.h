/*
 * run: the program run under the gates.  run.c is one run: a session
 * (session.h) with the gate engine deciding (decide_gates.c, its when:
 * conditions evaluated by when.c), then judged (report.h).  batch.c is a
 * session of runs (--repeat, --stop-on-first, the tally and the reports),
 * jobs.c the runs in worker processes (--jobs).
 */
#ifndef RACEGATE_RUN_H
#define RACEGATE_RUN_H

#include "report.h"

/* Runs the program once under the plan; always fills res (outcome ERROR on failure). */
void run_once(plan *p, const run_opts *o, run_result *res);

/* What the command line asked of a session of runs. */
typedef struct batch_opts {
	long repeat;             /* runs wanted, >= 1 */
	int jobs;                /* runs at once, >= 1 */
	bool stop_on_first;      /* stop at the first run batch_stops_at() picks */
	unsigned expect_mask;    /* bit per enum run_outcome accepted; 0: exit-status rule */
	const char *report_path; /* --report, or NULL */
	const char *junit_path;  /* --junit, or NULL */
	const char *trace_path;  /* --trace, or NULL */
	bool tap;                /* --tap on stdout */
	bool quiet, verbose;
	bool color;
	bool progress;           /* a progress line (stderr is a terminal) */
} batch_opts;

/*
 * Runs the session: o->capture and o->passthrough must already say what
 * one run needs; batch_run adds capture where reports need the output.
 * Prints per-run reports and the tally to stderr, TAP to stdout, writes
 * the report files, and returns racegate's exit status.
 */
int batch_run(plan *p, const spec *sp, run_opts *o, const batch_opts *bo);

/* Is this outcome what the session expects (--expect-outcome, else exit 0)? */
bool batch_outcome_ok(const batch_opts *bo, enum run_outcome o);

/* Parses "REPRODUCED,PASSED" (case-insensitive) into a mask; -1 when invalid. */
int batch_parse_outcomes(const char *list, unsigned *mask, rg_err *err);

/*
 * Worker processes.  Each run happens in a child forked for it, because a
 * tracer reaps with waitpid(-1): two tracers cannot share a process.
 * With jobs == 1, runs happen in this process (output passes through).
 */
typedef struct jobs jobs;

/*
 * Called in the parent for each finished run, in completion order; takes
 * r (and must release it).  Returns true to start no more runs (those in
 * flight still finish and are reported).
 */
typedef bool (*jobs_done_fn)(void *ctx, long no, double start_ms, run_result *r);

jobs *jobs_new(plan *p, const run_opts *o, int njobs);
/* Runs runs 1..n; returns how many were started. */
long jobs_run(jobs *j, long n, jobs_done_fn done, void *ctx);
/* Frees j; results it handed out must be released first. */
void jobs_free(jobs *j);

/* Serialises the fields of r a report needs, and back (0, or -1 when short). */
void run_result_encode(rg_buf *b, const run_result *r);
int run_result_decode(const char *s, size_t len, run_result *r,
		      const char *(*intern)(void *ctx, const char *s), void *ctx);

#endif
