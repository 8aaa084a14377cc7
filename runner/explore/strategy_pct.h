/*
 * What pct's variants share with it (strategy_pct.c): its search, its
 * schedules and its choice, over priorities that a variant may lower
 * between pct's own draws.  pct-fair (strategy_pct_fair.c) is one.
 */
#ifndef RACEGATE_STRATEGY_PCT_H
#define RACEGATE_STRATEGY_PCT_H

#include "strategy.h"

/* A priority: higher runs first, by prio (pct's; 0: not seen yet), then by sub. */
struct pct_prio {
	uint64_t prio;
	long sub;
};

struct pct_search {
	const explore_strategy *row; /* whose schedules next hands out */
	uint64_t seed;
	int depth;
	long est_steps;        /* 0 until the first run said */
	unsigned shard_i, shard_n;
};

struct pct_sched {
	uint64_t seed, index;
	int depth;
	long est_steps;
	bool first;            /* a variant's own first run, not a pct draw */
	uint64_t rng;
	long *change;          /* the depth - 1 change points (step numbers) */
	struct pct_prio *prio; /* per logical id */
	size_t nprio;
	long low;              /* the lowest sub given so far */
};

/* Schedule index of seed under row's name: its change points drawn. */
struct pct_sched *pct_sched_new(explore_sched *s, const explore_strategy *row, int depth,
				long est_steps, uint64_t seed, uint64_t index);
/* A search handing out row's schedules. */
struct pct_search *pct_search_new(const strategy_cfg *cfg, const explore_strategy *row);
void pct_learn(void *st, const explore_sched *s);
bool pct_next(void *st, uint64_t k, explore_sched *s);

/* Is a above b? */
bool pct_above(const struct pct_prio *a, const struct pct_prio *b);
/*
 * Gives runnable threads seen for the first time their priority and
 * applies the change point of this step, if any: what pct does before it
 * chooses.
 */
void pct_draw(explore_sched *s, const explore_at *at, const int *runnable, size_t n);
/* The highest-priority runnable thread. */
int pct_best(const struct pct_sched *p, const int *runnable, size_t n);
/* The priority a choice runs at: its thread's (a timeout's: its sleeper's). */
const struct pct_prio *pct_prio_of(const struct pct_sched *p, int choice);

/* NAME:DEPTH:STEPS:SEED:INDEX, NAME the schedule's row's; and back. */
char *pct_id(const explore_sched *s);
int pct_parse_as(const explore_strategy *row, const char *id, explore_sched *s,
		 rg_err *err);
void pct_free(void *own);

#endif
