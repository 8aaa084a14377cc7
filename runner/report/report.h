/*
 * report: what happened in a run, judged and told.  judge.c turns a run's
 * result into one outcome against the spec's expect: (and an attach's end
 * into its own); report.c writes the text a person reads (the outcome
 * line, the timeline, the diagnosis); report_*.c the machine reports of a
 * session of runs: JSON (docs/report.md), JUnit, TAP and Chrome trace
 * events.  Everything here reads records (run_result, run_record); nothing
 * runs a program.
 */
#ifndef RACEGATE_REPORT_H
#define RACEGATE_REPORT_H

#include "result.h"
#include "session.h"


/* Exit status of racegate, as racegate(1) says under EXIT STATUS. */
enum {
	RG_EXIT_OK = 0,        /* every run met its expectation */
	RG_EXIT_UNMET = 1,     /* some run did not */
	RG_EXIT_SETUP = 2,     /* usage, spec or setup error */
	RG_EXIT_ENFORCE = 3,   /* the schedule could not be enforced in some run */
	RG_EXIT_SIGNAL = 128,  /* + N: the session was interrupted by signal N */
};

const char *run_outcome_name(enum run_outcome o);

/* How the schedule ended, for judging: the decider's verdict. */
typedef struct judge_verdict {
	bool stuck;            /* held threads could not proceed: SCHEDULE-DEADLOCK */
	bool infeasible;       /* ... and were released (on_deadlock: release) */
	bool deadlock;         /* stuck with no thread held: the program's own */
} judge_verdict;

/* Sets res->outcome (and note) from what happened and the spec's expectations. */
void judge_run(const spec *sp, run_result *res, bool schedule_stuck,
	       bool order_infeasible, bool timed_out);

/* Does the spec need the program's output to judge a run? */
bool judge_needs_output(const spec *sp);
/*
 * Does x describe a bug (REPRODUCED when met) rather than a good run
 * (PASSED when met, FAILED when not)?  Exit 0, or no expect:, is a good run.
 */
bool judge_expects_bug(const spec_expect *x);
/* Does out (NULL: none) meet x's stdout: (true when it has none)? */
bool judge_stdout_met(const spec_expect *x, const char *out);
/* The gates that count and did not take hold, by name and why, or NULL. */
char *judge_unenforced(const spec *sp, const run_result *r);
/* Appends text (taken) to r's note ("a; b"). */
void judge_add_note(run_result *r, char *text);

/*
 * The outcome of an attach to pid (in place of judge_run): ENFORCED when
 * every gate that counts acted and the process was let go; NOT-ENFORCED
 * when --for ran out first; INTERRUPTED; the gates' verdicts as in runs;
 * and a process that ended while attached judged by expect: without
 * stdout: and stderr:.
 */
void judge_attach(const spec *sp, run_result *r, const session_end *end,
		  const judge_verdict *v, pid_t pid);

/* Exit status for one outcome. */
int run_outcome_exit(enum run_outcome o);

/*
 * A run as a person reads it: the outcome line ("racegate: NAME: run 3/10:
 * OUTCOME: note (12.3 ms)"), the note's further lines, the diagnosis and
 * the timeline.  report_run_line writes the outcome line alone, a note of
 * several lines cut to its first.
 */
void report_run(FILE *f, const spec *sp, const run_result *res, int run_no,
		int nruns, bool color);
void report_run_line(FILE *f, const spec *sp, const run_result *res, int run_no,
		     int nruns, bool color);
void report_timeline(FILE *f, const run_result *res);

/* Version of the JSON report's schema (docs/report.md). */
#define REPORT_SCHEMA_VERSION 1

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
	long repeat;             /* runs asked for (--repeat) */
	int jobs;                /* runs at once (--jobs) */
	int status;              /* racegate's exit status */
	const char *stopped;     /* why the session ended early, or NULL */
	double elapsed_ms;       /* the whole session */
	long long started_unix_ms; /* wall clock at the start of the session */
} report_ctx;

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
