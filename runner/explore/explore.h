/*
 * explore: `racegate explore` (explore.c: the command, its search loop and
 * the shrinker's runs; explore_write.c: the gates.yaml it writes).  The
 * scheduler is decide_explore.h, the strategies explore_strategy.h.
 */
#ifndef RACEGATE_EXPLORE_H
#define RACEGATE_EXPLORE_H

#include "decide_explore.h"
#include "run.h"
#include "strategy.h"

/* What made a schedule fail (none: it met the expectation). */
enum explore_fail {
	XF_NONE,
	XF_EXIT,               /* exit status other than the expected one */
	XF_SIGNAL,             /* killed by a signal (crash, assert/abort) */
	XF_DEADLOCK,           /* no thread could move */
	XF_TIMEOUT,            /* the whole-run timeout */
	XF_STDOUT,             /* stdout did not match --expect-stdout or --expect's */
	XF_EXPECTED,           /* the run met --expect FILE's bug (judge: REPRODUCED) */
	XF_OUTPUT,             /* stderr missed --expect FILE's good run */
	XF_NKINDS,
};

const char *explore_fail_name(enum explore_fail f);

/* One schedule's run, as the writer and the summary need it. */
typedef struct explore_run {
	enum explore_fail fail;
	int exit_code;         /* when it exited, else -1 */
	int signo;             /* when killed by a signal, else 0 */
	bool timed_out;        /* ended by the whole-run --timeout */
	bool flaky_timeout;    /* failed by it, but its replay did not: no failure */
	bool forked;           /* made a child process that ran untraced */
	explore_step *steps;
	size_t nsteps;
	explore_wake *wakes;   /* woken threads' arrivals; not sent by --jobs workers */
	size_t nwakes;
	explore_thread_info *threads; /* by logical id */
	size_t nthreads;
	size_t npreempt;
	uint64_t hash;
	char *out;             /* its stdout (NUL-terminated), or NULL */
	char *err;             /* its stderr, when it failed, or NULL */
	/* the last stretch's thread was left held at a point (a deadlock) */
	bool end_held;
	size_t end_gate;       /* end_held: that point, and its arrival there */
	long end_hit;
} explore_run;

void explore_run_release(explore_run *r);

/* What the writer needs besides the run. */
typedef struct explore_write_in {
	const explore_run *r;
	const char *const *at;  /* per gate of the explore plan: its at: text */
	char *const *command;   /* as the gates file should say it */
	const char *id;         /* the schedule id, for the header comment */
	const char *name;       /* name: of the spec */
	/* the expect: to write (--expect FILE, the bug it describes), or NULL:
	 * from r's failure */
	const spec_expect *expect;
	/* per gate of the level's full list (explore_write_ngates): leave it
	 * out, with the waits on what only it opened; NULL: none */
	const bool *drop;
	size_t ndrop;
	long timeout_ms;        /* the file's timeout:, 0: 10s */
	const char *stdin_yaml; /* the file's stdin: as YAML ("..." or {file: ...}), or NULL */
	/* name no thread by runs: (what it runs under a wrapper its start
	 * routine is, explore_thread_info.runs), only by start: and nth: */
	bool no_runs;
} explore_write_in;

/*
 * The expect: block of a gates file (its "expect:" line and keys) that
 * says r's failure: given (--expect FILE's bug) as it is, else from r's
 * fail: its exit status, signal, a deadlock, a timeout, or all the stdout
 * it printed (r->out).  -1 with err when it cannot be said.
 */
int explore_put_expect(rg_buf *b, const spec_expect *given, const explore_run *r,
		       rg_err *err);

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
 * How many gates the file of in at level has before in->drop: what drop
 * is indexed by.  Dropping gate i leaves out its opens and waits; then a
 * wait on an event no gate opens any more goes, an open nobody waits for
 * goes, and a gate left with neither goes, until nothing changes (the
 * file names only what a person would need).  explore_write_yaml fails
 * when no gate is left.
 */
size_t explore_write_ngates(const explore_write_in *in, enum explore_write_level level);

/* A point of the plan as the bug report shows it. */
typedef struct explore_point_src {
	const char *file;      /* its source file's base name, or NULL (a library's) */
	int line;              /* 0 when not known */
	const char *function;  /* or NULL */
	const char *text;      /* its source line, trimmed, or NULL (not readable) */
} explore_point_src;

