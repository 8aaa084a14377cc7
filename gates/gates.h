/*
 * gates: the gate engine.  Pure logic, no ptrace, no clock of its own.
 *
 * It is told about threads (started, named, exited) and arrivals (thread T
 * is about to execute the location shared by gates G1..Gn), and answers
 * hold or pass for the arriving thread.  Everything it decides is reported
 * through gate_hooks.note, in the order it happens: opened events, holds,
 * releases of other threads, alias bindings.  The caller acts on RELEASE
 * notes by restarting that thread.
 *
 * Semantics are those of docs/gates.md ("How it works"): on each arrival, the
 * matching gates at the location merge their actions: every open, then every
 * wait, every barrier, every then_open.  then_open means "I have got past":
 * the engine keeps it pending when the thread is released (or passes) and
 * opens it when the caller says, with gate_passed(), that the thread has
 * finished the gated line (docs/gates.md says why).
 *
 * Time is given by the caller (milliseconds from the start of the run), so
 * tests drive the engine with synthetic arrivals and synthetic time.
 */
#ifndef RACEGATE_GATES_H
#define RACEGATE_GATES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "spec.h"

typedef struct gate_engine gate_engine;

enum gate_note_kind {
	GATE_NOTE_ARRIVE,   /* tid arrived at gate and its filters matched (the gate is "reached") */
	GATE_NOTE_OPEN,     /* event opened by tid (at gate, or gate -1 for built-ins) */
	GATE_NOTE_HOLD,     /* tid is held at gate; text says what it waits for */
	GATE_NOTE_RELEASE,  /* tid, held at gate, is released (held_ms says how long) */
	GATE_NOTE_TIMEOUT,  /* tid, held at gate, is released because the gate's timeout expired */
	GATE_NOTE_BIND,     /* alias bound to tid */
};

typedef struct gate_note {
	enum gate_note_kind kind;
	double t_ms;            /* the time given with the call that caused it */
	pid_t tid;
	int gate;               /* index into spec->gates, or -1 */
	const char *event;      /* OPEN: the event's name */
	const char *alias;      /* BIND: the alias */
	const char *text;       /* HOLD: "waiting for a, b" / "at barrier 'x' (1 of 2)";
				 * ARRIVE: why the gate cannot hold, when it waits or
				 * has a barrier: "a already open since +2.030 ms",
				 * "barrier 'x' already fired at +1.500 ms"; else NULL */
	double held_ms;         /* RELEASE, TIMEOUT */
	/* OPEN also has text when an open_when_blocked opened it:
	 * GATE_WHY_BLOCKED or GATE_WHY_EXITED; else NULL */
} gate_note;

#define GATE_WHY_BLOCKED "blocked in a system call"
#define GATE_WHY_EXITED "exited before it blocked"

/*
 * The note hook may query the engine but must not call its mutating
 * functions (arrive, tick, thread_*, release_all): queue the work instead.
 */
typedef struct gate_hooks {
	void *ctx;
	void (*note)(void *ctx, const gate_note *note);
	/*
	 * A gate's `when:` condition (spec_gate.when), asked lazily: only for
	 * a gate that is not done and whose thread: and hit: filters matched
	 * this arrival, in file order, while the arrival is being decided
	 * (an alias bound by an earlier gate at the location is already
	 * bound).  hit is tid's pass count at the gate's location, this pass
	 * included (1 on the first): $hit.  The gate applies only when it
	 * returns true.  NULL: every condition is true.  Same rule as note:
	 * query the engine (gate_thread_is), never mutate it.
	 */
	bool (*when)(void *ctx, pid_t tid, size_t gate, unsigned long hit);
	/*
	 * Does a thread whose start routine is start (as gate_thread_started
	 * was told it) match a selector's {start: want}, as the spec wrote it?
	 * Asked when the thread starts, once per distinct want of the spec;
	 * the answer stands for the thread's life.  The caller knows the
	 * program's names (a C++ lambda by its line, "operator()", parameter
	 * types).  NULL: the engine's own rule, want is start or a tail of it
	 * after "::", with or without start's parameter list.
	 */
	bool (*start_is)(void *ctx, const char *want, const char *start);
} gate_hooks;

/*
 * Makes an engine for sp (which must outlive it).  The spec is assumed
 * valid (specs/ validated it).
 */
gate_engine *gate_engine_new(const spec *sp, const gate_hooks *hooks);
void gate_engine_free(gate_engine *e);

/*
 * A thread exists.  Call in creation order, before its first arrival.
 * start is its start routine's name (NULL if unknown); is_main for the
 * initial thread.  Binds threads: aliases whose selectors match and opens
 * started:ALIAS.
 */
void gate_thread_started(gate_engine *e, pid_t tid, const char *start,
			 bool is_main, double t_ms);

/*
 * The process a thread lives in, for process: (docs/gates.md, "Processes").
 * A thread told of through gate_thread_started is in the main process.
 */
