/*
 * tri: racegate triage.  Takes each race of a data-race report (triage/),
 * maps its two accesses to the normal build of the program by FILE:LINE
 * and function, forces each of the two orders with a gates file, runs
 * each order a few times under the gate engine (run.h), and says what
 * the race does: HARMFUL, OUTPUT-DIFFERS, BENIGN, NOT-REACHED or
 * SINGLE-ORDER (docs/triage.md).
 *
 * tri_plan.c holds the pure parts (a race's two sides, its threads'
 * names, the gates file of an order, the verdict from the runs' ends);
 * tri_run.c the runs, the files written and the reports.
 */
#ifndef RACEGATE_TRI_H
#define RACEGATE_TRI_H

#include <stdbool.h>
#include <stdio.h>

#include "explore.h"
#include "msg.h"
#include "triage.h"

enum tri_verdict {
	TRI_HARMFUL = 0,
	TRI_OUTPUT_DIFFERS,
	TRI_BENIGN,
	TRI_NOT_REACHED,
	TRI_SINGLE_ORDER,
};

/* "HARMFUL", "OUTPUT-DIFFERS", ... */
const char *tri_verdict_name(enum tri_verdict v);

/* One access of a race, as a gate names it. */
typedef struct tri_side {
	char *file;        /* the place's file, base name ("stale_conn.c") */
	int line;
	int plus;          /* its instruction in the line (FILE:LINE+N), 0: the line's start */
	enum triage_kind kind; /* read or write, as the report says */
	char *function;    /* as the report printed it */
	char *start;       /* its thread's start routine, or NULL (main, unknown) */
	int nth;           /* 1 or 2 when both threads share start, else 0 */
	int tsan_thread;   /* the tool's thread number; -1 unknown */
	char *alias;       /* "closer", "counter_1", "main" */
	char *text;        /* its source line in the normal build's file, or NULL */
	int next_line;     /* the next line with code of its function, or 0 */
	char *inner;       /* "vector.tcc:114": the access in library code built
			      into the program, called from the place; or NULL */
} tri_side;

void tri_side_release(tri_side *s);

/* Where s is, as an at: names it: "FILE:LINE" or "FILE:LINE+N" (malloc'd). */
char *tri_side_at(const tri_side *s);

/*
 * The instruction of s's line that is its access: of the line's n shared
 * accesses (plus[i], reading or writing as how[i] says: DWARFX_READS,
 * DWARFX_WRITES), the first that does what s's access does.  0 (the
 * line's start) when the line holds one such access or fewer, or the
 * report does not say read or write.
 */
int tri_pick_access(const tri_side *s, const size_t *plus, const unsigned char *how,
		    size_t n);

/*
 * A race's two sides from report r: first is the race's access a, second
 * its b.  -1 with err when an access has no place with a file and line,
 * or both are on one thread.
 */
int tri_sides(const triage_report *r, const triage_race *race, tri_side s[2],
	      rg_err *err);

/* Each side's alias from its start and nth ("closer", "counter_1", "lambda_2", "main"). */
void tri_name_threads(tri_side s[2]);

/*
 * Names the start routine of a C++ callable as a selector does: a
 * lambda's operator() becomes its closure type, as in fn, the normal
 * build's name of the place's function ("main::{lambda(char const*)#1}").
 * Returns a new string, or NULL when start needs no change.
 */
char *tri_start_from_function(const char *start, const char *fn);

/* Is the report's function name rep the normal build's fn (last component, no parameters)? */
bool tri_same_function(const char *rep, const char *fn);

/*
 * The gates file forcing "side first, then the other": the other side's
 * thread waits at its line (once) until first's thread, arrived at its
 * own line, has got past it; first's thread then waits at its next line
 * (next_line) until the other has reached its own next line (or got past
 * its line, when its next is not known), TRI_HOLD_MS at most, so that
 * nothing of first's comes between the two (a check and the use after it).  Weak:
 * first's thread does not wait for the other to be at its line (for two
 * accesses never at their lines at once), nor after it.
 * command is the program's argv; wait_ms each waiting gate's timeout;
 * expect (NULL: none) the YAML of an expect: block, its "expect:" line
 * included.
 */
char *tri_gates_yaml(const tri_side s[2], int first, bool weak, char *const *command,
		     long wait_ms, long timeout_ms, const char *name, const char *expect);

/* How the runs of one order ended. */
typedef struct tri_order {
	int runs;
	int failed;          /* crashed, hung or deadlocked by itself */
	int unenforced;      /* the order did not take hold (deadlock of the gates, timeout) */
	bool reached[2];     /* each side's gate was reached in some run */
	char **ends;         /* per run that took hold and ended: "exit N" + stdout */
	int nends;
	char *failure;       /* the first failure in words ("killed by SIGSEGV"), or NULL */
	explore_run fail;    /* its kind (fail.fail), exit status, signal and stdout */
	char *why;           /* the first unenforced run's note, or NULL */
	bool weak;           /* forced without the first waiting for the other (tri_gates_yaml) */
} tri_order;

void tri_order_release(tri_order *o);

/*
 * The verdict from the two orders' runs (o[k]: side k first).  *which is
 * the order that fails (HARMFUL), the side never reached (NOT-REACHED) or
 * the order that could not be forced (SINGLE-ORDER; 2: neither), else -1.
 */
enum tri_verdict tri_classify(const tri_order o[2], int *which);

/*
 * How two ends ("exit N\n" + stdout, as tri_order keeps them) differ, in
 * words: "exit 0 against exit 1, stdout line 1 \"count = 2\" against
 * \"count = 1\"" (malloc'd).
 */
