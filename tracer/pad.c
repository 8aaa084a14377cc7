/*
 * Jump pads: a gated instruction that most threads pass without anything
 * to note is replaced by a jump to a pad, which counts and decides the hit
 * in the thread itself (tracer_int.h has the pad and its table; docs/design.md
 * "Jump pads" says why it is safe).  The tracer stays the only one who
 * decides: a thread passes the pad only as many times as the caller allowed
 * (tracer_pad_allow), and any other hit traps on the pad's breakpoint, which
 * is reported as an ordinary BREAKPOINT at the site with every register as
 * it was there.  Resuming it runs the instruction out of line as for an
 * int3 (step.c).
 *
 * Writes to the program's memory that a running thread may see: a slot's
 * state byte (made live last, dead in one byte), the force byte and the
 * off byte; a slot's key and count are written only while its thread is
 * stopped (or before the slot is live).  A thread never sees half a jump:
 * the jumps are written with every thread stopped (tracer_pad_make), and
 * never taken out while the program runs (a removed breakpoint turns its
 * pad off instead).
 */
#include "procstate.h"
#include "tracer_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct pad *tracer_pad_find(const struct image *img, uint64_t site)
{
	for (size_t i = 0; img && i < img->npads; i++)
		if (img->pads[i].site == site)
			return &img->pads[i];
	return NULL;
}

struct pad *tracer_pad_by_trap(const struct image *img, uint64_t pc)
{
	uint64_t at = arch_bp_from_trap_pc(pc);

	for (size_t i = 0; img && i < img->npads; i++)
		if (img->pads[i].trap == at)
			return &img->pads[i];
	return NULL;
}

/* The pad whose table holds p's slots (struct pad, lead). */
static struct pad *lead_of(const struct image *img, const struct pad *p)
{
	return &img->pads[p->lead];
}

/* Are p and every pad reading its slots off (no hit of theirs counts)? */
static bool group_off(const struct image *img, const struct pad *p)
{
	for (size_t i = 0; i < img->npads; i++)
		if (img->pads[i].lead == p->lead && !img->pads[i].off)
			return false;
	return true;
}

void tracer_pads_free(struct image *img)
{
	for (size_t i = 0; i < img->npads; i++)
		free(img->pads[i].cond_depth);
	free(img->pads);
	img->pads = NULL;
	img->npads = img->pads_cap = 0;
}

static uint64_t slot_addr(const struct pad *p, size_t i, size_t off)
{
	return p->table + PAD_SLOT0 + i * PAD_SLOT_SIZE + off;
}

static int put_byte(struct aspace *as, uint64_t addr, uint8_t v)
{
	return tracer_mem_pwrite(as->memfd, addr, &v, 1);
}

/*
 * Are all threads that run as's code stopped, so that code can be
 * replaced?  *by: one of them to map pages with, in a plain stop if one
 * is.  No other process may run the image (a followed fork child has a
 * copy of the jumps made before it was forked, not after).
 */
static bool all_stopped(tracer *tr, struct aspace *as, struct tcb **by, const char **why)
{
	*by = NULL;
	if (tr->nforks || as->img->refs != 1) {
		*why = "a child process runs the same code (a fork, or one sharing the memory)";
		return false;
	}
	for (size_t i = 0; i < tr->ntcbs; i++) {
		struct tcb *t = tr->tcbs[i];

		if (t->as != as || (t->flags & TCB_EXITING))
			continue;
		if (t->flags & TCB_CHILD) {
			*why = "a child process runs the same code (a fork, or one sharing the memory)";
			return false;
		}
		if (!(t->flags & TCB_HELD)) {
			*why = "threads run (a pad is made only while every thread is stopped)";
			return false;
		}
		if (!*by || ((*by)->flags & (TCB_GROUP_STOP | TCB_IN_EVENT)))
			*by = t;
	}
	if (!*by) {
		*why = "no thread is stopped";
		return false;
	}
	return true;
}

/*
 * The PCs of every stopped thread's frames (the first is its PC): read
 * once per stop of all threads (tr->nstatus tells a new one).  A frame
 * unwinding cannot get past ends the list of its thread; a thread that
 * cannot be unwound gives its PC alone.
 */
static void stopped_frames(tracer *tr)
{
	enum { MAX_FRAMES = 256 };

	if (tr->frames_at == tr->nstatus + 1)
		return;
	tr->nframes = 0;
	for (size_t i = 0; i < tr->ntcbs; i++) {
		struct tcb *t = tr->tcbs[i];
		rg_err err = RG_ERR_INIT;
		arch_regs r;
		size_t n = 0;

		if (t->flags & TCB_EXITING)
			continue;
		tr->frames = xrealloc(tr->frames, (tr->nframes + MAX_FRAMES + 1) *
					  sizeof(*tr->frames));
		if (tracer_regs_read(t, &r) == 0)
			tr->frames[tr->nframes++] = arch_get_pc(&r);
		if (tracer_backtrace(tr, t->tid, tr->frames + tr->nframes, MAX_FRAMES, &n,
				     &err) == 0)
			tr->nframes += n;
	}
	tr->frames_at = tr->nstatus + 1;
}

/*
 * Is a thread stopped inside [site+1, site+covered), or held at site on
 * its way through the instructions one at a time, or does one of its
 * frames return there (a signal handler that interrupted it there)?  Its
 * next instruction would be the middle of the jump.
 */
