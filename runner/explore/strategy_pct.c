/*
 * pct: Burckhardt et al., "A randomized scheduler with probabilistic
 * guarantees of finding bugs" (ASPLOS 2010).  Random distinct thread
 * priorities; depth - 1 change points uniform over the first est_steps
 * decisions, where the running thread drops below every initial
 * priority; the highest-priority runnable thread runs.  A parked
 * sleeper's timeout (EXPLORE_FIRE) ranks as its thread does.  est_steps is
 * --pct-steps, or the decisions of a first run in the default order.
 * Schedule INDEX of seed SEED is pct:DEPTH:STEPS:SEED:INDEX.
 */
#include "strategy_pct.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

extern const explore_strategy strategy_pct;

struct pct_sched *pct_sched_new(explore_sched *s, const explore_strategy *row, int depth,
				long est_steps, uint64_t seed, uint64_t index)
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
	explore_sched_start(s, row, p);
	return p;
}

struct pct_search *pct_search_new(const strategy_cfg *cfg, const explore_strategy *row)
{
	struct pct_search *x = xcalloc(1, sizeof(*x));

	x->row = row;
	x->seed = cfg->seed;
	x->depth = cfg->depth;
	x->est_steps = cfg->est_steps;
	x->shard_i = cfg->shard_i;
	x->shard_n = cfg->shard_n ? cfg->shard_n : 1;
	return x;
}

static void *pct_init(const strategy_cfg *cfg)
{
	return pct_search_new(cfg, &strategy_pct);
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

void pct_learn(void *st, const explore_sched *s)
{
	struct pct_search *x = st;

	x->est_steps = s->nsteps ? (long)s->nsteps : 1;
	rg_trace("%s: %zu decisions in the first schedule", x->row->name, s->nsteps);
}

bool pct_next(void *st, uint64_t k, explore_sched *s)
{
	const struct pct_search *x = st;

	pct_sched_new(s, x->row, x->depth, x->est_steps, x->seed,
		      explore_shard_index(x->shard_i, x->shard_n, k));
	return true;
}

bool pct_above(const struct pct_prio *a, const struct pct_prio *b)
{
	return a->prio > b->prio || (a->prio == b->prio && a->sub > b->sub);
}

/*
 * A thread seen for the first time gets a random priority above every
 * change point's (depth - 1 of them, priorities 1 .. depth - 1); at change
 * point i the thread that was running drops to depth - 1 - i.
 */
void pct_draw(explore_sched *s, const explore_at *at, const int *runnable, size_t n)
{
	struct pct_sched *p = s->own;
	const uint64_t base = (uint64_t)p->depth;
	int cur = at->cur;
	size_t i;

	for (i = 0; i < n; i++) {
		size_t t = (size_t)explore_thread_of(runnable[i]);

		if (t >= p->nprio) {
			p->prio = xrealloc(p->prio, (t + 1) * sizeof(*p->prio));
			memset(p->prio + p->nprio, 0, (t + 1 - p->nprio) * sizeof(*p->prio));
			p->nprio = t + 1;
		}
		if (!p->prio[t].prio)
			p->prio[t].prio = base + 1 + (explore_rng_next(&p->rng) >> 2);
	}
	for (i = 0; p->change && i < (size_t)p->depth - 1; i++)
		if (p->change[i] == (long)s->nsteps && cur >= 0 && (size_t)cur < p->nprio)
			p->prio[cur] = (struct pct_prio){ base - 1 - i, 0 };
}

const struct pct_prio *pct_prio_of(const struct pct_sched *p, int choice)
{
	return &p->prio[explore_thread_of(choice)];
}

int pct_best(const struct pct_sched *p, const int *runnable, size_t n)
{
	const struct pct_prio *best = NULL;
	int who = runnable[0];

	for (size_t i = 0; i < n; i++) {
		const struct pct_prio *q = pct_prio_of(p, runnable[i]);

		if (!best || pct_above(q, best)) {
			best = q;
			who = runnable[i];
		}
	}
	return who;
}

static int pct_choose(explore_sched *s, const explore_at *at, const int *runnable,
		      size_t n)
{
	pct_draw(s, at, runnable, n);
	return pct_best(s->own, runnable, n);
}

/* a variant's own first run is named by its deviations */
char *pct_id(const explore_sched *s)
{
	const struct pct_sched *p = s->own;

	if (p->first)
		return NULL;
	return xasprintf("%s:%d:%ld:%" PRIu64 ":%" PRIu64, s->strategy->name, p->depth,
			 p->est_steps, p->seed, p->index);
}

void pct_free(void *own)
{
	struct pct_sched *p = own;

	free(p->change);
	free(p->prio);
	free(p);
}

/* NAME:DEPTH:STEPS:SEED:INDEX */
int pct_parse_as(const explore_strategy *row, const char *id, explore_sched *s,
		 rg_err *err)
{
	const char *p = id + strlen(row->id_prefix);
	uint64_t depth, steps, seed, index;

	if (!explore_take_num(&p, 64, &depth) || depth < 1 || *p++ != ':' ||
	    !explore_take_num(&p, 1u << 30, &steps) || *p++ != ':' ||
	    !explore_take_num(&p, UINT64_MAX, &seed) || *p++ != ':' ||
	    !explore_take_num(&p, UINT64_MAX, &index) || *p)
		return explore_id_bad(id, err);
	pct_sched_new(s, row, (int)depth, (long)steps, seed, index);
	return 0;
}

static int pct_parse(const char *id, explore_sched *s, rg_err *err)
{
	return pct_parse_as(&strategy_pct, id, s, err);
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
