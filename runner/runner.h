/*
 * runner: the only module that knows all the others.  It loads a spec,
 * resolves its locations in the program, runs the program under the tracer
 * with the gate engine deciding, judges each run against `expect`, and
 * reports.
 *
 *   main.c     the racegate executable; everything else is rg_runner
 *   cli.c      command line, --help, exit status (cli.h)
 *   plan.c     spec + program -> breakpoint plan (addresses -> gates)
 *   run.c      one run: a session with the gate engine deciding, judged
 *   attach.c   racegate attach: the process's program, and the outcome of
 *              an attach (the session attaches: run_opts.attach_pid)
 *   session.c  one traced program and its event loop, for every driver (session.h);
 *              session_pads.c the jump pads of its gate sites (session_int.h)
 *   decide_gates.c  the gate engine as the session's decider (decide_gates.h)
 *   objects.c  gates in shared objects: pending until they map (objects.h)
 *   sites.c    a gate's site (object, link-time address), each run's bias
 *              table, and the reverse: the object at a run-time address
 *   returns.c  FUNCTION:return: per-thread, per-frame return breakpoints
 *   past.c     then_open: watching a thread get past its line; thread names
 *   starts.c   what a new thread runs, for {start:} (std::thread too)
 *   diagnose.c stuck runs: the stall watch and the per-thread diagnosis
 *   judge.c    outcome of a run from its result and the spec's expectations
 *   batch.c    --repeat, tallies; jobs.c: --jobs workers; interrupt.c: signals
 *   report.c   timeline and summaries; report_*.c: JSON, JUnit, TAP, trace
 *   lines.c    racegate lines
 *   explore.c  racegate explore: the search, the shrinker, the summary
 *              (explore.h); explore_repro.c its files, replayed before they
 *              are kept; decide_explore.c the serialising scheduler as the
 *              session's decider; explore_strategy.c random, PCT, DFS;
 *              explore_write.c the gates file's and the Markdown report's text
 */
#ifndef RACEGATE_RUNNER_H
#define RACEGATE_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "dwarfx.h"
#include "msg.h"
#include "spec.h"

/* Exit status of racegate, as racegate(1) says under EXIT STATUS. */
enum {
	RG_EXIT_OK = 0,        /* every run met its expectation */
	RG_EXIT_UNMET = 1,     /* some run did not */
	RG_EXIT_SETUP = 2,     /* usage, spec or setup error */
	RG_EXIT_ENFORCE = 3,   /* the schedule could not be enforced in some run */
	RG_EXIT_SIGNAL = 128,  /* + N: the session was interrupted by signal N */
};

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

const char *run_outcome_name(enum run_outcome o);

/* The executable, as the object of a site (rg_site.obj). */
#define PLAN_EXE ((size_t)-1)

/*
 * A place in the program's code: an object and a link-time address in it,
 * as that object's ELF file and debug information have it.  Objects map at
 * another place every run; only the run's bias table (run_bias) turns a
 * site into a run-time address, and nothing else converts.
 */
typedef struct rg_site {
	size_t obj;            /* PLAN_EXE, or an index into plan.objs */
	uint64_t link_addr;    /* link-time address in that object */
} rg_site;

/* One gate location in the program. */
typedef struct plan_bp {
	rg_site site;          /* where it is (plan.bps: always the executable) */
	size_t *gates;         /* indices into spec->gates, ascending */
	size_t ngates;
	char *where;           /* "file.c:12" for reports */
	char *function;        /* or NULL */
} plan_bp;

