/*
 * The jump pads of the executable's gate sites, as the session sees them
 * (tracer/pad.c makes them): which sites get one at the exec stop, and
 * how the passes a thread made through one reach the decider, and how
 * many it may make next.  docs/design.md, "Jump pads".
 */
#include "session_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

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
				 bp->gates[k] != when && !cond_why ?
				 "another gate's when: is in the pad" :
				 bp->gates[k] != when ? "a pad runs one gate's when: only" :
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

/* Do bps a and b list the same gates?  (Both lists ascend.) */
static bool same_gates(const plan_bp *a, const plan_bp *b)
{
	return a->ngates == b->ngates &&
	       !memcmp(a->gates, b->gates, a->ngates * sizeof(*a->gates));
}

bool session_gates_meet(const plan_bp *a, const plan_bp *b)
{
	for (size_t i = 0, j = 0; i < a->ngates && j < b->ngates;) {
		if (a->gates[i] == b->gates[j])
			return true;
		if (a->gates[i] < b->gates[j])
			i++;
		else
			j++;
	}
	return false;
}

/*
 * The first place above bp's site that code elsewhere in the executable
 * may enter (a symbol, a direct jump's or call's target), run-time, in
 * *fence; 0 when there is none.  false when that cannot be known.
 */
static bool pad_fence(const session *s, const plan_bp *bp, uint64_t *fence)
{
	uint64_t at;

	*fence = 0;
	/* no pad's jump covers more than its 5 bytes' instructions */
	switch (dwarfx_entry_within(s->p->dx, bp->site.link_addr,
				    bp->site.link_addr + tracer_pad_cover_max(), &at)) {
	case DWARFX_OK:
		*fence = run_bias_addr(&s->bt, (rg_site){PLAN_EXE, at});
		return true;
	case DWARFX_NO_ENTRY:
		return true;
	default:
		return false;
	}
}

/*
 * The first pad made for the same gates as bp i, whose slots its pad is to
 * share (a gate's count is per thread across all its sites): its index,
 * or PAD_LEAD_NONE.
 */
static size_t pad_share(const session *s, size_t i)
{
	for (size_t k = 0; k < s->npad_leads; k++)
		if (same_gates(&s->p->bps[s->pad_leads[k]], &s->p->bps[i]))
			return s->pad_leads[k];
	return PAD_LEAD_NONE;
}

/* Why there can be no pad at bp (at run-time addr), or NULL. */
static const char *pad_refused(const session *s, const plan_bp *bp, uint64_t addr)
{
	if ((s->entry && addr == s->entry) || session_is_ptc(s, addr) ||
	    run_locs_busy(s->locs, addr))
		return "racegate's own breakpoint is there too";
	for (size_t k = 0; k < bp->ngates; k++)
		if (s->p->sp->gates[bp->gates[k]].then_open.n)
			return "racegate steps past the line (then_open, sequence)";
	return NULL;
}

/* A pad at bp i: NULL, or why none (--verbose); *cond_why for its when:. */
static const char *pad_one(session *s, size_t i, const char **cond_why)
{
	const plan_bp *bp = &s->p->bps[i];
	uint64_t addr = run_bias_addr(&s->bt, bp->site);
	size_t when = pad_when_gate(s->p, bp), nops = 0, lead = pad_share(s, i);
	const char *why = pad_refused(s, bp, addr);
	rg_err err = RG_ERR_INIT;
	tracer_span fn[8];
	cond_op *ops = NULL;
	uint64_t fence = 0;

	*cond_why = NULL;
	if (!why && !pad_fence(s, bp, &fence))
		why = "the executable's code cannot be read (where else it is entered)";
	if (when != PAD_WHEN_NONE)
		ops = pad_when_ops(s->p, &s->bt, when, bp, &nops, cond_why);
	if (!why) {
		tracer_pad_req req = {
			.addr = addr, .fn = fn, .nfn = pad_function(s, bp, fn),
			.fence = fence, .cond = ops, .ncond = nops,
			.share = lead == PAD_LEAD_NONE ? 0 :
				 run_bias_addr(&s->bt, s->p->bps[lead].site),
		};

		if (tracer_pad_make(s->tr, &req, &why, ops ? cond_why : &(const char *){ NULL },
				    &err) < 0) {
			rg_trace("no pad at 0x%llx: %s", (unsigned long long)addr, err.msg);
			why = "the pad could not be written";
		}
	}
	free(ops);
	if (why)
		return why;
	s->pad_when[i] = when != PAD_WHEN_NONE && !*cond_why ? when : PAD_WHEN_NONE;
	s->pad_lead[i] = lead == PAD_LEAD_NONE ? i : lead;
	if (lead == PAD_LEAD_NONE)
		s->pad_leads[s->npad_leads++] = i;
	return NULL;
}

