/*
 * Gates in shared objects.
 *
 * A gate's location is looked for in the executable first.  When it is not
 * there (no such function, no such source file), the gate is *pending*: it
 * is resolved in each shared object as the object maps, with that object's
 * load bias, and armed then.  `in: libfoo.so` restricts the objects looked
 * at (and may name the executable).
 *
 * Objects map in two waves: the libraries the executable is linked with
 * (DT_NEEDED, mapped before its entry point) and those it opens later with
 * dlopen.  racegate learns of both as debuggers do, through the dynamic
 * linker's rendezvous: ld.so calls r_brk (_dl_debug_state) before and after
 * every change to its list of objects; at a call with r_state ==
 * RT_CONSISTENT the list (r_map, the link_map chain, which gives each
 * object's load bias as l_addr) is complete.  r_debug is found through
 * DT_DEBUG in the executable's dynamic section, which ld.so fills before
 * its first call.  The breakpoint on _dl_debug_state is armed at the exec
 * stop, so libraries are seen before their constructors run; without that
 * symbol, r_brk is read from r_debug at the entry point.
 *
 * `racegate check` runs nothing, so it looks in the libraries the
 * executable is linked with by reading them as ld.so would find them
 * (DT_NEEDED, DT_RPATH/DT_RUNPATH, LD_LIBRARY_PATH, /etc/ld.so.cache, the
 * default directories: dwarf/dwarfx_dyn.h; the link map itself is read by
 * tracer/linkmap.h): a location found in none of them is an error (a
 * typo); a gate for a library the program opens later with dlopen names it
 * with `in:`, and stays pending.
 */
#include "objects.h"
#include "selectors.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "conds.h"
#include "dwarfx_dyn.h"
#include "linkmap.h"

#define MAX_LIBS 512       /* objects in the static DT_NEEDED closure */
#define MAX_LINKMAP 4096   /* link_map entries walked per scan */

struct pl_loc {
	uint64_t addr;         /* link-time, in its object */
	const char *where;     /* interned in plan_locs */
	const char *function;  /* owned by the object's dwarfx, or NULL */
	const char *file;      /* as resolved (owned by the dwarfx), or NULL */
	int line;
};

/* A gate resolved outside plan->bps. */
struct pl_gate {
	size_t gate;           /* index into spec->gates */
	char *what;            /* resolved text: "*FN" for FN:return, else at: */
	const char *in;        /* the gate's in:, or NULL */
	const char *ret_where; /* "FN:return" (interned), or NULL for other gates */
	bool in_exe;           /* a return gate resolved in the executable: exe_locs */
	struct pl_loc *exe_locs;
	size_t nexe_locs;
	bool pending;          /* resolved in shared objects as they map */
	bool dead;             /* an error was reported: never armed */
};

/* Gate k of plan_locs resolved in one object, once per session. */
struct pl_res {
	const char *path;      /* interned */
	size_t k;
	int state;             /* 1 found, 0 not in this object, -1 error */
	struct pl_loc *locs;
	size_t nlocs;
	char *msg;             /* why not (state <= 0) */
	const char *suggest;   /* state 0: a near name the object has, or NULL */
};

struct plan_locs {
	struct pl_gate *g;
	size_t ng, capg;
	struct pl_res *res;
	size_t nres, capres;
	char **strs;           /* interned strings: the timeline points at them */
	size_t nstrs, capstrs;
	dwarfx_dyn exe;        /* the executable, read on first need */
	bool exe_read;
	char **libs;           /* static DT_NEEDED closure, canonical paths */
	size_t nlibs;
	bool libs_known;
};

/* ---- small helpers ---- */

