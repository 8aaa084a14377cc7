/*
 * What the files of tracer/ share: the control blocks (after
 * strace's defs.h) and the few functions of each file another one calls.
 * Nothing outside tracer/ includes this.
 */
#ifndef RACEGATE_TRACER_PRIV_H
#define RACEGATE_TRACER_PRIV_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/types.h>

#include "blocked.h"
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
#define TCB_AT_BP        0x10 /* held at breakpoint bp_addr, its PC rewound to it (in regs) */
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
#define TCB_SIG_RETURN   0x4000 /* a signal came before its stepped instruction ran: delivered
				  at the breakpoint, whose trap at sigret_sp (the handler's
				  return) is then no arrival (step_over) */
#define TCB_GROUP_STOP   0x2000 /* held inside the program's group-stop (by tracer_interrupt, or
				  born into it): resumed back into it (PTRACE_LISTEN), not on */
#define TCB_IN_EVENT     0x8000 /* tracer_detach: stopped at a clone/fork event, inside the
				  system call: no code of racegate's may run in it (the call's
				  result would be lost) */
#define TCB_PARKED       0x10000 /* stopped inside a sleep it may end early (tracer_park),
				   or as it enters one (TRACER_EV_SLEEPS): park_fire and
				   park_arg say how */
#define TCB_WATCH_SLEEP  0x20000 /* runs with PTRACE_SYSCALL: stopped as it enters a
				   sleep (tracer_watch_sleeps) */

/*
 * The breakpoints of one program image, shared by every followed process
 * that runs it: the program and its fork children, until one calls exec
 * (its new image gets a table of its own).
 */
struct image {
	struct bp *bps;            /* sorted by addr */
	size_t nbps, bps_cap;
	uint64_t removed[REMOVED_MAX];
	size_t nremoved, removed_next;
	/* every address that had a breakpoint in this image -> the byte under
	 * it: a fork child's copy may hold an int3 taken out since its fork
	 * (children.c puts its memory right) */
	rg_intmap ever;
	unsigned refs;             /* address spaces running it */
	/* jump pads (pad.c): in the program's memory only (never with
	 * follow_fork), so one image has them in one address space */
	struct pad *pads;
	size_t npads, pads_cap;
};

/* What pad.c knows of one slot of a pad's table (tracer_int.h). */
struct pad_slot {
	pid_t tid;                 /* its thread, 0 when dead */
	uint64_t key;              /* its thread pointer */
	uint64_t lo, hi;           /* the stack it runs on (its mapping) */
	uint64_t given;            /* the left written at its last allow */
	uint64_t unsynced;         /* passes read at its death, not yet synced */
	uint64_t falses;           /* its false count as last read (PAD_FALSE_OFF) */
	uint64_t unsynced_false;   /* of unsynced, those whose condition was false */
	bool cond;                 /* its cond byte (PAD_COND_OFF) */
};

/*
 * A gated instruction replaced by a jump to a pad (pad.c).  The pad stays
 * when its breakpoint is removed (off: every hit passes), since a thread
 * may run it: its code and table never move.
 */
struct pad {
	uint64_t site;             /* the gated instruction */
	uint8_t orig[ARCH_JMP_LEN]; /* the bytes the jump replaced */
	uint64_t code, table;      /* the pad, its table */
	uint64_t trap, reloc;      /* its breakpoint, its copy of the instructions */
	size_t codelen;
	/* bytes of the instructions the jump covers: 5 or more, or fewer when
	 * the jump's last bytes are the program's next instructions, left as
	 * they are (tracer_pad_pun_cover) */
	size_t covered;
	size_t ninsn;              /* how many (1: the first alone is long enough) */
	/* where instruction i starts: in the copy, from reloc; at the site */
	uint8_t reloc_off[PAD_INSNS_MAX], site_off[PAD_INSNS_MAX];
	bool off;                  /* its breakpoint was removed: every hit passes */
	/* its when: condition's code, [cond_lo, cond_hi) (0: none), the
	 * words pushed at each instruction of it (arch_pad), and its way out
	 * to the trap (tracer_pad_leave_cond) */
	uint64_t cond_lo, cond_hi, cond_exit;
	uint8_t *cond_depth;
	/*
	 * The pad (an index in its image's pads) whose table holds the slots
	 * this one reads: its own, or that of the first pad made for the same
	 * gates (tracer_pad_req.share).  Only that pad's cond_any, and its
	 * struct pad_slots in each address space, are used.
	 */
	size_t lead;
	bool cond_any;             /* a pad reading these slots has a condition */
};

