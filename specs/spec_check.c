/*
 * Checks across the whole spec, once every node is read: names that must be
 * unique, aliases and events that must be defined, barriers that cannot
 * fill.  Names are sorted and searched, so a file with thousands of gates
 * costs n log n, not n^2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_int.h"

typedef struct named {
	const char *name;
	spec_pos pos;
	size_t idx;     /* gate index, or alias index for threads: entries */
	bool is_as;     /* alias bound by a gate's as: */
} named;

static int pos_cmp(spec_pos a, spec_pos b)
{
	if (a.line != b.line)
		return a.line < b.line ? -1 : 1;
	return a.col < b.col ? -1 : a.col > b.col;
}

static int named_cmp(const void *pa, const void *pb)
{
	const named *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	c = pos_cmp(a->pos, b->pos);
	if (c)
		return c;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* First entry named name in sorted v, or NULL. */
static const named *named_find(const named *v, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(v[lo].name, name) ? &v[lo] : NULL;
}

/* The distinct names of sorted v, for "did you mean". */
static const char **named_names(const named *v, size_t n, size_t *out_n)
{
	const char **r = xcalloc(n + 1, sizeof(*r));
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!k || strcmp(r[k - 1], v[i].name))
			r[k++] = v[i].name;
	*out_n = k;
	return r;
}

/* Reports each name of sorted v seen before, at its later position. */
static void report_dups(spec_loader *ld, const named *v, size_t n,
			const char *what, const char *first)
{
	size_t i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(v[j].name, v[i].name); j++)
			spec_err(ld, v[j].pos, "duplicate %s '%s' (%s at %d:%d)",
				 what, SHOW(v[j].name), first, v[i].pos.line,
				 v[i].pos.col);
	}
}

typedef struct checker {
	spec_loader *ld;
	spec *s;
	named *aliases;
	size_t naliases;
	const char **alias_names;
	size_t nalias_names;
} checker;

static void unknown_alias(checker *c, spec_pos pos, const char *alias,
			  const char *in)
{
	const char *near = spec_nearest(alias, c->alias_names, c->nalias_names);
	char where[128] = "";

	if (in)
		snprintf(where, sizeof(where), " in '%s'", SHOW(in));
	if (near)
		spec_err(c->ld, pos, "unknown thread alias '%s'%s (did you mean '%s'?)",
			 SHOW(alias), where, near);
	else
		spec_err(c->ld, pos, "unknown thread alias '%s'%s", SHOW(alias), where);
}

static void check_aliases(checker *c)
{
	spec *s = c->s;
	size_t i, n = 0;

	c->aliases = xcalloc(s->naliases + s->ngates + 1, sizeof(*c->aliases));
	for (i = 0; i < s->naliases; i++)
		c->aliases[n++] = (named){s->aliases[i].name, s->aliases[i].pos, i, false};
	for (i = 0; i < s->ngates; i++)
		if (s->gates[i].as)
			c->aliases[n++] = (named){s->gates[i].as, s->gates[i].as_pos, i, true};
	qsort(c->aliases, n, sizeof(*c->aliases), named_cmp);
	c->naliases = n;
	c->alias_names = named_names(c->aliases, n, &c->nalias_names);
	report_dups(c->ld, c->aliases, n, "thread alias", "first defined");

	for (i = 0; i < s->ngates; i++) {
		const spec_selector *sel = &s->gates[i].thread;

		if ((sel->kind == SPEC_SEL_ALIAS || sel->kind == SPEC_SEL_NOT_ALIAS) &&
		    sel->alias && !named_find(c->aliases, n, sel->alias))
			unknown_alias(c, sel->pos, sel->alias, NULL);
	}
}

static bool same_process(const spec_process *a, const spec_process *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == SPEC_PROC_EXE)
		return !strcmp(a->exe, b->exe);
	return a->kind != SPEC_PROC_NTH || a->nth == b->nth;
}

/*
 * A gate's process: and the process its thread: names must agree, or the
 * gate could never match (a thread lives in one process).  `main` is the
 * main process's initial thread.
 */
