/*
 * tri_run: racegate triage's runs (tri.h).  For each race of the report:
 * a probe plan puts its two places in the program (and names a lambda's
 * closure as selectors do), each order's gates file is run a few times
 * under the gate engine (run_once), the verdict is drawn (tri_plan.c), a
 * HARMFUL order's file is written and replayed, and the table and the
 * JSON report say what was found.
 */
#include "tri.h"
#include "interrupt.h"
#include "run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct tri_race {
	int no;                  /* 1-based, the report's order */
	tri_side s[2];
	tri_order o[2];
	enum tri_verdict v;
	int which;
	char *files[2];          /* written, or NULL */
	int verified;            /* HARMFUL: replays that reproduced, of verify */
	char *what;              /* the evidence in words */
} tri_race;

/* The first error of d, as the message of err. */
static void say_diags(const spec_diags *d, rg_err *err)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].severity == SPEC_ERROR) {
			rg_error(err, "%s", d->v[i].msg);
			return;
		}
}

/* The spec of yaml, and its plan on o's program; -1 with err. */
static int load(const tri_opts *o, const char *yaml, const char *name, spec **sp,
		plan *p, rg_err *err)
{
	spec_diags d = SPEC_DIAGS_INIT;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->source_dir = o->source_dir;
	*sp = NULL;
	if (spec_load_string(yaml, strlen(yaml), name, NULL, sp, &d) < 0) {
		say_diags(&d, err);
		rc = -1;
	} else if (plan_build(p, *sp, o->command, &d, err) < 0) {
		if (d.nerrors)
			say_diags(&d, err);
		rc = -1;
	}
	spec_diags_release(&d);
	if (rc < 0) {
		plan_release(p);
		spec_free(*sp);
		*sp = NULL;
	}
	return rc;
}

/* The function the normal build has at gate g, or NULL. */
static const char *gate_function(const plan *p, size_t g)
{
	for (size_t i = 0; i < p->nbps; i++)
		for (size_t k = 0; k < p->bps[i].ngates; k++)
			if (p->bps[i].gates[k] == g)
				return p->bps[i].function;
	return NULL;
}

/*
 * Puts the race's places in the program: each FILE:LINE must have code,
 * in the function the report names; a lambda's start becomes its closure.
 */
static int probe(const tri_opts *o, tri_race *r, rg_err *err)
{
	rg_buf b = RG_BUF_INIT;
	spec *sp;
	plan p;
	int rc = 0;

	rg_buf_puts(&b, "version: 1\ngates:\n");
	for (int i = 0; i < 2; i++)
		rg_buf_printf(&b, "  - name: probe%d\n    at: \"%s:%d\"\n    open: p%d\n"
			      "    wait: p%d\n", i, r->s[i].file, r->s[i].line, i, !i);
	rc = load(o, b.s, "probe", &sp, &p, err);
	rg_buf_release(&b);
	if (rc < 0)
		return rg_error_prefix(err, "race %d: its places are not in '%s'",
				       r->no, o->command[0]);
	for (int i = 0; i < 2 && rc == 0; i++) {
		const char *fn = gate_function(&p, (size_t)i);
		char *start = tri_start_from_function(r->s[i].start, fn);

		if (!tri_same_function(r->s[i].function, fn))
			rc = rg_error(err, "race %d: %s:%d is in '%s' in '%s', the report "
				      "says '%s': is the report of another program?",
				      r->no, r->s[i].file, r->s[i].line, fn, o->command[0],
				      r->s[i].function);
		if (start) {
			free(r->s[i].start);
			r->s[i].start = start;
		}
	}
	tri_name_threads(r->s);
	plan_release(&p);
	spec_free(sp);
	return rc;
}

static long run_timeout(const tri_opts *o)
{
	return 4 * o->wait_ms > 10000 ? 4 * o->wait_ms : 10000;
}

