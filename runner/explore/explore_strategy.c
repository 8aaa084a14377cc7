/*
 * Strategies for `racegate explore` (explore_strategy.h).
 */
#include "explore_strategy.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: a fine generator for choosing, and a fine mixer of seeds. */
static uint64_t mix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1 (rejection: no modulo bias). */
static uint64_t below(uint64_t *state, uint64_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, r;

	do
		r = mix(state);
	while (r >= lim);
	return r % n;
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

void explore_sched_init(explore_sched *s, const explore_cfg *cfg, uint64_t index)
{
	uint64_t st = cfg->seed;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	/* schedule index of seed: its own stream, whatever ran before */
	st = mix(&st) ^ index;
	s->rng = mix(&st);
	if (cfg->kind == EXPLORE_PCT && cfg->depth > 1) {
		long k = cfg->est_steps > 0 ? cfg->est_steps : 1;

		s->change = xcalloc((size_t)cfg->depth - 1, sizeof(long));
		for (int i = 0; i < cfg->depth - 1; i++)
			s->change[i] = (long)below(&s->rng, (uint64_t)k);
	}
}

void explore_sched_init_forced(explore_sched *s, const explore_dev *devs, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->cfg.kind = EXPLORE_FORCED;
	if (n) {
		s->devs = xcalloc(n, sizeof(*devs));
		memcpy(s->devs, devs, n * sizeof(*devs));
	}
	s->ndevs = n;
}

void explore_sched_release(explore_sched *s)
{
	for (size_t i = 0; i < s->nsteps; i++)
		free(s->steps[i].runnable);
	free(s->steps);
	free(s->change);
	free(s->prio);
	free(s->prefix);
	free(s->devs);
	memset(s, 0, sizeof(*s));
}

static bool has(const int *v, size_t n, int x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static int default_choice(int cur, const int *runnable, size_t n)
{
	return has(runnable, n, cur) ? cur : runnable[0];
}

/*
 * PCT: a thread seen for the first time gets a random priority above
 * every change point's (depth - 1 of them, priorities 1 .. depth - 1);
 * at change point i the thread that was running drops to depth - 1 - i.
 */
static int pct_choose(explore_sched *s, int cur, const int *runnable, size_t n)
{
	const uint64_t base = (uint64_t)s->cfg.depth;
	uint64_t best = 0;
	int who = runnable[0];
	size_t i;

	for (i = 0; i < n; i++) {
		size_t t = (size_t)runnable[i];

		if (t >= s->nprio) {
			s->prio = xrealloc(s->prio, (t + 1) * sizeof(*s->prio));
			memset(s->prio + s->nprio, 0, (t + 1 - s->nprio) * sizeof(*s->prio));
			s->nprio = t + 1;
		}
		if (!s->prio[t])
			s->prio[t] = base + 1 + (mix(&s->rng) >> 2);
	}
	for (i = 0; s->change && i < (size_t)s->cfg.depth - 1; i++)
		if (s->change[i] == (long)s->nsteps && cur >= 0 && (size_t)cur < s->nprio)
			s->prio[cur] = base - 1 - i;
	for (i = 0; i < n; i++)
		if (s->prio[runnable[i]] > best) {
			best = s->prio[runnable[i]];
			who = runnable[i];
		}
	return who;
}

static bool dev_matches(const explore_dev *d, int cur, long gate, long hit)
{
	return d->cur == cur && d->gate == gate && d->hit == hit;
}

static int forced_choose(const explore_sched *s, int cur, long gate, long hit,
			 const int *runnable, size_t n)
{
	if (gate < 0)
		hit = (long)s->nsteps;
	for (size_t i = 0; i < s->ndevs; i++)
		if (dev_matches(&s->devs[i], cur, gate, hit) &&
		    has(runnable, n, s->devs[i].thread))
			return s->devs[i].thread;
	return default_choice(cur, runnable, n);
}

int explore_choose(explore_sched *s, int cur, long gate, long hit,
		   const int *runnable, size_t n)
{
	explore_decision *d;
	int c;

	if (!n)
		rg_bug("explore_choose with no runnable thread");
	switch (s->cfg.kind) {
	case EXPLORE_RANDOM:
		c = runnable[below(&s->rng, n)];
		break;
	case EXPLORE_PCT:
		c = pct_choose(s, cur, runnable, n);
		break;
	case EXPLORE_DFS:
		c = s->nsteps < s->nprefix && has(runnable, n, s->prefix[s->nsteps]) ?
		    s->prefix[s->nsteps] : default_choice(cur, runnable, n);
		break;
	default:
		c = forced_choose(s, cur, gate, hit, runnable, n);
		break;
	}
	RG_GROW(s->steps, s->nsteps + 1, s->capsteps);
	d = &s->steps[s->nsteps++];
	d->cur = cur;
	d->gate = gate;
	d->hit = gate < 0 ? (long)s->nsteps - 1 : hit;
	d->n = n;
	d->runnable = xcalloc(n, sizeof(int));
	memcpy(d->runnable, runnable, n * sizeof(int));
	d->chosen = c;
	d->preempt = c != cur && has(runnable, n, cur);
	s->npreempt += d->preempt;
	return c;
}

size_t explore_deviations(const explore_sched *s, explore_dev **out)
{
	size_t i, n = 0;

	*out = NULL;
	for (i = 0; i < s->nsteps; i++) {
		const explore_decision *d = &s->steps[i];

		if (d->chosen == default_choice(d->cur, d->runnable, d->n)) 
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

/* ---- depth-first search ---- */

unsigned explore_choice_cost(enum explore_bound_kind kind, int cur, const int *runnable,
			     size_t n, int chosen)
{
	size_t from = 0, to = 0;

	for (size_t i = 0; i < n; i++) {
		if (runnable[i] == cur)
			from = i;
		if (runnable[i] == chosen)
			to = i;
	}
	if (kind == EXPLORE_PREEMPTIONS)
		return has(runnable, n, cur) && chosen != cur;
	/* from: the default's place (cur's when it can run, else the lowest) */
	if (!has(runnable, n, cur))
		from = 0;
	return (unsigned)((to + n - from) % n);
}

struct dfs_node {
	int cur;
	long gate;
	int *runnable;
	size_t n;
	int chosen;
	bool *tried;           /* per runnable[i] */
	size_t spent;          /* of the bound, in the steps before this one */
	size_t quiet;          /* deviations at quiet points, in the steps before */
};

/*
 * The search runs in phases, each a depth-first pass over the tree: phase
 * (cost, quiet) hands out the schedules that spend exactly cost of the
 * bound, quiet of it at quiet points.  Phases go by cost, 0 to the bound
 * (iterative bounding: fewest delays first), and within one cost by quiet,
 * 0 up.  A pass goes through the schedules of earlier phases that lead to
 * its own, to learn where the tree branches: as they went then (known),
 * or run again when not kept (not fresh: the caller does not count
 * them); it skips, unrun, those that lead to none.
 */
struct explore_dfs {
	int bound;
	enum explore_bound_kind kind;
	bool *quiet_at;        /* per point, from explore_dfs_set_quiet; NULL: none */
	size_t nquiet_at;
	size_t cost, quiet;    /* the phase */
	bool quiet_seen;       /* a decision at a quiet point offered a choice */
	long level_fresh;      /* schedules of this phase's cost, any shard's */
	bool fresh;            /* the schedule handed out last is the phase's */
	struct dfs_node *v;
	size_t n, cap;
	int *next;             /* the next prefix */
	size_t nnext;
	bool started, done;
	/* --shard I/N (explore_dfs_set_shard); N = 1: every subtree is ours */
	unsigned shard_i, shard_n;
	int split;             /* subtrees are cut at this many deviations */
	long nsub;             /* subtrees entered so far, in DFS order */
	long sub;              /* the ordinal of the current schedule's subtree */
	bool owned;            /* the schedule next handed out is this shard's */
	long diverged;         /* runs that did not follow their prefix */
	/* what schedules that may lead to a later phase decided, by prefix */
	struct dfs_known *known;
	size_t nknown, capknown, known_steps;
};

/*
 * At most this many decisions are kept in known (some tens of MiB); past
 * it a later pass runs such a schedule again instead.
 */
#define DFS_KNOWN_STEPS (1u << 20)

struct dfs_known {
	uint64_t key;          /* explore_hash of the prefix */
	int *prefix;
	size_t nprefix;
	explore_sched run;     /* steps only */
};

explore_dfs *explore_dfs_new(int bound, enum explore_bound_kind kind)
{
	explore_dfs *d = xcalloc(1, sizeof(*d));

	d->bound = bound;
	d->kind = kind;
	d->shard_n = 1;
	d->owned = true;
	d->nsub = 1;           /* the first schedule's subtree is number 0 */
	return d;
}

void explore_dfs_set_shard(explore_dfs *d, unsigned i, unsigned n)
{
	if (n < 1 || i >= n || d->started)
		rg_bug("explore_dfs_set_shard(%u, %u) on a %s search", i, n,
		       d->started ? "started" : "new");
	d->shard_i = i;
	d->shard_n = n;
	/*
	 * Level 1 alone gives as many subtrees as the default schedule has
	 * choices, but the early ones hold most schedules; level 2 spreads
	 * those too, for one run of each level-1 subtree, which is a
	 * subtree's only schedule when the bound is 1.
	 */
	d->split = d->bound >= 2 ? 2 : 1;
	d->owned = d->sub % (long)n == (long)i;
}

void explore_dfs_set_quiet(explore_dfs *d, const bool *quiet, size_t n)
{
	if (d->started)
		rg_bug("explore_dfs_set_quiet on a started search");
	free(d->quiet_at);
	d->quiet_at = xcalloc(n ? n : 1, sizeof(bool));
	memcpy(d->quiet_at, quiet, n * sizeof(bool));
	d->nquiet_at = n;
}

bool explore_dfs_owned(const explore_dfs *d)
{
	return d->owned && d->fresh;
}

static void node_release(struct dfs_node *nd)
{
	free(nd->runnable);
	free(nd->tried);
}

static void cut_tree(explore_dfs *d, size_t from)
{
	for (size_t k = from; k < d->n; k++)
		node_release(&d->v[k]);
	if (d->n > from)
		d->n = from;
}

void explore_dfs_free(explore_dfs *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nknown; i++) {
		free(d->known[i].prefix);
		explore_sched_release(&d->known[i].run);
	}
	free(d->known);
	cut_tree(d, 0);
	free(d->v);
	free(d->next);
	free(d->quiet_at);
	free(d);
}

static uint64_t prefix_key(const int *prefix, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = explore_hash(h, (uint64_t)(unsigned)prefix[i]);
	return explore_hash(h, n);
}

static const explore_sched *known_run(const explore_dfs *d, const int *prefix, size_t n)
{
	uint64_t key = prefix_key(prefix, n);

	for (size_t i = 0; i < d->nknown; i++)
		if (d->known[i].key == key && d->known[i].nprefix == n &&
		    (!n || !memcmp(d->known[i].prefix, prefix, n * sizeof(int))))
			return &d->known[i].run;
	return NULL;
}

/* Keeps what s decided, for later passes, if it has room. */
static void know(explore_dfs *d, const explore_sched *s)
{
	struct dfs_known *k;

	if (d->known_steps + s->nsteps > DFS_KNOWN_STEPS || known_run(d, s->prefix, s->nprefix))
		return;
	RG_GROW(d->known, d->nknown + 1, d->capknown);
	k = &d->known[d->nknown++];
	memset(k, 0, sizeof(*k));
	k->key = prefix_key(s->prefix, s->nprefix);
	k->nprefix = s->nprefix;
	k->prefix = xcalloc(s->nprefix ? s->nprefix : 1, sizeof(int));
	if (s->nprefix)
		memcpy(k->prefix, s->prefix, s->nprefix * sizeof(int));
	k->run.steps = xcalloc(s->nsteps ? s->nsteps : 1, sizeof(*s->steps));
	for (size_t i = 0; i < s->nsteps; i++) {
		k->run.steps[i] = s->steps[i];
		k->run.steps[i].runnable = xcalloc(s->steps[i].n, sizeof(int));
		memcpy(k->run.steps[i].runnable, s->steps[i].runnable,
		       s->steps[i].n * sizeof(int));
	}
	k->run.nsteps = k->run.capsteps = s->nsteps;
	d->known_steps += s->nsteps;
}

static void feed(explore_dfs *d, const explore_sched *s, const int *prefix, size_t nprefix,
		 bool keep);

bool explore_dfs_next(explore_dfs *d, explore_sched *s)
{
	const explore_sched *was;

	for (;;) {
		if (d->done)
			return false;
		memset(s, 0, sizeof(*s));
		s->cfg.kind = EXPLORE_DFS;
		s->cfg.bound = d->bound;
		if (d->started && d->nnext) {
			s->prefix = xcalloc(d->nnext, sizeof(int));
			memcpy(s->prefix, d->next, d->nnext * sizeof(int));
			s->nprefix = d->nnext;
		} else {
			/* a pass's first schedule: the default order, phase (0, 0)'s own */
			d->fresh = d->cost == 0 && d->quiet == 0;
			d->level_fresh += d->fresh;
		}
		d->started = true;
		/* a schedule run before, only to learn the tree: as it went then */
		if (d->fresh || !(was = known_run(d, s->prefix, s->nprefix)))
			return true;
		feed(d, was, s->prefix, s->nprefix, false);
		explore_sched_release(s);
	}
}

/* Is node i's choice the one s made, over the same runnable set? */
static bool same_node(const struct dfs_node *nd, const explore_decision *x)
{
	return nd->n == x->n && nd->cur == x->cur &&
	       !memcmp(nd->runnable, x->runnable, x->n * sizeof(int));
}

/* Does a thread standing at this decision's point touch nothing shared next? */
static bool at_quiet(const explore_dfs *d, long gate)
{
	return gate >= 0 && (size_t)gate < d->nquiet_at && d->quiet_at[gate];
}

/*
 * Sharding, decided when backtracking takes another choice at node bt.
 * Every choice backtracking takes is a deviation (the run through a node
 * took its default first), so it starts the subtree of the schedules that
 * share its prefix; its level L is 1 + the deviations above it.  Each
 * subtree entered at a level up to split is numbered, in DFS order, and
 * subtree k, with everything below it, belongs to shard k mod N.  The
 * subtrees of level 1 hang off the default schedule, those of level 2 off
 * the first schedule of a level-1 subtree, and so on: every shard runs
 * those first schedules (not its own, when another shard owns them:
 * explore_dfs_owned says so) and so numbers the subtrees alike; a subtree
 * of another shard at level split or below is skipped unrun.  Each phase
 * numbers its pass's subtrees afresh.  False: skip this choice.
 */
static bool shard_takes(explore_dfs *d, size_t bt)
{
	int level = 1;

	if (d->shard_n <= 1)
		return true;
	for (size_t k = 0; k < bt; k++)
		level += d->v[k].chosen != default_choice(d->v[k].cur, d->v[k].runnable,
							  d->v[k].n);
	if (level <= d->split)
		d->sub = d->nsub++;
	d->owned = d->sub % (long)d->shard_n == (long)d->shard_i;
	return d->owned || level < d->split;
}

/*
 * Within this pass: is a schedule spending cost, quiet the phase's own
 * (*fresh), or may deviations below it make one?  Every deviation below
 * spends one or more; at most one each of it at a quiet point.  Under a
 * preemption bound a free choice spends nothing and keeps the schedule's
 * phase, which the pass then finds below a fresh one.
 */
static bool in_pass(const explore_dfs *d, size_t cost, size_t quiet, bool *fresh)
{
	*fresh = cost == d->cost && quiet == d->quiet;
	return *fresh || (cost < d->cost && quiet <= d->quiet &&
			  d->quiet - quiet <= d->cost - cost);
}

/* The deepest node with an untried alternative in this pass, marked tried. */
static bool backtrack(explore_dfs *d)
{
	while (d->n) {
		struct dfs_node *nd = &d->v[d->n - 1];

		for (size_t i = 0; i < nd->n; i++) {
			unsigned c = explore_choice_cost(d->kind, nd->cur, nd->runnable, nd->n,
							 nd->runnable[i]);
			bool fresh;

			if (nd->tried[i] || !in_pass(d, nd->spent + c,
						     nd->quiet + (c && at_quiet(d, nd->gate)),
						     &fresh))
				continue;
			nd->tried[i] = true;
			nd->chosen = nd->runnable[i];
			/* whoever's it is: a later cost may have schedules (next_phase) */
			d->level_fresh += fresh;
			if (!shard_takes(d, d->n - 1))
				continue;
			d->fresh = fresh;
			d->next = xrealloc(d->next, d->n * sizeof(int));
			for (size_t k = 0; k < d->n; k++)
				d->next[k] = d->v[k].chosen;
			d->nnext = d->n;
			return true;
		}
		node_release(nd);
		d->n--;
	}
	return false;
}

/*
 * The next phase's pass, from the default order again; false when the
 * bound is reached, or a cost had no schedule (none spends more: the last
 * deviation of one that did spent at most one more than the rest, under
 * either bound, or could have been a cheaper one at the same decision).
 * Phases of quiet deviations come only once a quiet point offered a
 * choice: a schedule's quiet deviation is a choice at a decision of a
 * schedule of an earlier phase.
 */
static bool next_phase(explore_dfs *d)
{
	cut_tree(d, 0);
	d->started = false;
	d->nnext = 0;
	d->nsub = 1;
	d->sub = 0;
	d->owned = d->shard_n <= 1 || d->shard_i == 0;
	if (d->quiet < d->cost && d->quiet_seen) {
		d->quiet++;
		return true;
	}
	if (!d->level_fresh && d->cost > 0)
		return false;
	if (d->cost >= (size_t)d->bound)
		return false;
	d->cost++;
	d->quiet = 0;
	d->level_fresh = 0;
	return true;
}

void explore_dfs_feed(explore_dfs *d, const explore_sched *s)
{
	feed(d, s, s->prefix, s->nprefix, true);
}

long explore_dfs_diverged(const explore_dfs *d)
{
	return d->diverged;
}

/*
 * Did run s go down the tree along its prefix, node by node?  A program
 * that decides differently from run to run may not: its threads reach
 * other points, or others can run.  Merging such a run would cut the tree
 * above the choice just tried and make it untried again (and the search
 * could choose the same way for ever).
 */
static bool followed(const explore_dfs *d, const explore_sched *s, const int *prefix,
		     size_t nprefix)
{
	if (s->nsteps < nprefix || nprefix > d->n)
		return false;
	for (size_t i = 0; i < nprefix; i++)
		if (s->steps[i].chosen != prefix[i] || !same_node(&d->v[i], &s->steps[i]))
			return false;
	return true;
}

/* s ran with prefix (keep: just now, and it may be known for later passes) */
static void feed(explore_dfs *d, const explore_sched *s, const int *prefix, size_t nprefix,
		 bool keep)
{
	size_t i, spent = 0, quiet = 0;

	/* a run that left its prefix: the tree stays as it was, below that choice unsearched */
	if (!followed(d, s, prefix, nprefix)) {
		d->diverged++;
		if (!backtrack(d) && !next_phase(d))
			d->done = true;
		return;
	}
	for (i = 0; i < s->nsteps; i++) {
		const explore_decision *x = &s->steps[i];
		struct dfs_node *nd;
		unsigned c;

		/* past the prefix, a run may go elsewhere than the last one there */
		if (i < d->n && !same_node(&d->v[i], x))
			cut_tree(d, i);
		if (i >= d->n) {
			RG_GROW(d->v, d->n + 1, d->cap);
			nd = &d->v[d->n++];
			nd->cur = x->cur;
			nd->gate = x->gate;
			nd->n = x->n;
			nd->runnable = xcalloc(x->n, sizeof(int));
			memcpy(nd->runnable, x->runnable, x->n * sizeof(int));
			nd->tried = xcalloc(x->n, sizeof(bool));
			nd->spent = spent;
			nd->quiet = quiet;
			d->quiet_seen |= x->n > 1 && at_quiet(d, x->gate);
		}
		nd = &d->v[i];
		nd->chosen = x->chosen;
		for (size_t k = 0; k < nd->n; k++)
			if (nd->runnable[k] == x->chosen)
				nd->tried[k] = true;
		c = explore_choice_cost(d->kind, x->cur, x->runnable, x->n, x->chosen);
		spent += c;
		quiet += c && at_quiet(d, x->gate);
	}
/* steps beyond this run's end belong to no schedule any more */
	cut_tree(d, s->nsteps);
	/* a later pass goes through it when it may lead to a dearer schedule */
	if (keep && spent < (size_t)d->bound)
		know(d, s);
	if (!backtrack(d) && !next_phase(d))
		d->done = true;
}

/* ---- ids ---- */

char *explore_id_seeded(const explore_cfg *cfg, uint64_t index)
{
	if (cfg->kind == EXPLORE_PCT)
		return xasprintf("pct:%d:%ld:%" PRIu64 ":%" PRIu64, cfg->depth,
				 cfg->est_steps, cfg->seed, index);
	return xasprintf("random:%" PRIu64 ":%" PRIu64, cfg->seed, index);
}

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
		rg_buf_printf(&b, "%ld.%d", devs[i].hit, devs[i].thread);
	}
	return rg_buf_detach(&b);
}

/* An unsigned number at *p, up to max; advances *p. */
static bool take_num(const char **p, uint64_t max, uint64_t *out)
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

/* A number, or "x" for none (-1), then a dot (unless last). */
static bool take_field(const char **p, bool may_be_none, bool last, long *out)
{
	uint64_t v;

	if (may_be_none && **p == 'x') {
		*out = -1;
		(*p)++;
	} else if (take_num(p, 1u << 30, &v)) {
		*out = (long)v;
	} else {
		return false;
	}
	if (last)
		return true;
	return *(*p)++ == '.';
}

static int parse_devs(const char *p, explore_sched *s, const char *id, rg_err *err)
{
	explore_dev *v = NULL;
	size_t n = 0;
	long cur, gate, hit, th;

	while (*p) {
		if (!take_field(&p, true, false, &cur) || !take_field(&p, true, false, &gate) ||
		    !take_field(&p, false, false, &hit) || !take_field(&p, false, true, &th) ||
		    (*p && *p++ != ',')) {
			free(v);
			return rg_error(err, "bad schedule id '%s': a forced schedule "
					"is dev: and CUR.POINT.HIT.THREAD deviations", id);
		}
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].cur = (int)cur;
		v[n].gate = gate;
		v[n].hit = hit;
		v[n].thread = (int)th;
		n++;
	}
	explore_sched_init_forced(s, v, n);
	free(v);
	return 0;
}

