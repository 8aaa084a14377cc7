/*
 * park: a thread asleep in a call whose sleep can end early is stopped
 * inside it (PTRACE_INTERRUPT) and, when explore lets time pass for it,
 * made to end the sleep as its timeout would.  See tracer_park.
 *
 * A call stopped by PTRACE_INTERRUPT is left with an -ERESTART... result
 * (the kernel makes it again when the thread goes on), or -EINTR for the
 * waits Linux does not restart after a stop (epoll_wait: signal(7)).  Its
 * number stays in the registers (arch_syscall_stopped_in).
 */
#include "tracer_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Linux's codes of a call stopped before it ended (include/linux/errno.h). */
#define ERESTARTSYS_ 512
#define ERESTART_RESTARTBLOCK_ 516

static bool call_was_stopped(int64_t res)
{
	return res == -EINTR || (res <= -ERESTARTSYS_ && res >= -ERESTART_RESTARTBLOCK_);
}

/*
 * Has tid a signal pending that it does not block (and, with caught, one
 * it has a handler for)?  Then a call that returned -EINTR was cut by that
 * signal, as the program would see it; and a sleep would be cut by it.
 */
static bool signal_pending(pid_t tid, bool caught)
{
	char pnd[32], shd[32], blk[32], cgt[32] = "ffffffffffffffff";

	tracer_proc_status_line(tid, "SigPnd", pnd, sizeof(pnd));
	tracer_proc_status_line(tid, "ShdPnd", shd, sizeof(shd));
	tracer_proc_status_line(tid, "SigBlk", blk, sizeof(blk));
	if (caught)
		tracer_proc_status_line(tid, "SigCgt", cgt, sizeof(cgt));
	return (strtoull(pnd, NULL, 16) | strtoull(shd, NULL, 16)) &
	       ~strtoull(blk, NULL, 16) & strtoull(cgt, NULL, 16);
}

/*
 * t, stopped by racegate's interrupt (registers in *r): a call the stop cut
 * with -EINTR, with no signal of the program's pending, is made again when
 * it goes on, as if it had never been stopped (never EINTR).
 */
static void never_eintr(struct tcb *t, arch_regs *r)
{
	if (arch_syscall_stopped_in(r) < 0 || arch_syscall_result(r) != -EINTR ||
	    signal_pending(t->tid, false))
		return;
	arch_syscall_restart_with(r, 6, 0);
	t->regs = *r;
	t->flags |= TCB_REGS | TCB_REGS_DIRTY;
}

int tracer_stop_all(tracer *tr, pid_t **stopped, size_t *n, rg_err *err)
{
	*stopped = xcalloc(tr->ntcbs + 1, sizeof(**stopped));
	*n = 0;
	for (size_t i = 0; i < tr->ntcbs; i++) {
		struct tcb *t = tr->tcbs[i];
		pid_t tid = t->tid;
		arch_regs r;

		if (t->flags & (TCB_HELD | TCB_EXITING | TCB_CHILD))
			continue;
		if (tracer_interrupt(tr, tid, err) < 0) {
			tracer_resume_all(tr, *stopped, *n);
			*stopped = NULL;
			return -1;
		}
		(*stopped)[(*n)++] = tid;
		/* the list may have moved: the block by its id again */
		if ((t = tracer_tcb_find(tr, tid)) && tracer_regs_read(t, &r) == 0)
			never_eintr(t, &r);
	}
	return 0;
}

void tracer_resume_all(tracer *tr, pid_t *stopped, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tracer_resume(tr, stopped[i], NULL);
	free(stopped);
}

/*
 * How long would this nanosleep or clock_nanosleep (arguments a) sleep,
 * in *ns, rather than fail at once?  Ended early it returns 0, which must
 * be what it would have returned had it slept: its time readable and
 * valid, its clock one that measures time passing (not a CPU clock).
 */
static bool sleeps_for_real(const struct tcb *t, enum arch_sys sys, const uint64_t a[6],
			    uint64_t *ns)
{
	struct timespec ts, now;
	uint64_t at = a[0];

	if (sys == ARCH_SYS_CLOCK_NANOSLEEP) {
		if ((a[0] != CLOCK_REALTIME && a[0] != CLOCK_MONOTONIC &&
		     a[0] != CLOCK_BOOTTIME && a[0] != CLOCK_TAI) ||
		    (a[1] != 0 && a[1] != TIMER_ABSTIME))
			return false;
		at = a[2];
	}
	if (tracer_mem_pread(t->as->memfd, at, &ts, sizeof(ts)) != (int)sizeof(ts) ||
	    ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000L)
		return false;
	*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if (sys == ARCH_SYS_CLOCK_NANOSLEEP && a[1] == TIMER_ABSTIME) {
		uint64_t n;

		clock_gettime((clockid_t)a[0], &now);
		n = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
		*ns = *ns > n ? *ns - n : 0;
	}
	return true;
}

/* The time a fireable call (arguments a) asks to sleep, in ns. */
static uint64_t asked_ns(const struct tcb *t, enum arch_sys sys, const uint64_t a[6])
{
	uint64_t ns = 0;

	switch (sys) {
	case ARCH_SYS_POLL:
		return (uint64_t)(int)a[2] * 1000000u;
	case ARCH_SYS_EPOLL_WAIT:
	case ARCH_SYS_EPOLL_PWAIT:
		return (uint64_t)(int)a[3] * 1000000u;
	default:
		return sleeps_for_real(t, sys, a, &ns) ? ns : 0;
	}
}

