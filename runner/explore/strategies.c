/*
 * The table of explore's strategies (strategy.h): one row a strategy,
 * each defined in its own strategy_NAME.c.  A new strategy is its file
 * and a line here.
 */
#include "strategy.h"

#include <stdlib.h>
#include <string.h>

extern const explore_strategy strategy_random, strategy_pct, strategy_dfs;
extern const explore_strategy strategy_pct_fair;

const explore_strategy *const explore_strategies[] = {
	&strategy_random,      /* the default */
	&strategy_pct,
	&strategy_pct_fair,
	&strategy_dfs,
	&strategy_forced,      /* dev: ids: --replay, the shrinker */
	NULL,
};

const explore_strategy *explore_strategy_named(const char *name)
{
	for (const explore_strategy *const *r = explore_strategies; *r; r++)
		if ((*r)->name && !strcmp((*r)->name, name))
			return *r;
	return NULL;
}

bool explore_strategy_takes(const explore_strategy *st, const char *opt)
{
	for (const strategy_opt *o = st->opts; o && o->name; o++)
		if (!strcmp(o->name, opt))
			return true;
	return false;
}

const explore_strategy *explore_strategy_taking(const char *opt)
{
	for (const explore_strategy *const *r = explore_strategies; *r; r++)
		if ((*r)->name && explore_strategy_takes(*r, opt))
			return *r;
	return NULL;
}

/* "a, b or c" of the rows' field (names, or id forms), NULLs skipped. */
static char *join(const char *(*field)(const explore_strategy *), const char *sep,
		  const char *last)
{
	rg_buf b = RG_BUF_INIT;
	size_t n = 0, i = 0;

	for (const explore_strategy *const *r = explore_strategies; *r; r++)
		n += field(*r) != NULL;
	for (const explore_strategy *const *r = explore_strategies; *r; r++) {
		if (!field(*r))
			continue;
		if (i)
			rg_buf_puts(&b, i + 1 == n ? last : sep);
		rg_buf_puts(&b, field(*r));
		i++;
	}
	return rg_buf_detach(&b);
}

static const char *name_of(const explore_strategy *st)
{
	return st->name;
}

static const char *form_of(const explore_strategy *st)
{
	return st->id_prefix ? st->id_form : NULL;
}

char *explore_strategy_names(const char *sep, const char *last)
{
	return join(name_of, sep, last);
}

int explore_id_bad(const char *id, rg_err *err)
{
	char *forms = join(form_of, ", ", " or ");
	int r = rg_error(err, "bad schedule id '%s' (racegate explore prints ids as %s)",
			 id, forms);

	free(forms);
	return r;
}

int explore_id_parse(const char *id, explore_sched *s, rg_err *err)
{
	for (const explore_strategy *const *r = explore_strategies; *r; r++)
		if ((*r)->id_prefix && (*r)->parse_id &&
		    !strncmp(id, (*r)->id_prefix, strlen((*r)->id_prefix)))
			return (*r)->parse_id(id, s, err);
	return explore_id_bad(id, err);
}

/* ---- a search, through its row: what a missing operation means ---- */

struct strategy_search {
	const explore_strategy *row;
	void *st;
	unsigned shard_i, shard_n; /* for the default rank */
};

strategy_search *strategy_search_new(const explore_strategy *st, const strategy_cfg *cfg)
{
	strategy_search *x;

	if (!st->name || !st->init || !st->next || !st->release)
		rg_bug("strategy '%s' cannot search", st->name ? st->name : st->id_prefix);
	x = xcalloc(1, sizeof(*x));
	x->row = st;
	x->st = st->init(cfg);
	x->shard_i = cfg->shard_i;
	x->shard_n = cfg->shard_n ? cfg->shard_n : 1;
	return x;
}

void strategy_search_free(strategy_search *x)
{
	if (!x)
		return;
	x->row->release(x->st);
	free(x);
}

const explore_strategy *strategy_search_row(const strategy_search *x)
{
	return x->row;
}

bool strategy_first(strategy_search *x, explore_sched *s)
{
	return x->row->first && x->row->first(x->st, s);
}

void strategy_learn(strategy_search *x, const explore_sched *s)
{
	if (x->row->learn)
		x->row->learn(x->st, s);
}

bool strategy_next(strategy_search *x, uint64_t k, explore_sched *s)
{
	return x->row->next(x->st, k, s);
}

void strategy_observe(strategy_search *x, const explore_sched *s)
{
	if (x->row->observe)
		x->row->observe(x->st, s);
}

bool strategy_owned(const strategy_search *x)
{
	return !x->row->owned || x->row->owned(x->st);
}

void strategy_rank(const strategy_search *x, uint64_t k, uint64_t rank[2])
{
	if (x->row->rank) {
		x->row->rank(x->st, k, rank);
		return;
	}
	rank[0] = 1;
	rank[1] = explore_shard_index(x->shard_i, x->shard_n, k);
}

bool strategy_independent(const explore_strategy *st)
{
	return !st->observe;
}

void strategy_tally_of(const strategy_search *x, strategy_tally *t)
{
	memset(t, 0, sizeof(*t));
	if (x->row->tally)
		x->row->tally(x->st, t);
}
