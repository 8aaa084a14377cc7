/*
 * Scratch pages, and the maps they are placed by.  See tracer.h for the
 * contract, tracer_priv.h for the page layout.
 *
 * A displaced instruction needs a place within reach of its own address
 * (ARCH_NEAR_REACH: a PC-relative operand must still reach its target) that
 * no thread of the program ever executes.  The first page is mapped at the
 * exec stop, when the process is single-threaded, by writing a few
 * instructions over the current one, running them, and putting the bytes
 * back.  It starts with a stub (a system call, then a breakpoint:
 * arch_stub), so later pages (near shared libraries) are mapped by making
 * the stopped thread that needs one run the stub: that is safe while other
 * threads run, because none of them executes the stub.
 *
 * A page has one slot: steps are synchronous (tracer_step_over waits for the
 * one thread it steps), so one thread at a time uses a slot.  The pages are
 * mapped r-x; the tracer writes them through /proc/PID/mem like breakpoints.
 */
#include "tracer_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* How far a slot may be from the code (and from a PC-relative operand's
 * target): the reach of the architecture's displacement, minus a margin. */
#define REACH (ARCH_NEAR_REACH - 2 * PAGE)
/*
 * What a pad's page leaves free above the brk heap's start.  malloc takes
 * its memory elsewhere (mmap) once the heap meets a mapping; a program
 * that calls sbrk itself would see it fail.  The kernel starts the heap
 * at a random offset above the executable (up to 1 GiB on some
 * architectures since Linux 6.x), so whether a window above the executable is free varies
 * from run to run; below it, it does not.
 */
#define BRK_ROOM (256ULL << 20)
/* Lowest address mmap accepts by default (vm.mmap_min_addr). */
#define LOWEST_MAP 0x10000ULL
#define HIGHEST_MAP ARCH_USER_TOP

int tracer_read_maps(pid_t pid, tracer_map **out, size_t *n, rg_err *err)
{
	char path[64], *line = NULL;
	size_t linecap = 0, cap = 0;
	tracer_map *maps = NULL;
	FILE *f;

	*out = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "re")))
		return rg_error(err, "cannot read '%s': %s", path, strerror(errno));
	while (getline(&line, &linecap, f) > 0) {
		unsigned long long start, end, off;
		char perms[8];
		int pos = 0;
		tracer_map *m;
		char *p;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n",
			   &start, &end, perms, &off, &pos) < 4 || !pos)
			continue;
		RG_GROW(maps, *n + 1, cap);
		m = &maps[(*n)++];
		m->start = start;
		m->end = end;
		m->offset = off;
		m->read = perms[0] == 'r';
		m->exec = perms[2] == 'x';
		p = line + pos;
		p[strcspn(p, "\n")] = '\0';
		m->path = *p ? xstrdup(p) : NULL;
	}
	free(line);
	fclose(f);
	*out = maps;
	return 0;
}

void tracer_maps_free(tracer_map *maps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(maps[i].path);
	free(maps);
}

int tracer_maps(tracer *tr, tracer_map **out, size_t *n, rg_err *err)
{
	return tracer_read_maps(tr->pid, out, n, err);
}

int tracer_maps_of(tracer *tr, pid_t pid, tracer_map **out, size_t *n, rg_err *err)
{
	(void)tr;
	return tracer_read_maps(pid, out, n, err);
}

static bool within_reach(uint64_t a, uint64_t b)
{
	return (a > b ? a - b : b - a) <= REACH;
}

static bool slot_fits(uint64_t slot, const struct bp *b)
{
	if (!within_reach(slot, b->addr))
		return false;
	if (b->decoded && (b->insn.flags & ARCH_INSN_RIPREL) &&
	    !within_reach(slot, b->insn.riprel_target))
		return false;
	return true;
}

/* The extent of the object (every mapping of the same file) around addr. */
static void object_range(const tracer_map *m, size_t n, uint64_t addr,
			 uint64_t *lo, uint64_t *hi)
{
	const tracer_map *hit = NULL;

	*lo = *hi = addr;
	for (size_t i = 0; i < n; i++)
		if (addr >= m[i].start && addr < m[i].end)
			hit = &m[i];
	if (!hit)
		return;
	*lo = hit->start;
	*hi = hit->end;
	if (!hit->path || hit->path[0] == '[')
		return;
	for (size_t i = 0; i < n; i++) {
		if (!m[i].path || strcmp(m[i].path, hit->path))
			continue;
		if (m[i].start < *lo)
			*lo = m[i].start;
		if (m[i].end > *hi)
			*hi = m[i].end;
	}
}