/*
 * The slots of a leading pad's table in one address space (pad.c): a
 * followed fork child has its own threads, so a copy of the table of its
 * own, which it starts with no live slot.
 */
struct pad_slots {
	struct pad_slot slots[PAD_SLOTS];
	size_t nslots;             /* slots used (live or dead) */
	/* thread pointers two threads share (a clone without CLONE_SETTLS, a
	 * child sharing the memory): such threads trap on every hit */
	uint64_t shared[PAD_SLOTS];
	size_t nshared;
};

/* The out-of-line copy of a breakpoint since removed (tracer_remove_bp). */
struct oot_gone {
	uint64_t addr;             /* the breakpoint's address */
	uint64_t oot;              /* its copy */
	uint8_t len;               /* the instruction's length */
};

/*
 * One address space: the program's, or a followed fork child's (which
 * starts as a copy of its parent's: the same int3s, scratch pages and
 * out-of-line copies, at the same addresses).  What its memory holds of
 * racegate's besides the int3s is its own.
 */
struct aspace {
	pid_t pid;                 /* its process (the leader's tid) */
	struct image *img;         /* the breakpoints of the image it runs */
	int memfd;                 /* its /proc/PID/mem */
	struct scratch *pages;
	size_t npages, pages_cap;
	uint64_t stub;             /* the stub in its first scratch page */
	rg_intmap oot;             /* breakpoint address -> its out-of-line copy here */
	struct oot_gone *oots_gone; /* copies of removed breakpoints, which threads
				     * may still be in: detach puts them back */
	size_t noots_gone, oots_gone_cap;
	/* pads' pages: read-write ones for their tables (oot_next: next free),
	 * and the code of those placed by their jump's bytes (full) */
	struct scratch *data;
	size_t ndata, data_cap;
	/* per pad of its image (an index in img->pads, leading ones used):
	 * the slots of its copy of the pad's table (pad.c), made on first use */
	struct pad_slots *padslots;
	size_t npadslots;
	/* libunwind's address space for its threads' backtraces (unwind.c),
	 * made on first use: what it learns of the code is kept until exec */
	void *unw;
};

struct tcb {
	pid_t tid;
	pid_t tgid;                /* its process: the program's, or a TCB_CHILD's own */
	struct aspace *as;         /* the memory it runs in */
	unsigned flags;
	pid_t parent;              /* creating thread, once TCB_PARENT_KNOWN */
	uint64_t bp_addr;          /* TCB_AT_BP */
	uint64_t stub_ret;         /* TCB_IN_STUB */
	uint64_t rearrival_addr;   /* TCB_REARRIVAL */
	uint64_t sigret_addr, sigret_sp; /* TCB_SIG_RETURN */
	int npending;              /* signals to deliver on the next restart */
	int detach_sig;            /* tracer_detach_stopped: the signal its stop is delivering */
	siginfo_t pending[PENDING_MAX];
	arch_regs regs;            /* TCB_REGS: saves step_over_oot a register read */
	struct range *range;       /* stepping past a line (tracer_resume_past), innermost first */
	enum tracer_fire park_fire; /* TCB_PARKED: how its sleep ends (blocked.h) */
	unsigned park_arg;
	uint64_t park_ns;          /* TCB_PARKED: the time it asked to sleep */
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
	/* taken at the parent's event (its exec may come before the child's
	 * first stop): the image whose int3s the child's memory holds, and,
	 * followed, its address space copied from the parent's then */
	struct image *img;
	struct aspace *as;
};

