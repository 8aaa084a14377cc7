/*
 * tri_plan: the pure parts of racegate triage (tri.h): a race's two sides
 * as gates name them, the gates file of each order, and the verdict.
 */
#include "tri.h"
#include "dwarfx.h"
#include "spec.h"

#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[] = {
	[TRI_HARMFUL] = "HARMFUL",
	[TRI_OUTPUT_DIFFERS] = "OUTPUT-DIFFERS",
	[TRI_BENIGN] = "BENIGN",
	[TRI_NOT_REACHED] = "NOT-REACHED",
	[TRI_SINGLE_ORDER] = "SINGLE-ORDER",
};

const char *tri_verdict_name(enum tri_verdict v)
{
	return verdict_names[v];
}

void tri_side_release(tri_side *s)
{
	free(s->file);
	free(s->function);
	free(s->start);
	free(s->alias);
	free(s->text);
	free(s->inner);
	memset(s, 0, sizeof(*s));
}

char *tri_side_at(const tri_side *s)
{
	return s->plus ? xasprintf("%s:%d+%d", s->file, s->line, s->plus) :
	       xasprintf("%s:%d", s->file, s->line);
}

int tri_pick_access(const tri_side *s, const size_t *plus, const unsigned char *how,
		    size_t n)
{
	unsigned want = s->kind == TRIAGE_READ ? DWARFX_READS :
			s->kind == TRIAGE_WRITE ? DWARFX_WRITES : 0;

	if (n < 2 || !want)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (how[i] & want)
			return (int)plus[i];
	return 0;
}

/* name without its parameter list: "f(int) const" -> "f", "operator()(x)" -> "operator()" */
static char *no_params(const char *name)
{
	const char *p = strstr(name, "operator()");
	const char *from = p ? p + strlen("operator()") : name;
	const char *paren = strchr(from, '(');

	return xstrndup(name, paren ? (size_t)(paren - name) : strlen(name));
}

/* the last "::" component of name without parameters, malloc'd */
static char *last_component(const char *name)
{
	char *s = no_params(name), *p, *last = s;
	int depth = 0;

	for (p = s; *p; p++) {
		if (*p == '<' || *p == '{' || *p == '(')
			depth++;
		else if ((*p == '>' || *p == '}' || *p == ')') && depth)
			depth--;
		else if (!depth && p[0] == ':' && p[1] == ':')
			last = p + 2;
	}
	p = xstrdup(last);
	free(s);
	return p;
}

bool tri_same_function(const char *rep, const char *fn)
{
	char *a, *b;
	bool same;

	if (!rep || !fn)
		return true;    /* nothing to tell them apart by */
	a = last_component(rep);
	b = last_component(fn);
	same = !strcmp(a, b);
	free(a);
	free(b);
	return same;
}

char *tri_start_from_function(const char *start, const char *fn)
{
	const char *op;

	if (!start || !fn || !strstr(start, "operator()"))
		return NULL;
	op = strstr(fn, "::operator()");
	if (!op)
		return NULL;
	return xstrndup(fn, (size_t)(op - fn));
}

/* An alias from a start routine: its letters, digits and '_'. */
static char *alias_of(const char *start, int nth)
{
	rg_buf b = RG_BUF_INIT;
	char *last = start ? last_component(start) : xstrdup("main");

	if (!strncmp(last, "{lambda", 7) || !strncmp(last, "$_", 2) ||
	    !strcmp(last, "operator()")) {
		free(last);
		last = xstrdup("lambda");
	}

	for (const char *p = last; *p && b.len < 24; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_')
			rg_buf_printf(&b, "%c", *p);
	}
	if (!b.len)
		rg_buf_puts(&b, "thread");
	if (nth)
		rg_buf_printf(&b, "_%d", nth);
	free(last);
	return rg_buf_detach(&b);
}

static int side_of(const triage_report *r, const triage_access *a, tri_side *s,
		   const char *which, rg_err *err)
{
	int k = triage_place(a), st = triage_start_frame(a);
	const triage_frame *f = k >= 0 ? &a->stack.v[k] : NULL;
	const triage_thread *t = a->thread >= 0 ? triage_thread_at(r, (size_t)a->thread) : NULL;

	if (!f || !f->file || f->line <= 0)
		return rg_error(err, "its %s access has no place with a file and a line "
				"in the report", which);
	s->file = xstrdup(rg_base_name(f->file));
	s->line = f->line;
	s->kind = a->kind;
	s->function = f->function ? xstrdup(f->function) : NULL;
	s->tsan_thread = t ? t->id : -1;
	if (t && !t->main && st >= 0 && a->stack.v[st].function)
		s->start = no_params(a->stack.v[st].function);
	/* the access itself, in library code built into the program (a
	   template's instance): where a search may stop inside the call */
	for (int i = 0; i < k; i++) {
		const triage_frame *in = &a->stack.v[i];

		if (in->file && in->line > 0 && in->object && f->object &&
		    !strcmp(in->object, f->object)) {
			s->inner = xasprintf("%s:%d", rg_base_name(in->file), in->line);
			break;
		}
	}
	return 0;
}

