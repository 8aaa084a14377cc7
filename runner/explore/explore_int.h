/*
 * explore's insides, shared by explore.c (options, points, the search,
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

struct xopts {
	char **at;             /* --at values, each a comma-separated list */
	size_t nat;
	bool sync;
	bool lines_only;       /* --points lines: no instruction points in FILE, FUNCTION */
	const explore_strategy *strategy; /* --strategy: its row */
	int depth, bound;
	enum explore_bound_kind bound_kind; /* dfs: what bound counts (delays by default) */
	bool bound_set;        /* --delays or --preemptions given */
	long est_steps;        /* --pct-steps, 0: from a first run */
	long schedules;
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
	char **command;
};

/* The state of one explore command. */
struct xctx {
	struct xopts *o;
	spec *sp;
	plan p;
	char **at;             /* per gate: its at: text */
	enum explore_point_kind *kinds;
	bool *quiet;           /* per point: a line whose first instruction touches nothing shared */
	size_t npoints, cappoints;
	run_opts ro;
	regex_t re;
	bool has_re;
	spec *xspec;           /* --expect FILE, loaded: its expect: judges */
	char *stdin_buf;       /* the program's stdin, read once (ro.stdin_data) */
	struct timespec t0;
};

struct search {
	long tried;
	rg_intmap seen;        /* interleaving hashes */
	size_t distinct;
	bool exhausted;        /* the strategy had no schedule left (dfs: within its bound) */
	long learning;         /* runs not owned, only to learn (dfs: other shards', earlier passes') */
	long diverged;         /* runs that did not go where the strategy sent them */
	char *bound;           /* the strategy's bound, as "with at most 3 delays" (tally) */
	long timeouts;         /* schedules counted in tried that ended by --timeout */
	/* for --report: the failure as found, shrunk and replayed */
	size_t found_preempt, found_steps, shrink_runs, ndevs;
	long reproduced;       /* best replays of a gates file that reproduced, -1 none */
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
	bool shrink_cut;       /* shrinking was cut short by a signal */
	char *fail_id;
	bool failed;
};

double explore_elapsed_ms(const struct xctx *c);

/* ---- explore_summary.c ---- */

/* The command that replays schedule id, malloc'd (with the stdin it needs). */
char *explore_replay_cmdline(const struct xctx *c, const char *id);
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
/* --markdown FILE: the command, the gates file, the timeline, the diagram. */
int explore_markdown_file(struct xctx *c, const struct search *se, const char *id,
			  const char *yaml);

#endif
