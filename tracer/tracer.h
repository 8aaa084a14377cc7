/*
 * tracer: a program under ptrace on Linux (the machine's facts: arch/).
 *
 * It starts the program, follows every thread from its first instruction,
 * keeps int3 breakpoints armed, and turns each wait status into an event.
 * Breakpoints stay armed at all times: resuming a thread from a breakpoint
 * runs the original instruction out of line (displaced stepping, in a scratch
 * page mapped into the tracee near the code), so other threads never run
 * through a breakpoint while it is stepped over.
 *
 * Signals belong to the program: they are passed through unchanged, its
 * handlers run, and a SIGTRAP the program raises itself is not mistaken for a
 * breakpoint.  A trap at an address where the tracer has no breakpoint (or
 * no longer has one, when the program's own int3 was under it) is the
 * program's: it is delivered, also on a gated line.
 *
 * Group-stops are the program's too: a SIGSTOP or SIGTSTP stops it until a
 * SIGCONT (from anywhere: its own helper process, a shell's kill -CONT), as
 * natively.  Its threads stay stopped meanwhile, also one that is resumed
 * from a breakpoint or a new thread's first stop: it joins the stop before
 * it runs any code.  No event says so.
 *
 * Child processes, with follow_fork (tracer_opts): one with memory of its
 * own (fork, clone without CLONE_VM) is traced like the program: its
 * threads are reported (FORK, then THREAD_NEW with its pid), its copy of
 * memory keeps the breakpoints of the image it runs (tracer_insert_bp_in),
 * and at its exec it goes on traced with none (EXEC, stopped).  It is
 * killed when the program ends, is killed or is left stopped.
 *
 * Without follow_fork, one with memory of its own (fork) is detached with
 * the breakpoints taken out of its copy.  Either way, one that shares the
 * program's memory (vfork, posix_spawn, which system() and popen() use,
 * clone(CLONE_VM)) is followed until it calls exec or exits: stepped over
 * every breakpoint it reaches like a thread, with its signals passed
 * through, but it never arrives anywhere and no event names it (BREAKPOINT,
 * SIGNAL, THREAD_* are about the threads of the program and of its followed
 * fork children only).  If the program ends or calls exec first, such a
 * child is let go with the breakpoints taken out of the memory it
 * keeps (killed if it does not stop within a couple of seconds); tracer_free
 * kills the ones still followed.
 *
 * exec: the program goes on in the new image, traced, with no breakpoint
 * in it (EXEC; the caller may arm new ones).
 *
 * Holding a thread is simply not resuming it after its BREAKPOINT event.
 *
 * One tracer per racegate process at a time: it reaps with waitpid(-1).
 * All calls must come from the thread that called tracer_spawn (ptrace rule).
 *
 *   tracer.c        control blocks, register cache, memory, accessors, tracer_free
 *   spawn.c         starting the program under ptrace; why EPERM
 *   attach.c        attaching to a running process; letting it go when racegate must
 *   events.c        wait statuses -> events: threads, signals, group-stops, exec
 *   step.c          breakpoints; the displaced step over one (out-of-line copies)
 *   scratch.c       scratch pages near the code, and the maps they are placed by
 *   range.c         stepping past a line (tracer_resume_past)
 *   children.c      child processes, from their parent's event until let go
 *   detach.c        letting go clean: tracer_detach_stopped, children left behind
 *   pad.c           jump pads: a gated line passed without a trap (their code: arch/)
 *   rewrite.c       code the program rewrites where racegate patched it
 *   park.c          a sleep stopped inside, and ended early (explore's time)
 *   procstate.c     thread states from /proc, and the facts blocked.c needs (procstate.h)
 *   blocked.c       blocked for ever or may wake: the decision alone (blocked.h);
 *                   procstate.c and blocked.c are a library of their own, rg_procstate
 *   unwind.c        backtraces of stopped threads (libunwind)
 *   tracer_priv.h   what the files share: struct tracer, struct tcb, helpers
 */
#ifndef RACEGATE_TRACER_H
#define RACEGATE_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "arch_regs.h"
#include "msg.h"

typedef struct tracer tracer;