static const char *intern(struct plan_locs *pl, const char *s)
{
	size_t i;

	for (i = 0; i < pl->nstrs; i++)
		if (!strcmp(pl->strs[i], s))
			return pl->strs[i];
	RG_GROW(pl->strs, pl->nstrs + 1, pl->capstrs);
	pl->strs[pl->nstrs] = xstrdup(s);
	return pl->strs[pl->nstrs++];
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Does in: name the object at path?  "libfoo.so" matches .../libfoo.so and
 * libfoo.so.1 (a version after the name); "lib/libfoo.so" matches by path
 * suffix at a '/' boundary.
 */
static bool in_matches(const char *in, const char *path)
{
	size_t ni = strlen(in), np = strlen(path);
	const char *b = base_of(path);

	if (np >= ni && !strcmp(path + np - ni, in) &&
	    (np == ni || path[np - ni - 1] == '/' || in[0] == '/'))
		return true;
	return !strchr(in, '/') && !strncmp(b, in, ni) && b[ni] == '.';
}

static struct plan_locs *locs_of(plan *p)
{
	if (!p->locs)
		p->locs = xcalloc(1, sizeof(*p->locs));
	return p->locs;
}

static const dwarfx_dyn *exe_dyn(plan *p)
{
	struct plan_locs *pl = locs_of(p);
	rg_err err = RG_ERR_INIT;

	if (!pl->exe_read && dwarfx_dyn_read(p->exe, &pl->exe, &err) < 0)
		rg_trace("no dynamic linking information: %s", err.msg);
	pl->exe_read = true;
	return &pl->exe;
}

/* The libraries the executable is linked with, and theirs, as ld.so finds them. */
static void find_libs(plan *p)
{
	struct plan_locs *pl = locs_of(p);
	dwarfx_ldpath *lp;

	if (pl->libs_known)
		return;
	pl->libs_known = true;
	lp = dwarfx_ldpath_new(getenv("LD_LIBRARY_PATH"), NULL);
	pl->nlibs = dwarfx_needed_closure(lp, p->exe, MAX_LIBS, &pl->libs);
	dwarfx_ldpath_free(lp);
}

size_t plan_locs_libs(plan *p, const char *const **libs)
{
	struct plan_locs *pl = locs_of(p);

	find_libs(p);
	*libs = (const char *const *)pl->libs;
	return pl->nlibs;
}

/* FUNCTION:return resolves its entry (*FUNCTION): an error there names the
 * location as the user wrote it. */
static void return_entry_error(const struct pl_gate *g, int rc, rg_err *err)
{
	if (rc == DWARFX_ERROR && g->ret_where)
		rg_error_prefix(err, "cannot resolve '%s' at its entry", g->ret_where);
}

/* ---- resolving one gate in one object (cached for the session) ---- */

static char *describe(const dwarfx_loc *l)
{
	if (l->file && l->line)
		return xasprintf("%s:%d", base_of(l->file), l->line);
	if (l->function)
		return xstrdup(l->function);
	return xasprintf("0x%llx", (unsigned long long)l->addr);
}

static void set_locs(struct plan_locs *pl, const struct pl_gate *g,
		     const dwarfx_loc *locs, size_t n, struct pl_loc **out,
		     size_t *nout)
{
	size_t j;

	*out = xcalloc(n ? n : 1, sizeof(**out));
	*nout = n;
	for (j = 0; j < n; j++) {
		char *w = g->ret_where ? NULL : describe(&locs[j]);

		(*out)[j].addr = locs[j].addr;
		(*out)[j].where = g->ret_where ? g->ret_where : intern(pl, w);
		(*out)[j].function = locs[j].function;
		(*out)[j].file = locs[j].file;
		(*out)[j].line = locs[j].line;
		free(w);
	}
}

static const struct pl_res *resolve_in(plan *p, size_t k, const char *path)
{
	struct plan_locs *pl = locs_of(p);
	const struct pl_gate *g = &pl->g[k];
	struct pl_res *r;
	dwarfx_loc *locs = NULL;
	size_t n = 0, i;
	rg_err err = RG_ERR_INIT;
	dwarfx_hint hint = DWARFX_HINT_INIT;
	int rc;
	dwarfx *dx;

	for (i = 0; i < pl->nres; i++)
		if (pl->res[i].k == k && !strcmp(pl->res[i].path, path))
			return &pl->res[i];
	RG_GROW(pl->res, pl->nres + 1, pl->capres);
	r = &pl->res[pl->nres++];
	memset(r, 0, sizeof(*r));
	r->path = intern(pl, path);
	r->k = k;
	dx = plan_object(p, path);
	if (!dx) {
		r->msg = xasprintf("cannot read '%s'", path);
		return r;
	}
	rc = dwarfx_resolve(dx, g->what, &locs, &n, &hint, &err);
	plan_warn_dropped(dx, NULL, NULL);
	return_entry_error(g, rc, &err);
	if (rc < 0) {
		r->state = rc == DWARFX_NO_ENTRY ? 0 : -1;
		r->msg = xstrdup(err.msg);
		r->suggest = hint.suggest;   /* owned by dx, which the plan keeps */
		return r;
	}
	if (g->ret_where && returns_check(dx, g->ret_where, locs, n, &err) < 0) {
		r->state = -1;
		r->msg = xstrdup(err.msg);
		free(locs);
		return r;
	}
	r->state = 1;
	set_locs(pl, g, locs, n, &r->locs, &r->nlocs);
	free(locs);
	return r;
}

/*
 * Compiles gate's condition at every instance r found in its object: at
 * check time (d) for the libraries the program is linked with, else when
 * the object maps (an error then ends the run: err).
 */
static int compile_in(plan *p, size_t gate, const struct pl_res *r, spec_diags *d,
		      rg_err *err)
{
	conds_site *cs;
	size_t j, o;
	int rc;

	if (!conds_has(p, gate) || r->state != 1)
		return 0;
	o = plan_object_index(p, r->path);
	cs = xcalloc(r->nlocs ? r->nlocs : 1, sizeof(*cs));
	for (j = 0; j < r->nlocs; j++) {
		cs[j].site = (rg_site){o, r->locs[j].addr};
		cs[j].where = r->locs[j].where;
		cs[j].loc = (dwarfx_loc){.addr = r->locs[j].addr, .file = r->locs[j].file,
					 .line = r->locs[j].line,
					 .function = r->locs[j].function};
	}
	rc = conds_compile(p, gate, cs, r->nlocs, d, err);
	free(cs);
	return rc;
}

/* ---- plan side ---- */

static size_t add_gate(plan *p, size_t i, const char *fn)
{
	struct plan_locs *pl = locs_of(p);
	const spec_gate *sg = &p->sp->gates[i];
	struct pl_gate *g;

	RG_GROW(pl->g, pl->ng + 1, pl->capg);
	g = &pl->g[pl->ng];
	memset(g, 0, sizeof(*g));
	g->gate = i;
	g->in = sg->in;
	if (fn) {
		char *w = xasprintf("%s:return", fn);

		g->what = xasprintf("*%s", fn);
		g->ret_where = intern(pl, w);
		free(w);
	} else {
		g->what = xstrdup(sg->at);
	}
	return pl->ng++;
}

/*
 * Gate k is found in no object: an error, with the nearest name any object
 * has (hint, in) and, unless in: says which library, how to name one the
 * program opens later.
 */
static void not_found(plan *p, size_t k, const char *hint, const char *hint_in,
		      spec_diags *d)
{
	struct pl_gate *g = &locs_of(p)->g[k];
	const spec_gate *sg = &p->sp->gates[g->gate];
	rg_buf b = RG_BUF_INIT;
	bool only = false;
	char *why = g->in ? NULL : plan_nodebug_why(p, sg->at, &only);

	if (why && only) {
		/* a C++ name or FILE:LINE in a program built without -g */
		spec_diags_add(d, SPEC_ERROR, sg->at_pos, "cannot resolve '%s': %s",
			       sg->at, why);
		free(why);
		g->dead = true;
		return;
	}
	rg_buf_printf(&b, "cannot resolve '%s': it is not in '%s'%s", sg->at,
		      g->in ? g->in : base_of(p->exe),
		      g->in ? "" : " nor in the libraries it is linked with");
	if (hint)
		rg_buf_printf(&b, " (did you mean '%s'%s%s%s?)", hint,
			      hint_in ? " in '" : "", hint_in ? hint_in : "",
			      hint_in ? "'" : "");
	if (why)
		rg_buf_printf(&b, "; %s", why);
	free(why);
	if (!g->in)
		rg_buf_puts(&b, "; a gate in a library the program opens later "
			    "(dlopen) says which with 'in: LIBRARY'");
	spec_diags_add(d, SPEC_ERROR, sg->at_pos, "%s", b.s);
	rg_buf_release(&b);
	g->dead = true;
}

/*
 * Gate k is not in the executable (exe_hint: what its look-up found out;
 * NULL when the executable was not looked at): look in the libraries it is
 * linked with.  Found in one: pending, armed when it maps.  `in:` naming a
 * library the executable is not linked with: pending until the program
 * opens it (dlopen), with a warning.  Found nowhere: an error, unless
 * quiet, which adds nothing to d and returns false.
 */
static bool pending_static(plan *p, size_t k, const dwarfx_hint *exe_hint,
			   bool quiet, spec_diags *d)
{
	struct plan_locs *pl = locs_of(p);
	struct pl_gate *g = &pl->g[k];
	const spec_gate *sg = &p->sp->gates[g->gate];
	const char *hint = exe_hint ? exe_hint->suggest : NULL, *hint_in = NULL;
	size_t j, nmatch = 0;
	bool found = false;

	find_libs(p);
	for (j = 0; j < pl->nlibs; j++) {
		const struct pl_res *r;

		if (g->in && !in_matches(g->in, pl->libs[j]))
			continue;
		nmatch++;
		r = resolve_in(p, k, pl->libs[j]);
		if (r->state < 0) {
			spec_diags_add(d, SPEC_ERROR, sg->at_pos, "%s (in '%s')",
				       r->msg, pl->libs[j]);
			g->dead = true;
			return true;
		}
		if (r->state > 0) {
			found = true;
			compile_in(p, g->gate, r, d, NULL);
		}
		if (!hint && r->state == 0 && r->suggest) {
			hint = r->suggest;
			hint_in = pl->libs[j];
		}
	}
	if (!found && quiet)
		return false;
	/* in: naming the executable, which does not have it: nothing to wait for */
	if (found || (g->in && !nmatch && !in_matches(g->in, p->exe))) {
		g->pending = true;
		if (!found)
			spec_diags_add(d, SPEC_WARNING, sg->at_pos,
				       "gate '%s': no library '%s' among those '%s' is "
				       "linked with: the gate stays pending until that "
				       "library is loaded (dlopen)", sg->name, g->in,
				       base_of(p->exe));
		return true;
	}
	not_found(p, k, hint, hint_in, d);
	return true;
}

bool plan_locs_take(plan *p, size_t i, spec_diags *d)
{
	const spec_gate *sg = &p->sp->gates[i];
	char *fn = returns_function(sg->at);
	bool exe_ok = !sg->in || in_matches(sg->in, p->exe);
	struct plan_locs *pl;
	struct pl_gate *g;
	dwarfx_loc *locs = NULL;
	size_t n = 0, k;
	rg_err err = RG_ERR_INIT;
	dwarfx_hint hint = DWARFX_HINT_INIT;
	int rc;

	if (!fn && exe_ok)
		return false;
	k = add_gate(p, i, fn);
	free(fn);
	pl = locs_of(p);
	g = &pl->g[k];
	if (!exe_ok) {
		pending_static(p, k, NULL, false, d);
		return true;
	}
	rc = dwarfx_resolve(p->dx, g->what, &locs, &n, &hint, &err);
	return_entry_error(g, rc, &err);
	if (rc == DWARFX_OK &&
	    g->ret_where && returns_check(p->dx, g->ret_where, locs, n, &err) < 0) {
		free(locs);
		spec_diags_add(d, SPEC_ERROR, sg->at_pos, "%s", err.msg);
		g->dead = true;
		return true;
	}
	if (locs) {
		g->in_exe = true;
		set_locs(pl, g, locs, n, &g->exe_locs, &g->nexe_locs);
		free(locs);
		return true;
	}
	if (rc != DWARFX_NO_ENTRY) {
		spec_diags_add(d, SPEC_ERROR, sg->at_pos, "%s", err.msg);
		g->dead = true;
		return true;
	}
	pending_static(p, k, &hint, false, d);
	return true;
}

bool plan_locs_pending(plan *p, size_t i, int exe_status,
		       const dwarfx_hint *exe_hint, spec_diags *d)
{
	struct plan_locs *pl;
	size_t k;

	if (exe_status != DWARFX_NO_ENTRY)
		return false;
	k = add_gate(p, i, NULL);
	if (pending_static(p, k, exe_hint, !exe_hint, d))
		return true;
	/* not found anywhere, and the executable's own message says it better */
	pl = locs_of(p);
	free(pl->g[k].what);
	pl->ng--;
	/* what was looked up for it must not answer for the next gate k */
	for (size_t i = pl->nres; i-- > 0;)
		if (pl->res[i].k == k) {
			free(pl->res[i].locs);
			free(pl->res[i].msg);
			pl->res[i] = pl->res[--pl->nres];
		}
	return false;
}

bool plan_gate_is_return(const plan *p, size_t gate)
{
	for (size_t k = 0; p->locs && k < p->locs->ng; k++)
		if (p->locs->g[k].gate == gate && p->locs->g[k].ret_where)
			return true;
	return false;
}

void plan_locs_describe(const plan *p, size_t i, FILE *f)
{
	const struct plan_locs *pl = p->locs;
	size_t k, j, m;

	if (!pl)
		return;
	for (k = 0; k < pl->ng; k++) {
		const struct pl_gate *g = &pl->g[k];
		bool any = false;

		if (g->gate != i || g->dead)
			continue;
		for (j = 0; j < g->nexe_locs; j++)
			fprintf(f, "      0x%llx  %s%s%s  (entry; arrives at each return)\n",
				(unsigned long long)g->exe_locs[j].addr,
				g->exe_locs[j].where,
				g->exe_locs[j].function ? "  in " : "",
				g->exe_locs[j].function ? g->exe_locs[j].function : "");
		if (!g->pending)
			continue;
		for (j = 0; j < pl->nres; j++) {
			const struct pl_res *r = &pl->res[j];

			if (r->k != k || r->state != 1)
				continue;
			for (m = 0; m < r->nlocs; m++)
				fprintf(f, "      %s+0x%llx  %s%s%s  in '%s'\n",
					base_of(r->path), (unsigned long long)r->locs[m].addr,
					r->locs[m].where,
					r->locs[m].function && strcmp(r->locs[m].function,
								      r->locs[m].where) ? "  in " : "",
					r->locs[m].function && strcmp(r->locs[m].function,
								      r->locs[m].where) ?
					r->locs[m].function : "", r->path);
			any = true;
		}
		if (!any)
			fprintf(f, "      pending: armed when an object that has it is loaded\n");
	}
}

void plan_locs_free(plan *p)
{
	struct plan_locs *pl = p->locs;
	size_t i;

	if (!pl)
		return;
	for (i = 0; i < pl->ng; i++) {
		free(pl->g[i].what);
		free(pl->g[i].exe_locs);
	}
	free(pl->g);
	for (i = 0; i < pl->nres; i++) {
		free(pl->res[i].locs);
		free(pl->res[i].msg);
	}
	free(pl->res);
	for (i = 0; i < pl->nstrs; i++)
		free(pl->strs[i]);
	free(pl->strs);
	dwarfx_dyn_release(&pl->exe);
	for (i = 0; i < pl->nlibs; i++)
		free(pl->libs[i]);
	free(pl->libs);
	free(pl);
	p->locs = NULL;
}

/* ---- run side ---- */

struct rl_obj {
	const char *path;      /* canonical, interned in plan_locs */
	size_t pobj;           /* index in plan.objs: its sites' obj */
	uint64_t bias;         /* l_addr: tells a remap from the same mapping */
	bool live;             /* still in the link map */
	bool seen;             /* in the current scan */
};

struct rl_bp {
	plan_bp bp;            /* where/function live in the plan */
	uint64_t at;           /* run-time address of bp.site, this run */
	size_t obj;
};

struct rl_merged {         /* a return and an executable gate at one address */
	plan_bp bp;
	const plan_bp *a, *b;
};

struct run_locs {
	plan *p;
	struct plan_locs *pl;
	tracer *tr;
	run_bias *bt;          /* the run's, updated here as objects map */
	run_locs_busy_fn busy; /* the session's own breakpoints */
	void *busy_ctx;
	ret_table *rets;
	bool watch;            /* some gate is pending: follow the rendezvous */
	uint64_t brk;          /* r_brk with our int3, or 0 */
	bool settled;          /* at the latest call of r_brk, the list was consistent */
	uint64_t r_debug;      /* run-time address of r_debug, or 0 */
	struct rl_obj *objs;
	size_t nobjs, capobjs;
	struct rl_bp **bps;
	size_t nbps, capbps;
	struct rl_merged **merged;
	size_t nmerged, capmerged;
	run_locs_site_fn site_fn; /* run_locs_watch_sites */
	void *site_ctx;
	bool *armed;           /* per spec gate: armed somewhere this run */
	char **why;            /* per spec gate: an error met in an object, or NULL */
};

static bool busy_for_returns(void *ctx, uint64_t addr)
{
	run_locs *l = ctx;
	size_t i;

	if (addr == l->brk || (l->busy && l->busy(l->busy_ctx, addr)))
		return true;
	for (i = 0; i < l->nbps; i++)
		if (l->bps[i]->at == addr)
			return true;
	return false;
}

run_locs *run_locs_new(plan *p, tracer *tr, run_bias *bt,
		       run_locs_busy_fn busy, void *busy_ctx, bool watch)
{
	run_locs *l;
	size_t k;
	/* a condition's library global: biases come from the link map */
	bool libs = conds_read_libraries(p);

	if (!libs && !watch && (!p->locs || !p->locs->ng))
		return NULL;
	l = xcalloc(1, sizeof(*l));
	l->p = p;
	l->pl = locs_of(p);
	l->watch = libs || watch;
	l->tr = tr;
	l->bt = bt;
	l->busy = busy;
	l->busy_ctx = busy_ctx;
	l->rets = returns_new(tr, bt, busy_for_returns, l);
	l->armed = xcalloc(p->sp->ngates ? p->sp->ngates : 1, sizeof(bool));
	l->why = xcalloc(p->sp->ngates ? p->sp->ngates : 1, sizeof(char *));
	for (k = 0; k < l->pl->ng; k++)
		if (l->pl->g[k].pending && !l->pl->g[k].dead)
			l->watch = true;
	return l;
}

void run_locs_free(run_locs *l)
{
	size_t i;

	if (!l)
		return;
	returns_free(l->rets);
	free(l->objs);
	for (i = 0; i < l->nbps; i++) {
		free(l->bps[i]->bp.gates);
		free(l->bps[i]);
	}
	free(l->bps);
	for (i = 0; i < l->nmerged; i++) {
		free(l->merged[i]->bp.gates);
		free(l->merged[i]);
	}
	free(l->merged);
	for (i = 0; i < l->p->sp->ngates; i++)
		free(l->why[i]);
	free(l->why);
	free(l->armed);
	free(l);
}

void run_locs_watch_sites(run_locs *l, run_locs_site_fn fn, void *ctx)
{
	if (!l)
		return;
	l->site_fn = fn;
	l->site_ctx = ctx;
}

static int cmp_at_down(const void *a, const void *b)
{
	uint64_t x = (*(struct rl_bp *const *)a)->at, y = (*(struct rl_bp *const *)b)->at;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Object o's sites, armed: to site_fn, the highest address first. */
static void tell_armed(run_locs *l, size_t o)
{
	struct rl_bp **v;
	size_t n = 0;

	if (!l->site_fn)
		return;
	v = xcalloc(l->nbps + 1, sizeof(*v));
	for (size_t i = 0; i < l->nbps; i++)
		if (l->bps[i]->obj == o)
			v[n++] = l->bps[i];
	qsort(v, n, sizeof(*v), cmp_at_down);
	for (size_t i = 0; i < n; i++)
		l->site_fn(l->site_ctx, &v[i]->bp, v[i]->at, true);
	if (n)
		l->site_fn(l->site_ctx, NULL, 0, true);
	free(v);
}

static int arm_rendezvous(run_locs *l, uint64_t addr, rg_err *err)
{
	if (l->brk == addr)
		return 0;
	if (tracer_insert_bp(l->tr, addr, err) < 0)
		return rg_error_prefix(err, "cannot watch the dynamic linker");
	l->brk = addr;
	return 0;
}

/*
 * At the exec stop only the executable and its interpreter (ld.so) are
 * mapped: break on ld.so's _dl_debug_state, which r_brk points to.
 */
static int watch_interpreter(run_locs *l, rg_err *err)
{
	const dwarfx_dyn *e = exe_dyn(l->p);
	tracer_map *maps = NULL;
	size_t n = 0, i;
	char real[PATH_MAX], *interp;
	int ret = 0;

	if (!e->interp || !realpath(e->interp, real))
		return 0;
	interp = xstrdup(real);
	if (tracer_maps(l->tr, &maps, &n, err) < 0) {
		free(interp);
		return -1;
	}
	for (i = 0; i < n; i++) {
		rg_site s = {0, 0};
		dwarfx *dx;

		if (!maps[i].path || maps[i].offset || strcmp(maps[i].path, interp))
			continue;
		s.obj = plan_object_index(l->p, maps[i].path);
		dx = plan_site_dx(l->p, s);
		/* the link map will say the same once ld.so has made it */
		if (dx)
			run_bias_map(l->bt, s.obj, maps[i].start - dwarfx_load_base(dx));
		if (dx && dwarfx_symbol_addrs(dx, "_dl_debug_state", &s.link_addr, 1) >= 1)
			ret = arm_rendezvous(l, run_bias_addr(l->bt, s), err);
		break;
	}
	tracer_maps_free(maps, n);
	free(interp);
	return ret;
}

int run_locs_start(run_locs *l, rg_err *err)
{
	size_t k, j;

	if (!l)
		return 0;
	for (k = 0; k < l->pl->ng; k++) {
		const struct pl_gate *g = &l->pl->g[k];

		if (!g->in_exe)
			continue;
		for (j = 0; j < g->nexe_locs; j++) {
			rg_site s = {PLAN_EXE, g->exe_locs[j].addr};

			plan_assert_boundary(l->p->dx, s.link_addr);
			if (returns_add(l->rets, s, g->gate,
					g->ret_where, g->exe_locs[j].function, err) < 0)
				return -1;
		}
		l->armed[g->gate] = true;
	}
	return l->watch ? watch_interpreter(l, err) : 0;
}

/* r_debug, from DT_DEBUG in the executable's dynamic section in memory. */
static uint64_t find_r_debug(run_locs *l)
{
	rg_site dyn = {PLAN_EXE, exe_dyn(l->p)->dyn_vaddr};

	return dyn.link_addr ? linkmap_r_debug(l->tr, run_bias_addr(l->bt, dyn)) : 0;
}

static struct rl_bp *bp_at(const run_locs *l, uint64_t addr)
{
	size_t i;

	for (i = 0; i < l->nbps; i++)
		if (l->bps[i]->at == addr)
			return l->bps[i];
	return NULL;
}

static int add_bp(run_locs *l, size_t obj, rg_site site, size_t gate,
		  const struct pl_loc *loc, rg_err *err)
{
	uint64_t addr = run_bias_addr(l->bt, site);
	struct rl_bp *b = bp_at(l, addr);
	size_t k;

	if (!b) {
		if (tracer_insert_bp(l->tr, addr, err) < 0)
			return rg_error_prefix(err, "'%s' in '%s'", loc->where,
					       l->objs[obj].path);
		b = xcalloc(1, sizeof(*b));
		b->bp.site = site;
		b->at = addr;
		b->bp.where = (char *)loc->where;
		b->bp.function = (char *)loc->function;
		b->obj = obj;
		RG_GROW(l->bps, l->nbps + 1, l->capbps);
		l->bps[l->nbps++] = b;
	}
	for (k = 0; k < b->bp.ngates && b->bp.gates[k] < gate; k++)
		;
	if (k < b->bp.ngates && b->bp.gates[k] == gate)
		return 0;
	b->bp.gates = xrealloc(b->bp.gates, (b->bp.ngates + 1) * sizeof(size_t));
	memmove(&b->bp.gates[k + 1], &b->bp.gates[k], (b->bp.ngates - k) * sizeof(size_t));
	b->bp.gates[k] = gate;
	b->bp.ngates++;
	return 0;
}

/* A new object is mapped: resolve the pending gates in it, and arm them. */
static int object_mapped(run_locs *l, size_t o, rg_err *err)
{
	size_t k, j;

	for (k = 0; k < l->pl->ng; k++) {
		const struct pl_gate *g = &l->pl->g[k];
		const struct pl_res *r;

		if (!g->pending || g->dead || (g->in && !in_matches(g->in, l->objs[o].path)))
			continue;
		r = resolve_in(l->p, k, l->objs[o].path);
		if (r->state < 0 && !l->why[g->gate])
			l->why[g->gate] = xasprintf("%s (in '%s')", r->msg, l->objs[o].path);
		if (r->state <= 0)
			continue;
		if (compile_in(l->p, g->gate, r, NULL, err) < 0)
			return -1;
		for (j = 0; j < r->nlocs; j++) {
			rg_site s = {l->objs[o].pobj, r->locs[j].addr};
			int rc;

			plan_assert_boundary(plan_site_dx(l->p, s), s.link_addr);
			rc = g->ret_where ?
				returns_add(l->rets, s, g->gate, g->ret_where,
					    r->locs[j].function, err) :
				add_bp(l, o, s, g->gate, &r->locs[j], err);

			if (rc < 0)
				return -1;
		}
		l->armed[g->gate] = true;
	}
	tell_armed(l, o);
	return 0;
}

/* The object is gone (dlclose): its code, and our int3s and pads in it, with it. */
static void object_unmapped(run_locs *l, size_t o)
{
	size_t i = 0;

	l->objs[o].live = false;
	/* the bias table forgets it, unless it mapped again (a newer entry) */
	for (i = 0; i < l->nobjs; i++)
		if (l->objs[i].live && l->objs[i].pobj == l->objs[o].pobj)
			break;
	if (i == l->nobjs)
		run_bias_unmap(l->bt, l->objs[o].pobj);
	i = 0;
	while (i < l->nbps) {
		struct rl_bp *b = l->bps[i];
		rg_err err = RG_ERR_INIT;

		if (b->obj != o) {
			i++;
			continue;
		}
		if (l->site_fn)
			l->site_fn(l->site_ctx, &b->bp, b->at, false);
		tracer_remove_bp(l->tr, b->at, &err);
		tracer_code_gone(l->tr, b->at);
		free(b->bp.gates);
		free(b);
		l->bps[i] = l->bps[--l->nbps];
	}
}

/* Index of the live object at path with bias, or l->nobjs. */
static size_t live_object(const run_locs *l, const char *ipath, uint64_t bias)
{
	size_t o;

	for (o = 0; o < l->nobjs; o++)
		if (l->objs[o].live && l->objs[o].path == ipath && l->objs[o].bias == bias)
			break;
	return o;
}

/* Walks the link map (consistent now): new objects, and objects gone. */
static int scan(run_locs *l, rg_err *err)
{
	linkmap_obj *m;
	size_t n, i, o;

	if (linkmap_read(l->tr, l->r_debug, MAX_LINKMAP, &m, &n, err) < 0)
		return -1;
	for (o = 0; o < l->nobjs; o++)
		l->objs[o].seen = false;
	for (i = 0; i < n; i++) {
		const char *ipath = intern(l->pl, m[i].path);
		struct rl_obj *ob;

		if ((o = live_object(l, ipath, m[i].bias)) < l->nobjs) {
			l->objs[o].seen = true;
			continue;
		}
		RG_GROW(l->objs, l->nobjs + 1, l->capobjs);
		ob = &l->objs[l->nobjs++];
		ob->path = ipath;
		ob->bias = m[i].bias;
		ob->live = ob->seen = true;
		ob->pobj = plan_object_index(l->p, ipath);
		run_bias_map(l->bt, ob->pobj, ob->bias);
		if (object_mapped(l, l->nobjs - 1, err) < 0) {
			linkmap_free(m, n);
			return -1;
		}
	}
	linkmap_free(m, n);
	for (o = 0; o < l->nobjs; o++)
		if (l->objs[o].live && !l->objs[o].seen)
			object_unmapped(l, o);
	return 0;
}

/* ld.so called r_brk: look at the link map when it is consistent. */
static int rendezvous(run_locs *l, rg_err *err)
{
	bool consistent;

	if (!l->r_debug && !(l->r_debug = find_r_debug(l)))
		return 0;   /* not set up yet */
	if (linkmap_consistent(l->tr, l->r_debug, &consistent, err) < 0)
		return -1;
	l->settled = consistent;
	return consistent ? scan(l, err) : 0;
}

bool run_locs_settled(const run_locs *l, uint64_t addr)
{
	return l && l->brk && addr == l->brk && l->settled;
}

int run_locs_at_entry(run_locs *l, rg_err *err)
{
	uint64_t brk;

	if (!l || !l->watch)
		return 0;
	if (!l->r_debug && !(l->r_debug = find_r_debug(l)))
		return 0;   /* a static program: nothing will ever map */
	if (!l->brk) {
		if (linkmap_brk(l->tr, l->r_debug, &brk, err) < 0)
			return -1;
		if (brk && arm_rendezvous(l, brk, err) < 0)
			return -1;
	}
	return scan(l, err);
}

static const plan_bp *merge(run_locs *l, const plan_bp *a, const plan_bp *b)
{
	struct rl_merged *m;
	size_t i, j, n = 0;

	for (i = 0; i < l->nmerged; i++)
		if (l->merged[i]->a == a && l->merged[i]->b == b)
			return &l->merged[i]->bp;
	m = xcalloc(1, sizeof(*m));
	m->a = a;
	m->b = b;
	m->bp = *a;
	m->bp.gates = xcalloc(a->ngates + b->ngates, sizeof(size_t));
	for (i = j = 0; i < a->ngates || j < b->ngates;) {
		size_t g;

		if (j >= b->ngates || (i < a->ngates && a->gates[i] <= b->gates[j]))
			g = a->gates[i++];
		else
			g = b->gates[j++];
		if (!n || m->bp.gates[n - 1] != g)
			m->bp.gates[n++] = g;
	}
	m->bp.ngates = n;
	RG_GROW(l->merged, l->nmerged + 1, l->capmerged);
	l->merged[l->nmerged++] = m;
	return &m->bp;
}

int run_locs_on_breakpoint(run_locs *l, pid_t tid, uint64_t addr,
			   const plan_bp **bp, rg_err *err)
{
	const plan_bp *ret = NULL;
	struct rl_bp *ob;
	int own = 0, r;

	if (!l)
		return 0;
	if (l->brk && addr == l->brk) {
		own = 1;
		if (rendezvous(l, err) < 0)
			return -1;
	}
	if ((r = returns_on_breakpoint(l->rets, tid, addr, &ret, err)) < 0)
		return -1;
	own |= r;
	if (!*bp && (ob = bp_at(l, addr)))
		*bp = &ob->bp;
	if (ret)
		*bp = *bp ? merge(l, ret, *bp) : ret;
	return own;
}

void run_locs_thread_exited(run_locs *l, pid_t tid)
{
	if (l)
		returns_thread_exited(l->rets, tid);
}

bool run_locs_busy(const run_locs *l, uint64_t addr)
{
	return l && ((l->brk && addr == l->brk) || returns_busy(l->rets, addr));
}

char *run_locs_unarmed(const run_locs *l, size_t i)
{
	size_t k;

	if (!l || l->armed[i])
		return NULL;
	for (k = 0; k < l->pl->ng; k++)
		if (l->pl->g[k].gate == i && l->pl->g[k].pending)
			return l->why[i] ? xasprintf("was never armed: %s", l->why[i]) :
				xstrdup("was never armed: its location never appeared "
					"in any loaded object");
	return NULL;
}

int plan_lines_in_libs(const char *program, const char *file, int from, int to,
		       const char *source_dir, dwarfx_line_fn fn, void *arg,
		       dwarfx **lib, rg_err *err)
{
	dwarfx_ldpath *lp = dwarfx_ldpath_new(getenv("LD_LIBRARY_PATH"), NULL);
	char **libs;
	size_t n = dwarfx_needed_closure(lp, program, 512, &libs), i;
	int listed = DWARFX_NO_ENTRY;

	*lib = NULL;
	for (i = 0; i < n; i++) {
		rg_err lerr = RG_ERR_INIT;
		dwarfx *dx;

		if (listed == DWARFX_NO_ENTRY && dwarfx_open(libs[i], &dx, &lerr) == 0) {
			dwarfx_set_source_dir(dx, source_dir);
			listed = dwarfx_lines(dx, file, from, to, fn, arg, &lerr);
			plan_warn_dropped(dx, NULL, NULL);
			if (listed == DWARFX_NO_ENTRY) {
				dwarfx_free(dx);
			} else {
				*lib = dx;
				if (listed < 0)
					*err = lerr;
			}
		}
		free(libs[i]);
	}
	free(libs);
	dwarfx_ldpath_free(lp);
	return listed;
}
