/*
 * random: each decision uniform among the threads that can run.  Schedule
 * INDEX of seed SEED draws from a stream of its own (explore_rng_stream),
 * so any one can be run alone: its id is random:SEED:INDEX.
 */
#include "strategy.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct random_search {
	uint64_t seed;
	unsigned shard_i, shard_n;
};

struct random_sched {
	uint64_t seed, index;
	uint64_t rng;
};

extern const explore_strategy strategy_random;

static void random_sched(explore_sched *s, uint64_t seed, uint64_t index)
{
	struct random_sched *r = xcalloc(1, sizeof(*r));

	r->seed = seed;
	r->index = index;
	r->rng = explore_rng_stream(seed, index);
	explore_sched_start(s, &strategy_random, r);
}

static void *random_init(const strategy_cfg *cfg)
{
	struct random_search *x = xcalloc(1, sizeof(*x));

	x->seed = cfg->seed;
	x->shard_i = cfg->shard_i;
	x->shard_n = cfg->shard_n ? cfg->shard_n : 1;
	return x;
}

/* --shard I/N: this shard's k-th schedule is index I + k N */
static bool random_next(void *st, uint64_t k, explore_sched *s)
{
	const struct random_search *x = st;

	random_sched(s, x->seed, explore_shard_index(x->shard_i, x->shard_n, k));
	return true;
}

static int random_choose(explore_sched *s, const explore_at *at, const int *runnable,
			 size_t n)
{
	struct random_sched *r = s->own;

	(void)at;
	return runnable[explore_rng_below(&r->rng, n)];
}

static char *random_id(const explore_sched *s)
{
	const struct random_sched *r = s->own;

	return xasprintf("random:%" PRIu64 ":%" PRIu64, r->seed, r->index);
}

/* random:SEED:INDEX */
static int random_parse(const char *id, explore_sched *s, rg_err *err)
{
	const char *p = id + strlen("random:");
	uint64_t seed, index;

	if (!explore_take_num(&p, UINT64_MAX, &seed) || *p++ != ':' ||
	    !explore_take_num(&p, UINT64_MAX, &index) || *p)
		return explore_id_bad(id, err);
	random_sched(s, seed, index);
	return 0;
}

const explore_strategy strategy_random = {
	.name = "random",
	.id_prefix = "random:",
	.id_form = "random:SEED:INDEX",
	.help = "uniform among the threads that can run",
	.seeded = true,
	.init = random_init,
	.next = random_next,
	.release = free,
	.choose = random_choose,
	.id = random_id,
	.free_sched = free,
	.parse_id = random_parse,
};
