/*
 * report_trace: --trace FILE.json, Chrome trace events ("JSON object
 * format"), which Perfetto (ui.perfetto.dev) and chrome://tracing open.
 *
 * Each run is a process (pid = run number, placed at its start time in the
 * session, so parallel jobs show side by side); each thread of the program
 * that met a gate is a track of that process (tid = its kernel tid):
 *
 *  - a slice (ph X) for each time a thread was held at a gate, from its
 *    arrival to its release, named after the gate;
 *  - a short slice "open EVENT" where a thread opened an event, and a short
 *    slice "go" where a held thread was released, so that
 *  - flow arrows (ph s -> f) run from the open of each event a gate waits
 *    for to the release of the thread it held, when it opened during that
 *    hold (the open that let the thread go);
 *  - instant events (ph i, thread scope) for arrivals at a gate.
 *
 * Timestamps are microseconds.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gates.h"

#define MARK_US 1.0     /* length of the "open" and "go" marker slices */

struct tw {
	rg_buf *b;
	bool first;
	long long next_flow;
};

/*
 * Times are written in whole nanoseconds (as microseconds with three
 * decimals), and a slice's end is computed in the same units as the next
 * slice's start, so that rounding never makes slices of one track overlap.
 */
static long long to_ns(double us)
{
	return isfinite(us) ? (long long)(us * 1e3 + (us < 0 ? -0.5 : 0.5)) : 0;
}

static void put_ns(rg_buf *b, long long ns)
{
	if (ns < 0) {
		rg_buf_add(b, "-", 1);
		ns = -ns;
	}
	rg_buf_printf(b, "%lld.%03lld", ns / 1000, ns % 1000);
}

static void ev_begin(struct tw *w, const char *ph, const char *name,
		     const char *cat, long pid, long tid, double ts_us)
{
	rg_buf *b = w->b;

	rg_buf_puts(b, w->first ? "\n{" : ",\n{");
	w->first = false;
	rg_buf_printf(b, "\"ph\":\"%s\",\"name\":", ph);
	json_str(b, name);
	rg_buf_puts(b, ",\"cat\":");
	json_str(b, cat);
	rg_buf_printf(b, ",\"pid\":%ld,\"tid\":%ld,\"ts\":", pid, tid);
	put_ns(b, to_ns(ts_us));
}

static void meta(struct tw *w, const char *what, long pid, long tid,
		 const char *key, const char *sval, long ival)
{
	rg_buf *b = w->b;

	rg_buf_puts(b, w->first ? "\n{" : ",\n{");
	w->first = false;
	rg_buf_printf(b, "\"ph\":\"M\",\"name\":\"%s\",\"pid\":%ld,\"tid\":%ld,"
		      "\"args\":{\"%s\":", what, pid, tid, key);
	if (sval)
		json_str(b, sval);
	else
		rg_buf_printf(b, "%ld", ival);
	rg_buf_puts(b, "}}");
}

static void args_entry(rg_buf *b, const tl_entry *e)
{
	rg_buf_puts(b, ",\"args\":{\"where\":");
	json_str(b, e->where);
	rg_buf_puts(b, ",\"gate\":");
	json_str(b, e->gate);
	rg_buf_puts(b, ",\"thread\":");
	json_str(b, e->who);
	rg_buf_puts(b, ",\"what\":");
	json_str(b, e->what);
	rg_buf_puts(b, "}");
}

/* The HOLD entry of the hold that e (a RELEASE/TIMEOUT) ends, or NULL. */
static const tl_entry *hold_of(const run_result *r, size_t ie)
{
	const tl_entry *e = &r->tl[ie];
	size_t i;

	for (i = ie; i-- > 0;)
		if (r->tl[i].tid == e->tid && r->tl[i].kind == GATE_NOTE_HOLD)
			return &r->tl[i];
	return NULL;
}

