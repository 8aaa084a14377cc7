/*
 * The gates file loader: libyaml's document API gives a node tree in which
 * every node carries its position; we walk it against the version-1 schema
 * and fill plain spec structs.  Every problem becomes a diagnostic and the
 * walk goes on, so one run of `racegate check` shows every mistake.
 *
 * The walk only descends where the schema says (top level -> gate -> list
 * of events), so its depth is fixed whatever the input; YAML aliases are
 * node references, and a work budget (SPEC_MAX_WORK) keeps a few bytes of
 * them from making the walk quadratic.  libyaml's own costs (quadratic in
 * the nesting depth, ~170 bytes a node) are bounded first: yaml_limits()
 * stops at the first node past SPEC_MAX_DEPTH, SPEC_MAX_NODES or
 * SPEC_MAX_ANCHORS.
 */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <yaml.h>

#include "spec_int.h"

/* A gates file is a page of text; anything this big is a wrong file. */
#define SPEC_MAX_FILE_SIZE (16u << 20)

#define FAIL(w, pos, ...) (spec_err((w)->ld, (pos), __VA_ARGS__), -1)

typedef struct walk {
	spec_loader *ld;
	yaml_document_t doc;
	const char *text;
	size_t len;
} walk;

/* ---- nodes ---- */

static yaml_node_t *node_at(walk *w, int i)
{
	return yaml_document_get_node(&w->doc, i);
}

static spec_pos node_pos(const yaml_node_t *n)
{
	spec_pos p = {0, 0};

	if (n) {
		p.line = n->start_mark.line >= INT_MAX ? INT_MAX :
			 (int)n->start_mark.line + 1;
		p.col = n->start_mark.column >= INT_MAX ? INT_MAX :
			(int)n->start_mark.column + 1;
	}
	return p;
}

static const char *sval(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static size_t slen(const yaml_node_t *n)
{
	return n->data.scalar.length;
}

/* `key:` with nothing after it, `~` or `null`: YAML's null, not a string. */
static bool is_null(const yaml_node_t *n)
{
	static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
	size_t i;

	if (!n)
		return true;
	if (n->type != YAML_SCALAR_NODE)
		return false;
	if (n->tag && !strcmp((const char *)n->tag, YAML_NULL_TAG))
		return true;
	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	for (i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++)
		if (slen(n) == strlen(nulls[i]) && !strcmp(sval(n), nulls[i]))
			return true;
	return false;
}

/* What the user wrote, for "must be X, not %s". */
static spec_shown describe(const yaml_node_t *n)
{
	spec_shown r;

	if (is_null(n)) {
		strcpy(r.s, "nothing");
	} else if (n->type == YAML_SEQUENCE_NODE) {
		strcpy(r.s, "a list");
	} else if (n->type == YAML_MAPPING_NODE) {
		strcpy(r.s, "a mapping");
	} else {
		spec_shown t = spec_show(sval(n), slen(n));
		size_t l = strnlen(t.s, sizeof(r.s) - 3);

		r.s[0] = '\'';
		memcpy(r.s + 1, t.s, l);
		r.s[l + 1] = '\'';
		r.s[l + 2] = '\0';
	}
	return r;
}

/* Counts one unit of work; false when the load must unwind. */
static bool tick(walk *w)
{
	spec_loader *ld = w->ld;

	if (ld->stop)
		return false;
	if (++ld->work > SPEC_MAX_WORK) {
		spec_err(ld, ld->root_pos,
			 "the file expands to too many nodes (aliases referring to aliases?)");
		ld->stop = true;
		return false;
	}
	return true;
}

/*
 * Keys that are right somewhere else: a hint worth more than "did you
 * mean", since a misplaced key is spelled correctly.
 */
static const char *top_hint(const char *key)
{
	static const char *const gate_keys[] = {
		"at", "thread", "hit", "when", "open", "wait", "barrier",
		"then_open", "once", "optional", "as", "in", "process",
		"open_when_blocked",
	};
	static const char *const expect_keys[] = {
		"exit", "signal", "stdout", "stderr", "deadlock", "multiline",
	};
	size_t i;

	for (i = 0; i < sizeof(gate_keys) / sizeof(gate_keys[0]); i++)
		if (!strcmp(key, gate_keys[i]))
			return "it belongs in a gate, under 'gates'";
	for (i = 0; i < sizeof(expect_keys) / sizeof(expect_keys[0]); i++)
		if (!strcmp(key, expect_keys[i]))
			return "it belongs under 'expect'";
	return NULL;
}

/*
 * Collects the values of the known keys of mapping m into val[] (NULL when
 * absent) and their positions into kpos[]; reports unknown and repeated keys
 * (libyaml keeps both copies of a repeated key, silently).
 */
static size_t map_keys(walk *w, yaml_node_t *m, const char *const *names,
		       size_t n, bool top, yaml_node_t **val, spec_pos *kpos)
{
	yaml_node_pair_t *pr;
	size_t i, unknown = 0;

	for (i = 0; i < n; i++) {
		val[i] = NULL;
		kpos[i] = node_pos(m);
	}
	for (pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = node_at(w, pr->key), *v = node_at(w, pr->value);
		const char *key, *near, *hint = NULL;

		if (!tick(w))
			return unknown;
		if (!k || !v)
			continue;
		if (k->type != YAML_SCALAR_NODE) {
			spec_err(w->ld, node_pos(k), "a key must be a word, not %s",
				 describe(k).s);
			unknown++;
			continue;
		}
		key = sval(k);
		for (i = 0; i < n; i++)
			if (slen(k) == strlen(names[i]) && !strcmp(key, names[i]))
				break;
		if (i < n && val[i]) {
			spec_err(w->ld, node_pos(k), "duplicate key '%s' (first at %d:%d)",
				 names[i], kpos[i].line, kpos[i].col);
		} else if (i < n) {
			val[i] = v;
			kpos[i] = node_pos(k);
		} else {
			/* a key with a NUL in it is nobody's typo */
			bool clean = strlen(key) == slen(k);

			unknown++;
			near = clean ? spec_nearest(key, names, n) : NULL;
			if (clean && top)
				hint = top_hint(key);
			if (hint)
				spec_err(w->ld, node_pos(k), "unknown key '%s' (%s)",
					 spec_show(key, slen(k)).s, hint);
			else if (near)
				spec_err(w->ld, node_pos(k),
					 "unknown key '%s' (did you mean '%s'?)",
					 spec_show(key, slen(k)).s, near);
			else
				spec_err(w->ld, node_pos(k), "unknown key '%s'",
					 spec_show(key, slen(k)).s);
		}
	}
	return unknown;
}

/* ---- typed values ---- */

static int get_str(walk *w, const char *what, yaml_node_t *v, bool allow_empty,
		   char **out)
{
	/* thread: !w1 is a YAML tag on an empty value, not "!w1" */
	if (v && v->type == YAML_SCALAR_NODE && !slen(v) && v->tag &&
	    v->tag[0] == '!' && v->tag[1])
		return FAIL(w, node_pos(v),
			    "'%s' has no value (YAML reads '%s' as a tag; write \"%s\")",
			    what, SHOW((const char *)v->tag), SHOW((const char *)v->tag));
	if (is_null(v))
		return FAIL(w, node_pos(v), "'%s' has no value", what);
	if (v->type != YAML_SCALAR_NODE)
		return FAIL(w, node_pos(v), "'%s' must be a string, not %s", what,
			    describe(v).s);
	if (memchr(sval(v), '\0', slen(v)))
		return FAIL(w, node_pos(v), "'%s' contains a NUL character", what);
	if (!slen(v) && !allow_empty)
		return FAIL(w, node_pos(v), "'%s' is empty", what);
	*out = xstrndup(sval(v), slen(v));
	return 0;
}

/* Decimal digits only: no sign, no spaces, no 0x, and no overflow. */
static bool parse_long(const char *s, size_t len, long *out)
{
	size_t i;
	char *end;
	long n;

	if (!len || len > 19)
		return false;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end != s + len)
		return false;
	*out = n;
	return true;
}

