/*
 * when: conditions evaluated over the stopped thread (when.h).
 */
#include "when.h"

#include <stdlib.h>
#include <string.h>

#include "conds.h"

#define NREGS 32           /* DWARF registers kept per arrival */
#define READS_ON_STACK 16  /* batch size needing no allocation */

struct when_run {
	session *s;
	plan *p;
	const gate_engine *eng;
	uint64_t regs[NREGS];
	size_t nregs;
	pid_t regs_tid;        /* whose registers regs are, this arrival; 0: none */
	rg_site site;          /* of the evaluation in progress (for bias) */
};

when_run *when_new(session *s, const gate_engine *eng)
{
	when_run *w = xcalloc(1, sizeof(*w));

	w->s = s;
	w->p = session_plan(s);
	w->eng = eng;
	return w;
}

void when_free(when_run *w)
{
	free(w);
}

void when_arrival(when_run *w)
{
	w->regs_tid = 0;
}

static size_t host_read(void *ctx, const expr_read *reqs, size_t n)
{
	when_run *w = ctx;
	tracer_read_req local[READS_ON_STACK], *q = local;
	size_t i, done;

	if (n > READS_ON_STACK)
		q = xcalloc(n, sizeof(*q));
	for (i = 0; i < n; i++)
		q[i] = (tracer_read_req){reqs[i].addr, reqs[i].buf, reqs[i].len};
	done = tracer_read_batch(session_tracer(w->s), w->regs_tid, q, n);
	if (q != local)
		free(q);
	return done;
}

static uint64_t host_bias(void *ctx, int obj)
{
	when_run *w = ctx;
	rg_site s = conds_obj_site(w->site, obj);
	const run_bias *bt = session_run_bias(w->s);

	/* an object unmapped since: reads at its old place fail, and say so */
	return run_bias_mapped(bt, s) ? run_bias_addr(bt, s) : 0;
}

static bool host_thread_is(void *ctx, const char *alias)
{
	when_run *w = ctx;

	return gate_thread_is(w->eng, w->regs_tid, alias);
}

/* "when: *p unreadable at 0x0": the span of the condition that faulted. */
static char *fault_text(const expr *e, const expr_fault *f)
{
	const char *text = expr_text(e);
	size_t len = strlen(text), off = f->off < len ? f->off : len;
	size_t n = f->len <= len - off ? f->len : len - off;

	return xasprintf("when: %.*s unreadable at 0x%llx", (int)n, text + off,
			 (unsigned long long)f->addr);
}

int when_eval(when_run *w, pid_t tid, size_t gate, rg_site site, unsigned long hit,
	      char **fault)
{
	const expr_code *c = conds_code(w->p, gate, site);
	expr_host h;
	expr_fault f;
	rg_err err = RG_ERR_INIT;
	int r;

	*fault = NULL;
	if (!c) {
		char *at = plan_site_str(w->p, site);

		*fault = xasprintf("when: not compiled for %s", at);
		free(at);
		return -1;
	}
	if (w->regs_tid != tid) {
		if (tracer_dwarf_regs(session_tracer(w->s), tid, w->regs, NREGS, &w->nregs, &err) < 0) {
			*fault = xasprintf("when: %s", err.msg);
			return -1;
		}
		w->regs_tid = tid;
	}
	w->site = site;
	memset(&h, 0, sizeof(h));
	h.regs = w->regs;
	h.nregs = w->nregs;
	h.ctx = w;
	h.read = host_read;
	h.bias = host_bias;
	h.thread_is = host_thread_is;
	h.tid = tid;
	h.hit = hit;
	memset(&f, 0, sizeof(f));
	r = expr_eval(c, &h, &f);
	if (r < 0)
		*fault = fault_text(conds_expr(w->p, gate), &f);
	return r;
}