enum tracer_ev_kind {
	TRACER_EV_BREAKPOINT,  /* tid is stopped at breakpoint addr (PC == addr); stays stopped until tracer_resume */
	TRACER_EV_THREAD_NEW,  /* tid was created by parent; stays stopped (before its first instruction) until tracer_resume;
				  with follow_fork, also a followed child process's first thread (pid == tid, after its FORK) */
	TRACER_EV_THREAD_EXIT, /* tid is gone (exited, or killed by the process's exit); once per
				  thread; the leader's when it passes its exit (pthread_exit in
				  main: the kernel keeps it a zombie until the end), before EXIT */
	TRACER_EV_SIGNAL,      /* informational: signo is being delivered to tid, unchanged */
	TRACER_EV_EXEC,        /* the process called exec: every breakpoint is gone, tid is the new
				  leader (THREAD_EXIT for the others, before or after); it runs on.
				  pid: the process; a followed child's (pid != tracer_pid) stays
				  stopped until tracer_resume, for tracer_insert_bp_in first;
				  with follow_fork, a vfork/posix_spawn child's exec is its first
				  event as a process (parent: the thread that made it) */
	TRACER_EV_FORK,        /* tid made child process: detached with the breakpoints out of its
				  copy of memory, or followed while it shares the program's; with
				  follow_fork, followed (its THREAD_NEW comes next: followed set) */
	TRACER_EV_EXIT,        /* the whole process ended; always the last event */
	TRACER_EV_RANGE_DONE,  /* tid has got past the code given to tracer_resume_past (addr: its PC now); it runs on */
	TRACER_EV_SLEEPS,      /* tid, its sleeps watched (tracer_watch_sleeps), is parked as it enters
				  one: stopped until tracer_fire ends it at once, or tracer_resume
				  lets it sleep its time */
};

typedef struct tracer_event {
	enum tracer_ev_kind kind;
	pid_t tid;
	pid_t parent;          /* THREAD_NEW (and a first EXEC): creating thread */
	pid_t child;           /* FORK: the child's pid */
	pid_t pid;             /* THREAD_NEW, EXEC: the process (tracer_pid, or a followed child) */
	bool followed;         /* FORK: the child is traced like the program (follow_fork) */
	uint64_t addr;         /* BREAKPOINT: the breakpoint's address */
	int signo;             /* SIGNAL */
	int exit_code;         /* EXIT: the exit status when it exited normally, else -1 */
	int term_signal;       /* EXIT: the signal that killed it, else 0 */
	bool core_dumped;      /* EXIT */
} tracer_event;

typedef struct tracer_opts {
	const char *const *argv; /* argv[0] is searched in PATH when it has no '/' */
	const char *cwd;         /* or NULL: racegate's */
	int stdin_fd;            /* fd to give the program, -1 to inherit, or */
	int stdout_fd;           /* TRACER_FD_CLOSED: the program starts with it closed */
	int stderr_fd;
	/* The fds from 3 up that the program inherits: inherit[fd] for fd <
	 * ninherit (what racegate itself inherited); every other fd racegate has
	 * is closed in the program, O_CLOEXEC or not (a library's open file).
	 * NULL: every fd racegate has without O_CLOEXEC goes to the program. */
	const bool *inherit;
	int ninherit;
	/* Follow the program's forks: a child with memory of its own stays
	 * traced, with the program's breakpoints (see "Child processes" above). */
	bool follow_fork;
} tracer_opts;
#define TRACER_FD_CLOSED (-2)

/*
 * Starts the program under ptrace and returns with it stopped right after
 * exec (before the dynamic linker runs), ready for tracer_insert_bp and a
 * first tracer_resume(tr, tracer_pid(tr)).  Fails with a message that says
 * why: the program cannot be run (ENOENT, EACCES, not executable), or ptrace
 * is refused (naming kernel.yama.ptrace_scope, seccomp, or an existing
 * tracer, and what to change).
 */
int tracer_spawn(const tracer_opts *opts, tracer **out, rg_err *err);

/*
 * Attaches to running process pid (attach.c): seizes every thread of it,
 * and returns with every one of them stopped, ready for tracer_insert_bp
 * and a tracer_resume of each thread tracer_is_stopped says is (the
 * others stopped for something tracer_next_event reports or handles:
 * THREAD_NEW for threads created meanwhile, a signal passed through, a
 * THREAD_EXIT).  No exec stop, no entry point: the program runs already.
 * The program is never killed from then on (tracer_kill is a bug): it is
 * let go by tracer_detach, or as it is by tracer_free.  Fails with a
 * message: no such process, a zombie, racegate itself or its parent, a
 * thread rather than a process, or ptrace refused (naming another tracer,
 * another user, kernel.yama.ptrace_scope, and what to change).
 */
