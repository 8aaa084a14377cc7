/*
 * plan: what to arm.  Finds the program, opens its ELF/DWARF once, resolves
 * every gate's location, and groups gates by address so one breakpoint
 * serves every gate at that place (their actions merge, in file order).
 */
#include "plan.h"
#include "conds.h"
#include "objects.h"
#include "selectors.h"
#include "starts.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_executable_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

/* Does path start with "#!"? */
static bool is_script(const char *path)
{
	char head[2] = {0, 0};
	FILE *f = fopen(path, "rb");

	if (!f)
		return false;
	if (fread(head, 1, 2, f) != 2)
		head[0] = 0;
	fclose(f);
	return head[0] == '#' && head[1] == '!';
}

/* execvp's search, done here so the ELF we read is the one that runs. */
static char *search_path(const char *name)
{
	const char *path = getenv("PATH");
	const char *p, *end;

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = end + 1) {
		char *cand;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		cand = end == p ? xasprintf("./%s", name) :
			xasprintf("%.*s/%s", (int)(end - p), p, name);
		if (is_executable_file(cand))
			return cand;
		free(cand);
		if (!*end)
			return NULL;
	}
}

/*
 * The spec's command is relative to the spec file (so a spec and its
 * program can sit side by side anywhere); a command given after `--` is
 * relative to where racegate runs, like any command line.
 */
static char *find_program(const char *arg0, const char *spec_dir, rg_err *err)
{
	char *cand;

	if (spec_dir && arg0[0] != '/') {
		/* a spec in the current directory: keep "./prog", not "././prog" */
		cand = strcmp(spec_dir, ".") ? xasprintf("%s/%s", spec_dir, arg0) :
		       xstrdup(arg0);
		if (is_executable_file(cand) || strchr(arg0, '/'))
			return cand;
		free(cand);
	}
	if (strchr(arg0, '/'))
		return xstrdup(arg0);
	cand = search_path(arg0);
	if (!cand)
		rg_error(err, "cannot find program '%s' in PATH", arg0);
	return cand;
}

static bool is_line_location(const char *at)
{
	const char *colon = strrchr(at, ':');

	if (!colon || at[0] == '*' || colon == at)
		return false;
	for (colon++; *colon; colon++)
		if (*colon < '0' || *colon > '9')
			return false;
	return true;
}

/*
 * Does at name a source file (FILE:LINE, FILE:/RE/, FILE:LINE+N) that the
 * executable was built from without -g?  Then its location cannot be in a
 * library loaded later: the fix is -g, and the gate must not go pending.
 */
static bool file_lacks_debug(dwarfx *dx, const char *at)
{
	const char *colon = strchr(at, ':');
	char *file;
	bool r;

	if (at[0] == '*' || !colon || colon == at ||
	    !((colon[1] >= '0' && colon[1] <= '9') || colon[1] == '/'))
		return false;
	file = xstrndup(at, (size_t)(colon - at));
	r = dwarfx_lacks_debug_for(dx, file);
	free(file);
	return r;
}

struct pair {
	uint64_t addr;
	size_t gate;
	dwarfx_loc loc;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->gate < y->gate ? -1 : x->gate > y->gate;
}

static char *describe_loc(const dwarfx_loc *l)
{
	if (l->file && l->line) {
		const char *base = strrchr(l->file, '/');
		return xasprintf("%s:%d", base ? base + 1 : l->file, l->line);
	}
	if (l->function)
		return xstrdup(l->function);
	return xasprintf("0x%llx", (unsigned long long)l->addr);
}

static bool own_bp_ok(plan *p, uint64_t addr, const char *what);

