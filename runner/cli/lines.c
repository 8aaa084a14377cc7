/*
 * racegate lines FILE[:FROM-TO] -- PROGRAM: every line of FILE where a gate
 * can go, with the function it is in, how many breakpoints FILE:LINE would
 * get (inlined copies, clones) and its source text.  What a user runs while
 * writing a spec, instead of guessing which lines survived the optimiser.
 */
#include "cli.h"
#include "plan.h"
#include "report.h"

#include "dwarfx_dyn.h"
#include "dwarfx_vars.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct line_row {
	int line;
	size_t instances;
	char *function;
	char *text;
	char *vars;            /* --vars: what `when:` may name there, one per line */
	dwarfx_loc at;         /* the line's lowest breakpoint (strings owned by the dx listed) */
};

struct line_rows {
	struct line_row *v;
	size_t n, cap;
	const char *path;      /* the file as DWARF names it; owned by dx */
};

/* --vars: the function's own variables at a line's address, one "kind name: type" a line. */
static char *vars_at(dwarfx *dx, const dwarfx_loc *loc)
{
	static const char *const kinds[] = {"local", "param", "static", "global"};
	const dwarfx_var *v[256];
	dwarfx_scope *sc;
	rg_err err = RG_ERR_INIT;
	rg_buf b = RG_BUF_INIT;
	size_t n, i;
	int res = dwarfx_scope_at_loc(dx, loc, &sc, &err);

	if (res == DWARFX_ERROR)
		return xstrdup(err.msg);
	if (res < 0)
		return xstrdup("(no variables: no debug info for this address)");
	n = dwarfx_scope_locals(sc, v, sizeof(v) / sizeof(v[0]));
	if (n > sizeof(v) / sizeof(v[0]))
		n = sizeof(v) / sizeof(v[0]);
	for (i = 0; i < n; i++) {
		char type[256];

		rg_buf_printf(&b, "%s%-6s %s: %s", i ? "\n" : "", kinds[v[i]->kind],
			      v[i]->name, dwarfx_type_spell(v[i]->type, type, sizeof(type)));
		if (v[i]->place.kind == DWARFX_PLACE_OPTIMIZED_OUT)
			rg_buf_puts(&b, "  (optimized out here)");
		else if (v[i]->place.kind == DWARFX_PLACE_UNSUPPORTED)
			rg_buf_printf(&b, "  (unreadable: %s)", v[i]->place.why);
	}
	if (!n)
		rg_buf_puts(&b, "(no variables of its own)");
	dwarfx_scope_free(sc);
	return rg_buf_detach(&b);
}

static int keep_line(const dwarfx_line_info *li, void *arg)
{
	struct line_rows *rows = arg;
	struct line_row *r;

	RG_GROW(rows->v, rows->n + 1, rows->cap);
	r = &rows->v[rows->n++];
	r->line = li->line;
	r->instances = li->instances;
	r->function = xstrdup(li->function ? li->function : "?");
	r->text = li->text ? xstrdup(li->text) : NULL;
	r->vars = NULL;
	r->at = (dwarfx_loc){li->addr, li->file, li->line, li->function, false};
	rows->path = li->file;
	return 0;
}

/* Each line of vars under the SOURCE column. */
static void print_vars(const char *vars, int indent)
{
	const char *p = vars, *nl;

	while (p && *p) {
		nl = strchr(p, '\n');
		printf("%*s%.*s\n", indent, "", (int)(nl ? nl - p : (long)strlen(p)), p);
		p = nl ? nl + 1 : NULL;
	}
}

static void print_rows(const struct line_rows *rows)
{
	size_t i, w = strlen("FUNCTION");

	for (i = 0; i < rows->n; i++)
		if (strlen(rows->v[i].function) > w)
			w = strlen(rows->v[i].function);
	printf("%s\n", rows->path);
	printf("  %6s  %-*s  %5s  %s\n", "LINE", (int)w, "FUNCTION", "BPS", "SOURCE");
	for (i = 0; i < rows->n; i++) {
		const struct line_row *r = &rows->v[i];

		printf("  %6d  %-*s  %5zu  %s\n", r->line, (int)w, r->function,
		       r->instances, r->text ? r->text : "");
		print_vars(r->vars, 2 + 6 + 2 + (int)w + 2 + 5 + 2);
	}
}

/* "FILE", "FILE:LINE", "FILE:FROM-TO", "FILE:FROM-": splits off the range. */
static char *parse_range(const char *arg, int *from, int *to)
{
	const char *c = strrchr(arg, ':');
	char *end;
	long a, b;

	*from = 1;
	*to = 0;
	if (!c || c == arg || c[1] < '0' || c[1] > '9')
		return xstrdup(arg);
	errno = 0;
	a = strtol(c + 1, &end, 10);
	b = a;			/* FILE:LINE */
	if (*end == '-') {
		end++;
		/* FROM-: to the end */
		b = *end ? strtol(end, &end, 10) : 0;
	}
	if (errno || *end || a < 1 || a > INT32_MAX || b < 0 || b > INT32_MAX ||
	    (b && b < a))
		return NULL;
	*from = (int)a;
	*to = (int)b;
	return xstrndup(arg, (size_t)(c - arg));
}

int cmd_lines(const struct cli *c)
{
	const char *where = c->lines_file, *program = c->command[0];
	const char *source_dir = c->source_dir;
	struct line_rows rows = {NULL, 0, 0, NULL};
	bool vars = c->vars;
	rg_err err = RG_ERR_INIT;
	dwarfx *dx = NULL, *lib = NULL;
	char *file;
	int listed, from, to, status = RG_EXIT_OK;
	size_t k;

	file = parse_range(where, &from, &to);
	if (!file) {
		rg_say("'%s': give lines as FILE:LINE or FILE:FROM-TO (FROM-TO "
		       "ascending, from 1)", where);
		return RG_EXIT_SETUP;
	}
	if (dwarfx_open(program, &dx, &err) < 0) {
		rg_say("%s", err.msg);
		free(file);
		return RG_EXIT_SETUP;
	}
	dwarfx_set_source_dir(dx, source_dir);
	listed = dwarfx_lines(dx, file, from, to, keep_line, &rows, &err);
	plan_warn_dropped(dx, NULL, NULL);
	if (listed == DWARFX_NO_ENTRY)   /* a library's source, as check finds it */
		listed = plan_lines_in_libs(program, file, from, to, source_dir,
					   keep_line, &rows, &lib, &err);
	if (listed < 0) {
		rg_say("%s", err.msg);
		status = RG_EXIT_SETUP;
	} else if (!rows.n) {
		if (to)
			rg_say("no line of '%s' from %d to %d has code", file,
			       from, to);
		else
			rg_say("no line of '%s' from %d on has code", file, from);
		status = RG_EXIT_SETUP;
	} else {
		/* after listing: the object that listed them (a library's line) */
		for (k = 0; vars && k < rows.n; k++)
			rows.v[k].vars = vars_at(lib ? lib : dx, &rows.v[k].at);
		print_rows(&rows);
	}
	for (k = 0; k < rows.n; k++) {
		free(rows.v[k].function);
		free(rows.v[k].text);
		free(rows.v[k].vars);
	}
	free(rows.v);
	free(file);
	dwarfx_free(dx);
	if (lib)
		dwarfx_free(lib);
	return status;
}