int tracer_attach(pid_t pid, tracer **out, rg_err *err);

/* What makes pid no process to attach to (the checks tracer_attach makes
 * first, but for ptrace's refusal), in words; 0 when it is one. */
int tracer_attach_check(pid_t pid, rg_err *err);

/*
 * Why the kernel refuses racegate the right to trace pid (PTRACE_SEIZE's
 * EPERM, or /proc/PID/exe unreadable), in words with what to change:
 * another tracer (named), another user, kernel.yama.ptrace_scope, a
 * seccomp filter.  Always -1.
 */
int tracer_attach_explain(pid_t pid, rg_err *err);

/*
 * The threads of the program the tracer knows, leader first (after
 * tracer_attach: every thread that existed); the caller frees *tids.
 */
size_t tracer_threads(const tracer *tr, pid_t **tids);

/*
 * 1 when the code of a file the program maps executable holds a
 * breakpoint instruction, or a branch into memory no file backs (a jump
 * to a pad), at *addr (in *path: the caller frees) where the file has
 * another byte: left by a racegate or debugger killed while attached.  0
 * when none, -1 on error.  Call before inserting any.
 */
int tracer_stray_trap(tracer *tr, uint64_t *addr, char **path, rg_err *err);

/*
 * Lets an attached program go on exactly as it was: every thread is
 * stopped (one bounded wait), every breakpoint and pad taken out, a thread
 * held at one put back at its instruction, one in racegate's scratch code
 * put back in the program's (stepped out of a pad), the scratch and pad
 * pages unmapped (unless a thread's stack returns into one: err says so,
 * they stay), and every thread detached with the signal it was receiving.
 * No event follows.  On failure the program is still traced: tracer_free
 * lets it go as it is.
 */
int tracer_detach(tracer *tr, rg_err *err);

/*
 * Is the program ending (exit_group, a fatal signal): its leader gone or
 * exiting, or SIGKILL pending for it?  Its EXIT event is on its way; a
 * detach now would lose the exit status.
 */
bool tracer_ending(const tracer *tr);
/*
 * Where thread tid stands: on its way out (SIGKILL pending, stopped at or
 * inside its exit) or gone; stopped elsewhere; or running (which may be
 * the moment between a SIGKILL taken and its exit).
 */
enum tracer_fate { TRACER_DYING, TRACER_LIVES, TRACER_RUNS };
enum tracer_fate tracer_thread_fate(const tracer *tr, pid_t tid);

/* Kills the program if still alive, reaps it, and frees tr (attached:
 * lets it go instead, tracer_detach's breakpoints out if it was not). */
void tracer_free(tracer *tr);

pid_t tracer_pid(const tracer *tr);

/*
 * explore's fork server (forksrv.c).  tracer_copy: the program, stopped
 * with one thread, forks itself there; the copy (*child) is left stopped
 * and untraced, for tracer_adopt in a fork of racegate made after this
 * call, whose tracer then traces the copy as tr traced the program.  The
 * copy is racegate's child, as the program is: its caller reaps it.  An
 * error says why the program cannot be copied.  rewind_stdin: the
 * program's stdin is a file racegate made, read from its start by each
 * copy (its offset is set back first).
 */
int tracer_copy(tracer *tr, bool rewind_stdin, pid_t *child, rg_err *err);
/*
 * In the template, stopped with one thread: each breakpoint's instruction
 * decoded and its out-of-line copy made now, once, rather than at its
 * first step in every copy.  What cannot be made is left to that step.
 */
void tracer_ready_steps(tracer *tr);
int tracer_adopt(tracer *tr, pid_t child, rg_err *err);

/* AT_ENTRY of the program (run-time address, load bias applied). */
uint64_t tracer_entry(const tracer *tr);

/* Inserts/removes an int3 at a run-time address; idempotent.  Removal keeps
 * the address in mind, so a thread that trapped on it just before removal is
 * rewound and resumed silently rather than killed by SIGTRAP. */
