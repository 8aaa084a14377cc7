/*
 * strategy: the explore strategies behind one table.  A strategy is one
 * file (strategy_NAME.c) that defines one row, an explore_strategy; the
 * table (strategies.c) lists the rows.  explore's search loop, its
 * summary, --jobs, --replay and the shrinker reach a strategy only
 * through this header, so adding one is its file and its row
 * (docs/explore.md, "Adding a strategy").
 *
 * A row has two halves.  A *search* (init ... release) hands out the
 * schedules of one explore: the k-th (next), after a first run it may
 * need (first, learn), and learns from each finished one (observe).  A
 * *schedule* (explore_sched, explore_strategy.h) answers the decisions of
 * one run (choose) and names itself (id); ids parse back into a schedule
 * of the row whose prefix they carry (parse_id), so that --replay and
 * --shard can run any schedule alone.
 *
 * Required of every row: name or id_prefix, choose, free_sched; of a row
 * with a name (a search --strategy runs): init, next, release.  The rest
 * is optional, NULL when the strategy has none of it, and only the
 * strategy_* functions below call through the row: they say what a
 * missing operation means, in one place.
 */
#ifndef RACEGATE_STRATEGY_H
#define RACEGATE_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "explore_strategy.h"
#include "msg.h"

/*
 * What a dfs bound counts.  A preemption: choosing another thread while cur
 * could go on; a choice after cur blocked or exited is free.  A delay: the
 * runnable threads, taken in ascending order going round from the default
 * choice, skipped to reach the one chosen; every choice but the default
 * costs, and a thread further round costs more.  K delays give at most
 * about D^K / K! schedules over D decisions, whatever the number of
 * threads; K preemptions give about (D (T - 1))^K / K! over T threads,
 * times every order of the threads at each free choice.
 */
enum explore_bound_kind {
	EXPLORE_DELAYS,
	EXPLORE_PREEMPTIONS,
};

/* What choosing `chosen` among runnable (ascending) costs against the bound. */
unsigned explore_choice_cost(enum explore_bound_kind kind, int cur, const int *runnable,
			     size_t n, int chosen);

/*
 * One option a strategy takes of its own, as the option table and --help
 * list it: "--depth", "D", and its help line.  Its value reaches the
 * strategy in strategy_cfg, through init.
 */
typedef struct strategy_opt {
	const char *name;
	const char *metavar;
	const char *help;
} strategy_opt;

/* The explore configuration a search starts from; each takes its own. */
typedef struct strategy_cfg {
	uint64_t seed;         /* --seed */
	int depth;             /* --depth: pct's d >= 1 */
	long est_steps;        /* --pct-steps: pct's k; 0: from a first run */
	int bound;             /* --delays or --preemptions: dfs's K */
	enum explore_bound_kind bound_kind;
	const bool *quiet;     /* per point: touches nothing shared (dfs deviates there last) */
	size_t nquiet;
	unsigned shard_i, shard_n; /* --shard I/N; N = 1: the whole search */
} strategy_cfg;

/* What a search says in the summary besides its schedules. */
typedef struct strategy_tally {
	/* runs that did not go where the search sent them (a program that
	 * decides differently from run to run) */
	long diverged;
	/* the schedules an exhausted search ran every one of, as "with at
	 * most 3 delays" (malloc'd); NULL: the search has no end */
	char *bound;
} strategy_tally;