struct bp {
	uint64_t addr;
	uint8_t orig;              /* the byte under the int3 */
	bool decoded;              /* insn is valid */
	struct arch_insn insn;     /* the original instruction, for step_over */
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
	bool follow_fork;          /* fork children stay traced (tracer_opts) */
	sigset_t oldmask;
	arch *arch;
	bool exit_queued;          /* the EXIT event was queued: nothing follows */
	bool attached;             /* tracer_attach: the program is not ours to kill */
	bool reaped;               /* the leader's last status was collected */

	struct tcb **tcbs;
	size_t ntcbs, tcbs_cap;
	rg_intmap tcb_ix;          /* tid -> its index in tcbs (every status looks one up) */
	struct fchild *forks;
	size_t nforks, forks_cap;


	/* as[0] is the program's (its memfd reopened at each exec), then
	 * followed fork children's, in creation order */
	struct aspace **as;
	size_t nas, as_cap;

	bool quiet;                /* drained, and no SIGCHLD read since: see tracer_next_event */
	struct wstat *raw;         /* statuses drained, not yet judged */
	size_t raw_head, nraw, raw_cap;
	tracer_event *evq;         /* events judged, not yet returned */
	size_t ev_head, nev, ev_cap;
	tracer_rewrite *rewrites;  /* sites the program rewrote (rewrite.c) */
	size_t nrewrites, rewrites_cap;
	/* forksrv.c: where the thread library keeps the thread's id (0: not
	 * known yet), and what the latest copy's clone changed */
	uint64_t tid_at;
	uint64_t robust_at;        /* and its robust mutex list's head, and length */
	size_t robust_len;
	struct tracer_injected *copy;
	/* statuses judged so far: a thread stopped now has stopped since
	 * (pad.c keeps the threads' frames for as long as this is the same,
	 * and no thread was resumed or interrupted) */
	uint64_t nstatus;
	/* pad.c: passes counted in the slots of a process gone (its threads'
	 * exits read them) that tracer_pad_sync has not handed over yet */
	struct pad_gone {
		pid_t tid;
		uint64_t lead;         /* the site of the pad leading the slots */
		uint64_t passes, falses;
	} *pads_gone;
	size_t npads_gone, pads_gone_cap;
	uint64_t *frames;          /* pad.c: every stopped thread's frames' PCs */
	size_t nframes;
	uint64_t frames_at;        /* nstatus + 1 when they were read; 0: old */
};

/* The layout of a scratch page (scratch.c): the stub at 0, the slot a
 * displaced instruction runs in at SLOT_OFF, then out-of-line copies
 * (step_over_oot) from OOT_OFF, OOT_SIZE bytes each: the longest
 * instruction and a jump back. */
#define PAGE 4096ULL
#define SLOT_OFF 16
#define OOT_OFF 64
#define OOT_SIZE 32

/*
 * How long tracer_interrupt and tracer_detach_stopped wait for threads to
 * stop: one in an uninterruptible wait (a vfork parent, a hung disk) may not
 * stop at all, and nothing at the end of a run may wait for ever.
 */
#define STOP_WAIT_MS 2000

/* ---- rewrite.c: the program's own writes over racegate's code ---- */

/* Has the program written over p's jump (in the memory of fd)? */
bool tracer_pad_rewritten(const struct pad *p, int fd);
/* The program wrote over the jump of the pad at site. */
void tracer_pad_note_rewrite(tracer *tr, uint64_t site);
/*
 * b's int3 out of the memory of fd (as's, or a copy of it): the program's
 * byte back, unless the program wrote one of its own there, which stays
 * (noted when as is the program's).  -1 when the write fails.
 */
int tracer_bp_put_back(tracer *tr, struct aspace *as, int fd, const struct bp *b,
		       rg_err *err);

/*
 * scratch.c: every signal the program may block blocked in stopped thread t
 * (*old: its own mask), so that none is taken while racegate runs code in
 * it; false if the mask could not be set.  Then its own mask back.
 */
bool tracer_signals_quiet(const struct tcb *t, uint64_t *old);
void tracer_signals_back(const struct tcb *t, uint64_t old);

