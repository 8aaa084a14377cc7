/*
 * The jump pads of the executable's gate sites, as the session sees them
 * (tracer/pad.c makes them): which sites get one at the exec stop, and
 * how the passes a thread made through one reach the decider, and how
 * many it may make next.  docs/design.md, "Jump pads".
 */
#include "session_int.h"

#include <limits.h>
#include <stdlib.h>

#include "pad_when.h"

/* Says for each gate at bp whether it got a pad, and why not (--verbose);
 * for a when: gate, who evaluates the condition (cond_why: why not the pad). */
static void pad_say(const session *s, const plan_bp *bp, const char *why, size_t when,
		    const char *cond_why)
{
	for (size_t k = 0; k < bp->ngates; k++) {
		const spec_gate *g = &s->p->sp->gates[bp->gates[k]];

		if (why) {
			rg_trace("gate '%s' at %s: no pad: %s", g->name, g->at, why);
			continue;
		}
		if (!g->when)
			rg_trace("gate '%s' at %s: pad", g->name, g->at);
		else if (bp->gates[k] == when && !cond_why)
			rg_trace("gate '%s' at %s: pad; when: evaluated in the pad", g->name,
				 g->at);
		else
			rg_trace("gate '%s' at %s: pad; when: evaluated by racegate: %s",
				 g->name, g->at, g->hit > 0 ? "the gate has hit: too" :
				 bp->gates[k] != when ? "another gate's when: is in the pad" :
				 cond_why);
	}
}

/*
 * The code of the function holding bp (run-time), for a pad that covers more
 * than the site's first instruction.
 */
static size_t pad_function(const session *s, const plan_bp *bp, tracer_span *out)
{
	dwarfx_span sp[8];
	size_t n, k;

	n = dwarfx_function_spans(s->p->dx, bp->site.link_addr, sp, 8);
	for (k = 0; k < n; k++) {
		out[k].lo = run_bias_addr(&s->bt, (rg_site){PLAN_EXE, sp[k].lo});
		out[k].hi = out[k].lo + (sp[k].hi - sp[k].lo);
	}
	return n;
}

/*
 * Jump pads for the executable's gate sites (tracer_pad_make), at the exec
 * stop: the one thread is stopped.  Not where racegate needs the trap of
 * its own (the entry, pthread_create, a FUNCTION:return's entry), nor for
 * a decider that cannot tell what passes, nor when the program is to be
 * left stopped (the jumps would stay in it).
 */
