/*
 * check_explore: the strategies of `racegate explore` against a synthetic
 * program model (no ptrace), each driven through the table (strategy.h)
 * as explore's search drives it; the shrinker, schedule ids, and the
 * gates file the explorer writes (loaded back with the spec loader).
 */
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "explore_int.h"
#include "strategy.h"
#include "spec.h"

/*
 * The model: threads, each a list of operations on shared ints; before
 * each operation the thread stands at a point (its pc) and the schedule
 * chooses who goes on.  A thread with no operation left is gone.
 */
enum op { LOAD, STORE_INC };

struct model {
	int nthreads;
	int nops;              /* per thread */
	enum op ops[4];
};

/* Runs m under s; returns the final counter. */
static int run_model(const struct model *m, explore_sched *s)
{
	int pc[8] = {0}, tmp[8] = {0}, counter = 0, cur = -1, runnable[8];

	for (;;) {
		size_t n = 0;
		long gate = -1, hit = 0;
		int c;

		for (int t = 0; t < m->nthreads; t++)
			if (pc[t] < m->nops)
				runnable[n++] = t;
		if (!n)
			return counter;
		if (cur >= 0 && pc[cur] < m->nops) {
			gate = pc[cur];
			hit = 1;
		}
		c = explore_choose(s, cur, gate, hit, runnable, n);
		if (m->ops[pc[c]] == LOAD)
			tmp[c] = counter;
		else
			counter = tmp[c] + 1;
		pc[c]++;
		cur = c;
	}
}

static const struct model lost_update = { 2, 2, { LOAD, STORE_INC } };
static const struct model three = { 3, 2, { LOAD, STORE_INC } };
static const struct model four = { 4, 2, { LOAD, STORE_INC } };
static const struct model three_long = { 3, 3, { LOAD, STORE_INC, LOAD } };

static const explore_strategy *row(const char *name)
{
	const explore_strategy *st = explore_strategy_named(name);

	ck_assert_msg(st != NULL, "no strategy '%s' in the table", name);
	return st;
}

static strategy_cfg seeded(uint64_t seed, int depth, long est_steps)
{
	return (strategy_cfg){ .seed = seed, .depth = depth, .est_steps = est_steps,
			       .shard_n = 1 };
}

static strategy_cfg bounded(enum explore_bound_kind kind, int bound)
{
	return (strategy_cfg){ .bound = bound, .bound_kind = kind, .shard_n = 1 };
}

/* The first schedule (of max) of the search that loses an update, or -1. */
static long first_failure(const explore_strategy *st, const strategy_cfg *cfg, long max)
{
	strategy_search *x = strategy_search_new(st, cfg);
	explore_sched s;
	long found = -1;

	if (strategy_first(x, &s)) {
		run_model(&lost_update, &s);
		strategy_learn(x, &s);
		explore_sched_release(&s);
	}
	for (long i = 0; i < max && found < 0 && strategy_next(x, (uint64_t)i, &s); i++) {
		if (run_model(&lost_update, &s) != 2)
			found = i;
		strategy_observe(x, &s);
		explore_sched_release(&s);
	}
	strategy_search_free(x);
	return found;
}

START_TEST(random_finds_lost_update)
{
	strategy_cfg cfg = seeded(1, 0, 0);
	long i = first_failure(row("random"), &cfg, 100);

	ck_assert_int_ge(i, 0);
	/* the same seed finds it at the same schedule */
	ck_assert_int_eq(first_failure(row("random"), &cfg, 100), i);
}
END_TEST

START_TEST(pct_depth2_finds_lost_update)
{
	strategy_cfg cfg = seeded(42, 2, 4);

	ck_assert_int_ge(first_failure(row("pct"), &cfg, 100), 0);
	/* without --pct-steps, from a first run in the default order */
	cfg.est_steps = 0;
	ck_assert_int_ge(first_failure(row("pct"), &cfg, 100), 0);
}
END_TEST

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DFS: how many schedules until the search ends, and whether one failed. */
static size_t run_dfs(const struct model *m, int bound, bool *failed, size_t *fail_at)
{
	strategy_cfg cfg = bounded(EXPLORE_PREEMPTIONS, bound);
	strategy_search *x = strategy_search_new(row("dfs"), &cfg);
	explore_sched s;
	size_t n = 0;

	*failed = false;
	while (strategy_next(x, n, &s)) {
		int c = run_model(m, &s);

		if (c != m->nthreads && !*failed) {
			*failed = true;
			*fail_at = n;
		}
		strategy_observe(x, &s);
		explore_sched_release(&s);
		n++;
		ck_assert_uint_lt(n, 1000);
	}
	strategy_search_free(x);
	return n;
}

START_TEST(dfs_bound_finds_lost_update)
{
	bool failed;
	size_t at = 0, n;

	/* no preemption: one thread after the other (either may start: the
	 * first choice preempts nobody), never a lost update */
	n = run_dfs(&lost_update, 0, &failed, &at);
	ck_assert(!failed);
	ck_assert_uint_eq(n, 2);
	/* one preemption is enough */
	run_dfs(&lost_update, 1, &failed, &at);
	ck_assert(failed);
	/* unbounded: every interleaving of 2 x 2 operations, once: 4!/(2!2!) */
	n = run_dfs(&lost_update, 64, &failed, &at);
	ck_assert_uint_eq(n, 6);
}
END_TEST

/* a and b made the same decisions */
static void same_choices(const explore_sched *a, const explore_sched *b)
{
	ck_assert_uint_eq(a->nsteps, b->nsteps);
	for (size_t i = 0; i < a->nsteps; i++)
		ck_assert_int_eq(a->steps[i].chosen, b->steps[i].chosen);
}

/* Same seed and index: the same decisions; the id names it. */
START_TEST(seeds_are_deterministic)
{
	strategy_cfg cfg = seeded(7, 3, 4);
	strategy_search *x = strategy_search_new(row("pct"), &cfg);
	explore_sched a, b, c;
	rg_err err = RG_ERR_INIT;
	char *id;

	for (uint64_t k = 0; k <= 5; k++) {
		strategy_next(x, k, &a);
		if (k < 5)
			explore_sched_release(&a);
	}
	id = explore_sched_id(&a);
	ck_assert_int_eq(explore_id_parse(id, &b, &err), 0);
	run_model(&lost_update, &a);
	run_model(&lost_update, &b);
	same_choices(&a, &b);
	/* a forced schedule of a's deviations decides the same */
	{
		explore_dev *devs;
		size_t n = explore_deviations(&a, &devs);
		char *fid = explore_id_forced(devs, n);

		ck_assert_int_eq(explore_id_parse(fid, &c, &err), 0);
		ck_assert_ptr_eq(c.strategy, &strategy_forced);
		run_model(&lost_update, &c);
		same_choices(&c, &a);
		free(fid);
		free(devs);
		explore_sched_release(&c);
	}
	ck_assert_str_eq(id, "pct:3:4:7:5");
	free(id);
	explore_sched_release(&a);
	explore_sched_release(&b);
	strategy_search_free(x);
	ck_assert_int_lt(explore_id_parse("pct:0:4:7:5", &a, &err), 0);
	ck_assert_int_lt(explore_id_parse("random:1", &a, &err), 0);
	/* the message shows every form of id the table prints */
	ck_assert_ptr_eq(strstr(err.msg, "bad schedule id 'random:1' (racegate explore prints "
				"ids as random:SEED:INDEX, pct:DEPTH:STEPS:SEED:INDEX"), err.msg);
	for (const explore_strategy *const *r = explore_strategies; *r; r++)
		if ((*r)->id_prefix)
			ck_assert_ptr_nonnull(strstr(err.msg, (*r)->id_form));
	ck_assert_ptr_nonnull(strstr(err.msg, " or dev:CUR.POINT.HIT.THREAD,...)"));
	ck_assert_int_lt(explore_id_parse("dfs:1", &a, &err), 0);
	ck_assert_int_lt(explore_id_parse("dev:1.2.3", &a, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "dev:1.2.3"));
}
END_TEST

/*
 * Time passing is a choice (EXPLORE_FIRE + the sleeper's id), after the
 * held threads: the default order never takes it while one can run, a
 * dev: id names it sN and replays it, and pct ranks it as its thread.
 */