/*
 * Jump pads for the executable's gate sites (tracer_pad_make), at the exec
 * stop: the one thread is stopped.  Not where racegate needs the trap of
 * its own (the entry, pthread_create, a FUNCTION:return's entry), nor for
 * a decider that cannot tell what passes, nor when the program is to be
 * left stopped (the jumps would stay in it).  Sites with the same gates
 * share their slots: a thread's passes at any of them are taken from one
 * count (a line inlined twice, a template's instances).
 */
void session_make_pads(session *s)
{
	const char *off = s->o->no_fastpath ? "--no-fastpath" :
			  s->o->keep_stopped ? "--keep-stopped" : NULL;
	size_t n = s->p->nbps ? s->p->nbps : 1;

	/* explore decides every hit itself: nothing to say per gate */
	if (!decider_has_fastpath(&s->dec))
		return;
	s->pad_when = xcalloc(n, sizeof(*s->pad_when));
	s->pad_lead = xcalloc(n, sizeof(*s->pad_lead));
	s->pad_leads = xcalloc(n, sizeof(*s->pad_leads));
	s->pad_peers = xcalloc(n, sizeof(*s->pad_peers));
	for (size_t i = 0; i < s->p->nbps; i++) {
		s->pad_when[i] = PAD_WHEN_NONE;
		s->pad_lead[i] = PAD_LEAD_NONE;
	}
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
		const char *why = off ? off : pad_one(s, i, &cond_whys[i]);

		whys[i] = why ? why : "";
	}
	for (size_t i = 0; i < s->p->nbps; i++)
		if (whys[i])
			pad_say(s, &s->p->bps[i], *whys[i] ? whys[i] : NULL,
				pad_when_gate(s->p, &s->p->bps[i]), cond_whys[i]);
	free(whys);
	free(cond_whys);
}

/* tid's passes through the pads led by bp lead since it was last told: to the decider. */
static void pad_sync(session *s, pid_t tid, size_t lead)
{
	const plan_bp *bp = &s->p->bps[lead];
	rg_err err = RG_ERR_INIT;
	uint64_t k = 0, f = 0;
	size_t when;

	if (tracer_pad_sync(s->tr, tid, run_bias_addr(&s->bt, bp->site), &k, &f, &err) < 0 ||
	    !k)
		return;
	s->res->bp_hits += k;
	decider_count_passes(&s->dec, tid, bp, (unsigned long)k);
	/* the pad's false conditions count where racegate's own do (the
	 * pads of one lead evaluate the same gate's) */
	when = pad_when_gate(s->p, bp);
	if (f && when != PAD_WHEN_NONE)
		decider_when_false(&s->dec, when, (unsigned long)f);
}

/*
 * The leading bps whose gates meet bp's (*out, the count returned): kept
 * for a bp of the executable, else in *tmp (free it).  Every arrival asks:
 * a gate on every line makes thousands of leads.
 */
static size_t pad_peers(session *s, const plan_bp *bp, const size_t **out, size_t **tmp)
{
	const plan_bp *own = plan_find(s->p, bp->site.link_addr);
	struct pad_peers *pp = own == bp ? &s->pad_peers[own - s->p->bps] : NULL;
	size_t *v, n = 0;

	*tmp = NULL;
	if (pp && pp->known) {
		*out = pp->v;
		return pp->n;
	}
	v = xcalloc(s->npad_leads + 1, sizeof(*v));
	for (size_t k = 0; k < s->npad_leads; k++)
		if (session_gates_meet(&s->p->bps[s->pad_leads[k]], bp))
			v[n++] = s->pad_leads[k];
	if (pp)
		*pp = (struct pad_peers){ v, n, true };
	else
		*tmp = v;
	*out = v;
	return n;
}

