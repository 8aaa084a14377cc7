/*
 * check_explore_spin: strategies against a thread that spins.  A model
 * of a spin-wait handoff (run_handoff) drives explore_choose as the
 * decider does: explore_at's laps as strategies get them, and pct-fair,
 * which lets a spinner give way where pct starves the thread it waits
 * for.  check_explore has the other models and the rest of explore.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "explore_int.h"
#include "strategy.h"

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

/* a and b made the same decisions */
static void same_choices(const explore_sched *a, const explore_sched *b)
{
	ck_assert_uint_eq(a->nsteps, b->nsteps);
	for (size_t i = 0; i < a->nsteps; i++)
		ck_assert_int_eq(a->steps[i].chosen, b->steps[i].chosen);
}

/*
 * A handoff: thread 0 waits at its point 0, going round alone while the
 * flag is clear (a spin-wait), then takes one more step; thread 1 works
 * for `work` points, then sets the flag.  Each step a thread takes is an
 * arrival at its next point (or at the same one, for a spin).  Runs
 * under s until both are done or max decisions were taken; returns the
 * decisions taken.
 */
static size_t run_handoff(explore_sched *s, int work, size_t max)
{
	const int len[2] = { 2, work + 1 };
	int pc[2] = { 0, 0 }, cur = -1;
	long hits[2][16] = { { 1 }, { 1 } };
	bool flag = false;

	while (s->nsteps < max) {
		int runnable[2], c;
		size_t n = 0;
		long gate = -1, hit = 0;

		for (int t = 0; t < 2; t++)
			if (pc[t] < len[t])
				runnable[n++] = t;
		if (!n)
			break;
		if (cur >= 0 && pc[cur] < len[cur]) {
			gate = pc[cur];
			hit = hits[cur][pc[cur]];
		}
		c = explore_choose(s, cur, gate, hit, runnable, n);
		if (c == 1 && pc[1] == work)
			flag = true;
		if (c == 1 || pc[0] > 0 || flag)
			pc[c]++;
		if (pc[c] < len[c])
			hits[c][pc[c]]++;
		cur = c;
	}
	return s->nsteps;
}

/*
 * explore_at's laps, as choose gets them and decisions record them: the
 * arrivals a thread made at its point before, in the stretch it has run
 * alone since another thread ran; a switch begins a new stretch.
 */
START_TEST(laps_count_a_thread_going_round_alone)
{
	explore_sched s;
	/* when thread 0 reaches point 0 for the 5th time, switch to thread 1 */
	const explore_dev dev = { 0, 0, 5, 1 };

	/* the default order keeps the spinner running: it laps for ever */
	explore_sched_init_forced(&s, NULL, 0);
	ck_assert_uint_eq(run_handoff(&s, 3, 40), 40);
	ck_assert_int_eq(s.steps[0].laps, 0);     /* no thread ran before */
	for (size_t i = 1; i < 40; i++) {
		ck_assert_int_eq(s.steps[i].cur, 0);
		ck_assert_int_eq(s.steps[i].gate, 0);
		ck_assert_int_eq(s.steps[i].laps, (long)i - 1);
	}
	explore_sched_release(&s);
	/* a switch: thread 1 works and sets the flag, then thread 0 starts a
	 * new stretch at the same point, at 0 laps, and goes on */
	explore_sched_init_forced(&s, &dev, 1);
	ck_assert_uint_lt(run_handoff(&s, 3, 40), 40);
	ck_assert_int_eq(s.steps[4].laps, 3);
	ck_assert_int_eq(s.steps[4].chosen, 1);
	for (size_t i = 5; i < s.nsteps; i++)
		if (s.steps[i].cur == 0 && s.steps[i].gate == 0)
			ck_assert_int_eq(s.steps[i].laps, 0);
		else if (s.steps[i].cur == 1)
			ck_assert_int_eq(s.steps[i].laps, 0);   /* a new point each time */
	explore_sched_release(&s);
}
END_TEST

/*
 * The runs of the handoff (run_handoff) that a search makes, first run
 * included, each given at most max decisions: how many of them hit max
 * (the spinner kept running, the thread it waits for never got to set
 * the flag), and the longest of the others.
 */
