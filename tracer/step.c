/*
 * Breakpoints, and running the instruction under one for a thread that goes
 * on (displaced stepping).  See tracer.h for the contract.
 *
 * Breakpoints are never taken out to step over them: the original
 * instruction runs out of line, so a thread that reaches the breakpoint
 * while another one is being stepped over still traps.  Most instructions
 * run from a copy of their own followed by a jump back (step_over_oot: one
 * trap per hit); the others are single-stepped in the slot of a scratch page
 * (scratch.c), and a system call runs in the page's stub.
 */
#include "tracer_priv.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Index of the first breakpoint at or above addr. */
size_t tracer_bp_lower(const struct image *img, uint64_t addr)
{
	size_t lo = 0, hi = img->nbps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->bps[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct bp *tracer_bp_find(const struct image *img, uint64_t addr)
{
	size_t i = tracer_bp_lower(img, addr);

	return i < img->nbps && img->bps[i].addr == addr ? &img->bps[i] : NULL;
}

bool tracer_bp_recently_removed(const struct image *img, uint64_t addr)
{
	for (size_t i = 0; i < img->nremoved; i++)
		if (img->removed[i] == addr)
			return true;
	return false;
}

static void forget_removed(struct image *img, uint64_t addr)
{
	for (size_t i = 0; i < img->nremoved; i++)
		if (img->removed[i] == addr)
			img->removed[i] = 0;
}

int tracer_bp_insert(tracer *tr, struct aspace *as, uint64_t addr, rg_err *err)
{
	struct image *img = as->img;
	tracer_map *maps;
	size_t n, i;
	bool exec = false, mapped = false;
	uint8_t orig;
	struct bp *b;
	struct pad *p;
	const struct pad *over;

	if ((b = tracer_bp_find(img, addr))) {
		b->user = true;
		return 0;
	}
	if ((p = tracer_pad_find(img, addr)) && !tr->exit_queued) {
		/* its jump is still there: the pad simply traps again */
		i = tracer_bp_lower(img, addr);
		RG_GROW(img->bps, img->nbps + 1, img->bps_cap);
		memmove(&img->bps[i + 1], &img->bps[i], (img->nbps - i) * sizeof(*img->bps));
		img->nbps++;
		memset(&img->bps[i], 0, sizeof(img->bps[i]));
		img->bps[i].addr = addr;
		img->bps[i].orig = p->orig[0];
		img->bps[i].user = true;
		forget_removed(img, addr);
		tracer_pad_set_off(tr, img, p, false);
		return 0;
	}
	if (tr->exit_queued)
		return rg_error(err, "cannot put a breakpoint at 0x%llx: the program has ended",
				(unsigned long long)addr);
	if ((over = tracer_pad_over(img, addr)))
		return rg_error(err, "cannot put a breakpoint at 0x%llx: the jump to racegate's "
				"pad at 0x%llx holds it (--no-fastpath puts none)",
				(unsigned long long)addr, (unsigned long long)over->site);
	if (tracer_read_maps(as->pid, &maps, &n, err) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (addr >= maps[i].start && addr < maps[i].end) {
			mapped = true;
			exec = maps[i].exec;
			break;
		}
	}
	tracer_maps_free(maps, n);
	if (!exec)
		return rg_error(err, "cannot put a breakpoint at 0x%llx: %s",
				(unsigned long long)addr,
				mapped ? "the address is not in executable code"
				       : "nothing is mapped there");
	if (tracer_mem_pread(as->memfd, addr, &orig, 1) != 1 ||
	    tracer_mem_pwrite(as->memfd, addr, arch_bp_insn, ARCH_BP_LEN) < 0)
		return rg_error(err, "cannot write a breakpoint at 0x%llx: %s",
				(unsigned long long)addr, strerror(errno));
	/* in every followed process that runs the same image */
	for (i = 0; i < tr->nas; i++)
		if (tr->as[i] != as && tr->as[i]->img == img)
			tracer_mem_pwrite(tr->as[i]->memfd, addr, arch_bp_insn, ARCH_BP_LEN);
	i = tracer_bp_lower(img, addr);
	RG_GROW(img->bps, img->nbps + 1, img->bps_cap);
	memmove(&img->bps[i + 1], &img->bps[i], (img->nbps - i) * sizeof(*img->bps));
	img->nbps++;
	b = &img->bps[i];
	memset(b, 0, sizeof(*b));
	b->addr = addr;
	b->orig = orig;
	b->user = true;
	*rg_intmap_ref(&img->ever, addr, 0) = orig;
	forget_removed(img, addr);
	return 0;
}

/*
 * b is being taken out: a thread of as may be inside its out-of-line copy
 * still (stepping, or stopped there), and a detach must know where that
 * copy came from.  The copy stays where it is (as->oot keeps it for a
 * breakpoint put back at the same address), so once per address.
 */
static void oot_gone_note(struct aspace *as, const struct bp *b)
{
	uint64_t oot = tracer_as_oot(as, b->addr);

	if (!oot || !b->decoded)
		return;
	for (size_t i = 0; i < as->noots_gone; i++)
		if (as->oots_gone[i].addr == b->addr)
			return;
	RG_GROW(as->oots_gone, as->noots_gone + 1, as->oots_gone_cap);
	as->oots_gone[as->noots_gone++] = (struct oot_gone){ b->addr, oot, b->insn.len };
}

int tracer_bp_remove(tracer *tr, struct aspace *as, uint64_t addr, rg_err *err)
{
	struct image *img = as->img;
	struct bp *b = tracer_bp_find(img, addr);
	size_t i;
	int rc = 0;
	bool own_trap;
	struct pad *pad;

	if (!b)
		return 0;
	if (b->ntemp) {
		/* a range's return breakpoint too: its int3 stays, unreported */
		b->user = false;
		return 0;
	}
	own_trap = !memcmp(&b->orig, arch_bp_insn, ARCH_BP_LEN);
	if ((pad = tracer_pad_find(img, addr))) {
		/*
		 * Its jump stays (threads may be on it; taking its bytes out
		 * while they run is not safe): the pad is off, every hit
		 * passes, and a trap it made before is let go (pad.c).
		 */
		tracer_pad_set_off(tr, img, pad, true);
		i = (size_t)(b - img->bps);
		memmove(&img->bps[i], &img->bps[i + 1], (img->nbps - i - 1) * sizeof(*img->bps));
		img->nbps--;
		return 0;
	}
	if (!tr->exit_queued && tracer_bp_put_back(tr, as, as->memfd, b, err) < 0)
		rc = -1;
	/* a followed child that died meanwhile has nothing left to clean */
	for (i = 0; !tr->exit_queued && i < tr->nas; i++)
		if (tr->as[i] != as && tr->as[i]->img == img)
			tracer_bp_put_back(tr, tr->as[i], tr->as[i]->memfd, b, NULL);
	for (i = 0; i < tr->nas; i++)
		if (tr->as[i]->img == img)
			oot_gone_note(tr->as[i], b);
	i = (size_t)(b - img->bps);
	memmove(&img->bps[i], &img->bps[i + 1], (img->nbps - i - 1) * sizeof(*img->bps));
	img->nbps--;
	for (size_t a = 0; a < tr->nas; a++)
		for (i = 0; tr->as[a]->img == img && i < tr->as[a]->npages; i++)
			if (tr->as[a]->pages[i].slot_owner == addr)
				tr->as[a]->pages[i].slot_owner = 0;
	/*
	 * A thread may have trapped on it already; see handle_sigtrap() (events.c).
	 * Not when the program's own int3 was under it: a trap there is the
	 * program's from now on, and rewinding to it would trap for ever.
	 */
	if (own_trap)
		return rc;
	img->removed[img->removed_next] = addr;
	img->removed_next = (img->removed_next + 1) % REMOVED_MAX;
	if (img->nremoved < REMOVED_MAX)
		img->nremoved++;
	return rc;
}

int tracer_insert_bp(tracer *tr, uint64_t addr, rg_err *err)
{
	return tracer_bp_insert(tr, TRACER_MAIN_AS(tr), addr, err);
}

bool tracer_bp_armed(const tracer *tr, uint64_t addr)
{
	const struct bp *b = tracer_bp_find(TRACER_MAIN_AS(tr)->img, addr);

	return b && b->user;
}

int tracer_remove_bp(tracer *tr, uint64_t addr, rg_err *err)
{
	return tracer_bp_remove(tr, TRACER_MAIN_AS(tr), addr, err);
}

/* The address space of process pid, which must be followed. */
static struct aspace *as_of(tracer *tr, pid_t pid, rg_err *err)
{
	struct aspace *as = tracer_as_find(tr, pid);

	if (!as)
		rg_error(err, "process %d is not followed", (int)pid);
	return as;
}

int tracer_insert_bp_in(tracer *tr, pid_t pid, uint64_t addr, rg_err *err)
{
	struct aspace *as = as_of(tr, pid, err);

	return as ? tracer_bp_insert(tr, as, addr, err) : -1;
}

int tracer_remove_bp_in(tracer *tr, pid_t pid, uint64_t addr, rg_err *err)
{
	struct aspace *as = as_of(tr, pid, err);

	return as ? tracer_bp_remove(tr, as, addr, err) : -1;
}

/*
 * Restarts t (tracer_run_op) with the signals kept for it.  The first goes
 * with its own siginfo (PTRACE_SETSIGINFO: injecting a signal whose number
 * differs from the stop's makes the kernel forge an SI_USER siginfo); any
 * more are sent again with tgkill, losing their siginfo (two signals in one
 * single-step: rare).
 */
int tracer_resume_pending(tracer *tr, struct tcb *t, rg_err *err)
{
	int sig = 0;

	/* the PC rewound to a breakpoint must be in the thread before it runs */
	if (tracer_regs_sync(t) < 0 && errno != ESRCH)
		return rg_error(err, "cannot set the registers of thread %d: %s",
				t->tid, strerror(errno));
	t->flags &= ~TCB_REGS;

	/* past a line not yet: the next instruction of the line first */
	if (tracer_stepping(t))
		return tracer_range_next(tr, t, err);
	if (t->npending) {
		/* (a thread sent to the stub goes to its syscall instruction) */
		tracer_signal_leaves_scratch(tr, t);
		sig = t->pending[0].si_signo;
		/* without it, the kernel would forge an SI_USER siginfo: a
		 * fault's address, a timer's value would be lost */
		if (ptrace(PTRACE_SETSIGINFO, t->tid, 0L, &t->pending[0]) < 0 &&
		    errno != ESRCH)
			return rg_error(err, "cannot deliver signal %d to thread %d "
					"with its siginfo: %s", sig, t->tid,
					strerror(errno));
		for (int i = 0; i < t->npending; i++)
			tracer_note_signal(tr, t, t->pending[i].si_signo);
		for (int i = 1; i < t->npending; i++)
			syscall(SYS_tgkill, t->tgid, t->tid, t->pending[i].si_signo);
		t->npending = 0;
	}
	return tracer_restart(t->tid, tracer_run_op(t), sig, err);
}

bool tracer_is_sync_fault(int sig, const siginfo_t *si)
{
	if (si->si_code <= 0)          /* sent by kill, tgkill, sigqueue */
		return false;
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE ||
	       sig == SIGILL || (sig == SIGTRAP && si->si_code == SI_KERNEL);
}

/* b's out-of-line copy, in a scratch page within reach.  1: none can be made. */
static int oot_make(tracer *tr, struct tcb *t, struct bp *b, rg_err *err)
{
	uint8_t code[OOT_SIZE];
	struct scratch *sp = NULL;
	uint64_t slot;
	rg_err rerr = RG_ERR_INIT;
	int rc;

	/* a copy is written once and never moves: threads may be inside it */
	RG_ASSERT(!tracer_as_oot(t->as, b->addr));
	if ((rc = tracer_scratch_oot(tr, t, b, &sp, err)) != 0)
		return rc;
	RG_ASSERT(sp->oot_next + OOT_SIZE <= PAGE);
	slot = sp->base + sp->oot_next;
	if (arch_relocate(&b->insn, b->addr, slot, code, &rerr) < 0)
		return 1;
	arch_jump(code + b->insn.len, slot + b->insn.len, b->addr + b->insn.len);
	if (tracer_mem_pwrite(t->as->memfd, slot, code, b->insn.len + ARCH_JMP_LEN) < 0)
		return rg_error(err, "cannot write the scratch page at 0x%llx",
				(unsigned long long)slot);
	sp->oot_next += OOT_SIZE;
	*rg_intmap_ref(&t->as->oot, b->addr, 0) = slot;
	return 0;
}

/*
 * The fast path of tracer_step_over, one trap per hit: an instruction that always
 * goes on to the next one runs from a copy of its own followed by a jump
 * back behind the breakpoint, and the thread simply continues — no
 * single-step stop, no wait for it.  A copy is written at its breakpoint's
 * first step and never changes or moves (not even when the breakpoint is
 * removed), so any number of threads may be inside it at once.  A signal
 * that interrupts the copy returns into it; a fault in it is reported at the
 * breakpoint's address (tracer_oot_fault).  1: no copy could be made, single-step.
 */
static int step_over_oot(tracer *tr, struct tcb *t, struct bp *b, rg_err *err)
{
	arch_regs r;
	int rc;

	if (!tracer_as_oot(t->as, b->addr) && (rc = oot_make(tr, t, b, err)) != 0)
		return rc;
	/* read at the trap, and nothing ran since; the rewind is not written
	 * yet (TCB_REGS_DIRTY): this one write does both */
	if (tracer_regs_read(t, &r) < 0)
		return tracer_gone_or_error(err,
					    "cannot read the registers of thread %d: %s",
					    t->tid, strerror(errno));
	t->flags &= ~(TCB_REGS | TCB_REGS_DIRTY);
	arch_set_pc(&r, tracer_as_oot(t->as, b->addr));
	if (arch_regs_store(t->tid, &r) < 0)
		return tracer_gone_or_error(err,
					    "cannot set the registers of thread %d: %s",
					    t->tid, strerror(errno));
	return tracer_restart(t->tid, tracer_run_op(t), 0, err);
}

/* A fault of an instruction run from its copy is the program's, at the
 * breakpoint's address; if its handler returns, the line is reached again. */
void tracer_oot_fault(struct tcb *t, int sig, const siginfo_t *si)
{
	arch_regs r;
	uint64_t pc, site;

	if (!tracer_is_sync_fault(sig, si) || arch_regs_fetch(t->tid, &r) < 0)
		return;
	pc = arch_get_pc(&r);
	if (t->as && tracer_pad_fault_pc(t->as->img, pc, &site)) {
		/* the instruction a pad runs: as if at the site (pad.c) */
		arch_set_pc(&r, site);
		if (arch_regs_store(t->tid, &r) == 0) {
			t->flags |= TCB_REARRIVAL;
			t->rearrival_addr = site;
		}
		return;
	}
	for (size_t i = 0; t->as && i < t->as->img->nbps; i++)
		if (tracer_as_oot(t->as, t->as->img->bps[i].addr) == pc) {
			arch_set_pc(&r, t->as->img->bps[i].addr);
			if (arch_regs_store(t->tid, &r) == 0) {
				t->flags |= TCB_REARRIVAL;
				t->rearrival_addr = t->as->img->bps[i].addr;
			}
			return;
		}
}

/* Decodes b's instruction, once. */
static int step_decode(tracer *tr, const struct tcb *t, struct bp *b, rg_err *err)
{
	uint8_t code[ARCH_MAX_INSN];
	size_t n;

	if (b->decoded)
		return 0;
	n = tracer_read_code(t->as, b->addr, code, sizeof(code));
	if (!n || arch_decode(tr->arch, code, n, b->addr, &b->insn, err) < 0)
		return rg_error_prefix(err, "cannot step over the breakpoint at 0x%llx",
				       (unsigned long long)b->addr);
	b->decoded = true;
	return 0;
}

/*
 * A system call may block for ever, so it is not stepped synchronously: the
 * thread runs the stub's "syscall; int3" on its own, and handle_sigtrap()
 * (events.c) sends it on from the int3.
 */
static int step_in_stub(tracer *tr, struct tcb *t, const struct bp *b,
			arch_regs *r, rg_err *err)
{
	if (!t->as->stub)
		return rg_error(err, "cannot step over the system call at 0x%llx: "
				"no scratch page", (unsigned long long)b->addr);
	arch_set_pc(r, t->as->stub);
	if (arch_regs_store(t->tid, r) < 0)
		return tracer_gone_or_error(err, "cannot set the registers "
					    "of thread %d: %s", t->tid,
					    strerror(errno));
	t->flags |= TCB_IN_STUB;
	t->stub_ret = b->addr + b->insn.len;
	return tracer_resume_pending(tr, t, err);
}

/*
 * b's instruction, relocated, in the slot of a page within reach, and a
 * breakpoint instruction behind it; t's PC there.  The step stops t after
 * the instruction, before the breakpoint; but a racegate killed outright
 * (SIGKILL) meanwhile lets t run on from the slot, and it must trap there
 * (the documented SIGTRAP) rather than run what an earlier step left.
 * 1: t is gone or the slot could not be had without error.
 */
static int slot_enter(tracer *tr, struct tcb *t, const struct bp *b,
		      uint64_t *slot, rg_err *err)
{
	arch_regs r;
	uint8_t code[ARCH_MAX_INSN + ARCH_BP_LEN];
	struct scratch *sp = NULL;
	int rc;

	rc = tracer_scratch_slot(tr, t, b, &sp, err);
	if (rc)
		return rc < 0 ? -1 : 1;
	*slot = sp->base + SLOT_OFF;
	if (sp->slot_owner != b->addr) {
		if (arch_relocate(&b->insn, b->addr, *slot, code, err) < 0)
			return -1;
		memcpy(code + b->insn.len, arch_bp_insn, ARCH_BP_LEN);
		if (tracer_mem_pwrite(t->as->memfd, *slot, code,
				      b->insn.len + ARCH_BP_LEN) < 0)
			return rg_error(err, "cannot write the scratch slot at 0x%llx",
					(unsigned long long)*slot);
		sp->slot_owner = b->addr;
	}
	/* tracer_scratch_slot may have run the stub: the registers are read again. */
	if (arch_regs_fetch(t->tid, &r) < 0)
		return 1;
	arch_set_pc(&r, *slot);
	if (arch_regs_store(t->tid, &r) < 0)
		return tracer_gone_or_error(err, "cannot set the registers "
					    "of thread %d: %s", t->tid,
					    strerror(errno)) < 0 ? -1 : 1;
	return 0;
}

/* The instruction faulted in the slot: the fault is the program's, at the
 * breakpoint's address (see tracer_step_over). */
static int slot_fault(tracer *tr, struct tcb *t, uint64_t orig, uint64_t slot,
		      arch_regs *r, int sig, bool rejoin, rg_err *err)
{
	arch_set_pc(r, arch_get_pc(r) - slot + orig);
	arch_regs_store(t->tid, r);
	t->flags |= TCB_REARRIVAL;
	t->rearrival_addr = orig;
	if (tracer_stepping(t))
		tracer_range_pop(tr, t, orig, true);  /* it leaves the line by the fault */
	tracer_note_signal(tr, t, sig);
	if (rejoin)
		tracer_rejoin_group_stop(t->tid);
	for (int i = 0; i < t->npending; i++)
		syscall(SYS_tgkill, t->tgid, t->tid, t->pending[i].si_signo);
	t->npending = 0;
	return tracer_restart(t->tid, tracer_run_op(t), sig, err);
}

/*
 * A signal for t came before its instruction ran in the slot: it is the
 * program's, delivered now from its own signal-delivery-stop (its own
 * siginfo; a queue of them is not cut down to what could be kept) with the
 * PC back at the breakpoint, as without racegate.  The handler returns to
 * the int3: that trap is no arrival (the thread was already there), the
 * step is simply done again (TCB_SIG_RETURN, or the range's wait).
 */
static int slot_signal(tracer *tr, struct tcb *t, uint64_t orig,
		       arch_regs *r, int sig, bool rejoin, rg_err *err)
{
	uint64_t sp = arch_get_sp(r);

	arch_set_pc(r, orig);
	if (arch_regs_store(t->tid, r) < 0)
		return tracer_gone_or_error(err, "cannot set the registers "
					    "of thread %d: %s", t->tid,
					    strerror(errno));
	if (rejoin)
		tracer_rejoin_group_stop(t->tid);
	if (tracer_stepping(t))
		return tracer_range_wait_signal(tr, t, orig, sp, sig, err);
	t->flags |= TCB_SIG_RETURN;
	t->sigret_addr = orig;
	t->sigret_sp = sp;
	/* the handler returns to a pad's jump: it must trap there (pad.c) */
	tracer_pad_force(t, orig, true);
	tracer_note_signal(tr, t, sig);
	return tracer_restart(t->tid, tracer_run_op(t), sig, err);
}

/*
 * Single-steps t in the slot until its instruction has run, keeping the
 * signals that come meanwhile.  1: it ran; otherwise what tracer_step_over
 * returns (t died, or faulted and was sent on).
 */
static int slot_step(tracer *tr, struct tcb *t, const struct bp *b, uint64_t slot,
		     rg_err *err)
{
	arch_regs r;
	bool rejoin = false;
	siginfo_t si;
	uint64_t pc;
	int status;

	for (;;) {
		/* a thread gone (ESRCH) has nothing to wait for here */
		if (tracer_restart_raw(t->tid, PTRACE_SINGLESTEP, 0) < 0)
			return tracer_gone_or_error(err, "cannot single-step "
						    "thread %d: %s", t->tid,
						    strerror(errno));
		if (tracer_wait_tid(t->tid, &status) < 0)
			return 0;
		if (!WIFSTOPPED(status) || (status >> 16) == PTRACE_EVENT_EXIT) {
			tracer_queue_status(tr, t->tid, status);
			return 0;
		}
		if (status >> 16) {
			rejoin |= tracer_is_group_stop(status);
			continue;
		}
		if (ptrace(PTRACE_GETSIGINFO, t->tid, 0L, &si) < 0)
			return 0;
		if (WSTOPSIG(status) == SIGTRAP && si.si_code > 0 &&
		    si.si_code != SI_KERNEL)
			break;          /* the single-step trap */
		if (arch_regs_fetch(t->tid, &r) < 0)
			return 0;
		pc = arch_get_pc(&r);
		if (tracer_is_sync_fault(WSTOPSIG(status), &si) &&
		    pc >= slot && pc <= slot + b->insn.len)
			return slot_fault(tr, t, b->addr, slot, &r, WSTOPSIG(status),
					  rejoin, err);
		if (pc == slot)
			return slot_signal(tr, t, b->addr, &r, WSTOPSIG(status),
					   rejoin, err);
		if (t->npending < PENDING_MAX)
			t->pending[t->npending++] = si;
	}
	if (rejoin)
		tracer_rejoin_group_stop(t->tid);
	return 1;
}

/* The instruction ran in the slot: t goes on where it would have natively. */
static int slot_leave(tracer *tr, struct tcb *t, const struct bp *b, uint64_t slot,
		      rg_err *err)
{
	arch_regs r;
	uint64_t orig = b->addr;

	if (arch_regs_fetch(t->tid, &r) < 0)
		return 0;
	arch_set_pc(&r, arch_fixup_pc(&b->insn, orig, slot, arch_get_pc(&r)));
	if (b->insn.flags & ARCH_INSN_CALL) {
		/* The call pushed slot+len: the program must return to orig+len. */
		uint64_t sp_addr = arch_get_sp(&r), ret, want = orig + b->insn.len;

		if (tracer_mem_pread(t->as->memfd, sp_addr, &ret, sizeof(ret)) == sizeof(ret) &&
		    ret == slot + b->insn.len &&
		    tracer_mem_pwrite(t->as->memfd, sp_addr, &want, sizeof(want)) < 0)
			return rg_error(err, "cannot fix the return address of thread %d",
					t->tid);
	}
	if (arch_regs_store(t->tid, &r) < 0)
		return tracer_gone_or_error(err, "cannot set the registers "
					    "of thread %d: %s", t->tid,
					    strerror(errno));
	return tracer_resume_pending(tr, t, err);
}

/*
 * Runs the instruction under breakpoint b for thread t out of line, then
 * resumes t.  The int3 stays in place the whole time.
 *
 * Race windows:
 *  - a signal for t arrives while it is stepped (it is dequeued before the
 *    instruction runs, the PC still at the slot): the PC goes back to the
 *    breakpoint and the signal is delivered there from its own stop, with
 *    its siginfo (slot_signal); the handler's return traps on the int3,
 *    which is no arrival, and the step is done again;
 *  - the instruction faults (the PC still inside the slot, si_code > 0): the
 *    fault is the program's, the PC is mapped back to the breakpoint's address
 *    and the signal delivered there, so a crash or a handler sees its own
 *    address.  If the handler returns, the instruction runs again and traps
 *    on the int3 again: that arrival is reported again as a BREAKPOINT (the
 *    thread does reach the line again), and TCB_REARRIVAL marks it;
 *  - the process exits meanwhile (exit_group, exec by another thread): the
 *    status is queued for tracer_next_event;
 *  - a group-stop interrupts the step: the step is simply issued again, so
 *    this one thread finishes its instruction before it stops.
 * Other threads keep running and their statuses stay in the kernel: only
 * t's are waited for here.
 */
int tracer_step_over(tracer *tr, struct tcb *t, struct bp *b, rg_err *err)
{
	arch_regs r;
	uint64_t slot = 0;
	int rc;

	if (step_decode(tr, t, b, err) < 0)
		return -1;
	/* Signals kept for the thread are delivered at orig+len, and a thread
	 * stepping past a line needs the trap after the instruction. */
	if (!(b->insn.flags & ARCH_INSN_FLOWS) && !t->npending && !tracer_stepping(t) &&
	    (rc = step_over_oot(tr, t, b, err)) <= 0)
		return rc;
	tracer_regs_sync(t);
	t->flags &= ~TCB_REGS;
	if (arch_regs_fetch(t->tid, &r) < 0)
		return tracer_gone_or_error(err, "cannot read the registers "
					    "of thread %d: %s", t->tid,
					    strerror(errno));
	if (b->insn.flags & ARCH_INSN_SYSCALL)
		return step_in_stub(tr, t, b, &r, err);
	if ((rc = slot_enter(tr, t, b, &slot, err)) != 0)
		return rc < 0 ? -1 : 0;
	if ((rc = slot_step(tr, t, b, slot, err)) != 1)
		return rc;
	return slot_leave(tr, t, b, slot, err);
}

void tracer_ready_steps(tracer *tr)
{
	struct aspace *as = TRACER_MAIN_AS(tr);
	struct tcb *t = tracer_tcb_find(tr, tr->pid);
	rg_err err = RG_ERR_INIT;

	if (!t || !(t->flags & TCB_HELD) || tr->ntcbs != 1)
		return;
	for (size_t i = 0; i < as->img->nbps; i++) {
		struct bp *b = &as->img->bps[i];

		/* what cannot be made now is tried again at the first step */
		if (step_decode(tr, t, b, &err) < 0 || (b->insn.flags & ARCH_INSN_FLOWS) ||
		    tracer_as_oot(as, b->addr))
			continue;
		if (oot_make(tr, t, b, &err) < 0)
			return;
	}
}

int tracer_resume(tracer *tr, pid_t tid, rg_err *err)
{
	tr->frames_at = 0;      /* it runs: the frames read for pads are old */
	struct tcb *t = tracer_tcb_find(tr, tid);
	struct bp *b;

	/* Died meanwhile: its exit was judged, or is on its way (a SIGKILL
	 * wakes a held thread, which then stops at PTRACE_EVENT_EXIT). */
	if (!t || (t->flags & TCB_EXITING))
		return 0;
	if (!(t->flags & TCB_HELD))
		return rg_error(err, "cannot resume thread %d: it is not stopped", tid);
	t->flags &= ~(TCB_HELD | TCB_PARKED);
	if (t->flags & TCB_GROUP_STOP) {
		/* held in the program's group-stop: back into it */
		t->flags &= ~TCB_GROUP_STOP;
		tracer_regs_sync(t);
		return tracer_restart(tid, PTRACE_LISTEN, 0, err);
	}
	if (!(t->flags & TCB_STARTED)) {
		/* Reported at its parent's clone event; not stopped yet. */
		t->flags |= TCB_RESUME_ON_START;
		return 0;
	}
	if ((t->flags & TCB_AT_BP) && (b = tracer_bp_find(t->as->img, t->bp_addr))) {
		struct pad *p = tracer_pad_find(t->as->img, b->addr);

		t->flags &= ~TCB_AT_BP;
		/* a pad's site holds a jump: on through the pad's copy (a
		 * line stepped past from one instruction long enough is
		 * stepped from the breakpoint's copy as usual) */
		if (p && (p->ninsn > 1 || !tracer_stepping(t)))
			return tracer_pad_resume(tr, t, p, err);
		return tracer_step_over(tr, t, b, err);
	}
	t->flags &= ~TCB_AT_BP;
	return tracer_resume_pending(tr, t, err);
}