static const char *thread_inside(tracer *tr, uint64_t site, size_t covered)
{
	for (size_t i = 0; i < tr->ntcbs; i++) {
		const struct tcb *t = tr->tcbs[i];

		if ((t->flags & (TCB_AT_BP | TCB_EXITING)) == TCB_AT_BP && t->bp_addr == site)
			return "a thread is held at the line";
	}
	stopped_frames(tr);
	for (size_t i = 0; i < tr->nframes; i++)
		if (tr->frames[i] > site && tr->frames[i] < site + covered)
			return "a thread is stopped inside the instructions its jump covers "
			       "(or a signal handler returns there)";
	return NULL;
}

const char *tracer_pad_cover(arch *a, uint64_t site, const uint8_t *code, size_t n,
			     bool more, struct arch_insn *insn, size_t *ninsn)
{
	rg_err e = RG_ERR_INIT;
	size_t len = 0, i;

	*ninsn = 0;
	while (len < ARCH_JMP_LEN) {
		if (*ninsn && !more)
			return "its first instruction is shorter than " ARCH_JMP_LEN_TEXT " bytes";
		if (len >= n || arch_decode(a, code + len, n - len, site + len,
					    &insn[*ninsn], &e) < 0)
			return "its instructions cannot be decoded";
		len += insn[(*ninsn)++].len;
	}
	/*
	 * A jump, call or return only last: the bytes behind one are reached
	 * from elsewhere (a landing pad, a computed goto: nothing a scan of
	 * the function's direct jumps finds), or a return address points
	 * there, and they would be the middle of the pad's jump.
	 */
	for (i = 0; i < *ninsn; i++) {
		const char *why = NULL;
		int m = arch_pad_movable(&insn[i], &why);

		if (m == ARCH_PAD_NEVER)
			return why;
		if (m == ARCH_PAD_ENDS && i + 1 < *ninsn)
			return "a jump, call or return in its first " ARCH_JMP_LEN_TEXT
			       " bytes is followed by more of them";
	}
	return NULL;
}

const char *tracer_pad_pun_cover(arch *a, uint64_t site, const uint8_t *code, size_t n,
				 bool more, struct arch_insn *insn, size_t *ninsn)
{
	rg_err e = RG_ERR_INIT;
	struct arch_insn in;
	size_t len = 0, off;
	const char *why = NULL;

	*ninsn = 0;
	if (n < ARCH_JMP_LEN)
		return "its first " ARCH_JMP_LEN_TEXT " bytes are not all code";
	while (len < ARCH_JMP_LEN && *ninsn < PAD_INSNS_MAX) {
		int m;

		if (arch_decode(a, code + len, n - len, site + len, &insn[*ninsn], &e) < 0)
			return "its instructions cannot be decoded";
		m = arch_pad_movable(&insn[*ninsn], &why);
		if (m == ARCH_PAD_NEVER || len + insn[*ninsn].len >= ARCH_JMP_LEN)
			break;
		len += insn[(*ninsn)++].len;
		if (m == ARCH_PAD_ENDS || !more)
			break;
	}
	if (!*ninsn)
		return why ? why : "its first instruction is too long to jump over alone";
	/*
	 * The bytes behind keep their code: nothing may put an int3 there
	 * while the jump lives.  A return address there would get one (a
	 * FUNCTION:return, a line stepped past).
	 */
	for (off = 0; off < ARCH_JMP_LEN; off += in.len) {
		if (arch_decode(a, code + off, n - off, site + off, &in, &e) < 0)
			return "the code behind its short instructions cannot be decoded";
		if ((in.flags & ARCH_INSN_CALL) && off + in.len < ARCH_JMP_LEN)
			return "a call in its first " ARCH_JMP_LEN_TEXT " bytes returns inside them";
	}
	return NULL;
}

const char *tracer_pad_jumps_into(arch *a, uint64_t lo, const uint8_t *code, size_t n,
				  uint64_t site, size_t covered)
{
	struct arch_insn in;
	rg_err e = RG_ERR_INIT;

	for (size_t off = 0; off < n; off += in.len) {
		if (arch_decode(a, code + off, n - off, lo + off, &in, &e) < 0)
			return "its function does not decode";
		if (in.flags & ARCH_INSN_INDIRECT)
			return "its function has a jump whose target cannot be told (a jump table)";
		if ((in.flags & ARCH_INSN_RELBRANCH) && in.target > site &&
		    in.target < site + covered)
			return "the line's first " ARCH_JMP_LEN_TEXT " bytes hold a jump target";
	}
	return NULL;
}

/* Does a jump in fn's code go into (site, site+n)?  Or can it not be told? */
static const char *jumps_into(tracer *tr, struct aspace *as, uint64_t site, size_t n,
			      const tracer_span *fn, size_t nfn)
{
	const char *why = NULL;
	bool holds = false;

	for (size_t k = 0; k < nfn; k++)
		holds |= site >= fn[k].lo && site + n <= fn[k].hi;
	if (!holds)
		return "its function's code is not known";
	for (size_t k = 0; k < nfn && !why; k++) {
		size_t len = fn[k].hi - fn[k].lo;
		uint8_t *code;

		if (len > (1u << 24))
			return "its function's code is not known";
		code = xmalloc(len ? len : 1);
		if (tracer_read_code(as, fn[k].lo, code, len) != len)
			why = "its function's code is not known";
		else
			why = tracer_pad_jumps_into(tr->arch, fn[k].lo, code, len, site, n);
		free(code);
	}
	return why;
}