static int get_long(walk *w, const char *what, yaml_node_t *v, long min,
		    long max, const char *kind, long *out)
{
	long n;

	if (is_null(v))
		return FAIL(w, node_pos(v), "'%s' has no value", what);
	if (v->type != YAML_SCALAR_NODE || !parse_long(sval(v), slen(v), &n) ||
	    n < min || n > max)
		return FAIL(w, node_pos(v), "'%s' must be %s, not %s", what, kind,
			    describe(v).s);
	*out = n;
	return 0;
}

static int get_posint(walk *w, const char *what, yaml_node_t *v, long max,
		      long *out)
{
	return get_long(w, what, v, 1, max, "a positive integer", out);
}

static int get_bool(walk *w, const char *what, yaml_node_t *v, bool *out)
{
	static const char *const t[] = {"true", "True", "TRUE"};
	static const char *const f[] = {"false", "False", "FALSE"};
	size_t i;

	if (is_null(v))
		return FAIL(w, node_pos(v), "'%s' has no value", what);
	if (v->type == YAML_SCALAR_NODE) {
		for (i = 0; i < 3; i++) {
			if (slen(v) == strlen(t[i]) && !strcmp(sval(v), t[i])) {
				*out = true;
				return 0;
			}
			if (slen(v) == strlen(f[i]) && !strcmp(sval(v), f[i])) {
				*out = false;
				return 0;
			}
		}
	}
	return FAIL(w, node_pos(v), "'%s' must be true or false, not %s", what,
		    describe(v).s);
}

static int get_duration(walk *w, const char *what, yaml_node_t *v, long *out)
{
	long ms = -1;

	if (is_null(v))
		return FAIL(w, node_pos(v), "'%s' has no value", what);
	if (v->type == YAML_SCALAR_NODE && strlen(sval(v)) == slen(v))
		ms = spec_parse_duration(sval(v));
	if (ms < 0)
		return FAIL(w, node_pos(v),
			    "'%s' must be a duration such as '10s' or '250ms', not %s",
			    what, describe(v).s);
	if (ms == 0)
		return FAIL(w, node_pos(v), "'%s' must be longer than 0", what);
	*out = ms;
	return 0;
}

static void strv_push(spec_strv *sv, const char *s, spec_pos pos)
{
	sv->v = xrealloc(sv->v, (sv->n + 1) * sizeof(*sv->v));
	sv->pos = xrealloc(sv->pos, (sv->n + 1) * sizeof(*sv->pos));
	sv->v[sv->n] = xstrdup(s);
	sv->pos[sv->n] = pos;
	sv->n++;
}

static void strv_release(spec_strv *sv)
{
	size_t i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	free(sv->pos);
	memset(sv, 0, sizeof(*sv));
}

/* An event name or a list of them: `wait: a` or `wait: [a, b]`. */
static void get_events(walk *w, const char *what, yaml_node_t *v, spec_strv *sv)
{
	yaml_node_item_t *it;
	char *s;

	if (v && v->type == YAML_SEQUENCE_NODE) {
		if (v->data.sequence.items.start == v->data.sequence.items.top)
			spec_err(w->ld, node_pos(v), "'%s' is an empty list", what);
		for (it = v->data.sequence.items.start;
		     it < v->data.sequence.items.top; it++) {
			yaml_node_t *e = node_at(w, *it);

			if (!tick(w))
				return;
			if (e && e->type != YAML_SCALAR_NODE) {
				spec_err(w->ld, node_pos(e),
					 "'%s' must list event names, not %s",
					 what, describe(e).s);
				continue;
			}
			if (e && !get_str(w, what, e, false, &s)) {
				strv_push(sv, s, node_pos(e));
				free(s);
			}
		}
		return;
	}
	if (v && v->type == YAML_MAPPING_NODE) {
		spec_err(w->ld, node_pos(v),
			 "'%s' must be an event name or a list of them, not a mapping",
			 what);
		return;
	}
	if (!get_str(w, what, v, false, &s)) {
		strv_push(sv, s, node_pos(v));
		free(s);
	}
}

static int get_alias(walk *w, const char *what, yaml_node_t *v, char **out)
{
	const char *why;
	char *s;

	if (get_str(w, what, v, false, &s))
		return -1;
	if (!spec_alias_name_ok(s, &why)) {
		spec_err(w->ld, node_pos(v), "'%s' cannot be a thread alias: %s",
			 SHOW(s), why);
		free(s);
		return -1;
	}
	*out = s;
	return 0;
}

/* ---- thread selectors ---- */

/* ---- process: ---- */

enum { P_EXE, P_NTH, NPKEYS };
static const char *const proc_keys[NPKEYS] = {"exe", "nth"};