static void note_run(tri_order *t, const run_result *res, const int side_of_gate[2])
{
	bool both = true;

	for (int g = 0; g < 2 && (size_t)g < res->ngates; g++) {
		if (res->gate_reached[g])
			t->reached[side_of_gate[g]] = true;
		both = both && res->gate_reached[g] && !res->gate_timed_out[g];
	}
	t->runs++;
	if (both && (res->term_signal || res->outcome == OUT_DEADLOCK ||
		     res->outcome == OUT_TIMEOUT)) {
		const char *sig = res->term_signal ? spec_signal_name(res->term_signal) : NULL;

		if (!t->failed++) {
			t->fail_signal = res->term_signal;
			t->fail_deadlock = res->outcome == OUT_DEADLOCK;
			t->fail_timeout = res->outcome == OUT_TIMEOUT;
			t->failure = res->term_signal ?
				     xasprintf("killed by %s", sig ? sig : "a signal") :
				     xstrdup(t->fail_deadlock ? "deadlocked" : "hung");
		}
		return;
	}
	if (!both || res->outcome == OUT_SCHEDULE_DEADLOCK ||
	    res->outcome == OUT_ORDER_INFEASIBLE || res->outcome == OUT_NOT_ENFORCED) {
		t->unenforced++;
		if (!t->why)
			t->why = xstrdup(res->note ? res->note : run_outcome_name(res->outcome));
		return;
	}
	t->ends = xrealloc(t->ends, (size_t)(t->nends + 1) * sizeof(*t->ends));
	t->ends[t->nends++] = xasprintf("exit %d\n%s", res->exit_code,
					res->out.s ? res->out.s : "");
}

static run_opts opts_for(const tri_opts *o, const spec *sp)
{
	run_opts ro;

	memset(&ro, 0, sizeof(ro));
	ro.timeout_ms = sp->timeout_ms ? sp->timeout_ms : run_timeout(o);
	ro.capture = true;
	ro.on_deadlock = (int)sp->on_deadlock;
	ro.closed_std = o->closed_std;
	return ro;
}

/* Runs order first of race r (the first side first) o->runs times. */
static int run_order(const tri_opts *o, tri_race *r, int first, bool weak, rg_err *err)
{
	char *name = xasprintf("race %d, order %d", r->no, first + 1);
	char *yaml = tri_gates_yaml(r->s, first, weak, o->command, o->wait_ms,
				    run_timeout(o), name, NULL);
	/* gate 0 waits (the other side), gate 1 goes (first) */
	const int side_of_gate[2] = { !first, first };
	tri_order *t = &r->o[first];
	spec *sp;
	plan p;
	run_opts ro;

	if (load(o, yaml, name, &sp, &p, err) < 0) {
		free(yaml);
		free(name);
		return rg_error_prefix(err, "race %d", r->no);
	}
	ro = opts_for(o, sp);
	for (long i = 0; i < o->runs && !interrupt_signal(); i++) {
		run_result res;

		run_once(&p, &ro, &res);
		if (res.outcome == OUT_INTERRUPTED || res.outcome == OUT_ERROR) {
			rg_error(err, "race %d: %s", r->no, res.note ? res.note :
				 run_outcome_name(res.outcome));
			run_result_release(&res);
			break;
		}
		note_run(t, &res, side_of_gate);
		run_result_release(&res);
		/* an order that twice could not be forced, and never was, is not
		   worth another wait (a run that missed it by chance is not) */
		if (t->unenforced >= 2 && !t->nends && !t->failed)
			break;
	}
	plan_release(&p);
	spec_free(sp);
	free(yaml);
	free(name);
	return err->msg[0] ? -1 : 0;
}

static char *out_path(const tri_opts *o, int race, int order, bool one)
{
	const char *dir = o->outdir ? o->outdir : ".";

	if (one)
		return xasprintf("%s/race-%d.yaml", dir, race);
	return xasprintf("%s/race-%d-order-%d.yaml", dir, race, order + 1);
}

static int save(const char *path, const char *text, rg_err *err)
{
	rg_buf b = RG_BUF_INIT;
	int rc;

	rg_buf_puts(&b, text);
	rc = report_write_file(path, &b, err);
	rg_buf_release(&b);
	return rc;
}

/* Replays the written file: how many runs reproduced the failure. */
static int verify(const tri_opts *o, const char *path, rg_err *err)
{
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;
	plan p;
	int ok = 0;

	memset(&p, 0, sizeof(p));
	p.source_dir = o->source_dir;
	if (spec_load_file(path, &sp, &d) < 0 ||
	    plan_build(&p, sp, o->command, &d, err) < 0) {
		say_diags(&d, err);
		spec_diags_release(&d);
		plan_release(&p);
		spec_free(sp);
		return -1;
	}
	spec_diags_release(&d);
	run_opts ro = opts_for(o, sp);

	for (long i = 0; i < o->verify && !interrupt_signal(); i++) {
		run_result res;

		run_once(&p, &ro, &res);
		ok += res.outcome == OUT_REPRODUCED;
		run_result_release(&res);
	}
	plan_release(&p);
	spec_free(sp);
	return ok;
}

