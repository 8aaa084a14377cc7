/*
 * tri_run: racegate triage's runs (tri.h).  For each race of the report:
 * a probe plan puts its two places in the program (and names a lambda's
 * closure as selectors do), each order's gates file is run a few times
 * under the gate engine (run_once), the verdict is drawn (tri_plan.c), a
 * HARMFUL order's file is written and replayed, and the table and the
 * JSON report say what was found.
 */
#include "tri_int.h"
#include "dwarfx_dyn.h"
#include "interrupt.h"
#include "run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


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

/* Side s's source line, from where the normal build says its file is (or --source-dir). */
static void read_text(const tri_opts *o, const plan *p, const plan_bp *bp, tri_side *s)
{
	dwarfx_loc loc;

	if (!bp || dwarfx_symbolize(p->dx, bp->site.link_addr, &loc) < 0 || !loc.file)
		return;
	s->text = explore_source_text(loc.file, s->line);
	if (!s->text && o->source_dir) {
		char *alt = xasprintf("%s/%s", o->source_dir, rg_base_name(loc.file));

		s->text = explore_source_text(alt, s->line);
		free(alt);
	}
}

/*
 * The instruction of side s's line that is its access, when the line
 * holds several (dwarfx_line_accesses): a read or a write as the report
 * says.  A line the disassembler cannot read keeps its start.
 */
/* at (FILE:LINE) and each shared access in its line, to the --at list b */
static void add_points(rg_buf *b, const plan *p, const char *at, size_t **plus,
		       unsigned char **how, size_t *n)
{
	rg_err err = RG_ERR_INIT;

	rg_buf_printf(b, "%s%s", b->len ? "," : "", at);
	if (dwarfx_line_accesses(p->dx, at, plus, how, n, &err) != DWARFX_OK)
		rg_trace("triage: the accesses of '%s' are not known: %s", at, err.msg);
	for (size_t i = 0; i < *n; i++)
		if ((*plus)[i])
			rg_buf_printf(b, ",%s+%zu", at, (*plus)[i]);
}

/*
 * The instruction of side s's line that is its access, when the line
 * holds several (dwarfx_line_accesses): a read or a write as the report
 * says; a line the disassembler cannot read keeps its start.  And the
 * points a search between the accesses stops at: the line, its accesses,
 * and the access inside a call of library code built into the program
 * (s->inner, when the normal build has it).
 */
static void pick_access(const plan *p, tri_race *r, tri_side *s)
{
	char *at = xasprintf("%s:%d", s->file, s->line);
	size_t *plus = NULL, n = 0;
	unsigned char *how = NULL;
	rg_buf b = RG_BUF_INIT;

	if (r->points)
		rg_buf_puts(&b, r->points);
	add_points(&b, p, at, &plus, &how, &n);
	s->plus = tri_pick_access(s, plus, how, n);
	free(plus);
	free(how);
	if (s->inner) {
		dwarfx_loc *locs = NULL;
		size_t nlocs = 0;
		rg_err err = RG_ERR_INIT;

		if (dwarfx_resolve(p->dx, s->inner, &locs, &nlocs, NULL, &err) == DWARFX_OK &&
		    nlocs) {
			plus = NULL;
			how = NULL;
			n = 0;
			add_points(&b, p, s->inner, &plus, &how, &n);
			free(plus);
			free(how);
		}
		free(locs);
	}
	free(r->points);
	r->points = rg_buf_detach(&b);
	free(at);
}

struct next_walk {
	const char *function;
	int line;
};

static int next_of(const dwarfx_line_info *li, void *arg)
{
	struct next_walk *w = arg;

	if (!li->function || !tri_same_function(li->function, w->function))
		return 0;
	w->line = li->line;
	return 1;
}

