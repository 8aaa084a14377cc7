/*
 * explore_strategy: who runs next, for `racegate explore`.  Pure logic:
 * no ptrace, no session; tests/check_explore.c drives it with a synthetic
 * program model.
 *
 * Threads are named by their logical id: 0 for the first thread the run
 * saw, then 1, 2, ... in creation order (which is the same in every run
 * that made the same choices, since one thread runs at a time).  At each
 * scheduling point the explorer hands over the runnable threads
 * (ascending) and the thread that ran up to the point (cur, -1 for none);
 * the schedule answers with one of them.  Choosing another thread while
 * cur could go on is a *preemption*.
 *
 * The *default* choice is cur when it is runnable, else the lowest
 * runnable thread: no preemption.  Every schedule, whatever chose it, is
 * thus also described by its *deviations*: the steps where the choice was
 * not the default, and whom it chose.  A deviation list replays the
 * schedule (EXPLORE_FORCED), and the shrinker (explore_shrink) works on
 * it: fewer deviations, fewer preemptions and fewer points.
 *
 * Strategies:
 *   random   uniform among the runnable threads
 *   pct      Burckhardt et al., "A randomized scheduler with probabilistic
 *            guarantees of finding bugs" (ASPLOS 2010): random distinct
 *            priorities, depth - 1 change points uniform over the first
 *            est_steps steps, where the running thread drops below every
 *            initial priority; the highest-priority runnable thread runs
 *   dfs      depth-first over the choice tree, with at most `bound`
 *            delays per schedule (delay bounding, Emmi, Qadeer and
 *            Rakamaric, POPL 2011) or at most `bound` preemptions
 *            (preemption bounding, Musuvathi and Qadeer, PLDI 2007; Deja
 *            Fu); stateless: the explored prefix is kept here and every
 *            schedule is replayed from the start
 *   forced   the default, except at the listed deviations
 *
 * Random and PCT schedules are independent: schedule INDEX of seed SEED
 * draws from a generator seeded by both, so any schedule can be run alone
 * (--replay, --shard).  DFS schedules follow from the ones before.
 */
#ifndef RACEGATE_EXPLORE_STRATEGY_H
#define RACEGATE_EXPLORE_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"

enum explore_kind {
	EXPLORE_RANDOM,
	EXPLORE_PCT,
	EXPLORE_DFS,
	EXPLORE_FORCED,
};

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

/* One decision, as taken. */
typedef struct explore_decision {
	int cur;               /* the thread that ran up to here, or -1 */
	long gate, hit;        /* where cur stood (explore_dev) */
	int *runnable;         /* ascending logical ids */
	size_t n;
	int chosen;
	bool preempt;          /* chosen != cur while cur was runnable */
} explore_decision;

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

/* How schedules are chosen: what an id says. */
typedef struct explore_cfg {
	enum explore_kind kind;
	uint64_t seed;
	int depth;             /* pct: d >= 1 */
	long est_steps;        /* pct: k, the steps change points are drawn from */
	int bound;             /* dfs: preemptions per schedule */
} explore_cfg;

/* One schedule: answers explore_choose and records what it chose. */
typedef struct explore_sched {
	explore_cfg cfg;
	uint64_t rng;
	long *change;          /* pct: the depth - 1 change points (step numbers) */
	uint64_t *prio;        /* pct: per logical id, 0 = not seen yet */
	size_t nprio;
	int *prefix;           /* dfs: exact choices of the first nprefix steps */
	size_t nprefix;
	explore_dev *devs;     /* forced */
	size_t ndevs;
	explore_decision *steps; /* what was decided, in order */
	size_t nsteps, capsteps;
	size_t npreempt;
} explore_sched;

/* Schedule index of cfg (random, pct); for dfs and forced use the setters. */
void explore_sched_init(explore_sched *s, const explore_cfg *cfg, uint64_t index);
/* A forced schedule: the default, but devs (copied). */
void explore_sched_init_forced(explore_sched *s, const explore_dev *devs, size_t n);
void explore_sched_release(explore_sched *s);

/*
 * The next thread to run among runnable (n >= 1, ascending logical ids);
 * cur as above, standing at point gate for the hit-th time (gate -1 when
 * it stands at none: gone, blocked, or no cur).  Records the decision.
 */
int explore_choose(explore_sched *s, int cur, long gate, long hit,
		   const int *runnable, size_t n);

/* The steps of s where the choice was not the default (malloc'd). */
size_t explore_deviations(const explore_sched *s, explore_dev **out);

/*
 * Depth-first search with a delay or preemption bound.  explore_dfs_next fills a
 * schedule for the next unexplored prefix; after that schedule ran,
 * explore_dfs_feed merges what it decided into the tree.  next returns
 * false once every schedule within the bound has been run.
 */
typedef struct explore_dfs explore_dfs;
explore_dfs *explore_dfs_new(int bound, enum explore_bound_kind kind);
void explore_dfs_free(explore_dfs *d);
bool explore_dfs_next(explore_dfs *d, explore_sched *s);
void explore_dfs_feed(explore_dfs *d, const explore_sched *s);
/*
 * Runs that did not go down the tree along their prefix (a program that
 * decides differently from run to run): each left the tree as it was, and
 * the schedules below its choice unsearched.
 */
long explore_dfs_diverged(const explore_dfs *d);
/*
 * quiet[g]: a thread standing at point g touches nothing another thread
 * sees before its next point (a line whose first instruction works on its
 * own stack or registers), so that deviating there is tried after
 * deviating elsewhere, among schedules that spend as much of the bound.
 * Before the first explore_dfs_next.
 */
void explore_dfs_set_quiet(explore_dfs *d, const bool *quiet, size_t n);
/*
 * --shard I/N of a depth-first search, set before the first next: the
 * tree is cut into subtrees at its first branching levels, numbered in
 * DFS order, and shard I takes those numbered I mod N, so the N shards
 * together run every schedule of the unsharded search, each once (for a
 * program that replays its prefixes).  To learn where the tree branches a
 * shard sometimes runs one schedule of a subtree it does not own:
 * explore_dfs_owned is false for it, and the caller runs and feeds it but
 * neither counts nor judges it.
 */
void explore_dfs_set_shard(explore_dfs *d, unsigned i, unsigned n);
bool explore_dfs_owned(const explore_dfs *d);

/*
 * Schedule ids.  "random:SEED:INDEX", "pct:DEPTH:STEPS:SEED:INDEX" name a
 * schedule of a seeded strategy; "dev:" followed by deviations
 * CUR.POINT.HIT.THREAD separated by commas (possibly none; CUR and POINT
 * are "x" for none) names a forced schedule, which is how dfs schedules
 * and shrunk ones are named.
 */
char *explore_id_seeded(const explore_cfg *cfg, uint64_t index);
char *explore_id_forced(const explore_dev *devs, size_t n);
/*
 * Parses id into a schedule ready to run; -1 with a message in err when it
 * is not an id.
 */
int explore_id_parse(const char *id, explore_sched *s, rg_err *err);

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

/* --shard I/N: the k-th schedule index shard i of n runs (i + k * n). */
uint64_t explore_shard_index(uint64_t i, uint64_t n, uint64_t k);

/* 64-bit FNV-1a, for the hash of an interleaving. */
uint64_t explore_hash(uint64_t h, uint64_t v);
#define EXPLORE_HASH_INIT 0xcbf29ce484222325ull

#endif