/* How many bytes a pad's jump holds at its site: the instructions it
 * covers, or (a jump over short ones) 5, the rest being the program's. */
static size_t pad_span(const struct pad *p)
{
	return p->covered > ARCH_JMP_LEN ? p->covered : ARCH_JMP_LEN;
}

const struct pad *tracer_pad_over(const struct image *img, uint64_t addr)
{
	for (size_t i = 0; img && i < img->npads; i++)
		if (addr > img->pads[i].site && addr < img->pads[i].site + pad_span(&img->pads[i]))
			return &img->pads[i];
	return NULL;
}

/*
 * Why a jump may not take [site, site+span), covering the instructions of
 * [site, site+covered): a breakpoint or another pad's jump there.  Behind
 * the instructions (a jump over short ones), another pad's jump may start:
 * its bytes stay as they are while pads live, like the program's.
 */
static const char *span_clash(const struct image *img, uint64_t site, size_t covered,
			      size_t span)
{
	for (size_t i = tracer_bp_lower(img, site + 1);
	     i < img->nbps && img->bps[i].addr < site + span; i++)
		if (img->bps[i].addr < site + covered ||
		    !tracer_pad_find(img, img->bps[i].addr))
			return "another breakpoint is inside its first " ARCH_JMP_LEN_TEXT " bytes";
	for (size_t i = 0; i < img->npads; i++) {
		const struct pad *q = &img->pads[i];

		if (q->site < site + span && site < q->site + pad_span(q) &&
		    q->site < site + covered)
			return "another pad overlaps it";
	}
	return NULL;
}

static size_t insn_bytes(const struct arch_insn *insn, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		len += insn[i].len;
	return len;
}

/*
 * The jump over short instructions (tracer_pad_pun_cover) at b: its
 * instructions in insn[], *ninsn, as many as no jump in fn goes between.
 */
static const char *pun_refusal(tracer *tr, struct aspace *as, struct bp *b,
			       const uint8_t *code, size_t n, const tracer_pad_req *req,
			       struct arch_insn *insn, size_t *ninsn)
{
	const char *why = tracer_pad_pun_cover(tr->arch, b->addr, code, n, req->nfn > 0,
					       insn, ninsn);

	/* fewer instructions when a jump goes to one of them */
	while (!why && *ninsn > 1 &&
	       (b->addr + insn_bytes(insn, *ninsn) > req->fence ||
		jumps_into(tr, as, b->addr, insn_bytes(insn, *ninsn), req->fn, req->nfn)))
		--*ninsn;
	if (!why && b->addr + insn_bytes(insn, *ninsn) > req->fence)
		why = "code elsewhere enters the middle of its instruction";
	if (!why)
		why = span_clash(as->img, b->addr, insn_bytes(insn, *ninsn), ARCH_JMP_LEN);
	return why;
}

/*
 * Why b's instruction (and those after it the jump covers: insn[], *ninsn)
 * cannot be moved to a pad, or NULL; *pun when the jump is one over fewer
 * than ARCH_JMP_LEN bytes of instructions (tracer_pad_pun_cover).
 */
static const char *site_refusal(tracer *tr, struct aspace *as, struct bp *b,
				const tracer_pad_req *req,
				struct arch_insn *insn, size_t *ninsn, bool *pun)
{
	uint8_t code[ARCH_JMP_LEN + ARCH_MAX_INSN];
	const char *why;
	size_t n;

	*pun = false;
	if (b->ntemp)
		return "racegate steps past a line there";
	n = tracer_read_code(as, b->addr, code, sizeof(code));
	why = tracer_pad_cover(tr->arch, b->addr, code, n, req->nfn > 0, insn, ninsn);
	if (!why)
		why = span_clash(as->img, b->addr, insn_bytes(insn, *ninsn),
				 insn_bytes(insn, *ninsn));
	/* another function (a second entry point, a call or jump from
	 * elsewhere in the object) may enter the bytes the jump takes */
	if (!why && b->addr + insn_bytes(insn, *ninsn) > req->fence)
		why = "code elsewhere in the program enters its first " ARCH_JMP_LEN_TEXT " bytes (a symbol, "
		      "a jump or call target)";
	if (!why && *ninsn > 1)
		why = jumps_into(tr, as, b->addr, insn_bytes(insn, *ninsn), req->fn, req->nfn);
	if (why) {
		/* its first instructions alone, the jump's last bytes the next ones' */
		const char *pwhy = pun_refusal(tr, as, b, code, n, req, insn, ninsn);

		*pun = !pwhy;
		/* the plain jump's reason, unless the short one got further */
		why = !pwhy ? NULL : *ninsn ? pwhy : why;
	}
	if (!why && !b->decoded) {
		b->insn = insn[0];
		b->decoded = true;
	}
	return why;
}