int tri_sides(const triage_report *r, const triage_race *race, tri_side s[2],
	      rg_err *err)
{
	memset(s, 0, 2 * sizeof(*s));
	if (side_of(r, &race->a, &s[0], "first", err) < 0 ||
	    side_of(r, &race->b, &s[1], "second", err) < 0) {
		tri_side_release(&s[0]);
		tri_side_release(&s[1]);
		return -1;
	}
	if (race->a.thread >= 0 && race->a.thread == race->b.thread) {
		tri_side_release(&s[0]);
		tri_side_release(&s[1]);
		return rg_error(err, "both its accesses are on one thread");
	}
	/* one start routine for both: the first created is nth 1 */
	if (s[0].start && s[1].start && !strcmp(s[0].start, s[1].start)) {
		bool swap = s[0].tsan_thread > s[1].tsan_thread;

		s[0].nth = swap ? 2 : 1;
		s[1].nth = swap ? 1 : 2;
	}
	tri_name_threads(s);
	return 0;
}

void tri_name_threads(tri_side s[2])
{
	for (int i = 0; i < 2; i++) {
		free(s[i].alias);
		s[i].alias = alias_of(s[i].start, s[i].nth);
	}
	if (!strcmp(s[0].alias, s[1].alias)) {
		/* two mains of two processes, say: keep them apart */
		char *a = xasprintf("%s_b", s[1].alias);

		free(s[1].alias);
		s[1].alias = a;
	}
}

static void put_gate(rg_buf *b, const tri_side *s, const char *role, const char *open,
		     const char *wait, const char *then_open, long wait_ms)
{
	char *at = tri_side_at(s);

	rg_buf_printf(b, "  - name: %s-%s\n    at: ", s->alias, role);
	spec_put_quoted(b, at);
	rg_buf_puts(b, "\n");
	free(at);
	if (s->start)
		rg_buf_printf(b, "    thread: %s\n", s->alias);
	rg_buf_puts(b, "    once: true\n");
	if (open)
		rg_buf_printf(b, "    open: %s\n", open);
	if (wait)
		rg_buf_printf(b, "    wait: %s\n", wait);
	if (then_open)
		rg_buf_printf(b, "    then_open: %s\n", then_open);
	if (wait)
		rg_buf_printf(b, "    timeout: %ldms\n", wait_ms);
}

/* The second's arrival at its next line: it has made its access. */
static void put_next_gate(rg_buf *b, const tri_side *s, const char *past)
{
	char *at = tri_side_at(s);

	rg_buf_printf(b, "  - name: %s-next\n    at: ", s->alias);
	spec_put_quoted(b, at);
	rg_buf_puts(b, "\n");
	free(at);
	if (s->start)
		rg_buf_printf(b, "    thread: %s\n", s->alias);
	rg_buf_printf(b, "    once: true\n    open: %s\n", past);
}