typedef struct plan {
	const spec *sp;
	char *exe;             /* program path as run (argv[0] resolved) */
	char **argv;           /* NULL-terminated */
	dwarfx *dx;            /* the executable */
	plan_bp *bps;          /* the executable's own, sorted by site.link_addr */
	size_t nbps;
	uint64_t *pthread_create_addrs; /* link-time, when the executable has its own (static) */
	size_t npthread_create;
	struct plan_obj *objs; /* shared objects met in runs, opened once per session */
	size_t nobjs;
	struct plan_locs *locs; /* gates outside bps: shared objects, returns (objects.h) */
	const char *source_dir; /* --source-dir (regex anchors): set before plan_build, kept */
	struct plan **images;  /* images followed children exec (plan_image), kept */
	size_t nimages;
	struct plan_conds *conds; /* when: conditions, compiled per site (conds.h) */
	struct plan_sels *sels; /* thread selectors' start: and runs: (selectors.h) */
} plan;

/*
 * A shared object of the program, by path (symbols for start routines,
 * gates in it).  plan.objs only grows during a session, so an index into
 * it names one object for as long as the plan lives.
 */
struct plan_obj {
	char *path;            /* canonical */
	dwarfx *dx;            /* NULL when it could not be read */
};

/*
 * One run's object -> load bias table (bias = where the object is mapped
 * minus where it was linked): the executable's, found at the exec stop, and
 * each shared object's while it is mapped (objects.c follows the dynamic
 * linker).  The one place where a site becomes a run-time address.
 */
typedef struct run_bias {
	uint64_t exe;          /* the executable's load bias */
	uint64_t *obj;         /* per plan.objs index */
	bool *mapped;          /* per plan.objs index: obj[i] is valid */
	size_t n;
} run_bias;
#define RUN_BIAS_INIT {0, NULL, NULL, 0}

/* Object obj (an index into plan.objs) is mapped at bias, or no longer (unmap). */
void run_bias_map(run_bias *b, size_t obj, uint64_t bias);
void run_bias_unmap(run_bias *b, size_t obj);
/* Is the object of s mapped in this run? */
bool run_bias_mapped(const run_bias *b, rg_site s);
/* The run-time address of s; its object must be mapped (rg_bug if not). */
uint64_t run_bias_addr(const run_bias *b, rg_site s);
/* The executable's site at run-time address addr (which may lie outside it). */
rg_site run_bias_exe_site(const run_bias *b, uint64_t addr);
void run_bias_release(run_bias *b);

/*
 * The reverse of run_bias_addr, for addresses the program hands over (a
 * start routine, a vtable pointer, a backtrace's PC) rather than sites
 * racegate armed: the object mapped at run-time address a (opened through
 * plan_object) and a's link-time address in it.  maps are the program's
 * mappings now (tracer_maps); exe_bias tells the executable from the
 * libraries.  With anon_is_exe, an address no file backs counts as the
 * executable's (the end of its .bss, where a program's globals are).  False
 * when nothing readable is mapped there.
 */
struct tracer_map;
bool run_site_at(plan *p, const struct tracer_map *maps, size_t n, uint64_t exe_bias,
		 bool anon_is_exe, uint64_t a, rg_site *out);
/*
 * The same in a process that runs an executable p does not describe (a
 * followed child after an exec that no gate names): every file mapped
 * there, its executable too, is an object of p's opened by its path, never
 * PLAN_EXE; memory no file backs is none.
 */
bool run_site_in_files(plan *p, const struct tracer_map *maps, size_t n, uint64_t a,
		       rg_site *out);

/* The object of s (its dwarfx), or NULL when it could not be read. */
dwarfx *plan_site_dx(const plan *p, rg_site s);
/* "libfoo.so+0x1139" (the executable: "0x1139"), malloc'd: reports and check. */
char *plan_site_str(const plan *p, rg_site s);

/*
 * Says each line table row dwarfx left out since the last call (a row off
 * an instruction boundary): as a warning of the spec at pos when d is not
 * NULL, else on stderr.
 */
void plan_warn_dropped(dwarfx *dx, spec_diags *d, const spec_pos *pos);

/*
 * The last defence before an int3 goes in: link_addr (in dx) must start an
 * instruction.  dwarfx_resolve refuses every other address, so one here is
 * a bug (rg_bug), never a corrupted program.
 */
