/*
 * tri_reports: the races racegate triage works on (tri.h), from one
 * report or several: each race's two sides, DRD's unseen second access
 * taken from what the report shows, one race per pair of places across
 * the reports; and the check that a place has code of its own in the
 * normal build.
 */
#include "tri.h"
#include "plan.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

void tri_reports_add(tri_reports *rs, triage_report *r)
{
	if (rs->n == sizeof(rs->v) / sizeof(rs->v[0]))
		rg_bug("more than %zu reports", rs->n);
	rs->v[rs->n++] = r;
}

static void items_release(tri_reports *rs)
{
	for (size_t i = 0; i < rs->nitems; i++) {
		tri_item *it = &rs->items[i];

		tri_side_release(&it->s[0]);
		tri_side_release(&it->s[1]);
		free(it->note);
		free(it->inferred);
		for (size_t k = 0; k < it->nseen; k++)
			free(it->seen[k]);
		free(it->seen);
	}
	free(rs->items);
	rs->items = NULL;
	rs->nitems = 0;
}

void tri_reports_release(tri_reports *rs)
{
	items_release(rs);
	for (size_t i = 0; i < rs->n; i++)
		triage_free(rs->v[i]);
	memset(rs, 0, sizeof(*rs));
}

int tri_reports_load(tri_reports *rs, const char *const paths[3], rg_err *err)
{
	static const enum triage_tool tools[3] = { TRIAGE_TSAN, TRIAGE_HELGRIND, TRIAGE_DRD };

	memset(rs, 0, sizeof(*rs));
	for (int k = 0; k < 3; k++) {
		triage_report *r;

		if (!paths[k])
			continue;
		if (triage_load(tools[k], paths[k], &r, err) != TRIAGE_OK) {
			tri_reports_release(rs);
			return -1;
		}
		tri_reports_add(rs, r);
	}
	tri_reports_build(rs);
	return 0;
}

/* ---- DRD: the second access ---- */

static bool shown(const triage_access *a)
{
	return a->stack.n > 0;
}

static long pid_of(const triage_report *r, const triage_access *a)
{
	return a->thread >= 0 ? triage_thread_at(r, (size_t)a->thread)->pid : 0;
}

/* Do x and y touch one byte of one process, at least one of them writing? */
static bool conflict(const triage_report *r, const triage_access *x, const triage_access *y)
{
	uint64_t xs = x->size > 0 ? (uint64_t)x->size : 1;
	uint64_t ys = y->size > 0 ? (uint64_t)y->size : 1;

	return x->addr && y->addr && x->addr < y->addr + ys && y->addr < x->addr + xs &&
	       pid_of(r, x) == pid_of(r, y) &&
	       (x->kind == TRIAGE_WRITE || y->kind == TRIAGE_WRITE);
}

/* The accesses r shows that conflict with a, one per place, in the report's order. */
static size_t candidates(const triage_report *r, const triage_access *a,
			 const triage_access **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < triage_nraces(r) && n < max; i++) {
		const triage_race *x = triage_race_at(r, i);
		const triage_access *acc[2] = { &x->a, &x->b };

		for (int k = 0; k < 2 && n < max; k++) {
			const triage_access *c = acc[k];
			int pc = triage_place(c);
			bool dup = false;

			if (!shown(c) || pc < 0 || !c->stack.v[pc].file ||
			    c->stack.v[pc].line <= 0 || !conflict(r, a, c))
				continue;
			for (size_t j = 0; j < n && !dup; j++) {
				int pj = triage_place(out[j]);

				dup = out[j]->stack.v[pj].line == c->stack.v[pc].line &&
				      !strcmp(out[j]->stack.v[pj].file, c->stack.v[pc].file);
			}
			if (!dup)
				out[n++] = c;
		}
	}
	return n;
}

static int thread_id(const triage_report *r, int thread)
{
	return thread >= 0 ? triage_thread_at(r, (size_t)thread)->id : -1;
}