START_TEST(time_passing_is_a_choice)
{
	const int run[] = { 0, 2, EXPLORE_FIRE + 1 };
	const explore_dev want = { 0, 4, 1, EXPLORE_FIRE + 1 };
	explore_sched f, g, p;
	explore_dev *devs;
	rg_err err = RG_ERR_INIT;
	char *id;
	size_t n;
	int c;

	ck_assert_int_eq(explore_thread_of(EXPLORE_FIRE + 1), 1);
	ck_assert_int_eq(explore_thread_of(2), 2);
	/* cur (0) can run: the default keeps it; cur asleep: the lowest held */
	ck_assert_int_eq(explore_default_choice(0, run, 3), 0);
	ck_assert_int_eq(explore_default_choice(1, run, 3), 0);
	explore_sched_init_forced(&f, &want, 1);
	ck_assert_int_eq(explore_choose(&f, 0, 4, 1, run, 3), EXPLORE_FIRE + 1);
	ck_assert(f.steps[0].preempt);          /* cur could have gone on */
	n = explore_deviations(&f, &devs);
	ck_assert_uint_eq(n, 1);
	id = explore_id_forced(devs, n);
	ck_assert_str_eq(id, "dev:0.4.1.s1");
	ck_assert_int_eq(explore_id_parse(id, &g, &err), 0);
	c = explore_choose(&g, 0, 4, 1, run, 3);
	ck_assert_int_eq(c, EXPLORE_FIRE + 1);
	ck_assert_int_lt(explore_id_parse("dev:0.4.1.s", &p, &err), 0);
	ck_assert_int_lt(explore_id_parse("dev:0.4.1.s1048576", &p, &err), 0);
	free(id);
	free(devs);
	explore_sched_release(&f);
	explore_sched_release(&g);
	/* pct: the sleeper's turn comes at its thread's priority */
	ck_assert_int_eq(explore_id_parse("pct:1:10:1:0", &p, &err), 0);
	{
		const int two[] = { 0, EXPLORE_FIRE + 1 };
		const int one[] = { 0, 1 };
		explore_sched q;
		int a, b;

		a = explore_choose(&p, -1, -1, 0, two, 2);
		ck_assert_int_eq(explore_id_parse("pct:1:10:1:0", &q, &err), 0);
		b = explore_choose(&q, -1, -1, 0, one, 2);
		ck_assert_int_eq(explore_thread_of(a), b);
		explore_sched_release(&q);
	}
	explore_sched_release(&p);
}
END_TEST

/* --shard I/N: schedule indices I, I+N, I+2N...: each index in one shard. */
START_TEST(shards_partition_indices)
{
	int seen[60] = {0};

	for (uint64_t shard = 0; shard < 3; shard++)
		for (uint64_t k = 0; k < 20; k++)
			seen[explore_shard_index(shard, 3, k)]++;
	for (int i = 0; i < 60; i++)
		ck_assert_int_eq(seen[i], 1);
}
END_TEST

/*
 * A search of st on m, as explore's search() drives it: the first run,
 * then schedules 0, 1, ... (at most max), each observed once run.  One
 * line per schedule into out: "own" or "learn", the choices, the final
 * counter, and the schedule's id; the tally at the end.
 */
static void transcript(const explore_strategy *st, const strategy_cfg *cfg,
		       const struct model *m, long max, rg_buf *out)
{
	strategy_search *x = strategy_search_new(st, cfg);
	explore_sched s;
	strategy_tally t;
	long k;

	if (strategy_first(x, &s)) {
		rg_buf_printf(out, "first counter %d\n", run_model(m, &s));
		strategy_learn(x, &s);
		explore_sched_release(&s);
	}
	for (k = 0; k < max && strategy_next(x, (uint64_t)k, &s); k++) {
		bool mine = strategy_owned(x);
		int counter = run_model(m, &s);
		char *id = explore_sched_id(&s);

		rg_buf_puts(out, mine ? "own " : "learn ");
		for (size_t i = 0; i < s.nsteps; i++)
			rg_buf_printf(out, "%d", s.steps[i].chosen);
		rg_buf_printf(out, " =%d %s\n", counter, id);
		free(id);
		strategy_observe(x, &s);
		explore_sched_release(&s);
	}
	strategy_tally_of(x, &t);
	rg_buf_printf(out, "end after %ld, diverged %ld, bound %s\n", k, t.diverged,
		      t.bound ? t.bound : "none");
	free(t.bound);
	strategy_search_free(x);
}

/*
 * Every row of the table, through the interface: a search is the same
 * search every time; each schedule's id parses back into a schedule that
 * decides as it did; a strategy that hands out schedule k from k alone
 * (--jobs) does so in a search of its own, and its shards (--shard) run
 * exactly the whole search's schedules.
 */
START_TEST(every_row_through_the_table)
{
	size_t nrows = 0;

	for (const explore_strategy *const *r = explore_strategies; *r; r++) {
		const explore_strategy *st = *r;
		strategy_cfg cfg = { .seed = 3, .depth = 3, .bound = 2, .shard_n = 1 };
		rg_buf a = RG_BUF_INIT, b = RG_BUF_INIT;
		strategy_search *x;
		explore_sched s;

		nrows++;
		ck_assert_ptr_nonnull(st->choose);
		ck_assert_ptr_nonnull(st->free_sched);
		ck_assert(st->name || st->id_prefix);
		if (!st->name)
			continue;      /* forced: no search of its own (seeds_are_deterministic) */
		ck_assert_ptr_eq(explore_strategy_named(st->name), st);
		transcript(st, &cfg, &three_long, 40, &a);
		transcript(st, &cfg, &three_long, 40, &b);
		ck_assert_str_eq(a.s, b.s);
		x = strategy_search_new(st, &cfg);
		if (strategy_first(x, &s)) {
			run_model(&three_long, &s);
			strategy_learn(x, &s);
			explore_sched_release(&s);
		}
		for (uint64_t k = 0; k < 40 && strategy_next(x, k, &s); k++) {
			explore_sched again, alone;
			rg_err err = RG_ERR_INIT;
			char *id;

			run_model(&three_long, &s);
			id = explore_sched_id(&s);
			ck_assert_msg(explore_id_parse(id, &again, &err) == 0, "%s: %s", id,
				      err.msg);
			run_model(&three_long, &again);
			same_choices(&again, &s);
			explore_sched_release(&again);
			if (strategy_independent(st)) {
				strategy_search *y = strategy_search_new(st, &cfg);

				if (strategy_first(y, &alone)) {
					run_model(&three_long, &alone);
					strategy_learn(y, &alone);
					explore_sched_release(&alone);
				}
				ck_assert(strategy_next(y, k, &alone));
				run_model(&three_long, &alone);
				same_choices(&alone, &s);
				explore_sched_release(&alone);
				strategy_search_free(y);
			}
			free(id);
			strategy_observe(x, &s);
			explore_sched_release(&s);
		}
		strategy_search_free(x);
		rg_buf_release(&a);
		rg_buf_release(&b);
	}
	ck_assert_uint_ge(nrows, 4);
}
END_TEST

/* FNV-1a over the bytes of text. */
static uint64_t digest(const char *text)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ull;
	}
	return h;
}

/*
 * The schedules random, pct and dfs hand out are those they handed out
 * before they were rows of a table (when explore_choose switched on their
 * kind): the same choices, ids and deviations, schedule for schedule, on
 * four models, for several seeds, depths, bounds, quiet points and
 * shards.  The digests are of the transcripts the code before the table
 * wrote in this same format (18,660 lines); a change in any choice shows.
 */