/* The program to run: cmd[0] found and opened, argv kept. */
static int open_program(plan *p, char *const *cmd, const spec *sp, rg_err *err)
{
	size_t i, n;

	if (!cmd || !cmd[0])
		return rg_error(err, "no program to run: give 'command:' in '%s' or "
				"'-- PROGRAM ARGS' on the command line", sp->path);
	p->exe = find_program(cmd[0], cmd == sp->command ? sp->dir : NULL, err);
	if (!p->exe)
		return -1;
	for (n = 0; cmd[n]; n++)
		;
	p->argv = xcalloc(n + 1, sizeof(*p->argv));
	p->argv[0] = xstrdup(p->exe);
	for (i = 1; i < n; i++)
		p->argv[i] = xstrdup(cmd[i]);

	if (!is_executable_file(p->exe))
		return rg_error(err, "cannot run '%s': %s", p->exe,
				access(p->exe, F_OK) ? "no such file" :
				"not an executable file");
	if (dwarfx_open(p->exe, &p->dx, err) < 0) {
		if (is_script(p->exe)) {
			char was[sizeof(err->msg)];

			memcpy(was, err->msg, sizeof(was));
			rg_error(err, "%s: it is a script; racegate traces the compiled "
				 "program itself, so put the binary the script runs in "
				 "'command:' (or after '--')", was);
		}
		return -1;
	}
	dwarfx_set_source_dir(p->dx, p->source_dir);
	return 0;
}

struct pairs {
	struct pair *v;
	size_t n, cap;
};

/*
 * Gate i in the executable: its addresses added to pairs; or taken by
 * objects.c (FUNCTION:return, in:, a library's), or an error in d.
 */
static void resolve_gate(plan *p, size_t i, bool *warned_nodebug,
			 struct pairs *pr, spec_diags *d)
{
	const spec_gate *g = &p->sp->gates[i];
	dwarfx_loc *locs = NULL;
	size_t nlocs = 0, j;
	rg_err rerr = RG_ERR_INIT;
	dwarfx_hint hint = DWARFX_HINT_INIT;
	int rg;

	/* FUNCTION:return, in:, shared objects: objects.c */
	if (plan_locs_take(p, i, d))
		return;
	if (is_line_location(g->at) && !dwarfx_has_debug_info(p->dx)) {
		if (plan_locs_pending(p, i, DWARFX_NO_ENTRY, NULL, d))
			return;
		if (!*warned_nodebug)
			spec_diags_add(d, SPEC_ERROR, g->at_pos,
				       "cannot resolve '%s': " DWARFX_NO_DEBUG,
				       g->at, rg_base_name(p->exe));
		*warned_nodebug = true;
		return;
	}
	rg = dwarfx_resolve(p->dx, g->at, &locs, &nlocs, &hint, &rerr);
	plan_warn_dropped(p->dx, d, &g->at_pos);
	if (rg < 0) {
		if (file_lacks_debug(p->dx, g->at) ||
		    !plan_locs_pending(p, i, rg, &hint, d))
			spec_diags_add(d, SPEC_ERROR, g->at_pos, "%s", rerr.msg);
		return;
	}
	for (j = 0; j < nlocs; j++) {
		RG_GROW(pr->v, pr->n + 1, pr->cap);
		pr->v[pr->n].addr = locs[j].addr;
		pr->v[pr->n].gate = i;
		pr->v[pr->n].loc = locs[j];
		pr->n++;
	}
	free(locs);
}

/*
 * Every instance of an executable gate's location compiles its condition
 * now, before anything runs (conds.h).
 */
static void compile_conds(plan *p, const struct pairs *pr, spec_diags *d)
{
	conds_site *cs = xcalloc(pr->n ? pr->n : 1, sizeof(*cs));
	char **where = xcalloc(pr->n ? pr->n : 1, sizeof(*where));
	size_t i, j, n;

	for (i = 0; i < p->sp->ngates; i++) {
		if (!conds_has(p, i))
			continue;
		for (j = n = 0; j < pr->n; j++) {
			if (pr->v[j].gate != i)
				continue;
			where[n] = describe_loc(&pr->v[j].loc);
			cs[n].site = (rg_site){PLAN_EXE, pr->v[j].addr};
			cs[n].where = where[n];
			cs[n].loc = pr->v[j].loc;
			n++;
		}
		conds_compile(p, i, cs, n, d, NULL);
		for (j = 0; j < n; j++)
			free(where[j]);
	}
	free(where);
	free(cs);
}

