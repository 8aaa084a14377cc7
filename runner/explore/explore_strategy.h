/*
 * explore_strategy: what every strategy of `racegate explore` shares
 * (strategy.h is the table of them).  Pure logic: no ptrace, no session;
 * tests/check_explore.c drives it with a synthetic program model.
 *
 * Threads are named by their logical id: 0 for the first thread the run
 * saw, then 1, 2, ... in creation order (which is the same in every run
 * that made the same choices, since one thread runs at a time).  At each
 * scheduling point the explorer hands over the runnable threads
 * (ascending) and the thread that ran up to the point (cur, -1 for none);
 * the schedule answers with one of them, through its strategy's choose.
 * Choosing another thread while cur could go on is a *preemption*.
 *
 * The *default* choice is cur when it is runnable, else the lowest
 * runnable thread: no preemption.  Every schedule, whatever chose it, is
 * thus also described by its *deviations*: the steps where the choice was
 * not the default, and whom it chose.  A deviation list replays the
 * schedule (strategy_forced), and the shrinker (explore_shrink) works on
 * it: fewer deviations, fewer preemptions and fewer points.
 *
 * Here: the schedule and the decisions it records, deviations and their
 * dev: ids, the shrinker, the generator seeded strategies draw from, and
 * the hash of an interleaving.
 */
#ifndef RACEGATE_EXPLORE_STRATEGY_H
#define RACEGATE_EXPLORE_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "intmap.h"
#include "msg.h"

struct explore_strategy;

/*
 * One decision of a schedule that was not the default choice, keyed by
 * where the thread that ran up to it stood, not by its number: dropping
 * another deviation moves decision numbers, but "when thread 2 reaches
 * point 5 for the 3rd time, switch to thread 1" still means the same.
 */
typedef struct explore_dev {
	int cur;               /* the thread that ran up to the decision, or -1 */
	long gate;             /* the point cur stood at, or -1 (gone, blocked) */
	long hit;              /* cur's arrival there; with gate -1: the decision number */
	int thread;            /* logical id chosen there */
} explore_dev;

/*
 * Time under serialisation (docs/explore.md): time passing is a choice
 * too, EXPLORE_FIRE + the logical id of the sleeper whose timeout then
 * fires (the one whose sleep ends first on explore's clock).  It comes after the held threads in
 * runnable, which stays ascending, so the default choice (cur, else the
 * lowest) never lets time pass while a held thread can run.  dev: ids
 * write such a choice sN.
 */
#define EXPLORE_FIRE 0x100000
/* The thread a choice names: itself, or the sleeper whose timeout it fires. */
static inline int explore_thread_of(int choice)
{
	return choice >= EXPLORE_FIRE ? choice - EXPLORE_FIRE : choice;
}

/* One decision, as taken. */
typedef struct explore_decision {
	int cur;               /* the thread that ran up to here, or -1 */
	long gate, hit;        /* where cur stood (explore_dev) */
	int *runnable;         /* ascending logical ids */
	size_t n;
	int chosen;
	bool preempt;          /* chosen != cur while cur was runnable */
	long laps;             /* cur's laps at its point (explore_at) */
} explore_decision;

/* Where a decision is made: what a strategy's choose is told. */
typedef struct explore_at {
	int cur;               /* the thread that ran up to the decision, or -1 */
	long gate;             /* the point cur stands at, or -1 (gone, blocked, none) */
	long hit;              /* cur's arrival there; with gate -1: the decision number */
	/*
	 * How many times before cur has stood at this point since it last
	 * got to run after another thread: 0 at its first arrival in that
	 * stretch, 1 once it has gone round a loop alone, and so on.  A
	 * thread that spins -- waits for another thread by re-reading a
	 * flag, calling sched_yield or pause, at the same point -- goes
	 * round for ever while nobody else runs: a strategy that sees laps
	 * grow can let the thread it waits for run (pct-fair); a loop that
	 * works goes round too, for as long as it has work.
	 */
	long laps;
} explore_at;

/*
 * One schedule: its strategy answers explore_choose, and the schedule
 * records what was chosen.  own is the strategy's, for this schedule
 * (its generator, its priorities, its prefix, its deviations).
 */