/* The files of race r's verdict: the failing order's, or both. */
static int write_files(const tri_opts *o, tri_race *r, rg_err *err)
{
	for (int k = 0; k < 2; k++) {
		char *name, *yaml, *expect = NULL;

		if (r->v == TRI_HARMFUL && k != r->which)
			continue;
		if (r->v != TRI_HARMFUL && r->v != TRI_BENIGN && r->v != TRI_OUTPUT_DIFFERS)
			continue;
		if (r->v == TRI_HARMFUL) {
			const tri_order *t = &r->o[k];
			const char *sig = spec_signal_name(t->fail_signal);

			expect = t->fail_signal ? xasprintf("  signal: %s\n", sig ? sig : "SIGSEGV") :
				 xstrdup(t->fail_deadlock ? "  deadlock: true\n" :
					 "  timeout: true\n");
		} else {
			int code = 0;

			sscanf(r->o[k].ends[0], "exit %d", &code);
			expect = xasprintf("  exit: %d\n", code);
		}
		name = xasprintf("race %d: %s:%d (%s) before %s:%d (%s)", r->no,
				 r->s[k].file, r->s[k].line, r->s[k].alias, r->s[!k].file,
				 r->s[!k].line, r->s[!k].alias);
		yaml = tri_gates_yaml(r->s, k, r->o[k].weak, o->abs_command, o->wait_ms, run_timeout(o),
				      name, expect);
		r->files[k] = out_path(o, r->no, k, r->v == TRI_HARMFUL);
		int rc = save(r->files[k], yaml, err);

		free(name);
		free(yaml);
		free(expect);
		if (rc < 0)
			return -1;
		if (r->v == TRI_HARMFUL && (r->verified = verify(o, r->files[k], err)) < 0)
			return -1;
	}
	return 0;
}

static void say_evidence(tri_race *r, long verify_n)
{
	const tri_side *s = r->s;
	int w = r->which;

	switch (r->v) {
	case TRI_HARMFUL:
		r->what = xasprintf("%s:%d (%s) before %s:%d (%s): %s in %d of %d runs; "
				    "the file reproduced %d of %ld", s[w].file, s[w].line,
				    s[w].alias, s[!w].file, s[!w].line, s[!w].alias,
				    r->o[w].failure, r->o[w].failed, r->o[w].runs,
				    r->verified, verify_n);
		break;
	case TRI_OUTPUT_DIFFERS:
		r->what = xstrdup("the two orders end with another exit status or output");
		break;
	case TRI_BENIGN:
		r->what = xasprintf("both orders end alike (%d and %d runs)", r->o[0].nends,
				    r->o[1].nends);
		break;
	case TRI_NOT_REACHED:
		r->what = xasprintf("%s:%d (%s) was not reached: the program's input may not "
				    "cover it", s[w].file, s[w].line, s[w].alias);
		break;
	case TRI_SINGLE_ORDER:
		r->what = w == 2 ?
			  xasprintf("neither order could be forced (the two accesses are "
				    "never at their lines at once): %s",
				    r->o[0].why ? r->o[0].why : "?") :
			  xasprintf("%s:%d (%s) cannot run before %s:%d (%s): %s", s[w].file,
				    s[w].line, s[w].alias, s[!w].file, s[!w].line,
				    s[!w].alias, r->o[w].why ? r->o[w].why : "?");
		break;
	}
}

static void print_table(FILE *f, const tri_race *rs, size_t n)
{
	fprintf(f, "%-5s %-32s %-32s %-15s %s\n", "race", "first", "second", "verdict",
		"file");
	for (size_t i = 0; i < n; i++) {
		const tri_race *r = &rs[i];
		char a[64], b[64];

		snprintf(a, sizeof(a), "%s:%d (%s)", r->s[0].file, r->s[0].line, r->s[0].alias);
		snprintf(b, sizeof(b), "%s:%d (%s)", r->s[1].file, r->s[1].line, r->s[1].alias);
		fprintf(f, "%-5d %-32s %-32s %-15s %s%s%s\n", r->no, a, b,
			tri_verdict_name(r->v), r->files[0] ? r->files[0] : r->files[1] ?
			"" : "-", r->files[0] && r->files[1] ? " " : "",
			r->files[1] ? r->files[1] : "");
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "race %d: %s: %s\n", rs[i].no, tri_verdict_name(rs[i].v),
			rs[i].what);
}

static void json_side(rg_buf *b, const tri_side *s)
{
	rg_buf_puts(b, "{\"file\": ");
	json_str(b, s->file);
	rg_buf_printf(b, ", \"line\": %d, \"function\": ", s->line);
	json_str(b, s->function);
	rg_buf_puts(b, ", \"thread\": {\"start\": ");
	json_str(b, s->start);
	if (s->nth)
		rg_buf_printf(b, ", \"nth\": %d", s->nth);
	rg_buf_puts(b, "}}");
}