/* The line after side s's with code of its function fn (0: none, or not known). */
static int next_line(const plan *p, const tri_side *s, const char *fn)
{
	struct next_walk w = { fn, 0 };
	rg_err err = RG_ERR_INIT;

	if (!fn || dwarfx_lines(p->dx, s->file, s->line + 1, 0, next_of, &w, &err) < 0)
		return 0;
	return w.line;
}

/* Each side as the table shows it, from its place and thread. */
static void set_places(tri_race *r)
{
	for (int i = 0; i < 2; i++) {
		char *at = tri_side_at(&r->s[i]);

		free(r->place[i]);
		r->place[i] = xasprintf("%s (%s)", at, r->s[i].alias);
		free(at);
	}
}

/*
 * Puts the race's places in the program: each FILE:LINE must have code,
 * in the function the report names; a lambda's start becomes its closure;
 * an access is its instruction where the line holds several.
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
		const plan_bp *bp = plan_gate_bp(&p, (size_t)i);
		const char *fn = bp ? bp->function : NULL;
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
		pick_access(&p, r, &r->s[i]);
		read_text(o, &p, bp, &r->s[i]);
		r->s[i].next_line = next_line(&p, &r->s[i], fn);
	}
	if (rc == 0)
		rc = tri_places_own(&p, r->no, r->s, o->command[0], err);
	tri_name_threads(r->s);
	set_places(r);
	plan_release(&p);
	spec_free(sp);
	return rc;
}

long tri_run_timeout(const tri_opts *o)
{
	return 4 * o->wait_ms > 10000 ? 4 * o->wait_ms : 10000;
}

/*
 * A run that took hold and ended, judged by --expect's as `racegate run`
 * judges it (judge.c): a bug met, or a good run missed, is a failure.
 */
static enum explore_fail judged(const tri_judge *j, const spec *sp, run_result *res)
{
	spec js = *sp;

	js.expect = j->x;
	judge_run(&js, res, false, false, false);
	if (judge_expects_bug(&j->x))
		return res->outcome == OUT_REPRODUCED ? XF_EXPECTED : XF_NONE;
	if (res->outcome == OUT_PASSED)
		return XF_NONE;
	if (res->exit_code != (j->x.has_exit ? j->x.exit_code : 0))
		return XF_EXIT;
	return judge_stdout_met(&j->x, res->out.s) ? XF_OUTPUT : XF_STDOUT;
}

/* The first failure of an order, in words and as explore_put_expect says it. */
static void note_failure(tri_order *t, const run_result *res, enum explore_fail f,
			 const tri_judge *j)
{
	const char *sig = res->term_signal ? spec_signal_name(res->term_signal) : NULL;

	if (t->failed++)
		return;
	t->fail.fail = f;
	t->fail.exit_code = res->exit_code;
	t->fail.signo = res->term_signal;
	t->fail.out = res->out.s ? xstrndup(res->out.s, res->out.len) : NULL;
	switch (f) {
	case XF_SIGNAL:
		t->failure = xasprintf("killed by %s", sig ? sig : "a signal");
		break;
	case XF_DEADLOCK:
		t->failure = xstrdup("deadlocked");
		break;
	case XF_TIMEOUT:
		t->failure = xstrdup("hung");
		break;
	case XF_EXIT:
		t->failure = xasprintf("ended with exit %d, not %d", res->exit_code,
				       j->x.has_exit ? j->x.exit_code : 0);
		break;
	case XF_EXPECTED:
		t->failure = xasprintf("did what --expect's bug says (exit %d)",
				       res->exit_code);
		break;
	default:
		t->failure = xstrdup(f == XF_STDOUT ? "printed what --expect does not match" :
				     "wrote on stderr what --expect does not match");
		break;
	}
}