static const char *kind_word(enum triage_kind k)
{
	return k == TRIAGE_WRITE ? "store" : k == TRIAGE_READ ? "load" : "access";
}

/* ---- items ---- */

static bool same_side(const tri_side *x, const tri_side *y)
{
	return x->line == y->line && !strcmp(x->file, y->file);
}

static tri_item *find_pair(tri_reports *rs, const tri_side s[2])
{
	for (size_t i = 0; i < rs->nitems; i++) {
		const tri_side *t = rs->items[i].s;

		if (rs->items[i].note)
			continue;
		if ((same_side(&t[0], &s[0]) && same_side(&t[1], &s[1])) ||
		    (same_side(&t[0], &s[1]) && same_side(&t[1], &s[0])))
			return &rs->items[i];
	}
	return NULL;
}

static void add_seen(tri_item *it, const triage_report *r, const triage_race *race)
{
	it->seen = xrealloc(it->seen, (it->nseen + 1) * sizeof(*it->seen));
	it->seen[it->nseen++] = xasprintf("%s:%d", triage_report_name(r), race->report_line);
}

/*
 * Adds the race (with sides s, or a note) as an item, or counts it under
 * the item that has its two places already.  Takes s, note and inferred.
 */
static void add_item(tri_reports *rs, const triage_report *r, const triage_race *race,
		     tri_side s[2], char *note, char *inferred)
{
	tri_item *it = note ? NULL : find_pair(rs, s);

	if (it) {
		tri_side_release(&s[0]);
		tri_side_release(&s[1]);
		free(inferred);
	} else {
		rs->items = xrealloc(rs->items, (rs->nitems + 1) * sizeof(*rs->items));
		it = &rs->items[rs->nitems++];
		memset(it, 0, sizeof(*it));
		it->rep = r;
		it->race = race;
		if (!note)
			memcpy(it->s, s, sizeof(it->s));
		it->note = note;
		it->inferred = inferred;
	}
	add_seen(it, r, race);
}

/*
 * A DRD race whose other access DRD did not show (its segment's stack
 * lost, or merely its bounds): each access the report shows on the same
 * bytes that conflicts with the first (its own line included: the other
 * thread may run the same code) is taken for the second, by the other
 * thread.  None: a note.
 */
static void add_drd_guesses(tri_reports *rs, const triage_report *r, const triage_race *race)
{
	const triage_access *c[16];
	size_t n = candidates(r, &race->a, c, sizeof(c) / sizeof(c[0]));
	int other = thread_id(r, race->b.thread);
	rg_err err = RG_ERR_INIT;

	if (!n) {
		add_item(rs, r, race, NULL, other >= 0 ?
			 xasprintf("DRD did not show the other access (thread %d's, %s) and no "
				   "other access the report shows on 0x%llx conflicts with it: "
				   "its second place is unknown", other, race->b.stack_lost ?
				   "its stack no longer available" : "only its segment's bounds",
				   (unsigned long long)race->a.addr) :
			 xstrdup("DRD did not show the other access nor its thread: its "
				 "second place is unknown"), NULL);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		triage_race guess = *race;   /* shallow: read only */
		int pc = triage_place(c[i]);
		tri_side s[2];

		guess.b = *c[i];
		guess.b.thread = race->b.thread;
		if (tri_sides(r, &guess, s, &err) < 0) {
			add_item(rs, r, race, NULL, xstrdup(err.msg), NULL);
			err.msg[0] = 0;
			continue;
		}
		add_item(rs, r, race, s, NULL,
			 xasprintf("DRD did not show thread %d's access: taken to be the %s "
				   "at %s:%d (report line %d), an access the report shows "
				   "to the same bytes", other, kind_word(c[i]->kind),
				   s[1].file, c[i]->stack.v[pc].line, c[i]->report_line));
	}
}