static int write_json(const tri_opts *o, const tri_race *rs, size_t n, size_t nraces,
		      int status, rg_err *err)
{
	rg_buf b = RG_BUF_INIT;
	int rc;

	rg_buf_puts(&b, "{\"report\": ");
	json_str(&b, o->tsan ? o->tsan : o->helgrind);
	rg_buf_printf(&b, ", \"status\": %d, \"races\": [", status);
	for (size_t i = 0; i < n; i++) {
		const tri_race *r = &rs[i];

		rg_buf_printf(&b, "%s\n  {\"race\": %d, \"verdict\": \"%s\", \"first\": ",
			      i ? "," : "", r->no, tri_verdict_name(r->v));
		json_side(&b, &r->s[0]);
		rg_buf_puts(&b, ", \"second\": ");
		json_side(&b, &r->s[1]);
		rg_buf_puts(&b, ", \"gates\": ");
		if (r->files[0] && r->files[1]) {
			rg_buf_puts(&b, "[");
			json_str(&b, r->files[0]);
			rg_buf_puts(&b, ", ");
			json_str(&b, r->files[1]);
			rg_buf_puts(&b, "]");
		} else
			json_str(&b, r->files[0] ? r->files[0] : r->files[1]);
		rg_buf_puts(&b, ", \"evidence\": ");
		json_str(&b, r->what);
		if (r->v == TRI_HARMFUL)
			rg_buf_printf(&b, ", \"reproduced\": %d, \"replays\": %ld",
				      r->verified, o->verify);
		rg_buf_puts(&b, "}");
	}
	rg_buf_puts(&b, "\n]");
	if (n < nraces) {
		const char *sig = spec_signal_name(interrupt_signal());

		rg_buf_puts(&b, ", \"interrupted\": ");
		json_str(&b, sig ? sig : "a signal");
		rg_buf_puts(&b, ", \"not_triaged\": [");
		for (size_t i = n; i < nraces; i++)
			rg_buf_printf(&b, "%s%zu", i > n ? ", " : "", i + 1);
		rg_buf_puts(&b, "]");
	}
	rg_buf_puts(&b, "}\n");
	rc = report_write_file(o->report, &b, err);
	rg_buf_release(&b);
	return rc;
}

/*
 * The command as the files written name it: the program by its absolute
 * path when given by a relative one with a '/', so that the file runs from
 * wherever it is (a command: is relative to its spec file).
 */
static char **abs_command(char *const *cmd)
{
	size_t n = 0;
	char **v;

	while (cmd[n])
		n++;
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		char *real = i == 0 && cmd[0][0] != '/' && strchr(cmd[0], '/') ?
			     realpath(cmd[0], NULL) : NULL;

		v[i] = real ? real : xstrdup(cmd[i]);
	}
	return v;
}

static void races_free(tri_race *rs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (int k = 0; k < 2; k++) {
			tri_side_release(&rs[i].s[k]);
			tri_order_release(&rs[i].o[k]);
			free(rs[i].files[k]);
		}
		free(rs[i].what);
	}
	free(rs);
}

/* Triage of one race: its sides in the program, its orders, its verdict. */
static int triage_one(const tri_opts *o, const triage_report *rep, size_t i,
		      tri_race *r, rg_err *err)
{
	r->no = (int)i + 1;
	if (tri_sides(rep, triage_race_at(rep, i), r->s, err) < 0)
		return rg_error_prefix(err, "race %d (report line %d)", r->no,
				       triage_race_at(rep, i)->report_line);
	if (probe(o, r, err) < 0 || run_order(o, r, 0, false, err) < 0 ||
	    run_order(o, r, 1, false, err) < 0)
		return -1;
	/*
	 * An order whose accesses were never at their lines at once (a handoff
	 * between them) may still happen: the second merely waits for the
	 * first.  What its weak form says is what the order can do.
	 */
	for (int k = 0; k < 2; k++) {
		tri_order *t = &r->o[k];

		if (t->nends || t->failed || !t->unenforced)
			continue;
		free(t->why);
		t->why = NULL;
		t->unenforced = 0;
		t->weak = true;
		if (run_order(o, r, k, true, err) < 0)
			return -1;
	}
	r->v = tri_classify(r->o, &r->which);
	if (write_files(o, r, err) < 0)
		return -1;
	say_evidence(r, o->verify);
	return 0;
}

