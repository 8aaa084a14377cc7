/*
 * gates: the engine's internals, shared by its files: gates.c (construction,
 * holds, releases, arrivals) and queries.c (what the engine answers about
 * itself, and the wait-for graph's view of it).  Not for other modules.
 */
#ifndef RACEGATE_GATES_INT_H
#define RACEGATE_GATES_INT_H

#include <stdint.h>

#include "gates.h"
#include "gmap.h"
#include "intmap.h"
#include "msg.h"

#define NONE ((size_t)-1)

enum stage {
	STAGE_NONE = 0,
	STAGE_WAIT,     /* held until every event in wait[] is open */
	STAGE_BARRIER,  /* held until every barrier in bars[] has fired */
};

/* A thread's place in a list, valid while that arrival's hold lasts. */
struct ref {
	struct gate_thread *th;
	unsigned long serial;
};

struct event {
	char *name;
	bool open;               /* a latch: never closes again */
	double opened_at;        /* when it opened (ms) */
	struct ref *waiters;     /* threads held with this event among their waits */
	size_t nwaiters, capwaiters;
	unsigned long stamp;     /* last arrival that listed it: dedups waits */
};

struct barrier {
	const char *name;        /* barrier_name, or the gate's name when anonymous */
	int count;
	int arrived;             /* counted and still there (exits and timeouts leave) */
	bool fired;              /* one-shot: once fired, arrivals pass */
	double fired_at;         /* when it fired (ms) */
	struct ref *counted;
	size_t ncounted, capcounted;
};

struct alias {
	char *name;
	const spec_selector *sel;  /* from threads:, or NULL when only as: binds it */
	struct gate_thread *th;    /* bound thread; bound once, never rebound */
	size_t started, exited;    /* its built-in events */
};

/*
 * The threads matching one {start, name, tid} selector, in creation order,
 * so that {..., nth: K} is members[K-1]: O(1) per arrival instead of a count
 * over every thread.  Classes without name: change only at thread start;
 * those with name: also when a thread is renamed.
 */
struct tclass {
	char *key;
	size_t start, runs;        /* index in e->sel_starts / e->sel_runs, or NONE */
	const char *name;          /* borrowed from the spec */
	long tid;
	const spec_process *proc;  /* borrowed from the spec */
	bool initial;              /* a process's initial thread only */
	size_t *m;                 /* thread seqs, ascending */
	size_t n, cap;
	size_t *aliases;           /* threads: aliases using this selector */
	size_t naliases, capaliases;
};

/* The classes a thread could join, found from one of its properties. */
struct route {
	char *key;                 /* "s:START", "r:RUNS", "n:NAME", "t:TID" or "*" */
	size_t *cls;
	size_t n, cap;
};

struct gate_thread {
	pid_t tid;
	size_t seq;                /* creation rank, index in e->threads */
	char *start;               /* start routine, or NULL */
	bool *start_is;            /* per e->sel_starts: its start routine is what
				      that {start:} names (fixed at its start) */
	bool *runs;                /* per e->sel_runs: it ran that function at an
				      arrival (gate_thread_runs; kept for good) */
	char *name;                /* current comm, or NULL */
	char *label;               /* "main", "worker#2", "thread#1", "process#1" */
	bool is_main;
	int proc_nth;              /* its process: 0 main, K the K-th child process */
	char *exe;                 /* the image its process runs, or NULL */
	bool proc_initial;         /* its process's initial thread */
	bool exited;
	size_t alias;              /* first alias bound to it (its label), or NONE */
	size_t *aliases;           /* every alias bound to it: exited:ALIAS */
	size_t naliases, capaliases;

	/* The arrival in progress, kept while held: the gates that matched. */
	unsigned long serial;
	size_t *ar;
	size_t nar, capar;

	bool held;                 /* stopped at a gate until a RELEASE/TIMEOUT note */
	enum stage stage;
	double since;              /* start of the hold, for held_ms and timeouts */
	int gate;                  /* the gate named in its HOLD/RELEASE notes */
	size_t *wait;              /* events waited for (deduped), open or not */
	size_t nwait, capwait;
	size_t remaining;          /* of those, still closed */
	size_t *bars;              /* gates through which it was counted at a barrier */
	size_t nbars, capbars;

	/*
	 * then_open still to come: the gates of released arrivals whose line
	 * the thread has not got past yet (gate_passed).  A stack of sets:
	 * pass[marks[k]..] is set k; a gated line inside a function called
	 * from another gated line pushes a second set, which passes first.
	 */
	size_t *pass;
	size_t npass, cappass;
	size_t *marks;
	size_t nmarks, capmarks;

	/*
	 * open_when_blocked still to come: gates of arrivals it went on from
	 * whose events open when it next sleeps in a system call (gate_blocked)
	 * or exits.  One set: the next block opens them all.
	 */
	size_t *blk;
	size_t nblk, capblk;
};