typedef struct gate_proc {
	int nth;               /* 0: the main process; K: the K-th child process (tree order) */
	const char *exe;       /* file name of the image it runs, or NULL */
	bool initial;          /* the process's initial thread */
} gate_proc;

/*
 * gate_thread_started for a thread of any process: a gate without
 * process: (and whose thread: names no process) acts in the main process
 * only, selectors without process: select threads of the main process only,
 * so a spec that names no process behaves as before.  proc is copied.
 */
void gate_thread_started_in(gate_engine *e, pid_t tid, const char *start,
			    bool is_main, const gate_proc *proc, double t_ms);

/*
 * The thread's process runs the executable exe now (it called exec); may
 * bind selectors with process: {exe:}.  Nothing when exe is what it was.
 */
void gate_thread_exe(gate_engine *e, pid_t tid, const char *exe, double t_ms);

/*
 * {runs: F}: the caller found F (a selector's runs: text) on tid's stack
 * as it arrived: tid runs F from now on, for good.  May bind aliases.
 * Call before gate_arrive for that arrival, so that it counts already.
 */
void gate_thread_runs(gate_engine *e, pid_t tid, const char *runs, double t_ms);

/*
 * The runs: texts whose functions the caller should look for on tid's
 * stack before its arrival at gates[0..n) goes to gate_arrive (n: as
 * there): those tid is not known to run yet that a threads: alias not yet
 * bound selects by, or a live gate among gates[0..n) names inline.  *out is
 * malloc'd (owned strings are the spec's); 0 (and *out NULL) when none,
 * which is the common case and costs nothing.
 */
size_t gate_runs_wanted(const gate_engine *e, pid_t tid, const size_t *gates, size_t n,
			const char ***out);

/* The thread's name (comm) is now name; may bind {name:} selectors. */
void gate_thread_named(gate_engine *e, pid_t tid, const char *name, double t_ms);

/*
 * The thread is gone: opens exited:ALIAS; forgets it if it was held (its
 * then_open never opens); opens the then_open of arrivals it was released
 * from but had not got past (gate_pass_depth).
 */
void gate_thread_exited(gate_engine *e, pid_t tid, double t_ms);

/*
 * tid is about to execute the location of gates[0..n-1] (indices into
 * spec->gates, ascending = file order).  Applies filters (thread, hit, once,
 * then when through the hook) and the merged actions.  Every pass is
 * counted per thread and gate for hit: and $hit, whatever the filters say.  Returns true when tid must be held (stay
 * stopped until a RELEASE or TIMEOUT note names it), false when it passes.
 */
bool gate_arrive(gate_engine *e, pid_t tid, const size_t *gates, size_t n,
		 double t_ms);

/*
 * then_open.  When tid is released from an arrival, or passes one, whose
 * gates have then_open, their events are kept pending (a set is pushed) and
 * gate_pass_depth(tid) grows by one.  The caller watches the thread until it
 * has finished the gated line and then calls gate_passed, which opens the
 * events of the innermost pending set (sets nest when a gated line calls a
 * function with a gate of its own) and whatever that releases.  Calling it
 * at once gives "open when released".
 */
void gate_passed(gate_engine *e, pid_t tid, double t_ms);
size_t gate_pass_depth(const gate_engine *e, pid_t tid);

/*
 * open_when_blocked.  When tid goes on from an arrival (passes, or is
 * released) whose gates have open_when_blocked, their events wait for it
 * to block: the caller, which watches the threads gate_blocking() lists,
 * calls gate_blocked() once tid sleeps in a system call (not stopped by
 * the tracer), which opens every pending one of tid's and what that
 * releases (OPEN notes with text GATE_WHY_BLOCKED).  The thread's exit
 * opens them too (GATE_WHY_EXITED).  A later arrival's set joins the
 * pending one: the next block opens both.
 */
void gate_blocked(gate_engine *e, pid_t tid, double t_ms);
/* The threads with open_when_blocked pending (*tids malloc'd, NULL when
 * none; O(1) then). */
size_t gate_blocking(const gate_engine *e, pid_t **tids);

/*
 * Releases threads whose gate timeout expired by t_ms.  Returns the time of
 * the next gate deadline (ms), or -1 when none is pending.
 */
double gate_tick(gate_engine *e, double t_ms);

/* Releases every held thread, oldest hold first (on_deadlock: release). */
void gate_release_all(gate_engine *e, double t_ms);

/* Number of threads currently held. */
size_t gate_nheld(const gate_engine *e);
bool gate_is_held(const gate_engine *e, pid_t tid);

/* Did gate i ever match an arrival?  Was any of its holds ended by timeout? */
bool gate_reached(const gate_engine *e, size_t i);
bool gate_timed_out(const gate_engine *e, size_t i);

/* Could gate i still act on a future arrival?  (false: once and done, etc.) */
bool gate_live(const gate_engine *e, size_t i);

/*
 * Label for reports: the alias bound to tid, "main", "START#K" (the K-th
 * thread whose start routine is START, without its parameter list), or
 * "thread#K".
 */