int tracer_insert_bp(tracer *tr, uint64_t addr, rg_err *err);
int tracer_remove_bp(tracer *tr, uint64_t addr, rg_err *err);
/* Is a breakpoint of the caller's (tracer_insert_bp) at addr, not removed since? */
bool tracer_bp_armed(const tracer *tr, uint64_t addr);

/*
 * Code the program rewrote where racegate had patched it (a program that
 * changes its own code at a gated line: a hot patch, two versions of a
 * function swapped at run time), rewrite.c.  racegate sees the result, not
 * the write: tracer_rewrites_check compares every site of the program's
 * memory now (one read each; the tracer does it at each fault the program
 * takes), and before racegate puts a site's bytes back (a breakpoint
 * removed, a pad let go) it looks, and leaves the program's bytes there.
 * tracer_rewrites: the sites found so far, each once, in the order found.
 */
enum tracer_rewrite_kind {
	TRACER_REWRITE_NONE,
	TRACER_REWRITE_BP,     /* its int3 written over: the line is no longer seen */
	TRACER_REWRITE_STALE,  /* the instruction behind its int3 changed: racegate
				* runs its copy of the old one at each hit */
	TRACER_REWRITE_PAD,    /* a pad's jump written over: the line is no longer
				* seen, or (in part) the program runs garbage */
};
typedef struct tracer_rewrite {
	uint64_t addr;
	enum tracer_rewrite_kind kind;
} tracer_rewrite;
void tracer_rewrites_check(tracer *tr);
size_t tracer_rewrites(const tracer *tr, const tracer_rewrite **out);
/* A piece of code, [lo, hi), run-time addresses. */
typedef struct tracer_span {
	uint64_t lo, hi;
} tracer_span;

/*
 * Jump pads (pad.c): the breakpoint at req->addr (tracer_insert_bp) becomes
 * a jump to a pad in which each thread passes the site without a trap as
 * many times as tracer_pad_allow said, and traps (an ordinary BREAKPOINT at
 * addr, registers as at addr) on any other hit.  In the image process
 * req->pid runs (0: the program), only while every thread that runs it is
 * stopped, no other process runs it (a followed fork child, a child
 * sharing the memory), no thread is stopped inside the bytes the jump
 * covers nor returns there (a signal handler's frame), and when the
 * instruction at addr is long enough and goes on to the next one.  When the instruction at addr is
 * shorter than the jump, the following ones are moved to the pad too when
 * fn[0..nfn) (the code of the whole function holding addr, run-time) is
 * given, decodes, has no jump whose target is not written in it (a jump
 * table), and no jump into the bytes after addr that the jump covers; a
 * jump, call or return among the instructions moved must be the last (none
 * may make a system call or loop).  No instruction at or past fence (the
 * first address above addr that code elsewhere may enter: a symbol, a
 * direct jump's or call's target anywhere in the object) is moved.
 *
 * share: the site of a pad made before (0: none) whose slots this one uses:
 * a thread's passes through either are taken from one count, and read and
 * allowed through either (for sites whose hits count alike: the same gates).
 *
 * cond[0..ncond) (common/cond_ops.h, O_BIAS already turned into constants
 * by the caller; NULL: none) is a when: condition the pad evaluates for a
 * thread whose passes are used up and which tracer_pad_allow said cond
 * for: a false condition is a pass (counted in tracer_pad_sync's passes
 * like any other, and in its falses), a true one traps as before.
 * *cond_why: NULL when the condition is in the pad, else why not (a fixed
 * string: an op the pad does not run, too much code or stack); the pad is
 * made all the same.  A load of the condition that faults is racegate's:
 * the thread traps instead, the signal not delivered, and the caller's own
 * evaluation meets the fault.
 *
 * 1: a pad; 0: none, *why says why (a fixed
 * string); -1: error (the breakpoint stays an int3).  tracer_remove_bp then
 * turns the pad off (every hit passes) rather than take the jump out;
 * tracer_insert_bp turns it on again.  A fork child let go gets the
 * program's bytes back; an exec takes the pads with the image.
 */
struct cond_op;
typedef struct tracer_pad_req {
	pid_t pid;                     /* the followed process, 0: the program */
	uint64_t addr;
	const tracer_span *fn;
	size_t nfn;
	uint64_t fence;                /* 0: none known */
	uint64_t share;
	const struct cond_op *cond;
	size_t ncond;
} tracer_pad_req;
int tracer_pad_make(tracer *tr, const tracer_pad_req *req, const char **why,
		    const char **cond_why, rg_err *err);