void tri_reports_build(tri_reports *rs)
{
	rg_err err = RG_ERR_INIT;

	items_release(rs);
	for (size_t k = 0; k < rs->n; k++) {
		const triage_report *r = rs->v[k];

		for (size_t i = 0; i < triage_nraces(r); i++) {
			const triage_race *race = triage_race_at(r, i);
			tri_side s[2];

			if (triage_report_tool(r) == TRIAGE_DRD && !shown(&race->b)) {
				add_drd_guesses(rs, r, race);
			} else if (tri_sides(r, race, s, &err) < 0) {
				add_item(rs, r, race, NULL, xstrdup(err.msg), NULL);
				err.msg[0] = 0;
			} else {
				add_item(rs, r, race, s, NULL, NULL);
			}
		}
	}
}

/* ---- the places in the normal build ---- */

int tri_places_own(const struct plan *p, int no, const tri_side s[2], const char *prog,
		   rg_err *err)
{
	const plan_bp *bp[2] = { plan_gate_bp(p, 0), plan_gate_bp(p, 1) };

	for (int k = 0; k < 2; k++) {
		dwarfx_loc at;

		if (!bp[k] || bp[k]->site.obj != PLAN_EXE)
			continue;
		if (dwarfx_symbolize(p->dx, bp[k]->site.link_addr, &at) < 0 || at.line <= 0 ||
		    at.line == s[k].line)
			continue;
		return rg_error(err, "race %d: %s:%d has no code of its own in '%s': its "
				"first instruction is %s:%d's (an optimised build moved or "
				"merged it), so its order cannot be forced there", no,
				s[k].file, s[k].line, prog, rg_base_name(at.file ? at.file : "?"),
				at.line);
	}
	if (bp[0] && bp[0] == bp[1] && s[0].line != s[1].line)
		return rg_error(err, "race %d: %s:%d and %s:%d are one instruction in '%s' "
				"(an optimised build merged them): their two orders cannot "
				"be told apart", no, s[0].file, s[0].line, s[1].file, s[1].line,
				prog);
	return 0;
}

/* ---- what the reports add to the output ---- */

void tri_json_reports(rg_buf *b, const tri_opts *o)
{
	const char *paths[3] = { o->tsan, o->helgrind, o->drd };
	int n = !!o->tsan + !!o->helgrind + !!o->drd, k = 0;

	if (n == 1) {
		json_str(b, o->tsan ? o->tsan : o->helgrind ? o->helgrind : o->drd);
		return;
	}
	rg_buf_puts(b, "[");
	for (int i = 0; i < 3; i++) {
		if (!paths[i])
			continue;
		rg_buf_puts(b, k++ ? ", " : "");
		json_str(b, paths[i]);
	}
	rg_buf_puts(b, "]");
}

void tri_json_item(rg_buf *b, const tri_item *it, const char *note)
{
	if (note) {
		rg_buf_puts(b, ", \"note\": ");
		json_str(b, note);
	}
	if (it->inferred) {
		rg_buf_puts(b, ", \"inferred\": ");
		json_str(b, it->inferred);
	}
	rg_buf_puts(b, ", \"seen\": [");
	for (size_t i = 0; i < it->nseen; i++) {
		rg_buf_puts(b, i ? ", " : "");
		json_str(b, it->seen[i]);
	}
	rg_buf_puts(b, "]");
}

void tri_say_no_race(FILE *f, const tri_reports *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		fprintf(f, "'%s' reports no data race\n", triage_report_name(rs->v[i]));
}

void tri_say_skipped(FILE *f, const tri_reports *rs)
{
	for (size_t k = 0; k < rs->n; k++) {
		const triage_report *r = rs->v[k];

		for (size_t i = 0; i < triage_nskipped(r); i++)
			fprintf(f, "%s:%d: left out: %s (not a data race)\n",
				triage_report_name(r), triage_skipped_at(r, i)->report_line,
				triage_skipped_at(r, i)->what);
	}
}