/* main, any, {exe: NAME} or {nth: K}. */
static void load_process(walk *w, yaml_node_t *v, spec_process *p)
{
	yaml_node_t *pv[NPKEYS];
	spec_pos kp[NPKEYS];
	long n;

	p->pos = node_pos(v);
	if (v->type == YAML_MAPPING_NODE) {
		map_keys(w, v, proc_keys, NPKEYS, false, pv, kp);
		if (pv[P_EXE] && pv[P_NTH]) {
			spec_err(w->ld, p->pos, "'process' takes exe or nth, not both");
		} else if (pv[P_EXE]) {
			if (get_str(w, "exe", pv[P_EXE], false, &p->exe))
				return;
			p->kind = SPEC_PROC_EXE;
			if (strchr(p->exe, '/'))
				spec_err(w->ld, node_pos(pv[P_EXE]),
					 "'exe' is the file name of the program a process "
					 "runs, without a directory, not '%s'", SHOW(p->exe));
		} else if (pv[P_NTH]) {
			if (!get_posint(w, "nth", pv[P_NTH], INT_MAX, &n)) {
				p->kind = SPEC_PROC_NTH;
				p->nth = (int)n;
			}
		} else if (v->data.mapping.pairs.start == v->data.mapping.pairs.top) {
			spec_err(w->ld, p->pos, "empty process selector (give exe or nth)");
		}
		return;
	}
	if (v->type == YAML_SCALAR_NODE && slen(v) == 4 && !strcmp(sval(v), "main"))
		p->kind = SPEC_PROC_MAIN;
	else if (v->type == YAML_SCALAR_NODE && slen(v) == 3 && !strcmp(sval(v), "any"))
		p->kind = SPEC_PROC_ANY;
	else
		spec_err(w->ld, p->pos, "'process' must be main, any, {exe: NAME} "
			 "or {nth: K}, not %s", describe(v).s);
}

/* ---- thread selectors ---- */

enum { SEL_START, SEL_RUNS, SEL_NTH, SEL_NAME, SEL_TID, SEL_PROCESS, NSELKEYS };
static const char *const sel_keys[NSELKEYS] = {"start", "runs", "nth", "name", "tid",
					       "process"};

static void load_match(walk *w, yaml_node_t *m, spec_selector *sel)
{
	yaml_node_t *v[NSELKEYS];
	spec_pos kp[NSELKEYS];
	long n;

	sel->kind = SPEC_SEL_MATCH;
	sel->pos = node_pos(m);
	map_keys(w, m, sel_keys, NSELKEYS, false, v, kp);
	if (v[SEL_PROCESS])
		load_process(w, v[SEL_PROCESS], &sel->process);
	if (!v[SEL_START] && !v[SEL_RUNS] && !v[SEL_NTH] && !v[SEL_NAME] && !v[SEL_TID]) {
		if (m->data.mapping.pairs.start == m->data.mapping.pairs.top)
			spec_err(w->ld, sel->pos, "empty thread selector (give start, "
				 "runs, name, tid, nth or process)");
		return;
	}
	if (v[SEL_START])
		get_str(w, "start", v[SEL_START], false, &sel->start);
	if (v[SEL_RUNS])
		get_str(w, "runs", v[SEL_RUNS], false, &sel->runs);
	if (v[SEL_NAME])
		get_str(w, "name", v[SEL_NAME], false, &sel->name);
	if (v[SEL_NTH] && !get_posint(w, "nth", v[SEL_NTH], INT_MAX, &n))
		sel->nth = (int)n;
	if (v[SEL_TID] && !get_posint(w, "tid", v[SEL_TID], INT_MAX, &n))
		sel->tid = n;
}

/* A gate's thread: main, any, ALIAS, "!ALIAS" or an inline selector. */
static void load_gate_thread(walk *w, yaml_node_t *v, spec_selector *sel)
{
	const char *why;
	char *s;

	sel->pos = node_pos(v);
	if (v && v->type == YAML_MAPPING_NODE) {
		load_match(w, v, sel);
		return;
	}
	if (v && v->type == YAML_SEQUENCE_NODE) {
		spec_err(w->ld, sel->pos,
			 "'thread' must be main, any, a thread alias or a selector such as {start: worker}, not a list");
		return;
	}
	if (get_str(w, "thread", v, false, &s))
		return;
	if (!strcmp(s, "any")) {
		sel->kind = SPEC_SEL_ANY;
		free(s);
	} else if (!strcmp(s, "main")) {
		sel->kind = SPEC_SEL_MAIN;
		free(s);
	} else if (!spec_alias_name_ok(s[0] == '!' ? s + 1 : s, &why)) {
		spec_err(w->ld, sel->pos, "'%s' cannot be a thread alias: %s",
			 SHOW(s[0] == '!' ? s + 1 : s), why);
		free(s);
	} else if (s[0] == '!') {
		sel->kind = SPEC_SEL_NOT_ALIAS;
		sel->alias = xstrdup(s + 1);
		free(s);
	} else {
		sel->kind = SPEC_SEL_ALIAS;
		sel->alias = s;
	}
}

static void load_threads(walk *w, yaml_node_t *m)
{
	spec_loader *ld = w->ld;
	spec *s = ld->s;
	yaml_node_pair_t *pr;

	if (m->type != YAML_MAPPING_NODE) {
		spec_err(ld, node_pos(m),
			 "'threads' must be a mapping of alias: selector, not %s",
			 describe(m).s);
		return;
	}
	for (pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = node_at(w, pr->key), *v = node_at(w, pr->value);
		spec_alias a;

		if (!tick(w))
			return;
		if (!k || !v)
			continue;
		memset(&a, 0, sizeof(a));
		if (k->type != YAML_SCALAR_NODE) {
			spec_err(ld, node_pos(k), "a thread alias must be a word, not %s",
				 describe(k).s);
			continue;
		}
		if (get_alias(w, "thread alias", k, &a.name))
			continue;
		a.pos = node_pos(k);
		a.sel.pos = node_pos(v);
		if (v->type == YAML_MAPPING_NODE) {
			load_match(w, v, &a.sel);
		} else if (v->type == YAML_SCALAR_NODE && slen(v) == 4 &&
			   !strcmp(sval(v), "main")) {
			a.sel.kind = SPEC_SEL_MAIN;
		} else {
			spec_err(ld, node_pos(v),
				 "thread '%s' must be main or a selector such as {start: worker}, not %s",
				 SHOW(a.name), describe(v).s);
			/* still defined: its uses are not "unknown alias" */
			a.sel.kind = SPEC_SEL_MATCH;
		}
		RG_GROW(s->aliases, s->naliases + 1, ld->aliases_cap);
		s->aliases[s->naliases++] = a;
	}
}

/* ---- gates and sequence steps ---- */

enum {
	G_NAME, G_AT, G_THREAD, G_HIT, G_WHEN, G_OPEN, G_WAIT, G_BARRIER,
	G_THEN_OPEN, G_ONCE, G_OPTIONAL, G_TIMEOUT, G_AS, G_IN, G_PROCESS,
	G_OPEN_WHEN_BLOCKED, NGATEKEYS
};
static const char *const gate_keys[NGATEKEYS] = {
	"name", "at", "thread", "hit", "when", "open", "wait", "barrier",
	"then_open", "once", "optional", "timeout", "as", "in", "process",
	"open_when_blocked",
};