static void note_run(tri_order *t, run_result *res, const int side_of_gate[2],
		     const spec *sp, const tri_judge *j)
{
	bool both = true;
	enum explore_fail f;

	for (int g = 0; g < 2 && (size_t)g < res->ngates; g++) {
		if (res->gate_reached[g])
			t->reached[side_of_gate[g]] = true;
		both = both && res->gate_reached[g] && !res->gate_timed_out[g];
	}
	t->runs++;
	if (both && (res->term_signal || res->outcome == OUT_DEADLOCK ||
		     res->outcome == OUT_TIMEOUT)) {
		note_failure(t, res, res->term_signal ? XF_SIGNAL :
			     res->outcome == OUT_DEADLOCK ? XF_DEADLOCK : XF_TIMEOUT, j);
		return;
	}
	if (!both || res->outcome == OUT_SCHEDULE_DEADLOCK ||
	    res->outcome == OUT_ORDER_INFEASIBLE || res->outcome == OUT_NOT_ENFORCED) {
		t->unenforced++;
		if (!t->why)
			t->why = xstrdup(res->note ? res->note : run_outcome_name(res->outcome));
		return;
	}
	if (j->x.any && (f = judged(j, sp, res)) != XF_NONE) {
		note_failure(t, res, f, j);
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
	ro.timeout_ms = sp->timeout_ms ? sp->timeout_ms : tri_run_timeout(o);
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
				    tri_run_timeout(o), name, NULL);
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
		note_run(t, &res, side_of_gate, sp, o->judge);
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

char *tri_out_path(const tri_opts *o, int race, int order, bool one)
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
			const explore_run *f = &r->o[k].fail;
			rg_buf b = RG_BUF_INIT;

			if (explore_put_expect(&b, f->fail == XF_EXPECTED ? &o->judge->x : NULL,
					       f, err) < 0) {
				rg_buf_release(&b);
				return rg_error_prefix(err, "race %d", r->no);
			}
			expect = rg_buf_detach(&b);
		} else {
			int code = 0;

			sscanf(r->o[k].ends[0], "exit %d", &code);
			expect = xasprintf("expect:\n  exit: %d\n", code);
		}
		name = xasprintf("race %d: %s before %s", r->no, r->place[k], r->place[!k]);
		yaml = tri_gates_yaml(r->s, k, r->o[k].weak, o->abs_command, o->wait_ms, tri_run_timeout(o),
				      name, expect);
		r->files[k] = tri_out_path(o, r->no, k, r->v == TRI_HARMFUL);
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
	int w = r->which;

	switch (r->v) {
	case TRI_HARMFUL:
		r->what = xasprintf("%s before %s: %s in %d of %d runs; "
				    "the file reproduced %d of %ld", r->place[w], r->place[!w],
				    r->o[w].failure, r->o[w].failed, r->o[w].runs,
				    r->verified, verify_n);
		break;
	case TRI_OUTPUT_DIFFERS:
	{
		char *d = tri_ends_differ(r->o[0].ends[0], r->o[1].ends[0]);

		r->what = xasprintf("%s first against %s first: %s", r->place[0],
				    r->place[1], d);
		free(d);
	}
		break;
	case TRI_BENIGN:
		r->what = xasprintf("both orders end alike (%d and %d runs)", r->o[0].nends,
				    r->o[1].nends);
		break;
	case TRI_NOT_REACHED:
		r->what = xasprintf("%s was not reached: the program's input may not "
				    "cover it", r->place[w]);
		break;
	case TRI_SINGLE_ORDER:
		r->what = w == 2 ?
			  xasprintf("neither order could be forced (the two accesses are "
				    "never at their lines at once): %s",
				    r->o[0].why ? r->o[0].why : "?") :
			  xasprintf("%s cannot run before %s: %s", r->place[w], r->place[!w],
				    r->o[w].why ? r->o[w].why : "?");
		break;
	}
}