/*
 * The code at addr is gone (its object unmapped; its breakpoint removed
 * first): what racegate made of it is forgotten, for another object may
 * map there.  A pad there (its page stays; the slots of pads sharing them
 * are kept), on which let-go writes nothing any more; the out-of-line copy
 * of its instruction, which a breakpoint put there later must not run.
 */
void tracer_code_gone(tracer *tr, uint64_t addr);
/* The most bytes of instructions a pad's jump may cover (for fence). */
size_t tracer_pad_cover_max(void);
/* Is there a pad, on, at addr? */
bool tracer_pad_at(const tracer *tr, uint64_t addr);
/*
 * Passes of tid through the pad at addr since the last call (for tid
 * stopped; or gone: what was read at its exit), and of those the ones
 * whose condition was false; with the pads that share its slots, once for
 * all of them.  Also for a pad turned off (what it counted before).  Call
 * before deciding at each of tid's BREAKPOINT events at a site whose hits
 * count with the pad's, and at its THREAD_EXIT.
 */
int tracer_pad_sync(tracer *tr, pid_t tid, uint64_t addr, uint64_t *passes,
		    uint64_t *falses, rg_err *err);
/*
 * tid, stopped, may pass the pad at addr (and those sharing its slots) n
 * more times (UINT64_MAX: for ever) before its next hit traps.  A thread whose thread pointer is 0 or
 * shared with another live thread, or one more than the pad has slots for,
 * traps on every hit whatever n says.  cond: once they are used up, the
 * pad's condition decides (tracer_pad_make).
 */
int tracer_pad_allow(tracer *tr, pid_t tid, uint64_t addr, uint64_t n, bool cond,
		     rg_err *err);

/*
 * The same in the image followed process pid runs (follow_fork): a fork
 * child runs its parent's until it calls exec, and the breakpoints of an
 * image are in every process that runs it.
 */
int tracer_insert_bp_in(tracer *tr, pid_t pid, uint64_t addr, rg_err *err);
int tracer_remove_bp_in(tracer *tr, pid_t pid, uint64_t addr, rg_err *err);

/*
 * Readable when an event may be pending (a signalfd for SIGCHLD; the tracer
 * blocks SIGCHLD in the calling thread).  Poll it together with other fds,
 * then call tracer_next_event(tr, &ev, 0) until it returns 0.
 */
int tracer_fd(const tracer *tr);

/*
 * Waits up to timeout_ms (-1: forever, 0: do not wait) for the next event.
 * Returns 1 and fills ev; 0 when none came in time; -1 on an internal error
 * (message in err).  Events that need no decision (clone of the parent side,
 * signal pass-through, group stops, children's stops) are handled here and
 * the thread resumed (or, in a group-stop, left in it).
 */
int tracer_next_event(tracer *tr, tracer_event *ev, int timeout_ms, rg_err *err);

/*
 * Restarts a thread left stopped by a BREAKPOINT or THREAD_NEW event (or the
 * initial stop).  At a breakpoint that is still armed, the original
 * instruction runs out of line first.  A signal that arrived for the thread
 * while it was stopped is delivered now.  A thread that died meanwhile is not
 * an error (its THREAD_EXIT event follows).
 */
int tracer_resume(tracer *tr, pid_t tid, rg_err *err);

/*
 * tid, left stopped by a BREAKPOINT event, stays stopped for a while (a
 * gate holds it): its registers are written to the kernel now, its PC at
 * the breakpoint's instruction (until then it is one byte in, and the
 * rewound PC only in racegate's cache).  A racegate killed outright
 * (SIGKILL) leaves a held thread to the kernel, which lets it run on from
 * its registers: at the int3 then, which traps, never from the middle of
 * an instruction.  0, or -1 with err (a thread gone meanwhile is not an
 * error).
 */
int tracer_hold(tracer *tr, pid_t tid, rg_err *err);


