/*
 * Two things the session's event loop (session.c) asks of the program for the gates
 * language, kept out of the loop itself:
 *
 *  - "I have got past": a gate's then_open opens when the released thread
 *    has finished the gated line, not when it is released (docs/gates.md,
 *    "then_open: when is a line passed").  Here the line's code is looked
 *    up and the tracer told to watch the thread leave it.
 *  - thread names: {name: NAME} selectors need a thread's comm, which the
 *    program may set at any time (pthread_setname_np), so the session asks again
 *    at arrivals and while threads are held.
 */
#include "result.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tracer.h"

/* A line split into more pieces than this is watched over the first ones. */
#define PAST_MAX_SPANS 64

int run_resume_past(plan *p, tracer *tr, const run_bias *bt, pid_t tid,
		    const plan_bp *at, rg_err *err)
{
	dwarfx_span ds[PAST_MAX_SPANS];
	tracer_span ts[PAST_MAX_SPANS];
	dwarfx *dx = at ? plan_site_dx(p, at->site) : NULL;
	size_t n = 0, i;

	/* the line is looked up in the object the gate is in, not the executable */
	if (dx && run_bias_mapped(bt, at->site))
		n = dwarfx_line_range(dx, at->site.link_addr, ds, PAST_MAX_SPANS);
	if (n > PAST_MAX_SPANS)
		n = PAST_MAX_SPANS;
	for (i = 0; i < n; i++) {
		rg_site lo = {at->site.obj, ds[i].lo}, hi = {at->site.obj, ds[i].hi};

		ts[i].lo = run_bias_addr(bt, lo);
		ts[i].hi = run_bias_addr(bt, hi);
	}
	return tracer_resume_past(tr, tid, ts, n, err);
}

static bool sel_names(const spec_selector *s)
{
	return s->kind == SPEC_SEL_MATCH && s->name;
}

bool run_spec_uses_names(const spec *sp)
{
	size_t i;

	for (i = 0; i < sp->naliases; i++)
		if (sel_names(&sp->aliases[i].sel))
			return true;
	for (i = 0; i < sp->ngates; i++)
		if (sel_names(&sp->gates[i].thread))
			return true;
	return false;
}

int run_thread_comm(pid_t pid, pid_t tid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	if (len < 2)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