static void print_table(FILE *f, const tri_race *rs, size_t n)
{
	size_t done = 0;

	for (size_t i = 0; i < n; i++)
		done += !rs[i].note;
	if (!done)
		return;
	fprintf(f, "%-5s %-32s %-32s %-15s %s\n", "race", "first", "second", "verdict",
		"file");
	for (size_t i = 0; i < n; i++) {
		const tri_race *r = &rs[i];

		if (r->note)
			continue;
		fprintf(f, "%-5d %-32s %-32s %-15s %s%s%s\n", r->no, r->place[0], r->place[1],
			tri_verdict_name(r->v), r->files[0] ? r->files[0] : r->files[1] ?
			"" : "-", r->files[0] && r->files[1] ? " " : "",
			r->files[1] ? r->files[1] : "");
	}
	for (size_t i = 0; i < n; i++) {
		if (rs[i].note)
			continue;
		fprintf(f, "race %d: %s: %s\n", rs[i].no, tri_verdict_name(rs[i].v),
			rs[i].what);
		if (rs[i].item->inferred)
			fprintf(f, "race %d: inferred: %s\n", rs[i].no, rs[i].item->inferred);
	}
}

static void json_side(rg_buf *b, const tri_side *s)
{
	char *at;

	if (!s->file) {
		rg_buf_puts(b, "null");
		return;
	}
	rg_buf_puts(b, "{\"file\": ");
	json_str(b, s->file);
	at = tri_side_at(s);

	rg_buf_printf(b, ", \"line\": %d, \"at\": ", s->line);
	json_str(b, at);
	free(at);
	rg_buf_puts(b, ", \"function\": ");
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
	tri_json_reports(&b, o);
	rg_buf_printf(&b, ", \"status\": %d, \"races\": [", status);
	for (size_t i = 0; i < n; i++) {
		const tri_race *r = &rs[i];

		rg_buf_printf(&b, "%s\n  {\"race\": %d, \"verdict\": ", i ? "," : "", r->no);
		if (r->note)
			rg_buf_puts(&b, "null");
		else
			json_str(&b, tri_verdict_name(r->v));
		tri_json_item(&b, r->item, r->note);
		rg_buf_puts(&b, ", \"first\": ");
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
		json_str(&b, r->note ? r->note : r->what);
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
			free(rs[i].place[k]);
			free(rs[i].files[k]);
		}
		free(rs[i].points);
		free(rs[i].note);
		free(rs[i].search_note);
		free(rs[i].what);
	}
	free(rs);
}

/* Runs both orders of r, each in its weak form when it cannot take hold. */
static int force_orders(const tri_opts *o, tri_race *r, rg_err *err)
{
	if (run_order(o, r, 0, false, err) < 0 || run_order(o, r, 1, false, err) < 0)
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
	return 0;
}

/*
 * Orders forced at an access's own instruction that do not fail are
 * forced again at the lines' starts, as a person would gate them: a
 * pointer the line loads before the access may be what the other thread
 * clears (stale_conn's use after the check).  The lines' results count
 * only when an order fails there.
 */
static int force_at_lines(const tri_opts *o, tri_race *r, rg_err *err)
{
	tri_order keep[2];
	int plus[2] = { r->s[0].plus, r->s[1].plus };

	if (r->o[0].failed || r->o[1].failed || (!plus[0] && !plus[1]))
		return 0;
	memcpy(keep, r->o, sizeof(keep));
	memset(r->o, 0, sizeof(r->o));
	r->s[0].plus = r->s[1].plus = 0;
	if (force_orders(o, r, err) < 0 || r->o[0].failed || r->o[1].failed) {
		tri_order_release(&keep[0]);
		tri_order_release(&keep[1]);
		set_places(r);
		return err->msg[0] ? -1 : 0;
	}
	tri_order_release(&r->o[0]);
	tri_order_release(&r->o[1]);
	memcpy(r->o, keep, sizeof(keep));
	r->s[0].plus = plus[0];
	r->s[1].plus = plus[1];
	return 0;
}

/*
 * A race's sides in the program, and the places a search may stop at.  A
 * race that cannot be triaged (a side the report does not show, a place
 * not in the program) gets a note, which is said, and the others go on.
 */
