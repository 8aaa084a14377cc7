/*
 * pct: Burckhardt et al., "A randomized scheduler with probabilistic
 * guarantees of finding bugs" (ASPLOS 2010).  Random distinct thread
 * priorities; depth - 1 change points uniform over the first est_steps
 * decisions, where the running thread drops below every initial
 * priority; the highest-priority runnable thread runs.  est_steps is
 * --pct-steps, or the decisions of a first run in the default order.
 * Schedule INDEX of seed SEED is pct:DEPTH:STEPS:SEED:INDEX.
 */
#include "strategy.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct pct_search {
	uint64_t seed;
	int depth;
	long est_steps;        /* 0 until the first run said */
	unsigned shard_i, shard_n;
};

struct pct_sched {
	uint64_t seed, index;
	int depth;
	long est_steps;
	uint64_t rng;
	long *change;          /* the depth - 1 change points (step numbers) */
	uint64_t *prio;        /* per logical id, 0 = not seen yet */
	size_t nprio;
};

extern const explore_strategy strategy_pct;

static void pct_sched(explore_sched *s, int depth, long est_steps, uint64_t seed,
		      uint64_t index)
{
	struct pct_sched *p = xcalloc(1, sizeof(*p));

	p->seed = seed;
	p->index = index;
	p->depth = depth;
	p->est_steps = est_steps;
	p->rng = explore_rng_stream(seed, index);
	if (depth > 1) {
		long k = est_steps > 0 ? est_steps : 1;

		p->change = xcalloc((size_t)depth - 1, sizeof(long));
		for (int i = 0; i < depth - 1; i++)
			p->change[i] = (long)explore_rng_below(&p->rng, (uint64_t)k);
	}
	explore_sched_start(s, &strategy_pct, p);
}

static void *pct_init(const strategy_cfg *cfg)
{
	struct pct_search *x = xcalloc(1, sizeof(*x));

	x->seed = cfg->seed;
	x->depth = cfg->depth;
	x->est_steps = cfg->est_steps;
	x->shard_i = cfg->shard_i;
	x->shard_n = cfg->shard_n ? cfg->shard_n : 1;
	return x;
}

/* without --pct-steps: the default order first, to count its decisions */
static bool pct_first(void *st, explore_sched *s)
{
	const struct pct_search *x = st;

	if (x->est_steps)
		return false;
	explore_sched_init_forced(s, NULL, 0);
	return true;
}

static void pct_learn(void *st, const explore_sched *s)
{
	struct pct_search *x = st;

	x->est_steps = s->nsteps ? (long)s->nsteps : 1;
	rg_trace("pct: %zu decisions in the default schedule", s->nsteps);
}

static bool pct_next(void *st, uint64_t k, explore_sched *s)
{
	const struct pct_search *x = st;

	pct_sched(s, x->depth, x->est_steps, x->seed,
		  explore_shard_index(x->shard_i, x->shard_n, k));
	return true;
}

/*
 * A thread seen for the first time gets a random priority above every
 * change point's (depth - 1 of them, priorities 1 .. depth - 1); at change
 * point i the thread that was running drops to depth - 1 - i.
 */
static int pct_choose(explore_sched *s, const explore_at *at, const int *runnable,
		      size_t n)
{
	struct pct_sched *p = s->own;
	const uint64_t base = (uint64_t)p->depth;
	uint64_t best = 0;
	int who = runnable[0], cur = at->cur;
	size_t i;

	for (i = 0; i < n; i++) {
		size_t t = (size_t)runnable[i];

		if (t >= p->nprio) {
			p->prio = xrealloc(p->prio, (t + 1) * sizeof(*p->prio));
			memset(p->prio + p->nprio, 0, (t + 1 - p->nprio) * sizeof(*p->prio));
			p->nprio = t + 1;
		}
		if (!p->prio[t])
			p->prio[t] = base + 1 + (explore_rng_next(&p->rng) >> 2);
	}
	for (i = 0; p->change && i < (size_t)p->depth - 1; i++)
		if (p->change[i] == (long)s->nsteps && cur >= 0 && (size_t)cur < p->nprio)
			p->prio[cur] = base - 1 - i;
	for (i = 0; i < n; i++)
		if (p->prio[runnable[i]] > best) {
			best = p->prio[runnable[i]];
			who = runnable[i];
		}
	return who;
}

static char *pct_id(const explore_sched *s)
{
	const struct pct_sched *p = s->own;

	return xasprintf("pct:%d:%ld:%" PRIu64 ":%" PRIu64, p->depth, p->est_steps, p->seed,
			 p->index);
}

static void pct_free(void *own)
{
	struct pct_sched *p = own;

	free(p->change);
	free(p->prio);
	free(p);
}

/* pct:DEPTH:STEPS:SEED:INDEX */
static int pct_parse(const char *id, explore_sched *s, rg_err *err)
{
	const char *p = id + strlen("pct:");
	uint64_t depth, steps, seed, index;

	if (!explore_take_num(&p, 64, &depth) || depth < 1 || *p++ != ':' ||
	    !explore_take_num(&p, 1u << 30, &steps) || *p++ != ':' ||
	    !explore_take_num(&p, UINT64_MAX, &seed) || *p++ != ':' ||
	    !explore_take_num(&p, UINT64_MAX, &index) || *p)
		return explore_id_bad(id, err);
	pct_sched(s, (int)depth, (long)steps, seed, index);
	return 0;
}

static const strategy_opt pct_opts[] = {
	{ "--depth", "D", "bugs of depth D: D - 1 priority change points (default 3)" },
	{ "--pct-steps", "K", "the change points fall among the first K decisions "
			      "(default: as many as a first, default-order run made)" },
	{ NULL, NULL, NULL },
};

const explore_strategy strategy_pct = {
	.name = "pct",
	.id_prefix = "pct:",
	.id_form = "pct:DEPTH:STEPS:SEED:INDEX",
	.help = "probabilistic concurrency testing: random thread priorities, "
		"--depth D - 1 priority change points",
	.opts = pct_opts,
	.seeded = true,
	.init = pct_init,
	.first = pct_first,
	.learn = pct_learn,
	.next = pct_next,
	.release = free,
	.choose = pct_choose,
	.id = pct_id,
	.free_sched = pct_free,
	.parse_id = pct_parse,
};