START_TEST(transcripts_as_before)
{
	static const struct model *const models[] = { &lost_update, &three, &four, &three_long };
	static const uint64_t seeds[] = { 1, 7, 12345 }, pseeds[] = { 1, 42 };
	static const int pcts[][2] = { { 1, 4 }, { 2, 4 }, { 3, 6 }, { 3, 1 }, { 5, 10 } };
	static const bool quiet[3] = { false, true, false };
	rg_buf tr[3] = { RG_BUF_INIT, RG_BUF_INIT, RG_BUF_INIT };
	size_t lines[3] = { 0, 0, 0 };

	for (int mi = 0; mi < 4; mi++) {
		for (int si = 0; si < 3; si++) {
			strategy_cfg cfg = seeded(seeds[si], 0, 0);
			strategy_search *x = strategy_search_new(row("random"), &cfg);

			for (uint64_t k = 0; k < 30; k++) {
				explore_sched s;
				explore_dev *d;
				size_t n;
				char *id, *fid;
				int counter;

				strategy_next(x, k, &s);
				id = explore_sched_id(&s);
				counter = run_model(models[mi], &s);
				rg_buf_printf(&tr[0], "m%d %s ", mi, id);
				for (size_t i = 0; i < s.nsteps; i++)
					rg_buf_printf(&tr[0], "%d", s.steps[i].chosen);
				n = explore_deviations(&s, &d);
				fid = explore_id_forced(d, n);
				rg_buf_printf(&tr[0], " =%d %s\n", counter, fid);
				lines[0]++;
				free(d);
				free(id);
				free(fid);
				explore_sched_release(&s);
			}
			strategy_search_free(x);
		}
		for (int pi = 0; pi < 5; pi++)
			for (int si = 0; si < 2; si++) {
				strategy_cfg cfg = seeded(pseeds[si], pcts[pi][0], pcts[pi][1]);
				strategy_search *x = strategy_search_new(row("pct"), &cfg);
				explore_sched s;

				ck_assert(!strategy_first(x, &s));   /* --pct-steps given */
				for (uint64_t k = 0; k < 30; k++) {
					char *id;
					int counter;

					strategy_next(x, k, &s);
					id = explore_sched_id(&s);
					counter = run_model(models[mi], &s);
					rg_buf_printf(&tr[1], "m%d %s ", mi, id);
					for (size_t i = 0; i < s.nsteps; i++)
						rg_buf_printf(&tr[1], "%d", s.steps[i].chosen);
					rg_buf_printf(&tr[1], " =%d\n", counter);
					lines[1]++;
					free(id);
					explore_sched_release(&s);
				}
				strategy_search_free(x);
			}
	}
	for (int mi = 0; mi < 4; mi++)
		for (int kind = EXPLORE_DELAYS; kind <= EXPLORE_PREEMPTIONS; kind++)
			for (int bound = 0; bound <= 3; bound++)
				for (int q = 0; q < 2; q++)
					for (unsigned sh = 0; sh < 4; sh++) {
						unsigned si = sh ? sh - 1 : 0, sn = sh ? 3 : 1;
						strategy_cfg cfg = bounded((enum explore_bound_kind)kind,
									   bound);
						strategy_search *x;
						explore_sched s;
						strategy_tally t;
						char head[64];
						long runs = 0;

						cfg.quiet = q ? quiet : NULL;
						cfg.nquiet = q ? 3 : 0;
						cfg.shard_i = si;
						cfg.shard_n = sn;
						x = strategy_search_new(row("dfs"), &cfg);
						snprintf(head, sizeof(head), "m%d dfs k%d b%d q%d s%u/%u",
							 mi, kind, bound, q, si, sn);
						while (strategy_next(x, (uint64_t)runs, &s)) {
							char *id;
							int counter;

							rg_buf_printf(&tr[2], "%s %s ", head,
								      strategy_owned(x) ? "own" : "learn");
							counter = run_model(models[mi], &s);
							for (size_t i = 0; i < s.nsteps; i++)
								rg_buf_printf(&tr[2], "%d", s.steps[i].chosen);
							id = explore_sched_id(&s);
							rg_buf_printf(&tr[2], " =%d %s\n", counter, id);
							lines[2]++;
							free(id);
							strategy_observe(x, &s);
							explore_sched_release(&s);
							ck_assert_int_lt(++runs, 100000);
						}
						strategy_tally_of(x, &t);
						rg_buf_printf(&tr[2], "%s end diverged %ld\n", head,
							      t.diverged);
						lines[2]++;
						free(t.bound);
						strategy_search_free(x);
					}
	ck_assert_uint_eq(lines[0], 360);
	ck_assert_uint_eq(digest(tr[0].s), 0x6ef2f29540248454ull);
	ck_assert_uint_eq(lines[1], 1200);
	ck_assert_uint_eq(digest(tr[1].s), 0x825629f1b3f0724dull);
	ck_assert_uint_eq(lines[2], 17100);
	ck_assert_uint_eq(digest(tr[2].s), 0x8d219282c2620ac8ull);
	for (int i = 0; i < 3; i++)
		rg_buf_release(&tr[i]);
}
END_TEST

/*
 * The schedules a (possibly sharded) DFS runs as its own, each as the
 * string of its choices, sorted; *runs counts every run, discovery included.
 */
static char **dfs_schedules(const struct model *m, enum explore_bound_kind kind, int bound,
			    unsigned i, unsigned n, size_t *count, size_t *runs)
{
	strategy_cfg cfg = bounded(kind, bound);
	strategy_search *x;
	explore_sched s;
	char **v = NULL;

	cfg.shard_i = i;
	cfg.shard_n = n;
	x = strategy_search_new(row("dfs"), &cfg);
	*count = *runs = 0;
	while (strategy_next(x, *runs, &s)) {
		bool mine = strategy_owned(x);
		char *str;

		run_model(m, &s);
		str = xcalloc(s.nsteps + 1, 1);
		for (size_t k = 0; k < s.nsteps; k++)
			str[k] = (char)('0' + s.steps[k].chosen);
		if (mine) {
			v = xrealloc(v, (*count + 1) * sizeof(*v));
			v[(*count)++] = str;
		} else {
			free(str);
		}
		strategy_observe(x, &s);
		explore_sched_release(&s);
		ck_assert_uint_lt(++*runs, 100000);
	}
	strategy_search_free(x);
	if (*count)
		qsort(v, *count, sizeof(*v), cmp_str);
	return v;
}

/* --shard I/N of dfs: the shards' schedules are disjoint and together
 * exactly the unsharded search's, for several N and bounds */
START_TEST(dfs_shards_partition_the_tree)
{
	const struct {
		const struct model *m;
		enum explore_bound_kind kind;
		int bound;
	} cases[] = {
		{ &lost_update, EXPLORE_PREEMPTIONS, 64 }, { &three, EXPLORE_PREEMPTIONS, 1 },
		{ &three, EXPLORE_PREEMPTIONS, 2 }, { &three, EXPLORE_PREEMPTIONS, 64 },
		{ &four, EXPLORE_PREEMPTIONS, 2 }, { &three, EXPLORE_DELAYS, 2 },
		{ &four, EXPLORE_DELAYS, 3 },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t nall, runs;
		char **all = dfs_schedules(cases[c].m, cases[c].kind, cases[c].bound, 0, 1,
					   &nall, &runs);

		ck_assert_uint_eq(runs, nall);
		for (unsigned n = 2; n <= 7; n++) {
			char **got = NULL;
			size_t ngot = 0, extra = 0;

			for (unsigned i = 0; i < n; i++) {
				size_t k, r;
				char **v = dfs_schedules(cases[c].m, cases[c].kind, cases[c].bound,
							 i, n, &k, &r);

				extra += r - k;
				got = xrealloc(got, (ngot + k + 1) * sizeof(*got));
				if (k)
					memcpy(got + ngot, v, k * sizeof(*v));
				ngot += k;
				free(v);
			}
			/* union = unsharded, and no schedule twice (sorted, equal) */
			qsort(got, ngot, sizeof(*got), cmp_str);
			ck_assert_uint_eq(ngot, nall);
			for (size_t k = 0; k < ngot; k++) {
				ck_assert_str_eq(got[k], all[k]);
				free(got[k]);
			}
			free(got);
			/* learning the tree's branching costs a fraction, not a rerun */
			ck_assert_uint_le(extra, nall * (n - 1));
		}
		for (size_t k = 0; k < nall; k++)
			free(all[k]);
		free(all);
	}
}
END_TEST

/*
 * What a schedule (a string of thread digits) costs, counted here apart
 * from explore_choice_cost: a preemption leaves a thread that had
 * operations left; a delay skips, going round the thread numbers from
 * the default, each thread that could run.
 */
static int cost_of(const struct model *m, enum explore_bound_kind kind, const char *str,
		   int quiet_pc, int *nquiet)
{
	int left[8], cur = -1, cost = 0;

	*nquiet = 0;
	for (int t = 0; t < m->nthreads; t++)
		left[t] = m->nops;
	for (const char *p = str; *p; p++) {
		int c = *p - '0', from = cur, here = 0;

		if (from < 0 || !left[from])
			for (from = 0; !left[from]; from++)
				;
		if (kind == EXPLORE_PREEMPTIONS)
			here = c != from && cur >= 0 && left[cur];
		else
			for (int t = from; t != c; t = (t + 1) % m->nthreads)
				here += left[t] > 0;
		cost += here;
		/* cur stands at point quiet_pc: it has run that many operations */
		*nquiet += here && cur >= 0 && left[cur] && m->nops - left[cur] == quiet_pc;
		left[c]--;
		cur = c;
	}
	return cost;
}

/* Every interleaving of m's threads that costs at most bound, into v. */
static void all_within(const struct model *m, enum explore_bound_kind kind, int bound,
		       char *str, size_t len, int *left, char ***v, size_t *n)
{
	bool done = true;
	int nquiet;

	for (int t = 0; t < m->nthreads; t++) {
		if (!left[t])
			continue;
		done = false;
		str[len] = (char)('0' + t);
		str[len + 1] = '\0';
		left[t]--;
		all_within(m, kind, bound, str, len + 1, left, v, n);
		left[t]++;
	}
	str[len] = '\0';
	if (done && cost_of(m, kind, str, -1, &nquiet) <= bound) {
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = xstrdup(str);
	}
}

/*
 * dfs runs exactly the interleavings within its bound, each once, for
 * either bound; and delays make the smaller tree where threads are many
 * (delay bounding's point: the cost of a choice does not grow with them).
 */
