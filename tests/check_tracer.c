/*
 * Check suite for tracer/: runs the fixture programs of fixtures/tracer under
 * the tracer and checks the events and the programs' own verdicts (their exit
 * status says whether every displaced instruction did the right thing).
 *
 * Breakpoint addresses come from tracer_fx_syms.h, generated from the
 * fixtures' nm listings at build time: link-time addresses of PIE programs,
 * so the load bias is tracer_entry() - _start.
 *
 * The suite is split in files of under 1,500 lines: the jump pads' code
 * and analysis, on bytes (the "pads" group), are in check_tracer_pads.c.
 */
#include <check.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linkmap.h"
#include "tracer.h"
#include "tracer_int.h"
#include "tracer_fx_syms.h"
#include "check_tracer.h"

#define FX(name) TRACER_FX_DIR "/tr_" name
#define EVENT_TIMEOUT_MS 15000

struct hit {
	uint64_t addr;
	int n;
};

struct run {
	tracer *tr;
	uint64_t base;                 /* load bias of the fixture */
	struct hit hits[32];
	int nhits;
	int nbreak, nnew, nthread_exit, nfork, nexec, nsignal[65];
	int nleader_exit;              /* THREAD_EXIT of the leader's tid */
	int nsleeps;                   /* SLEEPS */
	int nfollowed;                 /* FORK of a child followed (follow_fork) */
	pid_t followed;                /* the last one */
	int nchild_threads;            /* THREAD_NEW in a followed child */
	tracer_event exit_ev;
	void *data;                    /* for the callbacks */
};

/* Returns false to leave the thread stopped. */
typedef bool (*on_event_fn)(struct run *r, const tracer_event *ev);

static void start_follow(struct run *r, const char *path, uint64_t start_sym,
			 bool follow_fork)
{
	const char *argv[] = { path, NULL };
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	tracer_opts o = { argv, NULL, -1, devnull, -1, NULL, 0, follow_fork };
	rg_err err = RG_ERR_INIT;

	memset(r, 0, sizeof(*r));
	ck_assert_msg(tracer_spawn(&o, &r->tr, &err) == 0, "spawn: %s", err.msg);
	close(devnull);
	ck_assert(tracer_is_stopped(r->tr, tracer_pid(r->tr)));
	ck_assert(tracer_entry(r->tr) != 0);
	r->base = tracer_entry(r->tr) - start_sym;
}

static void start(struct run *r, const char *path, uint64_t start_sym)
{
	start_follow(r, path, start_sym, false);
}

static void bp(struct run *r, uint64_t addr)
{
	rg_err err = RG_ERR_INIT;

	ck_assert_msg(tracer_insert_bp(r->tr, addr, &err) == 0, "insert: %s", err.msg);
}

static int hits(const struct run *r, uint64_t addr)
{
	for (int i = 0; i < r->nhits; i++)
		if (r->hits[i].addr == addr)
			return r->hits[i].n;
	return 0;
}

static void count_hit(struct run *r, uint64_t addr)
{
	for (int i = 0; i < r->nhits; i++) {
		if (r->hits[i].addr == addr) {
			r->hits[i].n++;
			return;
		}
	}
	ck_assert(r->nhits < 32);
	r->hits[r->nhits].addr = addr;
	r->hits[r->nhits++].n = 1;
}

/* Resumes the first stop, then runs to EXIT; checks that nothing follows. */
static void run_to_exit(struct run *r, on_event_fn fn)
{
	rg_err err = RG_ERR_INIT;
	tracer_event ev;

	ck_assert_msg(tracer_resume(r->tr, tracer_pid(r->tr), &err) == 0, "%s", err.msg);
	for (;;) {
		int rc = tracer_next_event(r->tr, &ev, EVENT_TIMEOUT_MS, &err);

		ck_assert_msg(rc == 1, "next_event returned %d: %s", rc, err.msg);
		switch (ev.kind) {
		case TRACER_EV_BREAKPOINT:
			r->nbreak++;
			count_hit(r, ev.addr);
			break;
		case TRACER_EV_THREAD_NEW:
			r->nnew++;
			ck_assert(ev.parent > 0);
			ck_assert(ev.pid > 0);
			if (ev.pid != tracer_pid(r->tr)) {
				/* a followed child's first thread, right after its FORK */
				ck_assert_int_eq(ev.pid, r->followed);
				r->nchild_threads++;
			}
			break;
		case TRACER_EV_THREAD_EXIT:
			if (ev.tid == tracer_pid(r->tr))
				r->nleader_exit++;
			else
				r->nthread_exit++;
			break;
		case TRACER_EV_FORK:
			r->nfork++;
			ck_assert(ev.child > 0);
			if (ev.followed) {
				r->nfollowed++;
				r->followed = ev.child;
			}
			break;
		case TRACER_EV_EXEC:
			r->nexec++;
			break;
		case TRACER_EV_SIGNAL:
			if (ev.signo > 0 && ev.signo < 65)
				r->nsignal[ev.signo]++;
			break;
		case TRACER_EV_EXIT:
			r->exit_ev = ev;
			break;
		case TRACER_EV_RANGE_DONE:
			break;
		case TRACER_EV_SLEEPS:
			r->nsleeps++;
			ck_assert(tracer_is_stopped(r->tr, ev.tid));
			break;
		}
		if (fn && !fn(r, &ev))
			continue;
		/* a followed child's exec leaves it stopped too */
		if (ev.kind == TRACER_EV_BREAKPOINT || ev.kind == TRACER_EV_THREAD_NEW ||
		    (ev.kind == TRACER_EV_EXEC && ev.pid != tracer_pid(r->tr))) {
			ck_assert(tracer_is_stopped(r->tr, ev.tid));
			ck_assert_msg(tracer_resume(r->tr, ev.tid, &err) == 0,
				      "resume: %s", err.msg);
		}
		if (ev.kind == TRACER_EV_EXIT)
			break;
	}
	ck_assert_int_eq(tracer_next_event(r->tr, &ev, 0, &err), 0);
}

