/*
 * What every strategy of `racegate explore` shares (explore_strategy.h):
 * the schedule and its decisions, deviations, dev: ids, the shrinker.
 */
#include "strategy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: a fine generator for choosing, and a fine mixer of seeds. */
uint64_t explore_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1 (rejection: no modulo bias). */
uint64_t explore_rng_below(uint64_t *state, uint64_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, r;

	do
		r = explore_rng_next(state);
	while (r >= lim);
	return r % n;
}

uint64_t explore_rng_stream(uint64_t seed, uint64_t index)
{
	uint64_t st = seed;

	/* schedule index of seed: its own stream, whatever ran before */
	st = explore_rng_next(&st) ^ index;
	return explore_rng_next(&st);
}

uint64_t explore_shard_index(uint64_t i, uint64_t n, uint64_t k)
{
	return i + k * n;
}

uint64_t explore_hash(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

void explore_sched_start(explore_sched *s, const explore_strategy *strategy, void *own)
{
	memset(s, 0, sizeof(*s));
	s->strategy = strategy;
	s->own = own;
}

void explore_sched_release(explore_sched *s)
{
	for (size_t i = 0; i < s->nsteps; i++)
		free(s->steps[i].runnable);
	free(s->steps);
	if (s->strategy && s->own)
		s->strategy->free_sched(s->own);
	rg_intmap_release(&s->arrivals);
	memset(s, 0, sizeof(*s));
}

bool explore_has(const int *v, size_t n, int x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

int explore_default_choice(int cur, const int *runnable, size_t n)
{
	return explore_has(runnable, n, cur) ? cur : runnable[0];
}

#define LAP_BITS 24
#define LAP_MAX ((1ul << LAP_BITS) - 1)

/*
 * cur's laps at gate (explore_at), counting this arrival: a stretch
 * begins at the decision that chose its thread while another had run up
 * to it; each arrival of the thread at a point within it counts there.
 */
static long laps(explore_sched *s, int cur, long gate)
{
	size_t *v, count;

	if (cur < 0 || gate < 0 || !s->nsteps ||
	    explore_thread_of(s->steps[s->nsteps - 1].chosen) != cur)
		return 0;
	v = rg_intmap_ref(&s->arrivals, (uint64_t)gate, 0);
	count = *v >> LAP_BITS == s->stretch ? *v & LAP_MAX : 0;
	*v = s->stretch << LAP_BITS | (count < LAP_MAX ? count + 1 : count);
	return (long)count;
}

int explore_choose(explore_sched *s, int cur, long gate, long hit,
		   const int *runnable, size_t n)
{
	explore_at at = { cur, gate, gate < 0 ? (long)s->nsteps : hit, 0 };
	explore_decision *d;
	int c;

	if (!n)
		rg_bug("explore_choose with no runnable thread");
	if (!s->strategy)
		rg_bug("explore_choose on a schedule of no strategy");
	at.laps = laps(s, cur, gate);
	c = s->strategy->choose(s, &at, runnable, n);
	if (!explore_has(runnable, n, c))
		rg_bug("strategy '%s' chose thread %d, which cannot run",
		       s->strategy->name ? s->strategy->name : s->strategy->id_prefix, c);
	RG_GROW(s->steps, s->nsteps + 1, s->capsteps);
	d = &s->steps[s->nsteps++];
	d->cur = cur;
	d->gate = gate;
	d->hit = at.hit;
	d->n = n;
	d->runnable = xcalloc(n, sizeof(int));
	memcpy(d->runnable, runnable, n * sizeof(int));
	d->chosen = c;
	d->preempt = c != cur && explore_has(runnable, n, cur);
	d->laps = at.laps;
	s->npreempt += d->preempt;
	if (explore_thread_of(c) != cur) /* c's stretch begins (a sleep ending is part of it) */
		s->stretch = s->nsteps;
	return c;
}

size_t explore_deviations(const explore_sched *s, explore_dev **out)
{
	size_t i, n = 0;

	*out = NULL;
	for (i = 0; i < s->nsteps; i++) {
		const explore_decision *d = &s->steps[i];

		if (d->chosen == explore_default_choice(d->cur, d->runnable, d->n))
			continue;
		*out = xrealloc(*out, (n + 1) * sizeof(**out));
		(*out)[n].cur = d->cur;
		(*out)[n].gate = d->gate;
		(*out)[n].hit = d->hit;
		(*out)[n].thread = d->chosen;
		n++;
	}
	return n;
}

char *explore_sched_id(const explore_sched *s)
{
	explore_dev *devs;
	size_t n;
	char *id;

	if (s->strategy && s->strategy->id && (id = s->strategy->id(s)))
		return id;
	n = explore_deviations(s, &devs);
	id = explore_id_forced(devs, n);
	free(devs);
	return id;
}

/* ---- dev: ids ---- */

char *explore_id_forced(const explore_dev *devs, size_t n)
{
	rg_buf b = RG_BUF_INIT;

	rg_buf_printf(&b, "dev:");
	for (size_t i = 0; i < n; i++) {
		if (i)
			rg_buf_puts(&b, ",");
		if (devs[i].cur < 0)
			rg_buf_puts(&b, "x.");
		else
			rg_buf_printf(&b, "%d.", devs[i].cur);
		if (devs[i].gate < 0)
			rg_buf_puts(&b, "x.");
		else
			rg_buf_printf(&b, "%ld.", devs[i].gate);
		rg_buf_printf(&b, "%ld.%s%d", devs[i].hit,
			      devs[i].thread >= EXPLORE_FIRE ? "s" : "",
			      explore_thread_of(devs[i].thread));
	}
	return rg_buf_detach(&b);
}

bool explore_take_num(const char **p, uint64_t max, uint64_t *out)
{
	char *end;

	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(*p, &end, 10);
	if (errno || v > max)
		return false;
	*out = v;
	*p = end;
	return true;
}

/*
 * A number, or "x" for none (-1), then a dot (unless last).  The last
 * field is a thread, or sN: the timeout of sleeper N (EXPLORE_FIRE + N).
 */
static bool take_field(const char **p, bool may_be_none, bool last, long *out)
{
	uint64_t v;

	if (may_be_none && **p == 'x') {
		*out = -1;
		(*p)++;
	} else if (last) {
		bool fire = **p == 's';

		*p += fire;
		if (!explore_take_num(p, EXPLORE_FIRE - 1, &v))
			return false;
		*out = (long)v + (fire ? EXPLORE_FIRE : 0);
	} else if (explore_take_num(p, 1u << 30, &v)) {
		*out = (long)v;
	} else {
		return false;
	}
	if (last)
		return true;
	return *(*p)++ == '.';
}

int explore_devs_parse(const char *p, const char *id, explore_dev **devs, size_t *n,
		       rg_err *err)
{
	explore_dev *v = NULL;
	long cur, gate, hit, th;

	*n = 0;
	while (*p) {
		if (!take_field(&p, true, false, &cur) || !take_field(&p, true, false, &gate) ||
		    !take_field(&p, false, false, &hit) || !take_field(&p, false, true, &th) ||
		    (*p && *p++ != ',')) {
			free(v);
			*n = 0;
			return rg_error(err, "bad schedule id '%s': a forced schedule "
					"is dev: and CUR.POINT.HIT.THREAD deviations", id);
		}
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[*n].cur = (int)cur;
		v[*n].gate = gate;
		v[*n].hit = hit;
		v[*n].thread = (int)th;
		(*n)++;
	}
	*devs = v;
	return 0;
}

/* ---- shrinking ---- */

/* devs without [lo, hi), into out (room for n). */
static size_t without(const explore_dev *devs, size_t n, size_t lo, size_t hi,
		      explore_dev *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (i < lo || i >= hi)
			out[k++] = devs[i];
	return k;
}

size_t explore_shrink_first(explore_dev **devs, size_t *n, explore_first_fails_fn first,
			    void *ctx)
{
	size_t runs = 0, chunks = 2, tried, zero = 0, m, size, i, cap;
	explore_dev **cands, *none = NULL;
	size_t *lens;
	long f;

	if (!*n)
		return 0;
	f = first(ctx, &none, &zero, 1, &tried);
	runs += tried;
	if (f == 0) {
		free(*devs);
		*devs = NULL;
		*n = 0;
		return runs;
	}
	cap = *n;
	cands = xcalloc(cap, sizeof(*cands));
	lens = xcalloc(cap, sizeof(*lens));
	for (i = 0; i < cap; i++)
		cands[i] = xcalloc(cap, sizeof(**cands));
	/* the empty list was tried first: one deviation is as short as it gets */
	while (*n >= 2) {
		size = (*n + chunks - 1) / chunks;
		for (m = 0, i = 0; i < *n; i += size, m++)
			lens[m] = without(*devs, *n, i, i + size < *n ? i + size : *n, cands[m]);
		f = first(ctx, cands, lens, m, &tried);
		runs += tried;
		if (f >= 0) {
			memcpy(*devs, cands[f], lens[f] * sizeof(**cands));
			*n = lens[f];
			chunks = chunks > 2 ? chunks - 1 : 2;
			continue;
		}
		if (chunks >= *n)
			break;
		chunks = chunks * 2 < *n ? chunks * 2 : *n;
	}
	for (i = 0; i < cap; i++)
		free(cands[i]);
	free(cands);
	free(lens);
	return runs;
}

struct one_by_one {
	explore_fails_fn fails;
	void *ctx;
};

/* first() of explore_shrink_first, from fails: one candidate after another. */
static long one_by_one(void *ctx, explore_dev **cands, size_t *lens, size_t m, size_t *tried)
{
	struct one_by_one *o = ctx;

	for (size_t i = 0; i < m; i++) {
		*tried = i + 1;
		if (o->fails(o->ctx, cands[i], &lens[i]))
			return (long)i;
	}
	*tried = m;
	return -1;
}

size_t explore_shrink(explore_dev **devs, size_t *n, explore_fails_fn fails, void *ctx)
{
	struct one_by_one o = { fails, ctx };

	return explore_shrink_first(devs, n, one_by_one, &o);
}