START_TEST(dfs_runs_exactly_the_bounded_interleavings)
{
	const struct model *models[] = { &lost_update, &three, &four };
	size_t count[2][3];

	for (size_t mi = 0; mi < 3; mi++)
		for (int kind = EXPLORE_DELAYS; kind <= EXPLORE_PREEMPTIONS; kind++)
			for (int bound = 0; bound <= 3; bound++) {
				const struct model *m = models[mi];
				char str[16], **want = NULL, **got;
				int left[8];
				size_t nwant = 0, ngot, runs;

				for (int t = 0; t < m->nthreads; t++)
					left[t] = m->nops;
				all_within(m, kind, bound, str, 0, left, &want, &nwant);
				qsort(want, nwant, sizeof(*want), cmp_str);
				got = dfs_schedules(m, kind, bound, 0, 1, &ngot, &runs);
				ck_assert_uint_eq(ngot, nwant);
				for (size_t k = 0; k < ngot; k++) {
					ck_assert_str_eq(got[k], want[k]);
					free(got[k]);
					free(want[k]);
				}
				free(got);
				free(want);
				if (bound == 2)
					count[kind][mi] = ngot;
			}
	ck_assert_uint_lt(count[EXPLORE_DELAYS][2], count[EXPLORE_PREEMPTIONS][2]);
	{
		int rr[] = { 0, 1, 2 };

		/* cur 0 runnable: itself free, 1 one delay, 2 two */
		ck_assert_uint_eq(explore_choice_cost(EXPLORE_DELAYS, 0, rr, 3, 2), 2);
		/* cur gone: the default is the lowest; round from there */
		ck_assert_uint_eq(explore_choice_cost(EXPLORE_DELAYS, 5, rr, 3, 1), 1);
		ck_assert_uint_eq(explore_choice_cost(EXPLORE_DELAYS, 2, rr, 3, 0), 1);
		ck_assert_uint_eq(explore_choice_cost(EXPLORE_PREEMPTIONS, 5, rr, 3, 2), 0);
		ck_assert_uint_eq(explore_choice_cost(EXPLORE_PREEMPTIONS, 1, rr, 3, 2), 1);
	}
}
END_TEST

/*
 * The order of a delay-bounded search: fewest delays first, and among
 * schedules with as many, those that deviate at a quiet point (here:
 * point 1, where the thread that just loaded stands) after the rest.  The
 * rank of each schedule is counted here from its string.
 */
START_TEST(dfs_fewest_delays_first_quiet_last)
{
	const bool quiet[2] = { false, true };
	strategy_cfg cfg = bounded(EXPLORE_DELAYS, 3);
	strategy_search *x;
	explore_sched s;
	int last_cost = 0, last_quiet = 0;
	size_t runs = 0, quiet_ones = 0;

	cfg.quiet = quiet;
	cfg.nquiet = 2;
	x = strategy_search_new(row("dfs"), &cfg);
	while (strategy_next(x, runs, &s)) {
		char str[8] = "";
		int cost, nquiet;

		ck_assert(strategy_owned(x));
		run_model(&three, &s);
		for (size_t k = 0; k < s.nsteps; k++)
			str[k] = (char)('0' + s.steps[k].chosen);
		cost = cost_of(&three, EXPLORE_DELAYS, str, 1, &nquiet);
		ck_assert(cost > last_cost || (cost == last_cost && nquiet >= last_quiet));
		last_cost = cost;
		last_quiet = nquiet;
		quiet_ones += nquiet > 0;
		strategy_observe(x, &s);
		explore_sched_release(&s);
		runs++;
	}
	strategy_search_free(x);
	ck_assert_int_eq(last_cost, 3);
	ck_assert_uint_gt(quiet_ones, 0);
	ck_assert_uint_lt(quiet_ones, runs);
}
END_TEST

/*
 * A program that does not replay its prefixes: every other run, thread 2
 * is not yet runnable at the first decision.  What a pass keeps of such a
 * run must not be fed again as if it had followed the prefix (the search
 * would choose the same way for ever, running nothing): it ends, and
 * says how many runs went astray.
 */
START_TEST(dfs_ends_on_a_program_that_does_not_replay)
{
	strategy_cfg cfg = bounded(EXPLORE_DELAYS, 2);
	strategy_search *x = strategy_search_new(row("dfs"), &cfg);
	strategy_tally tally;
	explore_sched s;
	size_t runs = 0;

	while (strategy_next(x, runs, &s)) {
		int pc[3] = {0}, cur = -1;

		for (;;) {
			int runnable[3];
			size_t n = 0;
			long gate = -1;

			for (int t = 0; t < 3; t++)
				if (pc[t] < three.nops && !(t == 2 && runs % 2 && !s.nsteps))
					runnable[n++] = t;
			if (!n)
				break;
			if (cur >= 0 && pc[cur] < three.nops)
				gate = pc[cur];
			cur = explore_choose(&s, cur, gate, 1, runnable, n);
			pc[cur]++;
		}
		strategy_observe(x, &s);
		explore_sched_release(&s);
		ck_assert_uint_lt(++runs, 10000);
	}
	strategy_tally_of(x, &tally);
	ck_assert_int_gt(tally.diverged, 0);
	ck_assert_str_eq(tally.bound, "with at most 2 delays");
	free(tally.bound);
	strategy_search_free(x);
	ck_assert_uint_gt(runs, 1);
}
END_TEST

/*
 * pct-fair decides as pct does while no thread spins: the same choices,
 * schedule for schedule, on models whose threads never come back to a
 * point (its ids differ only by their prefix).
 */
START_TEST(pct_fair_is_pct_until_a_thread_spins)
{
	static const struct model *const models[] = { &lost_update, &three, &four, &three_long };
	static const int pcts[][2] = { { 1, 4 }, { 2, 4 }, { 3, 6 }, { 5, 10 } };

	for (int mi = 0; mi < 4; mi++)
		for (int pi = 0; pi < 4; pi++) {
			strategy_cfg cfg = seeded(9, pcts[pi][0], pcts[pi][1]);
			strategy_search *p = strategy_search_new(row("pct"), &cfg);
			strategy_search *f = strategy_search_new(row("pct-fair"), &cfg);

			for (uint64_t k = 0; k < 50; k++) {
				explore_sched a, b;
				char *ida, *idb;

				strategy_next(p, k, &a);
				strategy_next(f, k, &b);
				run_model(models[mi], &a);
				run_model(models[mi], &b);
				same_choices(&a, &b);
				ida = explore_sched_id(&a);
				idb = explore_sched_id(&b);
				ck_assert_str_eq(idb + strlen("pct-fair:"), ida + strlen("pct:"));
				free(ida);
				free(idb);
				explore_sched_release(&a);
				explore_sched_release(&b);
			}
			strategy_search_free(p);
			strategy_search_free(f);
		}
}
END_TEST

/* The synthetic failure needs deviations 3 and 7 and nothing else. */
static bool needs_3_and_7(void *ctx, explore_dev *devs, size_t *n)
{
	bool a = false, b = false;

	(*(int *)ctx)++;
	for (size_t i = 0; i < *n; i++) {
		a |= devs[i].thread == 3;
		b |= devs[i].thread == 7;
	}
	return a && b;
}

START_TEST(shrinker_keeps_what_matters)
{
	explore_dev *devs = xcalloc(10, sizeof(*devs));
	size_t n = 10;
	int calls = 0;

	for (int i = 0; i < 10; i++)
		devs[i] = (explore_dev){ 0, i, 1, i };
	explore_shrink(&devs, &n, needs_3_and_7, &calls);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(devs[0].thread, 3);
	ck_assert_int_eq(devs[1].thread, 7);
	ck_assert_int_lt(calls, 40);
	free(devs);
}
END_TEST

/* first() as --jobs answers it: every candidate run, the first failing one taken. */
static long all_at_once(void *ctx, explore_dev **cands, size_t *lens, size_t m, size_t *tried)
{
	long f = -1;

	for (size_t i = 0; i < m; i++) {
		size_t k = lens[i];

		if (needs_3_and_7(ctx, cands[i], &k) && f < 0) {
			f = (long)i;
			lens[i] = k;
		}
	}
	*tried = f < 0 ? m : (size_t)f + 1;
	return f;
}

/* A round's candidates decided together shrink as one after another do. */
START_TEST(shrinker_in_rounds_shrinks_alike)
{
	explore_dev *a = xcalloc(16, sizeof(*a)), *b = xcalloc(16, sizeof(*b));
	size_t na = 16, nb = 16, ra, rb;
	int calls = 0;

	for (int i = 0; i < 16; i++)
		a[i] = b[i] = (explore_dev){ 0, i, 1, i % 9 };
	ra = explore_shrink(&a, &na, needs_3_and_7, &calls);
	rb = explore_shrink_first(&b, &nb, all_at_once, &calls);
	ck_assert_uint_eq(na, nb);
	ck_assert_uint_eq(ra, rb);
	ck_assert_mem_eq(a, b, na * sizeof(*a));
	ck_assert_uint_eq(na, 2);
	free(a);
	free(b);
}
END_TEST

/*
 * The run of the lost update as the explorer records it: main (0) makes
 * worker 1 and 2; w1 loads (point 1) and is preempted at its store
 * (point 2) by w2, which loads and stores and exits; w1 stores.
 */
