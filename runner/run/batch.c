/*
 * batch: a session of runs.  Starts them (jobs.c), says what happened to
 * each as it ends, keeps a progress line on a terminal, prints the tally,
 * writes the machine reports, and works out racegate's exit status.
 *
 * --stop-on-first ends a session at its first "decisive" run: a run that
 * is not what was expected, or, when the spec expects the bug, the first
 * run that shows it.  So `--repeat 1000 --stop-on-first` hunts for a
 * failure, and on a regression spec stops at the first unmet run.  The
 * NOT-REPRODUCED runs of a hunt are misses, not decisive.
 *
 * A session of many runs tells its unexpected runs without flooding the
 * terminal: the first in full (output, diagnosis, timeline), the next
 * BRIEF_RUNS in one line each, and the rest as a count before the tally;
 * with --quiet only the tally, with --verbose every run in full.  The
 * reports (--report, --junit, --tap, --trace) hold every run whatever is
 * shown.
 *
 * SIGINT, SIGTERM or SIGHUP end a session early too (interrupt.h): the run
 * in progress is INTERRUPTED, the reports hold every run that ended, and
 * the exit status is 128 + the signal's number.
 */
#include "run.h"
#include "interrupt.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* Unexpected runs of a session shown in one line each, after the first. */
#define BRIEF_RUNS 5

struct session {
	plan *p;
	const spec *sp;
	const batch_opts *bo;
	size_t counts[OUT_ERROR + 1];   /* OUT_ERROR is the last outcome */
	long ndone;
	int status;              /* worst exit status so far */
	long stop_no;            /* the run that stopped the session, or 0 */
	int stop_status;
	enum run_outcome stop_outcome;
	bool keep;               /* keep results for the machine reports */
	run_record *recs;
	size_t nrecs, caprecs;
	bool progress_shown;
	long nunexpected;        /* unexpected runs so far */
	size_t untold[OUT_ERROR + 1];  /* unexpected runs not shown, by outcome */
	rg_buf warned;           /* "\n"-separated warnings said so far */
};

bool batch_outcome_ok(const batch_opts *bo, enum run_outcome o)
{
	if (bo->expect_mask)
		return (bo->expect_mask >> o) & 1u;
	return run_outcome_exit(o) == RG_EXIT_OK;
}

int batch_parse_outcomes(const char *list, unsigned *mask, rg_err *err)
{
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t n = strcspn(p, ", ");
		int k;

		for (k = 0; k <= OUT_ERROR; k++) {
			const char *name = run_outcome_name((enum run_outcome)k);

			if (strlen(name) == n && !strncasecmp(name, p, n))
				break;
		}
		if (k > OUT_ERROR) {
			rg_buf all = RG_BUF_INIT;

			for (k = 0; k <= OUT_ERROR; k++)
				rg_buf_printf(&all, "%s%s", k ? ", " : "",
					      run_outcome_name((enum run_outcome)k));
			rg_error(err, "unknown outcome '%.*s' (outcomes: %s)",
				 (int)n, p, all.s);
			rg_buf_release(&all);
			return -1;
		}
		*mask |= 1u << k;
		p += n;
		while (*p == ',' || *p == ' ')
			p++;
	}
	if (!*mask)
		return rg_error(err, "no outcome in '%s'", list);
	return 0;
}

/* A run's contribution to the exit status. */
static int run_status(const batch_opts *bo, enum run_outcome o)
{
	int ex = run_outcome_exit(o);

	if (batch_outcome_ok(bo, o))
		return RG_EXIT_OK;
	return ex == RG_EXIT_OK ? RG_EXIT_UNMET : ex;
}

/* The worst status: setup error, then not enforced, then unmet. */
static int worse(int a, int b)
{
	static const int rank[] = { 0, 1, 3, 2 };   /* by status 0..3 */

	return rank[b] > rank[a] ? b : a;
}

static bool decisive(const batch_opts *bo, enum run_outcome o)
{
	if (bo->expect_mask)
		return !batch_outcome_ok(bo, o);
	if (o == OUT_REPRODUCED)
		return true;
	return !batch_outcome_ok(bo, o) && o != OUT_NOT_REPRODUCED;
}

/* ", 3 REPRODUCED, 1 NOT-REPRODUCED" without its first comma: the tally. */
static void add_counts(rg_buf *b, const size_t *counts)
{
	bool first = true;
	int k;

	for (k = 0; k <= OUT_ERROR; k++)
		if (counts[k]) {
			rg_buf_printf(b, "%s %zu %s", first ? "" : ",", counts[k],
				      run_outcome_name((enum run_outcome)k));
			first = false;
		}
}

static void progress_clear(struct session *s)
{
	if (s->progress_shown) {
		fputs("\r\033[K", stderr);
		s->progress_shown = false;
	}
}

