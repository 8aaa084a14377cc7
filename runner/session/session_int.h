/*
 * What session.c shares with the files that take a concern of its own off
 * it (session_pads.c: the jump pads of the executable's gate sites): the
 * session's structure and the few helpers they call.  Private to runner/.
 */
#ifndef RACEGATE_SESSION_INT_H
#define RACEGATE_SESSION_INT_H

#include <time.h>

#include "stall.h"
#include "intmap.h"
#include "objects.h"
#include "session.h"

/* A process of the program's tree: [0] the program, then followed children. */
struct proc {
	pid_t pid;
	char *exe;             /* file name of its image, or NULL */
	bool gone;             /* its first thread exited (or the process was let go) */
	plan *img;             /* after an exec: the gates of its new image (kept by
				  plan_image), or NULL: it runs the program's, s->p */
	run_bias bt;           /* img's load bias */
	bool foreign;          /* after its exec: runs an executable no plan
				  describes (img NULL: no gate names it) */
};

struct thr {
	pid_t tid;
	size_t proc;           /* index in procs */
	const plan_bp *at;     /* where it last arrived at a gate location */
	char *start;           /* start routine, or NULL */
	size_t npast;          /* lines the tracer watches it get past (then_open pending) */
};

struct pending_start {
	pid_t creator;         /* thread inside pthread_create */
	char *start;           /* its start routine */
};

/* Bookkeeping of one bounded output capture (see capture()). */
struct capped {
	size_t dropped;        /* bytes of output not kept */
	size_t mark;           /* length of the marker after the head, 0 if none */
};

struct session {
	plan *p;
	const run_opts *o;
	run_result *res;
	tracer *tr;
	decider dec;           /* its ops and its own pointer (decider.h) */
	struct timespec t0;
	run_bias bt;           /* this run's object -> load bias table */

	uint64_t entry;        /* run-time entry point (own breakpoint), 0 when done */
	uint64_t *ptc;         /* run-time pthread_create addresses */
	size_t nptc;

	struct pending_start *pend;
	size_t npend, cappend;
	struct thr *thr;
	size_t nthr, capthr;
	struct proc *procs;
	size_t nprocs, capprocs;
	rg_intmap thr_ix;      /* tid -> index in thr of the latest thread with it */
	size_t nlive;

	pid_t *release;        /* threads the decider released, to restart */
	size_t nrelease, caprelease;

	int outfd, errfd;      /* read ends of the capture pipes, or -1 */
	bool killed;
	struct capped out_cap, err_cap; /* see capture() */
	session_end end;
	stall_watch *stall;    /* is every thread held or blocked for ever? */
	bool names;            /* the decider selects threads by name: keep learning them */
	run_locs *locs;        /* shared objects and FUNCTION:return (objects.h), or NULL */
	bool attached;         /* racegate attach: let the program go, never kill it */
	bool *dead;            /* attach, per plan bp: no gate there can act any more
				  (its int3 is out, or left to racegate's own use) */
	/* per plan bp: the gate whose when: its pad evaluates (pad_when.h),
	 * PAD_WHEN_NONE for none; NULL: no pads */
	size_t *pad_when;
	/* per plan bp: the bp whose pad holds the slots its pad reads, the
	 * first one made for the same gates (PAD_LEAD_NONE: no pad); and
	 * those leading bps, whose passes are synced and allowed */
	size_t *pad_lead;
	size_t *pad_leads, npad_leads;
	/* per plan bp: the leading bps whose gates meet its gates, once known */
	struct pad_peers {
		size_t *v, n;
		bool known;
	} *pad_peers;
	/* session_snapshot: the run stops at the program's entry point
	 * (snapped), or cannot (snap_why) */
	bool snap, snapped;
	const char *snap_why;
	bool copy;             /* session_run_copy: a copy runs, the template
				  holds its output pipes open */
};
#define PAD_LEAD_NONE ((size_t)-1)

/* Is a one of the program's pthread_create addresses (racegate's own breakpoint)? */
bool session_is_ptc(const session *s, uint64_t a);

/* ---- session_pads.c ---- */

/* Do bps a and b share a gate? */
bool session_gates_meet(const plan_bp *a, const plan_bp *b);

/* At the exec stop (one thread, stopped): a pad for each of the
 * executable's gate sites that may have one; --verbose says which. */
void session_make_pads(session *s);
/*
 * Before tid's arrival at bp (any site: a pad's, an int3's, a library's)
 * is decided: its passes through every pad whose gates meet bp's, to the
 * decider, so that a gate's count is its hits at all its sites.
 */
void session_pads_before(session *s, pid_t tid, const plan_bp *bp);
/* After it: how far tid may pass those pads unseen. */
void session_pads_after(session *s, pid_t tid, const plan_bp *bp);
/* Before the pad at bp (the executable's) is turned off: every thread's
 * passes through it so far. */
void session_pad_sync_all(session *s, const plan_bp *bp);
/* A thread is gone: its passes through every pad count still. */
void session_pads_thread_gone(session *s, pid_t tid);
/* Sites whose code the program rewrote over racegate's (tracer_rewrites):
 * a warning of the run each. */
void session_say_rewrites(session *s);

/* After the spawn: the breakpoints armed, the first thread known. */
void session_started(session *s);
/* The first thread started, the loop run to the end of the program (or
 * to the snapshot), its output and record taken. */
void session_go(session *s);

/* session_spawn.c.  Starts the program, its output piped when captured
 * (0; -1 with res->note set). */
int session_spawn(session *s);
/* Takes what is in the pipe *fd into b (and racegate's fd to, with
 * passthrough); closes *fd (-1) at its end. */
void session_drain(session *s, int *fd, rg_buf *b, int to);
/* After the exit, what is left in the pipes (bounded: a detached child of
 * the program may keep them open). */
void session_finish_output(session *s);

#endif