/*
 * Point at the offending character of a condition when the scalar is on one
 * line and unescaped, so the column is exact; else at the scalar.
 */
static spec_pos when_pos(const yaml_node_t *v, size_t off)
{
	spec_pos p = node_pos(v);
	yaml_scalar_style_t st = v->data.scalar.style;
	size_t width = v->end_mark.index - v->start_mark.index;

	if (v->start_mark.line != v->end_mark.line)
		return p;
	if (st == YAML_PLAIN_SCALAR_STYLE && width == slen(v))
		p.col += (int)off;
	else if ((st == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		  st == YAML_DOUBLE_QUOTED_SCALAR_STYLE) && width == slen(v) + 2)
		p.col += (int)off + 1;
	return p;
}

/* The condition's first character, when its columns map onto the file; else line 0. */
static spec_pos when_origin(const yaml_node_t *v)
{
	spec_pos none = {0, 0};
	yaml_scalar_style_t st = v->data.scalar.style;
	size_t width = v->end_mark.index - v->start_mark.index;

	if (v->start_mark.line != v->end_mark.line)
		return none;
	if ((st == YAML_PLAIN_SCALAR_STYLE && width == slen(v)) ||
	    ((st == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
	      st == YAML_DOUBLE_QUOTED_SCALAR_STYLE) && width == slen(v) + 2))
		return when_pos(v, 0);
	return none;
}

spec_pos spec_when_pos(const spec_gate *g, size_t off)
{
	spec_pos p = g->when_text;

	if (!p.line)
		return g->when_pos;
	p.col += (int)off;
	return p;
}

static void load_when(walk *w, yaml_node_t *v, spec_gate *g)
{
	char why[160];
	size_t off;

	if (get_str(w, "when", v, false, &g->when))
		return;
	g->when_pos = node_pos(v);
	g->when_text = when_origin(v);
	if (spec_when_check(g->when, &off, why, sizeof(why)))
		spec_err(w->ld, when_pos(v, off), "bad 'when' condition: %s", why);
}

enum { B_NAME, B_COUNT, NBKEYS };
static const char *const barrier_keys[NBKEYS] = {"name", "count"};

static void load_barrier(walk *w, yaml_node_t *v, spec_gate *g)
{
	yaml_node_t *bv[NBKEYS];
	spec_pos kp[NBKEYS];
	long n;

	g->barrier_pos = node_pos(v);
	if (v->type == YAML_MAPPING_NODE) {
		map_keys(w, v, barrier_keys, NBKEYS, false, bv, kp);
		if (bv[B_NAME])
			get_str(w, "name", bv[B_NAME], false, &g->barrier_name);
		if (!bv[B_COUNT])
			spec_err(w->ld, g->barrier_pos, "barrier has no 'count'");
		else if (!get_posint(w, "count", bv[B_COUNT], INT_MAX, &n))
			g->barrier = (int)n;
		return;
	}
	if (v->type == YAML_SEQUENCE_NODE) {
		spec_err(w->ld, g->barrier_pos,
			 "'barrier' must be a count or {name: NAME, count: N}, not a list");
		return;
	}
	if (!get_posint(w, "barrier", v, INT_MAX, &n))
		g->barrier = (int)n;
}

/*
 * One gate (step == 0) or the step-th sequence step, which is an ordinary
 * gate that waits for the step before it and opens its own event once.
 */
static void load_gate(walk *w, yaml_node_t *m, size_t step)
{
	spec_loader *ld = w->ld;
	spec *s = ld->s;
	yaml_node_t *v[NGATEKEYS];
	spec_pos kp[NGATEKEYS];
	spec_gate g;
	bool once = false;
	size_t unknown;

	memset(&g, 0, sizeof(g));
	g.pos = g.name_pos = g.at_pos = g.thread.pos = node_pos(m);
	g.thread.kind = SPEC_SEL_ANY;
	g.seq_step = (int)step;
	if (m->type != YAML_MAPPING_NODE) {
		if (step)
			spec_err(ld, g.pos,
				 "a sequence step must be a mapping such as {thread: T, at: file.c:12}, not %s",
				 describe(m).s);
		else
			spec_err(ld, g.pos,
				 "a gate must be a mapping such as {at: file.c:12, wait: event}, not %s",
				 describe(m).s);
		return;
	}
	unknown = map_keys(w, m, gate_keys, NGATEKEYS, false, v, kp);
	if (ld->stop)
		return;

	if (v[G_NAME] && !get_str(w, "name", v[G_NAME], false, &g.name)) {
		g.name_given = true;
		g.name_pos = node_pos(v[G_NAME]);
	}
	if (v[G_AT] && !get_str(w, "at", v[G_AT], false, &g.at))
		g.at_pos = node_pos(v[G_AT]);
	if (!v[G_AT]) {
		if (step)
			spec_err(ld, g.pos, "sequence step %zu has no 'at'", step);
		else if (g.name)
			spec_err(ld, g.pos, "gate '%s' has no 'at'", SHOW(g.name));
		else
			spec_err(ld, g.pos, "gate has no 'at'");
	}
	if (!g.name) {
		if (step)
			g.name = xasprintf("step %zu", step);
		else if (g.at)
			g.name = xstrdup(g.at);
		else
			g.name = xasprintf("gate %zu", s->ngates + 1);
	}
	if (v[G_THREAD])
		load_gate_thread(w, v[G_THREAD], &g.thread);
	if (v[G_HIT])
		get_posint(w, "hit", v[G_HIT], LONG_MAX, &g.hit);
	if (v[G_WHEN])
		load_when(w, v[G_WHEN], &g);
	if (v[G_OPEN])
		get_events(w, "open", v[G_OPEN], &g.open);
	if (step > 1) {
		char *prev = xasprintf(SPEC_EV_SEQUENCE "%zu", step - 1);

		strv_push(&g.wait, prev, g.pos);
		free(prev);
	}
	if (v[G_WAIT])
		get_events(w, "wait", v[G_WAIT], &g.wait);
	if (v[G_BARRIER])
		load_barrier(w, v[G_BARRIER], &g);
	if (v[G_THEN_OPEN])
		get_events(w, "then_open", v[G_THEN_OPEN], &g.then_open);
	if (step) {
		char *mine = xasprintf(SPEC_EV_SEQUENCE "%zu", step);

		strv_push(&g.then_open, mine, g.pos);
		free(mine);
	}
	if (v[G_OPEN_WHEN_BLOCKED])
		get_events(w, "open_when_blocked", v[G_OPEN_WHEN_BLOCKED],
			   &g.open_when_blocked);
	if (v[G_ONCE] && !get_bool(w, "once", v[G_ONCE], &once) && step && !once)
		spec_err(ld, node_pos(v[G_ONCE]),
			 "a sequence step always acts once; remove 'once: false'");
	g.once = once || step;
	if (v[G_OPTIONAL])
		get_bool(w, "optional", v[G_OPTIONAL], &g.optional);
	if (v[G_TIMEOUT])
		get_duration(w, "timeout", v[G_TIMEOUT], &g.timeout_ms);
	if (v[G_AS] && !get_alias(w, "as", v[G_AS], &g.as))
		g.as_pos = node_pos(v[G_AS]);
	if (v[G_IN] && !get_str(w, "in", v[G_IN], false, &g.in)) {
		g.in_pos = node_pos(v[G_IN]);
		/* an object's file name: "libfoo.so", "lib/libfoo.so.1" */
		if (strcspn(g.in, " \t\n") != strlen(g.in) || g.in[strlen(g.in) - 1] == '/')
			spec_err(ld, g.in_pos, "'in' must be a shared object's file "
				 "name such as libfoo.so, not '%s'", SHOW(g.in));
	}
	if (v[G_PROCESS])
		load_process(w, v[G_PROCESS], &g.process);
	/*
	 * Judged by the keys present, not by what was read from them: a gate
	 * whose wait: is misspelt already has an error, not a second message.
	 */
	if (!step && g.at && !unknown && !v[G_OPEN] && !v[G_WAIT] &&
	    !v[G_BARRIER] && !v[G_THEN_OPEN] && !v[G_AS] && !v[G_OPEN_WHEN_BLOCKED])
		spec_warn(ld, g.pos,
			  "gate '%s' does nothing (give it open, wait, barrier, then_open or as)",
			  SHOW(g.name));

	RG_GROW(s->gates, s->ngates + 1, ld->gates_cap);
	s->gates[s->ngates++] = g;
}

