/*
 * dfs: depth-first search over the choice tree, with at most `bound`
 * delays per schedule (delay bounding, Emmi, Qadeer and Rakamaric, POPL
 * 2011) or at most `bound` preemptions (preemption bounding, Musuvathi
 * and Qadeer, PLDI 2007; Deja Fu); fewest first (iterative bounding, as
 * CHESS does).  Stateless: the explored prefix is kept here and every
 * schedule is replayed from the start.  next hands out a schedule for the
 * next unexplored prefix; observe merges what it decided into the tree;
 * next is false once every schedule within the bound has been run.
 *
 * A run that does not go down the tree along its prefix (a program that
 * decides differently from run to run) leaves the tree as it was, and the
 * schedules below its choice unsearched: tally's diverged.
 *
 * quiet[g] (the configuration's): a thread standing at point g touches
 * nothing another thread sees before its next point (a line whose first
 * instruction works on its own stack or registers), so that deviating
 * there is tried after deviating elsewhere, among schedules that spend as
 * much of the bound.
 *
 * --shard I/N: the tree is cut into subtrees at its first branching
 * levels, numbered in DFS order, and shard I takes those numbered I mod
 * N, so the N shards together run every schedule of the unsharded search,
 * each once (for a program that replays its prefixes).  To learn where
 * the tree branches a shard sometimes runs one schedule of a subtree it
 * does not own: owned is false for it, and the caller runs and observes
 * it but neither counts nor judges it.
 *
 * Its schedules are named by their deviations (dev: ids).
 */
#include "strategy.h"

#include <stdlib.h>
#include <string.h>

extern const explore_strategy strategy_dfs;

/* A schedule of the search: the exact choices of its first nprefix steps. */
struct dfs_sched {
	int *prefix;
	size_t nprefix;
};

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
		return explore_has(runnable, n, cur) && chosen != cur;
	/* from: the default's place (cur's when it can run, else the lowest) */
	if (!explore_has(runnable, n, cur))
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
struct dfs {
	int bound;
	enum explore_bound_kind kind;
	bool *quiet_at;        /* per point, from dfs_set_quiet; NULL: none */
	size_t nquiet_at;
	size_t cost, quiet;    /* the phase */
	long phase_no;         /* its ordinal, 0 up: the phases' order */
	bool quiet_seen;       /* a decision at a quiet point offered a choice */
	long level_fresh;      /* schedules of this phase's cost, any shard's */
	bool fresh;            /* the schedule handed out last is the phase's */
	struct dfs_node *v;
	size_t n, cap;
	int *next;             /* the next prefix */
	size_t nnext;
	bool started, done;
	/* --shard I/N (dfs_set_shard); N = 1: every subtree is ours */
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

static struct dfs *dfs_new(int bound, enum explore_bound_kind kind)
{
	struct dfs *d = xcalloc(1, sizeof(*d));