static void lost_update_run(explore_run *r, explore_step *st, explore_thread_info *th)
{
	memset(r, 0, sizeof(*r));
	th[0] = (explore_thread_info){ 100, NULL, 1, true, NULL, 0 };
	th[1] = (explore_thread_info){ 101, (char *)"worker", 1, false, NULL, 0 };
	th[2] = (explore_thread_info){ 102, (char *)"worker", 2, false, NULL, 0 };
	/* thread, gate, hit, preempt, prev, prev_stop, prev_gate, prev_hit */
	st[0] = (explore_step){ 1, 1, 1, false, -1, XS_NONE, 0, 0 };
	st[1] = (explore_step){ 2, 1, 1, true, 1, XS_ARRIVED, 2, 1 };
	st[2] = (explore_step){ 2, 2, 1, false, 2, XS_ARRIVED, 2, 1 };
	st[3] = (explore_step){ 1, 2, 1, false, 2, XS_EXITED, 0, 0 };
	r->steps = st;
	r->nsteps = 4;
	r->threads = th;
	r->nthreads = 3;
	r->fail = XF_EXIT;
	r->exit_code = 1;
}

/*
 * The same run with the workers in a forked child (--follow-fork): the
 * file names their process, and the program's own threads its process
 * too, so that racegate run follows the fork as the search did.
 */
START_TEST(writer_names_processes)
{
	static const char *const at[] = { "c.c:10", "c.c:21", "c.c:23" };
	char *cmd[] = { (char *)"./prefork", NULL };
	explore_step st[4];
	explore_thread_info th[4];
	explore_run r;
	explore_write_in in = { &r, at, cmd, "dev:1.2.1.2", "slots", NULL, NULL, 0, 0, NULL, false };
	rg_err err = RG_ERR_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;
	char *y;

	lost_update_run(&r, st, th);
	th[1].proc = th[2].proc = 1;
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(y != NULL, "%s", err.msg);
	ck_assert_ptr_nonnull(strstr(y, "child1_worker_1: {start: worker, nth: 1, process: {nth: 1}}"));
	ck_assert_ptr_nonnull(strstr(y, "thread: child1_worker_2, at: \"c.c:21\""));
	ck_assert_msg(spec_load_string(y, strlen(y), "w.yaml", ".", &sp, &d) == 0, "%s", y);
	ck_assert(spec_names_process(sp));
	spec_free(sp);
	sp = NULL;
	spec_diags_release(&d);
	free(y);

	/* a worker in the program, the other in the child; then the child's
	 * first thread, which has no start routine */
	th[1].proc = 0;
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(y != NULL, "%s", err.msg);
	ck_assert_ptr_nonnull(strstr(y, "worker_1: {start: worker, nth: 1, process: main}"));
	ck_assert_ptr_nonnull(strstr(y, "child1_worker_2: {start: worker, nth: 2, process: {nth: 1}}"));
	free(y);
	th[2] = (explore_thread_info){ 102, NULL, 1, false, NULL, 1 };
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(y != NULL, "%s", err.msg);
	ck_assert_ptr_nonnull(strstr(y, "child1: {process: {nth: 1}}"));
	ck_assert_msg(spec_load_string(y, strlen(y), "w.yaml", ".", &sp, &d) == 0, "%s", y);
	spec_free(sp);
	spec_diags_release(&d);
	free(y);
}
END_TEST

START_TEST(writer_yaml_loads)
{
	static const char *const at[] = { "c.c:10", "c.c:21", "c.c:23" };
	char *cmd[] = { (char *)"./lost_update", NULL };
	explore_step st[4];
	explore_thread_info th[3];
	explore_run r;
	explore_write_in in = { &r, at, cmd, "dev:1.2.1.2", "lost", NULL, NULL, 0, 0, NULL, false };
	rg_err err = RG_ERR_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;

	lost_update_run(&r, st, th);
	for (int lvl = 0; lvl < XW_NLEVELS; lvl++) {
		char *y = explore_write_yaml(&in, (enum explore_write_level)lvl, &err);

		ck_assert_msg(y != NULL, "%s", err.msg);
		ck_assert_msg(spec_load_string(y, strlen(y), "w.yaml", ".", &sp, &d) == 0,
			      "%s\n%s", y, d.n ? d.v[0].msg : "");
		ck_assert_uint_eq(d.nerrors, 0);
		ck_assert_int_eq(sp->expect.exit_code, 1);
		ck_assert(sp->expect.has_exit);
		/* w1 opens at its store and waits for w2's exit there */
		ck_assert_ptr_nonnull(strstr(y, "thread: worker_1, at: \"c.c:23\", "
					     "open: [worker_1-stop1], wait: [exited:worker_2]"));
		ck_assert_ptr_nonnull(strstr(y, "thread: worker_2, at: \"c.c:21\", "
					     "wait: [worker_1-stop1]"));
		ck_assert_ptr_nonnull(strstr(y, "worker_2: {start: worker, nth: 2}"));
		ck_assert_ptr_nonnull(strstr(y, "from schedule dev:1.2.1.2;\n"));
		spec_free(sp);
		sp = NULL;
		spec_diags_release(&d);
		free(y);
	}
	/* the default order's id is "dev:" alone, said as such */
	in.id = "dev:";
	{
		char *y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);

		ck_assert_msg(y && strstr(y, "from schedule dev: (the default order);\n"),
			      "%s", y ? y : err.msg);
		ck_assert_ptr_null(strstr(y, "dev::"));
		free(y);
	}
	/* a hang is expect: {timeout: true}, with explore's timeout */
	r.fail = XF_TIMEOUT;
	in.timeout_ms = 1500;
	{
		char *y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);

		ck_assert_msg(y != NULL, "%s", err.msg);
		ck_assert_msg(spec_load_string(y, strlen(y), "w.yaml", ".", &sp, &d) == 0,
			      "%s\n%s", y, d.n ? d.v[0].msg : "");
		ck_assert(sp->expect.timeout);
		ck_assert_int_eq(sp->timeout_ms, 1500);
		spec_free(sp);
		spec_diags_release(&d);
		free(y);
	}
	/* --expect FILE's expect:, regex and multiline too, is written whole */
	{
		spec_expect x;
		char *y;

		memset(&x, 0, sizeof(x));
		x.any = x.has_exit = x.multiline = x.stdout_regex = true;
		x.exit_code = 1;
		x.stdout_text = (char *)"DEL k -> DELETED.*GET k -> \"VALUE\"";
		x.stderr_text = (char *)"lost";
		r.fail = XF_EXPECTED;
		in.expect = &x;
		y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
		in.expect = NULL;
		ck_assert_msg(y != NULL, "%s", err.msg);
		ck_assert_msg(spec_load_string(y, strlen(y), "w.yaml", ".", &sp, &d) == 0,
			      "%s\n%s", y, d.n ? d.v[0].msg : "");
		ck_assert(sp->expect.has_exit && sp->expect.multiline && sp->expect.stdout_regex);
		ck_assert_int_eq(sp->expect.exit_code, 1);
		ck_assert_str_eq(sp->expect.stdout_text, x.stdout_text);
		ck_assert(!sp->expect.stderr_regex);
		ck_assert_str_eq(sp->expect.stderr_text, "lost");
		spec_free(sp);
		spec_diags_release(&d);
		free(y);
	}
	/* a stderr mismatch cannot be an expect: */
	r.fail = XF_OUTPUT;
	ck_assert_ptr_null(explore_write_yaml(&in, XW_PREEMPTIONS, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "stderr"));
}
END_TEST

/*
 * Dropping a gate takes what only it opened with it: drop w2's wait and
 * w1's open of the event nobody waits for any more goes too, leaving w1
 * waiting for w2's exit; drop both and nothing is left to write.
 */
START_TEST(writer_drops_gates)
{
	static const char *const at[] = { "c.c:10", "c.c:21", "c.c:23" };
	char *cmd[] = { (char *)"./lost_update", NULL };
	explore_step st[4];
	explore_thread_info th[3];
	explore_run r;
	bool drop[2] = { false, true };
	explore_write_in in = { &r, at, cmd, "dev:1.2.1.2", "lost", NULL, drop, 2, 0, NULL, false };
	rg_err err = RG_ERR_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;
	char *y;

	lost_update_run(&r, st, th);
	ck_assert_uint_eq(explore_write_ngates(&in, XW_PREEMPTIONS), 2);
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(y != NULL, "%s", err.msg);
	ck_assert_msg(spec_load_string(y, strlen(y), "w.yaml", ".", &sp, &d) == 0,
		      "%s\n%s", y, d.n ? d.v[0].msg : "");
	ck_assert_uint_eq(sp->ngates, 1);
	ck_assert_ptr_nonnull(strstr(y, "thread: worker_1, at: \"c.c:23\", "
				     "wait: [exited:worker_2]}"));
	ck_assert_ptr_null(strstr(y, "worker_1-stop1"));
	spec_free(sp);
	spec_diags_release(&d);
	free(y);
	/* without w1's gate, w2's wait has nothing to wait for: nothing left */
	drop[0] = true;
	drop[1] = false;
	ck_assert_ptr_null(explore_write_yaml(&in, XW_PREEMPTIONS, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "no gate"));
}
END_TEST