const char *gate_thread_label(const gate_engine *e, pid_t tid);

/*
 * Does gate i's thread filter select tid, as the engine knows the thread
 * now (an exited thread too)?  hit: and once: are not looked at.
 */
bool gate_selects(const gate_engine *e, size_t i, pid_t tid);

/*
 * Is alias bound to tid?  ("main" is the initial thread even when no gate
 * binds it.)  False for an unknown alias or thread: `$thread == ALIAS`.
 */
bool gate_thread_is(const gate_engine *e, pid_t tid, const char *alias);

/* Is the alias (of threads: or as:) bound to a thread?  False when unknown. */
bool gate_alias_bound(const gate_engine *e, const char *alias);

/*
 * Could live gate i's thread filter still pick a thread racegate cannot
 * name now: `any`, "!ALIAS", an unbound alias, an inline selector without
 * nth (or with name), or whose nth thread is not created yet?  Then any
 * thread that can move might reach it (gate_needs: anyone).
 */
bool gate_open_ended(const gate_engine *e, size_t i);

/*
 * For a pass-through fast path (the tracer's jump pads): how many of tid's
 * next arrivals at the location of gates[0..n) (as for gate_arrive) can
 * pass without the engine noting anything, so need not reach gate_arrive;
 * the one after them must.  GATE_PASS_FOREVER: none ever needs to, as the
 * engine knows the gates now.  0 for a thread the engine does not know, a
 * held one, a gate whose filters match every arrival (no hit:), a when:
 * gate whose thread: and hit: match (the condition is not looked at), and
 * a gate whose thread filter does not select tid now but could later pick
 * a thread it cannot name now (gate_open_ended), and while gate_runs_wanted
 * lists something for tid there (its stack must be looked at): a count that
 * is only ever too small errs toward one more arrival, never one less.
 * Pure query.
 */
#define GATE_PASS_FOREVER ((unsigned long)-1)
unsigned long gate_next_interest(const gate_engine *e, pid_t tid, const size_t *gates,
				 size_t n);

/*
 * For a fast path that evaluates a gate's when: condition in the thread: do
 * tid's arrivals at the location of gates[0..n) matter only when one gate's
 * condition holds?  True, and *when is that gate, when it is the only gate
 * there with an interest in tid (gate_next_interest gives 0): a when: gate
 * without hit:, not done, that selects tid, every other gate there letting
 * tid pass for ever.  An arrival whose condition is false is then counted
 * (gate_count_passes) and nothing else; one whose condition holds (or
 * cannot be computed) must reach gate_arrive.  false otherwise (also for
 * an unknown or held thread).  Pure query.
 */
bool gate_next_when(const gate_engine *e, pid_t tid, const size_t *gates, size_t n,
		    size_t *when);

/*
 * tid made k arrivals at the location of gates[0..n) that were not given to
 * gate_arrive (passed in a pad, after gate_next_interest allowed them):
 * counted for hit: and $hit as gate_arrive would have.  Nothing else
 * changes.  Unknown or held tid: nothing is counted.
 */
void gate_count_passes(gate_engine *e, pid_t tid, const size_t *gates, size_t n,
		       unsigned long k);

/* Is event open? */
bool gate_event_open(const gate_engine *e, const char *event);

/*
 * Describes why tid is held ("waiting for reader-stored" / "at barrier ...")
 * and at which gate; returns NULL when tid is not held.  Owned by e.
 */
const char *gate_hold_reason(const gate_engine *e, pid_t tid, int *gate);

/*
 * One thing a held thread still needs, for the wait-for graph (waitfor.h):
 * a closed event it waits for, or a barrier it is counted at that has not
 * fired.  by[] are the live threads the engine knows that could meet it:
 * those a live gate opening the event (open or then_open) or counting at
 * the barrier selects, those with the event's then_open pending (or to
 * come when their hold ends), the thread whose exit opens exited:ALIAS.
 * anyone: a thread not known now could meet it too (a selector that is
 * `any`, "!ALIAS", an unbound alias, {start:} without nth or before its nth
 * thread, {name:}, {runs:}, or
 * started:ALIAS), so any thread that can move might: by[] then need not
 * list the threads such a gate selects.
 */
typedef struct gate_need {
	const char *event;     /* the closed event (owned by the engine), or NULL */
	const char *barrier;   /* else the barrier's name (owned by the spec) */
	int missing;           /* barrier: arrivals still missing */
	int gate;              /* the first live gate that could meet it, or -1 */
	pid_t *by;             /* malloc'd, no duplicates */
	size_t nby;
	bool anyone;
} gate_need;

/*
 * What held thread tid still needs (*out, malloc'd, in the order of its
 * waits, then its barriers); 0 and *out NULL when it is not held.  Free
 * with gate_needs_free.
 */
size_t gate_needs(const gate_engine *e, pid_t tid, gate_need **out);
void gate_needs_free(gate_need *v, size_t n);

#endif