/* ---- tracer.c: control blocks, registers, memory, /proc ---- */

/* The program's memory (the first process's). */
#define TRACER_MAIN_AS(tr) ((tr)->as[0])
/* A new address space for pid (memfd opened), running a new image; a copy
 * of from's, running its image, when given. */
struct aspace *tracer_as_add(tracer *tr, pid_t pid, const struct aspace *from,
			     rg_err *err);
/* Forgets as (a process gone, or let go); its blocks no longer point at it. */
void tracer_as_drop(tracer *tr, struct aspace *as);
struct aspace *tracer_as_find(const tracer *tr, pid_t pid);
/* as runs a new image (exec): no breakpoint, page or copy of racegate's. */
void tracer_as_exec(struct aspace *as);
/* One reference more, one less, to an image (the last frees it). */
void tracer_image_get(struct image *img);
void tracer_image_put(struct image *img);
/* Out-of-line copy of the breakpoint at addr in as, or 0. */
uint64_t tracer_as_oot(const struct aspace *as, uint64_t addr);

struct tcb *tracer_tcb_find(const tracer *tr, pid_t tid);
/* unwind.c: as's backtrace state is dropped (its memory holds another
 * program, or it is gone). */
void tracer_unwind_forget(struct aspace *as);
/* A new control block for tid, in the program's process (tgid). */
struct tcb *tracer_tcb_add(tracer *tr, pid_t tid);
void tracer_tcb_drop(tracer *tr, struct tcb *t);
/* Frees everything but the process (tracer_free kills it first). */
void tracer_release(tracer *tr);
/* Restarts tid (PTRACE_CONT, _SINGLESTEP, _LISTEN, _DETACH); a thread
 * that died meanwhile is not an error. */
int tracer_restart(pid_t tid, int op, int sig, rg_err *err);
/* The ptrace restart itself: 0, or -1 with errno (ESRCH included), for a
 * caller that must tell a thread gone apart or words its own message. */
int tracer_restart_raw(pid_t tid, int op, int sig);
/* waitpid for tid alone, through EINTR.  -1: nothing to wait for. */
int tracer_wait_tid(pid_t tid, int *status);
/* Kills a child of racegate's, and reaps it. */
void tracer_kill_and_reap(pid_t pid);
/*
 * After a ptrace call on a thread failed: ESRCH means the thread died while
 * stopped (a SIGKILL wakes it) and its death is on its way through waitpid,
 * which is not an error: 0.  Anything else: the message, -1.
 */
int tracer_gone_or_error(rg_err *err, const char *fmt, ...) RG_PRINTF(2, 3);

/* The registers of t at this stop, cached (TCB_REGS); see tracer.c. */
int tracer_regs_read(struct tcb *t, arch_regs *r);
/* Writes the cached registers if the thread's own differ (TCB_REGS_DIRTY). */
int tracer_regs_sync(struct tcb *t);

/* Bytes of /proc/PID/mem: how many were read; -1/0 on nothing. */
int tracer_mem_pread(int fd, uint64_t addr, void *buf, size_t len);
int tracer_mem_pwrite(int fd, uint64_t addr, const void *buf, size_t len);
/* The bytes at addr in as, with our int3s shown as what they replaced. */
size_t tracer_read_code(const struct aspace *as, uint64_t addr, uint8_t *buf, size_t len);
/* Shows our int3s and pads in buf, n bytes of img's memory at addr, as
 * what they replaced. */
void tracer_show_orig(const struct image *img, uint64_t addr, uint8_t *buf, size_t n);
int tracer_open_mem(pid_t pid, rg_err *err);
uint64_t tracer_read_auxv_entry(pid_t pid);
/* A numeric field of /proc/TID/status ("Tgid"), or -1 when the thread is gone. */
long tracer_proc_status_field(pid_t tid, const char *field);
/* The value of a line of /proc/PID/status ("State"), without the key; "" if none. */
void tracer_proc_status_line(pid_t pid, const char *key, char *buf, size_t len);
/* Field number field (4 or more, as proc(5) counts them) of /proc/PID/stat:
 * 0 and *val; -1 when it cannot be read (the process is gone), 1 when the
 * field is not there. */