/*
 * C++ start routines: quoted in the file, which loads; aliases with one
 * '_' per run of punctuation; two names that differ only there still get
 * two aliases.
 */
START_TEST(writer_cxx_start_names)
{
	static const char *const at[] = { "c.cpp:10", "c.cpp:21", "c.cpp:23" };
	char *cmd[] = { (char *)"./shop", NULL };
	explore_step st[4];
	explore_thread_info th[3];
	explore_run r;
	explore_write_in in = { &r, at, cmd, "dev:1.2.1.2", "shop", NULL, NULL, 0, 0, NULL, false };
	rg_err err = RG_ERR_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;
	char *y;

	lost_update_run(&r, st, th);
	th[1].start = (char *)"main::{lambda()#1}";
	th[1].nth = 1;
	th[2].start = (char *)"main::{lambda()#1}::";
	th[2].nth = 1;
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(y != NULL, "%s", err.msg);
	ck_assert_msg(spec_load_string(y, strlen(y), "w.yaml", ".", &sp, &d) == 0,
		      "%s\n%s", y, d.n ? d.v[0].msg : "");
	ck_assert_ptr_nonnull(strstr(y, "  main_lambda_1_1: {start: \"main::{lambda()#1}\", nth: 1}"));
	ck_assert_ptr_nonnull(strstr(y, "  main_lambda_1_1_t2: {start: "));
	spec_free(sp);
	spec_diags_release(&d);
	free(y);
}
END_TEST

/*
 * Threads started through one wrapper are named by what they run under it
 * (runs:) when that tells them apart, else by start routine and rank; a
 * C++ start routine without its parameter types unless they are what
 * tells two apart.
 */
START_TEST(writer_runs_under_wrapper)
{
	static const char *const at[] = { "c.cpp:10", "c.cpp:21", "c.cpp:23" };
	char *cmd[] = { (char *)"./pool", NULL };
	explore_step st[4];
	explore_thread_info th[3];
	explore_run r;
	explore_write_in in = { &r, at, cmd, "dev:1.2.1.2", "pool", NULL, NULL, 0, 0, NULL, false };
	rg_err err = RG_ERR_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;
	char *y;

	lost_update_run(&r, st, th);
	th[1].start = th[2].start = (char *)"thread_main";
	th[1].runs = (char *)"flusher";
	th[2].runs = (char *)"Pool::prune(int)";
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(y != NULL, "%s", err.msg);
	ck_assert_msg(spec_load_string(y, strlen(y), "w.yaml", ".", &sp, &d) == 0,
		      "%s\n%s", y, d.n ? d.v[0].msg : "");
	ck_assert_msg(strstr(y, "  flusher_1: {runs: flusher}\n") &&
		      strstr(y, "  Pool_prune_int_1: {runs: \"Pool::prune(int)\"}\n"), "%s", y);
	spec_free(sp);
	sp = NULL;
	free(y);

	/* the same function under both: by rank */
	th[2].runs = (char *)"flusher";
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(strstr(y, "  thread_main_1: {start: thread_main, nth: 1}\n") &&
		      strstr(y, "  thread_main_2: {start: thread_main, nth: 2}\n"), "%s", y);
	free(y);
	/* asked not to */
	th[2].runs = (char *)"pruner";
	in.no_runs = true;
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(!strstr(y, "runs:"), "%s", y);
	free(y);

	/* parameter types only where they tell two start routines apart */
	in.no_runs = false;
	th[1].runs = th[2].runs = NULL;
	th[1].start = (char *)"shop::Inventory::restock(unsigned long, int)";
	th[2].start = (char *)"shop::audit(int)";
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(strstr(y, "  shop_Inventory_restock_1: {start: \"shop::Inventory::restock\", nth: 1}\n"),
		      "%s", y);
	free(y);
	th[2].start = (char *)"shop::Inventory::restock(char const*)";
	th[2].nth = 1;
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(strstr(y, "{start: \"shop::Inventory::restock(unsigned long, int)\", nth: 1}") &&
		      strstr(y, "{start: \"shop::Inventory::restock(char const*)\", nth: 1}"), "%s", y);
	free(y);
	spec_diags_release(&d);
}
END_TEST

/*
 * A preempting stretch that ends blocked (a condition wait): the
 * preempted thread waits for it to block after the stretch's last point
 * (open_when_blocked there), not for nothing.
 */
START_TEST(writer_blocked_stretch_is_waited_for)
{
	static const char *const at[] = { "c.c:30", "c.c:22", "c.c:39", "*pthread_cond_wait" };
	char *cmd[] = { (char *)"./cancel", NULL };
	explore_step st[4];
	explore_thread_info th[2];
	explore_run r;
	explore_write_in in = { &r, at, cmd, "dev:0.2.1.1", "cancel", NULL, NULL, 0, 2500, NULL, false };
	rg_err err = RG_ERR_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;
	char *y;

	memset(&r, 0, sizeof(r));
	th[0] = (explore_thread_info){ 100, NULL, 1, true, NULL, 0 };
	th[1] = (explore_thread_info){ 101, (char *)"worker", 1, false, NULL, 0 };
	/* thread, gate, hit, preempt, prev, prev_stop, prev_gate, prev_hit */
	st[0] = (explore_step){ 0, 0, 1, false, -1, XS_NONE, 0, 0 };
	st[1] = (explore_step){ 1, 1, 1, true, 0, XS_ARRIVED, 2, 1 };
	st[2] = (explore_step){ 1, 3, 1, false, 1, XS_ARRIVED, 3, 1 };
	st[3] = (explore_step){ 0, 2, 1, false, 1, XS_BLOCKED, 0, 0 };
	r.steps = st;
	r.nsteps = 4;
	r.threads = th;
	r.nthreads = 2;
	r.fail = XF_EXIT;
	r.exit_code = 1;
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(y != NULL, "%s", err.msg);
	ck_assert_msg(spec_load_string(y, strlen(y), "w.yaml", ".", &sp, &d) == 0,
		      "%s\n%s", y, d.n ? d.v[0].msg : "");
	ck_assert_msg(strstr(y, "thread: main, at: \"c.c:39\", open: [main-stop1], "
			     "wait: [worker_1-stop3]") != NULL, "%s", y);
	/* opened once it sleeps in its wait, not at the call: main's signal
	 * must not come before the worker is a waiter */
	ck_assert_msg(strstr(y, "thread: worker_1, at: \"*pthread_cond_wait\", "
			     "open_when_blocked: [worker_1-stop3]}") != NULL, "%s", y);
	/* the search's --timeout, not 10 s: a failing run may be slow */
	ck_assert_int_eq(sp->timeout_ms, 2500);
	ck_assert_ptr_nonnull(strstr(y, "\ntimeout: 2500ms\n"));
	spec_free(sp);
	spec_diags_release(&d);
	free(y);
}
END_TEST

/*
 * A sleep the program did not end: the worker (1) blocks in a wait (a
 * helper process's exit), main (0) goes on from h.c:30 (a read) to h.c:50,
 * and the worker wakes and gets to h.c:40 before the next decision; main
 * goes on to h.c:60 before the worker is chosen.  In the schedule main
 * read first; under racegate run the helper may exit sooner, so the
 * worker goes on from h.c:40 only once main is at h.c:50 and then at
 * h.c:60 (and main, as for any wake, only once the worker is at h.c:40).
 */
