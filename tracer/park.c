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
#include <string.h>

/* Linux's codes of a call stopped before it ended (include/linux/errno.h). */
#define ERESTARTSYS_ 512
#define ERESTART_RESTARTBLOCK_ 516

static bool call_was_stopped(int64_t res)
{
	return res == -EINTR || (res <= -ERESTARTSYS_ && res >= -ERESTART_RESTARTBLOCK_);
}

int tracer_park(tracer *tr, pid_t tid, rg_err *err)
{
	struct tcb *t;
	arch_regs r;
	enum tracer_fire how;
	unsigned arg;
	uint64_t args[6] = { 0 };
	long nr;

	if (tracer_interrupt(tr, tid, err) < 0)
		return -1;
	t = tracer_tcb_find(tr, tid);
	if (!t || (t->flags & (TCB_AT_BP | TCB_GROUP_STOP)))
		return t ? 0 : -1;   /* held already, or in the program's stop: not ours */
	if (tracer_regs_read(t, &r) < 0) {
		tracer_resume(tr, tid, NULL);
		return rg_error(err, "cannot read the registers of thread %d: %s", tid,
				strerror(errno));
	}
	nr = arch_syscall_stopped_in(&r);
	/* the call's arguments are the ones /proc showed: only its kind counts now */
	args[2] = args[3] = 1;
	how = nr < 0 ? TRACER_FIRE_NO : tracer_wait_fireable(arch_sys_of(nr), args, &arg);
	if (how == TRACER_FIRE_NO || !call_was_stopped(arch_syscall_result(&r))) {
		if (tracer_resume(tr, tid, err) < 0)
			return -1;
		return 0;
	}
	if (arch_syscall_result(&r) == -EINTR) {
		/* never EINTR for racegate's stop: made again if resumed as is */
		arch_syscall_restart_with(&r, 6, 0);
		t->regs = r;
		t->flags |= TCB_REGS | TCB_REGS_DIRTY;
	}
	t->flags |= TCB_PARKED;
	t->park_fire = how;
	t->park_arg = arg;
	return 1;
}

int tracer_fire(tracer *tr, pid_t tid, rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);
	arch_regs r;

	if (!t || !(t->flags & TCB_PARKED))
		return rg_error(err, "cannot end the sleep of thread %d: it is not "
				"stopped in one", tid);
	t->flags &= ~TCB_PARKED;
	if (tracer_regs_read(t, &r) < 0)
		return rg_error(err, "cannot read the registers of thread %d: %s", tid,
				strerror(errno));
	if (t->park_fire == TRACER_FIRE_RETURN)
		arch_syscall_set_return(&r, 0);
	else
		arch_syscall_restart_with(&r, t->park_arg, 0);
	t->regs = r;
	t->flags |= TCB_REGS | TCB_REGS_DIRTY;
	return tracer_resume(tr, tid, err);
}