static void load_gate_list(walk *w, const char *what, yaml_node_t *v, bool steps)
{
	yaml_node_item_t *it;
	size_t k = 0;

	if (v->type != YAML_SEQUENCE_NODE) {
		spec_err(w->ld, node_pos(v), "'%s' must be a list, not %s", what,
			 describe(v).s);
		return;
	}
	if (steps)
		w->ld->nsteps = (size_t)(v->data.sequence.items.top -
					 v->data.sequence.items.start);
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		yaml_node_t *g = node_at(w, *it);

		k++;
		if (!tick(w))
			return;
		if (g)
			load_gate(w, g, steps ? k : 0);
	}
}

/* ---- expect ---- */

enum { E_EXIT, E_SIGNAL, E_STDOUT, E_STDERR, E_DEADLOCK, E_MULTILINE, E_TIMEOUT,
       NEXPKEYS };
static const char *const expect_keys[NEXPKEYS] = {
	"exit", "signal", "stdout", "stderr", "deadlock", "multiline", "timeout",
};

static void load_signal(walk *w, yaml_node_t *v, spec_expect *e)
{
	const char *cand[64], *near;
	char *s, *up;
	size_t i, n = 0;

	if (get_str(w, "signal", v, false, &s))
		return;
	e->signo = spec_signal_number(s);
	if (e->signo) {
		e->has_signal = true;
		free(s);
		return;
	}
	if (s[0] >= '0' && s[0] <= '9') {
		spec_err(w->ld, node_pos(v), "unknown signal number '%s'", SHOW(s));
		free(s);
		return;
	}
	/* compare without SIG, upper case: "segf" and "SIGSEV" find SEGV */
	up = xstrdup(strncasecmp(s, "SIG", 3) ? s : s + 3);
	for (i = 0; up[i]; i++)
		if (up[i] >= 'a' && up[i] <= 'z')
			up[i] = (char)(up[i] - 'a' + 'A');
	while (n < 64 && spec_signal_name_at(n)) {
		cand[n] = spec_signal_name_at(n) + 3;
		n++;
	}
	near = spec_nearest(up, cand, n);
	if (near)
		spec_err(w->ld, node_pos(v), "unknown signal '%s' (did you mean 'SIG%s'?)",
			 SHOW(s), near);
	else
		spec_err(w->ld, node_pos(v), "unknown signal '%s'", SHOW(s));
	free(up);
	free(s);
}

/* stdout:/stderr: plain text is a substring; /text/ is a POSIX ERE. */

static void load_output(walk *w, const char *what, yaml_node_t *v, char **text,
			bool *is_regex)
{
	size_t len;
	regex_t re;
	char *s;
	int rc;

	if (get_str(w, what, v, true, &s))
		return;
	len = strlen(s);
	if (len < 2 || s[0] != '/' || s[len - 1] != '/') {
		*text = s;
		return;
	}
	memmove(s, s + 1, len - 2);
	s[len - 2] = '\0';
	if (!*s) {
		spec_err(w->ld, node_pos(v), "'%s' has an empty regex", what);
		free(s);
		return;
	}
	if (!spec_regex_cheap(s)) {
		spec_err(w->ld, node_pos(v), "the regex in '%s' repeats repetitions "
			 "too deeply (such as 'a++' or '((a+)+)+'); simplify it",
			 what);
		free(s);
		return;
	}
	rc = regcomp(&re, s, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char why[200];

		regerror(rc, &re, why, sizeof(why));
		if (why[0] >= 'A' && why[0] <= 'Z')
			why[0] = (char)(why[0] - 'A' + 'a');
		spec_err(w->ld, node_pos(v), "bad regex in '%s': %s", what, why);
		free(s);
		return;
	}
	regfree(&re);
	*text = s;
	*is_regex = true;
}