START_TEST(writer_sleeper_waits_for_what_ran)
{
	static const char *const at[] = { "h.c:10", "h.c:20", "h.c:30", "h.c:40", "h.c:50",
					  "h.c:60" };
	char *cmd[] = { (char *)"./launch", NULL };
	explore_step st[5];
	explore_thread_info th[2];
	explore_wake wk[1] = { { 3, 1, 3, 1 } };
	explore_run r;
	explore_write_in in = { &r, at, cmd, "dev:", "launch", NULL, NULL, 0, 0, NULL, false };
	rg_err err = RG_ERR_INIT;

	memset(&r, 0, sizeof(r));
	th[0] = (explore_thread_info){ 100, NULL, 1, true, NULL, 0 };
	th[1] = (explore_thread_info){ 101, (char *)"worker", 1, false, NULL, 0 };
	/* thread, gate, hit, preempt, prev, prev_stop, prev_gate, prev_hit */
	st[0] = (explore_step){ 1, 1, 1, false, -1, XS_NONE, 0, 0 };
	st[1] = (explore_step){ 0, 0, 1, false, 1, XS_BLOCKED, 0, 0 };
	st[2] = (explore_step){ 0, 2, 1, false, 0, XS_ARRIVED, 2, 1 };
	st[3] = (explore_step){ 0, 4, 1, false, 0, XS_ARRIVED, 4, 1 };
	st[4] = (explore_step){ 1, 3, 1, false, 0, XS_ARRIVED, 5, 1 };
	r.steps = st;
	r.nsteps = 5;
	r.threads = th;
	r.nthreads = 2;
	r.wakes = wk;
	r.nwakes = 1;
	r.fail = XF_EXIT;
	r.exit_code = 1;
	for (int lvl = 0; lvl < XW_NLEVELS; lvl++) {
		char *y = explore_write_yaml(&in, (enum explore_write_level)lvl, &err);

		ck_assert_msg(y != NULL, "%s", err.msg);
		ck_assert_msg(strstr(y, "thread: main, at: \"h.c:50\", open: [main-stop3], "
				     "wait: [worker_1-woke3]}"), "%s", y);
		const char *wk = strstr(y, "thread: worker_1, at: \"h.c:40\", open: "
					"[worker_1-woke3], wait: [");
		const char *eol = wk ? strchr(wk, '\n') : NULL;
		char line[256] = "";

		ck_assert_msg(wk && eol && eol - wk < (long)sizeof(line), "%s", y);
		memcpy(line, wk, (size_t)(eol - wk));
		ck_assert_msg(strstr(line, "main-stop3") && strstr(line, "main-stop4"), "%s", y);
		ck_assert_msg(strstr(y, "thread: main, at: \"h.c:60\", open: [main-stop4]"),
			      "%s", y);
		ck_assert_msg(strstr(y, "worker_1, woken from its wait, goes on from here "
				     "only once main got as far"), "%s", y);
		free(y);
	}
}
END_TEST

/*
 * A condition wait woken by the thread that ran: main (0) is preempted
 * before its signal (q.c:44) by the worker (1), which waits on the
 * condition and blocks; main signals and stops at q.c:45, and before the
 * next decision the woken worker got to q.c:54 (a wake the decider
 * recorded).  main must go on from q.c:45 only after that arrival, or it
 * takes the lock back first.
 */
START_TEST(writer_woken_arrival_is_waited_for)
{
	static const char *const at[] = { "q.c:40", "q.c:44", "q.c:71", "*pthread_cond_wait",
					  "q.c:45", "q.c:54" };
	char *cmd[] = { (char *)"./queue", NULL };
	explore_step st[5];
	explore_thread_info th[2];
	explore_wake wk[1] = { { 4, 1, 5, 1 } };
	explore_run r;
	explore_write_in in = { &r, at, cmd, "dev:0.1.1.1", "queue", NULL, NULL, 0, 0, NULL, false };
	rg_err err = RG_ERR_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;

	memset(&r, 0, sizeof(r));
	th[0] = (explore_thread_info){ 100, NULL, 1, true, NULL, 0 };
	th[1] = (explore_thread_info){ 101, (char *)"worker", 1, false, NULL, 0 };
	/* thread, gate, hit, preempt, prev, prev_stop, prev_gate, prev_hit */
	st[0] = (explore_step){ 0, 0, 1, false, -1, XS_NONE, 0, 0 };
	st[1] = (explore_step){ 1, 2, 1, true, 0, XS_ARRIVED, 1, 1 };
	st[2] = (explore_step){ 1, 3, 1, false, 1, XS_ARRIVED, 3, 1 };
	st[3] = (explore_step){ 0, 1, 1, false, 1, XS_BLOCKED, 0, 0 };
	st[4] = (explore_step){ 0, 4, 1, false, 0, XS_ARRIVED, 4, 1 };
	r.steps = st;
	r.nsteps = 5;
	r.threads = th;
	r.nthreads = 2;
	r.fail = XF_SIGNAL;
	r.signo = SIGSEGV;
	for (int lvl = 0; lvl < XW_NLEVELS; lvl++) {
		char *y;

		r.wakes = wk;
		r.nwakes = 1;
		y = explore_write_yaml(&in, (enum explore_write_level)lvl, &err);
		ck_assert_msg(y != NULL, "%s", err.msg);
		ck_assert_msg(spec_load_string(y, strlen(y), "w.yaml", ".", &sp, &d) == 0,
			      "%s\n%s", y, d.n ? d.v[0].msg : "");
		ck_assert_uint_eq(d.nerrors, 0);
		ck_assert_msg(strstr(y, "thread: worker_1, at: \"q.c:54\", "
				     "open: [worker_1-woke4], wait: [main-stop4]}") != NULL,
			      "%s", y);
		ck_assert_msg(strstr(y, "thread: main, at: \"q.c:45\", "
				     "open: [main-stop4], wait: [worker_1-woke4]}") != NULL,
			      "%s", y);
		spec_free(sp);
		sp = NULL;
		spec_diags_release(&d);
		free(y);
		/* without the wake, nothing holds main there */
		r.wakes = NULL;
		r.nwakes = 0;
		y = explore_write_yaml(&in, (enum explore_write_level)lvl, &err);
		ck_assert_msg(y != NULL, "%s", err.msg);
		ck_assert_msg(strstr(y, "q.c:45") == NULL && strstr(y, "woke") == NULL,
			      "%s", y);
		free(y);
	}
}
END_TEST

/*
 * The lock-order inversion as the explorer records it: transfer (1) takes
 * lock a (point 1) and is preempted at its second lock (point 2, hit 2 of
 * the lock point) by refund (2), which takes lock b and arrives at its own
 * second lock, where it cannot go on: no decision follows, the run is a
 * deadlock, and refund was left held there (end_held).
 */
START_TEST(writer_deadlock_waits_for_the_last_stop)
{
	static const char *const at[] = { "a.c:17", "*pthread_mutex_lock", "a.c:29" };
	char *cmd[] = { (char *)"./abba", NULL };
	explore_step st[3];
	explore_thread_info th[3];
	explore_run r;
	explore_write_in in = { &r, at, cmd, "dev:1.1.2.2", "abba", NULL, NULL, 0, 0, NULL, false };
	rg_err err = RG_ERR_INIT;
	char *y;

	memset(&r, 0, sizeof(r));
	th[0] = (explore_thread_info){ 100, NULL, 1, true, NULL, 0 };
	th[1] = (explore_thread_info){ 101, (char *)"transfer", 1, false, NULL, 0 };
	th[2] = (explore_thread_info){ 102, (char *)"refund", 1, false, NULL, 0 };
	st[0] = (explore_step){ 1, 0, 1, false, -1, XS_NONE, 0, 0 };
	st[1] = (explore_step){ 1, 1, 1, false, 1, XS_ARRIVED, 0, 1 };
	st[2] = (explore_step){ 2, 2, 1, true, 1, XS_ARRIVED, 1, 2 };
	r.steps = st;
	r.nsteps = 3;
	r.threads = th;
	r.nthreads = 3;
	r.fail = XF_DEADLOCK;
	r.end_held = true;
	r.end_gate = 1;
	r.end_hit = 2;
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(y != NULL, "%s", err.msg);
	/* transfer holds a and waits there until refund has stopped at its lock */
	ck_assert_msg(strstr(y, "thread: transfer_1, at: \"*pthread_mutex_lock\", hit: 2, "
			     "open: [transfer_1-stop2], wait: [refund_1-stop3]") != NULL, "%s", y);
	ck_assert_msg(strstr(y, "thread: refund_1, at: \"*pthread_mutex_lock\", hit: 2, "
			     "open: [refund_1-stop3]") != NULL, "%s", y);
	ck_assert_ptr_nonnull(strstr(y, "deadlock: true"));
	free(y);
	/* left running (not held) at the end: nothing to wait for */
	r.end_held = false;
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_ptr_nonnull(y);
	ck_assert_ptr_null(strstr(y, "refund_1-stop"));
	free(y);
}
END_TEST

/*
 * payment_ring's cycle of three: settle 1 takes its first lock and is
 * preempted at its second (point 2, hit 2); main starts settle 3, which
 * takes its first lock and cannot go on at its second; main at its join
 * lets settle 2 run, left held at its second lock: a deadlock.  Settle 1
 * was never chosen again: it must not go on before settle 2 holds its
 * first lock, or it takes that lock first and nothing deadlocks.
 */
