/*
 * What session.c shares with the files that take a concern of its own off
 * it (session_pads.c: the jump pads of the gate sites): the
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
	/* the jump pads made (session_pads.c), in any object; NULL: none may be */
	struct spad *pads;
	size_t npads, pads_cap;
	size_t *pad_leads, npad_leads, pad_leads_cap; /* indices in pads: those leading */
	/* arrival site (plan_bp pointer) -> its leading pads whose gates meet
	 * its own (an index in pad_peers); forgotten when a pad comes or goes */
	rg_intmap pad_peer_ix;
	struct pad_peers {
		size_t *v, n;
	} *pad_peers;
	size_t npad_peers, pad_peers_cap;
	/* the threads stopped for a library's pads (tracer_stop_all), or why
	 * they could not be */
	pid_t *pads_stopped;
	size_t npads_stopped;
	const char *pads_stop_why;
	/* session_snapshot: the run stops at the program's entry point
	 * (snapped), or cannot (snap_why) */
	bool snap, snapped;
	const char *snap_why;
	bool copy;             /* session_run_copy: a copy runs, the template
				  holds its output pipes open */
};
#define PAD_LEAD_NONE ((size_t)-1)

/* A gate site with a jump pad (session_pads.c). */
struct spad {
	const plan_bp *bp;
	const plan *pl;        /* its image: the program's, or a child's since its exec */
	uint64_t addr;         /* run-time */
	size_t lead;           /* the pad whose slots it reads (an index in pads) */
};

/* Is a one of the program's pthread_create addresses (racegate's own breakpoint)? */
bool session_is_ptc(const session *s, uint64_t a);

/* ---- session_pads.c ---- */

/* Do bps a and b share a gate? */
bool session_gates_meet(const plan_bp *a, const plan_bp *b);

/* At the exec stop (one thread, stopped), or attached (every thread
 * stopped): a pad for each of the executable's gate sites that may have
 * one; --verbose says which.  Then a library's sites as it maps. */
void session_make_pads(session *s);
/* run_locs' sites in a shared object: armed (a pad, if one may be made
 * now), or about to go with their object (their pads forgotten). */
void session_pads_site(void *ctx, const plan_bp *bp, uint64_t at, bool armed);
/* A followed child ran exec: pads for img's sites there (its one thread stopped). */
void session_pads_exec(session *s, pid_t pid, plan *img, const run_bias *bt);
/*
 * Before tid's arrival at bp (any site: a pad's, an int3's, a library's)
 * is decided: its passes through every pad whose gates meet bp's, to the
 * decider, so that a gate's count is its hits at all its sites.
 */
void session_pads_before(session *s, pid_t tid, const plan_bp *bp);
/* After it: how far tid may pass those pads unseen. */
void session_pads_after(session *s, pid_t tid, const plan_bp *bp);
/* Before the pad at bp is turned off: every thread's passes through it
 * so far. */
void session_pad_sync_all(session *s, const plan_bp *bp);
/* A thread is gone: its passes through every pad count still. */
void session_pads_thread_gone(session *s, pid_t tid);
/* Every thread's passes through every pad so far, to the decider (at a let-go). */
void session_pads_sync_every(session *s);
void session_pads_free(session *s);
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