int tracer_pad_make(tracer *tr, const tracer_pad_req *preq, const char **why,
		    const char **cond_why, rg_err *err)
{
	tracer_pad_req req = *preq;
	uint64_t addr = req.addr;
	struct arch_insn insn[PAD_INSNS_MAX];
	size_t ninsn = 0, covered = 0;
	struct aspace *as = req.pid ? tracer_as_find(tr, req.pid) : TRACER_MAIN_AS(tr);
	struct tcb *t = NULL;
	struct bp *b = as ? tracer_bp_find(as->img, addr) : NULL;
	struct arch_pad ap = { 0 };
	uint8_t code[PAD_CODE_MAX], jmp[ARCH_JMP_LEN], zero[PAD_TABLE_SIZE] = { 0 };
	uint8_t orig[ARCH_JMP_LEN], now[ARCH_JMP_LEN];
	bool pun;
	struct pad *p, *share = NULL;
	rg_err derr = RG_ERR_INIT;
	int rc;

	if (!req.fence)
		req.fence = UINT64_MAX;

	*cond_why = "no condition";
	if (!as) {
		*why = "the process is not followed";
		return 0;
	}
	if ((p = tracer_pad_find(as->img, addr))) {
		tracer_pad_set_off(tr, as->img, p, false);
		*cond_why = p->cond_lo ? NULL : "the pad was made without it";
		return 1;
	}
	if (tr->exit_queued) {
		*why = "the program has ended";
		return 0;
	}
	if (!arch_pad_supported(why) || !all_stopped(tr, as, &t, why))
		return 0;
	if (!b || !b->user) {
		*why = "no breakpoint there";
		return 0;
	}
	if ((*why = site_refusal(tr, as, b, &req, insn, &ninsn, &pun)) ||
	    (*why = thread_inside(tr, addr, insn_bytes(insn, ninsn))))
		return 0;
	/* slots shared before any thread can have one */
	if (req.share && (share = tracer_pad_find(as->img, req.share)))
		share = lead_of(as->img, share);
	covered = insn_bytes(insn, ninsn);
	/* the bytes the jump replaces as the program has them, and those it
	 * keeps as they are now (another pad's jump may start there) */
	if (tracer_read_code(as, addr, orig, ARCH_JMP_LEN) != ARCH_JMP_LEN ||
	    tracer_mem_pread(as->memfd, addr, now, ARCH_JMP_LEN) != ARCH_JMP_LEN)
		return rg_error(err, "cannot read the code at 0x%llx", (unsigned long long)addr);
	if (pun) {
		uint64_t lo, hi;

		rc = arch_pad_pun_window(addr, now, covered, &lo, &hi)
			     ? tracer_scratch_pun(tr, t, addr, lo, hi, &ap.at, &ap.table, err) : 1;
	} else {
		rc = tracer_scratch_pad(tr, t, b, &ap.at, &ap.table, err);
	}
	if (rc) {
		*why = pun ? "no free page where the jump over its short instructions can go"
			   : "no scratch page within reach";
		return rc < 0 ? -1 : 0;
	}
	ap.site = addr;
	ap.insn = insn;
	ap.ninsn = ninsn;
	ap.slots = share ? share->table + PAD_SLOT0 : 0;
	ap.cond = req.cond;
	ap.ncond = req.ncond;
	*cond_why = req.cond ? NULL : "no condition";
	if (arch_pad_encode(&ap, code, &derr) < 0) {
		*why = "its operand is out of a pad's reach";
		return 0;
	}
	if (req.cond)
		*cond_why = ap.cond_why;
	{
		size_t lead = share ? (size_t)(share - as->img->pads) : as->img->npads;

		RG_GROW(as->img->pads, as->img->npads + 1, as->img->pads_cap);
		p = &as->img->pads[as->img->npads];
		memset(p, 0, sizeof(*p));
		p->lead = lead;
	}
	p->site = addr;
	memcpy(p->orig, orig, ARCH_JMP_LEN);
	p->code = ap.at;
	p->table = ap.table;
	p->trap = ap.trap;
	p->reloc = ap.reloc;
	p->codelen = ap.len;
	p->covered = covered;
	p->ninsn = ninsn;
	for (size_t i = 0, off = 0; i < ninsn; off += insn[i++].len) {
		p->reloc_off[i] = ap.reloc_off[i];
		p->site_off[i] = (uint8_t)off;
	}
	if (ap.cond_lo) {
		p->cond_lo = ap.cond_lo;
		p->cond_hi = ap.cond_hi;
		p->cond_exit = ap.cond_exit;
		p->cond_depth = xmalloc(ap.cond_hi - ap.cond_lo);
		memcpy(p->cond_depth, ap.depth, ap.cond_hi - ap.cond_lo);
		p->cond_any = true;
		lead_of(as->img, p)->cond_any = true;
	}
	arch_jump(jmp, addr, ap.at);
	/* over short instructions, the jump's last bytes are the program's own */
	RG_ASSERT(!pun || memcmp(jmp + covered, now + covered, ARCH_JMP_LEN - covered) == 0);
	/* the pad and its table first; the jump to it last */
	if (tracer_mem_pwrite(as->memfd, ap.table, zero, sizeof(zero)) < 0 ||
	    tracer_mem_pwrite(as->memfd, ap.at, code, PAD_CODE_MAX) < 0 ||
	    tracer_mem_pwrite(as->memfd, addr, jmp, ARCH_JMP_LEN) < 0)
		return rg_error(err, "cannot write a pad for 0x%llx: %s",
				(unsigned long long)addr, strerror(errno));
	as->img->npads++;
	return 1;
}

void tracer_code_gone(tracer *tr, uint64_t addr)
{
	struct aspace *as = TRACER_MAIN_AS(tr);
	struct pad *p = tracer_pad_find(as->img, addr);

	/* its copy (a thread still in it is put right by detach: oots_gone) */
	rg_intmap_del(&as->oot, addr);
	if (!p)
		return;
	/* site 0: found by nothing, its bytes written by nothing; its table
	 * stays for the pads that share it */
	p->site = p->trap = p->reloc = 0;
	p->ninsn = p->covered = 0;
	p->cond_lo = p->cond_hi = 0;
	p->off = true;
}