static void progress_show(struct session *s)
{
	rg_buf line = RG_BUF_INIT;

	if (!s->bo->progress)
		return;
	/* a terminal line, rewritten in place: not a message */
	rg_buf_printf(&line, "\r\033[Kracegate: %ld/%ld runs:", s->ndone,
		      s->bo->repeat);
	add_counts(&line, s->counts);
	fputs(line.s, stderr);
	rg_buf_release(&line);
	fflush(stderr);
	s->progress_shown = true;
}

static void show_output(const run_result *r)
{
	if (r->out.len) {
		fprintf(stderr, "--- stdout ---\n%s", r->out.s);
		if (r->out.s[r->out.len - 1] != '\n')
			fputc('\n', stderr);
	}
	if (r->err.len) {
		fprintf(stderr, "--- stderr ---\n%s", r->err.s);
		if (r->err.s[r->err.len - 1] != '\n')
			fputc('\n', stderr);
	}
}

/*
 * How much of an unexpected run of a session to show: all of the first, a
 * line of the next BRIEF_RUNS, nothing of the rest (they are counted), and
 * nothing with --quiet.
 */
enum shown { SHOW_ALL, SHOW_LINE, SHOW_NONE };

static enum shown unexpected_shown(struct session *s)
{
	long k = s->nunexpected++;

	if (s->bo->quiet)
		return SHOW_NONE;
	if (k == 0)
		return SHOW_ALL;
	return k <= BRIEF_RUNS ? SHOW_LINE : SHOW_NONE;
}

static void report_one(struct session *s, long no, const run_result *r, bool ok)
{
	const batch_opts *bo = s->bo;
	const char *name = s->sp->name ? s->sp->name : s->sp->path;
	enum shown how = SHOW_ALL;

	if (!(bo->repeat == 1 || bo->verbose || !ok))
		return;
	if (bo->repeat > 1 && !bo->verbose)
		how = unexpected_shown(s);
	if (how == SHOW_NONE) {
		s->untold[r->outcome]++;
		return;
	}
	progress_clear(s);
	if (how == SHOW_LINE) {
		report_run_line(stderr, s->sp, r, (int)no, (int)bo->repeat, bo->color);
		return;
	}
	if (bo->repeat > 1 && !bo->quiet)
		show_output(r);
	if (bo->quiet && bo->repeat > 1)
		rg_say("%s: run %ld: %s", name, no, run_outcome_name(r->outcome));
	else if (bo->quiet)
		rg_say("%s: %s", name, run_outcome_name(r->outcome));
	else
		report_run(stderr, s->sp, r, (int)no, (int)bo->repeat, bo->color);
	if (bo->verbose)
		rg_trace("%zu breakpoint hits at gates, %zu arrivals, %zu "
			 "breakpoints disarmed", r->bp_hits, r->arrivals,
			 r->bp_disarmed);
	for (size_t i = 0; bo->verbose && r->when_false && i < r->ngates; i++)
		if (s->sp->gates[i].when)
			rg_trace("gate '%s': 'when' was false at %zu arrival%s (%zu "
				 "unreadable)", s->sp->gates[i].name, r->when_false[i],
				 r->when_false[i] == 1 ? "" : "s", r->when_faults[i]);
}

/*
 * Says each of r's setup warnings the first time a run of the session has
 * it: a program that always lacks something warns once, not once a run.
 */
static void say_warnings(struct session *s, const run_result *r)
{
	const char *line, *nl;

	if (!s->warned.len)
		rg_buf_puts(&s->warned, "\n");
	for (line = r->warnings.s; line && *line; line = *nl ? nl + 1 : nl) {
		size_t n = strcspn(line, "\n");
		char *key = xasprintf("\n%.*s\n", (int)n, line);

		nl = line + n;
		if (n && !strstr(s->warned.s, key)) {
			progress_clear(s);
			rg_warn("%.*s", (int)n, line);
			rg_buf_puts(&s->warned, key + 1);
		}
		free(key);
	}
}

static bool on_done(void *ctx, long no, double start_ms, run_result *r)
{
	struct session *s = ctx;
	const batch_opts *bo = s->bo;
	bool ok = batch_outcome_ok(bo, r->outcome);
	int st = run_status(bo, r->outcome);
	run_record rec;

	s->ndone++;
	s->counts[r->outcome]++;
	s->status = worse(s->status, st);
	say_warnings(s, r);
	report_one(s, no, r, ok);
	rec.no = no;
	rec.ok = ok;
	rec.start_ms = start_ms;
	rec.tap_point = s->ndone;
	rec.r = *r;
	if (bo->tap) {
		progress_clear(s);
		fflush(stderr);
		report_tap_run(stdout, &rec, bo->verbose);
		fflush(stdout);
	}
	if (s->keep) {
		RG_GROW(s->recs, s->nrecs + 1, s->caprecs);
		s->recs[s->nrecs++] = rec;
	} else {
		run_result_release(r);
	}
	if (!s->stop_no && bo->stop_on_first && decisive(bo, rec.r.outcome)) {
		s->stop_no = no;
		s->stop_status = st;
		s->stop_outcome = rec.r.outcome;
	}
	progress_show(s);
	return s->stop_no != 0;
}