static void load_expect(walk *w, yaml_node_t *m)
{
	spec_expect *e = &w->ld->s->expect;
	yaml_node_t *v[NEXPKEYS];
	spec_pos kp[NEXPKEYS];
	long n;

	e->pos = node_pos(m);
	if (m->type != YAML_MAPPING_NODE) {
		spec_err(w->ld, e->pos,
			 "'expect' must be a mapping such as {exit: 1}, not %s",
			 describe(m).s);
		return;
	}
	e->any = true;
	map_keys(w, m, expect_keys, NEXPKEYS, false, v, kp);
	if (v[E_EXIT] && !get_long(w, "exit", v[E_EXIT], 0, 255,
				   "an integer from 0 to 255", &n)) {
		e->has_exit = true;
		e->exit_code = (int)n;
	}
	if (v[E_SIGNAL])
		load_signal(w, v[E_SIGNAL], e);
	if (v[E_STDOUT])
		load_output(w, "stdout", v[E_STDOUT], &e->stdout_text, &e->stdout_regex);
	if (v[E_STDERR])
		load_output(w, "stderr", v[E_STDERR], &e->stderr_text, &e->stderr_regex);
	if (v[E_DEADLOCK])
		get_bool(w, "deadlock", v[E_DEADLOCK], &e->deadlock);
	/* a hang that is no deadlock (a spin, a livelock): the run's timeout */
	if (v[E_TIMEOUT])
		get_bool(w, "timeout", v[E_TIMEOUT], &e->timeout);
	/*
	 * POSIX regexes have no inline (?s): multiline: true is regcomp
	 * without REG_NEWLINE, for patterns that span lines.  It means
	 * nothing to plain text, which is a substring anyway.
	 */
	if (v[E_MULTILINE] && !get_bool(w, "multiline", v[E_MULTILINE], &e->multiline) &&
	    e->multiline && !e->stdout_regex && !e->stderr_regex)
		spec_warn(w->ld, kp[E_MULTILINE],
			  "'multiline' applies to /regex/ in 'stdout' or 'stderr', "
			  "and there is none");

	/* a process exits, or is killed, or hangs: only one of them */
	if (v[E_EXIT] && v[E_SIGNAL])
		spec_err(w->ld, kp[E_SIGNAL],
			 "'expect' cannot have both 'exit' and 'signal'");
	if (e->deadlock && (v[E_EXIT] || v[E_SIGNAL]))
		spec_err(w->ld, kp[E_DEADLOCK],
			 "'expect' cannot have 'deadlock: true' with '%s'",
			 v[E_EXIT] ? "exit" : "signal");
	if (e->timeout && (v[E_EXIT] || v[E_SIGNAL] || e->deadlock))
		spec_err(w->ld, kp[E_TIMEOUT],
			 "'expect' cannot have 'timeout: true' with '%s'",
			 v[E_EXIT] ? "exit" : v[E_SIGNAL] ? "signal" : "deadlock");
	if (m->data.mapping.pairs.start == m->data.mapping.pairs.top)
		spec_warn(w->ld, e->pos,
			  "'expect' is empty (the run is judged by exit 0)");
}

/* ---- top level ---- */

static void load_command(walk *w, yaml_node_t *v)
{
	spec *s = w->ld->s;
	yaml_node_item_t *it;
	char *str, *tok, *save;

	s->command_pos = node_pos(v);
	if (v && v->type == YAML_SEQUENCE_NODE) {
		size_t n = (size_t)(v->data.sequence.items.top -
				    v->data.sequence.items.start), i = 0;

		if (!n) {
			spec_err(w->ld, s->command_pos, "'command' is empty");
			return;
		}
		s->command = xcalloc(n + 1, sizeof(*s->command));
		for (it = v->data.sequence.items.start;
		     it < v->data.sequence.items.top; it++) {
			yaml_node_t *a = node_at(w, *it);

			if (!tick(w))
				return;
			/* "" is a legal argument, but not a program name */
			if (a && it == v->data.sequence.items.start &&
			    a->type == YAML_SCALAR_NODE && !slen(a))
				spec_err(w->ld, node_pos(a),
					 "'command' starts with an empty program name");
			else if (a && !get_str(w, "command", a, true, &str))
				s->command[i++] = str;
			s->ncommand = i;   /* kept current: tick() may stop the walk */
		}
		return;
	}
	if (v && v->type == YAML_MAPPING_NODE) {
		spec_err(w->ld, s->command_pos,
			 "'command' must be a list such as [./prog, arg], not a mapping");
		return;
	}
	if (get_str(w, "command", v, false, &str))
		return;
	/*
	 * A string is split at blanks, nothing more.  Quotes would suggest a
	 * shell that is not there, so they are refused rather than kept.
	 */
	if (strpbrk(str, "'\"\\")) {
		spec_err(w->ld, s->command_pos,
			 "'command' as a string is only split at spaces; "
			 "write it as a list to use quotes or backslashes");
		free(str);
		return;
	}
	for (tok = strtok_r(str, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		s->command = xrealloc(s->command,
				      (s->ncommand + 2) * sizeof(*s->command));
		s->command[s->ncommand++] = xstrdup(tok);
		s->command[s->ncommand] = NULL;
	}
	if (!s->ncommand)
		spec_err(w->ld, s->command_pos, "'command' is empty");
	free(str);
}

/* stdin: the bytes as a string (NUL bytes too: "\0"), or {file: PATH}. */
static void load_stdin(walk *w, yaml_node_t *v)
{
	static const char *const keys[] = {"file"};
	spec *s = w->ld->s;
	yaml_node_t *f;
	spec_pos kp;
	char *path;

	s->stdin_pos = node_pos(v);
	if (v && v->type == YAML_MAPPING_NODE) {
		size_t unknown = map_keys(w, v, keys, 1, false, &f, &kp);

		if (!f) {      /* an unknown key was said already: a typo of file */
			if (!unknown && !w->ld->stop)
				spec_err(w->ld, s->stdin_pos,
					 "'stdin' as a mapping needs 'file: PATH'");
			return;
		}
		if (get_str(w, "file", f, false, &path))
			return;
		if (spec_stdin_file(w->ld, path, node_pos(f)) < 0)
			free(path);
		else
			s->stdin_file = path;
		return;
	}
	if (is_null(v)) {
		spec_err(w->ld, s->stdin_pos,
			 "'stdin' has no value (write \"\" for an empty stdin)");
		return;
	}
	if (v->type != YAML_SCALAR_NODE) {
		spec_err(w->ld, s->stdin_pos, "'stdin' must be a string or {file: PATH}, "
			 "not %s", describe(v).s);
		return;
	}
	s->stdin_data = xmalloc(slen(v) + 1);
	memcpy(s->stdin_data, sval(v), slen(v));
	s->stdin_data[slen(v)] = '\0';
	s->stdin_len = slen(v);
	s->has_stdin = true;
}

enum {
	T_VERSION, T_NAME, T_COMMAND, T_TIMEOUT, T_ON_DEADLOCK, T_THREADS,
	T_GATES, T_SEQUENCE, T_EXPECT, T_STDIN, NTOPKEYS
};
static const char *const top_keys[NTOPKEYS] = {
	"version", "name", "command", "timeout", "on_deadlock", "threads",
	"gates", "sequence", "expect", "stdin",
};

static void load_top(walk *w)
{
	spec_loader *ld = w->ld;
	spec *s = ld->s;
	yaml_node_t *root = yaml_document_get_root_node(&w->doc);
	yaml_node_t *v[NTOPKEYS];
	spec_pos kp[NTOPKEYS];
	long version;
	char *str;

	if (!root || is_null(root)) {
		spec_err(ld, (spec_pos){1, 1},
			 "the file is empty (expected 'version: 1' and gates)");
		return;
	}
	ld->root_pos = node_pos(root);
	if (root->type != YAML_MAPPING_NODE) {
		spec_err(ld, ld->root_pos,
			 "the top level must be a mapping with 'version: 1' and gates, not %s",
			 describe(root).s);
		return;
	}
	map_keys(w, root, top_keys, NTOPKEYS, true, v, kp);
	if (ld->stop)
		return;

	/* another version's keys mean other things: stop at the version */
	if (!v[T_VERSION]) {
		spec_err(ld, ld->root_pos, "the file has no 'version' (add 'version: 1')");
		return;
	}
	if (get_long(w, "version", v[T_VERSION], 0, LONG_MAX, "1", &version))
		return;
	if (version != 1) {
		spec_err(ld, node_pos(v[T_VERSION]),
			 "unsupported version %ld (this racegate reads version 1)",
			 version);
		return;
	}
	s->version = 1;

	if (v[T_NAME])
		get_str(w, "name", v[T_NAME], false, &s->name);
	if (v[T_COMMAND])
		load_command(w, v[T_COMMAND]);
	if (v[T_TIMEOUT])
		get_duration(w, "timeout", v[T_TIMEOUT], &s->timeout_ms);
	if (v[T_ON_DEADLOCK] && !get_str(w, "on_deadlock", v[T_ON_DEADLOCK], false, &str)) {
		if (!strcmp(str, "fail"))
			s->on_deadlock = SPEC_ON_DEADLOCK_FAIL;
		else if (!strcmp(str, "release"))
			s->on_deadlock = SPEC_ON_DEADLOCK_RELEASE;
		else
			spec_err(ld, node_pos(v[T_ON_DEADLOCK]),
				 "'on_deadlock' must be fail or release, not '%s'",
				 SHOW(str));
		free(str);
	}
	if (v[T_STDIN])
		load_stdin(w, v[T_STDIN]);
	if (v[T_THREADS] && !is_null(v[T_THREADS]))
		load_threads(w, v[T_THREADS]);
	/* gates before steps: the steps are appended after the gates */
	if (v[T_GATES] && !is_null(v[T_GATES]))
		load_gate_list(w, "gates", v[T_GATES], false);
	if (v[T_SEQUENCE] && !is_null(v[T_SEQUENCE]))
		load_gate_list(w, "sequence", v[T_SEQUENCE], true);
	if (v[T_EXPECT] && !is_null(v[T_EXPECT]))
		load_expect(w, v[T_EXPECT]);
	if (!ld->stop)
		spec_check_all(ld);
}

/* ---- YAML errors ---- */

/* Reader errors (bad UTF-8, control characters) carry a byte offset only. */
static spec_pos offset_pos(const char *text, size_t len, size_t off)
{
	spec_pos p = {1, 1};
	size_t i;

	for (i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			p.line++;
			p.col = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80 && p.col < INT_MAX) {
			p.col++;
		}
		if (p.line == INT_MAX)
			break;
	}
	return p;
}

