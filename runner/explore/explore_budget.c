/*
 * --time over the whole explore command (explore_int.h): the search,
 * shrinking and the replays of the gates file share it.
 *
 * The search stops early enough to leave shrinking and --verify the time
 * they need at the pace of the schedules run so far (SHRINK_SHARE_RUNS
 * schedules and --verify replays, --jobs at once), but never more than
 * half of --time; shrinking stops early enough to leave --verify its
 * replays, but never more than a quarter of --time; the replays stop at
 * --time.  A run still going when --time runs out is cut there, and not
 * judged: its timeout was --time's, not the program's.
 */
#include "explore_int.h"

#include "interrupt.h"

/* the schedules shrinking is expected to take, for the search's share */
#define SHRINK_SHARE_RUNS 50

static double left_ms(const struct xctx *c)
{
	return (double)c->o->time_ms - explore_elapsed_ms(c);
}

/* A schedule's wall time so far (0 before the first). */
static double pace_ms(const struct xctx *c)
{
	return c->nruns ? c->run_ms / (double)c->nruns : 0;
}

long explore_run_limit(const struct xctx *c, long want)
{
	double left;

	if (!c->o->time_ms)
		return want;
	left = left_ms(c);
	if (left < 1)
		return 0;
	return left < (double)want ? (long)left : want;
}

bool explore_cut_by_time(struct xctx *c, long want, long limit, bool timed_out)
{
	if (!timed_out || limit >= want)
		return false;
	c->out_of_time = true;
	return true;
}

void explore_note_run(struct xctx *c, double ms)
{
	c->run_ms += ms;
	c->nruns++;
}

bool explore_search_time_up(const struct xctx *c)
{
	double t = (double)c->o->time_ms, jobs = c->o->jobs > 1 ? (double)c->o->jobs : 1;
	double share;

	if (!c->o->time_ms)
		return false;
	share = pace_ms(c) * (double)(c->o->verify + SHRINK_SHARE_RUNS) / jobs;
	if (share > t / 2)
		share = t / 2;
	return explore_elapsed_ms(c) >= t - share;
}

bool explore_shrink_time_up(const struct xctx *c)
{
	double t = (double)c->o->time_ms, jobs = c->o->jobs > 1 ? (double)c->o->jobs : 1;
	double share;

	if (!c->o->time_ms)
		return false;
	share = pace_ms(c) * (double)c->o->verify / jobs;
	if (share > t / 4)
		share = t / 4;
	return explore_elapsed_ms(c) >= t - share;
}

bool explore_time_up(const struct xctx *c)
{
	return c->out_of_time || (c->o->time_ms && left_ms(c) < 1);
}

char *explore_stop_reason(const struct xctx *c)
{
	const char *n;

	if (interrupt_signal()) {
		n = spec_signal_name(interrupt_signal());
		return xasprintf("racegate was interrupted (%s)", n ? n : "a signal");
	}
	if (explore_time_up(c))
		return xstrdup("the time (--time) ran out");
	return NULL;
}
