/*
 * What the runner's Check suites share (check_util.h).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "gates.h"

/* A spec from YAML text; the test fails on any error in it. */
spec *load(const char *yaml)
{
	spec_diags d = SPEC_DIAGS_INIT;
	spec *sp = NULL;
	size_t i;

	if (spec_load_string(yaml, strlen(yaml), "t.yaml", ".", &sp, &d) < 0) {
		for (i = 0; i < d.n; i++) {
			char *m = spec_diag_format(&d, i);
			fprintf(stderr, "%s\n", m);
			free(m);
		}
		ck_abort_msg("the test's spec does not load");
	}
	spec_diags_release(&d);
	return sp;
}

/* A run that ended by itself (sig: killed by it), every gate reached. */
void res_init(run_result *r, const spec *sp, int exit_code, int sig)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->exited = true;
	r->exit_code = sig ? -1 : exit_code;
	r->term_signal = sig;
	r->ngates = sp->ngates;
	r->gate_reached = xcalloc(sp->ngates, sizeof(bool));
	r->gate_timed_out = xcalloc(sp->ngates, sizeof(bool));
	for (i = 0; i < sp->ngates; i++)
		r->gate_reached[i] = true;
}

void res_unarmed(run_result *r, size_t gate, const char *why)
{
	if (!r->gate_unarmed)
		r->gate_unarmed = xcalloc(r->ngates, sizeof(char *));
	r->gate_unarmed[gate] = xstrdup(why);
	r->gate_reached[gate] = false;
}



void cap_begin(struct cap *c)
{
	fflush(stderr);
	c->f = tmpfile();
	ck_assert_ptr_nonnull(c->f);
	c->saved = dup(STDERR_FILENO);
	dup2(fileno(c->f), STDERR_FILENO);
}

char *slurp(FILE *f)
{
	rg_buf b = RG_BUF_INIT;
	char chunk[4096];
	size_t n;

	rewind(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		rg_buf_add(&b, chunk, n);
	return rg_buf_detach(&b);
}

char *cap_end(struct cap *c)
{
	char *s;

	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	s = slurp(c->f);
	fclose(c->f);
	return s;
}

char *read_path(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;

	ck_assert_msg(f != NULL, "cannot read '%s'", path);
	s = slurp(f);
	fclose(f);
	return s;
}


const char check_report_yaml[] =
	"version: 1\n"
	"name: lost update\n"
	"command: [./prog]\n"
	"gates:\n"
	"  - {name: w1-loaded, at: \"c.c:12\", wait: w2-stored}\n"
	"  - {name: w2-stored, at: \"c.c:14\", then_open: w2-stored}\n"
	"expect: {exit: 1, stdout: \"counter = 1\"}\n";

void tl_add(run_result *r, double t, pid_t tid, const char *who, int kind,
	    int gate, const char *what, const char *event, double held)
{
	tl_entry *e;

	RG_GROW(r->tl, r->ntl + 1, r->captl);
	e = &r->tl[r->ntl++];
	memset(e, 0, sizeof(*e));
	e->t_ms = t;
	e->tid = tid;
	e->who = xstrdup(who);
	e->where = gate == 0 ? "c.c:12" : "c.c:14";
	e->gate = gate == 0 ? "w1-loaded" : "w2-stored";
	e->what = xstrdup(what);
	e->kind = kind;
	e->gate_index = gate;
	e->event = event ? xstrdup(event) : NULL;
	e->held_ms = held;
}


void fixture_init(struct fixture *f)
{
	static char *argv[] = {"/bin/prog", "-n", "2", NULL};
	run_result *r;

	memset(f, 0, sizeof(*f));
	f->sp = load(check_report_yaml);
	f->p.sp = f->sp;
	f->p.exe = "/bin/prog";
	f->p.argv = argv;

	r = &f->runs[0].r;
	res_init(r, f->sp, 1, 0);
	r->outcome = OUT_REPRODUCED;
	r->elapsed_ms = 20.25;
	r->note = xstrdup("exit 1");
	rg_buf_puts(&r->out, "counter = 1\n");
	tl_add(r, 1.0, 101, "w1", GATE_NOTE_HOLD, 0, "held: waiting for w2-stored",
	       NULL, 0);
	tl_add(r, 2.0, 102, "w2", GATE_NOTE_ARRIVE, 1, "passed", NULL, 0);
	tl_add(r, 3.0, 102, "w2", GATE_NOTE_OPEN, 1, "opened w2-stored", "w2-stored", 0);
	tl_add(r, 3.0, 101, "w1", GATE_NOTE_RELEASE, 0, "released", NULL, 2.0);
	r->arrivals = 2;
	r->bp_hits = 2;
	f->runs[0].no = 1;
	f->runs[0].ok = true;
	f->runs[0].tap_point = 1;

	r = &f->runs[1].r;
	res_init(r, f->sp, 0, 0);
	r->outcome = OUT_NOT_REPRODUCED;
	r->elapsed_ms = 12.5;
	r->gate_reached[1] = false;
	r->note = xstrdup("expected exit 1, got exit 0; stdout does not contain "
			  "'counter = 1'");
	rg_buf_puts(&r->out, "counter = 2\n");
	rg_buf_add(&r->err, "<&> \x01\xff\"q\"\n", 10);
	f->runs[1].no = 2;
	f->runs[1].start_ms = 21.0;
	f->runs[1].tap_point = 2;

	f->rc.sp = f->sp;
	f->rc.p = &f->p;
	f->rc.runs = f->runs;
	f->rc.nruns = 2;
	f->rc.repeat = 2;
	f->rc.jobs = 1;
	f->rc.status = RG_EXIT_UNMET;
	f->rc.elapsed_ms = 40.0;
	f->rc.started_unix_ms = 1700000000000LL;
}

void fixture_release(struct fixture *f)
{
	run_result_release(&f->runs[0].r);
	run_result_release(&f->runs[1].r);
	spec_free(f->sp);
}

/* The reports' strings outlive the run results: here they are the test's. */
const char *intern_same(void *ctx, const char *str)
{
	static const char *const known[] = {"c.c:12", "c.c:14", "w1-loaded",
					    "w2-stored"};
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i], str))
			return known[i];
	return "?";
}

char *tmp_path(void)
{
	char *path = xstrdup("/tmp/check_report_XXXXXX");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	return path;
}

