/*
 * explore's insides, shared by explore.c (points, the search,
 * shrinking, the summary) and explore_repro.c (the gates file: replayed
 * before it is written, traced, shown in Markdown).
 */
#ifndef RACEGATE_EXPLORE_INT_H
#define RACEGATE_EXPLORE_INT_H

#include <regex.h>
#include <stdbool.h>
#include <time.h>

#include "explore.h"
#include "intmap.h"
#include "session.h"
#include "strategy.h"

/* The state of one explore command. */
struct xctx {
	const explore_opts *o;
	spec *sp;
	plan p;
	char **at;             /* per gate: its at: text */
	char **anchored;       /* per gate: its at: as written files say it, or NULL
				  until explore_file_points */
	enum explore_point_kind *kinds;
	bool *quiet;           /* per point: a line whose first instruction touches nothing shared */
	size_t npoints, cappoints;
	run_opts ro;
	regex_t re;
	bool has_re;
	spec *xspec;           /* --expect FILE, loaded: its expect: judges */
	char *stdin_buf;       /* the program's stdin, read once (ro.stdin_data) */
	struct timespec t0;
	/* --time (explore_budget.c): the schedules' pace, and whether a run
	 * was cut by it or a phase stopped for it */
	double run_ms;         /* wall time of the schedules run so far */
	long nruns;
	bool out_of_time;
	/* the progress line (explore_progress) */
	int tty;               /* 0 not asked yet, 1 drawn on stderr, -1 not */
	int phase;             /* the phase drawn last, plus 1; 0 none */
	double drawn_ms;       /* when */
	bool shown;            /* a line is on the terminal now */
	/* the fork server (explore_copy.c) */
	struct xcopy {
		pid_t owner;           /* the racegate process the templates are of */
		bool off;              /* each schedule runs anew (why: --verbose) */
		struct xtemplate **t;  /* per --jobs slot */
		int nt;
		pid_t pending;         /* a copy made for the next fork of racegate */
		int pending_slot;      /* of that slot's template */
		pid_t ended;           /* the last fork of racegate, its record read: maybe
					  still exiting, reaped later (reap_ended) */
	} fs;
};

struct search {
	long tried;
	rg_intmap seen;        /* interleaving hashes */
	size_t distinct;
	bool forked;           /* a schedule's program made a child that ran untraced */
	bool exhausted;        /* the strategy had no schedule left (dfs: within its bound) */
	long learning;         /* runs not owned, only to learn (dfs: other shards', earlier passes') */
	long diverged;         /* runs that did not go where the strategy sent them */
	char *bound;           /* the strategy's bound, as "with at most 3 delays" (tally) */
	long timeouts;         /* schedules counted in tried that ended by --timeout */
	long flaky_timeouts;   /* and those that did, but whose replay did not: no failure */
	/* for --report: the failure as found, shrunk and replayed */
	size_t found_preempt, found_steps, shrink_runs, ndevs;
	long reproduced;       /* best replays of a gates file that reproduced, -1 none */
	long repro_shrunk;     /* best replays of the shrunk schedule's files, -1 none made */
	long repro_found;      /* of the schedule as found's (explore_write_found), -1 none */
	char *nofile_err;      /* no file could be made: why (explore_write_yaml) */
	char *no_file;         /* asked for, none written: why, one line (explore_no_file) */
	const char *no_file_try; /* and what to try then, or NULL */
	int fails_alone;       /* the failure, in the default order, in as many plain runs
				  of ALONE_RUNS (explore_fails_alone), or 0 */
	bool passed_before;    /* the failing run's interleaving passed in an earlier
				  schedule of the search */
	bool wrote;            /* -o FILE.yaml written */
	bool traced;           /* --trace written */
	explore_dev *fail_devs; /* --jobs: the failing schedule's deviations */
	size_t nfail_devs;
	bool has_fail_devs;
	size_t gates_before, gates_after; /* the file's gates, before and after dropping */
	explore_sched fail_sc; /* the failing schedule */
	explore_run fail_run;
	/* the failing run as found, once shrinking replaced fail_run: the
	 * gates file is written from it when the shrunk one's does not
	 * reproduce */
	explore_run found_run;
	bool found_file;       /* the schedule as found's gates file was tried
				  (explore_write_found): reproduced, gates_* are its */
	bool wrote_found;      /* and written: fail_run is the run as found,
				  found_run the shrunk one */
	bool shrink_cut;       /* shrinking was cut short by a signal or --time */
	bool shrink_capped;    /* ... or by --shrink-runs */
	/* the file written without every --verify replay reproducing
	 * (interrupted, or --time ran out): its header's tally */
	char *unverified;
	char *fail_id;
	char *replay_cmd;      /* the command that replays the (shrunk) failure */
	/* where it stands in the unsharded search's order (strategy_rank) */
	uint64_t fail_rank[2];
	bool failed;
};

double explore_elapsed_ms(const struct xctx *c);

/* How a run ended, as a failure of the search (XF_NONE: it passed): by
 * --expect FILE's expect:, else by the exit status, --expect-stdout, a
 * signal, a deadlock or the timeout. */
enum explore_fail explore_judge(const struct xctx *c, run_result *res, bool deadlock,
				bool timed_out);

/* ---- explore_alone.c ---- */

/*
 * After a failure found in the default order (no preemption): does the
 * program fail the same way (kind) in each of n plain runs (not traced:
 * the command, stdin bytes and --timeout of the search)?  Stops at the
 * first run that does not.  False without a run for a deadlock or a
 * timeout (a plain run could hang until its timeout), with --expect FILE,
 * or when --time is up.
 */