/*
 * Free pages near [lo, hi), best first: the closest page below the object
 * comes first (above an executable lies the brk heap, which must stay free
 * to grow), then the closest above.  Never right below the stack, which
 * grows down into it.  ok() filters out pages out of reach.
 */
static size_t find_holes(const tracer_map *m, size_t n, uint64_t lo, uint64_t hi,
			 const struct bp *b, uint64_t near, uint64_t *cand, size_t max)
{
	uint64_t below = 0, above = 0, prev_end = LOWEST_MAP;
	size_t k = 0;

	for (size_t i = 0; i <= n; i++) {
		uint64_t gs = prev_end, ge = i < n ? m[i].start : HIGHEST_MAP;
		bool stack_above = i < n && m[i].path && !strcmp(m[i].path, "[stack]");

		if (i < n && m[i].end > prev_end)
			prev_end = m[i].end;
		if (ge <= gs || ge - gs < PAGE)
			continue;
		if (ge <= lo && !stack_above) {
			uint64_t c = ge - PAGE;
			bool fit = b ? slot_fits(c + SLOT_OFF, b) : within_reach(c, near);

			if (fit && within_reach(c, hi))
				below = c;      /* later gaps are closer */
		} else if (gs >= hi && !above) {
			bool fit = b ? slot_fits(gs + SLOT_OFF, b) : within_reach(gs, near);

			if (fit && within_reach(gs, lo))
				above = gs;
		}
	}
	if (below && k < max)
		cand[k++] = below;
	if (above && k < max)
		cand[k++] = above;
	return k;
}

/*
 * How run_syscall runs its system call: through the stub, or by writing
 * code over the thread's current instruction, which is safe only while no
 * other thread can run it: at the exec stop (single-threaded), or with
 * every thread stopped (attach, detach: INJECT_STOPPED, where the thread
 * may be stopped inside a system call of its own, restarted once its
 * registers are back).
 */
enum inject { INJECT_STUB, INJECT_EXEC, INJECT_STOPPED };

/* Bit (sig - 1) of the kernel's 64-bit signal set. */
#define SIGBIT(sig) (1ULL << ((sig) - 1))
/*
 * The signals a thread blocks while racegate's system call runs in it:
 * all but those the kernel forces on it (a fault, a trap, seccomp's
 * SIGSYS): one of those blocked would have its handler reset, and
 * racegate's own int3 must stop the thread.  SIGKILL and SIGSTOP cannot
 * be blocked, and are not in the set the kernel keeps.
 */
#define QUIET_MASK (~(SIGBIT(SIGSEGV) | SIGBIT(SIGBUS) | SIGBIT(SIGILL) | \
		      SIGBIT(SIGFPE) | SIGBIT(SIGTRAP) | SIGBIT(SIGSYS) | \
		      SIGBIT(SIGKILL) | SIGBIT(SIGSTOP)))

/*
 * t takes no signal of the program's while racegate's system call runs in
 * it: each one taken would have to be kept and sent again, after the
 * signals queued behind it.  And when every thread was stopped (an attach,
 * a detach) the process's queue may hold thousands of real-time signals,
 * all of which this one thread would take on its way to the call.  Blocked,
 * they stay queued, in their order, for the program.  *old: the thread's
 * own mask (the kernel gives the one a ppoll or sigsuspend will put back);
 * false if the mask could not be set (the call runs anyway).
 */
bool tracer_signals_quiet(const struct tcb *t, uint64_t *old)
{
	uint64_t quiet = QUIET_MASK;

	return ptrace(PTRACE_GETSIGMASK, t->tid, (void *)sizeof(*old), old) == 0 &&
	       ptrace(PTRACE_SETSIGMASK, t->tid, (void *)sizeof(quiet), &quiet) == 0;
}