typedef struct explore_sched {
	const struct explore_strategy *strategy; /* NULL: a record of decisions only */
	void *own;
	explore_decision *steps; /* what was decided, in order */
	size_t nsteps, capsteps;
	size_t npreempt;
	/* laps: the decision (from 1) that began the running thread's stretch,
	 * and per point its arrivals (stretch << 24 | count, older stretches'
	 * counting as none) */
	size_t stretch;
	rg_intmap arrivals;
} explore_sched;

/* s, empty, a schedule of strategy with its own state own (taken). */
void explore_sched_start(explore_sched *s, const struct explore_strategy *strategy, void *own);
void explore_sched_release(explore_sched *s);
/* A forced schedule: the default, but devs (copied; strategy_forced.c). */
void explore_sched_init_forced(explore_sched *s, const explore_dev *devs, size_t n);

/*
 * The next thread to run among runnable (n >= 1, ascending logical ids);
 * cur as above, standing at point gate for the hit-th time (gate -1 when
 * it stands at none: gone, blocked, or no cur).  Records the decision.
 */
int explore_choose(explore_sched *s, int cur, long gate, long hit,
		   const int *runnable, size_t n);

/* The default choice: cur when it is among runnable, else the lowest. */
int explore_default_choice(int cur, const int *runnable, size_t n);
/* Is x among v? */
bool explore_has(const int *v, size_t n, int x);

/* s's id (malloc'd): its strategy's, or the dev: id of its deviations. */
char *explore_sched_id(const explore_sched *s);

/* The steps of s where the choice was not the default (malloc'd). */
size_t explore_deviations(const explore_sched *s, explore_dev **out);

/*
 * dev: ids: "dev:" followed by deviations CUR.POINT.HIT.THREAD separated
 * by commas (possibly none; CUR and POINT are "x" for none, THREAD is sN
 * for the timeout of sleeper N, EXPLORE_FIRE + N) name a forced
 * schedule, which is how dfs schedules and shrunk ones are named.
 * explore_devs_parse reads what follows "dev:" (malloc'd list); -1 with a
 * message naming id when it is not that.
 */
char *explore_id_forced(const explore_dev *devs, size_t n);
int explore_devs_parse(const char *p, const char *id, explore_dev **devs, size_t *n,
		       rg_err *err);
/* An unsigned decimal number at *p, up to max, into *out; advances *p. */
bool explore_take_num(const char **p, uint64_t max, uint64_t *out);

/*
 * Delta debugging over a deviation list (Zeller's ddmin on complements:
 * halves, then quarters, ... down to one deviation at a time).
 * fails(ctx, devs, &n) runs the forced schedule and says whether it still
 * fails; when it does, it may cut devs to the deviations that took effect
 * in that run (a subset, so n only shrinks).  Removal goes on while the
 * rest still fails; *devs and *n are the 1-minimal list at the end.
 * Returns the number of candidate runs.
 */
typedef bool (*explore_fails_fn)(void *ctx, explore_dev *devs, size_t *n);
size_t explore_shrink(explore_dev **devs, size_t *n, explore_fails_fn fails, void *ctx);
/*
 * The same shrinking, a round's candidates decided together (explore
 * --jobs runs them at once): first(ctx, cands, lens, m, &tried) says which
 * of cands[0..m) fails first, in order, as fails would of each one after
 * another (-1: none), cutting that one's list and length as fails may, and
 * how many of them it decided, the failing one included.  The result and
 * the count of runs are those of explore_shrink with the same answers.
 */
typedef long (*explore_first_fails_fn)(void *ctx, explore_dev **cands, size_t *lens,
				       size_t m, size_t *tried);
size_t explore_shrink_first(explore_dev **devs, size_t *n, explore_first_fails_fn first,
			    void *ctx);

/* --shard I/N: the k-th schedule index shard i of n runs (i + k * n). */
uint64_t explore_shard_index(uint64_t i, uint64_t n, uint64_t k);

/*
 * The generator seeded strategies draw from (splitmix64): schedule index
 * of seed gets a stream of its own, whatever ran before, so any schedule
 * can be run alone (--replay, --shard).
 */
uint64_t explore_rng_stream(uint64_t seed, uint64_t index);
uint64_t explore_rng_next(uint64_t *state);
/* Uniform in [0, n), n >= 1. */
uint64_t explore_rng_below(uint64_t *state, uint64_t n);

/* 64-bit FNV-1a, for the hash of an interleaving. */
uint64_t explore_hash(uint64_t h, uint64_t v);
#define EXPLORE_HASH_INIT 0xcbf29ce484222325ull

#endif