size_t tracer_pad_cover_max(void)
{
	/* short instructions short of the jump, then the longest one */
	return ARCH_JMP_LEN - 1 + ARCH_MAX_INSN;
}

bool tracer_pad_at(const tracer *tr, uint64_t addr)
{
	const struct pad *p = tracer_pad_find(TRACER_MAIN_AS(tr)->img, addr);

	return p && !p->off;
}

void tracer_pad_set_off(tracer *tr, struct image *img, struct pad *p, bool off)
{
	if (p->off == off)
		return;
	p->off = off;
	/* in every process that runs the image (a followed fork child's copy) */
	for (size_t a = 0; a < tr->nas; a++)
		if (tr->as[a]->img == img)
			put_byte(tr->as[a], p->table, off);
}

void tracer_pad_fork(struct aspace *as, const struct aspace *from)
{
	/* the child's copy of each table holds its parent's slots: none is
	 * its threads', which start from nothing (state 2: dead; a slot it
	 * takes later counts its false conditions from 0) */
	for (size_t k = 0; k < from->npadslots && k < from->img->npads; k++)
		for (size_t i = 0; i < from->padslots[k].nslots; i++) {
			uint64_t zero = 0;

			put_byte(as, slot_addr(&from->img->pads[k], i, PAD_STATE_OFF), 2);
			tracer_mem_pwrite(as->memfd, slot_addr(&from->img->pads[k], i,
							       PAD_FALSE_OFF), &zero, sizeof(zero));
		}
}

/* The slots of lead's table in as (made on first use). */
static struct pad_slots *slots_of(struct aspace *as, const struct pad *lead)
{
	size_t k = (size_t)(lead - as->img->pads);

	if (k >= as->npadslots) {
		size_t n = as->img->npads > k ? as->img->npads : k + 1;

		as->padslots = xrealloc(as->padslots, n * sizeof(*as->padslots));
		memset(as->padslots + as->npadslots, 0,
		       (n - as->npadslots) * sizeof(*as->padslots));
		as->npadslots = n;
	}
	return &as->padslots[k];
}

/* The address space of tid's slots: its own, or (gone) one that has a slot of it. */
static struct aspace *as_of_tid(tracer *tr, pid_t tid)
{
	const struct tcb *t = tracer_tcb_find(tr, tid);

	if (t && t->as)
		return t->as;
	for (size_t a = 0; a < tr->nas; a++)
		for (size_t k = 0; k < tr->as[a]->npadslots; k++)
			for (size_t i = 0; i < tr->as[a]->padslots[k].nslots; i++)
				if (tr->as[a]->padslots[k].slots[i].tid == tid)
					return tr->as[a];
	return NULL;
}

void tracer_pad_as_gone(tracer *tr, struct aspace *as)
{
	for (size_t k = 0; k < as->npadslots && k < as->img->npads; k++)
		for (size_t i = 0; i < as->padslots[k].nslots; i++) {
			const struct pad_slot *sl = &as->padslots[k].slots[i];

			if (!sl->unsynced || !sl->tid)
				continue;
			RG_GROW(tr->pads_gone, tr->npads_gone + 1, tr->pads_gone_cap);
			tr->pads_gone[tr->npads_gone++] = (struct pad_gone){
				sl->tid, as->img->pads[k].site, sl->unsynced, sl->unsynced_false };
		}
}

/* The passes of tid through the pads led by the one at lead, kept when its
 * process went (tracer_pad_as_gone): handed over once. */
static bool gone_passes(tracer *tr, pid_t tid, uint64_t lead, uint64_t *passes,
			uint64_t *falses)
{
	for (size_t i = 0; i < tr->npads_gone; i++)
		if (tr->pads_gone[i].tid == tid && tr->pads_gone[i].lead == lead) {
			*passes = tr->pads_gone[i].passes;
			*falses = tr->pads_gone[i].falses;
			tr->pads_gone[i] = tr->pads_gone[--tr->npads_gone];
			return true;
		}
	return false;
}

/* The arrivals slot i found false since last read: passes too. */
static void read_falses(struct aspace *as, struct pad *p, size_t i)
{
	struct pad_slot *s = &slots_of(as, p)->slots[i];
	uint64_t n;

	if (p->cond_any && tracer_mem_pread(as->memfd, slot_addr(p, i, PAD_FALSE_OFF), &n,
					   sizeof(n)) == sizeof(n)) {
		s->unsynced += n - s->falses;
		s->unsynced_false += n - s->falses;
		s->falses = n;
	}
}

/* Slot i dies: no thread finds it from now on; its passes so far are kept. */
static void slot_retire(struct aspace *as, struct pad *p, size_t i)
{
	struct pad_slot *s = &slots_of(as, p)->slots[i];
	uint64_t left = 0;

	if (!s->tid && !s->key)
		return;
	put_byte(as, slot_addr(p, i, PAD_STATE_OFF), 2);
	read_falses(as, p, i);
	if (tracer_mem_pread(as->memfd, slot_addr(p, i, PAD_LEFT_OFF), &left,
			     sizeof(left)) == sizeof(left))
		s->unsynced += s->given - left;
	s->given = 0;
	s->key = 0;
}

static bool key_shared(const struct pad_slots *S, uint64_t key)
{
	for (size_t i = 0; i < S->nshared; i++)
		if (S->shared[i] == key)
			return true;
	return false;
}