static spec_pos mark_pos(yaml_mark_t m)
{
	spec_pos p;

	p.line = m.line >= INT_MAX ? INT_MAX : (int)m.line + 1;
	p.col = m.column >= INT_MAX ? INT_MAX : (int)m.column + 1;
	return p;
}

static void yaml_problem(walk *w, yaml_parser_t *p)
{
	const char *problem = p->problem ? p->problem : "cannot parse";
	spec_pos pos, cpos;

	if (p->error == YAML_READER_ERROR) {
		pos = offset_pos(w->text, w->len, p->problem_offset);
		if (p->problem_value != -1)
			spec_err(w->ld, pos, "invalid YAML: %s (byte 0x%02x)",
				 problem, (unsigned)p->problem_value & 0xffu);
		else
			spec_err(w->ld, pos, "invalid YAML: %s", problem);
		return;
	}
	if (p->error == YAML_MEMORY_ERROR) {
		spec_err(w->ld, (spec_pos){0, 0}, "out of memory reading YAML");
		return;
	}
	pos = mark_pos(p->problem_mark);
	cpos = mark_pos(p->context_mark);
	/* The commonest YAML mistake has the least helpful libyaml message. */
	if (p->problem_mark.index < w->len && w->text[p->problem_mark.index] == '\t') {
		spec_err(w->ld, pos, "invalid YAML: a tab character; YAML indents "
			 "with spaces only");
		return;
	}
	if (p->context)
		spec_err(w->ld, pos, "invalid YAML: %s (%s at %d:%d)", problem,
			 p->context, cpos.line, cpos.col);
	else
		spec_err(w->ld, pos, "invalid YAML: %s", problem);
}

/* The anchor of a node event (&name), or NULL. */
static const yaml_char_t *event_anchor(const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		return ev->data.scalar.anchor;
	case YAML_SEQUENCE_START_EVENT:
		return ev->data.sequence_start.anchor;
	case YAML_MAPPING_START_EVENT:
		return ev->data.mapping_start.anchor;
	default:
		return NULL;
	}
}

/*
 * A first pass over the events: an error at the first node nested deeper
 * than SPEC_MAX_DEPTH, past SPEC_MAX_NODES or past SPEC_MAX_ANCHORS, so that
 * neither the scanner nor the loader ever goes far past the limits.  Returns
 * -1 with that error reported, else 0 (a YAML error is left for the loader
 * to report, with whatever the walk finds before it).
 */
static int yaml_limits(walk *w)
{
	yaml_parser_t p;
	yaml_event_t ev;
	size_t depth = 0, nodes = 0, anchors = 0;
	int rc = 0;

	if (!yaml_parser_initialize(&p))
		return 0;
	yaml_parser_set_input_string(&p, (const unsigned char *)w->text, w->len);
	while (rc == 0 && yaml_parser_parse(&p, &ev)) {
		yaml_event_type_t type = ev.type;
		spec_pos pos = mark_pos(ev.start_mark);
		bool anchor = event_anchor(&ev) != NULL;

		yaml_event_delete(&ev);
		if (type == YAML_STREAM_END_EVENT)
			break;
		if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT)
			depth--;
		if (type != YAML_SCALAR_EVENT && type != YAML_ALIAS_EVENT &&
		    type != YAML_SEQUENCE_START_EVENT && type != YAML_MAPPING_START_EVENT)
			continue;
		if (++nodes > SPEC_MAX_NODES)
			rc = FAIL(w, pos, "more than %d YAML nodes (the limit for a "
				  "gates file)", SPEC_MAX_NODES);
		else if (anchor && ++anchors > SPEC_MAX_ANCHORS)
			rc = FAIL(w, pos, "more than %d YAML anchors (the limit for "
				  "a gates file)", SPEC_MAX_ANCHORS);
		else if ((type == YAML_SEQUENCE_START_EVENT ||
			  type == YAML_MAPPING_START_EVENT) && ++depth > SPEC_MAX_DEPTH)
			rc = FAIL(w, pos, "nesting deeper than %d levels (the limit "
				  "for a gates file)", SPEC_MAX_DEPTH);
	}
	yaml_parser_delete(&p);
	return rc;
}

