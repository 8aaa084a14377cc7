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

/* The image pads are made for: the program's (pid 0), or the one a followed
 * child runs since its exec, with its bias table. */
struct pad_img {
	plan *pl;
	const run_bias *bt;
	pid_t pid;
};

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
static size_t pad_function(const struct pad_img *pi, const plan_bp *bp, tracer_span *out)
{
	dwarfx *dx = plan_site_dx(pi->pl, bp->site);
	dwarfx_span sp[8];
	size_t n, k;

	n = dx ? dwarfx_function_spans(dx, bp->site.link_addr, sp, 8) : 0;
	for (k = 0; k < n; k++) {
		out[k].lo = run_bias_addr(pi->bt, (rg_site){bp->site.obj, sp[k].lo});
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
 * The first place above bp's site that code elsewhere in its object may
 * enter (a symbol, a direct jump's or call's target), run-time, in
 * *fence; 0 when there is none.  false when that cannot be known.
 */
static bool pad_fence(const struct pad_img *pi, const plan_bp *bp, uint64_t *fence)
{
	dwarfx *dx = plan_site_dx(pi->pl, bp->site);
	uint64_t at;

	*fence = 0;
	if (!dx)
		return false;
	/* no pad's jump covers more than its 5 bytes' instructions */
	switch (dwarfx_entry_within(dx, bp->site.link_addr,
				    bp->site.link_addr + tracer_pad_cover_max(), &at)) {
	case DWARFX_OK:
		*fence = run_bias_addr(pi->bt, (rg_site){bp->site.obj, at});
		return true;
	case DWARFX_NO_ENTRY:
		return true;
	default:
		return false;
	}
}

/*
 * The first pad made for the same gates as bp in its object of image pl,
 * whose slots its pad is to share (a gate's count is per thread across
 * all its sites): its index, or PAD_LEAD_NONE.  Not across objects: a
 * library's pads go with it.
 */
static size_t pad_share(const session *s, const plan *pl, const plan_bp *bp)
{
	for (size_t k = 0; k < s->npad_leads; k++) {
		const plan_bp *lb = s->pads[s->pad_leads[k]].bp;

		if (s->pads[s->pad_leads[k]].pl == pl && lb->site.obj == bp->site.obj &&
		    same_gates(lb, bp))
			return s->pad_leads[k];
	}
	return PAD_LEAD_NONE;
}

/* Why there can be no pad at run-time addr, or NULL. */
static const char *pad_refused(const session *s, uint64_t addr)
{
	if ((s->entry && addr == s->entry) || session_is_ptc(s, addr) ||
	    run_locs_busy(s->locs, addr))
		return "racegate's own breakpoint is there too";
	return NULL;
}

/*
 * Is bp a line racegate steps past (then_open, sequence:)?  Its pad then
 * covers its first instruction only, which the step runs from the
 * breakpoint's copy (tracer_resume_past), the way back being the
 * program's own code.
 */
static bool stepped_past(const session *s, const plan_bp *bp)
{
	for (size_t k = 0; k < bp->ngates; k++)
		if (s->p->sp->gates[bp->gates[k]].then_open.n)
			return true;
	return false;
}

/* The arrival sites' peers are to be found again (a pad came or went). */
static void peers_forget(session *s)
{
	for (size_t i = 0; i < s->npad_peers; i++)
		free(s->pad_peers[i].v);
	s->npad_peers = 0;
	rg_intmap_release(&s->pad_peer_ix);
}
/* A pad at bp (run-time addr) of image pi: NULL, or why none (--verbose);
 * *cond_why for its when: (the program's image only). */
static const char *pad_one(session *s, const struct pad_img *pi, const plan_bp *bp,
			   uint64_t addr, const char **cond_why)
{
	size_t when = pad_when_gate(s->p, bp), nops = 0, lead = pad_share(s, pi->pl, bp);
	const char *why = pi->pl == s->p ? pad_refused(s, addr) : NULL;
	rg_err err = RG_ERR_INIT;
	tracer_span fn[8];
	cond_op *ops = NULL;
	uint64_t fence = 0;

	*cond_why = NULL;
	if (!why && !pad_fence(pi, bp, &fence))
		why = "the object's code cannot be read (where else it is entered)";
	if (when != PAD_WHEN_NONE && pi->pl == s->p)
		ops = pad_when_ops(s->p, pi->bt, when, bp, &nops, cond_why);
	else if (when != PAD_WHEN_NONE)
		*cond_why = "the process runs another executable";
	if (!why) {
		tracer_pad_req req = {
			.pid = pi->pid, .addr = addr, .fn = fn,
			.nfn = stepped_past(s, bp) ? 0 : pad_function(pi, bp, fn),
			.fence = fence, .cond = ops, .ncond = nops,
			.share = lead == PAD_LEAD_NONE ? 0 : s->pads[lead].addr,
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
	RG_GROW(s->pads, s->npads + 1, s->pads_cap);
	s->pads[s->npads] = (struct spad){
		.bp = bp, .pl = pi->pl, .addr = addr,
		.lead = lead == PAD_LEAD_NONE ? s->npads : lead,
	};
	if (lead == PAD_LEAD_NONE) {
		RG_GROW(s->pad_leads, s->npad_leads + 1, s->pad_leads_cap);
		s->pad_leads[s->npad_leads++] = s->npads;
	}
	s->npads++;
	peers_forget(s);
	return NULL;
}

static void pads_for_image(session *s, const struct pad_img *pi, const char *off);

/* Why no pad may be made in this run at all, or NULL. */
static const char *pads_off(const session *s)
{
	return s->o->no_fastpath ? "--no-fastpath" :
	       s->o->keep_stopped ? "--keep-stopped" : NULL;
}

/*
 * Jump pads for the executable's gate sites (tracer_pad_make), at the exec
 * stop (the one thread stopped) or attached (every thread stopped).  Not
 * where racegate needs the trap of its own (the entry, pthread_create, a
 * FUNCTION:return's entry), nor for a decider that cannot tell what
 * passes, nor when the program is to be left stopped (the jumps would stay
 * in it).  Sites with the same gates share their slots: a thread's passes
 * at any of them are taken from one count (a line inlined twice, a
 * template's instances).  A library's sites get theirs as it maps
 * (session_pads_site).
 */
void session_make_pads(session *s)
{
	const char *off = pads_off(s);

	/* explore decides every hit itself: nothing to say per gate */
	if (!decider_has_fastpath(&s->dec))
		return;
	s->pads = xcalloc(1, sizeof(*s->pads));
	s->pads_cap = 1;
	/* a function's return has no site of its own to pad */
	for (size_t k = 0; k < s->p->sp->ngates; k++)
		if (plan_gate_is_return(s->p, k))
			rg_trace("gate '%s' at %s: no pad: a function's return",
				 s->p->sp->gates[k].name, s->p->sp->gates[k].at);

	pads_for_image(s, &(struct pad_img){ s->p, &s->bt, 0 }, off);
}

/*
 * Pads for the executable's sites of image pi, from the highest address
 * down: a jump over short instructions may end in the bytes of the next
 * site's jump, which must be there first (tracer_pad_make).  Said in
 * address order.
 */
static void pads_for_image(session *s, const struct pad_img *pi, const char *off)
{
	const plan *pl = pi->pl;
	const char **whys = xcalloc(pl->nbps + 1, sizeof(*whys));
	const char **cond_whys = xcalloc(pl->nbps + 1, sizeof(*cond_whys));

	for (size_t i = pl->nbps; i-- > 0 && !s->end.failed;) {
		const plan_bp *bp = &pl->bps[i];
		const char *why = off ? off : pad_one(s, pi, bp, run_bias_addr(pi->bt, bp->site),
						      &cond_whys[i]);

		whys[i] = why ? why : "";
	}
	for (size_t i = 0; i < pl->nbps; i++)
		if (whys[i])
			pad_say(s, &pl->bps[i], *whys[i] ? whys[i] : NULL,
				pad_when_gate(s->p, &pl->bps[i]), cond_whys[i]);
	free(whys);
	free(cond_whys);
}

void session_pads_exec(session *s, pid_t pid, plan *img, const run_bias *bt)
{
	if (s->pads)
		pads_for_image(s, &(struct pad_img){ img, bt, pid }, pads_off(s));
}

/* A pad's index by its site, or s->npads. */
static size_t pad_index(const session *s, const plan_bp *bp)
{
	size_t i;

	for (i = 0; i < s->npads && s->pads[i].bp != bp; i++)
		;
	return i;
}

/*
 * A library mapped while threads run (dlopen): every one is stopped for
 * its pads (tracer_stop_all), once per library, and goes on once its
 * sites are told.  NULL, or why its sites keep their traps.
 */
static const char *pads_stop_all(session *s)
{
	rg_err err = RG_ERR_INIT;

	if (s->pads_stopped || s->pads_stop_why)
		return s->pads_stop_why;
	if (tracer_stop_all(s->tr, &s->pads_stopped, &s->npads_stopped, &err) < 0) {
		rg_trace("no pads in the library: %s", err.msg);
		s->pads_stop_why = "a thread could not be stopped to write the jump";
	}
	return s->pads_stop_why;
}

void session_pads_site(void *ctx, const plan_bp *bp, uint64_t at, bool armed)
{
	session *s = ctx;
	const char *why, *cond_why = NULL;
	size_t i, k;

	if (!s->pads)
		return;
	if (armed && !bp) {
		/* the object's sites are told: the threads stopped for them go on */
		if (s->pads_stopped)
			tracer_resume_all(s->tr, s->pads_stopped, s->npads_stopped);
		s->pads_stopped = NULL;
		s->pads_stop_why = NULL;
		return;
	}
	if (armed) {
		why = pads_off(s);
		if (!why)
			why = pads_stop_all(s);
		if (!why)
			why = pad_one(s, &(struct pad_img){ s->p, &s->bt, 0 }, bp, at, &cond_why);
		pad_say(s, bp, why, pad_when_gate(s->p, bp), cond_why);
		return;
	}
	/* its object goes (dlclose): the passes through it so far count, and
	 * the tracer forgets the pad with it; the pads sharing its slots are
	 * of that object too (pad_share) */
	if ((i = pad_index(s, bp)) == s->npads)
		return;
	if (s->pads[i].lead == i)
		session_pad_sync_all(s, bp);
	for (k = 0; k < s->npad_leads && s->pad_leads[k] != i; k++)
		;
	if (k < s->npad_leads)
		s->pad_leads[k] = s->pad_leads[--s->npad_leads];
	s->pads[i] = s->pads[--s->npads];
	/* the one moved into i: its index, and its followers' lead */
	for (k = 0; k < s->npad_leads; k++)
		if (s->pad_leads[k] == s->npads)
			s->pad_leads[k] = i;
	for (k = 0; k < s->npads; k++)
		if (s->pads[k].lead == s->npads)
			s->pads[k].lead = i;
	peers_forget(s);
}

/* tid's passes through the pads led by pad lead since it was last told: to the decider. */
static void pad_sync(session *s, pid_t tid, size_t lead)
{
	const struct spad *sp = &s->pads[lead];
	rg_err err = RG_ERR_INIT;
	uint64_t k = 0, f = 0;
	size_t when;

	if (tracer_pad_sync(s->tr, tid, sp->addr, &k, &f, &err) < 0 || !k)
		return;
	s->res->bp_hits += k;
	decider_count_passes(&s->dec, tid, sp->bp, (unsigned long)k);
	/* the pad's false conditions count where racegate's own do (the
	 * pads of one lead evaluate the same gate's) */
	when = pad_when_gate(s->p, sp->bp);
	if (f && when != PAD_WHEN_NONE)
		decider_when_false(&s->dec, when, (unsigned long)f);
}

/* The image bp is a site of: a followed child's since its exec, or the program's. */
static const plan *image_of_bp(const session *s, const plan_bp *bp)
{
	for (size_t i = 0; i < s->nprocs; i++) {
		const plan *pl = s->procs[i].img;

		if (pl && bp >= pl->bps && bp < pl->bps + pl->nbps)
			return pl;
	}
	return s->p;
}

/* The image thread tid runs (NULL: not known). */
static const plan *image_of_tid(const session *s, pid_t tid)
{
	for (size_t t = 0; t < s->nthr; t++)
		if (s->thr[t].tid == tid)
			return s->procs[s->thr[t].proc].img ? s->procs[s->thr[t].proc].img : s->p;
	return NULL;
}

/*
 * The leading pads of bp's image whose gates meet bp's (*out, the count
 * returned), kept until a pad comes or goes.  Every arrival asks: a gate on every line
 * makes thousands of leads.
 */
static size_t pad_peers(session *s, const plan_bp *bp, const size_t **out)
{
	size_t *at = rg_intmap_ref(&s->pad_peer_ix, (uint64_t)(uintptr_t)bp, SIZE_MAX);
	struct pad_peers *pp;

	if (*at == SIZE_MAX) {
		RG_GROW(s->pad_peers, s->npad_peers + 1, s->pad_peers_cap);
		pp = &s->pad_peers[*at = s->npad_peers++];
		pp->v = xcalloc(s->npad_leads + 1, sizeof(*pp->v));
		pp->n = 0;
		for (size_t k = 0; k < s->npad_leads; k++)
			if (s->pads[s->pad_leads[k]].pl == image_of_bp(s, bp) &&
			    session_gates_meet(s->pads[s->pad_leads[k]].bp, bp))
				pp->v[pp->n++] = s->pad_leads[k];
	}
	pp = &s->pad_peers[*at];
	*out = pp->v;
	return pp->n;
}

void session_pads_before(session *s, pid_t tid, const plan_bp *bp)
{
	const size_t *peers;
	size_t n;

	if (!s->npad_leads || !decider_has_fastpath(&s->dec))
		return;
	n = pad_peers(s, bp, &peers);
	for (size_t k = 0; k < n; k++)
		pad_sync(s, tid, peers[k]);
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
	size_t npeers;

	if (!s->npad_leads || !decider_has_fastpath(&s->dec) || !tracer_is_stopped(s->tr, tid))
		return;
	npeers = pad_peers(s, bp, &peers);
	for (size_t k = 0; k < npeers; k++) {
		const struct spad *sp = &s->pads[peers[k]];
		const plan_bp *lb = sp->bp;
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
		if (tracer_pad_allow(s->tr, tid, sp->addr, n == ULONG_MAX ? UINT64_MAX : n,
				     cond, &err) < 0)
			rg_trace("pad at 0x%llx: %s", (unsigned long long)sp->addr, err.msg);
	}
}

void session_pad_sync_all(session *s, const plan_bp *bp)
{
	size_t i = pad_index(s, bp);

	if (i == s->npads || !decider_has_fastpath(&s->dec))
		return;
	for (size_t t = 0; t < s->nthr; t++)
		if (image_of_tid(s, s->thr[t].tid) == s->pads[i].pl)
			pad_sync(s, s->thr[t].tid, s->pads[i].lead);
}

/* A thread is gone: its passes through every pad count still. */
void session_pads_thread_gone(session *s, pid_t tid)
{
	const plan *pl = image_of_tid(s, tid);

	if (!decider_has_fastpath(&s->dec))
		return;
	for (size_t k = 0; k < s->npad_leads; k++)
		if (!pl || s->pads[s->pad_leads[k]].pl == pl)
			pad_sync(s, tid, s->pad_leads[k]);
}

void session_pads_sync_every(session *s)
{
	for (size_t t = 0; t < s->nthr; t++)
		session_pads_thread_gone(s, s->thr[t].tid);
}

void session_pads_free(session *s)
{
	peers_forget(s);
	free(s->pad_peers);
	free(s->pads);
	free(s->pad_leads);
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