static void share_key(struct aspace *as, struct pad *p, uint64_t key)
{
	struct pad_slots *S = slots_of(as, p);

	for (size_t i = 0; i < S->nslots; i++)
		if (S->slots[i].key == key)
			slot_retire(as, p, i);
	if (!key_shared(S, key) && S->nshared < PAD_SLOTS)
		S->shared[S->nshared++] = key;
}

int tracer_pad_sync(tracer *tr, pid_t tid, uint64_t addr, uint64_t *passes,
		    uint64_t *falses, rg_err *err)
{
	struct aspace *as = as_of_tid(tr, tid);
	struct pad *p = as ? tracer_pad_find(as->img, addr) : NULL;
	struct pad_slots *S;

	(void)err;
	*passes = *falses = 0;
	if (!as) {
		gone_passes(tr, tid, addr, passes, falses);
		return 0;
	}
	if (!p)
		return 0;
	p = lead_of(as->img, p);
	S = slots_of(as, p);
	for (size_t i = 0; i < S->nslots; i++) {
		struct pad_slot *s = &S->slots[i];
		uint64_t left;

		if (s->tid != tid)
			continue;
		if (s->key && tracer_mem_pread(as->memfd, slot_addr(p, i, PAD_LEFT_OFF),
					       &left, sizeof(left)) == sizeof(left)) {
			s->unsynced += s->given - left;
			s->given = left;
		}
		if (s->key)
			read_falses(as, p, i);
		*passes += s->unsynced;
		*falses += s->unsynced_false;
		s->unsynced = s->unsynced_false = 0;
	}
	return 0;
}

/* The mapping that holds sp in process pid: the stack a thread runs on. */
static bool stack_of(pid_t pid, uint64_t sp, uint64_t *lo, uint64_t *hi)
{
	tracer_map *maps;
	size_t n;
	bool found = false;

	if (tracer_read_maps(pid, &maps, &n, NULL) < 0)
		return false;
	for (size_t i = 0; i < n && !found; i++)
		if (sp >= maps[i].start && sp < maps[i].end) {
			*lo = maps[i].start;
			*hi = maps[i].end;
			found = true;
		}
	tracer_maps_free(maps, n);
	return found;
}

/* The live slot of key in p, or -1. */
static long slot_of_key(const struct pad_slots *S, uint64_t key)
{
	for (size_t i = 0; i < S->nslots; i++)
		if (S->slots[i].key == key)
			return (long)i;
	return -1;
}

/* Slot i's cond byte (its thread stopped, or the slot not live yet). */
static int set_cond(struct aspace *as, struct pad *p, size_t i, bool cond)
{
	struct pad_slots *S = slots_of(as, p);

	cond = cond && p->cond_any;
	if (S->slots[i].cond == cond)
		return 0;
	S->slots[i].cond = cond;
	return put_byte(as, slot_addr(p, i, PAD_COND_OFF), cond);
}

int tracer_pad_allow(tracer *tr, pid_t tid, uint64_t addr, uint64_t n, bool cond,
		     rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);
	struct aspace *as = t ? t->as : NULL;
	struct pad *p = as ? tracer_pad_find(as->img, addr) : NULL;
	struct pad_slots *S;
	arch_regs r;
	uint64_t key, sp, lo = 0, hi = 0, buf[3];
	long i;

	/* a child sharing the memory has no slots of its own: it traps */
	if (!p || group_off(as->img, p) || !(t->flags & TCB_HELD) || (t->flags & TCB_CHILD))
		return 0;
	p = lead_of(as->img, p);
	S = slots_of(as, p);
	if (tracer_regs_read(t, &r) < 0)
		return tracer_gone_or_error(err, "cannot read the registers of thread %d: %s",
					    tid, strerror(errno));
	key = arch_thread_pointer(&r);
	sp = arch_get_sp(&r);
	if (!key || key_shared(S, key))
		return 0;                       /* it traps on every hit */
	/* a thread pointer it had before (arch_prctl): that slot dies */
	for (size_t k = 0; k < S->nslots; k++)
		if (S->slots[k].tid == tid && S->slots[k].key && S->slots[k].key != key)
			slot_retire(as, p, k);
	if ((i = slot_of_key(S, key)) >= 0 && S->slots[i].tid != tid) {
		struct tcb *o = tracer_tcb_find(tr, S->slots[i].tid);

		if (o && !(o->flags & (TCB_EXITING | TCB_GONE))) {
			/* two live threads, one thread pointer: neither passes */
			share_key(as, p, key);
			return 0;
		}
		slot_retire(as, p, (size_t)i);  /* a dead thread's, reused */
		i = -1;
	}
	if (i < 0) {
		if (S->nslots == PAD_SLOTS)
			return 0;               /* full: it traps on every hit */
		if (!stack_of(as->pid, sp, &lo, &hi))
			return 0;
		i = (long)S->nslots++;
		S->slots[i] = (struct pad_slot){ .tid = tid, .key = key, .lo = lo, .hi = hi,
						 .cond = cond && p->cond_any };
		/* a new slot (never a dead one reused): its false count is 0 */
		if (put_byte(as, slot_addr(p, i, PAD_COND_OFF), S->slots[i].cond) < 0)
			return rg_error(err, "cannot write the pad of 0x%llx: %s",
					(unsigned long long)addr, strerror(errno));
		buf[0] = key;
		buf[1] = n;
		buf[2] = lo;
		if (tracer_mem_pwrite(as->memfd, slot_addr(p, i, PAD_KEY_OFF), buf,
				      sizeof(buf)) < 0 ||
		    tracer_mem_pwrite(as->memfd, slot_addr(p, i, PAD_HI_OFF), &hi,
				      sizeof(hi)) < 0 ||
		    put_byte(as, slot_addr(p, i, PAD_FORCE_OFF), 0) < 0 ||
		    put_byte(as, slot_addr(p, i, PAD_STATE_OFF), 1) < 0)
			return rg_error(err, "cannot write the pad of 0x%llx: %s",
					(unsigned long long)addr, strerror(errno));
		S->slots[i].given = n;
		return 0;
	}
	/* its stack grew (the main thread's), or it ran on another one */
	if ((sp < S->slots[i].lo || sp >= S->slots[i].hi) && stack_of(as->pid, sp, &lo, &hi)) {
		S->slots[i].lo = lo;
		S->slots[i].hi = hi;
		tracer_mem_pwrite(as->memfd, slot_addr(p, i, PAD_LO_OFF), &lo, sizeof(lo));
		tracer_mem_pwrite(as->memfd, slot_addr(p, i, PAD_HI_OFF), &hi, sizeof(hi));
	}
	if (tracer_mem_pwrite(as->memfd, slot_addr(p, i, PAD_LEFT_OFF), &n, sizeof(n)) < 0 ||
	    set_cond(as, p, (size_t)i, cond) < 0)
		return rg_error(err, "cannot write the pad of 0x%llx: %s",
				(unsigned long long)addr, strerror(errno));
	S->slots[i].given = n;
	return 0;
}