static void check_processes(checker *c)
{
	const spec *s = c->s;
	size_t i;

	for (i = 0; i < s->ngates; i++) {
		const spec_gate *g = &s->gates[i];
		const spec_selector *sel = &g->thread;
		const named *a;

		if (g->process.kind == SPEC_PROC_UNSET || g->process.kind == SPEC_PROC_ANY)
			continue;
		if (sel->kind == SPEC_SEL_ALIAS && sel->alias &&
		    (a = named_find(c->aliases, c->naliases, sel->alias)) && !a->is_as)
			sel = &s->aliases[a->idx].sel;
		if (sel->kind == SPEC_SEL_MAIN && g->process.kind != SPEC_PROC_MAIN)
			spec_err(c->ld, g->process.pos, "gate '%s' is for another process "
				 "than its thread 'main', the main process's initial thread",
				 SHOW(g->name));
		else if (sel->kind == SPEC_SEL_MATCH &&
			 sel->process.kind != SPEC_PROC_UNSET &&
			 sel->process.kind != SPEC_PROC_ANY &&
			 !same_process(&g->process, &sel->process))
			spec_err(c->ld, g->process.pos, "gate '%s' is for another process "
				 "than the one its thread is in", SHOW(g->name));
	}
}

static void check_gate_names(checker *c)
{
	spec *s = c->s;
	named *v = xcalloc(s->ngates + 1, sizeof(*v));
	size_t i, n = 0;

	/* unnamed gates share their at: text freely; steps are "step N" */
	for (i = 0; i < s->ngates; i++)
		if (s->gates[i].name_given || s->gates[i].seq_step)
			v[n++] = (named){s->gates[i].name, s->gates[i].name_pos, i, false};
	qsort(v, n, sizeof(*v), named_cmp);
	report_dups(c->ld, v, n, "gate name", "first");
	free(v);
}

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Is ev the event a sequence step opens for itself? */
static bool own_step_event(const spec_gate *g, const char *ev)
{
	char mine[40];

	if (!g->seq_step)
		return false;
	snprintf(mine, sizeof(mine), SPEC_EV_SEQUENCE "%d", g->seq_step);
	return !strcmp(ev, mine);
}

/* "sequence:N" for an existing step N. */
static bool valid_step_event(const char *ev, size_t nsteps)
{
	const char *p = ev + strlen(SPEC_EV_SEQUENCE);
	size_t n = 0;

	if (!*p || *p == '0' || strlen(p) > 9)
		return false;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		n = n * 10 + (size_t)(*p - '0');
	}
	return n >= 1 && n <= nsteps;
}

