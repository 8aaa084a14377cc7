/*
 * result: what one run of a program is asked to do (run_opts) and what
 * it gives (run_result: the program's end, its output, the timeline, the
 * diagnosis, the counters), as the session fills it and the judge and the
 * reports read it.  past.c's helpers for the gates language's needs of a
 * running program (lines passed, thread names) are declared here too.
 */
#ifndef RACEGATE_RESULT_H
#define RACEGATE_RESULT_H

#include "plan.h"

enum run_outcome {
	OUT_REPRODUCED,        /* the expected (buggy) behaviour happened */
	OUT_PASSED,            /* expectation "exit 0" met */
	OUT_NOT_REPRODUCED,    /* the expected behaviour did not happen, gates enforced */
	OUT_FAILED,            /* expectation "exit 0" not met, gates enforced */
	OUT_DEADLOCK,          /* threads blocked on each other, none held: the program's own */
	OUT_SCHEDULE_DEADLOCK, /* held threads wait only on threads that wait on them */
	OUT_ORDER_INFEASIBLE,  /* as above, released by on_deadlock: release; judged by expect */
	OUT_NOT_ENFORCED,      /* a gate never reached, or released by its timeout */
	OUT_TIMEOUT,           /* the whole-run timeout expired */
	OUT_INTERRUPTED,       /* racegate got SIGINT/SIGTERM/SIGHUP: the program was killed
				  (attach: let go) */
	OUT_ENFORCED,          /* attach: every gate that counts acted; the program let go */
	OUT_ERROR,             /* racegate could not trace the run */
};


typedef struct run_opts {
	long timeout_ms;       /* whole run */
	bool capture;          /* pipe stdout/stderr (needed by expect or --repeat) */
	bool passthrough;      /* copy captured output to ours as it comes */
	bool verbose;
	int on_deadlock;       /* enum spec_on_deadlock */
	long quiet_ms;         /* stuck this long: deadlock (0: the default, 100 ms) */
	bool keep_stopped;     /* at a verdict, leave the program stopped and detached */
	unsigned closed_std;   /* bit i: fd i (0-2) was closed when racegate started,
				  so the program starts with it closed too */
	const bool *inherit;   /* fds from 3 up the program inherits (tracer_opts) */
	int ninherit;
	pid_t attach_pid;      /* racegate attach: the running process, else 0 */
	bool follow_fork;      /* trace the program's fork children too (--follow-fork) */
	bool no_fastpath;      /* --no-fastpath: gate sites keep their int3, no jump pads */
	/* the bytes the program reads on its stdin (the spec's stdin:, what
	 * explore read); has_stdin false: racegate's stdin, as without it */
	bool has_stdin;
	const char *stdin_data;
	size_t stdin_len;
} run_opts;

/* tl_entry.kind of a condition's first unreadable read at a gate (not a gate note). */
#define TL_WHEN_FAULT 100

/* One line of the timeline; kind/gate_index/event/held_ms for machine reports. */
typedef struct tl_entry {
	double t_ms;
	pid_t tid;
	pid_t pid;             /* its process (--follow-fork), or 0 when not known */
	char *who;             /* thread label */
	const char *where;     /* plan_bp.where, or NULL */
	const char *gate;      /* gate name, or NULL */
	char *what;            /* "held: waiting for x", "opened x", ... */
	int kind;              /* enum gate_note_kind (ARRIVE: passed without acting) */
	int gate_index;        /* index into spec->gates, or -1 */
	char *event;           /* OPEN: the event opened, else NULL */
	double held_ms;        /* RELEASE / TIMEOUT */
} tl_entry;

/* One thread in a diagnosis (stuck schedule, deadlock, timeout). */
typedef struct diag_thread {
	pid_t tid;
	pid_t pid;             /* its process */
	char *label;           /* alias or thread label */
	char *state;           /* "held at gate 'x': waiting for y", "blocked: ...", "running" */
	char *where;           /* "file.c:12 in fn", or NULL */
	char **backtrace;      /* "#0 0x... in fn at file.c:12", ... */
	size_t nbacktrace;
} diag_thread;

typedef struct run_result {
	enum run_outcome outcome;
	bool exited;           /* the program ended by itself */
	int exit_code;         /* when exited normally, else -1 */
	int term_signal;       /* when killed by a signal */
	bool core_dumped;
	size_t untraced_forks; /* child processes let go at their fork (not followed) */
	double elapsed_ms;
	rg_buf out, err;       /* captured output (when capture) */
	tl_entry *tl;
	size_t ntl, captl;
	size_t tl_dropped;     /* entries past the cap, counted not kept */
	char *note;            /* why, in words (unreached gates, deadlock, error) */
	diag_thread *diag;     /* per-thread diagnosis when the run was stuck or timed out */
	size_t ndiag;
	char *chain;           /* the wait-for chain in words, or NULL */
	bool *gate_reached;    /* per gate */
	bool *gate_timed_out;  /* per gate */
	char **gate_unarmed;   /* per gate: why its location was never armed, or NULL (or all NULL) */
	size_t ngates;
	size_t arrivals;       /* breakpoint arrivals at gate locations */
	size_t bp_hits;        /* traps at gate locations, whether a gate matched or not */
	size_t bp_disarmed;    /* gate breakpoints taken out: no gate there could act again */
	rg_buf warnings;       /* setup steps that failed but let the run go on, one
				* message a line: batch.c says each once a session */
	size_t *when_false;    /* per gate: arrivals its when: rejected (faults included) */
	size_t *when_faults;   /* per gate: of those, arrivals where a read faulted */
	char **when_fault;     /* per gate: the first, "when: *p unreadable at 0x0", or NULL */
	char **unbound;        /* threads: aliases never bound to a thread */
	size_t nunbound;
} run_result;

/*
 * past.c.  Restarts tid, held or stopped at the gate location at, so that
 * the tracer watches it get past that source line (tracer_resume_past),
 * looked up in the debug information of the object at->site is in:
 * returns 0 when a TRACER_EV_RANGE_DONE (or its exit) will say so, 1 when
 * the line's code is unknown and the thread was merely resumed, -1 on error.
 */
struct tracer;
int run_resume_past(plan *p, struct tracer *tr, const run_bias *bt, pid_t tid,
		    const plan_bp *at, rg_err *err);
/* Does any selector of sp name a thread ({name: NAME})? */
bool run_spec_uses_names(const spec *sp);
/* The name (comm) of thread tid of process pid; -1 when it is gone. */
int run_thread_comm(pid_t pid, pid_t tid, char *buf, size_t len);

void run_result_release(run_result *res);

#endif