bool explore_fails_alone(struct xctx *c, enum explore_fail kind, int n);

/*
 * The points as a gates file written says them: each FILE:LINE as an
 * anchor (dwarfx_anchor: FILE:/REGEX/, so that the file runs against a
 * fixed build whose lines moved), the others as they are.
 */
const char *const *explore_file_points(struct xctx *c);

/* ---- explore_budget.c: --time over the whole command ---- */

/* What a run may last, at most want ms (0: the time is up, do not run). */
long explore_run_limit(const struct xctx *c, long want);
/* A run given limit ms ended by its timeout: was that --time, not the run's
 * own timeout (want)?  Notes it (c->out_of_time). */
bool explore_cut_by_time(struct xctx *c, long want, long limit, bool timed_out);
/* Notes a schedule's wall time, for the pace. */
void explore_note_run(struct xctx *c, double ms);
/* Must the search stop now, to leave shrinking and --verify their share? */
bool explore_search_time_up(const struct xctx *c);
/* Must shrinking stop now, to leave --verify its share? */
bool explore_shrink_time_up(const struct xctx *c);
/* Has --time run out (noted, or the clock past it)? */
bool explore_time_up(const struct xctx *c);
/* Why the runs stopped early, as "the time ran out" or "racegate was
 * interrupted (SIGINT)" (malloc'd); NULL when they did not. */
char *explore_stop_reason(const struct xctx *c);

/* ---- explore_summary.c ---- */

/* The summary line's counts, as one search or merged shards say them:
 * " after N schedules (D distinct interleavings) in T s, P scheduling
 * points, STRATEGY". */
void explore_say_counts(long tried, size_t distinct, double ms, size_t points,
			const char *strategy);
/* The summary's line for n schedules that timed out but not when replayed. */
void explore_say_flaky_timeouts(long n);

/*
 * The progress line on stderr, when it is a terminal (and not -q, -v):
 * phase ph at n of total (< 0: none), redrawn at most every
 * EXPLORE_PROGRESS_MS.
 */
void explore_progress(struct xctx *c, enum explore_phase ph, long n, long total,
		      size_t distinct);
/* Takes the progress line off the terminal, before a line on stdout. */
void explore_progress_clear(struct xctx *c);

/* The command that replays schedule id, malloc'd (with the stdin it needs). */
char *explore_replay_cmdline(const struct xctx *c, const char *id);
/* The explore command as the user typed it (each word quoted as it needs), or NULL. */
char *explore_typed_cmdline(const struct xctx *c);
/* The summary of the search (or the replay), interrupted or not. */
void explore_summary(const struct xctx *c, const struct search *se);
/* --report FILE.json; 0, or -1 said. */
int explore_write_report(const struct xctx *c, const struct search *se,
			 const char *shrunk_id);

/* ---- explore_stdin.c ---- */

/*
 * Reads racegate's stdin to its end into c->ro (has_stdin), unless it is
 * a terminal or was closed (closed_std bit 0): the bytes every run gets.
 * 0, 1 interrupted, -1 error (said).
 */
int explore_read_stdin(struct xctx *c, unsigned closed_std);
/* The bytes as a YAML double-quoted string (malloc'd) that loads back to
 * them; NULL when they are not UTF-8 text, or too long to read well. */
char *explore_stdin_yaml(const char *data, size_t n);
/* "printf '...' | " giving the bytes, for a command line; false (nothing
 * added) when they are too many to read well. */
bool explore_stdin_printf(rg_buf *b, const char *data, size_t n);

/* ---- explore_repro.c ---- */

/* Writes text to the file path; says why not.  0 or -1. */
int explore_save(const char *path, const char *text);
/*
 * Writes the gates file for se's failure at the first level that
 * reproduces every time it is replayed; says how it went.  0 written, 1
 * not (said why), -1 error.  *written: the file's text, when asked.
 */
int explore_write_repro(struct xctx *c, struct search *se, const char *id, char **written);
/* Falls back to the failing schedule as found (see explore_repro.c). */
int explore_write_found(struct xctx *c, struct search *se, const char **id, char **yaml);
/*
 * After explore_write_repro (and explore_write_found) wrote none: says
 * once why, from the replays of every schedule tried, and what to try;
 * sets se->no_file and se->no_file_try for the reports.
 */
void explore_no_file(const struct xctx *c, struct search *se);
/* --markdown FILE: the command, the gates file, the timeline, the diagram. */
int explore_markdown_file(struct xctx *c, const struct search *se, const char *id,
			  const char *yaml);

/*
 * The fork server (explore_copy.c).  init/free: in explore_search.
 * prepare: in racegate, before it forks to run a schedule in slot's copy:
 * true when a copy was made (else the schedule runs anew, and --verbose
 * said why once).  take: in that fork, the copy and the template session
 * to run it from (NULL: none; a second run in the same fork runs anew).
 * run: forks racegate, which runs sc in the copy prepare made with run;
 * out and sc's decisions come back; returns as run does.
 */
void explore_copy_init(struct xctx *c);
void explore_copy_free(struct xctx *c);
/* Reaps the copies made so far (racegate's children): before anything is
 * traced in racegate itself, whose tracer reaps with waitpid(-1). */
void explore_copy_reap(struct xctx *c);
bool explore_copy_prepare(struct xctx *c, int slot);
session *explore_copy_take(struct xctx *c, pid_t *child);
int explore_copy_run(struct xctx *c, explore_sched *sc, explore_run *out,
		     int (*run)(struct xctx *, explore_sched *, explore_run *));

#endif