int tracer_proc_stat_field(pid_t pid, int field, unsigned long long *val);
/* Is tid a thread of the program's process (or gone already)? */
bool tracer_is_own_thread(const tracer *tr, pid_t tid);
long tracer_now_ms(void);

/* ---- events.c: wait statuses, events, threads ---- */

void tracer_queue_status(tracer *tr, pid_t tid, int status);
tracer_event *tracer_queue_event(tracer *tr, enum tracer_ev_kind kind, pid_t tid);
/* SIGNAL is informational, and about the program's threads only. */
void tracer_note_signal(tracer *tr, const struct tcb *t, int sig);
bool tracer_is_stop_signal(int sig);
/* A group-stop: the program stops (SIGSTOP, SIGTSTP...) until a SIGCONT. */
bool tracer_is_group_stop(int status);
/* Asks a thread that left a group-stop early to stop again (see events.c). */
void tracer_rejoin_group_stop(pid_t tid);
/* THREAD_NEW for t, which stays stopped until resumed. */
void tracer_report_new_thread(tracer *tr, struct tcb *t);
/* Judges one wait status (see events.c). */
int tracer_handle_status(tracer *tr, pid_t tid, int status, rg_err *err);
/*
 * The parent's PTRACE_EVENT_CLONE, _FORK or _VFORK: the new thread or child
 * process is recorded.  restart: the normal run, which reports a new thread
 * (THREAD_NEW), lets a child go once its first stop was seen too, and
 * restarts the parent; without it (a detach), the parent stays stopped and
 * the child is only recorded, to be let go with the rest.
 */
int tracer_new_child(tracer *tr, struct tcb *parent, int event, bool restart,
		     rg_err *err);
/* The leader passed its exit: its THREAD_EXIT, once. */
void tracer_report_leader_gone(tracer *tr, struct tcb *t);
/* Is a status of tid among those drained but not judged? */
bool tracer_status_queued(const tracer *tr, pid_t tid);
/*
 * For a thread racegate has killed: its statuses drained but not judged
 * are dropped, and a stop among them continued (waitpid would not report
 * it again, and a thread stopped on its way out stays stopped).  True when
 * its death was among them: it is reaped.
 */
bool tracer_status_forget(tracer *tr, pid_t tid);
/* waitpid(which) until deadline (tracer_now_ms): 1 with *tid and *status,
 * 0 when nothing came in time, -1 when there is nothing to wait for. */
int tracer_wait_until(tracer *tr, pid_t which, long deadline, pid_t *tid, int *status);

/* ---- scratch.c: maps and scratch pages ---- */

int tracer_read_maps(pid_t pid, tracer_map **out, size_t *n, rg_err *err);
/*
 * What a system call racegate ran in a thread changed there for the time
 * of the call, and put back: the thread's registers and signal mask, and
 * the code written at its PC.  A fork the call made is a copy taken in the
 * middle, with all of that still changed (forksrv.c puts it right).
 */
struct tracer_injected {
	arch_regs regs;            /* the thread's own */
	uint64_t mask;             /* its signal mask, when masked */
	bool masked;
	uint64_t code_at;          /* where code was written (0: the stub ran it) */
	uint8_t code[ARCH_INJECT_LEN]; /* the program's bytes there */
};
/* One system call in t, every other thread stopped (scratch.c). */
int tracer_inject_stopped(tracer *tr, struct tcb *t, enum arch_sys call, const uint64_t a[6],
			  int64_t *ret, struct tracer_injected *keep, rg_err *err);
/* At the exec stop: the first scratch page of leader's memory, near the
 * executable (entry: its entry point). */
int tracer_scratch_init(tracer *tr, struct tcb *leader, uint64_t entry, rg_err *err);
/* After an attach, every thread stopped: the first page of t's memory,
 * mapped by t through code written over its current instruction (and put
 * back). */