/*
 * Restarts a thread as tracer_resume does, then lets it run until it has got
 * past the code in spans (a source line): its PC leaves the spans in the
 * frame it is in now.  Inside the spans it runs one instruction at a time;
 * a call made there runs at full speed to a temporary breakpoint at its
 * return address (gdb's `next`), so a deeper frame (recursion) does not
 * count; a return or a jump out of the spans does.  Then comes one
 * TRACER_EV_RANGE_DONE for tid, and the thread runs on.  Nothing blocks: a
 * line blocked in a system call or on a lock simply has not been passed yet.
 *
 * Ranges nest: a thread stepping past a line that calls a function in which
 * it is stopped (a BREAKPOINT event) and resumed with tracer_resume_past
 * again reports the inner RANGE_DONE first.  A signal for a thread being
 * stepped is delivered at once, with its own siginfo, where the thread is
 * in the program's code; the handler runs at full speed and the stepping
 * goes on when it returns (a synchronous fault of the line ends the range
 * at once, and is delivered).  A thread that dies
 * first reports no RANGE_DONE, only its THREAD_EXIT.
 *
 * Returns 0 (RANGE_DONE or THREAD_EXIT follows), 1 when the thread was
 * merely resumed (no spans, or not stopped where it can be stepped: no
 * RANGE_DONE follows), -1 on error.
 */
int tracer_resume_past(tracer *tr, pid_t tid, const tracer_span *spans, size_t n,
		       rg_err *err);

/* Registers and memory of a stopped thread. */
int tracer_get_regs(tracer *tr, pid_t tid, arch_regs *regs, rg_err *err);
int tracer_read_mem(tracer *tr, uint64_t addr, void *buf, size_t len, rg_err *err);

/*
 * For conditions (`when:`): the registers of a stopped thread as DWARF
 * numbers them (the psABI's numbering; no register is named outside the
 * architecture's file).  out[i] is DWARF register i; *n says how many
 * (at most max).  At a breakpoint the PC is the breakpoint's address.  The
 * registers come from the stop's cache (one register read per stop, shared
 * with the step over the breakpoint).  -1 when tid is not stopped.
 */
int tracer_dwarf_regs(tracer *tr, pid_t tid, uint64_t *out, size_t max, size_t *n,
		      rg_err *err);

/* One piece of program memory to read: len bytes at run-time addr into buf. */
typedef struct tracer_read_req {
	uint64_t addr;
	void *buf;
	size_t len;
} tracer_read_req;

/*
 * Reads reqs[0..n) from the memory of thread tid's process (a followed
 * fork child's is its own) in order, as one batch (one process_vm_readv with an
 * iovec per request, 64 at a time); a request the batch read only in
 * part (a page boundary, a kernel refusing process_vm_readv) is read again
 * through /proc/PID/mem before giving up on it, and only from mappings the
 * program may read: a byte the program would fault on (a PROT_NONE guard
 * page, which the kernel lets a tracer read) is unreadable, never a value.
 * Returns how many requests were read whole: a request that cannot be
 * read, and every later one, are not.  Breakpoints show as the program's
 * bytes.  Never fails otherwise.
 */
size_t tracer_read_batch(tracer *tr, pid_t tid, const tracer_read_req *reqs, size_t n);

/*
 * The n-th (from 0) integer or pointer argument of a function, read from
 * regs of a thread stopped at the function's first instruction (the
 * architecture's calling convention, arch_call_arg).  0 past the ones
 * passed in registers.
 */
uint64_t tracer_call_arg(const arch_regs *regs, unsigned n);

/*
 * The value pthread_self() returns (a pthread_t) with glibc in the thread
 * whose registers regs are (arch_pthread_self): what explore compares a
 * pthread_join's argument with.  The owner of a mutex is read with
 * tracer_mutex_owner (procstate.h), which keeps glibc's layout.
 */
uint64_t tracer_explore_thread_pointer(const arch_regs *regs);

/* The stack pointer of a stopped thread. */
int tracer_get_sp(tracer *tr, pid_t tid, uint64_t *sp, rg_err *err);

/*
 * For a thread stopped at the exact entry of a function (no instruction of
 * it run yet): the address it will return to, and the stack pointer it will
 * have there once it has returned.  A thread at that address with that stack
 * pointer is back from this very call, not from a deeper one (recursion) nor
 * an outer one.
 */
int tracer_entry_frame(tracer *tr, pid_t tid, uint64_t *ret, uint64_t *sp_after,
		       rg_err *err);

/* Is tid currently stopped and waiting for tracer_resume? */
bool tracer_is_stopped(const tracer *tr, pid_t tid);