	d->bound = bound;
	d->kind = kind;
	d->shard_n = 1;
	d->owned = true;
	d->nsub = 1;           /* the first schedule's subtree is number 0 */
	return d;
}

static void dfs_set_shard(struct dfs *d, unsigned i, unsigned n)
{
	if (n < 1 || i >= n || d->started)
		rg_bug("dfs_set_shard(%u, %u) on a %s search", i, n,
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

static void dfs_set_quiet(struct dfs *d, const bool *quiet, size_t n)
{
	if (d->started)
		rg_bug("dfs_set_quiet on a started search");
	free(d->quiet_at);
	d->quiet_at = xcalloc(n ? n : 1, sizeof(bool));
	memcpy(d->quiet_at, quiet, n * sizeof(bool));
	d->nquiet_at = n;
}

static bool dfs_owned(const void *st)
{
	const struct dfs *d = st;

	return d->owned && d->fresh;
}

static void node_release(struct dfs_node *nd)
{
	free(nd->runnable);
	free(nd->tried);
}

static void cut_tree(struct dfs *d, size_t from)
{
	for (size_t k = from; k < d->n; k++)
		node_release(&d->v[k]);
	if (d->n > from)
		d->n = from;
}

static void dfs_release(void *st)
{
	struct dfs *d = st;

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

static const explore_sched *known_run(const struct dfs *d, const int *prefix, size_t n)
{
	uint64_t key = prefix_key(prefix, n);

	for (size_t i = 0; i < d->nknown; i++)
		if (d->known[i].key == key && d->known[i].nprefix == n &&
		    (!n || !memcmp(d->known[i].prefix, prefix, n * sizeof(int))))
			return &d->known[i].run;
	return NULL;
}

/* Keeps what s, run with prefix, decided, for later passes, if it has room. */
static void know(struct dfs *d, const explore_sched *s, const int *prefix, size_t nprefix)
{
	struct dfs_known *k;

	if (d->known_steps + s->nsteps > DFS_KNOWN_STEPS || known_run(d, prefix, nprefix))
		return;
	RG_GROW(d->known, d->nknown + 1, d->capknown);
	k = &d->known[d->nknown++];
	memset(k, 0, sizeof(*k));
	k->key = prefix_key(prefix, nprefix);
	k->nprefix = nprefix;
	k->prefix = xcalloc(nprefix ? nprefix : 1, sizeof(int));
	if (nprefix)
		memcpy(k->prefix, prefix, nprefix * sizeof(int));
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

static void feed(struct dfs *d, const explore_sched *s, const int *prefix, size_t nprefix,
		 bool keep);

/* A schedule of the search, with its prefix: the choices it makes first. */
static struct dfs_sched *dfs_sched(explore_sched *s, const int *prefix, size_t n)
{
	struct dfs_sched *p = xcalloc(1, sizeof(*p));

	if (n) {
		p->prefix = xcalloc(n, sizeof(int));
		memcpy(p->prefix, prefix, n * sizeof(int));
	}
	p->nprefix = n;
	explore_sched_start(s, &strategy_dfs, p);
	return p;
}

static bool dfs_next(void *st, uint64_t k, explore_sched *s)
{
	struct dfs *d = st;
	const explore_sched *was;
	struct dfs_sched *p;

	(void)k;               /* each schedule follows from the ones before */
	for (;;) {
		if (d->done)
			return false;
		if (d->started && d->nnext) {
			p = dfs_sched(s, d->next, d->nnext);
		} else {
			p = dfs_sched(s, NULL, 0);
			/* a pass's first schedule: the default order, phase (0, 0)'s own */
			d->fresh = d->cost == 0 && d->quiet == 0;
			d->level_fresh += d->fresh;
		}
		d->started = true;
		/* a schedule run before, only to learn the tree: as it went then */
		if (d->fresh || !(was = known_run(d, p->prefix, p->nprefix)))
			return true;
		feed(d, was, p->prefix, p->nprefix, false);
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
static bool at_quiet(const struct dfs *d, long gate)
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
 * dfs_owned says so) and so numbers the subtrees alike; a subtree
 * of another shard at level split or below is skipped unrun.  Each phase
 * numbers its pass's subtrees afresh.  False: skip this choice.
 */
static bool shard_takes(struct dfs *d, size_t bt)
{
	int level = 1;

	if (d->shard_n <= 1)
		return true;
	for (size_t k = 0; k < bt; k++)
		level += d->v[k].chosen != explore_default_choice(d->v[k].cur, d->v[k].runnable,
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
static bool in_pass(const struct dfs *d, size_t cost, size_t quiet, bool *fresh)
{
	*fresh = cost == d->cost && quiet == d->quiet;
	return *fresh || (cost < d->cost && quiet <= d->quiet &&
			  d->quiet - quiet <= d->cost - cost);
}

/* The deepest node with an untried alternative in this pass, marked tried. */
static bool backtrack(struct dfs *d)
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
static bool next_phase(struct dfs *d)
{
	cut_tree(d, 0);
	d->started = false;
	d->nnext = 0;
	d->nsub = 1;
	d->sub = 0;
	d->owned = d->shard_n <= 1 || d->shard_i == 0;
	d->phase_no++;
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

/*
 * The unsharded search runs phase by phase, and within a pass meets the
 * subtrees in the order they are numbered, each one whole: (phase,
 * subtree) orders the schedules of different shards as it would.
 */
static void dfs_rank(const void *st, uint64_t k, uint64_t rank[2])
{
	const struct dfs *d = st;

	(void)k;
	rank[0] = (uint64_t)d->phase_no + 1;
	rank[1] = (uint64_t)d->sub;
}

static void dfs_observe(void *st, const explore_sched *s)
{
	const struct dfs_sched *p = s->own;

	if (s->strategy != &strategy_dfs)
		rg_bug("dfs fed a schedule it did not hand out");
	feed(st, s, p->prefix, p->nprefix, true);
}

/*
 * Did run s go down the tree along its prefix, node by node?  A program
 * that decides differently from run to run may not: its threads reach
 * other points, or others can run.  Merging such a run would cut the tree
 * above the choice just tried and make it untried again (and the search
 * could choose the same way for ever).
 */
static bool followed(const struct dfs *d, const explore_sched *s, const int *prefix,
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
static void feed(struct dfs *d, const explore_sched *s, const int *prefix, size_t nprefix,
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
		know(d, s, prefix, nprefix);
	if (!backtrack(d) && !next_phase(d))
		d->done = true;
}

static int dfs_choose(explore_sched *s, const explore_at *at, const int *runnable, size_t n)
{
	const struct dfs_sched *p = s->own;

	if (s->nsteps < p->nprefix && explore_has(runnable, n, p->prefix[s->nsteps]))
		return p->prefix[s->nsteps];
	return explore_default_choice(at->cur, runnable, n);
}

static void dfs_sched_free(void *own)
{
	struct dfs_sched *p = own;

	free(p->prefix);
	free(p);
}

static void *dfs_init(const strategy_cfg *cfg)
{
	struct dfs *d = dfs_new(cfg->bound, cfg->bound_kind);

	if (cfg->shard_n > 1)
		dfs_set_shard(d, cfg->shard_i, cfg->shard_n);
	if (cfg->quiet)
		dfs_set_quiet(d, cfg->quiet, cfg->nquiet);
	return d;
}

static void dfs_tally(const void *st, strategy_tally *t)
{
	const struct dfs *d = st;

	t->diverged = d->diverged;
	t->bound = xasprintf("with at most %d %s%s", d->bound,
			     d->kind == EXPLORE_PREEMPTIONS ? "preemption" : "delay",
			     d->bound == 1 ? "" : "s");
}

static const strategy_opt dfs_opts[] = {
	{ "--delays", "K", "every schedule with at most K delays (default 3), fewest first" },
	{ "--preemptions", "K", "or: every schedule with at most K preemptions" },
	{ NULL, NULL, NULL },
};

const explore_strategy strategy_dfs = {
	.name = "dfs",
	.help = "depth-first: every schedule within a bound of delays or preemptions, "
		"fewest first",
	.opts = dfs_opts,
	.init = dfs_init,
	.next = dfs_next,
	.observe = dfs_observe,
	.owned = dfs_owned,
	.rank = dfs_rank,
	.tally = dfs_tally,
	.release = dfs_release,
	.choose = dfs_choose,
	.free_sched = dfs_sched_free,
};