static void check_events(checker *c)
{
	spec *s = c->s;
	named *opens, *waits;
	const char **open_names;
	size_t i, j, nopen = 0, nwait = 0, nopen_names, tot_o = 0, tot_w = 0;

	for (i = 0; i < s->ngates; i++) {
		tot_o += s->gates[i].open.n + s->gates[i].then_open.n +
			 s->gates[i].open_when_blocked.n;
		tot_w += s->gates[i].wait.n;
	}
	opens = xcalloc(tot_o + 1, sizeof(*opens));
	waits = xcalloc(tot_w + 1, sizeof(*waits));
	for (i = 0; i < s->ngates; i++) {
		const spec_gate *g = &s->gates[i];
		const spec_strv *lists[3] = {&g->open, &g->then_open,
					     &g->open_when_blocked};
		int l;

		for (l = 0; l < 3; l++) {
			for (j = 0; j < lists[l]->n; j++) {
				const char *ev = lists[l]->v[j];
				spec_pos pos = lists[l]->pos[j];

				if (own_step_event(g, ev)) {
					opens[nopen++] = (named){ev, pos, i, true};
					continue;
				}
				if (has_prefix(ev, SPEC_EV_STARTED) ||
				    has_prefix(ev, SPEC_EV_EXITED))
					spec_err(c->ld, pos,
						 "'%s' is a built-in event; gates cannot open it",
						 SHOW(ev));
				else if (has_prefix(ev, SPEC_EV_SEQUENCE))
					spec_err(c->ld, pos,
						 "'%s' is reserved for sequence steps; gates cannot open it",
						 SHOW(ev));
				opens[nopen++] = (named){ev, pos, i, false};
			}
		}
		for (j = 0; j < g->wait.n; j++)
			waits[nwait++] = (named){g->wait.v[j], g->wait.pos[j], i, false};
	}
	qsort(opens, nopen, sizeof(*opens), named_cmp);
	qsort(waits, nwait, sizeof(*waits), named_cmp);
	open_names = named_names(opens, nopen, &nopen_names);

	for (i = 0; i < nwait; i++) {
		const char *ev = waits[i].name;
		const spec_gate *g = &s->gates[waits[i].idx];
		const char *alias = NULL, *near;

		if (has_prefix(ev, SPEC_EV_STARTED))
			alias = ev + strlen(SPEC_EV_STARTED);
		else if (has_prefix(ev, SPEC_EV_EXITED))
			alias = ev + strlen(SPEC_EV_EXITED);
		if (alias) {
			/* main: the initial thread, which needs no alias */
			if (strcmp(alias, "main") &&
			    !named_find(c->aliases, c->naliases, alias))
				unknown_alias(c, waits[i].pos, alias, ev);
			continue;
		}
		if (has_prefix(ev, SPEC_EV_SEQUENCE)) {
			if (!valid_step_event(ev, c->ld->nsteps) && c->ld->nsteps)
				spec_err(c->ld, waits[i].pos,
					 "'%s' names no sequence step (the sequence has %zu)",
					 SHOW(ev), c->ld->nsteps);
			else if (!c->ld->nsteps)
				spec_err(c->ld, waits[i].pos,
					 "'%s' names a sequence step, but the file has no 'sequence'",
					 SHOW(ev));
			continue;
		}
		if (named_find(opens, nopen, ev))
			continue;
		near = spec_nearest(ev, open_names, nopen_names);
		if (near)
			spec_err(c->ld, waits[i].pos,
				 "gate '%s' waits for '%s', which no gate opens (did you mean '%s'?)",
				 SHOW(g->name), SHOW(ev), near);
		else
			spec_err(c->ld, waits[i].pos,
				 "gate '%s' waits for '%s', which no gate opens",
				 SHOW(g->name), SHOW(ev));
	}

	/* the first opener of each event nobody waits for */
	for (i = 0; i < nopen; i++) {
		if (opens[i].is_as || (i && !strcmp(opens[i].name, opens[i - 1].name)))
			continue;
		if (has_prefix(opens[i].name, SPEC_EV_SEQUENCE) ||
		    has_prefix(opens[i].name, SPEC_EV_STARTED) ||
		    has_prefix(opens[i].name, SPEC_EV_EXITED))
			continue;
		if (!named_find(waits, nwait, opens[i].name))
			spec_warn(c->ld, opens[i].pos,
				  "gate '%s' opens '%s', but no gate waits for it",
				  SHOW(s->gates[opens[i].idx].name), SHOW(opens[i].name));
	}
	free(open_names);
	free(opens);
	free(waits);
}

/*
 * Who can reach a gate, as a token naming one thread, or NULL when the
 * selector can match any number of threads.  Two different tokens may
 * still name one thread (an alias and its inline selector): counting
 * tokens gives an upper bound, which is all the barrier warning needs.
 */
/* A selector of one process's initial thread: one thread at most. */
static bool one_thread(const spec_selector *sel)
{
	return !sel->start && !sel->runs && !sel->name &&
	       (sel->process.kind == SPEC_PROC_MAIN || sel->process.kind == SPEC_PROC_NTH);
}

