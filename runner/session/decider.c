/*
 * decider: the one place that checks a decider and says what each missing
 * capability group means (decider.h).
 */
#include "decider.h"

#include "msg.h"

void decider_check(const decider_ops *o)
{
	if (!o->thread_started || !o->thread_exited || !o->arrive || !o->site_live ||
	    !o->tick || !o->is_held || !o->nheld || !o->stuck || !o->diagnose)
		rg_bug("a decider without its whole core");
	if ((o->names && (!o->names->wants || !o->names->named)) ||
	    (o->lines && (!o->lines->pass_depth || !o->lines->passed)) ||
	    (o->waits && !o->waits->needs) ||
	    (o->fastpath && (!o->fastpath->next_interest || !o->fastpath->count_passes ||
			     !o->fastpath->next_when || !o->fastpath->when_false)) ||
	    (o->blocking && (!o->blocking->blocking || !o->blocking->blocked)) ||
	    (o->sleeps && !o->sleeps->asleep) ||
	    (o->attach && !o->attach->done) ||
	    (o->processes && !o->processes->execed))
		rg_bug("a decider with a capability group not whole");
}

double decider_no_tick(void *d, double t_ms)
{
	(void)d, (void)t_ms;
	return -1;
}

bool decider_holds_none(void *d, pid_t tid)
{
	(void)d, (void)tid;
	return false;
}

size_t decider_none_held(void *d)
{
	(void)d;
	return 0;
}

bool decider_never_stuck(void *d, double t_ms)
{
	(void)d, (void)t_ms;
	return false;
}

void decider_no_diagnosis(void *d, bool unwind)
{
	(void)d, (void)unwind;
}

bool decider_wants_names(const decider *x)
{
	return x->ops->names && x->ops->names->wants(x->d);
}

void decider_named(const decider *x, pid_t tid, const char *name, double t_ms)
{
	if (x->ops->names)
		x->ops->names->named(x->d, tid, name, t_ms);
}

size_t decider_pass_depth(const decider *x, pid_t tid)
{
	return x->ops->lines ? x->ops->lines->pass_depth(x->d, tid) : 0;
}

void decider_passed(const decider *x, pid_t tid, bool at_once, double t_ms)
{
	if (x->ops->lines)
		x->ops->lines->passed(x->d, tid, at_once, t_ms);
}

size_t decider_needs(const decider *x, pid_t tid, wf_need **out)
{
	*out = NULL;
	return x->ops->waits ? x->ops->waits->needs(x->d, tid, out) : 0;
}

bool decider_has_fastpath(const decider *x)
{
	return x->ops->fastpath != NULL;
}

unsigned long decider_next_interest(const decider *x, pid_t tid, const plan_bp *at)
{
	return x->ops->fastpath ? x->ops->fastpath->next_interest(x->d, tid, at) : 0;
}

void decider_count_passes(const decider *x, pid_t tid, const plan_bp *at, unsigned long k)
{
	if (x->ops->fastpath)
		x->ops->fastpath->count_passes(x->d, tid, at, k);
}

bool decider_next_when(const decider *x, pid_t tid, const plan_bp *at, size_t *gate)
{
	return x->ops->fastpath && x->ops->fastpath->next_when(x->d, tid, at, gate);
}

void decider_when_false(const decider *x, size_t gate, unsigned long k)
{
	if (x->ops->fastpath)
		x->ops->fastpath->when_false(x->d, gate, k);
}

bool decider_watches_blocking(const decider *x)
{
	return x->ops->blocking != NULL;
}

size_t decider_blocking_tids(const decider *x, pid_t **tids)
{
	*tids = NULL;
	return x->ops->blocking ? x->ops->blocking->blocking(x->d, tids) : 0;
}

void decider_blocked(const decider *x, pid_t tid, const char *syscall, double t_ms)
{
	if (x->ops->blocking)
		x->ops->blocking->blocked(x->d, tid, syscall, t_ms);
}

bool decider_asleep(const decider *x, pid_t tid, double t_ms)
{
	return x->ops->sleeps && x->ops->sleeps->asleep(x->d, tid, t_ms);
}

bool decider_done(const decider *x)
{
	return x->ops->attach && x->ops->attach->done(x->d);
}

void decider_execed(const decider *x, pid_t tid, double t_ms)
{
	if (x->ops->processes)
		x->ops->processes->execed(x->d, tid, t_ms);
}