static void place_race(const tri_opts *o, tri_item *it, size_t i, tri_race *r)
{
	rg_err err = RG_ERR_INIT;

	r->no = (int)i + 1;
	r->item = it;
	if (it->note) {
		r->note = xasprintf("race %d (%s): not triaged: %s", r->no, it->seen[0], it->note);
	} else {
		memcpy(r->s, it->s, sizeof(r->s));
		memset(it->s, 0, sizeof(it->s));
		if (probe(o, r, &err) < 0)
			r->note = xstrdup(err.msg);
	}
	if (r->note)
		rg_say("%s", r->note);
}

/* Triage of one placed race: its orders, its verdict, maybe a search. */
static int triage_one(const tri_opts *o, tri_race *r, rg_err *err)
{
	if (r->note)
		return 0;
	if (force_orders(o, r, err) < 0 || force_at_lines(o, r, err) < 0)
		return -1;
	r->v = tri_classify(r->o, &r->which);
	if (write_files(o, r, err) < 0)
		return -1;
	say_evidence(r, o->verify);
	if (tri_search(o, r, err) < 0)
		return -1;
	if (r->search_note) {
		char *w = r->searched ? xasprintf("%s; the file reproduced %d of %ld",
						  r->search_note, r->verified, o->verify) :
			  xasprintf("%s; %s", r->what, r->search_note);

		free(r->what);
		r->what = w;
	}
	tri_say_inside(r);
	return 0;
}

/*
 * The program must be the normal build: a sanitizer's build re-executes
 * itself (TSan, when the address space is randomised), and its accesses
 * are calls into the runtime.  -1 with err when it links one.
 */
static int normal_build(const char *prog, const char *typed, rg_err *err)
{
	static const char *const runtimes[] = { "libtsan", "libasan", "libclang_rt" };
	dwarfx_dyn d = DWARFX_DYN_INIT;
	rg_err ignored = RG_ERR_INIT;
	int rc = 0;

	if (!strchr(prog, '/') || dwarfx_dyn_read(prog, &d, &ignored) < 0) {
		dwarfx_dyn_release(&d);
		return 0;     /* the run says what is wrong with it */
	}
	for (size_t i = 0; i < d.nneeded && !rc; i++)
		for (size_t k = 0; k < sizeof(runtimes) / sizeof(runtimes[0]) && !rc; k++)
			if (!strncmp(d.needed[i], runtimes[k], strlen(runtimes[k])))
				rc = rg_error(err, "'%s' is a sanitizer's build (it needs %s): "
					      "triage the normal build of the program, with "
					      "-g, the one the report's races are forced on",
					      typed, d.needed[i]);
	dwarfx_dyn_release(&d);
	return rc;
}

/* --expect FILE's expect:, or --expect-exit and --expect-stdout's; -1 said. */
static int judge_load(const tri_opts *o, tri_judge *j)
{
	memset(j, 0, sizeof(*j));
	if (o->expect_file) {
		if (explore_load_expect(o->expect_file, &j->xspec) < 0)
			return -1;
		j->x = j->xspec->expect;
	} else if (o->has_expect_exit || o->expect_stdout) {
		j->x.any = j->x.has_exit = true;
		j->x.exit_code = o->has_expect_exit ? o->expect_exit : 0;
		j->x.stdout_text = (char *)o->expect_stdout;
		j->x.stdout_regex = o->expect_stdout != NULL;
	}
	return 0;
}