/* One plan_bp per address, with the gates there in file order. */
static void make_bps(plan *p, struct pair *pairs, size_t npairs)
{
	size_t i, n;

	if (npairs)   /* every gate may be elsewhere: qsort(NULL) is undefined */
		qsort(pairs, npairs, sizeof(*pairs), cmp_pair);
	for (i = 0; i < npairs; i = n) {
		plan_bp *bp;

		for (n = i; n < npairs && pairs[n].addr == pairs[i].addr; n++)
			;
		p->bps = xrealloc(p->bps, (p->nbps + 1) * sizeof(*p->bps));
		bp = &p->bps[p->nbps++];
		memset(bp, 0, sizeof(*bp));
		bp->site.obj = PLAN_EXE;
		bp->site.link_addr = pairs[i].addr;
		bp->where = describe_loc(&pairs[i].loc);
		bp->function = pairs[i].loc.function ? xstrdup(pairs[i].loc.function) : NULL;
		bp->gates = xcalloc(n - i, sizeof(*bp->gates));
		for (size_t k = i; k < n; k++)
			if (!bp->ngates || bp->gates[bp->ngates - 1] != pairs[k].gate)
				bp->gates[bp->ngates++] = pairs[k].gate;
	}
}

/* A static executable carries its own thread library. */
static void own_pthread_create(plan *p)
{
	size_t i, n = dwarfx_symbol_addrs(p->dx, "pthread_create", NULL, 0);

	if (!n)
		return;
	p->pthread_create_addrs = xcalloc(n, sizeof(uint64_t));
	n = dwarfx_symbol_addrs(p->dx, "pthread_create", p->pthread_create_addrs, n);
	for (i = 0; i < n; i++)
		if (own_bp_ok(p, p->pthread_create_addrs[i], "pthread_create"))
			p->pthread_create_addrs[p->npthread_create++] =
				p->pthread_create_addrs[i];
}

/* An empty plan for sp over the program cmd, its ELF/DWARF open. */
static int plan_open(plan *p, const spec *sp, char *const *cmd,
		     const char *source_dir, rg_err *err)
{
	memset(p, 0, sizeof(*p));
	p->sp = sp;
	p->source_dir = source_dir;
	return open_program(p, cmd, sp, err);
}

/* The {exe:} a gate names, on itself or through its thread, or NULL. */
static const char *gate_exe(const spec *sp, const spec_gate *g)
{
	const spec_selector *sel = &g->thread;

	if (g->process.kind == SPEC_PROC_EXE)
		return g->process.exe;
	if (sel->kind == SPEC_SEL_ALIAS && sel->alias)
		for (size_t i = 0; i < sp->naliases; i++)
			if (!strcmp(sp->aliases[i].name, sel->alias)) {
				sel = &sp->aliases[i].sel;
				break;
			}
	if (sel->kind == SPEC_SEL_MATCH && sel->process.kind == SPEC_PROC_EXE)
		return sel->process.exe;
	return NULL;
}

bool plan_gate_in_image(const spec *sp, size_t i, const char *exe, bool program)
{
	const char *want = gate_exe(sp, &sp->gates[i]);
	const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;

	return want ? !strcmp(want, base) : program;
}

int plan_build(plan *p, const spec *sp, char *const *cmd_override,
	       spec_diags *d, rg_err *err)
{
	char *const *cmd = cmd_override && cmd_override[0] ? cmd_override : sp->command;
	struct pairs pr = {NULL, 0, 0};
	bool warned_nodebug = false;
	size_t i;

	if (plan_open(p, sp, cmd, p->source_dir, err) < 0)
		return -1;
	plan_selectors(p, d);
	conds_parse(p, d);
	/* a gate of another executable's ({exe:}) waits for a process to run it */
	for (i = 0; i < sp->ngates; i++)
		if (plan_gate_in_image(sp, i, p->exe, true))
			resolve_gate(p, i, &warned_nodebug, &pr, d);
	compile_conds(p, &pr, d);
	if (d->nerrors) {
		free(pr.v);
		return -1;
	}
	make_bps(p, pr.v, pr.n);
	free(pr.v);
	own_pthread_create(p);
	return 0;
}

int plan_build_image(plan *p, const spec *sp, const char *exe, const char *source_dir,
		     spec_diags *d, rg_err *err)
{
	char *const cmd[] = { (char *)exe, NULL };
	struct pairs pr = {NULL, 0, 0};
	bool warned_nodebug = false;
	size_t i;

	if (plan_open(p, sp, cmd, source_dir, err) < 0)
		return -1;
	for (i = 0; i < sp->ngates; i++)
		if (plan_gate_in_image(sp, i, p->exe, false))
			resolve_gate(p, i, &warned_nodebug, &pr, d);
	make_bps(p, pr.v, pr.n);
	free(pr.v);
	return d->nerrors ? -1 : 0;
}

