/*
 * pct-fair: pct (strategy_pct.c, strategy_pct.h) that does not starve the thread the
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
#include "strategy_pct.h"

#include <stdlib.h>

/*
 * Laps alone at one point that make a spin.  A spin-wait goes round for
 * ever; a loop that works goes round too, and is let go on this long
 * before it is taken to spin (then another thread runs for a while, which
 * is no harm to a search, only a switch pct would not have made).  Each
 * lap costs the decisions of its points, so a spin costs about ten times
 * the loop's points, where the decider's limit is 10,000 decisions.
 */
#define FAIR_LAPS 10

extern const explore_strategy strategy_pct_fair;

static void *fair_init(const strategy_cfg *cfg)
{
	return pct_search_new(cfg, &strategy_pct_fair);
}

/* without --pct-steps: the fair default order first, to count its decisions */
static bool fair_first(void *st, explore_sched *s)
{
	const struct pct_search *x = st;

	if (x->est_steps)
		return false;
	pct_sched_new(s, &strategy_pct_fair, 1, 1, x->seed, 0)->first = true;
	return true;
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

/*
 * pct's choice, but a spinner drops just below the best other thread: it
 * takes that one's prio and a sub below every sub given before.
 */
static int fair_choose(explore_sched *s, const explore_at *at, const int *runnable,
		       size_t n)
{
	struct pct_sched *p = s->own;
	const struct pct_prio *best = NULL;
	int cur = at->cur;

	if (p->first)
		return first_choose(at, runnable, n);
	pct_draw(s, at, runnable, n);
	if (spins(at, runnable, n)) {
		for (size_t i = 0; i < n; i++)
			if (runnable[i] != cur &&
			    (!best || pct_above(pct_prio_of(p, runnable[i]), best)))
				best = pct_prio_of(p, runnable[i]);
		if (pct_above(&p->prio[cur], best))
			p->prio[cur] = (struct pct_prio){ best->prio, --p->low };
	}
	return pct_best(p, runnable, n);
}

static int fair_parse(const char *id, explore_sched *s, rg_err *err)
{
	return pct_parse_as(&strategy_pct_fair, id, s, err);
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
	.learn = pct_learn,
	.next = pct_next,
	.release = free,
	.choose = fair_choose,
	.id = pct_id,
	.free_sched = pct_free,
	.parse_id = fair_parse,
};