/* Does a RELEASE/TIMEOUT after the HOLD at ih end it? */
static bool hold_ended(const run_result *r, size_t ih)
{
	size_t i;

	for (i = ih + 1; i < r->ntl; i++)
		if (r->tl[i].tid == r->tl[ih].tid &&
		    (r->tl[i].kind == GATE_NOTE_RELEASE ||
		     r->tl[i].kind == GATE_NOTE_TIMEOUT))
			return true;
	return false;
}

/*
 * A hold that lasted until the run ended (stuck, timed out, interrupted):
 * its slice ends with the run, so that the trace shows who was held.
 */
static void put_open_hold(struct tw *w, const run_result *r, const tl_entry *e,
			  long pid, double base)
{
	double ts = base + e->t_ms * 1e3, end = base + r->elapsed_ms * 1e3;

	if (end < ts)
		end = ts;
	ev_begin(w, "X", e->gate ? e->gate : "held", "held", pid, e->tid, ts);
	rg_buf_puts(w->b, ",\"dur\":");
	put_ns(w->b, to_ns(end) - to_ns(ts));
	rg_buf_puts(w->b, ",\"args\":{\"where\":");
	json_str(w->b, e->where);
	rg_buf_puts(w->b, ",\"held\":");
	json_str(w->b, e->what);
	rg_buf_puts(w->b, ",\"released\":");
	json_str(w->b, "never: the run ended");
	rg_buf_puts(w->b, "}}");
}

static bool gate_waits_for(const spec *sp, int g, const char *event)
{
	size_t i;

	if (g < 0 || (size_t)g >= sp->ngates || !event)
		return false;
	for (i = 0; i < sp->gates[g].wait.n; i++)
		if (!strcmp(sp->gates[g].wait.v[i], event))
			return true;
	return false;
}

/* Each thread of run pid named once, as the timeline first shows it. */
static void name_threads(struct tw *w, const run_result *r, long pid)
{
	for (size_t i = 0; i < r->ntl; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = r->tl[j].tid == r->tl[i].tid;
		if (!seen) {
			char *tname = xasprintf("%s (tid %d)", r->tl[i].who,
						(int)r->tl[i].tid);

			meta(w, "thread_name", pid, r->tl[i].tid, "name", tname, 0);
			free(tname);
		}
	}
}

/* An instant event on e's thread, named prefix + name, with e's args. */
static void put_instant(struct tw *w, const char *prefix, const char *name,
			const char *cat, long pid, const tl_entry *e, double ts)
{
	char *full = xasprintf("%s%s", prefix, name ? name : "?");

	ev_begin(w, "i", full, cat, pid, e->tid, ts);
	rg_buf_puts(w->b, ",\"s\":\"t\"");
	args_entry(w->b, e);
	rg_buf_puts(w->b, "}");
	free(full);
}