/*
 * racegate's own breakpoint at a symbol of the executable: a symbol table
 * that puts it inside an instruction is corrupt, and the breakpoint is
 * left out (start routines are then not known) rather than corrupt the
 * program.
 */
static bool own_bp_ok(plan *p, uint64_t addr, const char *what)
{
	dwarfx_insn_at at;

	if (dwarfx_boundary(p->dx, addr, &at) == DWARFX_BOUNDARY)
		return true;
	rg_warn("not watching '%s' in '%s': %s", what, p->exe, at.why);
	return false;
}

void plan_warn_dropped(dwarfx *dx, spec_diags *d, const spec_pos *pos)
{
	char **w;
	size_t n = dwarfx_take_warnings(dx, &w), i;

	for (i = 0; i < n; i++) {
		if (d)
			spec_diags_add(d, SPEC_WARNING, *pos, "%s", w[i]);
		else
			rg_warn("%s", w[i]);
		free(w[i]);
	}
	free(w);
}

void plan_assert_boundary(dwarfx *dx, uint64_t link_addr)
{
	dwarfx_insn_at at;

	if (dwarfx_boundary(dx, link_addr, &at) != DWARFX_BOUNDARY)
		rg_bug("a breakpoint off an instruction boundary got past resolution: "
		       "0x%llx in '%s': %s", (unsigned long long)link_addr,
		       dwarfx_path(dx), at.why);
}

const plan_bp *plan_gate_bp(const plan *p, size_t g)
{
	for (size_t i = 0; i < p->nbps; i++)
		for (size_t k = 0; k < p->bps[i].ngates; k++)
			if (p->bps[i].gates[k] == g)
				return &p->bps[i];
	return NULL;
}

const plan_bp *plan_find(const plan *p, uint64_t link_addr)
{
	size_t lo = 0, hi = p->nbps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->bps[mid].site.link_addr == link_addr)
			return &p->bps[mid];
		if (p->bps[mid].site.link_addr < link_addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void plan_release(plan *p)
{
	size_t i;

	for (i = 0; i < p->nbps; i++) {
		free(p->bps[i].gates);
		free(p->bps[i].where);
		free(p->bps[i].function);
	}
	free(p->bps);
	if (p->argv)
		for (i = 0; p->argv[i]; i++)
			free(p->argv[i]);
	free(p->argv);
	free(p->exe);
	free(p->pthread_create_addrs);
	conds_free(p);
	plan_selectors_free(p);
	plan_locs_free(p);
	for (i = 0; i < p->nobjs; i++) {
		free(p->objs[i].path);
		if (p->objs[i].dx)
			dwarfx_free(p->objs[i].dx);
	}
	free(p->objs);
	if (p->dx)
		dwarfx_free(p->dx);
	for (i = 0; i < p->nimages; i++) {
		plan_release(p->images[i]);
		free(p->images[i]);
	}
	free(p->images);
	memset(p, 0, sizeof(*p));
}

plan *plan_image(plan *p, const char *exe, spec_diags *d, rg_err *err)
{
	plan *img;

	for (size_t i = 0; i < p->nimages; i++)
		if (!strcmp(p->images[i]->exe, exe))
			return p->images[i];
	img = xcalloc(1, sizeof(*img));
	if (plan_build_image(img, p->sp, exe, p->source_dir, d, err) < 0 && !img->dx) {
		plan_release(img);
		free(img);
		return NULL;
	}
	p->images = xrealloc(p->images, (p->nimages + 1) * sizeof(*p->images));
	p->images[p->nimages++] = img;
	return img;
}

size_t plan_object_index(plan *p, const char *path)
{
	size_t i;
	rg_err err = RG_ERR_INIT;
	dwarfx *dx = NULL;

	for (i = 0; i < p->nobjs; i++)
		if (!strcmp(p->objs[i].path, path))
			return i;
	if (dwarfx_open(path, &dx, &err) < 0)
		dx = NULL;
	p->objs = xrealloc(p->objs, (p->nobjs + 1) * sizeof(*p->objs));
	p->objs[p->nobjs].path = xstrdup(path);
	p->objs[p->nobjs].dx = dx;
	return p->nobjs++;
}

dwarfx *plan_object(plan *p, const char *path)
{
	size_t i = plan_object_index(p, path);   /* may move p->objs */

	return p->objs[i].dx;
}