uint64_t tracer_parked_ns(tracer *tr, pid_t tid)
{
	struct tcb *t = tracer_tcb_find(tr, tid);

	return t && (t->flags & TCB_PARKED) ? t->park_ns : 0;
}

int tracer_park(tracer *tr, pid_t tid, rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);
	arch_regs r;
	enum tracer_fire how;
	unsigned arg;
	uint64_t args[6] = { 0 };
	int64_t res;
	long nr;

	if (t && (t->flags & TCB_HELD))
		return 0;            /* stopped already, for something else: not ours */
	if (tracer_interrupt(tr, tid, err) < 0)
		return -1;
	if (!(t = tracer_tcb_find(tr, tid)))
		return -1;
	if (t->flags & TCB_GROUP_STOP)   /* in the program's own stop: back into it */
		return tracer_resume(tr, tid, err) < 0 ? -1 : 0;
	if (tracer_regs_read(t, &r) < 0) {
		tracer_resume(tr, tid, NULL);
		return rg_error(err, "cannot read the registers of thread %d: %s", tid,
				strerror(errno));
	}
	nr = arch_syscall_stopped_in(&r);
	never_eintr(t, &r);
	res = arch_syscall_result(&r);
	for (unsigned i = 0; i < 6; i++)
		args[i] = arch_syscall_arg(&r, i);
	how = nr < 0 ? TRACER_FIRE_NO : tracer_wait_fireable(arch_sys_of(nr), args, &arg);
	if (how == TRACER_FIRE_NO || res == -EINTR || !call_was_stopped(res))
		return tracer_resume(tr, tid, err) < 0 ? -1 : 0;
	t->flags |= TCB_PARKED;
	t->park_fire = how;
	t->park_arg = arg;
	t->park_ns = asked_ns(t, arch_sys_of(nr), args);
	return 1;
}

void tracer_watch_sleeps(tracer *tr, pid_t tid, bool on)
{
	struct tcb *t = tracer_tcb_find(tr, tid);

	if (!t || (t->flags & TCB_CHILD))
		return;
	t->flags = on ? t->flags | TCB_WATCH_SLEEP : t->flags & ~TCB_WATCH_SLEEP;
}

/*
 * A syscall-stop: the entry of a sleep whose end racegate can fire
 * (nanosleep, clock_nanosleep) parks the thread there; any other entry
 * or exit runs on, as does a sleep that would fail (sleeps_for_real).
 * A call that waits for an event as well (poll, epoll_wait) is parked
 * only once seen asleep in it (tracer_park): at its entry, what it waits
 * for may be ready already.
 */
int tracer_syscall_stop(tracer *tr, struct tcb *t, rg_err *err)
{
	struct __ptrace_syscall_info si;
	enum tracer_fire how = TRACER_FIRE_NO;
	unsigned arg = 0;
	long got;

	if (t->flags & TCB_WATCH_SLEEP) {
		memset(&si, 0, sizeof(si));
		got = ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(si), &si);
		if (got < 0 && errno != ESRCH)
			t->flags &= ~TCB_WATCH_SLEEP;   /* a kernel before 5.3: looks only */
		if (got > 0 && si.op == PTRACE_SYSCALL_INFO_ENTRY) {
			enum arch_sys sys = arch_sys_of((long)si.entry.nr);

			if ((sys == ARCH_SYS_NANOSLEEP || sys == ARCH_SYS_CLOCK_NANOSLEEP) &&
			    sleeps_for_real(t, sys, si.entry.args, &t->park_ns))
				how = tracer_wait_fireable(sys, si.entry.args, &arg);
		}
	}
	if (how == TRACER_FIRE_NO)
		return tracer_restart(t->tid, tracer_cont_op(t), 0, err);
	t->flags = (t->flags | TCB_HELD | TCB_PARKED) & ~TCB_REGS;
	t->park_fire = how;
	t->park_arg = arg;
	tracer_queue_event(tr, TRACER_EV_SLEEPS, t->tid);
	return 0;
}

int tracer_fire(tracer *tr, pid_t tid, rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);
	arch_regs r;

	if (!t || !(t->flags & TCB_PARKED))
		return rg_error(err, "cannot end the sleep of thread %d: it is not "
				"stopped in one", tid);
	t->flags &= ~TCB_PARKED;
	/* a signal it handles came meanwhile: the call goes on as it is, and
	 * is cut by it at once (EINTR, the time left written), as the sleep
	 * would have been */
	if (signal_pending(tid, true))
		return tracer_resume(tr, tid, err);
	if (tracer_regs_read(t, &r) < 0) {
		rg_error(err, "cannot read the registers of thread %d: %s", tid,
			 strerror(errno));
		tracer_resume(tr, tid, NULL);   /* never left stopped (gone: no error) */
		return -1;
	}
	if (t->park_fire == TRACER_FIRE_RETURN)
		arch_syscall_set_return(&r, 0);
	else
		arch_syscall_restart_with(&r, t->park_arg, 0);
	t->regs = r;
	t->flags |= TCB_REGS | TCB_REGS_DIRTY;
	return tracer_resume(tr, tid, err);
}