char *tri_gates_yaml(const tri_side s[2], int first, bool weak, char *const *command,
		     long wait_ms, long timeout_ms, const char *name, const char *expect)
{
	const tri_side *f = &s[first], *o = &s[!first];
	rg_buf b = RG_BUF_INIT;
	char here[64], done[64], past[64];
	bool tight;

	char *fat = tri_side_at(f), *oat = tri_side_at(o);

	rg_buf_printf(&b, "# Written by racegate triage: %s (%s) runs before\n"
		      "# %s (%s).  Run it with: racegate run FILE --repeat 20\n"
		      "version: 1\nname: ", fat, f->alias, oat, o->alias);
	free(fat);
	free(oat);
	spec_put_quoted(&b, name);
	rg_buf_puts(&b, "\ncommand: [");
	for (size_t i = 0; command[i]; i++) {
		if (i)
			rg_buf_puts(&b, ", ");
		spec_put_quoted(&b, command[i]);
	}
	rg_buf_printf(&b, "]\ntimeout: %ldms\n", timeout_ms);
	if (s[0].start || s[1].start)
		rg_buf_puts(&b, "\nthreads:\n");
	for (int i = 0; i < 2; i++) {
		if (!s[i].start)
			continue;
		rg_buf_printf(&b, "  %s: {start: ", s[i].alias);
		spec_put_quoted(&b, s[i].start);
		if (s[i].nth)
			rg_buf_printf(&b, ", nth: %d", s[i].nth);
		rg_buf_puts(&b, "}\n");
	}
	snprintf(here, sizeof(here), "%s-here", o->alias);
	snprintf(done, sizeof(done), "%s-done", f->alias);
	rg_buf_puts(&b, "\ngates:\n"
		    "  # the second waits at its access until the first has made its own\n");
	snprintf(past, sizeof(past), "%s-past", o->alias);
	tight = !weak && f->next_line;
	/*
	 * "The second has made its access" is its arrival at its next line: a
	 * line's then_open may come before its store where the compiler put
	 * another line's code inside it (a lambda's capture, at -O0)
	 */
	put_gate(&b, o, "waits", weak ? NULL : here, done,
		 tight && !o->next_line ? past : NULL, wait_ms);
	rg_buf_puts(&b, weak ? "  # the first makes its access\n" :
		    "  # the first makes its access once the second is at its own\n");
	put_gate(&b, f, "goes", NULL, weak ? NULL : here, done, wait_ms);
	if (tight) {
		tri_side next = *f;

		next.line = f->next_line;
		next.plus = 0;
		rg_buf_puts(&b, "  # and goes on only once the second has made its own\n");
		/* the second's next line may never come (a loop it leaves): the
		   first goes on after a short while all the same */
		put_gate(&b, &next, "holds", NULL, past, NULL,
			 wait_ms < TRI_HOLD_MS ? wait_ms : TRI_HOLD_MS);
		if (o->next_line) {
			next = *o;
			next.line = o->next_line;
			next.plus = 0;
			put_next_gate(&b, &next, past);
		}
	}
	if (expect)
		rg_buf_printf(&b, "\n%s", expect);
	return rg_buf_detach(&b);
}

void tri_order_release(tri_order *o)
{
	for (int i = 0; i < o->nends; i++)
		free(o->ends[i]);
	free(o->ends);
	free(o->failure);
	explore_run_release(&o->fail);
	free(o->why);
	memset(o, 0, sizeof(*o));
}

/* Line k (0-based) of text, malloc'd; "" past its end. */
static char *nth_line(const char *text, int k)
{
	for (; k > 0 && text; k--)
		text = (text = strchr(text, '\n')) ? text + 1 : NULL;
	if (!text)
		return xstrdup("");
	return xstrndup(text, strcspn(text, "\n"));
}

char *tri_ends_differ(const char *a, const char *b)
{
	int ea = -1, eb = -1, k = 0;
	const char *oa = strchr(a, '\n'), *ob = strchr(b, '\n');
	rg_buf r = RG_BUF_INIT;

	sscanf(a, "exit %d", &ea);
	sscanf(b, "exit %d", &eb);
	oa = oa ? oa + 1 : "";
	ob = ob ? ob + 1 : "";
	if (ea != eb)
		rg_buf_printf(&r, "exit %d against exit %d", ea, eb);
	if (strcmp(oa, ob)) {
		char *la, *lb;

		/* the first line of stdout where they part */
		for (;; k++) {
			la = nth_line(oa, k);
			lb = nth_line(ob, k);
			if (strcmp(la, lb))
				break;
			free(la);
			free(lb);
		}
		rg_buf_printf(&r, "%sstdout line %d \"%.60s\" against \"%.60s\"",
			      r.len ? ", " : "", k + 1, la, lb);
		free(la);
		free(lb);
	}
	return rg_buf_detach(&r);
}

/* Do the two orders share no end (exit status and output)? */
static bool ends_disjoint(const tri_order *a, const tri_order *b)
{
	for (int i = 0; i < a->nends; i++)
		for (int j = 0; j < b->nends; j++)
			if (!strcmp(a->ends[i], b->ends[j]))
				return false;
	return true;
}

enum tri_verdict tri_classify(const tri_order o[2], int *which)
{
	*which = -1;
	for (int k = 0; k < 2; k++)
		if (o[k].failed) {
			*which = k;
			return TRI_HARMFUL;
		}
	for (int side = 0; side < 2; side++)
		if (!o[0].reached[side] && !o[1].reached[side]) {
			*which = side;
			return TRI_NOT_REACHED;
		}
	if (!o[0].nends || !o[1].nends) {
		*which = !o[0].nends && !o[1].nends ? 2 : o[0].nends ? 1 : 0;
		return TRI_SINGLE_ORDER;
	}
	if (ends_disjoint(&o[0], &o[1]))
		return TRI_OUTPUT_DIFFERS;
	return TRI_BENIGN;
}