static int cmp_rec(const void *a, const void *b)
{
	const run_record *x = a, *y = b;

	return (x->no > y->no) - (x->no < y->no);
}

static double mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int write_reports(const report_ctx *rc, const batch_opts *bo)
{
	rg_err err = RG_ERR_INIT;
	int ret = 0;

	if (bo->report_path && report_json_write(rc, bo->report_path, &err) < 0) {
		rg_say("%s", err.msg);
		ret = -1;
	}
	if (bo->junit_path && report_junit_write(rc, bo->junit_path, &err) < 0) {
		rg_say("%s", err.msg);
		ret = -1;
	}
	if (bo->trace_path && report_trace_write(rc, bo->trace_path, &err) < 0) {
		rg_say("%s", err.msg);
		ret = -1;
	}
	return ret;
}

int batch_run(plan *p, const spec *sp, run_opts *o, const batch_opts *bo)
{
	struct session s;
	report_ctx rc;
	jobs *j;
	struct timeval wall;
	double t0 = mono_ms();
	char *stopped = NULL;
	rg_err err = RG_ERR_INIT;
	size_t i;
	int status, sig;

	memset(&s, 0, sizeof(s));
	s.p = p;
	s.sp = sp;
	s.bo = bo;
	s.keep = bo->report_path || bo->junit_path || bo->trace_path;
	gettimeofday(&wall, NULL);
	/* reports carry the program's output; TAP keeps it off our stdout */
	if (s.keep || bo->tap)
		o->capture = true;
	if (bo->tap || bo->repeat > 1)
		o->passthrough = false;

	if (bo->tap)
		report_tap_begin(stdout);
	if (interrupt_install(&err) < 0)
		rg_warn("%s: SIGINT or SIGTERM will kill racegate at once", err.msg);
	j = jobs_new(p, o, bo->jobs);
	jobs_run(j, bo->repeat, on_done, &s);   /* on_done counts what ran */
	progress_clear(&s);

	status = s.status;
	sig = interrupt_signal();
	if (sig && (s.counts[OUT_INTERRUPTED] || s.ndone < bo->repeat)) {
		const char *name = spec_signal_name(sig);

		status = RG_EXIT_SIGNAL + sig;
		stopped = xasprintf("interrupted by %s after %ld of %ld runs",
				    name ? name : strsignal(sig), s.ndone, bo->repeat);
	} else if (s.stop_no) {
		status = s.stop_status;
		stopped = xasprintf("stopped at run %ld of %ld (--stop-on-first): %s",
				    s.stop_no, bo->repeat,
				    run_outcome_name(s.stop_outcome));
	}
	if (bo->repeat > 1) {
		rg_buf tally = RG_BUF_INIT;
		size_t untold = 0;

		for (i = 0; i <= OUT_ERROR; i++)
			untold += s.untold[i];
		if (untold && !bo->quiet) {
			add_counts(&tally, s.untold);
			rg_say("%zu more unexpected run%s not shown:%s (--verbose shows "
			       "every run)", untold, untold == 1 ? "" : "s", tally.s);
			rg_buf_release(&tally);
		}
		add_counts(&tally, s.counts);
		rg_say("%ld runs:%s", s.ndone, tally.s ? tally.s : "");
		rg_buf_release(&tally);
	}
	if (stopped)
		rg_say("%s", stopped);
	if (bo->tap)
		report_tap_end(stdout, s.ndone, stopped);

	if (s.nrecs)
		qsort(s.recs, s.nrecs, sizeof(*s.recs), cmp_rec);
	memset(&rc, 0, sizeof(rc));
	rc.sp = sp;
	rc.p = p;
	rc.runs = s.recs;
	rc.nruns = s.nrecs;
	rc.repeat = bo->repeat;
	rc.jobs = bo->jobs;
	rc.status = status;
	rc.stopped = stopped;
	rc.elapsed_ms = mono_ms() - t0;
	rc.started_unix_ms = (long long)wall.tv_sec * 1000 + wall.tv_usec / 1000;
	if (s.keep && write_reports(&rc, bo) < 0 && status < RG_EXIT_SIGNAL)
		status = worse(status, RG_EXIT_SETUP);
	/* until the reports are out: a second signal now ends racegate at once */
	interrupt_uninstall();

	for (i = 0; i < s.nrecs; i++)
		run_result_release(&s.recs[i].r);
	free(s.recs);
	rg_buf_release(&s.warned);
	free(stopped);
	jobs_free(j);
	return status;
}