/* ---- public ---- */


static void gate_release(spec_gate *g)
{
	free(g->name);
	free(g->at);
	free(g->thread.alias);
	free(g->thread.start);
	free(g->thread.runs);
	free(g->thread.name);
	free(g->thread.process.exe);
	free(g->process.exe);
	free(g->when);
	strv_release(&g->open);
	strv_release(&g->wait);
	strv_release(&g->then_open);
	strv_release(&g->open_when_blocked);
	free(g->barrier_name);
	free(g->as);
	free(g->in);
}

void spec_free(spec *s)
{
	size_t i;

	if (!s)
		return;
	free(s->path);
	free(s->dir);
	free(s->name);
	for (i = 0; i < s->ncommand; i++)
		free(s->command[i]);
	free(s->command);
	for (i = 0; i < s->naliases; i++) {
		free(s->aliases[i].name);
		free(s->aliases[i].sel.alias);
		free(s->aliases[i].sel.start);
		free(s->aliases[i].sel.runs);
		free(s->aliases[i].sel.name);
		free(s->aliases[i].sel.process.exe);
	}
	free(s->aliases);
	for (i = 0; i < s->ngates; i++)
		gate_release(&s->gates[i]);
	free(s->gates);
	free(s->expect.stdout_text);
	free(s->expect.stderr_text);
	free(s->stdin_data);
	free(s->stdin_file);
	free(s);
}

static int pos_cmp(spec_pos a, spec_pos b)
{
	if (a.line != b.line)
		return a.line < b.line ? -1 : 1;
	return a.col < b.col ? -1 : a.col > b.col;
}

/*
 * Messages come out in schema order (all versions, then all gates, then
 * checks across gates); readers want file order.  Insertion sort: it is
 * stable and there are at most SPEC_MAX_DIAGS + 1 of them.
 */
static void sort_diags(spec_diags *d, size_t from)
{
	size_t i, j;

	for (i = from + 1; i < d->n; i++) {
		spec_diag t = d->v[i];

		for (j = i; j > from && pos_cmp(d->v[j - 1].pos, t.pos) > 0; j--)
			d->v[j] = d->v[j - 1];
		d->v[j] = t;
	}
}

int spec_load_string(const char *text, size_t len, const char *name,
		     const char *dir, spec **out, spec_diags *d)
{
	spec_loader ld;
	yaml_parser_t parser;
	walk w;
	bool have_doc = false;

	*out = NULL;
	if (!name)
		name = "<string>";
	free(d->file);
	d->file = xstrdup(name);

	memset(&ld, 0, sizeof(ld));
	ld.d = d;
	ld.first_diag = d->n;
	ld.root_pos = (spec_pos){1, 1};
	ld.s = xcalloc(1, sizeof(*ld.s));
	ld.s->path = xstrdup(name);
	ld.s->dir = xstrdup(dir ? dir : ".");
	memset(&w, 0, sizeof(w));
	w.ld = &ld;
	w.text = text;
	w.len = len;

	if (yaml_limits(&w) < 0)
		goto done;
	if (!yaml_parser_initialize(&parser)) {
		spec_err(&ld, (spec_pos){0, 0}, "out of memory reading YAML");
		goto done;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &w.doc)) {
		yaml_problem(&w, &parser);
	} else {
		yaml_document_t more;

		have_doc = true;
		load_top(&w);
		/* "---" starts a second document, which nothing would read */
		if (!ld.stop && yaml_document_get_root_node(&w.doc)) {
			if (!yaml_parser_load(&parser, &more)) {
				yaml_problem(&w, &parser);
			} else {
				yaml_node_t *r = yaml_document_get_root_node(&more);

				if (r)
					spec_err(&ld, node_pos(r),
						 "a second YAML document; a gates file holds one");
				yaml_document_delete(&more);
			}
		}
	}
	yaml_parser_delete(&parser);
done:
	if (have_doc)
		yaml_document_delete(&w.doc);
	/* "too many problems" stays last, wherever it points */
	if (ld.ndiags >= SPEC_MAX_DIAGS && d->n > ld.first_diag)
		d->n--;
	sort_diags(d, ld.first_diag);
	if (ld.ndiags >= SPEC_MAX_DIAGS)
		d->n++;
	if (ld.warnings_dropped)
		spec_diags_add(d, SPEC_WARNING, ld.root_pos,
			       "%zu more warnings like those above not shown",
			       ld.warnings_dropped);
	/* errors added by this load (the list may hold a caller's earlier ones) */
	for (size_t i = ld.first_diag; i < d->n; i++) {
		if (d->v[i].severity == SPEC_ERROR) {
			spec_free(ld.s);
			return -1;
		}
	}
	*out = ld.s;
	return 0;
}

int spec_load_file(const char *path, spec **out, spec_diags *d)
{
	struct stat st;
	rg_buf buf = RG_BUF_INIT;
	char chunk[65536], *dir, *slash;
	size_t n;
	FILE *f;
	int rc;

	*out = NULL;
	free(d->file);
	d->file = xstrdup(path);
	f = fopen(path, "r");
	if (!f) {
		spec_diags_add(d, SPEC_ERROR, (spec_pos){0, 0}, "cannot open '%s': %s",
			       SHOW(path), strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		spec_diags_add(d, SPEC_ERROR, (spec_pos){0, 0},
			       "cannot read '%s': it is a directory", SHOW(path));
		fclose(f);
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (buf.len + n > SPEC_MAX_FILE_SIZE) {
			spec_diags_add(d, SPEC_ERROR, (spec_pos){0, 0},
				       "'%s' is too large for a gates file (over %u MiB)",
				       SHOW(path), SPEC_MAX_FILE_SIZE >> 20);
			rg_buf_release(&buf);
			fclose(f);
			return -1;
		}
		rg_buf_add(&buf, chunk, n);
	}
	if (ferror(f)) {
		spec_diags_add(d, SPEC_ERROR, (spec_pos){0, 0}, "cannot read '%s': %s",
			       SHOW(path), strerror(errno));
		rg_buf_release(&buf);
		fclose(f);
		return -1;
	}
	fclose(f);

	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	rc = spec_load_string(buf.s ? buf.s : "", buf.len, path, dir, out, d);
	free(dir);
	rg_buf_release(&buf);
	return rc;
}