/*
 * Must t still trap at some pad reading lead's slots other than the one at
 * site, whose reason is over: a return a range of its waits for, a signal
 * handler's return?
 */
static bool force_elsewhere(const struct tcb *t, const struct image *img,
			    const struct pad *lead, uint64_t site)
{
	for (size_t k = 0; k < img->npads; k++) {
		const struct pad *q = &img->pads[k];

		if (q->lead != lead->lead || q->site == site)
			continue;
		if (tracer_range_waits_for(t, q->site) ||
		    ((t->flags & TCB_SIG_RETURN) && t->sigret_addr == q->site))
			return true;
	}
	return false;
}

void tracer_pad_force(struct tcb *t, uint64_t site, bool on)
{
	struct pad *p = t->as ? tracer_pad_find(t->as->img, site) : NULL;

	/* the slot is its group's: t traps at each of the group's sites
	 * while one of them needs it */
	struct pad_slots *S;

	if (!p)
		return;
	p = lead_of(t->as->img, p);
	if (!on && force_elsewhere(t, t->as->img, p, site))
		return;
	S = slots_of(t->as, p);
	for (size_t i = 0; i < S->nslots; i++)
		if (S->slots[i].tid == t->tid && S->slots[i].key)
			put_byte(t->as, slot_addr(p, i, PAD_FORCE_OFF), on);
}

int tracer_pad_trapped(tracer *tr, struct tcb *t, struct pad *p, rg_err *err)
{
	struct bp *b = tracer_bp_find(t->as->img, p->site);
	uint64_t sp = arch_get_sp(&t->regs);

	/* handle_sigtrap read the registers: the thread is at the site as far
	 * as anyone can tell, the pad having put every register back */
	if (tracer_range_waits_at(t, p->site, sp)) {
		tracer_pad_force(t, p->site, false);
		arch_set_pc(&t->regs, p->site);
		t->flags |= TCB_REGS_DIRTY;
		return tracer_range_returned(tr, t, p->site, err);
	}
	if ((t->flags & TCB_SIG_RETURN) && p->site == t->sigret_addr && sp == t->sigret_sp) {
		/* back from the handler of a signal that came before the step:
		 * not a second arrival (step.c, slot_signal) */
		tracer_pad_force(t, p->site, false);
		t->flags &= ~(TCB_SIG_RETURN | TCB_REGS);
		return tracer_restart(t->tid, tracer_cont_op(t), 0, err);
	}
	if (p->off || !b || !b->user || (t->flags & TCB_CHILD)) {
		/* nothing to report: on into the instruction, after the int3 */
		t->flags &= ~TCB_REGS;
		return tracer_restart(t->tid, tracer_cont_op(t), 0, err);
	}
	/* the pad put every register back: the thread is at the site */
	arch_set_pc(&t->regs, p->site);
	t->flags |= TCB_REGS_DIRTY;
	t->flags &= ~TCB_REARRIVAL;
	t->flags |= TCB_HELD | TCB_AT_BP;
	t->bp_addr = p->site;
	tracer_queue_event(tr, TRACER_EV_BREAKPOINT, t->tid)->addr = p->site;
	return 0;
}

void tracer_pad_thread_exiting(tracer *tr, struct tcb *t)
{
	struct aspace *as = t->as;

	(void)tr;
	if (!as)
		return;
	for (size_t k = 0; k < as->img->npads; k++) {
		struct pad *p = &as->img->pads[k];
		struct pad_slots *S = p->lead == k ? slots_of(as, p) : NULL;

		for (size_t i = 0; S && i < S->nslots; i++)
			if (S->slots[i].tid == t->tid && S->slots[i].key)
				slot_retire(as, p, i);
	}
}

void tracer_pad_child_shares(tracer *tr, struct tcb *parent)
{
	struct aspace *as = parent->as;
	arch_regs r;
	uint64_t key;

	(void)tr;
	if (!as || !as->img->npads || arch_regs_fetch(parent->tid, &r) < 0)
		return;
	key = arch_thread_pointer(&r);
	for (size_t k = 0; key && k < as->img->npads; k++)
		if (as->img->pads[k].lead == k)
			share_key(as, &as->img->pads[k], key);
}

