/*
 * Free runs: the program run with every point passed, no thread held
 * (explore_int.h).  A failure found in the default order, with no
 * preemption, may need no order at all: a program that fails whatever
 * its threads do.  explore says so when runs in which racegate holds no
 * thread fail the same way, as the search's summary would otherwise
 * present a bug that is not a race as one.
 */
#include "explore_int.h"

#include <string.h>

/* ---- a decider that lets every thread go, and takes each point out ---- */

static void free_started(void *d, pid_t tid, const char *start, bool is_main, double t)
{
	(void)d, (void)tid, (void)start, (void)is_main, (void)t;
}

static void free_exited(void *d, pid_t tid, double t)
{
	(void)d, (void)tid, (void)t;
}

static enum decision free_arrive(void *d, pid_t tid, const plan_bp *at, double t)
{
	(void)d, (void)tid, (void)at, (void)t;
	return DECIDE_PASS;
}

static bool free_live(void *d, const plan_bp *at)
{
	(void)d, (void)at;
	return false;
}

static const decider_ops free_ops = {
	.thread_started = free_started, .thread_exited = free_exited,
	.arrive = free_arrive, .site_live = free_live, .tick = decider_no_tick,
	.is_held = decider_holds_none, .nheld = decider_none_held,
	.stuck = decider_never_stuck, .diagnose = decider_no_diagnosis,
};

/* One free run: how it failed (XF_NONE: it passed); -1 not run. */
static int free_run(struct xctx *c)
{
	const long limit = explore_run_limit(c, c->o->timeout_ms);
	run_result res;
	session_end end;
	session *s;
	int fail = -1;

	if (!limit)
		return -1;
	memset(&res, 0, sizeof(res));
	res.exit_code = -1;
	res.ngates = c->sp->ngates;
	c->ro.timeout_ms = limit;
	s = session_new(&c->p, &c->ro, &res);
	session_run(s, &free_ops, NULL, &end);
	if (end.started && !end.failed && !end.interrupted &&
	    !explore_cut_by_time(c, c->o->timeout_ms, limit, end.timed_out))
		fail = (int)explore_judge(c, &res, false, end.timed_out);
	session_free(s);
	run_result_release(&res);
	return fail;
}

bool explore_fails_alone(struct xctx *c, enum explore_fail kind, int n)
{
	if (kind == XF_DEADLOCK || kind == XF_TIMEOUT)
		return false;
	/* traced here: no stopped template beside them */
	explore_copy_free(c);
	for (int i = 0; i < n; i++)
		if (free_run(c) != (int)kind)
			return false;
	return true;
}
