/*
 * What the files of tracer/ share: the control blocks of tracer.c (after
 * strace's defs.h) and the few functions of each file another one calls.
 * Nothing outside tracer/ includes this.
 */
#ifndef RACEGATE_TRACER_PRIV_H
#define RACEGATE_TRACER_PRIV_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

#include "intmap.h"
#include "tracer.h"
#include "tracer_int.h"

/* How many removed breakpoints are remembered (see tracer_remove_bp). */
#define REMOVED_MAX 64
/* Signals kept for a thread while it is stepped (see step_over). */
#define PENDING_MAX 8

/*
 * One thread.  Flags follow strace's struct tcb: each says one thing about
 * where the thread is in its life or why it is stopped.
 */
#define TCB_STARTED      0x01 /* its first stop (PTRACE_EVENT_STOP after clone) was seen */
#define TCB_PARENT_KNOWN 0x02 /* the creating thread's PTRACE_EVENT_CLONE was seen */
#define TCB_REPORTED     0x04 /* THREAD_NEW was reported (or it is the first thread) */
#define TCB_HELD         0x08 /* in a ptrace-stop, waiting for tracer_resume */
#define TCB_AT_BP        0x10 /* held at breakpoint bp_addr, RIP rewound to it (in regs) */
#define TCB_IN_STUB      0x20 /* runs a displaced syscall in the stub; continues at stub_ret */
#define TCB_EXITING      0x40 /* PTRACE_EVENT_EXIT seen: only its death can follow */
#define TCB_REARRIVAL    0x80 /* a fault of the stepped instruction went to the program at
				 rearrival_addr: a trap there next re-runs the same line */
#define TCB_RESUME_ON_START 0x100 /* reported and resumed before its first stop came: restart it then */
#define TCB_REGS         0x200 /* regs holds its registers at this stop (a breakpoint's, rewound) */
#define TCB_REGS_DIRTY   0x400 /* regs differ from the thread's: the PC rewound to the breakpoint
				 is not written yet (regs_sync before it runs or is read) */
#define TCB_GONE         0x800 /* its THREAD_EXIT was queued (the leader's comes at its exit stop) */
#define TCB_CHILD        0x1000 /* not the program's: a child sharing its memory (children.c),
				  stepped over breakpoints, never reported */
#define TCB_GROUP_STOP   0x2000 /* held inside the program's group-stop (by tracer_interrupt, or
				  born into it): resumed back into it (PTRACE_LISTEN), not on */

struct tcb {
	pid_t tid;
	pid_t tgid;                /* its process: the program's, or a TCB_CHILD's own */
	unsigned flags;
	pid_t parent;              /* creating thread, once TCB_PARENT_KNOWN */
	uint64_t bp_addr;          /* TCB_AT_BP */
	uint64_t stub_ret;         /* TCB_IN_STUB */
	uint64_t rearrival_addr;   /* TCB_REARRIVAL */
	int npending;              /* signals to deliver on the next restart */
	int detach_sig;            /* tracer_detach_stopped: the signal its stop is delivering */
	siginfo_t pending[PENDING_MAX];
	struct user_regs_struct regs; /* TCB_REGS: saves step_over_oot a PTRACE_GETREGS */
	struct range *range;       /* stepping past a line (tracer_resume_past), innermost first */
};

/* A child process, attached automatically, until its first stop and its
 * parent's event are both seen (children.c). */
struct fchild {
	pid_t pid;
	pid_t parent;
	bool started;              /* its first stop was seen */
	bool parent_known;         /* the parent's fork/vfork/clone event was seen */
	bool vfork;                /* shares memory with the parent */
	uint64_t stub_ret;         /* the parent forked from the stub: continue here */
};

struct bp {
	uint64_t addr;
	uint8_t orig;              /* the byte under the int3 */
	bool decoded;              /* insn is valid */
	struct arch_insn insn;     /* the original instruction, for step_over */
	uint64_t oot;              /* its copy + jump back for one-trap steps, or 0 (step_over_oot) */
	bool user;                 /* inserted by tracer_insert_bp: traps are reported */
	unsigned ntemp;            /* return breakpoints of ranges (tracer_resume_past) here */
};

struct scratch {
	uint64_t base;             /* page: stub at 0, slot at SLOT_OFF */
	uint64_t slot_owner;       /* the breakpoint whose instruction is in the slot, or 0 */
	uint64_t oot_next;         /* offset of the next free out-of-line copy (OOT_OFF...) */
};

struct wstat {
	pid_t tid;
	int status;
};

struct tracer {
	pid_t pid;
	uint64_t entry;
	int sigfd;
	int memfd;                 /* /proc/PID/mem, reopened at each exec */
	sigset_t oldmask;
	arch *arch;
	bool exit_queued;          /* the EXIT event was queued: nothing follows */
	bool reaped;               /* the leader's last status was collected */

	struct tcb **tcbs;
	size_t ntcbs, tcbs_cap;
	rg_intmap tcb_ix;          /* tid -> its index in tcbs (every status looks one up) */
	struct fchild *forks;
	size_t nforks, forks_cap;

	struct bp *bps;            /* sorted by addr */
	size_t nbps, bps_cap;
	uint64_t removed[REMOVED_MAX];
	size_t nremoved, removed_next;

	struct scratch *pages;
	size_t npages, pages_cap;
	uint64_t stub;             /* the stub in the first scratch page */

	bool quiet;                /* drained, and no SIGCHLD read since: see tracer_next_event */
	struct wstat *raw;         /* statuses drained, not yet judged */
	size_t raw_head, nraw, raw_cap;
	tracer_event *evq;         /* events judged, not yet returned */
	size_t ev_head, nev, ev_cap;
};

/* ---- tracer.c ---- */

struct tcb *tracer_tcb_find(const tracer *tr, pid_t tid);
/* A new control block for tid, in the program's process (tgid). */
struct tcb *tracer_tcb_add(tracer *tr, pid_t tid);
void tracer_tcb_drop(tracer *tr, struct tcb *t);
tracer_event *tracer_queue_event(tracer *tr, enum tracer_ev_kind kind, pid_t tid);
/* Restarts tid (PTRACE_CONT, _SINGLESTEP, _LISTEN, _DETACH); a thread
 * that died meanwhile is not an error. */
int tracer_restart(pid_t tid, int op, int sig, rg_err *err);
int tracer_mem_pwrite(int fd, uint64_t addr, const void *buf, size_t len);

/* ---- children.c ---- */

struct fchild *tracer_fork_find(tracer *tr, pid_t pid);
struct fchild *tracer_fork_add(tracer *tr, pid_t pid);
void tracer_fork_drop(tracer *tr, struct fchild *f);

/*
 * Both the child's first stop and its parent's event were seen: a child
 * with memory of its own has the breakpoints taken out of its copy and is
 * let go; one sharing the program's memory is followed (a TCB_CHILD block,
 * restarted) when follow says so, else let go as it is (the caller takes
 * the breakpoints out of the memory first).  Queues FORK for a parent of
 * the program's.
 */
int tracer_fork_finish(tracer *tr, struct fchild *f, bool follow, rg_err *err);

/* A followed child (TCB_CHILD) stopped at its exec: nothing of racegate's
 * is in its new memory, so it is let go. */
int tracer_child_exec(tracer *tr, struct tcb *t, rg_err *err);

#endif