/*
 * The thread's own mask back.  A kernel before 5.0 gives and sets the mask
 * of a ppoll or sigsuspend the thread was stopped in, and puts the saved
 * one back itself when the thread leaves the stop: its mask is not
 * racegate's any more, and it is left as it is (setting old would keep the
 * call's mask for good).
 */
void tracer_signals_back(const struct tcb *t, uint64_t old)
{
	uint64_t now;

	if (ptrace(PTRACE_GETSIGMASK, t->tid, (void *)sizeof(now), &now) == 0 &&
	    now == QUIET_MASK)
		ptrace(PTRACE_SETSIGMASK, t->tid, (void *)sizeof(old), &old);
}

/*
 * Runs one system call in thread t, as how says, with the program's
 * signals blocked (tracer_signals_quiet).  One of those left unblocked that comes
 * meanwhile (a SIGSEGV sent with kill) is kept for its next restart.
 * Returns 0 and the result in *ret, 1 if the thread died (its status is
 * queued), -1 on error.  keep, when given, takes what a copy of the
 * process made by the call (a fork) needs to be put back as it was
 * (tracer_injected).
 */
static int run_syscall_keep(tracer *tr, struct tcb *t, enum inject how, enum arch_sys call,
			    const uint64_t a[6], int64_t *ret, struct tracer_injected *keep,
			    rg_err *err)
{
	long nr = arch_sys_nr(call);
	arch_regs saved, r;
	uint8_t code[ARCH_INJECT_LEN], old[ARCH_INJECT_LEN];
	uint64_t start, trap_pc, mask = 0;
	int status, rc = 0;
	bool rejoin = false, at_exec = how != INJECT_STUB, quiet = false;

	tracer_regs_sync(t);
	if (arch_regs_fetch(t->tid, &saved) < 0)
		return rg_error(err, "cannot read the registers of thread %d: %s",
				t->tid, strerror(errno));
	r = saved;
	if (at_exec) {
		start = arch_get_pc(&saved);
		arch_inject_code(code, nr);
		if (tracer_mem_pread(t->as->memfd, start, old, sizeof(old)) != sizeof(old) ||
		    tracer_mem_pwrite(t->as->memfd, start, code, sizeof(code)) < 0)
			return rg_error(err, "cannot write code at 0x%llx in process %d",
					(unsigned long long)start, t->as->pid);
		trap_pc = start + ARCH_INJECT_TRAP_OFF;
	} else {
		if (!t->as->stub)
			return rg_error(err, "no scratch page to run a system call from");
		start = t->as->stub;
		trap_pc = ARCH_STUB_TRAP_PC(start);
	}
	arch_set_syscall_args(&r, nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	arch_set_pc(&r, start);
	/* stopped inside a call of its own: the kernel must not restart that
	 * one at our code; the saved registers restart it afterwards */
	if (how == INJECT_STOPPED)
		arch_set_no_restart(&r);
	if (arch_regs_store(t->tid, &r) < 0) {
		rc = rg_error(err, "cannot set the registers of thread %d: %s",
			      t->tid, strerror(errno));
		goto out;
	}
	quiet = tracer_signals_quiet(t, &mask);
	for (;;) {
		siginfo_t si;

		if (tracer_restart(t->tid, PTRACE_CONT, 0, err) < 0) {
			rc = -1;
			goto out;
		}
		if (tracer_wait_tid(t->tid, &status) < 0) {
			rc = 1;
			goto out;
		}
		if (!WIFSTOPPED(status) || (status >> 16) == PTRACE_EVENT_EXIT) {
			tracer_queue_status(tr, t->tid, status);
			rc = 1;
			goto out;
		}
		if (status >> 16) {
			/* a group-stop: finish first */
			rejoin |= tracer_is_group_stop(status);
			continue;
		}
		if (ptrace(PTRACE_GETSIGINFO, t->tid, 0L, &si) < 0)
			continue;
		if (WSTOPSIG(status) == SIGTRAP && si.si_code == SI_KERNEL &&
		    arch_regs_fetch(t->tid, &r) == 0 && arch_get_pc(&r) == trap_pc)
			break;
		if (t->npending < PENDING_MAX)
			t->pending[t->npending++] = si;
	}
	if (rejoin)
		tracer_rejoin_group_stop(t->tid);
	*ret = arch_syscall_result(&r);
	if (how == INJECT_EXEC)
		arch_set_exec_return(&saved);
	if (keep) {
		keep->regs = saved;
		keep->mask = mask;
		keep->masked = quiet;
		keep->code_at = at_exec ? start : 0;
		memcpy(keep->code, old, sizeof(old));
	}
	if (arch_regs_store(t->tid, &saved) < 0)
		rc = rg_error(err, "cannot restore the registers of thread %d: %s",
			      t->tid, strerror(errno));
out:
	if (quiet && rc <= 0)
		tracer_signals_back(t, mask);
	/* the program's own code back under the injected one */
	if (at_exec && tracer_mem_pwrite(t->as->memfd, start, old, sizeof(old)) < 0 &&
	    rc == 0)
		rc = rg_error(err, "cannot restore the code at 0x%llx in process %d",
			      (unsigned long long)start, t->as->pid);
	return rc;
}

static int run_syscall(tracer *tr, struct tcb *t, enum inject how, enum arch_sys call,
		       uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		       uint64_t a4, uint64_t a5, int64_t *ret, rg_err *err)
{
	const uint64_t a[6] = { a0, a1, a2, a3, a4, a5 };

	return run_syscall_keep(tr, t, how, call, a, ret, NULL, err);
}

int tracer_inject_stopped(tracer *tr, struct tcb *t, enum arch_sys call, const uint64_t a[6],
			  int64_t *ret, struct tracer_injected *keep, rg_err *err)
{
	return run_syscall_keep(tr, t, INJECT_STOPPED, call, a, ret, keep, err);
}

static int map_page(tracer *tr, struct tcb *t, enum inject how, int prot,
		    const uint64_t *cand, size_t ncand, const struct bp *b,
		    uint64_t near, uint64_t *out, rg_err *err)
{
	int64_t res = -ENOMEM;
	uint64_t base = 0;

	/*
	 * MAP_FIXED_NOREPLACE fails with EEXIST if another thread mapped
	 * something there since /proc/PID/maps was read; kernels before 4.17
	 * take it as a mere hint, hence the check of the address returned.
	 */
	for (size_t i = 0; i <= ncand; i++) {
		bool last = i == ncand;
		int rc;

		if (last && how == INJECT_STUB)
			break;
		rc = run_syscall(tr, t, how, ARCH_SYS_MMAP, last ? 0 : cand[i], PAGE, prot,
				 MAP_PRIVATE | MAP_ANONYMOUS |
				 (last ? 0 : MAP_FIXED_NOREPLACE),
				 (uint64_t)-1, 0, &res, err);
		if (rc)
			return rc;
		if (res < 0 && res > -4096)
			continue;
		if (last || (b ? slot_fits((uint64_t)res + SLOT_OFF, b) :
			     within_reach((uint64_t)res, near))) {
			base = (uint64_t)res;
			break;
		}
	}
	if (!base)
		return rg_error(err, "cannot map a scratch page in process %d: %s",
				t->as->pid, res < 0 ? strerror((int)-res) :
				"no free address near the code");
	*out = base;
	return 0;
}

static int map_scratch_page(tracer *tr, struct tcb *t, enum inject how,
			    const uint64_t *cand, size_t ncand,
			    const struct bp *b, uint64_t near, rg_err *err)
{
	uint8_t init[SLOT_OFF];
	uint64_t base = 0;
	struct aspace *as = t->as;
	struct scratch *sp;
	int rc = map_page(tr, t, how, PROT_READ | PROT_EXEC, cand, ncand, b, near,
			  &base, err);

	if (rc)
		return rc;
	/* breakpoints behind the stub: a thread stopped at its trap when
	 * racegate is killed outright goes on past it, and traps again */
	for (size_t i = 0; i + ARCH_BP_LEN <= sizeof(init); i += ARCH_BP_LEN)
		memcpy(init + i, arch_bp_insn, ARCH_BP_LEN);
	memcpy(init, arch_stub, ARCH_STUB_LEN);
	if (tracer_mem_pwrite(as->memfd, base, init, sizeof(init)) < 0)
		return rg_error(err, "cannot write the scratch page at 0x%llx",
				(unsigned long long)base);
	RG_GROW(as->pages, as->npages + 1, as->pages_cap);
	sp = &as->pages[as->npages++];
	sp->base = base;
	sp->slot_owner = 0;
	sp->oot_next = OOT_OFF;
	if (!as->stub)
		as->stub = base;
	return 0;
}

/* The first scratch page of t's memory, near the executable (entry: its
 * entry point), mapped by t as how says. */
static int scratch_first(tracer *tr, struct tcb *leader, uint64_t entry,
			 enum inject how, rg_err *err)
{
	tracer_map *maps;
	size_t n, ncand = 0;
	uint64_t lo, hi, cand[2];
	int rc;

	leader->as->npages = 0;
	leader->as->stub = 0;
	if (tracer_read_maps(leader->as->pid, &maps, &n, err) < 0)
		return -1;
	if (entry) {
		object_range(maps, n, entry, &lo, &hi);
		ncand = find_holes(maps, n, lo, hi, NULL, entry, cand, 2);
	}
	tracer_maps_free(maps, n);
	rc = map_scratch_page(tr, leader, how, cand, ncand, NULL, entry, err);
	if (rc > 0)
		return rg_error(err, "process %d died while it was being set up",
				leader->as->pid);
	return rc;
}

/* At the exec stop: the first scratch page, near the executable. */
int tracer_scratch_init(tracer *tr, struct tcb *leader, uint64_t entry, rg_err *err)
{
	return scratch_first(tr, leader, entry, INJECT_EXEC, err);
}

int tracer_scratch_attach(tracer *tr, struct tcb *t, rg_err *err)
{
	return scratch_first(tr, t, tr->entry, INJECT_STOPPED, err);
}

/*
 * Not through the stub: the call would return into the page it unmaps.
 * Every thread is stopped (a detach), so t's own code is safe to borrow.
 */
int tracer_scratch_unmap(tracer *tr, struct tcb *t, rg_err *err)
{
	struct aspace *as = t->as;
	int rc = 0;

	while (as->npages) {
		struct scratch *sp = &as->pages[as->npages - 1];
		int64_t res = 0;

		rc = run_syscall(tr, t, INJECT_STOPPED, ARCH_SYS_MUNMAP, sp->base, PAGE,
				 0, 0, 0, 0, &res, err);
		if (rc > 0)
			return rg_error(err, "thread %d died while racegate's scratch "
					"page was unmapped", t->tid);
		if (rc < 0)
			return -1;
		if (res < 0 && res > -4096)
			return rg_error(err, "cannot unmap the scratch page at 0x%llx: %s",
					(unsigned long long)sp->base, strerror((int)-res));
		as->npages--;
	}
	while (as->ndata) {
		int64_t res = 0;

		rc = run_syscall(tr, t, INJECT_STOPPED, ARCH_SYS_MUNMAP,
				 as->data[as->ndata - 1].base, PAGE, 0, 0, 0, 0, &res, err);
		if (rc)
			return rc < 0 ? -1 : rg_error(err, "thread %d died while racegate's "
						      "scratch page was unmapped", t->tid);
		as->ndata--;
	}
	as->stub = 0;
	/* the copies went with the pages */
	rg_intmap_release(&as->oot);
	as->noots_gone = 0;
	return 0;
}

/* Where a page puts what b needs: its slot, or (oot) its next out-of-line
 * copy; 0 when the page has no room left for one. */
static uint64_t page_spot(const struct scratch *sp, bool oot, size_t need)
{
	if (!oot)
		return sp->base + SLOT_OFF;
	return sp->oot_next + need <= PAGE ? sp->base + sp->oot_next : 0;
}

/*
 * A page with b's spot (page_spot) within reach of it, mapping a new one
 * near b when none has.  0 and *out; 1: t died; 2: no free page near b, or
 * the new one is out of reach; -1: error.
 */
static int scratch_near(tracer *tr, struct tcb *t, const struct bp *b, bool oot,
			size_t need, struct scratch **out, rg_err *err)
{
	tracer_map *maps;
	size_t n, ncand;
	uint64_t lo, hi, cand[2], spot;
	int rc;

	for (size_t i = 0; i < t->as->npages; i++) {
		spot = page_spot(&t->as->pages[i], oot, need);
		if (spot && slot_fits(spot, b)) {
			*out = &t->as->pages[i];
			return 0;
		}
	}
	if (tracer_read_maps(t->as->pid, &maps, &n, err) < 0)
		return -1;
	object_range(maps, n, b->addr, &lo, &hi);
	ncand = find_holes(maps, n, lo, hi, b, b->addr, cand, 2);
	tracer_maps_free(maps, n);
	if (!ncand)
		return 2;
	rc = map_scratch_page(tr, t, INJECT_STUB, cand, ncand, b, b->addr, err);
	if (rc)
		return rc;
	*out = &t->as->pages[t->as->npages - 1];
	return slot_fits(page_spot(*out, oot, need), b) ? 0 : 2;
}

int tracer_scratch_slot(tracer *tr, struct tcb *t, const struct bp *b,
			struct scratch **out, rg_err *err)
{
	int rc = scratch_near(tr, t, b, false, 0, out, err);

	if (rc == 2)
		return rg_error(err, "cannot step over the breakpoint at 0x%llx: "
				"no free page within " ARCH_NEAR_REACH_TEXT " of it",
				(unsigned long long)b->addr);
	return rc;
}

int tracer_scratch_oot(tracer *tr, struct tcb *t, const struct bp *b,
		       struct scratch **out, rg_err *err)
{
	int rc = scratch_near(tr, t, b, true, OOT_SIZE, out, err);

	return rc > 0 ? 1 : rc;
}

/*
 * For a pad (pad.c), every thread stopped: PAD_CODE_MAX bytes of code in a
 * scratch page within reach of b, and a table of PAD_TABLE_SIZE bytes in a
 * read-write page (the program writes it) within reach of that code.
 * 1: t died, or no page can be had near b.
 */
/*
 * A table's room in a read-write page within reach of code, mapping one near
 * the object that holds anchor when none has room.  1: none free.
 */
static int table_near(tracer *tr, struct tcb *t, uint64_t code, uint64_t anchor,
		      uint64_t *table, rg_err *err)
{
	struct aspace *as = t->as;
	tracer_map *maps;
	size_t n, ncand, i;
	uint64_t cand[2], base, lo, hi;
	int rc;

	for (i = 0; i < as->ndata; i++)
		if (as->data[i].oot_next + PAD_TABLE_SIZE <= PAGE &&
		    within_reach(as->data[i].base, code) &&
		    within_reach(as->data[i].base + PAGE, code))
			break;
	if (i == as->ndata) {
		if (tracer_read_maps(as->pid, &maps, &n, err) < 0)
			return -1;
		object_range(maps, n, anchor, &lo, &hi);
		ncand = find_holes(maps, n, lo, hi, NULL, code, cand, 2);
		tracer_maps_free(maps, n);
		if (!ncand)
			return 1;
		rc = map_page(tr, t, INJECT_STUB, PROT_READ | PROT_WRITE, cand, ncand,
			      NULL, code, &base, err);
		if (rc)
			return rc;
		RG_GROW(as->data, as->ndata + 1, as->data_cap);
		as->data[as->ndata++] = (struct scratch){ base, 0, 0 };
		if (!within_reach(base + PAGE, code))
			return 1;
	}
	*table = as->data[i].base + as->data[i].oot_next;
	as->data[i].oot_next += PAD_TABLE_SIZE;
	return 0;
}

int tracer_scratch_pad(tracer *tr, struct tcb *t, const struct bp *b,
		       uint64_t *code, uint64_t *table, rg_err *err)
{
	struct scratch *sp = NULL;
	int rc = scratch_near(tr, t, b, true, PAD_CODE_MAX, &sp, err);

	if (rc)
		return rc > 0 ? 1 : rc;
	*code = sp->base + sp->oot_next;
	if ((rc = table_near(tr, t, *code, b->addr, table, err)))
		return rc;
	/* 32-byte copies: the pad's code takes whole ones */
	sp->oot_next += (PAD_CODE_MAX + OOT_SIZE - 1) / OOT_SIZE * OOT_SIZE;
	return 0;
}

/* The first address in [gs, ge) ∩ [lo, hi] with PAD_CODE_MAX bytes free
 * behind it (a page boundary if one will do), or 0. */
static uint64_t pun_spot(uint64_t gs, uint64_t ge, uint64_t lo, uint64_t hi)
{
	uint64_t at = gs > lo ? gs : lo, up = (at + PAGE - 1) & ~(PAGE - 1);

	if (up <= hi && up + PAD_CODE_MAX <= ge)
		return up;
	return at <= hi && at + PAD_CODE_MAX <= ge ? at : 0;
}

/*
 * A free place for a pad whose address [lo, hi] bounds: in a hole of the
 * maps, not right below the stack (it grows down into it), nor in [brk,
 * brk_end), where the brk heap grows up.  0 if none.
 */
static uint64_t pun_place(const tracer_map *m, size_t n, uint64_t brk, uint64_t brk_end,
			  uint64_t site, uint64_t lo, uint64_t hi)
{
	uint64_t prev_end = LOWEST_MAP;

	if (site > REACH && lo < site - REACH)
		lo = site - REACH;
	if (hi > site + REACH - PAD_CODE_MAX)
		hi = site + REACH - PAD_CODE_MAX;
	if (lo < LOWEST_MAP)
		lo = LOWEST_MAP;
	if (hi > HIGHEST_MAP - PAD_CODE_MAX)
		hi = HIGHEST_MAP - PAD_CODE_MAX;
	for (size_t i = 0; i <= n && lo <= hi; i++) {
		uint64_t gs = prev_end, ge = i < n ? m[i].start : HIGHEST_MAP, at;
		bool stack_above = i < n && m[i].path && !strcmp(m[i].path, "[stack]");

		if (i < n && m[i].end > prev_end)
			prev_end = m[i].end;
		if (ge <= gs || stack_above)
			continue;
		if (gs < brk_end && ge > brk) {
			/* the hole's part below the heap, then the part above its room */
			if (gs < brk && (at = pun_spot(gs, brk, lo, hi)))
				return at;
			gs = brk_end;
			if (ge <= gs)
				continue;
		}
		if ((at = pun_spot(gs, ge, lo, hi)))
			return at;
	}
	return 0;
}

int tracer_scratch_pun(tracer *tr, struct tcb *t, uint64_t site, uint64_t lo,
		       uint64_t hi, uint64_t *code, uint64_t *table, rg_err *err)
{
	struct aspace *as = t->as;
	tracer_map *maps;
	size_t n;
	uint64_t at, first, end;
	unsigned long long brk;
	int64_t res = 0;
	int rc;

	if (tracer_read_maps(as->pid, &maps, &n, err) < 0)
		return -1;
	/* where the brk heap starts (field 47 of stat), or 0 */
	if (tracer_proc_stat_field(as->pid, 47, &brk) != 0)
		brk = 0;
	at = pun_place(maps, n, brk, brk ? brk + BRK_ROOM : 0, site, lo, hi);
	tracer_maps_free(maps, n);
	if (!at)
		return 1;
	first = at & ~(PAGE - 1);
	end = (at + PAD_CODE_MAX + PAGE - 1) & ~(PAGE - 1);
	rc = run_syscall(tr, t, INJECT_STUB, ARCH_SYS_MMAP, first, end - first,
			 PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			 (uint64_t)-1, 0, &res, err);
	if (rc)
		return rc;
	if (res < 0 && res > -4096)
		return 1;       /* mapped by another thread since the maps were read */
	if ((uint64_t)res != first) {
		/* a kernel that takes MAP_FIXED_NOREPLACE as a hint put it elsewhere */
		run_syscall(tr, t, INJECT_STUB, ARCH_SYS_MUNMAP, (uint64_t)res, end - first,
			    0, 0, 0, 0, &res, NULL);
		return 1;
	}
	for (uint64_t pg = first; pg < end; pg += PAGE) {
		RG_GROW(as->data, as->ndata + 1, as->data_cap);
		as->data[as->ndata++] = (struct scratch){ pg, 0, PAGE };
	}
	*code = at;
	return table_near(tr, t, at, at, table, err);
}