/* What the bug report says besides the run. */
typedef struct explore_md_in {
	const char *yaml;      /* the gates file written, or NULL */
	const char *yaml_path; /* where */
	const char *found_by;  /* the explore command as the user typed it */
	const char *replay;    /* the command that replays the schedule */
	const char *no_file;   /* why no file was written, or NULL */
	const char *no_file_try; /* and what to try, or NULL */
	const explore_point_src *src; /* per point, or NULL */
	int fails_alone;       /* plain runs that failed so too (all that ran), or 0 */
	bool passed_before;    /* the interleaving passed in an earlier schedule */
} explore_md_in;

/* The bug report shows at most this many lines of the program's stderr, its last. */
#define EXPLORE_MD_ERR_LINES 20

/*
 * A Markdown bug report (malloc'd) of the run in: the command that found
 * it, where it failed (the thread that ran last and its point, or each
 * thread's last point when none could go on: file:line, function, the
 * source line), the program's stderr (its last EXPLORE_MD_ERR_LINES
 * lines), the replay command, the gates file or why none was written and
 * what to try, and the interleaving as a Mermaid sequence diagram: one
 * note per stretch a thread ran (its steps, the lines they span, the
 * source line it stopped at), one arrow per switch.
 */
char *explore_write_markdown(const explore_write_in *in, const explore_md_in *md);

/* Text in a Mermaid note or message, what would end or break it as entities. */
void explore_put_mermaid_text(rg_buf *b, const char *s);

/*
 * Line `line` of the source file at path as a report shows it (trimmed,
 * runs of blanks as one, long lines cut), malloc'd; NULL when unreadable.
 */
char *explore_source_text(const char *path, int line);

/* The phases of explore's progress line on a terminal. */
enum explore_phase { XP_SEARCH, XP_SHRINK, XP_VERIFY };

/* At most one redraw of the progress line in this many milliseconds. */
#define EXPLORE_PROGRESS_MS 100.0

/*
 * The progress line of phase ph into buf (len bytes, cut to fit): n of
 * total (total < 0: no total), distinct interleavings (search only),
 * elapsed_ms since explore began.  Returns its length as snprintf does.
 */
int explore_progress_line(char *buf, size_t len, enum explore_phase ph, long n,
			  long total, size_t distinct, double elapsed_ms);
/*
 * Is a redraw due at now_ms: always when the phase changed, else when
 * EXPLORE_PROGRESS_MS have passed since the last one (*last_ms, which a
 * redraw due updates).
 */
bool explore_progress_due(double *last_ms, double now_ms, bool phase_changed);

/*
 * --jobs J (explore_jobs.c): schedules 0, 1, 2, ... of a search, J at a
 * time, each in a worker process.
 *   run   in the worker: runs schedule k into *r, the deviations it took
 *         into *devs (malloc'd); returns as run_schedule (0, 1
 *         interrupted, -1 error)
 *   take  in racegate, in schedule order: takes r and devs (frees them);
 *         true to stop (the workers past k are killed, never counted)
 *   more  may schedule k start (limits of count and time)?
 * Returns 0, 1 interrupted, -1 error (said).
 */
typedef struct explore_jobs_ops {
	int (*run)(void *ctx, long k, explore_run *r, explore_dev **devs, size_t *ndevs);
	bool (*take)(void *ctx, long k, explore_run *r, explore_dev *devs, size_t ndevs);
	bool (*more)(void *ctx, long k);
	/* or NULL: in racegate, before the worker of slot (0..J-1) is forked */
	void (*before_fork)(void *ctx, int slot);
} explore_jobs_ops;

int explore_jobs_run(int njobs, const explore_jobs_ops *ops, void *ctx);

/*
 * The flat record a worker sends (explore_jobs.c): the run, its rc and the
 * deviations it took.  get: 0, or -1 when the bytes are short or not one.
 */
void explore_record_put(rg_buf *b, int rc, const explore_run *r, const explore_dev *devs,
			size_t ndevs);
int explore_record_get(const char *p, size_t n, int *rc, explore_run *r,
		       explore_dev **devs, size_t *ndevs);
void explore_write_all(int fd, const char *p, size_t n);

/*
 * What `racegate explore` was asked: the command line fills it
 * (runner/cli/options.c, from its option table), explore reads it.
 */