static size_t starved_runs(const explore_strategy *st, const strategy_cfg *cfg, int work,
			   long schedules, size_t max, size_t *longest)
{
	strategy_search *x = strategy_search_new(st, cfg);
	explore_sched s;
	size_t starved = 0, n;

	*longest = 0;
	if (strategy_first(x, &s)) {
		n = run_handoff(&s, work, max);
		starved += n >= max;
		*longest = n < max && n > *longest ? n : *longest;
		strategy_learn(x, &s);
		explore_sched_release(&s);
	}
	for (long k = 0; k < schedules && strategy_next(x, (uint64_t)k, &s); k++) {
		n = run_handoff(&s, work, max);
		starved += n >= max;
		*longest = n < max && n > *longest ? n : *longest;
		strategy_observe(x, &s);
		explore_sched_release(&s);
	}
	strategy_search_free(x);
	return starved;
}

/*
 * A spinner does not starve the thread it waits for under pct-fair: every
 * run of the handoff ends, after a few laps per spin, for every seed,
 * depth and --pct-steps (given, or from its first run); under pct a run
 * whose spinner drew the higher priority goes round until the limit.
 */
START_TEST(pct_fair_does_not_starve_the_thread_a_spinner_waits_for)
{
	size_t longest, pct_starved = 0;

	for (uint64_t seed = 1; seed <= 5; seed++)
		for (int depth = 1; depth <= 4; depth++)
			for (long steps = 0; steps <= 30; steps += 15) {
				strategy_cfg cfg = seeded(seed, depth, steps);

				ck_assert_uint_eq(starved_runs(row("pct-fair"), &cfg, 6, 40, 2000,
							       &longest), 0);
				/* the spinner's laps before it gives way, and the work */
				ck_assert_uint_le(longest, 60);
				if (steps)
					pct_starved += starved_runs(row("pct"), &cfg, 6, 40, 2000,
								    &longest);
			}
	ck_assert_uint_gt(pct_starved, 0);
	/* pct's first run is the default order, which keeps the spinner
	 * running; pct-fair's is fair */
	{
		strategy_cfg cfg = seeded(1, 3, 0);

		ck_assert_uint_eq(starved_runs(row("pct"), &cfg, 6, 0, 2000, &longest), 1);
		ck_assert_uint_eq(starved_runs(row("pct-fair"), &cfg, 6, 0, 2000, &longest), 0);
	}
}
END_TEST

/*
 * pct-fair's first run is named by its deviations, which replay it; its
 * other schedules by pct-fair:DEPTH:STEPS:SEED:INDEX, which parse back.
 */
START_TEST(pct_fair_ids_replay)
{
	strategy_cfg cfg = seeded(4, 3, 0);
	strategy_search *x = strategy_search_new(row("pct-fair"), &cfg);
	explore_sched s, again;
	rg_err err = RG_ERR_INIT;
	char *id;

	ck_assert(strategy_first(x, &s));
	run_handoff(&s, 6, 2000);
	id = explore_sched_id(&s);
	ck_assert_msg(!strncmp(id, "dev:", 4) && strlen(id) > 4, "%s", id);
	ck_assert_int_eq(explore_id_parse(id, &again, &err), 0);
	run_handoff(&again, 6, 2000);
	same_choices(&again, &s);
	strategy_learn(x, &s);
	free(id);
	explore_sched_release(&again);
	explore_sched_release(&s);
	strategy_next(x, 7, &s);
	id = explore_sched_id(&s);
	ck_assert_msg(!strncmp(id, "pct-fair:3:", 11), "%s", id);
	run_handoff(&s, 6, 2000);
	ck_assert_int_eq(explore_id_parse(id, &again, &err), 0);
	run_handoff(&again, 6, 2000);
	same_choices(&again, &s);
	free(id);
	explore_sched_release(&again);
	explore_sched_release(&s);
	strategy_search_free(x);
	ck_assert_int_lt(explore_id_parse("pct-fair:0:4:7:5", &s, &err), 0);
	ck_assert_int_lt(explore_id_parse("pct-fair:3:4:7", &s, &err), 0);
}
END_TEST

static Suite *spin_suite(void)
{
	Suite *s = suite_create("explore_spin");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, laps_count_a_thread_going_round_alone);
	tcase_add_test(tc, pct_fair_does_not_starve_the_thread_a_spinner_waits_for);
	tcase_add_test(tc, pct_fair_ids_replay);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(spin_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