typedef struct explore_strategy {
	const char *name;      /* as --strategy takes it; NULL: no search of its own */
	/* what its ids start with ("random:"), and their form for messages
	 * ("random:SEED:INDEX"); NULL: its schedules are named by their
	 * deviations, as dev: ids */
	const char *id_prefix;
	const char *id_form;
	const char *help;      /* how it chooses, one line */
	const strategy_opt *opts; /* its own options, ended by { NULL }; NULL: none */
	bool seeded;           /* --seed draws its schedules: the summary says the seed */

	/* ---- a search (rows with a name) ---- */
	void *(*init)(const strategy_cfg *cfg);
	/* A schedule to run before the first: what the search needs to know of
	 * the program first (pct: how many decisions a run makes); false:
	 * none.  It is a schedule of the search like any other, counted and
	 * judged only when it fails.  learn gets it once run. */
	bool (*first)(void *st, explore_sched *s);
	void (*learn)(void *st, const explore_sched *s);
	/* Schedule k (0, 1, ... in order); false once there is none left (the
	 * search is exhausted).  A row without observe hands out schedule k
	 * from k alone (and the configuration): --jobs runs those in worker
	 * processes, each calling next in its own copy of the search. */
	bool (*next)(void *st, uint64_t k, explore_sched *s);
	/* What schedule s, handed out by next, decided once it ran: a
	 * search whose schedules follow from the ones before (dfs's tree). */
	void (*observe)(void *st, const explore_sched *s);
	/* Is the schedule next handed out last this shard's own?  A search may
	 * run others' to learn (dfs: where the tree branches); those are not
	 * counted nor judged.  NULL: always. */
	bool (*owned)(const void *st);
	/* Where the schedule next handed out last (as its k-th) stands in
	 * the order the unsharded search runs its schedules: two numbers
	 * compared in turn, so that explore --merge takes the failure an
	 * unsharded search would meet first.  NULL: (1, its index
	 * explore_shard_index(I, N, k)), as seeded strategies hand out. */
	void (*rank)(const void *st, uint64_t k, uint64_t rank[2]);
	void (*tally)(const void *st, strategy_tally *t);
	void (*release)(void *st);

	/* ---- one of its schedules ---- */
	/* Who runs at the decision at (explore_choose records it): one of
	 * runnable (n >= 1, ascending logical ids). */
	int (*choose)(explore_sched *s, const explore_at *at, const int *runnable, size_t n);
	/* Its id (malloc'd); NULL, or no id op: the dev: id of its deviations. */
	char *(*id)(const explore_sched *s);
	void (*free_sched)(void *own);
	/* id, which starts with id_prefix, as a schedule ready to run; -1
	 * with a message when it is not one (explore_id_bad). */
	int (*parse_id)(const char *id, explore_sched *s, rg_err *err);
} explore_strategy;

/* ---- the table (strategies.c) ---- */

/* The rows, in the order --help lists them, ended by NULL; the first is the default. */
extern const explore_strategy *const explore_strategies[];
/* The row --strategy name names, or NULL. */
const explore_strategy *explore_strategy_named(const char *name);
/* The first row that takes option opt ("--delays"), or NULL. */
const explore_strategy *explore_strategy_taking(const char *opt);
/* Does st take option opt? */
bool explore_strategy_takes(const explore_strategy *st, const char *opt);
/* The names --strategy takes, joined: "random, pct or dfs" (sep ", ",
 * last " or "), "random|pct|dfs" (both "|"); malloc'd. */
char *explore_strategy_names(const char *sep, const char *last);
/* The forced schedule: the default order, but for devs (strategy_forced.c). */
extern const explore_strategy strategy_forced;

/*
 * Parses any schedule id into a schedule ready to run, by its prefix; -1
 * with a message in err when it is not an id.
 */
int explore_id_parse(const char *id, explore_sched *s, rg_err *err);
/* -1, with the message saying id is none of the forms the table prints. */
int explore_id_bad(const char *id, rg_err *err);

/* ---- a search, through its row ---- */

typedef struct strategy_search strategy_search;

strategy_search *strategy_search_new(const explore_strategy *st, const strategy_cfg *cfg);
void strategy_search_free(strategy_search *x);
const explore_strategy *strategy_search_row(const strategy_search *x);
bool strategy_first(strategy_search *x, explore_sched *s);
void strategy_learn(strategy_search *x, const explore_sched *s);
bool strategy_next(strategy_search *x, uint64_t k, explore_sched *s);
void strategy_observe(strategy_search *x, const explore_sched *s);
bool strategy_owned(const strategy_search *x);
/* The rank of the k-th schedule handed out (the row's rank op); a first
 * run (strategy_first) is (0, 0). */
void strategy_rank(const strategy_search *x, uint64_t k, uint64_t rank[2]);
/* Does the search hand out schedule k from k alone (no observe)? */
bool strategy_independent(const explore_strategy *st);
/* Its tally; t->bound is the caller's to free. */
void strategy_tally_of(const strategy_search *x, strategy_tally *t);

#endif
