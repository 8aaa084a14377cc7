/*
 * plan: a spec turned into the places racegate arms in a program.  It
 * resolves every gate's location in the program's objects (dwarf/), keeps
 * each place as a site (an object and a link-time address in it), and
 * turns sites into run-time addresses through one run's bias table.
 *
 *   plan.c     spec + program -> breakpoint plan (addresses -> gates)
 *   sites.c    a gate's site, each run's bias table, and the reverse: the
 *              object at a run-time address
 *   objects.c  gates in shared objects: pending until they map (objects.h),
 *              and the libraries a program links, in ld.so's order
 *   returns.c  FUNCTION:return: per-thread, per-frame return breakpoints
 *   conds.c    when: conditions, parsed per gate, compiled per site (conds.h)
 *   starts.c   what a new thread runs, for {start:} (std::thread too)
 *
 * It knows specs/, dwarf/, expr/ and the tracer's view of a process (maps,
 * the dynamic linker's list); nothing of a session, a decider or a report.
 */
#ifndef RACEGATE_PLAN_H
#define RACEGATE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "dwarfx.h"
#include "msg.h"
#include "spec.h"

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

/*
 * FILE is not in the program: the libraries it is linked with, in the
 * order ld.so loads them, as check and run look (objects.c); the first that
 * has FILE calls fn as dwarfx_lines does.  Returns as dwarfx_lines; *lib is
 * that library (the caller frees it: what fn was shown points into it), or
 * NULL.
 */
int plan_lines_in_libs(const char *program, const char *file, int from, int to,
		      const char *source_dir, dwarfx_line_fn fn, void *arg,
		      dwarfx **lib, rg_err *err);
void plan_release(plan *p);
const plan_bp *plan_find(const plan *p, uint64_t link_addr);
/* The first breakpoint (by address) that gate g has, or NULL. */
const plan_bp *plan_gate_bp(const plan *p, size_t g);

#endif
