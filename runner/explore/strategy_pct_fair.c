/*
 * pct-fair: pct (strategy_pct.c) that does not starve the thread the
 * others wait for.  A thread that spins -- goes round a loop alone,
 * re-reading a flag, calling sched_yield or pause, until another thread
 * does something -- cannot get anywhere while it keeps the highest
 * priority: under plain pct each of the other thread's steps then costs
 * the decider's spin limit (thousands of decisions), and a run with many
 * handoffs ends by --timeout before the program does, a failure of the
 * search's own making.  Here a thread that comes back FAIR_LAPS times to
 * the point it stands at without another thread having run (explore_at's
 * laps) drops to just below the highest-priority thread that can run
 * instead, as fair variants of PCT lower a yielding thread's priority:
 * that thread runs, and the spinner after it, its place among the others
 * otherwise kept.  A change point still lowers the running thread below
 * every initial priority, and so can let the spinner in between two
 * steps of the thread it waits for.
 *
 * Until a thread spins, it decides as pct does, draw for draw: on a
 * program that never spins, schedule INDEX of seed SEED is pct's.  Its
 * first run (no --pct-steps) is the default order made fair the same way
 * (a spinner gives way to the next thread up), named by its deviations;
 * schedule INDEX is pct-fair:DEPTH:STEPS:SEED:INDEX.
 */
#include "strategy.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/*
 * Laps alone at one point that make a spin.  A spin-wait goes round for
 * ever; a loop that works goes round too, and is let go on this long
 * before it is taken to spin (then another thread runs for a while, which
 * is no harm to a search, only a switch pct would not have made).  Each
 * lap costs the decisions of its points, so a spin costs about ten times
 * the loop's points, where the decider's limit is 10,000 decisions.
 */
#define FAIR_LAPS 10

struct fair_search {
	uint64_t seed;
	int depth;
	long est_steps;        /* 0 until the first run said */
	unsigned shard_i, shard_n;
};

/*
 * A priority: higher runs first, by prio, then by sub.  prio is pct's (0:
 * not seen yet); a spinner takes the prio of the thread it gives way to
 * and a sub below every sub given before, so that it sits just under it.
 */
struct fair_prio {
	uint64_t prio;
	long sub;
};

struct fair_sched {
	uint64_t seed, index;
	int depth;
	long est_steps;
	bool first;            /* the fair default order (the first run) */
	uint64_t rng;
	long *change;          /* the depth - 1 change points (step numbers) */
	struct fair_prio *prio; /* per logical id */
	size_t nprio;
	long low;              /* the lowest sub given so far */
};

extern const explore_strategy strategy_pct_fair;

static struct fair_sched *fair_sched(explore_sched *s, int depth, long est_steps,
				     uint64_t seed, uint64_t index)
{
	struct fair_sched *f = xcalloc(1, sizeof(*f));

	f->seed = seed;
	f->index = index;
	f->depth = depth;
	f->est_steps = est_steps;
	f->rng = explore_rng_stream(seed, index);
	if (depth > 1) {
		long k = est_steps > 0 ? est_steps : 1;

		f->change = xcalloc((size_t)depth - 1, sizeof(long));
		for (int i = 0; i < depth - 1; i++)
			f->change[i] = (long)explore_rng_below(&f->rng, (uint64_t)k);
	}
	explore_sched_start(s, &strategy_pct_fair, f);
	return f;
}

static void *fair_init(const strategy_cfg *cfg)
{
	struct fair_search *x = xcalloc(1, sizeof(*x));

	x->seed = cfg->seed;
	x->depth = cfg->depth;
	x->est_steps = cfg->est_steps;
	x->shard_i = cfg->shard_i;
	x->shard_n = cfg->shard_n ? cfg->shard_n : 1;
	return x;
}

static bool fair_first(void *st, explore_sched *s)
{
	const struct fair_search *x = st;

	if (x->est_steps)
		return false;
	fair_sched(s, 1, 1, x->seed, 0)->first = true;
	return true;
}

static void fair_learn(void *st, const explore_sched *s)
{
	struct fair_search *x = st;

	x->est_steps = s->nsteps ? (long)s->nsteps : 1;
	rg_trace("pct-fair: %zu decisions in the fair default schedule", s->nsteps);
}

static bool fair_next(void *st, uint64_t k, explore_sched *s)
{
	const struct fair_search *x = st;

	fair_sched(s, x->depth, x->est_steps, x->seed,
		   explore_shard_index(x->shard_i, x->shard_n, k));
	return true;
}