int tracer_scratch_attach(tracer *tr, struct tcb *t, rg_err *err);
/* At a detach, every thread stopped: unmaps every scratch page of t's
 * memory, t making the calls as above.  Nothing may be inside a page any
 * more (detach_pc). */
int tracer_scratch_unmap(tracer *tr, struct tcb *t, rg_err *err);
/* A page whose slot is within reach of b, mapping one if none is.  1: t died. */
int tracer_scratch_slot(tracer *tr, struct tcb *t, const struct bp *b,
			struct scratch **out, rg_err *err);
/* A page with room for b's out-of-line copy within reach, mapping one if
 * none has.  1: t died, or no page can be had near b. */
int tracer_scratch_oot(tracer *tr, struct tcb *t, const struct bp *b,
		       struct scratch **out, rg_err *err);

/* PAD_CODE_MAX bytes of code within reach of b and a read-write table of
 * PAD_TABLE_SIZE bytes within reach of it (pad.c).  1: t died, or no page. */
int tracer_scratch_pad(tracer *tr, struct tcb *t, const struct bp *b,
		       uint64_t *code, uint64_t *table, rg_err *err);

/*
 * Code for a pad whose address is fixed by its jump's bytes (a jump over
 * short instructions: tracer_pad_pun_window): PAD_CODE_MAX bytes at an
 * address in [lo, hi], within reach of site, in pages of its own, and a
 * table within reach of it.  1: t died, or no such page is free.
 */
int tracer_scratch_pun(tracer *tr, struct tcb *t, uint64_t site, uint64_t lo,
		       uint64_t hi, uint64_t *code, uint64_t *table, rg_err *err);

/* ---- pad.c: jump pads ---- */

/* The pad whose breakpoint traps with the PC at pc, or NULL. */
struct pad *tracer_pad_by_trap(const struct image *img, uint64_t pc);
struct pad *tracer_pad_find(const struct image *img, uint64_t site);
/* The pad whose jump holds addr past its site (an int3 there would break it). */
const struct pad *tracer_pad_over(const struct image *img, uint64_t addr);
/* A trap in pad p (handle_sigtrap): an arrival at its site, or nothing. */
int tracer_pad_trapped(tracer *tr, struct tcb *t, struct pad *p, rg_err *err);
/* t (stopped) must trap at the pad at site, whatever its count says (on),
 * or no longer (a range waits for its return there, a handler's return). */
void tracer_pad_force(struct tcb *t, uint64_t site, bool on);
/* The breakpoint at p's site is removed / put back: p off / on. */
void tracer_pad_set_off(tracer *tr, struct image *img, struct pad *p, bool off);
/* as is a followed fork child's, a copy of from's: its tables start with
 * no live slot (its threads are new ones). */
void tracer_pad_fork(struct aspace *as, const struct aspace *from);
/* as goes (its process ended): the passes its slots hold for
 * tracer_pad_sync are kept in tr. */
void tracer_pad_as_gone(tracer *tr, struct aspace *as);
/* t is exiting (PTRACE_EVENT_EXIT): its slots die, their passes are kept. */
void tracer_pad_thread_exiting(tracer *tr, struct tcb *t);
/* parent made a child that may share its memory: its thread pointer is shared. */
void tracer_pad_child_shares(tracer *tr, struct tcb *parent);
/* The program's bytes back under every pad's jump in memory fd (a child
 * let go; its first byte may be back already: sync_breakpoints). */
void tracer_pad_unshare(const struct image *img, int fd);
/* The bytes at [addr, addr+n) with every pad's jump shown as what it replaced. */
void tracer_pad_show_orig(const struct image *img, uint64_t addr, uint8_t *buf, size_t n);
/* t, held at p's site (its PC there in the cache), goes on: through the pad's
 * copy of the instructions, no trap and no step. */
int tracer_pad_resume(tracer *tr, struct tcb *t, struct pad *p, rg_err *err);
/*
 * A thread stopped inside a pad's when: condition (registers in *r) leaves
 * it for the pad's trap path, its stack pointer back where the pad's saved
 * registers are: true when r was changed.  At a fault of the condition's
 * load, the trap then reports an arrival and the tracer evaluates the
 * condition itself; at a let-go (the trap a no-op), the thread runs the
 * site's instruction and goes on.
 */