void tracer_pad_unshare(const struct image *img, int fd)
{
	/* its copy of a pad never traps either: a handler it forked from may
	 * return into one */
	for (size_t k = 0; k < img->npads; k++) {
		uint8_t on = 1;

		if (!img->pads[k].site)
			continue;       /* forgotten */
		tracer_mem_pwrite(fd, img->pads[k].table, &on, 1);
		tracer_mem_pwrite(fd, img->pads[k].trap, arch_nop_insn, ARCH_BP_LEN);
		tracer_mem_pwrite(fd, img->pads[k].site, img->pads[k].orig, ARCH_JMP_LEN);
	}
}

void tracer_pad_show_orig(const struct image *img, uint64_t addr, uint8_t *buf, size_t n)
{
	for (size_t k = 0; k < img->npads; k++) {
		const struct pad *p = &img->pads[k];

		for (size_t j = 0; j < ARCH_JMP_LEN; j++)
			if (p->site + j >= addr && p->site + j < addr + n)
				buf[p->site + j - addr] = p->orig[j];
	}
}

bool tracer_pad_fault_pc(const struct image *img, uint64_t pc, uint64_t *site)
{
	/*
	 * Only at the start of a copied instruction: inside a call's push of
	 * its return address, the thread is between two of the program's
	 * instructions and stays in the pad, which ends that call as the
	 * program would have.
	 */
	for (size_t k = 0; img && k < img->npads; k++) {
		const struct pad *p = &img->pads[k];

		for (size_t i = 0; i < p->ninsn; i++)
			if (pc == p->reloc + p->reloc_off[i]) {
				*site = p->site + p->site_off[i];
				return true;
			}
	}
	return false;
}

int tracer_pad_resume(tracer *tr, struct tcb *t, struct pad *p, rg_err *err)
{
	arch_regs r;

	if (tracer_regs_read(t, &r) < 0)
		return tracer_gone_or_error(err, "cannot read the registers of thread %d: %s",
					    t->tid, strerror(errno));
	arch_set_pc(&t->regs, p->reloc);
	t->flags |= TCB_REGS_DIRTY;
	return tracer_resume_pending(tr, t, err);
}

void tracer_pad_let_go(tracer *tr, struct image *img, int fd)
{
	for (size_t k = 0; k < img->npads; k++) {
		struct pad *p = &img->pads[k];
		uint8_t on = 1;

		if (!p->site)
			continue;       /* forgotten */
		tracer_mem_pwrite(fd, p->table, &on, 1);
		tracer_mem_pwrite(fd, p->trap, arch_nop_insn, ARCH_BP_LEN);
		/* the program's own bytes there stay */
		if (tracer_pad_rewritten(p, fd))
			tracer_pad_note_rewrite(tr, p->site);
		else
			tracer_mem_pwrite(fd, p->site, p->orig, ARCH_JMP_LEN);
		/* a followed fork child that runs the image keeps its pads on
		 * (the program's exec or end lets go of its own memory only) */
		if (img->refs <= 1)
			p->off = true;
	}
}

bool tracer_pad_code_at(const struct image *img, uint64_t pc)
{
	for (size_t k = 0; img && k < img->npads; k++)
		if (img->pads[k].site && pc >= img->pads[k].code &&
		    pc < img->pads[k].code + img->pads[k].codelen)
			return true;
	return false;
}

void tracer_pad_abandon(struct image *img, int fd)
{
	for (size_t k = 0; k < img->npads; k++) {
		uint8_t on = 1;

		if (!img->pads[k].site)
			continue;
		/* one byte each: threads may run; every hit passes from now on */
		tracer_mem_pwrite(fd, img->pads[k].table, &on, 1);
		tracer_mem_pwrite(fd, img->pads[k].trap, arch_nop_insn, ARCH_BP_LEN);
	}
}

/* The pad whose condition's code holds pc, or NULL. */
static const struct pad *cond_pad(const struct image *img, uint64_t pc)
{
	for (size_t k = 0; img && k < img->npads; k++)
		if (img->pads[k].cond_lo && pc >= img->pads[k].cond_lo &&
		    pc < img->pads[k].cond_hi)
			return &img->pads[k];
	return NULL;
}

bool tracer_pad_leave_cond(const struct image *img, arch_regs *r)
{
	uint64_t pc = arch_get_pc(r);
	const struct pad *p = cond_pad(img, pc);
	uint8_t words;

	if (!p)
		return false;
	words = p->cond_depth[pc - p->cond_lo];
	if (words == PAD_DEPTH_NONE) {
		rg_bug("a thread inside a pad's condition between instructions (0x%llx)",
		       (unsigned long long)pc);
		return false;
	}
	arch_set_sp(r, arch_get_sp(r) + 8u * words);
	arch_set_pc(r, p->cond_exit);
	return true;
}

bool tracer_pad_cond_fault(struct tcb *t, int sig, const siginfo_t *si)
{
	arch_regs r;

	if (!t->as || !t->as->img->npads || !tracer_is_sync_fault(sig, si) ||
	    arch_regs_fetch(t->tid, &r) < 0 || !tracer_pad_leave_cond(t->as->img, &r))
		return false;
	/* the trap follows: an arrival; the tracer's own evaluation of the
	 * condition meets the fault and reports it */
	return arch_regs_store(t->tid, &r) == 0;
}