struct gate {
	const spec_gate *sp;
	size_t *open, *wait, *then_open;  /* event indices, parallel to sp's lists */
	size_t *on_block;          /* open_when_blocked's, the same way */
	size_t sel_alias;          /* SPEC_SEL_ALIAS / NOT_ALIAS, or NONE */
	size_t sel_start, sel_runs;/* SPEC_SEL_MATCH: its start:/runs: in e->sel_starts
				      / e->sel_runs, or NONE */
	struct tclass *cls;        /* SPEC_SEL_MATCH with nth, or NULL */
	const spec_process *proc;  /* processes it acts in, or NULL: its selector says */
	size_t as;                 /* alias bound by as:, or NONE */
	size_t barrier;            /* or NONE */
	bool reached, timed_out;
	bool done;                 /* once: and it has acted */
};

struct deadline {
	double at;
	unsigned long serial;
	struct gate_thread *th;
	int gate;
};

struct startcount {
	char *name;
	int n;
};

struct bindreq {
	size_t alias;
	struct gate_thread *th;
};

struct gate_engine {
	const spec *sp;
	gate_hooks hooks;

	struct gate *gates;
	size_t ngates;

	struct event *events;
	size_t nevents, capevents;
	gate_strmap event_ix;

	struct alias *aliases;
	size_t naliases, capaliases;
	gate_strmap alias_ix;
	size_t *main_aliases;
	size_t nmain, capmain;

	struct barrier *barriers;
	size_t nbarriers, capbarriers;
	gate_strmap barrier_ix;    /* named barriers only */

	/* the distinct start: and runs: texts of the spec's selectors (selectors.c) */
	const char **sel_starts;   /* borrowed from the spec */
	size_t nsel_starts, capsel_starts;
	const char **sel_runs;
	size_t nsel_runs, capsel_runs;

	struct tclass **classes;
	size_t nclasses, capclasses;
	gate_strmap class_ix;
	struct route *routes;
	size_t nroutes, caproutes;
	gate_strmap route_ix;

	struct gate_thread **threads;
	size_t nthreads, capthreads;
	rg_intmap tid_ix;        /* tid -> latest thread with it (tids get reused) */
	struct startcount *starts;
	size_t nstarts, capstarts;
	gate_strmap start_ix;
	int nanon;                 /* threads with no known start routine */

	rg_intmap hits;          /* (thread seq, gate) -> arrivals, for hit: and when: gates */

	struct ref *queue;         /* threads whose waits have all opened */
	size_t nqueue, capqueue;
	struct deadline *heap;     /* gate timeouts, earliest first */
	size_t nheap, capheap;
	struct bindreq *binds;
	size_t nbinds, capbinds;

	unsigned long serial;
	unsigned long stamp;
	size_t nheld;
	size_t nblocking;          /* threads with open_when_blocked pending (nblk > 0) */

	/*
	 * Separate allocations so that gate_hold_reason(), which gets a const
	 * engine, can still format into its buffer.  Two of them so that a note
	 * hook asking for a hold reason does not overwrite the note's text.
	 */
	rg_buf *notebuf;
	rg_buf *reasonbuf;
};

struct gate_thread *gi_thread_find(const gate_engine *e, pid_t tid);
/* Does gate g's thread filter (and process filter) select th? */
bool gi_sel_match(const gate_engine *e, const struct gate *g, const struct gate_thread *th);
/* ---- selectors.c: what start:, runs:, name: and tid: pick ---- */

/* The index of a start: / runs: text in e->sel_starts / e->sel_runs (added
 * when new), or NONE for NULL. */
size_t gi_start_intern(gate_engine *e, const char *start);
size_t gi_runs_intern(gate_engine *e, const char *runs);
/* Fills th->start_is (th->start set): through the start_is hook, else the
 * engine's own rule. */
void gi_thread_starts(gate_engine *e, struct gate_thread *th);
/* Do start:, runs:, name: and tid: (indices as above, NULL, 0: not given) pick th? */
bool gi_base_match(const gate_engine *e, size_t start, size_t runs, const char *name,
		   long tid, const struct gate_thread *th);
/* A start routine's name without its parameter list ("Worker::run(int)" ->
 * "Worker::run"), for labels (malloc'd). */
char *gi_start_label(const char *start);
/* Would th's next arrival at gates[0..n) bind or select by runs: something
 * it is not known to run yet?  The runs: indices into *out (malloc'd). */
size_t gi_runs_wanted(const gate_engine *e, const struct gate_thread *th,
		      const size_t *gates, size_t n, size_t **out);

/* Is any of the events ev[0..n) closed? */
bool gi_any_closed(const gate_engine *e, const size_t *ev, size_t n);
/* Why th is held, in words, into b. */
void gi_format_reason(const gate_engine *e, const struct gate_thread *th, rg_buf *b);
/* Was th counted at barrier bi by its current hold? */
bool gi_counted_at(const gate_engine *e, const struct gate_thread *th, size_t bi);

#endif