START_TEST(writer_deadlock_holds_the_never_resumed)
{
	static const char *const at[] = { "r.c:60", "r.c:44", "*pthread_mutex_lock",
					  "r.c:65", "*pthread_join" };
	char *cmd[] = { (char *)"./ring", NULL };
	explore_step st[7];
	explore_thread_info th[4];
	explore_run r;
	explore_write_in in = { &r, at, cmd, "dev:0.1.2.1", "ring", NULL, NULL, 0, 0, NULL, false };
	rg_err err = RG_ERR_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;
	char *y;

	memset(&r, 0, sizeof(r));
	th[0] = (explore_thread_info){ 100, NULL, 1, true, NULL, 0 };
	for (int i = 1; i < 4; i++)
		th[i] = (explore_thread_info){ 100 + i, (char *)"settle", i, false, NULL, 0 };
	st[0] = (explore_step){ 0, 0, 1, false, -1, XS_NONE, 0, 0 };
	st[1] = (explore_step){ 1, 1, 1, true, 0, XS_ARRIVED, 0, 2 };
	st[2] = (explore_step){ 1, 2, 1, false, 1, XS_ARRIVED, 2, 1 };
	st[3] = (explore_step){ 0, 0, 2, true, 1, XS_ARRIVED, 2, 2 };
	st[4] = (explore_step){ 3, 1, 1, true, 0, XS_ARRIVED, 3, 1 };
	st[5] = (explore_step){ 0, 3, 1, false, 3, XS_ARRIVED, 2, 2 };
	st[6] = (explore_step){ 2, 1, 1, false, 0, XS_ARRIVED, 4, 1 };
	r.steps = st;
	r.nsteps = 7;
	r.threads = th;
	r.nthreads = 4;
	r.fail = XF_DEADLOCK;
	r.end_held = true;
	r.end_gate = 2;
	r.end_hit = 2;
	y = explore_write_yaml(&in, XW_STRETCHES, &err);
	ck_assert_msg(y != NULL, "%s", err.msg);
	ck_assert_msg(spec_load_string(y, strlen(y), "w.yaml", ".", &sp, &d) == 0,
		      "%s\n%s", y, d.n ? d.v[0].msg : "");
	ck_assert_msg(strstr(y, "thread: settle_1, at: \"*pthread_mutex_lock\", hit: 2, "
			     "open: [settle_1-stop3], wait: [settle_2-stop7]") != NULL, "%s", y);
	ck_assert_msg(strstr(y, "thread: settle_2, at: \"*pthread_mutex_lock\", hit: 2, "
			     "open: [settle_2-stop7]}") != NULL, "%s", y);
	spec_free(sp);
	spec_diags_release(&d);
	free(y);
	/* with only the preemptions written, the preempted one waits too */
	y = explore_write_yaml(&in, XW_PREEMPTIONS, &err);
	ck_assert_msg(y != NULL, "%s", err.msg);
	ck_assert_msg(strstr(y, "thread: settle_1, at: \"*pthread_mutex_lock\", hit: 2, "
			     "open: [settle_1-stop3], wait: [main-stop4, settle_2-stop7]") != NULL,
		      "%s", y);
	ck_assert_msg(strstr(y, "thread: main, at: \"*pthread_join\"") == NULL, "%s", y);
	free(y);
}
END_TEST

/* Loads "stdin: TEXT" back; the bytes it gives (malloc'd), their count in *n. */
static char *stdin_loaded(const char *text, size_t *n)
{
	char *yaml = xasprintf("version: 1\ngates: [{at: a.c:1, barrier: 1}]\nstdin: %s\n",
			       text);
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;
	char *out;

	if (spec_load_string(yaml, strlen(yaml), "s.yaml", ".", &sp, &d) < 0)
		ck_abort_msg("does not load: %s\n%s", d.v[0].msg, yaml);
	ck_assert(sp->has_stdin);
	*n = sp->stdin_len;
	out = xmalloc(*n + 1);
	memcpy(out, sp->stdin_data, *n + 1);
	spec_free(sp);
	spec_diags_release(&d);
	free(yaml);
	return out;
}

/*
 * The stdin explore read, as the gates file says it: every UTF-8 text
 * (control characters, NUL, DEL, C1 controls, line separators, a BOM,
 * beyond the BMP) loads back to the same bytes; what is not UTF-8 is not
 * text, and goes to a file.
 */
START_TEST(stdin_text_loads_back)
{
#define T(x) { x, sizeof(x) - 1 }
	static const struct { const char *s; size_t n; } text[] = {
		T(""), T("hello\n"), T("a\0b"), T("\"quoted\" \\ back"),
		T("  two  spaces\t\r\n\n"), T("\x7f\x1b[0m"),
		T("caf\xc3\xa9 \xc2\x85 \xc2\xa0 \xe2\x80\xa8 \xef\xbb\xbf"),
		T("\xf0\x9f\x98\x80 \xef\xbf\xbf"), T("#not a comment: [x]"),
	};
#undef T
	static const char *const binary[] = {
		"\xff", "a\x80", "\xc3", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
	};
	char all[128];

	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		char *y = explore_stdin_yaml(text[i].s, text[i].n), *back;
		size_t n;

		ck_assert_ptr_nonnull(y);
		back = stdin_loaded(y, &n);
		ck_assert_uint_eq(n, text[i].n);
		ck_assert_mem_eq(back, text[i].s, n);
		free(back);
		free(y);
	}
	for (size_t i = 0; i < sizeof(all); i++)
		all[i] = (char)i;
	{
		char *y = explore_stdin_yaml(all, sizeof(all)), *back;
		size_t n;

		back = stdin_loaded(y, &n);
		ck_assert_uint_eq(n, sizeof(all));
		ck_assert_mem_eq(back, all, n);
		free(back);
		free(y);
	}
	for (size_t i = 0; i < sizeof(binary) / sizeof(binary[0]); i++)
		ck_assert_ptr_null(explore_stdin_yaml(binary[i], strlen(binary[i])));
}
END_TEST

/*
 * The progress line: each phase with its count and total (none for
 * shrinking), and at most one redraw per EXPLORE_PROGRESS_MS unless the
 * phase changed.
 */
START_TEST(progress_line_and_throttle)
{
	char buf[160];
	double last = 0;

	explore_progress_line(buf, sizeof(buf), XP_SEARCH, 120, 1000, 118, 3250);
	ck_assert_str_eq(buf, "explore searching: 120/1000 schedules, 118 distinct, 3.2 s");
	explore_progress_line(buf, sizeof(buf), XP_SHRINK, 14, -1, 0, 4000);
	ck_assert_str_eq(buf, "explore shrinking: 14 runs, 4.0 s");
	explore_progress_line(buf, sizeof(buf), XP_VERIFY, 7, 20, 0, 5000);
	ck_assert_str_eq(buf, "explore verifying: 7/20 replays, 5.0 s");
	/* cut to fit, as snprintf */
	ck_assert_int_gt(explore_progress_line(buf, 10, XP_VERIFY, 7, 20, 0, 0), 9);
	ck_assert_str_eq(buf, "explore v");

	ck_assert(explore_progress_due(&last, 0, true));        /* the first */
	ck_assert(!explore_progress_due(&last, 50, false));
	ck_assert(!explore_progress_due(&last, 99.9, false));
	ck_assert(explore_progress_due(&last, 100, false));
	ck_assert(last == 100);
	ck_assert(explore_progress_due(&last, 101, true));      /* a new phase */
	ck_assert(!explore_progress_due(&last, 150, false));
	/* a thousand schedules in a second: ten redraws */
	int drawn = 0;

	last = 1000;
	for (int i = 1; i <= 1000; i++)
		drawn += explore_progress_due(&last, 1000 + i, false);
	ck_assert_int_eq(drawn, 10);
}
END_TEST

static Suite *explore_suite(void)
{
	Suite *s = suite_create("explore");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, random_finds_lost_update);
	tcase_add_test(tc, pct_depth2_finds_lost_update);
	tcase_add_test(tc, dfs_bound_finds_lost_update);
	tcase_add_test(tc, seeds_are_deterministic);
	tcase_add_test(tc, time_passing_is_a_choice);
	tcase_add_test(tc, shards_partition_indices);
	tcase_add_test(tc, every_row_through_the_table);
	tcase_add_test(tc, transcripts_as_before);
	tcase_add_test(tc, dfs_shards_partition_the_tree);
	tcase_add_test(tc, dfs_runs_exactly_the_bounded_interleavings);
	tcase_add_test(tc, dfs_fewest_delays_first_quiet_last);
	tcase_add_test(tc, dfs_ends_on_a_program_that_does_not_replay);
	tcase_add_test(tc, pct_fair_is_pct_until_a_thread_spins);
	tcase_add_test(tc, shrinker_keeps_what_matters);
	tcase_add_test(tc, shrinker_in_rounds_shrinks_alike);
	tcase_add_test(tc, writer_yaml_loads);
	tcase_add_test(tc, writer_names_processes);
	tcase_add_test(tc, writer_drops_gates);
	tcase_add_test(tc, writer_cxx_start_names);
	tcase_add_test(tc, writer_runs_under_wrapper);
	tcase_add_test(tc, writer_blocked_stretch_is_waited_for);
	tcase_add_test(tc, writer_woken_arrival_is_waited_for);
	tcase_add_test(tc, writer_sleeper_waits_for_what_ran);
	tcase_add_test(tc, writer_deadlock_waits_for_the_last_stop);
	tcase_add_test(tc, writer_deadlock_holds_the_never_resumed);
	tcase_add_test(tc, stdin_text_loads_back);
	tcase_add_test(tc, progress_line_and_throttle);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(explore_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