/* One line of /proc/PID/maps. */
typedef struct tracer_map {
	uint64_t start, end, offset;
	bool read;             /* the program may read it (not PROT_NONE) */
	bool exec;
	char *path;            /* NULL for anonymous mappings */
} tracer_map;

/* Reads the program's mappings; free with tracer_maps_free. */
int tracer_maps(tracer *tr, tracer_map **out, size_t *n, rg_err *err);
void tracer_maps_free(tracer_map *maps, size_t n);
/* The same for followed process pid. */
int tracer_maps_of(tracer *tr, pid_t pid, tracer_map **out, size_t *n, rg_err *err);

/* Sends SIGKILL to the program, and to the children sharing its memory that
 * are followed until their exec (a fork child is not racegate's: it lives
 * on, as it would; with follow_fork it is, and dies too); the program's
 * EXIT event follows. */
void tracer_kill(tracer *tr);

/*
 * Stops a running thread (PTRACE_INTERRUPT) and leaves it stopped as if held,
 * so that its registers can be read and it can be unwound; a thread already
 * stopped is left as it is, and one in the program's group-stop counts as
 * stopped (tracer_resume puts it back into the stop).  A thread blocked in a system call is taken out
 * of it (the call is restarted if the thread is resumed).  Meant for the end
 * of a run: a status that comes in the way is kept for tracer_next_event,
 * and it fails rather than wait (a thread whose status is already kept, one
 * that does not stop within a couple of seconds).
 */
int tracer_interrupt(tracer *tr, pid_t tid, rg_err *err);

/*
 * Time under explore's serialisation (docs/explore.md): a running thread
 * asleep in a call whose sleep can end early (tracer_wait_fireable) is
 * stopped inside it, and stays so, as if held: 1.  0: it was not in such a
 * sleep once stopped (it had just woken), and runs on; -1 with err: it
 * could not be stopped (it exits, or a signal or stop came first), and
 * runs on.  A parked thread resumed with tracer_resume makes its call
 * again, as if it had not been stopped (never EINTR).
 */
int tracer_park(tracer *tr, pid_t tid, rg_err *err);
/*
 * Stops every thread that runs (tracer_interrupt), so that code may be
 * written: their ids in *stopped (free with tracer_resume_all), *n.  A call
 * the stop cut is made again when the thread goes on, never EINTR (as for
 * tracer_park).  -1 when one could not be stopped: those stopped run again.
 */
int tracer_stop_all(tracer *tr, pid_t **stopped, size_t *n, rg_err *err);
/* Lets the threads tracer_stop_all stopped go on, and frees the list. */
void tracer_resume_all(tracer *tr, pid_t *stopped, size_t n);
/* Parked tid ends its sleep now, as its timeout would, and runs on. */
int tracer_fire(tracer *tr, pid_t tid, rg_err *err);
/*
 * The time parked tid's call asked to sleep, in ns (an absolute deadline
 * counted from when it was parked; a poll's timeout), or 0 when not
 * parked.
 */
uint64_t tracer_parked_ns(tracer *tr, pid_t tid);
/*
 * Sleeps seen as they begin, whatever the machine's load: while on, tid
 * runs with PTRACE_SYSCALL (two stops per system call it makes), and the
 * entry of a nanosleep or clock_nanosleep parks it there (TRACER_EV_SLEEPS).
 * Takes effect at its next restart.  Without PTRACE_GET_SYSCALL_INFO
 * (Linux 5.3) it turns itself off at the first call.
 */
void tracer_watch_sleeps(tracer *tr, pid_t tid, bool on);

/*
 * Leaves the program stopped (SIGSTOP) and detached, with every breakpoint
 * taken out of its memory (threads held at a breakpoint are at its original
 * instruction), for a debugger to attach to.  Every thread is stopped first,
 * with one bounded wait for them all: a thread that traps on a breakpoint
 * meanwhile is put back at it (its trap never reaches it), one stopped in
 * racegate's scratch code is put back in the program's, and a signal the
 * program was receiving is delivered at the detach.  Children sharing its
 * memory are detached too, not stopped (they are not the program; the
 * breakpoints are out of their memory as well).  No event follows;
 * tracer_free then neither kills nor waits for it.  On failure (a thread
 * did not stop in time; the program ended or called exec meanwhile) the
 * program is still traced: kill it, and its events follow as usual.
 */
int tracer_detach_stopped(tracer *tr, rg_err *err);

#endif