int explore_id_parse(const char *id, explore_sched *s, rg_err *err)
{
	explore_cfg cfg;
	uint64_t depth = 0, steps = 0, index;
	const char *p;

	memset(&cfg, 0, sizeof(cfg));
	if (!strncmp(id, "dev:", 4))
		return parse_devs(id + 4, s, id, err);
	if (!strncmp(id, "random:", 7)) {
		cfg.kind = EXPLORE_RANDOM;
		p = id + 7;
	} else if (!strncmp(id, "pct:", 4)) {
		cfg.kind = EXPLORE_PCT;
		p = id + 4;
		if (!take_num(&p, 64, &depth) || depth < 1 || *p++ != ':' ||
		    !take_num(&p, 1u << 30, &steps) || *p++ != ':')
			goto bad;
	} else {
		goto bad;
	}
	if (!take_num(&p, UINT64_MAX, &cfg.seed) || *p++ != ':' ||
	    !take_num(&p, UINT64_MAX, &index) || *p)
		goto bad;
	cfg.depth = (int)depth;
	cfg.est_steps = (long)steps;
	explore_sched_init(s, &cfg, index);
	return 0;
bad:
	return rg_error(err, "bad schedule id '%s' (racegate explore prints ids "
			"as random:SEED:INDEX, pct:DEPTH:STEPS:SEED:INDEX or "
			"dev:CUR.POINT.HIT.THREAD,...)", id);
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

size_t explore_shrink(explore_dev **devs, size_t *n, explore_fails_fn fails, void *ctx)
{
	size_t runs = 0, chunks = 2;
	explore_dev *cand;

	if (!*n)
		return 0;
	runs++;
	size_t zero = 0;
	if (fails(ctx, NULL, &zero)) {
		free(*devs);
		*devs = NULL;
		*n = 0;
		return runs;
	}
	cand = xcalloc(*n, sizeof(*cand));
	while (*n >= 2 || (*n == 1 && chunks == 2)) {
		size_t size = (*n + chunks - 1) / chunks, i;
		bool cut = false;

		if (*n == 1)
			break;  /* the empty list was tried first */
		for (i = 0; i < *n; i += size) {
			size_t hi = i + size < *n ? i + size : *n;
			size_t k = without(*devs, *n, i, hi, cand);

			runs++;
			if (fails(ctx, cand, &k)) {
				memcpy(*devs, cand, k * sizeof(*cand));
				*n = k;
				chunks = chunks > 2 ? chunks - 1 : 2;
				cut = true;
				break;
			}
		}
		if (cut)
			continue;
		if (chunks >= *n)
			break;
		chunks = chunks * 2 < *n ? chunks * 2 : *n;
	}
	free(cand);
	return runs;
}
