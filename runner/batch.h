/*
 * batch: a session of runs (--repeat, --jobs) and what comes out of it
 * for machines (--report, --junit, --tap, --trace).
 *
 *   batch.c         the session: runs, progress line, tally, exit status
 *   jobs.c          runs in forked worker processes, results over a pipe
 *   report_json.c   --report FILE.json (docs/report.md), and JSON helpers
 *   report_junit.c  --junit FILE.xml (tests/junit.xsd)
 *   report_tap.c    --tap: TAP version 13 on stdout
 *   report_trace.c  --trace FILE.json: Chrome trace events (Perfetto)
 */
#ifndef RACEGATE_BATCH_H
#define RACEGATE_BATCH_H

#include "runner.h"

/* Version of the JSON report's schema (docs/report.md). */
#define REPORT_SCHEMA_VERSION 1

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

/* One finished run, kept for the machine reports. */
typedef struct run_record {
	long no;                 /* 1-based, in start order */
	bool ok;                 /* its outcome is what was expected */
	double start_ms;         /* when it started, from the session's start */
	long tap_point;          /* its TAP test point: runs ended before it + 1 */
	run_result r;
} run_record;

/* Everything a machine report needs. */
typedef struct report_ctx {
	const spec *sp;
	const plan *p;
	const run_record *runs;  /* in run-number order */
	size_t nruns;
	const batch_opts *bo;
	int status;              /* racegate's exit status */
	const char *stopped;     /* why the session ended early, or NULL */
	double elapsed_ms;       /* the whole session */
	long long started_unix_ms; /* wall clock at the start of the session */
} report_ctx;

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

/* Machine reports; each returns 0, or -1 with err set. */
int report_json_write(const report_ctx *rc, const char *path, rg_err *err);
int report_junit_write(const report_ctx *rc, const char *path, rg_err *err);
int report_trace_write(const report_ctx *rc, const char *path, rg_err *err);
void report_tap_begin(FILE *f);
/* A test point; its YAML block (outcome, output) for unexpected runs, or all with detail. */
void report_tap_run(FILE *f, const run_record *rec, bool detail);
void report_tap_end(FILE *f, long nruns, const char *stopped);

/* JSON helpers: s as a JSON string (null for NULL), valid UTF-8 always. */
void json_str(rg_buf *b, const char *s);
void json_strn(rg_buf *b, const char *s, size_t n);
/* A number that JSON accepts (no nan/inf). */
void json_num(rg_buf *b, double v);
/* Timeline entry kind: "arrive", "open", "hold", "release", "timeout", "bind". */
const char *tl_kind_name(int kind);

/* Decodes one UTF-8 sequence at s (n bytes left); returns its length, or 0 when invalid. */
size_t utf8_seq(const unsigned char *s, size_t n, unsigned *cp);

/*
 * Can path be written (created, or opened without truncating it)?  Asked
 * before the first run, so that a typo does not cost the whole session.
 * Leaves no new file behind; 0, or -1 with err.
 */
int report_check_path(const char *path, rg_err *err);

/* Writes b to path (or stdout for "-"); 0 or -1 with err. */
int report_write_file(const char *path, const rg_buf *b, rg_err *err);

#endif