bool tracer_pad_leave_cond(const struct image *img, arch_regs *r);
/* tracer_pad_leave_cond for t at a signal stop of a fault in condition
 * code: true when the signal is racegate's own, not to be delivered. */
bool tracer_pad_cond_fault(struct tcb *t, int sig, const siginfo_t *si);
/* A sync fault of the instruction in a pad: the PC back at the site. */
bool tracer_pad_fault_pc(const struct image *img, uint64_t pc, uint64_t *site);
/*
 * Every thread that may run the pads is stopped and racegate lets them go:
 * no pad traps any more (its int3 becomes a no-op, it is off: a thread
 * inside one finishes it and goes on), and the program's bytes are back
 * under the jumps, in memory fd (tr's program's): but for a jump the
 * program wrote over, whose bytes are the program's own (rewrite.c).  A
 * followed fork child that still runs img (the program's exec or end let
 * go of the program's memory only) keeps its pads, on.
 */
void tracer_pad_let_go(tracer *tr, struct image *img, int fd);
/*
 * Racegate leaves with threads that may run (a let-go that failed): no pad
 * traps any more and every hit passes, the jumps left in place (five bytes
 * cannot be put back under a running thread, one can).
 */
void tracer_pad_abandon(struct image *img, int fd);
/* Is pc in a pad's code (its checks, its copy of the instructions)? */
bool tracer_pad_code_at(const struct image *img, uint64_t pc);
void tracer_pads_free(struct image *img);

/* ---- step.c: breakpoints and displaced steps ---- */

/* Index of the first breakpoint at or above addr. */
size_t tracer_bp_lower(const struct image *img, uint64_t addr);
struct bp *tracer_bp_find(const struct image *img, uint64_t addr);
/* Was a breakpoint at addr taken out lately (a trap there may be ours)? */
bool tracer_bp_recently_removed(const struct image *img, uint64_t addr);
/* tracer_insert_bp / _remove_bp in as's image: in every process running it. */
int tracer_bp_insert(tracer *tr, struct aspace *as, uint64_t addr, rg_err *err);
int tracer_bp_remove(tracer *tr, struct aspace *as, uint64_t addr, rg_err *err);
/* Runs b's instruction for t out of line, then resumes t. */
int tracer_step_over(tracer *tr, struct tcb *t, struct bp *b, rg_err *err);
/* Restarts t with PTRACE_CONT and the signals kept for it. */
int tracer_resume_pending(tracer *tr, struct tcb *t, rg_err *err);
/* A fault the instruction itself caused (not one sent by kill)? */
bool tracer_is_sync_fault(int sig, const siginfo_t *si);
/* A fault in an out-of-line copy: the PC back at its breakpoint. */
void tracer_oot_fault(struct tcb *t, int sig, const siginfo_t *si);

/* ---- range.c: stepping past a line (tracer_resume_past) ---- */

/* Runs one instruction at a time: signals are kept, restarts are steps. */
bool tracer_stepping(const struct tcb *t);
/* How a thread that stopped for something else goes on. */
int tracer_cont_op(const struct tcb *t);
/* How it runs on where it must not single-step: PTRACE_CONT, or
 * PTRACE_SYSCALL while its sleeps are watched. */
int tracer_run_op(const struct tcb *t);
/* A syscall-stop of t (PTRACE_SYSCALL: tracer_watch_sleeps), park.c. */
int tracer_syscall_stop(tracer *tr, struct tcb *t, rg_err *err);
/* Does t wait for the return of a call to addr, and is it back in the
 * caller's frame (sp)?  Then tracer_range_returned takes the trap. */