static char *thread_token(checker *c, const spec_gate *g, size_t gi)
{
	const spec_selector *sel = &g->thread;
	const named *a;
	char *tok = NULL;

	switch (sel->kind) {
	case SPEC_SEL_MAIN:
		tok = xstrdup("main");
		break;
	case SPEC_SEL_ALIAS:
		a = sel->alias ? named_find(c->aliases, c->naliases, sel->alias) : NULL;
		if (!a)
			break;
		if (a->is_as) {
			tok = xasprintf("as\x1f%s", a->name);
		} else {
			sel = &c->s->aliases[a->idx].sel;
			if (sel->kind == SPEC_SEL_MAIN)
				tok = xstrdup("main");
			else if (sel->nth || sel->tid || one_thread(sel))
				goto match;
		}
		break;
	case SPEC_SEL_MATCH:
		if (sel->nth || sel->tid || one_thread(sel))
			goto match;
		break;
	default:
		break;
	}
	/* a once gate acts for one arrival: one thread at most */
	if (!tok && g->once)
		tok = xasprintf("once\x1f%zu", gi);
	return tok;
match:
	return xasprintf("m\x1f%s\x1f%s\x1f%s\x1f%ld\x1f%d\x1f%d\x1f%s\x1f%d",
			 sel->start ? sel->start : "", sel->runs ? sel->runs : "",
			 sel->name ? sel->name : "",
			 sel->tid, sel->nth, (int)sel->process.kind,
			 sel->process.exe ? sel->process.exe : "", sel->process.nth);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Warns when the gates of one barrier provably admit fewer threads than its count. */
static void check_barrier_reach(checker *c, const size_t *gi, size_t n)
{
	const spec_gate *first = &c->s->gates[gi[0]];
	char **tok = xcalloc(n, sizeof(*tok));
	size_t i, k, distinct = 0;
	bool bounded = true;

	for (i = 0; i < n; i++) {
		tok[i] = thread_token(c, &c->s->gates[gi[i]], gi[i]);
		if (!tok[i])
			bounded = false;
	}
	if (bounded) {
		qsort(tok, n, sizeof(*tok), str_cmp);
		for (k = 0; k < n; k++)
			if (!k || strcmp(tok[k], tok[k - 1]))
				distinct++;
		if ((size_t)first->barrier > distinct) {
			if (first->barrier_name)
				spec_warn(c->ld, first->barrier_pos,
					  "barrier '%s' waits for %d threads, but at most %zu can reach it",
					  SHOW(first->barrier_name), first->barrier, distinct);
			else
				spec_warn(c->ld, first->barrier_pos,
					  "barrier of gate '%s' waits for %d threads, but at most %zu can reach it",
					  SHOW(first->name), first->barrier, distinct);
		}
	}
	for (i = 0; i < n; i++)
		free(tok[i]);
	free(tok);
}

static void check_barriers(checker *c)
{
	spec *s = c->s;
	named *v = xcalloc(s->ngates + 1, sizeof(*v));
	size_t *group = xcalloc(s->ngates + 1, sizeof(*group));
	size_t i, j, k, n = 0;

	for (i = 0; i < s->ngates; i++) {
		const spec_gate *g = &s->gates[i];

		if (!g->barrier)
			continue;
		if (g->barrier_name)
			v[n++] = (named){g->barrier_name, g->barrier_pos, i, false};
		else
			check_barrier_reach(c, &i, 1);
	}
	qsort(v, n, sizeof(*v), named_cmp);
	for (i = 0; i < n; i = j) {
		const spec_gate *first = &s->gates[v[i].idx];
		bool same = true;

		group[0] = v[i].idx;
		for (j = i + 1, k = 1; j < n && !strcmp(v[j].name, v[i].name); j++, k++) {
			const spec_gate *g = &s->gates[v[j].idx];

			group[k] = v[j].idx;
			if (g->barrier != first->barrier) {
				same = false;
				spec_err(c->ld, g->barrier_pos,
					 "barrier '%s' has count %d here but %d at %d:%d",
					 SHOW(v[i].name), g->barrier, first->barrier,
					 first->barrier_pos.line, first->barrier_pos.col);
			}
		}
		if (same)
			check_barrier_reach(c, group, k);
	}
	free(group);
	free(v);
}

static bool has_errors(const spec_loader *ld)
{
	size_t i;

	for (i = ld->first_diag; i < ld->d->n; i++)
		if (ld->d->v[i].severity == SPEC_ERROR)
			return true;
	return false;
}

void spec_check_all(spec_loader *ld)
{
	checker c;

	memset(&c, 0, sizeof(c));
	c.ld = ld;
	c.s = ld->s;
	check_aliases(&c);
	check_gate_names(&c);
	check_processes(&c);
	check_events(&c);
	check_barriers(&c);
	/* only worth saying when nothing else is wrong: errors may have eaten them */
	if (!c.s->ngates && !has_errors(ld))
		spec_warn(ld, ld->root_pos, "no gates: nothing will be held");
	free(c.alias_names);
	free(c.aliases);
}

bool spec_names_process(const spec *s)
{
	size_t i;

	for (i = 0; i < s->naliases; i++)
		if (s->aliases[i].sel.process.kind != SPEC_PROC_UNSET)
			return true;
	for (i = 0; i < s->ngates; i++)
		if (s->gates[i].process.kind != SPEC_PROC_UNSET ||
		    s->gates[i].thread.process.kind != SPEC_PROC_UNSET)
			return true;
	return false;
}
