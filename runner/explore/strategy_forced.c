/*
 * forced: the default order, except at the listed deviations ("when
 * thread CUR reaches point POINT for the HIT-th time, switch to THREAD").
 * No search of its own: --replay runs one, the shrinker its candidates,
 * and dfs schedules and shrunk ones are named by theirs (dev: ids).
 */
#include "strategy.h"

#include <stdlib.h>
#include <string.h>

struct forced {
	explore_dev *devs;
	size_t ndevs;
};

static bool dev_matches(const explore_dev *d, const explore_at *at)
{
	return d->cur == at->cur && d->gate == at->gate && d->hit == at->hit;
}

static int forced_choose(explore_sched *s, const explore_at *at, const int *runnable,
			 size_t n)
{
	const struct forced *f = s->own;

	for (size_t i = 0; f && i < f->ndevs; i++)
		if (dev_matches(&f->devs[i], at) && explore_has(runnable, n, f->devs[i].thread))
			return f->devs[i].thread;
	return explore_default_choice(at->cur, runnable, n);
}

static void forced_free(void *own)
{
	struct forced *f = own;

	free(f->devs);
	free(f);
}

void explore_sched_init_forced(explore_sched *s, const explore_dev *devs, size_t n)
{
	struct forced *f = xcalloc(1, sizeof(*f));

	if (n) {
		f->devs = xcalloc(n, sizeof(*devs));
		memcpy(f->devs, devs, n * sizeof(*devs));
	}
	f->ndevs = n;
	explore_sched_start(s, &strategy_forced, f);
}

static int forced_parse(const char *id, explore_sched *s, rg_err *err)
{
	explore_dev *devs;
	size_t n;

	if (explore_devs_parse(id + strlen("dev:"), id, &devs, &n, err) < 0)
		return -1;
	explore_sched_init_forced(s, devs, n);
	free(devs);
	return 0;
}

const explore_strategy strategy_forced = {
	.id_prefix = "dev:",
	.id_form = "dev:CUR.POINT.HIT.THREAD,...",
	.help = "the default order, but at the listed deviations",
	.choose = forced_choose,
	.free_sched = forced_free,
	.parse_id = forced_parse,
};