/* The verdicts of the races triaged, the table and the JSON report; the status. */
static int tri_report(const tri_opts *o, const tri_reports *reps, const tri_race *rs,
		      size_t n, FILE *f)
{
	enum tri_verdict *v = xcalloc(n ? n : 1, sizeof(*v));
	bool *noted = xcalloc(n ? n : 1, sizeof(*noted)), untriaged = false;
	rg_err err = RG_ERR_INIT;
	int status;

	if (n == 0)
		tri_say_no_race(f, reps);
	else if (!o->quiet)
		print_table(f, rs, n);
	tri_say_skipped(f, reps);
	for (size_t i = 0; i < n; i++) {
		v[i] = rs[i].v;
		noted[i] = rs[i].note != NULL;
		untriaged = untriaged || noted[i];
	}
	status = tri_status(o, v, noted, n, f);
	free(v);
	free(noted);
	if (status == RG_EXIT_OK && untriaged)
		status = RG_EXIT_SETUP;   /* a race not triaged, and none failed */
	if (o->report && write_json(o, rs, n, n, status, &err) < 0) {
		rg_say("--report: %s", err.msg);
		status = RG_EXIT_SETUP;
	}
	if (o->markdown && tri_markdown(o, rs, n, &err) < 0) {
		rg_say("--markdown: %s", err.msg);
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
	tri_judge judge;
	tri_reports reps;
	rg_err err = RG_ERR_INIT, ierr = RG_ERR_INIT;
	tri_race *rs;
	size_t n, done = 0;
	int status = RG_EXIT_OK;
	const char *paths[3] = { o.tsan, o.helgrind, o.drd };

	/* first: the reports may go into it */
	if (o.outdir && mkdir(o.outdir, 0777) < 0 && errno != EEXIST) {
		rg_say("cannot make folder '%s': %s", o.outdir, strerror(errno));
		return RG_EXIT_SETUP;
	}
	if ((o.report && report_check_path(o.report, &err) < 0 &&
	     rg_error_prefix(&err, "--report")) ||
	    (o.markdown && report_check_path(o.markdown, &err) < 0 &&
	     rg_error_prefix(&err, "--markdown"))) {
		rg_say("%s", err.msg);
		return RG_EXIT_SETUP;
	}
	if (judge_load(&o, &judge) < 0) {
		spec_free(judge.xspec);
		return RG_EXIT_SETUP;
	}
	o.judge = &judge;
	o.wait_ms = o.wait_ms ? o.wait_ms : 2000;
	o.runs = o.runs ? o.runs : 5;
	o.verify = o.verify ? o.verify : 20;
	o.abs_command = abs_command(o.command);
	if (normal_build(o.abs_command[0], o.command[0], &err) < 0 ||
	    tri_reports_load(&reps, paths, &err) < 0) {
		rg_say("%s", err.msg);
		status = RG_EXIT_SETUP;
		goto out;
	}
	n = reps.nitems;
	if (tri_expect_count(&o, n, &err) < 0) {
		rg_say("%s", err.msg);
		status = RG_EXIT_SETUP;
		tri_reports_release(&reps);
		goto out;
	}
	rs = xcalloc(n ? n : 1, sizeof(*rs));
	if (interrupt_install(&ierr) < 0)
		rg_warn("%s: SIGINT or SIGTERM will kill racegate at once", ierr.msg);
	for (size_t i = 0; i < n; i++)
		place_race(&o, &reps.items[i], i, &rs[i]);
	o.races = rs;
	o.nraces = n;
	for (; done < n && status == RG_EXIT_OK && !interrupt_signal(); done++) {
		int rc = triage_one(&o, &rs[done], &err);

		if (interrupt_signal())
			break;
		if (rc < 0) {
			rg_say("%s", err.msg);
			status = RG_EXIT_SETUP;
		}
	}
	if (interrupt_signal())
		status = tri_interrupted(&o, rs, done, n, f);
	else if (status == RG_EXIT_OK)
		status = tri_report(&o, &reps, rs, n, f);
	interrupt_uninstall();
	races_free(rs, n);
	tri_reports_release(&reps);
out:
	for (size_t i = 0; o.abs_command[i]; i++)
		free(o.abs_command[i]);
	free(o.abs_command);
	spec_free(judge.xspec);
	return status;
}
