/*
 * report: what a person reads after a run — one summary line with the
 * outcome and why, then the timeline of gate events, in columns.
 */
#include "report.h"

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

/* Does the timeline name threads of more than one process? */
static bool tl_processes(const run_result *res)
{
	for (size_t i = 1; i < res->ntl; i++)
		if (res->tl[i].pid && res->tl[0].pid && res->tl[i].pid != res->tl[0].pid)
			return true;
	return false;
}

void report_timeline(FILE *f, const run_result *res)
{
	int ww = 0, wt = 0, wg = 0, wtid = 0;
	bool procs = tl_processes(res);
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

		char pid[32] = "";

		/* several processes: which one each thread is in */
		if (procs)
			snprintf(pid, sizeof(pid), "pid %-*d  ", wtid, (int)e->pid);
		fprintf(f, "  %+10.3f ms  %-*s  %stid %-*d  %-*s  %-*s  %s\n",
			e->t_ms, wt, e->who, pid, wtid, (int)e->tid,
			ww, e->where ? e->where : "-", wg, e->gate ? e->gate : "-",
			e->what);
	}
	if (res->tl_dropped)
		fprintf(f, "  ... %zu more gate events not shown\n", res->tl_dropped);
}

/* res's diagnosis, if any: thread lines, the chain, backtraces. */
static void diag_print(FILE *f, const run_result *res)
{
	int wl = 0, wt = 0;
	bool procs = false;
	size_t i, j;

	if (!res->ndiag && !res->chain)
		return;
	for (i = 0; i < res->ndiag; i++) {
		char tid[32];
		int n = snprintf(tid, sizeof(tid), "%d", (int)res->diag[i].tid);

		if ((int)strlen(res->diag[i].label) > wl)
			wl = (int)strlen(res->diag[i].label);
		if (n > wt)
			wt = n;
		/* several processes: which one each thread is in */
		procs |= res->diag[i].pid && res->diag[i].pid != res->diag[0].pid;
	}
	if (res->ndiag)
		fprintf(f, "threads:\n");
	for (i = 0; i < res->ndiag; i++) {
		const diag_thread *dt = &res->diag[i];
		char pid[32] = "";

		if (procs)
			snprintf(pid, sizeof(pid), "pid %-*d  ", wt, (int)dt->pid);
		fprintf(f, "  %-*s  %stid %-*d  %s%s%s\n", wl, dt->label, pid, wt,
			(int)dt->tid, dt->state, dt->where ? "  at " : "",
			dt->where ? dt->where : "");
	}
	if (res->chain && *res->chain)
		fprintf(f, "wait-for chain: %s\n", res->chain);
	for (i = 0; i < res->ndiag; i++) {
		const diag_thread *dt = &res->diag[i];

		if (!dt->nbacktrace)
			continue;
		fprintf(f, "backtrace of %s (tid %d):\n", dt->label, (int)dt->tid);
		for (j = 0; j < dt->nbacktrace; j++)
			fprintf(f, "  %s\n", dt->backtrace[j]);
	}
}

/* The outcome line; a note of several lines by its first, when brief. */
static void run_line(FILE *f, const spec *sp, const run_result *res, int run_no,
		     int nruns, bool color, bool brief)
{
	const char *name = sp->name ? sp->name : sp->path;
	const char *nl = res->note ? strchr(res->note, '\n') : NULL;

	fprintf(f, "racegate: %s", name);
	if (nruns > 1)
		fprintf(f, ": run %d/%d", run_no, nruns);
	fprintf(f, ": %s%s%s", color ? outcome_color(res->outcome) : "",
		run_outcome_name(res->outcome), color ? "\033[0m" : "");
	if (res->note && !nl)
		fprintf(f, ": %s", res->note);
	else if (res->note && brief && nl > res->note)
		fprintf(f, ": %.*s ...", (int)(nl - res->note), res->note);
	fprintf(f, " (%.1f ms)\n", res->elapsed_ms);
}

void report_run_line(FILE *f, const spec *sp, const run_result *res, int run_no,
		     int nruns, bool color)
{
	run_line(f, sp, res, run_no, nruns, color, true);
}

void report_run(FILE *f, const spec *sp, const run_result *res, int run_no,
		int nruns, bool color)
{
	run_line(f, sp, res, run_no, nruns, color, false);
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