/* The verdicts of the races triaged, the table and the JSON report; the status. */
static int tri_report(const tri_opts *o, const triage_report *rep, const tri_race *rs,
		      size_t n, FILE *f)
{
	const char *path = o->tsan ? o->tsan : o->helgrind;
	enum tri_verdict *v = xcalloc(n ? n : 1, sizeof(*v));
	rg_err err = RG_ERR_INIT;
	int status;

	if (n == 0)
		fprintf(f, "'%s' reports no data race\n", path);
	else if (!o->quiet)
		print_table(f, rs, n);
	for (size_t i = 0; i < triage_nskipped(rep); i++)
		fprintf(f, "%s:%d: left out: %s (not a data race)\n", path,
			triage_skipped_at(rep, i)->report_line,
			triage_skipped_at(rep, i)->what);
	for (size_t i = 0; i < n; i++)
		v[i] = rs[i].v;
	status = tri_status(o, v, n, f);
	free(v);
	if (o->report && write_json(o, rs, n, n, status, &err) < 0) {
		rg_say("--report: %s", err.msg);
		status = RG_EXIT_SETUP;
	}
	return status;
}

/*
 * Interrupted in race done+1 of n: its files (whole, but of no verdict)
 * go, the races finished are told, and the status is 128+N.
 */
static int tri_interrupted(const tri_opts *o, tri_race *rs, size_t done, size_t n, FILE *f)
{
	const char *sig = spec_signal_name(interrupt_signal());
	int status = RG_EXIT_SIGNAL + interrupt_signal();
	rg_err err = RG_ERR_INIT;

	for (int k = 0; done < n && k < 2; k++)
		if (rs[done].files[k]) {
			unlink(rs[done].files[k]);
			free(rs[done].files[k]);
			rs[done].files[k] = NULL;
		}
	if (done && !o->quiet)
		print_table(f, rs, done);
	fflush(f);
	if (done == n)
		rg_say("interrupted by %s after the last race", sig ? sig : "a signal");
	else
		rg_say("interrupted by %s in race %zu of %zu: %s not triaged",
		       sig ? sig : "a signal", done + 1, n,
		       done + 1 == n ? "it was" : "it and the races after it were");
	if (o->report && write_json(o, rs, done, n, status, &err) < 0)
		rg_say("--report: %s", err.msg);
	return status;
}

int tri_main(const tri_opts *oin, FILE *f)
{
	tri_opts o = *oin;
	triage_report *rep = NULL;
	rg_err err = RG_ERR_INIT, ierr = RG_ERR_INIT;
	tri_race *rs;
	size_t n, done = 0;
	int status = RG_EXIT_OK;
	const char *path = o.tsan ? o.tsan : o.helgrind;

	if (o.report && report_check_path(o.report, &err) < 0) {
		rg_say("--report: %s", err.msg);
		return RG_EXIT_SETUP;
	}
	o.wait_ms = o.wait_ms ? o.wait_ms : 2000;
	o.runs = o.runs ? o.runs : 5;
	o.verify = o.verify ? o.verify : 20;
	o.abs_command = abs_command(o.command);
	if ((o.outdir && mkdir(o.outdir, 0777) < 0 && errno != EEXIST &&
	     rg_error(&err, "cannot make folder '%s': %s", o.outdir, strerror(errno))) ||
	    triage_load(o.tsan ? TRIAGE_TSAN : TRIAGE_HELGRIND, path, &rep,
			&err) != TRIAGE_OK) {
		rg_say("%s", err.msg);
		status = RG_EXIT_SETUP;
		goto out;
	}
	n = triage_nraces(rep);
	if (tri_expect_count(&o, n, &err) < 0) {
		rg_say("%s", err.msg);
		status = RG_EXIT_SETUP;
		triage_free(rep);
		goto out;
	}
	rs = xcalloc(n ? n : 1, sizeof(*rs));
	if (interrupt_install(&ierr) < 0)
		rg_warn("%s: SIGINT or SIGTERM will kill racegate at once", ierr.msg);
	for (; done < n && !interrupt_signal(); done++) {
		int rc = triage_one(&o, rep, done, &rs[done], &err);

		if (interrupt_signal())
			break;
		if (rc < 0) {
			rg_say("%s", err.msg);
			status = RG_EXIT_SETUP;
			break;
		}
	}
	if (interrupt_signal())
		status = tri_interrupted(&o, rs, done, n, f);
	else if (status == RG_EXIT_OK)
		status = tri_report(&o, rep, rs, n, f);
	interrupt_uninstall();
	races_free(rs, n);
	triage_free(rep);
out:
	for (size_t i = 0; o.abs_command[i]; i++)
		free(o.abs_command[i]);
	free(o.abs_command);
	return status;
}