void plan_assert_boundary(dwarfx *dx, uint64_t link_addr);

/* The object at path, opened on first use and kept; NULL if unreadable. */
dwarfx *plan_object(plan *p, const char *path);
/* The index in p->objs of the object at path (opened on first use as above). */
size_t plan_object_index(plan *p, const char *path);

/*
 * Builds the plan: finds the program (cmd_override or the spec's command,
 * relative to the spec's directory), opens its ELF/DWARF and resolves every
 * gate.  Problems are added to d as errors at the gate's position.
 */
int plan_build(plan *p, const spec *sp, char *const *cmd_override,
	       spec_diags *d, rg_err *err);

/*
 * Gates by image (process: {exe: NAME}, on the gate or its thread): is gate
 * i resolved in the executable exe?  A gate that names an executable is
 * resolved in that one only (when a followed process calls exec to run
 * it); the others in the program's (program: exe is the program).
 */
bool plan_gate_in_image(const spec *sp, size_t i, const char *exe, bool program);
/*
 * A plan for the image a followed child runs after exec: exe (a path) and
 * the gates that name it, its own breakpoints only (no shared objects, no
 * FUNCTION:return).  Problems go to d; -1 when it has errors (the plan
 * still holds what did resolve) or exe cannot be opened (err).
 */
int plan_build_image(plan *p, const spec *sp, const char *exe, const char *source_dir,
		     spec_diags *d, rg_err *err);
/*
 * The plan of image exe for the program's plan p: built (plan_build_image,
 * problems to d) on first use and kept with p, as reports point into it.
 * NULL when exe cannot be opened (err).
 */
plan *plan_image(plan *p, const char *exe, spec_diags *d, rg_err *err);

/* lines.c: `racegate lines FILE[:FROM-TO] -- PROGRAM` (argv[0] is "lines"). */
int cmd_lines(int argc, char **argv);
/*
 * FILE is not in the program: the libraries it is linked with, in the
 * order ld.so loads them, as check and run look (objects.c); the first that
 * has FILE calls fn as dwarfx_lines does.  Returns as dwarfx_lines; *lib is
 * that library (the caller frees it: what fn was shown points into it), or
 * NULL.
 */
int run_lines_in_libs(const char *program, const char *file, int from, int to,
		      const char *source_dir, dwarfx_line_fn fn, void *arg,
		      dwarfx **lib, rg_err *err);
void plan_release(plan *p);
const plan_bp *plan_find(const plan *p, uint64_t link_addr);

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

/* Runs the program once under the plan; always fills res (outcome ERROR on failure). */
void run_once(plan *p, const run_opts *o, run_result *res);
void run_result_release(run_result *res);

/* Sets res->outcome (and note) from what happened and the spec's expectations. */
void judge_run(const spec *sp, run_result *res, bool schedule_stuck,
	       bool order_infeasible, bool timed_out);

/* Does the spec need the program's output to judge a run? */
bool judge_needs_output(const spec *sp);
/*
 * Does x describe a bug (REPRODUCED when met) rather than a good run
 * (PASSED when met, FAILED when not)?  Exit 0, or no expect:, is a good run.
 */
bool judge_expects_bug(const spec_expect *x);
/* Does out (NULL: none) meet x's stdout: (true when it has none)? */
bool judge_stdout_met(const spec_expect *x, const char *out);
/* The gates that count and did not take hold, by name and why, or NULL. */
char *judge_unenforced(const spec *sp, const run_result *r);
/* Appends text (taken) to r's note ("a; b"). */
void judge_add_note(run_result *r, char *text);

/* Exit status for one outcome. */
int run_outcome_exit(enum run_outcome o);

void report_run(FILE *f, const spec *sp, const run_result *res, int run_no,
		int nruns, bool color);
void report_timeline(FILE *f, const run_result *res);

#endif