static void put_run(struct tw *w, const report_ctx *rc, const run_record *rec)
{
	const run_result *r = &rec->r;
	const long pid = rec->no;
	const double base = rec->start_ms * 1e3;
	char *pname = xasprintf("run %ld: %s", rec->no, run_outcome_name(r->outcome));
	size_t i, j;

	meta(w, "process_name", pid, 0, "name", pname, 0);
	meta(w, "process_sort_index", pid, 0, "sort_index", NULL, rec->no);
	free(pname);
	name_threads(w, r, pid);
	for (i = 0; i < r->ntl; i++) {
		const tl_entry *e = &r->tl[i];
		double ts = base + e->t_ms * 1e3;
		char *name;

		if (e->kind == TL_WHEN_FAULT) {   /* a condition's first unreadable read */
			put_instant(w, "", e->what, "when", pid, e, ts);
			continue;
		}
		switch ((enum gate_note_kind)e->kind) {
		case GATE_NOTE_HOLD:
			if (!hold_ended(r, i))
				put_open_hold(w, r, e, pid, base);
			/* the arrival that opened an event and then waited: one arrival */
			if (i > 0 && r->tl[i - 1].tid == e->tid &&
			    r->tl[i - 1].gate_index == e->gate_index &&
			    r->tl[i - 1].t_ms == e->t_ms &&
			    r->tl[i - 1].kind == GATE_NOTE_OPEN)
				break;
			/* fall through */
		case GATE_NOTE_ARRIVE:
			put_instant(w, "arrive ", e->gate, "arrival", pid, e, ts);
			break;
		case GATE_NOTE_OPEN:
			if (e->gate)   /* an arrival that opened an event */
				put_instant(w, "arrive ", e->gate, "arrival", pid, e, ts);
			name = xasprintf("open %s", e->event ? e->event : "?");
			ev_begin(w, "X", name, "open", pid, e->tid, ts);
			rg_buf_puts(w->b, ",\"dur\":");
			json_num(w->b, MARK_US);
			args_entry(w->b, e);
			rg_buf_puts(w->b, "}");
			free(name);
			break;
		case GATE_NOTE_RELEASE:
		case GATE_NOTE_TIMEOUT: {
			const tl_entry *h = hold_of(r, i);
			double held = e->held_ms > 0 ? e->held_ms * 1e3 : 0;
			long long end = to_ns(ts), start = to_ns(ts - held);

			ev_begin(w, "X", e->gate ? e->gate : "held", "held", pid,
				 e->tid, ts - held);
			rg_buf_puts(w->b, ",\"dur\":");
			put_ns(w->b, end - start);
			rg_buf_puts(w->b, ",\"args\":{\"where\":");
			json_str(w->b, e->where);
			rg_buf_puts(w->b, ",\"held\":");
			json_str(w->b, h ? h->what : NULL);
			rg_buf_puts(w->b, ",\"released\":");
			json_str(w->b, e->what);
			rg_buf_puts(w->b, "}}");
			ev_begin(w, "X", e->kind == GATE_NOTE_TIMEOUT ? "go (timeout)" :
				 "go", "release", pid, e->tid, ts);
			rg_buf_puts(w->b, ",\"dur\":");
			json_num(w->b, MARK_US);
			rg_buf_puts(w->b, "}");
			if (e->kind == GATE_NOTE_TIMEOUT)
				break;
			/* arrows from the opens this hold was waiting for */
			for (j = 0; j < r->ntl; j++) {
				const tl_entry *o = &r->tl[j];
				double to = base + o->t_ms * 1e3;

				if (o->kind != GATE_NOTE_OPEN ||
				    !gate_waits_for(rc->sp, e->gate_index, o->event) ||
				    o->t_ms < e->t_ms - e->held_ms || o->t_ms > e->t_ms)
					continue;
				ev_begin(w, "s", "opens", "flow", pid, o->tid, to);
				rg_buf_printf(w->b, ",\"id\":%lld}", w->next_flow);
				ev_begin(w, "f", "opens", "flow", pid, e->tid, ts);
				rg_buf_printf(w->b, ",\"id\":%lld,\"bp\":\"e\"}",
					      w->next_flow);
				w->next_flow++;
			}
			break;
		}
		case GATE_NOTE_BIND:
			ev_begin(w, "i", e->what, "bind", pid, e->tid, ts);
			rg_buf_puts(w->b, ",\"s\":\"t\"}");
			break;
		}
	}
}

int report_trace_write(const report_ctx *rc, const char *path, rg_err *err)
{
	rg_buf b = RG_BUF_INIT;
	struct tw w = { &b, true, 1 };
	size_t i;
	int ret;

	rg_buf_puts(&b, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"tool\":\"racegate\",\"spec\":");
	json_str(&b, rc->sp->path);
	rg_buf_puts(&b, ",\"name\":");
	json_str(&b, rc->sp->name);
	rg_buf_puts(&b, "},\"traceEvents\":[");
	for (i = 0; i < rc->nruns; i++)
		put_run(&w, rc, &rc->runs[i]);
	rg_buf_puts(&b, "\n]}\n");
	ret = report_write_file(path, &b, err);
	rg_buf_release(&b);
	return ret;
}