static void finish(struct run *r)
{
	pid_t pid = tracer_pid(r->tr);
	int status;

	tracer_free(r->tr);
	r->tr = NULL;
	/* Nothing left behind: no process, no zombie. */
	ck_assert_int_eq(kill(pid, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
	ck_assert_int_eq(waitpid(-1, &status, __WALL | WNOHANG), -1);
}

/* (a) Two threads, 10,000 hits each, every one reported and stepped over. */
/* RIP-relative SSE and VEX forms (capstone does not always say where
 * their displacement is): decoded, and relocated to the same target. */
START_TEST(test_riprel_sse_relocates)
{
	static const struct { uint8_t b[12]; size_t n; int off; } v[] = {
		/* movdqa xmm3, [rip + 0xc00] */
		{ { 0x66, 0x0f, 0x6f, 0x1d, 0x00, 0x0c, 0x00, 0x00 }, 8, 4 },
		/* vmovdqa xmm0, [rip + 0x10] */
		{ { 0xc5, 0xf9, 0x6f, 0x05, 0x10, 0x00, 0x00, 0x00 }, 8, 4 },
		/* palignr xmm0, [rip + 0x10], 8 */
		{ { 0x66, 0x0f, 0x3a, 0x0f, 0x05, 0x10, 0x00, 0x00, 0x00, 0x08 }, 10, 5 },
		/* mov eax, [rip + 0x20] */
		{ { 0x8b, 0x05, 0x20, 0x00, 0x00, 0x00 }, 6, 2 },
	};
	arch *a = NULL;
	rg_err err = RG_ERR_INIT;

	ck_assert_int_eq(arch_new(&a, &err), 0);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct arch_insn in;
		uint8_t out[ARCH_MAX_INSN];
		int32_t d0, d1;

		ck_assert_msg(arch_decode(a, v[i].b, v[i].n, 0x401000, &in, &err) == 0,
			      "%zu: %s", i, err.msg);
		ck_assert(in.flags & ARCH_INSN_RIPREL);
		ck_assert_int_eq(in.len, v[i].n);
		ck_assert_int_eq(in.disp_off, v[i].off);
		memcpy(&d0, v[i].b + v[i].off, 4);
		ck_assert_uint_eq(in.riprel_target, 0x401000 + v[i].n + (int64_t)d0);
		ck_assert_int_eq(arch_relocate(&in, 0x401000, 0x400000, out, &err), 0);
		memcpy(&d1, out + v[i].off, 4);
		ck_assert_int_eq(d1, d0 + 0x1000);
	}
	arch_free(a);
}
END_TEST

START_TEST(test_no_lost_hits)
{
	struct run r;
	uint64_t hot;

	start(&r, FX("hot"), TRSYM_hot__start);
	hot = r.base + TRSYM_hot_hot;
	bp(&r, hot);
	run_to_exit(&r, NULL);
	ck_assert_int_eq(hits(&r, hot), 20000);
	ck_assert_int_eq(r.nbreak, 20000);
	ck_assert_int_eq(r.nnew, 2);
	ck_assert_int_eq(r.nthread_exit, 2);
	ck_assert_int_eq(r.nleader_exit, 1);    /* main returned: before EXIT */
	ck_assert_int_eq(r.exit_ev.exit_code, 0);
	ck_assert_int_eq(r.exit_ev.term_signal, 0);
	finish(&r);
}
END_TEST

static bool remove_at_1000(struct run *r, const tracer_event *ev)
{
	rg_err err = RG_ERR_INIT;

	if (ev->kind == TRACER_EV_BREAKPOINT && r->nbreak == 1000) {
		/* Meanwhile the other thread traps on the int3, and its status
		 * waits in the kernel until after the removal. */
		usleep(20 * 1000);
		ck_assert_msg(tracer_remove_bp(r->tr, ev->addr, &err) == 0, "%s", err.msg);
	}
	return true;
}

/* Removal while the other thread may already have trapped on the int3. */
START_TEST(test_remove_while_running)
{
	struct run r;
	uint64_t hot;

	start(&r, FX("hot"), TRSYM_hot__start);
	hot = r.base + TRSYM_hot_hot;
	bp(&r, hot);
	bp(&r, hot);            /* idempotent */
	run_to_exit(&r, remove_at_1000);
	ck_assert_int_eq(r.nbreak, 1000);
	ck_assert_int_eq(r.exit_ev.exit_code, 0);
	finish(&r);
}
END_TEST

/* (b) Displaced steps of each kind of instruction, in a PIE and not. */
#define STEP_WANT(p) { \
		{ TRSYM_##p##_bp_load, 3 }, { TRSYM_##p##_bp_store, 3 }, \
		{ TRSYM_##p##_bp_lea, 3 }, { TRSYM_##p##_bp_ret, 3 }, \
		{ TRSYM_##p##_bp_call_rel, 1 }, { TRSYM_##p##_bp_call_ind_mem, 1 }, \
		{ TRSYM_##p##_bp_call_ind_reg, 1 }, { TRSYM_##p##_bp_jcc, 2 }, \
		{ TRSYM_##p##_bp_jmp32, 1 }, { TRSYM_##p##_bp_c_inc, 5 }, \
		{ TRSYM_##p##_helper, 3 }, { TRSYM_##p##_c_increment, 5 }, \
		{ 0, 0 } }

struct want { uint64_t sym; int n; };
static const struct want want_pie[] = STEP_WANT(steps);
static const struct want want_nopie[] = STEP_WANT(steps_nopie);

START_TEST(test_step_kinds)
{
	const struct want *want = _i ? want_nopie : want_pie;
	rg_err err = RG_ERR_INIT;
	struct run r;

	if (_i)
		start(&r, FX("steps_nopie"), TRSYM_steps_nopie__start);
	else
		start(&r, FX("steps"), TRSYM_steps__start);
	for (size_t i = 0; want[i].n; i++)
		bp(&r, r.base + want[i].sym);
	/* Data is no place for a breakpoint. */
	ck_assert_int_eq(tracer_insert_bp(r.tr, r.base + (_i ? TRSYM_steps_nopie_counter :
							     TRSYM_steps_counter), &err), -1);
	ck_assert_msg(strstr(err.msg, "not in executable code"), "%s", err.msg);
	ck_assert_int_eq(tracer_insert_bp(r.tr, 8, &err), -1);
	run_to_exit(&r, NULL);
	for (size_t i = 0; want[i].n; i++)
		ck_assert_msg(hits(&r, r.base + want[i].sym) == want[i].n,
			      "breakpoint %zu: %d hits, want %d", i,
			      hits(&r, r.base + want[i].sym), want[i].n);
	ck_assert_msg(r.exit_ev.exit_code == 0, "the program saw a wrong result (exit %d, signal %d)",
		      r.exit_ev.exit_code, r.exit_ev.term_signal);
	finish(&r);
}
END_TEST

/* (c) The program's own signals, SIGTRAPs and faults under breakpoints. */
START_TEST(test_signals)
{
	struct run r;

	start(&r, FX("signals"), TRSYM_signals__start);
	bp(&r, r.base + TRSYM_signals_hot2);
	bp(&r, r.base + TRSYM_signals_bp_fault);
	run_to_exit(&r, NULL);
	ck_assert_msg(r.exit_ev.exit_code == 0, "the program's handlers went wrong "
		      "(exit %d, signal %d)", r.exit_ev.exit_code, r.exit_ev.term_signal);
	ck_assert_int_eq(hits(&r, r.base + TRSYM_signals_hot2), 3000);
	ck_assert_int_eq(hits(&r, r.base + TRSYM_signals_bp_fault), 1);
	ck_assert_int_eq(r.nsignal[SIGTRAP], 2);
	ck_assert_int_eq(r.nsignal[SIGSEGV], 1);
	ck_assert_int_ge(r.nsignal[SIGUSR1], 2);
	finish(&r);
}
END_TEST

/* Ends each sleep at once, until mark(); the sleeps after it are slept.
 * The fourth gets a SIGUSR2 first, while parked. */
static bool end_sleeps(struct run *r, const tracer_event *ev)
{
	bool *slept = r->data;
	rg_err err = RG_ERR_INIT;

	if (ev->kind == TRACER_EV_BREAKPOINT)
		*slept = true;
	if (ev->kind != TRACER_EV_SLEEPS)
		return true;
	if (r->nsleeps == 4)
		ck_assert_int_eq(syscall(SYS_tgkill, tracer_pid(r->tr), ev->tid, SIGUSR2), 0);
	ck_assert_msg((*slept ? tracer_resume(r->tr, ev->tid, &err) :
		       tracer_fire(r->tr, ev->tid, &err)) == 0, "%s", err.msg);
	return false;
}

/*
 * Sleeps watched as they begin: three of 30 s (nanosleep,
 * clock_nanosleep, usleep) end at once and return 0, as a timeout would
 * have them; one a handled signal came to while parked is cut by it
 * (EINTR, its time left written); three that fail at once (EINVAL, EFAULT, a CPU clock) are
 * not parked; one resumed instead sleeps its time; a handled signal and
 * calls that do not sleep (a write) go on as without the watch.
 */
START_TEST(test_sleeps_watched)
{
	struct run r;
	bool slept = false;

	start(&r, FX("sleeps"), TRSYM_sleeps__start);
	bp(&r, r.base + TRSYM_sleeps_mark);
	tracer_watch_sleeps(r.tr, tracer_pid(r.tr), true);
	r.data = &slept;
	run_to_exit(&r, end_sleeps);
	ck_assert_msg(r.exit_ev.exit_code == 0, "a call saw the watch (exit %d, signal %d)",
		      r.exit_ev.exit_code, r.exit_ev.term_signal);
	ck_assert_int_eq(r.nsleeps, 5);
	ck_assert_int_eq(r.nsignal[SIGUSR1], 1);
	ck_assert_int_eq(r.nsignal[SIGUSR2], 1);
	finish(&r);
}
END_TEST

static bool hold_forever(struct run *r, const tracer_event *ev)
{
	if (ev->kind == TRACER_EV_BREAKPOINT) {
		*(pid_t *)r->data = ev->tid;
		return false;
	}
	if (ev->kind == TRACER_EV_THREAD_EXIT && ev->tid == *(pid_t *)r->data)
		*(pid_t *)r->data = -1;
	return true;
}

/* (d) The program exits while a thread is held at a breakpoint. */
START_TEST(test_exit_while_held)
{
	pid_t held = 0;
	struct run r;

	start(&r, FX("held"), TRSYM_held__start);
	r.data = &held;
	bp(&r, r.base + TRSYM_held_held_fn);
	run_to_exit(&r, hold_forever);
	ck_assert_int_eq(r.nbreak, 1);
	ck_assert_int_eq(held, -1);     /* its THREAD_EXIT came */
	ck_assert_int_eq(r.exit_ev.exit_code, 3);
	finish(&r);
}
END_TEST

/*
 * At a held breakpoint: the DWARF registers put the PC at the breakpoint,
 * and one batch reads memory in order, showing the program's bytes under
 * an int3 and stopping at the first request that cannot be read.
 */
static bool check_regs_and_batch(struct run *r, const tracer_event *ev)
{
	uint64_t regs[32], sp = 0;
	size_t n = 0;
	uint8_t code = 0, word[8];
	char mark[32], again[32];
	rg_err err = RG_ERR_INIT;
	tracer_read_req reqs[4] = {
		{ ev->addr, &code, 1 },
		{ r->base + TRSYM_held_held_mark, mark, sizeof(mark) },
		{ 0, word, sizeof(word) },
		{ r->base + TRSYM_held_held_mark, again, sizeof(again) },
	};

	if (ev->kind != TRACER_EV_BREAKPOINT)
		return true;
	ck_assert_msg(tracer_dwarf_regs(r->tr, ev->tid, regs, 32, &n, &err) == 0,
		      "%s", err.msg);
	ck_assert_uint_eq(n, 17);
	ck_assert_uint_eq(regs[16], ev->addr);             /* DWARF 16: the PC */
	ck_assert_int_eq(tracer_get_sp(r->tr, ev->tid, &sp, &err), 0);
	ck_assert_uint_eq(regs[7], sp);                    /* DWARF 7: the SP */
	ck_assert_uint_eq(tracer_read_batch(r->tr, ev->tid, reqs, 4), 2);
	ck_assert(code != 0xcc);
	ck_assert_str_eq(mark, "racegate batch read");
	ck_assert_uint_eq(tracer_read_batch(r->tr, ev->tid, reqs + 3, 1), 1);
	ck_assert_str_eq(again, "racegate batch read");
	*(pid_t *)r->data = ev->tid;
	return true;
}

START_TEST(test_regs_and_batch)
{
	pid_t seen = 0;
	struct run r;

	start(&r, FX("held"), TRSYM_held__start);
	r.data = &seen;
	bp(&r, r.base + TRSYM_held_held_fn);
	run_to_exit(&r, check_regs_and_batch);
	ck_assert_int_eq(r.nbreak, 1);
	ck_assert(seen > 0);
	finish(&r);
}
END_TEST

/*
 * The process dies (SIGKILL from elsewhere) while a thread is stopped at a
 * breakpoint and a condition is about to read it: the registers of the
 * stop may still be given (they are cached), the batch reads the memory
 * while the dying thread waits in its exit stop or nothing after, and
 * nothing crashes; the exit is reported as usual.
 */
static bool read_after_death(struct run *r, const tracer_event *ev)
{
	uint64_t regs[32];
	size_t n = 0;
	char mark[32];
	rg_err err = RG_ERR_INIT;
	tracer_read_req req = { r->base + TRSYM_held_held_mark, mark, sizeof(mark) };

	if (ev->kind != TRACER_EV_BREAKPOINT)
		return true;
	ck_assert_int_eq(kill(tracer_pid(r->tr), SIGKILL), 0);
	usleep(100 * 1000);
	if (tracer_dwarf_regs(r->tr, ev->tid, regs, 32, &n, &err) == 0)
		ck_assert_uint_eq(regs[16], ev->addr);
	/* a dying thread waits in its exit stop with its memory still there */
	if (tracer_read_batch(r->tr, ev->tid, &req, 1) == 1)
		ck_assert_str_eq(mark, "racegate batch read");
	*(pid_t *)r->data = ev->tid;
	return true;
}

START_TEST(test_read_after_death)
{
	pid_t seen = 0;
	struct run r;

	start(&r, FX("held"), TRSYM_held__start);
	r.data = &seen;
	bp(&r, r.base + TRSYM_held_held_fn);
	run_to_exit(&r, read_after_death);
	ck_assert(seen > 0);
	ck_assert_int_eq(r.exit_ev.term_signal, SIGKILL);
	finish(&r);
}
END_TEST

/* tracer_kill and tracer_free with a thread held. */
START_TEST(test_kill_while_held)
{
	rg_err err = RG_ERR_INIT;
	tracer_event ev;
	struct run r;
	bool killed = false;

	start(&r, FX("held"), TRSYM_held__start);
	bp(&r, r.base + TRSYM_held_held_fn);
	ck_assert(tracer_resume(r.tr, tracer_pid(r.tr), &err) == 0);
	for (;;) {
		ck_assert_int_eq(tracer_next_event(r.tr, &ev, EVENT_TIMEOUT_MS, &err), 1);
		if (ev.kind == TRACER_EV_THREAD_NEW)
			ck_assert(tracer_resume(r.tr, ev.tid, &err) == 0);
		if (ev.kind == TRACER_EV_BREAKPOINT && !killed) {
			arch_regs regs;
			uint8_t byte;

			ck_assert(tracer_get_regs(r.tr, ev.tid, &regs, &err) == 0);
			ck_assert_uint_eq(arch_get_pc(&regs), ev.addr);
			/* Memory reads show the program's byte, not the int3. */
			ck_assert(tracer_read_mem(r.tr, ev.addr, &byte, 1, &err) == 0);
			ck_assert_uint_ne(byte, 0xcc);
			tracer_kill(r.tr);
			killed = true;
		}
		if (ev.kind == TRACER_EV_EXIT)
			break;
	}
	ck_assert_int_eq(ev.term_signal, SIGKILL);
	finish(&r);
}
END_TEST

/* tracer_free alone, with the program running and a thread held. */
START_TEST(test_free_while_held)
{
	rg_err err = RG_ERR_INIT;
	tracer_event ev;
	struct run r;

	start(&r, FX("held"), TRSYM_held__start);
	bp(&r, r.base + TRSYM_held_held_fn);
	ck_assert(tracer_resume(r.tr, tracer_pid(r.tr), &err) == 0);
	do {
		ck_assert_int_eq(tracer_next_event(r.tr, &ev, EVENT_TIMEOUT_MS, &err), 1);
		if (ev.kind == TRACER_EV_THREAD_NEW)
			ck_assert(tracer_resume(r.tr, ev.tid, &err) == 0);
	} while (ev.kind != TRACER_EV_BREAKPOINT);
	finish(&r);
}
END_TEST

struct family {
	pid_t tid[16], parent[16];
	int n;
};

static bool note_parents(struct run *r, const tracer_event *ev)
{
	struct family *f = r->data;

	if (ev->kind == TRACER_EV_THREAD_NEW && f->n < 16) {
		f->tid[f->n] = ev->tid;
		f->parent[f->n++] = ev->parent;
	}
	return true;
}

/* Threads made by a thread; then exec from a thread that is not the leader. */
START_TEST(test_threads_and_exec)
{
	struct family f = { .n = 0 };
	struct run r;
	pid_t pid;

	start(&r, FX("threads"), TRSYM_threads__start);
	pid = tracer_pid(r.tr);
	r.data = &f;
	bp(&r, r.base + TRSYM_threads_work);
	run_to_exit(&r, note_parents);
	ck_assert_int_eq(hits(&r, r.base + TRSYM_threads_work), 600);
	ck_assert_int_eq(f.n, 8);
	ck_assert_int_eq(f.parent[0], pid);              /* spawner */
	for (int i = 1; i < 7; i++)
		ck_assert_int_eq(f.parent[i], f.tid[0]);  /* its subthreads */
	ck_assert_int_eq(f.parent[7], pid);              /* execer */
	ck_assert_int_eq(r.nexec, 1);
	/* Every thread but the leader is gone, the execer included. */
	ck_assert_int_eq(r.nthread_exit, 8);
	/* The new leader's exit; the old one's too if the kernel stopped it
	 * at PTRACE_EVENT_EXIT when exec killed it (kernels differ). */
	ck_assert_int_ge(r.nleader_exit, 1);
	ck_assert_int_le(r.nleader_exit, 2);
	ck_assert_int_eq(r.exit_ev.exit_code, 5);
	finish(&r);
}
END_TEST

struct leader_order {
	int exits;                     /* the leader's THREAD_EXITs so far */
	int exits_at_mark;             /* ... when the worker reached mark() */
};

static bool note_leader_exit(struct run *r, const tracer_event *ev)
{
	struct leader_order *o = r->data;

	if (ev->kind == TRACER_EV_THREAD_EXIT && ev->tid == tracer_pid(r->tr))
		o->exits++;
	if (ev->kind == TRACER_EV_BREAKPOINT)
		o->exits_at_mark = o->exits;
	return true;
}

/* main calls pthread_exit: its THREAD_EXIT comes when it exits, once, not
 * with the EXIT at the end (the kernel keeps it a zombie until then). */
START_TEST(test_leader_exits_first)
{
	struct leader_order o = { 0, -1 };
	struct run r;

	start(&r, FX("mainexit"), TRSYM_mainexit__start);
	r.data = &o;
	bp(&r, r.base + TRSYM_mainexit_mark);
	run_to_exit(&r, note_leader_exit);
	ck_assert_int_eq(hits(&r, r.base + TRSYM_mainexit_mark), 1);
	ck_assert_int_eq(o.exits_at_mark, 1);   /* the worker saw main a zombie */
	ck_assert_int_eq(r.nleader_exit, 1);
	ck_assert_int_eq(r.nthread_exit, 1);
	ck_assert_int_eq(r.exit_ev.exit_code, 0);
	finish(&r);
}
END_TEST

static char proc_state(pid_t tid)
{
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	if (!(f = fopen(path, "r")))
		return '?';
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!p || !(p = strrchr(buf, ')')))
		return '?';
	return p[2];
}

/* SIGSTOP/SIGCONT from outside: group-stop under PTRACE_LISTEN, no hit lost;
 * tracer_interrupt and tracer_resume in the stop leave it stopped. */
START_TEST(test_group_stop)
{
	rg_err err = RG_ERR_INIT;
	tracer_event ev;
	struct run r;
	pid_t pid;
	int n = 0, quiet = 0;
	bool stopped = false, continued = false;

	start(&r, FX("hot"), TRSYM_hot__start);
	pid = tracer_pid(r.tr);
	bp(&r, r.base + TRSYM_hot_hot);
	ck_assert(tracer_resume(r.tr, pid, &err) == 0);
	for (;;) {
		int rc = tracer_next_event(r.tr, &ev, stopped && !continued ? 200 :
					   EVENT_TIMEOUT_MS, &err);

		ck_assert_int_ge(rc, 0);
		if (rc == 0) {
			/* Everyone stopped for the group-stop: nothing moves. */
			ck_assert(stopped && !continued);
			ck_assert_int_eq(proc_state(pid), 't');
			/* A thread in the group-stop counts as stopped, and goes
			 * back into the stop when resumed. */
			ck_assert_msg(tracer_interrupt(r.tr, pid, &err) == 0, "%s", err.msg);
			ck_assert(tracer_is_stopped(r.tr, pid));
			ck_assert(tracer_resume(r.tr, pid, &err) == 0);
			ck_assert_int_eq(tracer_next_event(r.tr, &ev, 200, &err), 0);
			ck_assert_int_eq(proc_state(pid), 't');
			quiet++;
			kill(pid, SIGCONT);
			continued = true;
			continue;
		}
		if (ev.kind == TRACER_EV_BREAKPOINT && ++n == 300) {
			kill(pid, SIGSTOP);
			stopped = true;
		}
		if (ev.kind == TRACER_EV_SIGNAL && ev.signo == SIGSTOP)
			ck_assert(stopped);
		if (ev.kind == TRACER_EV_BREAKPOINT || ev.kind == TRACER_EV_THREAD_NEW)
			ck_assert(tracer_resume(r.tr, ev.tid, &err) == 0);
		if (ev.kind == TRACER_EV_EXIT)
			break;
	}
	ck_assert_int_eq(quiet, 1);
	ck_assert_int_eq(n, 20000);
	ck_assert_int_eq(ev.exit_code, 0);
	finish(&r);
}
END_TEST

/* (e) A crash in the instruction under a breakpoint. */
START_TEST(test_crash)
{
	struct run r;

	start(&r, FX("crash"), TRSYM_crash__start);
	bp(&r, r.base + TRSYM_crash_bp_crash);
	run_to_exit(&r, NULL);
	ck_assert_int_eq(hits(&r, r.base + TRSYM_crash_bp_crash), 1);
	ck_assert_int_eq(r.exit_ev.term_signal, SIGSEGV);
	ck_assert_int_eq(r.exit_ev.exit_code, -1);
	finish(&r);
}
END_TEST

/* (f) Programs that cannot be run. */
START_TEST(test_spawn_errors)
{
	const char *missing[] = { "./no-such-program", NULL };
	const char *dir[] = { TRACER_FX_DIR, NULL };
	const char *nocwd[] = { "true", NULL };
	tracer_opts o = { missing, NULL, -1, -1, -1, NULL, 0, false };
	rg_err err = RG_ERR_INIT;
	sigset_t mask;
	tracer *tr = NULL;

	ck_assert_int_eq(tracer_spawn(&o, &tr, &err), -1);
	ck_assert_ptr_null(tr);
	ck_assert_str_eq(err.msg, "cannot run './no-such-program': No such file or directory");
	o.argv = dir;
	ck_assert_int_eq(tracer_spawn(&o, &tr, &err), -1);
	ck_assert_msg(strstr(err.msg, "Permission denied"), "%s", err.msg);
	o.argv = nocwd;
	o.cwd = "/no/such/dir";
	ck_assert_int_eq(tracer_spawn(&o, &tr, &err), -1);
	ck_assert_msg(strstr(err.msg, "cannot change to directory '/no/such/dir'"), "%s", err.msg);
	/* The signal mask is as it was. */
	sigprocmask(SIG_SETMASK, NULL, &mask);
	ck_assert(!sigismember(&mask, SIGCHLD));
}
END_TEST

/* (g) fork, vfork and posix_spawn with a breakpoint armed: the vfork child
 * runs through it in the program's memory, is stepped over it, and is
 * never reported (neither its hit nor its SIGTRAP). */
START_TEST(test_fork)
{
	struct run r;

	start(&r, FX("fork"), TRSYM_fork__start);
	bp(&r, r.base + TRSYM_fork_forked_fn);
	run_to_exit(&r, NULL);
	ck_assert_msg(r.exit_ev.exit_code == 0, "a child died (exit %d)", r.exit_ev.exit_code);
	ck_assert_int_eq(hits(&r, r.base + TRSYM_fork_forked_fn), 2);
	ck_assert_int_eq(r.nfork, 3);
	ck_assert_int_eq(r.nsignal[SIGTRAP], 0);
	ck_assert_int_eq(r.nexec, 0);
	finish(&r);
}
END_TEST

/* (g2) follow_fork: the fork child is traced with the breakpoint its copy
 * of memory has (its hit is reported, in its own process), the vfork child
 * is stepped over it as before, the posix_spawn child is followed from its
 * exec on (a new image, stopped until resumed, with no breakpoint). */
START_TEST(test_follow_fork)
{
	struct run r;

	start_follow(&r, FX("fork"), TRSYM_fork__start, true);
	bp(&r, r.base + TRSYM_fork_forked_fn);
	run_to_exit(&r, NULL);
	ck_assert_msg(r.exit_ev.exit_code == 0, "a child died (exit %d)", r.exit_ev.exit_code);
	ck_assert_int_eq(hits(&r, r.base + TRSYM_fork_forked_fn), 3);
	ck_assert_int_eq(r.nfork, 3);
	ck_assert_int_eq(r.nfollowed, 1);
	ck_assert_int_eq(r.nchild_threads, 1);
	ck_assert_int_eq(r.nexec, 1);            /* /bin/true's */
	ck_assert_int_eq(r.nthread_exit, 2);     /* the children's, before the EXIT */
	ck_assert_int_eq(r.nsignal[SIGTRAP], 0);
	finish(&r);
}
END_TEST

static bool remove_at_hit(struct run *r, const tracer_event *ev)
{
	rg_err err = RG_ERR_INIT;

	if (ev->kind == TRACER_EV_BREAKPOINT && r->data)
		ck_assert_msg(tracer_remove_bp(r->tr, ev->addr, &err) == 0, "%s", err.msg);
	return true;
}

/* (h) A breakpoint on the program's own int3, taken out at its first hit
 * (_i == 0) or left in (_i == 1): every trap is the program's too, and
 * goes to its handler; none is rewound for ever. */
START_TEST(test_own_trap)
{
	struct run r;
	int keep = _i;

	start(&r, FX("owntrap"), TRSYM_owntrap__start);
	r.data = keep ? NULL : &r;
	bp(&r, r.base + TRSYM_owntrap_bp_own);
	run_to_exit(&r, remove_at_hit);
	ck_assert_msg(r.exit_ev.exit_code == 0, "the handler ran %s 3 times (exit %d)",
		      "not", r.exit_ev.exit_code);
	ck_assert_int_eq(hits(&r, r.base + TRSYM_owntrap_bp_own), keep ? 3 : 1);
	ck_assert_int_eq(r.nsignal[SIGTRAP], 3);
	finish(&r);
}
END_TEST

struct libc_bps {
	uint64_t getpid, sys;
	int anon_exec;           /* anonymous executable mappings (scratch pages) */
};

/* The run-time address in the tracee of libc's symbol name. */
static uint64_t tracee_libc_sym(tracer *tr, const char *name)
{
	void *h = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	char own[PATH_MAX], theirs[PATH_MAX];
	rg_err err = RG_ERR_INIT;
	tracer_map *maps;
	uint64_t addr = 0;
	Dl_info info;
	void *sym;
	size_t n;

	ck_assert_ptr_nonnull(h);
	sym = dlsym(h, name);
	ck_assert_ptr_nonnull(sym);
	ck_assert(dladdr(sym, &info));
	ck_assert_ptr_nonnull(realpath(info.dli_fname, own));
	ck_assert(tracer_maps(tr, &maps, &n, &err) == 0);
	for (size_t i = 0; i < n; i++) {
		if (maps[i].path && maps[i].offset == 0 &&
		    realpath(maps[i].path, theirs) && !strcmp(own, theirs)) {
			addr = maps[i].start + ((uint64_t)sym - (uint64_t)info.dli_fbase);
			break;
		}
	}
	tracer_maps_free(maps, n);
	dlclose(h);
	ck_assert_msg(addr, "libc not found in the tracee");
	return addr;
}

static bool arm_libc(struct run *r, const tracer_event *ev)
{
	struct libc_bps *l = r->data;
	rg_err err = RG_ERR_INIT;

	if (ev->kind != TRACER_EV_BREAKPOINT)
		return true;
	if (ev->addr == r->base + TRSYM_lib_mark) {
		uint8_t code[32];

		l->getpid = tracee_libc_sym(r->tr, "getpid");
		bp(r, l->getpid);
		/* And the syscall instruction in it: run through the stub. */
		ck_assert(tracer_read_mem(r->tr, l->getpid, code, sizeof(code), &err) == 0);
		for (size_t i = 0; i + 1 < sizeof(code); i++) {
			if (code[i] == 0x0f && code[i + 1] == 0x05) {
				l->sys = l->getpid + i;
				break;
			}
		}
		ck_assert_msg(l->sys, "no syscall instruction in getpid");
		bp(r, l->sys);
	} else if (ev->addr == l->getpid && hits(r, l->getpid) == 50) {
		tracer_map *maps;
		size_t n;

		ck_assert(tracer_maps(r->tr, &maps, &n, &err) == 0);
		for (size_t i = 0; i < n; i++)
			if (maps[i].exec && !maps[i].path)
				l->anon_exec++;
		tracer_maps_free(maps, n);
	}
	return true;
}

/* (h) A breakpoint in a shared library: a second scratch page near libc. */
START_TEST(test_shared_library)
{
	struct libc_bps l = { 0, 0, 0 };
	struct run r;

	start(&r, FX("lib"), TRSYM_lib__start);
	r.data = &l;
	bp(&r, r.base + TRSYM_lib_mark);
	run_to_exit(&r, arm_libc);
	ck_assert_int_eq(r.exit_ev.exit_code, 0);
	ck_assert_int_eq(hits(&r, r.base + TRSYM_lib_mark), 1);
	ck_assert_int_ge(hits(&r, l.getpid), 100);
	ck_assert_int_eq(hits(&r, l.sys), hits(&r, l.getpid));
	ck_assert_int_ge(l.anon_exec, 2);
	finish(&r);
}
END_TEST

struct lm_seen {
	bool read;
	bool libc;             /* libc listed, at the bias its mapping says */
	size_t n;
};

/* At lib_mark (main running): the dynamic linker's list, read through linkmap.h. */
static bool read_linkmap(struct run *r, const tracer_event *ev)
{
	struct lm_seen *s = r->data;
	char exe[PATH_MAX], theirs[PATH_MAX];
	rg_err err = RG_ERR_INIT;
	linkmap_obj *v, *one;
	tracer_map *maps;
	uint64_t rd, brk = 0;
	size_t n, nmaps, k;
	bool consistent = false;

	if (ev->kind != TRACER_EV_BREAKPOINT || ev->addr != r->base + TRSYM_lib_mark)
		return true;
	rd = linkmap_r_debug(r->tr, r->base + TRSYM_lib__DYNAMIC);
	ck_assert_msg(rd, "no DT_DEBUG in the fixture's dynamic section");
	ck_assert_int_eq(linkmap_consistent(r->tr, rd, &consistent, &err), 0);
	ck_assert(consistent);
	ck_assert_int_eq(linkmap_brk(r->tr, rd, &brk, &err), 0);
	ck_assert_uint_ne(brk, 0);
	ck_assert_msg(linkmap_read(r->tr, rd, 4096, &v, &n, &err) == 0, "%s", err.msg);
	ck_assert_ptr_nonnull(realpath(FX("lib"), exe));
	ck_assert(tracer_maps(r->tr, &maps, &nmaps, &err) == 0);
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(v[i].path[0] == '/', "%s: not absolute", v[i].path);
		ck_assert_str_ne(v[i].path, exe);       /* the executable has no name */
		if (!strstr(v[i].path, "/libc.so"))
			continue;
		/* libc links at 0: its first mapping starts at its bias */
		for (k = 0; k < nmaps; k++)
			if (maps[k].path && maps[k].offset == 0 &&
			    realpath(maps[k].path, theirs) && !strcmp(theirs, v[i].path))
				s->libc = maps[k].start == v[i].bias;
	}
	tracer_maps_free(maps, nmaps);
	/* at most max entries walked */
	ck_assert_int_eq(linkmap_read(r->tr, rd, 1, &one, &k, &err), 0);
	ck_assert_uint_le(k, 1);
	linkmap_free(one, k);
	s->n = n;
	s->read = true;
	linkmap_free(v, n);
	return true;
}

/* (linkmap) The loaded objects and their biases, as a debugger reads them. */
START_TEST(test_linkmap)
{
	struct lm_seen s = { false, false, 0 };
	struct run r;

	start(&r, FX("lib"), TRSYM_lib__start);
	/* before ld.so has run, DT_DEBUG is still 0 */
	ck_assert_uint_eq(linkmap_r_debug(r.tr, r.base + TRSYM_lib__DYNAMIC), 0);
	r.data = &s;
	bp(&r, r.base + TRSYM_lib_mark);
	run_to_exit(&r, read_linkmap);
	ck_assert(s.read);
	ck_assert_uint_ge(s.n, 2);     /* libc and ld.so at least */
	ck_assert(s.libc);
	finish(&r);
}
END_TEST

/*
 * tracer_detach_stopped while a thread keeps trapping on a breakpoint and
 * another one is held there: it returns, leaving every thread stopped with
 * the program's own byte under the breakpoint; continued, the program
 * makes every call right (tr_hot checks its sums) and ends by itself.
 */
START_TEST(test_detach_while_trapping)
{
	rg_err err = RG_ERR_INIT;
	tracer_event ev;
	struct run r;
	pid_t pid, held = 0;
	uint64_t hot;
	uint8_t orig, now = 0xcc;
	char path[64];
	int n = 0, status, fd;
	bool stopped = false;

	start(&r, FX("hot"), TRSYM_hot__start);
	pid = tracer_pid(r.tr);
	hot = r.base + TRSYM_hot_hot;
	bp(&r, hot);
	ck_assert(tracer_read_mem(r.tr, hot, &orig, 1, &err) == 0);
	ck_assert(tracer_resume(r.tr, pid, &err) == 0);
	while (n < 200) {
		ck_assert_int_eq(tracer_next_event(r.tr, &ev, EVENT_TIMEOUT_MS, &err), 1);
		ck_assert(ev.kind != TRACER_EV_EXIT);
		if (ev.kind == TRACER_EV_THREAD_NEW)
			ck_assert(tracer_resume(r.tr, ev.tid, &err) == 0);
		if (ev.kind != TRACER_EV_BREAKPOINT)
			continue;
		if (!held) {
			held = ev.tid;          /* left stopped at the breakpoint */
			continue;
		}
		ck_assert(tracer_resume(r.tr, ev.tid, &err) == 0);
		n++;
	}
	/* the other thread runs on to its next trap meanwhile */
	ck_assert_msg(tracer_detach_stopped(r.tr, &err) == 0, "%s", err.msg);
	tracer_free(r.tr);
	r.tr = NULL;
	for (int i = 0; i < 500 && !stopped; i++) {
		char tpath[64];
		DIR *d;
		struct dirent *e;

		snprintf(tpath, sizeof(tpath), "/proc/%d/task", (int)pid);
		ck_assert((d = opendir(tpath)) != NULL);
		stopped = true;
		while ((e = readdir(d)))
			if (e->d_name[0] != '.' && proc_state(atoi(e->d_name)) != 'T')
				stopped = false;
		closedir(d);
		if (!stopped)
			usleep(10 * 1000);
	}
	ck_assert_msg(stopped, "the program is not left stopped");
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	ck_assert((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0);
	ck_assert_int_eq(pread(fd, &now, 1, (off_t)hot), 1);
	close(fd);
	ck_assert_uint_eq(now, orig);
	ck_assert_int_eq(kill(pid, SIGCONT), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the program went wrong once continued (status 0x%x)", status);
}
END_TEST

/* The TracerPid of pid, or -1. */
static long tracer_pid_of(pid_t pid)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* How many threads process pid has now. */
static int count_tasks(pid_t pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Does pid have executable memory that no file backs (but the kernel's)? */
static bool anon_exec(pid_t pid)
{
	char path[64], line[512];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	ck_assert((f = fopen(path, "re")) != NULL);
	while (fgets(line, sizeof(line), f)) {
		char perms[8] = "", name[256] = "";

		if (sscanf(line, "%*s %7s %*s %*s %*s %255s", perms, name) >= 1 &&
		    perms[2] == 'x' && name[0] != '/' && strcmp(name, "[vdso]") &&
		    strcmp(name, "[vsyscall]"))
			found = true;
	}
	fclose(f);
	return found;
}

/*
 * tracer_attach to a program started plainly (tr_attach: two threads in a
 * hot loop), a breakpoint taken 200 times with one thread held at it for
 * good, then tracer_detach: no breakpoint, no scratch page, no tracer is
 * left, and the program, its held thread included, ends right by itself.
 */
START_TEST(test_attach_detach)
{
	rg_err err = RG_ERR_INIT;
	tracer_event ev;
	tracer *tr;
	pid_t pid, *tids, held = 0;
	uint64_t hot;
	uint8_t orig, now = 0xcc;
	int go[2], n = 0, status, fd;
	size_t nt;
	char path[64];

	ck_assert(pipe(go) == 0);
	pid = fork();
	ck_assert(pid >= 0);
	if (pid == 0) {
		dup2(go[0], 0);
		close(go[1]);
		execl(FX("attach"), FX("attach"), (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	for (int i = 0; i < 500 && count_tasks(pid) < 3; i++)
		usleep(10 * 1000);
	ck_assert_int_eq(count_tasks(pid), 3);
	ck_assert_msg(tracer_attach(pid, &tr, &err) == 0, "attach: %s", err.msg);
	nt = tracer_threads(tr, &tids);
	ck_assert_uint_eq(nt, 3);
	ck_assert_int_eq(tids[0], pid);
	hot = tracer_entry(tr) - TRSYM_attach__start + TRSYM_attach_hot;
	ck_assert(tracer_read_mem(tr, hot, &orig, 1, &err) == 0);
	ck_assert_msg(tracer_insert_bp(tr, hot, &err) == 0, "insert: %s", err.msg);
	for (size_t i = 0; i < nt; i++)
		if (tracer_is_stopped(tr, tids[i]))
			ck_assert_msg(tracer_resume(tr, tids[i], &err) == 0, "%s", err.msg);
	free(tids);
	while (n < 200) {
		ck_assert_int_eq(tracer_next_event(tr, &ev, EVENT_TIMEOUT_MS, &err), 1);
		ck_assert(ev.kind != TRACER_EV_EXIT);
		if (ev.kind != TRACER_EV_BREAKPOINT)
			continue;
		if (!held) {
			held = ev.tid;          /* left stopped at the breakpoint */
			continue;
		}
		ck_assert(tracer_resume(tr, ev.tid, &err) == 0);
		n++;
	}
	ck_assert_msg(tracer_detach(tr, &err) == 0, "detach: %s", err.msg);
	tracer_free(tr);
	ck_assert_int_eq(tracer_pid_of(pid), 0);
	ck_assert(!anon_exec(pid));
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	ck_assert((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0);
	ck_assert_int_eq(pread(fd, &now, 1, (off_t)hot), 1);
	close(fd);
	ck_assert_uint_eq(now, orig);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	close(go[1]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the program went wrong once let go (status 0x%x)", status);
}
END_TEST

static void *nap(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

/* What tracer_attach refuses before ptrace is asked, in words. */
START_TEST(test_attach_refused)
{
	rg_err err = RG_ERR_INIT;
	tracer *tr = NULL;
	char want[160];
	pthread_t t;
	pid_t tid = 0;

	ck_assert_int_eq(tracer_attach(getpid(), &tr, &err), -1);
	snprintf(want, sizeof(want), "cannot attach to process %d: it is racegate "
		 "itself", (int)getpid());
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(tracer_attach(0, &tr, &err), -1);
	ck_assert_str_eq(err.msg, "cannot attach to process 0: no such process");
	ck_assert(pthread_create(&t, NULL, nap, NULL) == 0);
	for (int i = 0; i < 500 && !tid; i++) {
		char path[64];
		struct dirent *e;
		DIR *d;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)getpid());
		ck_assert((d = opendir(path)) != NULL);
		while ((e = readdir(d)))
			if (e->d_name[0] != '.' && atoi(e->d_name) != getpid())
				tid = atoi(e->d_name);
		closedir(d);
	}
	ck_assert_int_eq(tracer_attach(tid, &tr, &err), -1);
	snprintf(want, sizeof(want), "cannot attach to %d: it is a thread of process "
		 "%d; give the process id (a {tid: %d} selector picks the thread)",
		 (int)tid, (int)getpid(), (int)tid);
	ck_assert_str_eq(err.msg, want);
	ck_assert(tr == NULL);
}
END_TEST

/* A process whose main thread called pthread_exit: refused, saying so. */
START_TEST(test_attach_main_exited)
{
	rg_err err = RG_ERR_INIT;
	tracer *tr = NULL;
	char want[200], path[64], line[128], state = 0;
	pthread_t t;
	pid_t pid;
	int status;

	pid = fork();
	ck_assert(pid >= 0);
	if (pid == 0) {
		pthread_create(&t, NULL, nap, NULL);
		pthread_exit(NULL);
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 500 && state != 'Z'; i++) {
		FILE *f = fopen(path, "re");

		if (f && fgets(line, sizeof(line), f) && strrchr(line, ')'))
			state = strrchr(line, ')')[2];
		if (f)
			fclose(f);
		if (state != 'Z')
			usleep(10 * 1000);
	}
	ck_assert_int_eq(state, 'Z');
	ck_assert_int_eq(tracer_attach(pid, &tr, &err), -1);
	snprintf(want, sizeof(want), "cannot attach to process %d: its main thread "
		 "has exited (pthread_exit) while other threads run on, and the "
		 "kernel lets no tracer attach to an exited thread", (int)pid);
	ck_assert_str_eq(err.msg, want);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
}
END_TEST

static Suite *tracer_suite(void)
{
	Suite *s = suite_create("tracer");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_no_lost_hits);
	tcase_add_test(tc, test_riprel_sse_relocates);
	tcase_add_test(tc, test_regs_and_batch);
	tcase_add_test(tc, test_read_after_death);
	tcase_add_test(tc, test_remove_while_running);
	tcase_add_loop_test(tc, test_step_kinds, 0, 2);
	tcase_add_test(tc, test_signals);
	tcase_add_test(tc, test_sleeps_watched);
	tcase_add_test(tc, test_exit_while_held);
	tcase_add_test(tc, test_kill_while_held);
	tcase_add_test(tc, test_free_while_held);
	tcase_add_test(tc, test_threads_and_exec);
	tcase_add_test(tc, test_group_stop);
	tcase_add_test(tc, test_crash);
	tcase_add_test(tc, test_spawn_errors);
	tcase_add_test(tc, test_fork);
	tcase_add_test(tc, test_follow_fork);
	tcase_add_loop_test(tc, test_own_trap, 0, 2);
	tcase_add_test(tc, test_shared_library);
	tcase_add_test(tc, test_linkmap);
	tcase_add_test(tc, test_leader_exits_first);
	tcase_add_test(tc, test_detach_while_trapping);
	tcase_add_test(tc, test_attach_detach);
	tcase_add_test(tc, test_attach_refused);
	tcase_add_test(tc, test_attach_main_exited);
	suite_add_tcase(s, tc);

	tracer_add_pads(s);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tracer_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