char *tri_ends_differ(const char *a, const char *b);

/* What a run must do besides taking hold (--expect's); x.any false: nothing. */
typedef struct tri_judge {
	spec_expect x;
	spec *xspec;             /* --expect FILE, which holds x's text */
} tri_judge;

/* How long the first thread of an order waits at its next line, at most. */
#define TRI_HOLD_MS 500

/* --search's default: schedules of a race's search */
#define TRI_SEARCH 100

/*
 * The races to triage, from one report or several (tri_reports.c): each
 * report's races in its order, the reports in the order TSan, Helgrind,
 * DRD; a race whose two places (FILE:LINE, in either order) an earlier
 * one has is counted once, under the earlier one.
 */
typedef struct tri_item {
	const triage_report *rep;  /* the first report that names it */
	const triage_race *race;
	tri_side s[2];             /* its sides (tri_sides); empty when note */
	char *note;                /* why it cannot be triaged, or NULL */
	char *inferred;            /* how its second side was taken from the
				      report (DRD did not show it), or NULL */
	char **seen;               /* "REPORT:LINE" of each report's warning */
	size_t nseen;
} tri_item;

typedef struct tri_reports {
	triage_report *v[3];       /* owned */
	size_t n;
	tri_item *items;
	size_t nitems;
} tri_reports;

/*
 * Loads the reports paths[] names (TRIAGE_TSAN, _HELGRIND, _DRD: NULL for
 * a tool not given) into rs and builds its items; -1 with err (the
 * report's name and line) when one cannot be read.
 */
int tri_reports_load(tri_reports *rs, const char *const paths[3], rg_err *err);

/* Adds a parsed report to rs (rs owns it from now on). */
void tri_reports_add(tri_reports *rs, triage_report *r);

/* rs's items from its reports (again, when called again). */
void tri_reports_build(tri_reports *rs);

void tri_reports_release(tri_reports *rs);

/*
 * Checks, on p (a plan whose gates 0 and 1 are s[0]'s and s[1]'s places),
 * that each place's code is its own line's: an optimised build may leave
 * a line no instruction of its own (its address is another line's), or
 * put both places at one instruction; the order of the two lines cannot
 * be forced there.  -1 with err saying which (race no, in prog).
 */
struct plan;
int tri_places_own(const struct plan *p, int no, const tri_side s[2], const char *prog,
		   rg_err *err);

/* What racegate triage was asked. */
typedef struct tri_opts {
	const char *tsan;        /* --tsan REPORT */
	const char *helgrind;    /* --helgrind REPORT */
	const char *drd;         /* --drd REPORT (at least one of the three) */
	const char *outdir;      /* -o DIR, or NULL: "." */
	const char *report;      /* --report FILE.json, or NULL */
	const char *markdown;    /* --markdown FILE.md, or NULL */
	long wait_ms;            /* --time D: how long a gate waits for the other (0: 2s) */
	long runs;               /* runs per order (0: 5) */
	long verify;             /* replays of a HARMFUL file (0: 20) */
	long search;             /* --search N: schedules of the search when no order
				    fails (0: none; the command line's default TRI_SEARCH) */
	const char *expect_verdicts; /* --expect-verdicts V,...: race i's verdict, or NULL */
	char **command;          /* PROG ARGS */
	char **abs_command;      /* (tri_main's own: PROG made absolute) */
	const char *source_dir;
	/* a good run (--expect-exit, --expect-stdout) or a bug (--expect
	 * FILE's expect:): an order that breaks it, or does that bug, fails */
	bool has_expect_exit;
	int expect_exit;
	const char *expect_stdout;
	const char *expect_file;
	const tri_judge *judge;  /* (tri_main's own: the expectation above) */
	const struct tri_race *races; /* (tri_main's own: every race, placed) */
	size_t nraces;
	bool quiet;
	unsigned closed_std;
} tri_opts;

/* The JSON report's "report": the report's name, or a list of them (tri_reports.c). */
void tri_json_reports(rg_buf *b, const tri_opts *o);

/* A race's "note" (when not triaged), "inferred" and "seen" members. */
void tri_json_item(rg_buf *b, const tri_item *it, const char *note);

/* "'REPORT' reports no data race", for each report. */
void tri_say_no_race(FILE *f, const tri_reports *rs);

/* Each report's warnings that are not data races. */
void tri_say_skipped(FILE *f, const tri_reports *rs);

/*
 * tri_expect.c.  The verdicts of list ("BENIGN,single-order": names, any
 * case, comma-separated) into *v (malloc'd; v NULL: only counted) and *n;
 * -1 with err naming the unknown one.
 */
int tri_expect_parse(const char *list, enum tri_verdict **v, size_t *n, rg_err *err);

/* -1 with err when --expect-verdicts does not list one verdict per race. */
int tri_expect_count(const tri_opts *o, size_t nraces, rg_err *err);

/*
 * The exit status for the verdicts got[0..n) of the report's races (none
 * where untriaged[i]): with --expect-verdicts, 1 when one is not as
 * listed (each said on f), else 1 when one is HARMFUL or OUTPUT-DIFFERS;
 * 0 otherwise.
 */
int tri_status(const tri_opts *o, const enum tri_verdict *got, const bool *untriaged,
	       size_t n, FILE *f);

/*
 * racegate triage: the table on f (stderr's lines through msg.h); returns
 * racegate's exit status: 1 when a race is HARMFUL or OUTPUT-DIFFERS (or,
 * with --expect-verdicts, not as listed), 0 when none is, 2 on a setup
 * error, 128+N when interrupted by signal N (the races finished are told).
 */
int tri_main(const tri_opts *o, FILE *f);

#endif
