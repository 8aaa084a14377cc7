/*
 * report: what a person reads after a run — one summary line with the
 * outcome and why, then the timeline of gate events, in columns.
 */
#include "runner.h"
#include "diagnose.h"

#include <string.h>

static const char *outcome_color(enum run_outcome o)
{
	switch (run_outcome_exit(o)) {
	case RG_EXIT_OK: return "\033[1;32m";
	case RG_EXIT_UNMET: return "\033[1;31m";
	default: return "\033[1;33m";
	}
}

static int width(const char *s)
{
	return s ? (int)strlen(s) : 1;
}

void report_timeline(FILE *f, const run_result *res)
{
	int ww = 0, wt = 0, wg = 0, wtid = 0;
	size_t i;

	for (i = 0; i < res->ntl; i++) {
		const tl_entry *e = &res->tl[i];
		char tid[32];
		int n = snprintf(tid, sizeof(tid), "%d", (int)e->tid);

		if (width(e->who) > wt)
			wt = width(e->who);
		if (width(e->where) > ww)
			ww = width(e->where);
		if (width(e->gate) > wg)
			wg = width(e->gate);
		if (n > wtid)
			wtid = n;
	}
	for (i = 0; i < res->ntl; i++) {
		const tl_entry *e = &res->tl[i];

		fprintf(f, "  %+10.3f ms  %-*s  tid %-*d  %-*s  %-*s  %s\n",
			e->t_ms, wt, e->who, wtid, (int)e->tid,
			ww, e->where ? e->where : "-", wg, e->gate ? e->gate : "-",
			e->what);
	}
	if (res->tl_dropped)
		fprintf(f, "  ... %zu more gate events not shown\n", res->tl_dropped);
}

void report_run(FILE *f, const spec *sp, const run_result *res, int run_no,
		int nruns, bool color)
{
	const char *name = sp->name ? sp->name : sp->path;

	fprintf(f, "racegate: %s", name);
	if (nruns > 1)
		fprintf(f, ": run %d/%d", run_no, nruns);
	fprintf(f, ": %s%s%s", color ? outcome_color(res->outcome) : "",
		run_outcome_name(res->outcome), color ? "\033[0m" : "");
	if (res->note && !strchr(res->note, '\n'))
		fprintf(f, ": %s", res->note);
	fprintf(f, " (%.1f ms)\n", res->elapsed_ms);
	if (res->note && strchr(res->note, '\n'))
		fprintf(f, "%s\n", res->note);
	diag_print(f, res);
	if (res->ntl) {
		fprintf(f, "timeline:\n");
		report_timeline(f, res);
	} else if (sp->ngates) {
		fprintf(f, "timeline: no gate was reached\n");
	}
}