void session_pads_before(session *s, pid_t tid, const plan_bp *bp)
{
	const size_t *peers;
	size_t *tmp, n;

	if (!s->pad_leads || !decider_has_fastpath(&s->dec))
		return;
	n = pad_peers(s, bp, &peers, &tmp);
	for (size_t k = 0; k < n; k++)
		pad_sync(s, tid, peers[k]);
	free(tmp);
}

/*
 * After tid's arrival at bp: how far it may pass each pad whose gates meet
 * bp's unseen.  The pads of bp's own gates get all the engine allows;
 * those of other gates, which share some with bp, only "for ever": a
 * finite count shared by two sets of pads could be taken twice, so the
 * thread traps at the other set's next hit, which takes the count there.
 */
void session_pads_after(session *s, pid_t tid, const plan_bp *bp)
{
	const size_t *peers;
	size_t *tmp, npeers;

	if (!s->pad_leads || !decider_has_fastpath(&s->dec) || !tracer_is_stopped(s->tr, tid))
		return;
	npeers = pad_peers(s, bp, &peers, &tmp);
	for (size_t k = 0; k < npeers; k++) {
		const plan_bp *lb = &s->p->bps[peers[k]];
		uint64_t addr = run_bias_addr(&s->bt, lb->site);
		rg_err err = RG_ERR_INIT;
		unsigned long n;
		size_t when;
		bool cond = false;

		n = decider_next_interest(&s->dec, tid, lb);
		if (n != ULONG_MAX && !same_gates(lb, bp))
			n = 0;
		/* a site nothing can act at any more: its next hit traps, and
		 * disarms it, as on the trap path (the same count of hits) */
		if (!s->dec.ops->site_live(s->dec.d, lb))
			n = 0;
		/* then only the condition in the pad matters: it runs it */
		else
			cond = decider_next_when(&s->dec, tid, lb, &when) &&
			       when == pad_when_gate(s->p, lb);
		if (tracer_pad_allow(s->tr, tid, addr, n == ULONG_MAX ? UINT64_MAX : n, cond,
				     &err) < 0)
			rg_trace("pad at 0x%llx: %s", (unsigned long long)addr, err.msg);
	}
	free(tmp);
}

void session_pad_sync_all(session *s, const plan_bp *bp)
{
	const plan_bp *own = plan_find(s->p, bp->site.link_addr);
	size_t i;

	if (!s->pad_lead || own != bp || !decider_has_fastpath(&s->dec))
		return;
	i = (size_t)(own - s->p->bps);
	if (s->pad_lead[i] == PAD_LEAD_NONE)
		return;
	for (size_t t = 0; t < s->nthr; t++)
		pad_sync(s, s->thr[t].tid, s->pad_lead[i]);
}

/* A thread is gone: its passes through every pad count still. */
void session_pads_thread_gone(session *s, pid_t tid)
{
	if (!s->pad_leads || !decider_has_fastpath(&s->dec))
		return;
	for (size_t k = 0; k < s->npad_leads; k++)
		pad_sync(s, tid, s->pad_leads[k]);
}

void session_say_rewrites(session *s)
{
	const tracer_rewrite *w;
	size_t n = s->tr ? tracer_rewrites(s->tr, &w) : 0;

	for (size_t i = 0; i < n; i++) {
		const plan_bp *bp = plan_find(s->p, run_bias_exe_site(&s->bt, w[i].addr).link_addr);
		char *at = bp ? xasprintf("'%s' (0x%llx)", bp->where,
					  (unsigned long long)w[i].addr)
			      : xasprintf("0x%llx", (unsigned long long)w[i].addr);
		char *line;

		switch (w[i].kind) {
		case TRACER_REWRITE_PAD:
			line = xasprintf("the program rewrote its own code at %s over racegate's "
					 "jump to a pad: the gate no longer sees that line, and a "
					 "jump written over in part is code the program faults on "
					 "(for code that changes at a gated line, --no-fastpath)\n",
					 at);
			break;
		case TRACER_REWRITE_STALE:
			line = xasprintf("the program rewrote its own code at %s under racegate's "
					 "breakpoint: each hit runs racegate's copy of the "
					 "instruction as it was before (as under gdb)\n", at);
			break;
		default:
			line = xasprintf("the program rewrote its own code at %s over racegate's "
					 "breakpoint: the gate no longer sees that line\n", at);
		}
		if (!s->res->warnings.s || !strstr(s->res->warnings.s, line))
			rg_buf_puts(&s->res->warnings, line);
		free(line);
		free(at);
	}
}