static bool above(const struct fair_prio *a, const struct fair_prio *b)
{
	return a->prio > b->prio || (a->prio == b->prio && a->sub > b->sub);
}

/* Does cur spin, with another thread to give way to? */
static bool spins(const explore_at *at, const int *runnable, size_t n)
{
	return at->laps >= FAIR_LAPS && n > 1 && explore_has(runnable, n, at->cur);
}

/* The fair default: keep running cur, but a spinner gives way to the next thread up. */
static int first_choose(const explore_at *at, const int *runnable, size_t n)
{
	size_t i;

	if (!spins(at, runnable, n))
		return explore_default_choice(at->cur, runnable, n);
	for (i = 0; runnable[i] != at->cur; i++)
		;
	return runnable[(i + 1) % n];
}

/* pct's choice, but a spinner drops just below the best other thread. */
static int fair_choose(explore_sched *s, const explore_at *at, const int *runnable,
		       size_t n)
{
	struct fair_sched *f = s->own;
	const uint64_t base = (uint64_t)f->depth;
	const struct fair_prio *best = NULL;
	int who = runnable[0], cur = at->cur;
	size_t i;

	if (f->first)
		return first_choose(at, runnable, n);
	for (i = 0; i < n; i++) {
		size_t t = (size_t)runnable[i];

		if (t >= f->nprio) {
			f->prio = xrealloc(f->prio, (t + 1) * sizeof(*f->prio));
			memset(f->prio + f->nprio, 0, (t + 1 - f->nprio) * sizeof(*f->prio));
			f->nprio = t + 1;
		}
		if (!f->prio[t].prio)
			f->prio[t].prio = base + 1 + (explore_rng_next(&f->rng) >> 2);
	}
	for (i = 0; f->change && i < (size_t)f->depth - 1; i++)
		if (f->change[i] == (long)s->nsteps && cur >= 0 && (size_t)cur < f->nprio)
			f->prio[cur] = (struct fair_prio){ base - 1 - i, 0 };
	if (spins(at, runnable, n)) {
		for (i = 0; i < n; i++)
			if (runnable[i] != cur && (!best || above(&f->prio[runnable[i]], best)))
				best = &f->prio[runnable[i]];
		if (above(&f->prio[cur], best))
			f->prio[cur] = (struct fair_prio){ best->prio, --f->low };
		best = NULL;
	}
	for (i = 0; i < n; i++)
		if (!best || above(&f->prio[runnable[i]], best)) {
			best = &f->prio[runnable[i]];
			who = runnable[i];
		}
	return who;
}

/* the first run is named by its deviations */
static char *fair_id(const explore_sched *s)
{
	const struct fair_sched *f = s->own;

	if (f->first)
		return NULL;
	return xasprintf("pct-fair:%d:%ld:%" PRIu64 ":%" PRIu64, f->depth, f->est_steps,
			 f->seed, f->index);
}

static void fair_free(void *own)
{
	struct fair_sched *f = own;

	free(f->change);
	free(f->prio);
	free(f);
}

/* pct-fair:DEPTH:STEPS:SEED:INDEX */
static int fair_parse(const char *id, explore_sched *s, rg_err *err)
{
	const char *p = id + strlen("pct-fair:");
	uint64_t depth, steps, seed, index;

	if (!explore_take_num(&p, 64, &depth) || depth < 1 || *p++ != ':' ||
	    !explore_take_num(&p, 1u << 30, &steps) || *p++ != ':' ||
	    !explore_take_num(&p, UINT64_MAX, &seed) || *p++ != ':' ||
	    !explore_take_num(&p, UINT64_MAX, &index) || *p)
		return explore_id_bad(id, err);
	fair_sched(s, (int)depth, (long)steps, seed, index);
	return 0;
}

static const strategy_opt fair_opts[] = {
	{ "--depth", "D", "bugs of depth D: D - 1 priority change points (default 3)" },
	{ "--pct-steps", "K", "the change points fall among the first K decisions "
			      "(default: as many as a first, fair default-order run made)" },
	{ NULL, NULL, NULL },
};

const explore_strategy strategy_pct_fair = {
	.name = "pct-fair",
	.id_prefix = "pct-fair:",
	.id_form = "pct-fair:DEPTH:STEPS:SEED:INDEX",
	.help = "pct, but a thread that spins (comes back to its point alone) gives way "
		"to the next one down",
	.opts = fair_opts,
	.seeded = true,
	.init = fair_init,
	.first = fair_first,
	.learn = fair_learn,
	.next = fair_next,
	.release = free,
	.choose = fair_choose,
	.id = fair_id,
	.free_sched = fair_free,
	.parse_id = fair_parse,
};