typedef struct explore_opts {
	char **at;             /* --at values, each a comma-separated list (at: malloc'd) */
	size_t nat;
	bool sync;
	bool lines_only;       /* --points lines: no instruction points in FILE, FUNCTION */
	bool virtual_time;     /* --virtual-time: sleeps parked, their timeouts fired */
	bool follow_fork;      /* --follow-fork: children's threads scheduled too */
	bool fork_server;      /* schedules run in copies made before its code runs
				  (explore_copy.c; --no-fork-server: anew) */
	const explore_strategy *strategy; /* --strategy: its row (strategy.h) */
	int depth, bound;
	enum explore_bound_kind bound_kind; /* dfs: what bound counts (delays by default) */
	bool bound_set;        /* --delays or --preemptions given */
	long est_steps;        /* --pct-steps, 0: from a first run */
	long schedules;
	long shrink_runs;      /* --shrink-runs: candidate runs shrinking may take;
				  -1: 200, or more while it has taken less than 20 s */
	long time_ms;
	uint64_t seed;
	const char *replay;
	long shard_i, shard_n;
	const char *out, *report, *markdown;
	const char *trace;     /* --trace FILE.json: a replay of the gates file */
	bool has_expect_exit;
	int expect_exit;
	const char *expect_stdout;
	const char *expect_file; /* --expect FILE.yaml: its expect: block */
	long timeout_ms, quiet_ms;
	long verify;           /* replays of the written file */
	long jobs;             /* --jobs: schedules at once (random, pct) */
	bool fewer_gates;      /* --fewer-gates: drop the gates replays say are not needed */
	bool quiet, verbose;
	const char *source_dir;
	char **command;        /* the program and its arguments */
	/* the command line as typed, from the command's name on (the bug
	 * report quotes it); NULL: not known */
	char *const *argv;
	int argc;
} explore_opts;

/*
 * --expect FILE: the gates file at path into *out (spec_free it, also
 * after -1), of which only expect: counts; -1 said ("--expect: ...") when
 * it cannot be read or has no expect: block.
 */
int explore_load_expect(const char *path, spec **out);

/* o with explore's defaults: what each option is when not given. */
void explore_opts_init(explore_opts *o);
/* Frees what o holds (at). */
void explore_opts_release(explore_opts *o);
/*
 * Options that do not go together (a bound of dfs with another strategy,
 * --jobs with dfs, --expect with --expect-exit): -1 with err saying why.
 */
int explore_opts_check(const explore_opts *o, rg_err *err);

/*
 * racegate explore with options o; racegate's exit status.  closed_std,
 * inherit: as run_opts has them (the fds racegate got).
 */
int cmd_explore(const explore_opts *o, unsigned closed_std, const bool *inherit,
		int ninherit);

/*
 * racegate explore --merge FILE.json ...: the reports of the N shards of
 * one search (each I of --shard I/N once, of the same strategy, seed,
 * points and options; an error says which is missing, doubled, or what
 * differs), summed and told as the unsharded search would tell them:
 * schedules, distinct interleavings, the failure it would meet first (the
 * lowest rank, strategy.h), timeouts.  o->report: a merged report; o->out,
 * o->trace, o->markdown: written by replaying that failure (--replay, with
 * the shards' options and o->command).  explore's exit status.
 */
int explore_merge(const explore_opts *o, char *const *files, size_t nfiles,
		  unsigned closed_std, const bool *inherit, int ninherit);

/* What a search found, for a command that runs one (racegate triage). */
typedef struct explore_found {
	long tried;            /* schedules run */
	bool exhausted;        /* the strategy had none left (dfs: within its bound) */
	bool failed;
	enum explore_fail fail; /* the failure's kind, exit status and signal */
	int exit_code, signo;
	char *id;              /* the failing schedule (shrunk), or NULL */
	bool wrote;            /* -o written: it reproduced every --verify replay */
	long reproduced;       /* replays of the best file that reproduced; -1 none made */
	char *no_file;         /* -o asked for, none written: why, or NULL */
} explore_found;

void explore_found_release(explore_found *f);

/* cmd_explore, and what it found into *found (when not NULL; release it). */
int explore_search(const explore_opts *o, unsigned closed_std, const bool *inherit,
		   int ninherit, explore_found *found);

#endif