bool tracer_range_waits_at(const struct tcb *t, uint64_t addr, uint64_t sp);
/* Does any range of t wait for a return at addr (not only the innermost)? */
bool tracer_range_waits_for(const struct tcb *t, uint64_t addr);
/* The innermost range is over; report says the thread got past it (at pc). */
void tracer_range_pop(tracer *tr, struct tcb *t, uint64_t pc, bool report);
/* The thread is gone (or its image is): its ranges end unreported. */
void tracer_ranges_free(tracer *tr, struct tcb *t, bool put);
int tracer_range_next(tracer *tr, struct tcb *t, rg_err *err);
int tracer_range_returned(tracer *tr, struct tcb *t, uint64_t addr, rg_err *err);
int tracer_range_signal(tracer *tr, struct tcb *t, const siginfo_t *si, rg_err *err);
int tracer_range_wait_signal(tracer *tr, struct tcb *t, uint64_t pc, uint64_t sp,
			     int sig, rg_err *err);

/* ---- detach.c: letting threads and children go ---- */

/* Are there children (followed, or not let go yet)? */
bool tracer_has_children(const tracer *tr);
/* Lets go the children sharing memory the program has left (see detach.c). */
void tracer_detach_children(tracer *tr);
/*
 * Attach: a signal is about to be delivered to t, stopped.  Its handler's
 * frame keeps the PC t has, and one in racegate's stub or an out-of-line
 * copy would return into a page tracer_detach unmaps: the PC goes to the
 * same point in the program's code first.  At the start of an instruction
 * racegate was running for it, t is back at its breakpoint, whose trap at
 * the handler's return is no arrival (TCB_SIG_RETURN).
 */
void tracer_signal_leaves_scratch(tracer *tr, struct tcb *t);

/* ---- attach.c ---- */

/* Why PTRACE_SEIZE of pid said EPERM, in words (spawn.c, attach.c). */
int tracer_explain_eperm(pid_t pid, const char *prog, rg_err *err);
/* tracer_free of an attached program: let it go as it is (attach.c). */
void tracer_abandon(tracer *tr);

/* ---- children.c ---- */

struct fchild *tracer_fork_find(tracer *tr, pid_t pid);
struct fchild *tracer_fork_add(tracer *tr, pid_t pid);
void tracer_fork_drop(tracer *tr, struct fchild *f);
/* Is tid, which has no control block, a child process (one waiting in
 * tr->forks, or a process of its own) rather than a thread of the program's? */
bool tracer_is_child(tracer *tr, pid_t tid);
/* tid stopped and has no control block: a child process's first stop (its
 * record, marked started) or NULL, a new thread of the program's. */
struct fchild *tracer_fork_first_stop(tracer *tr, pid_t tid);

/*
 * Both the child's first stop and its parent's event were seen: a child
 * with memory of its own has the breakpoints taken out of its copy and is
 * let go; one sharing the program's memory is followed (a TCB_CHILD block,
 * restarted) when follow says so, else let go as it is (the caller takes
 * the breakpoints out of the memory first).  Queues FORK for a parent of
 * the program's.
 */
int tracer_fork_finish(tracer *tr, struct fchild *f, bool follow, rg_err *err);
/* At the parent's fork event: what f's memory holds of racegate's (struct fchild). */
void tracer_fork_snapshot(tracer *tr, struct fchild *f, const struct tcb *parent);

/* A followed child (TCB_CHILD) stopped at its exec: nothing of racegate's
 * is in its new memory, so it is let go. */
int tracer_child_exec(tracer *tr, struct tcb *t, rg_err *err);

/* A thread of a followed fork child (follow_fork) stopped at its exec: the
 * process goes on traced in its new image, with no breakpoint, and stays
 * stopped after its EXEC (THREAD_EXIT for its other threads first). */
int tracer_proc_exec(tracer *tr, struct tcb *t, rg_err *err);
/* The leader of a followed fork child died: its address space goes. */
void tracer_proc_gone(tracer *tr, pid_t pid);
/*
 * Kills every followed fork child (the program ended, or is left stopped):
 * THREAD_EXIT for their threads when report, then their deaths are reaped,
 * within STOP_WAIT_MS.
 */
void tracer_kill_followed(tracer *tr, bool report);

#endif