void session_make_pads(session *s)
{
	const char *off = s->o->no_fastpath ? "--no-fastpath" :
			  s->o->keep_stopped ? "--keep-stopped" : NULL;

	/* explore decides every hit itself: nothing to say per gate */
	if (!s->ops->next_interest || !s->ops->count_passes)
		return;
	s->pad_when = xcalloc(s->p->nbps ? s->p->nbps : 1, sizeof(*s->pad_when));
	for (size_t i = 0; i < s->p->nbps; i++)
		s->pad_when[i] = PAD_WHEN_NONE;
	/* gates with no site in the executable (a library's, FUNCTION:return) */
	for (size_t k = 0; k < s->p->sp->ngates; k++) {
		bool in_exe = false;

		for (size_t i = 0; i < s->p->nbps && !in_exe; i++)
			for (size_t j = 0; j < s->p->bps[i].ngates && !in_exe; j++)
				in_exe = s->p->bps[i].gates[j] == k;
		if (!in_exe)
			rg_trace("gate '%s' at %s: no pad: not in the executable's own code "
				 "(a library's, a function's return)", s->p->sp->gates[k].name,
				 s->p->sp->gates[k].at);
	}

	/*
	 * From the highest address down: a jump over short instructions may
	 * end in the bytes of the next site's jump, which must be there first
	 * (tracer_pad_make).  Said in address order.
	 */
	const char **whys = xcalloc(s->p->nbps + 1, sizeof(*whys));
	const char **cond_whys = xcalloc(s->p->nbps + 1, sizeof(*cond_whys));

	for (size_t i = s->p->nbps; i-- > 0 && !s->end.failed;) {
		const plan_bp *bp = &s->p->bps[i];
		uint64_t addr = run_bias_addr(&s->bt, bp->site);
		const char *why = off;
		rg_err err = RG_ERR_INIT;
		tracer_span fn[8];

		if (!why && ((s->entry && addr == s->entry) || session_is_ptc(s, addr) ||
			     run_locs_busy(s->locs, addr)))
			why = "racegate's own breakpoint is there too";
		for (size_t k = 0; !why && k < bp->ngates; k++)
			if (s->p->sp->gates[bp->gates[k]].then_open.n)
				why = "racegate steps past the line (then_open, sequence)";
		size_t when = pad_when_gate(s->p, bp), nops = 0;
		const char *cond_why = NULL;
		cond_op *ops = NULL;

		if (when != PAD_WHEN_NONE)
			ops = pad_when_ops(s->p, &s->bt, when, bp, &nops, &cond_why);
		if (!why && tracer_pad_make(s->tr, addr, fn, pad_function(s, bp, fn),
					    ops, nops, &why,
					    ops ? &cond_why : &(const char *){ NULL },
					    &err) < 0) {
			rg_trace("no pad at 0x%llx: %s", (unsigned long long)addr, err.msg);
			why = "the pad could not be written";
		}
		free(ops);
		s->pad_when[i] = !why && when != PAD_WHEN_NONE && !cond_why ? when
									    : PAD_WHEN_NONE;
		whys[i] = why ? why : "";
		cond_whys[i] = cond_why;
	}
	for (size_t i = 0; i < s->p->nbps; i++)
		if (whys[i])
			pad_say(s, &s->p->bps[i], *whys[i] ? whys[i] : NULL,
				pad_when_gate(s->p, &s->p->bps[i]), cond_whys[i]);
	free(whys);
	free(cond_whys);
}

/* tid's passes through the pad at addr since it was last told: to the decider. */
void session_pad_sync(session *s, pid_t tid, const plan_bp *bp, uint64_t addr)
{
	rg_err err = RG_ERR_INIT;
	uint64_t k = 0, f = 0;

	if (tracer_pad_sync(s->tr, tid, addr, &k, &f, &err) < 0 || !k)
		return;
	s->res->bp_hits += k;
	s->ops->count_passes(s->d, tid, bp, (unsigned long)k);
	/* the pad's false conditions count where racegate's own do */
	if (f && s->pad_when && s->pad_when[bp - s->p->bps] != PAD_WHEN_NONE &&
	    s->ops->when_false)
		s->ops->when_false(s->d, s->pad_when[bp - s->p->bps], (unsigned long)f);
}

/* After tid's arrival at the pad at addr: how far it may pass unseen. */
void session_pad_allow(session *s, pid_t tid, const plan_bp *bp, uint64_t addr)
{
	rg_err err = RG_ERR_INIT;
	unsigned long n;
	size_t when;
	bool cond = false;

	if (!tracer_pad_at(s->tr, addr) || !tracer_is_stopped(s->tr, tid))
		return;
	n = s->ops->next_interest(s->d, tid, bp);
	/* then only the condition in the pad matters: it runs it */
	if (s->pad_when && s->pad_when[bp - s->p->bps] != PAD_WHEN_NONE && s->ops->next_when)
		cond = s->ops->next_when(s->d, tid, bp, &when) &&
		       when == s->pad_when[bp - s->p->bps];
	if (tracer_pad_allow(s->tr, tid, addr, n == ULONG_MAX ? UINT64_MAX : n, cond,
			     &err) < 0)
		rg_trace("pad at 0x%llx: %s", (unsigned long long)addr, err.msg);
}

/* A thread is gone: its passes through every pad count still. */
void session_pads_thread_gone(session *s, pid_t tid)
{
	if (!s->ops->count_passes)
		return;
	for (size_t i = 0; i < s->p->nbps; i++) {
		uint64_t addr = run_bias_addr(&s->bt, s->p->bps[i].site);

		if (tracer_pad_at(s->tr, addr))
			session_pad_sync(s, tid, &s->p->bps[i], addr);
	}
}
