/*
 * stall: is the run stuck?  See stall.h.  Who a blocked thread waits for
 * is read from /proc and the program's memory, the way glibc lays it out
 * (procstate.h knows where).
 */
#include "stall.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "procstate.h"
#include "waitfor.h"

/* ---- the quiet period ------------------------------------------------- */

/* a sure stuck set is looked at again this soon (stall_check) */
#define SURE_AGAIN_MS 5.0

struct snap {
	pid_t tid;
	char kind;                 /* 'H' held at a gate, 'B' blocked for ever */
	pid_t on;                  /* 'B': the thread it waits for, or 0 */
	long nr;
	uint64_t a0, a1;
	unsigned long long runs;
};

struct stall_watch {
	pid_t pid;
	pid_t *procs;              /* every process looked at (stall_processes), or NULL: pid */
	size_t nprocs;
	double quiet_ms;
	bool sure_fast;            /* the default quiet period: a sure set needs no more */
	struct snap *last;         /* the stuck set being watched */
	size_t nlast;
	bool have;
	bool last_held;            /* last has a held thread (kept past a touch) */
	double since;              /* when last was first seen */
	bool touched;              /* an event came since the last stall_check */
	double settle_at;          /* no look at /proc before this: events come */
	double cost_ms;            /* what the last look took */
};

static double mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

stall_watch *stall_new(pid_t pid, double quiet_ms)
{
	stall_watch *w = xcalloc(1, sizeof(*w));

	w->pid = pid;
	w->quiet_ms = quiet_ms > 0 ? quiet_ms : STALL_QUIET_MS;
	w->sure_fast = quiet_ms <= 0;
	return w;
}

void stall_free(stall_watch *w)
{
	if (!w)
		return;
	free(w->last);
	free(w->procs);
	free(w);
}

void stall_processes(stall_watch *w, const pid_t *pids, size_t n)
{
	free(w->procs);
	w->procs = xcalloc(n + 1, sizeof(*pids));
	memcpy(w->procs, pids, n * sizeof(*pids));
	w->nprocs = n;
	w->have = false;
}

/* The threads of every process watched, each with its process in *pids. */
static int stall_tasks(const stall_watch *w, pid_t **tids, pid_t **pids, size_t *n)
{
	size_t np = w->procs ? w->nprocs : 1;

	*tids = *pids = NULL;
	*n = 0;
	for (size_t k = 0; k < np; k++) {
		pid_t pid = w->procs ? w->procs[k] : w->pid, *v = NULL;
		size_t m = 0;

		if (tracer_tasks(pid, &v, &m) < 0) {
			free(v);
			if (k == 0)
				return -1;
			continue;      /* a child that died meanwhile */
		}
		*tids = xrealloc(*tids, (*n + m + 1) * sizeof(**tids));
		*pids = xrealloc(*pids, (*n + m + 1) * sizeof(**pids));
		for (size_t i = 0; i < m; i++) {
			(*tids)[*n + i] = v[i];
			(*pids)[*n + i] = pid;
		}
		*n += m;
		free(v);
	}
	return 0;
}

void stall_touch(stall_watch *w)
{
	w->have = false;
	w->touched = true;
}

bool stall_stuck_held(const stall_watch *w)
{
	return w->last_held;
}

static bool tid_in(const pid_t *v, size_t n, pid_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == tid)
			return true;
	return false;
}

/*
 * Is tid no thread at all any more?  A mutex owner that is not one of the
 * program's threads either exited (it never unlocks) or belongs to another
 * process sharing the mutex (it may): only /proc tells.
 */
bool stall_thread_gone(pid_t tid)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/%d", (int)tid);
	return access(path, F_OK) < 0;
}

/*
 * A blocked thread's node of the wait-for graph, from what its futex wait
 * waits on (tracer_tstate_futex_on): one thread, or anyone.  A joined
 * "thread" that is not one of the program's is no join; an owner outside
 * the program that still exists is another process's (a process-shared
 * mutex), which racegate cannot see: anyone.
 */
static void blocked_node(pid_t pid, const tracer_tstate *st, const pid_t *live,
			 size_t nlive, wf_node *nd)
{
	pid_t who = 0;
	enum tracer_futex_kind k = tracer_tstate_futex_on(pid, st, &who);

	nd->kind = WF_ON_ANYONE;
	if ((k == TRACER_FUTEX_MUTEX && (tid_in(live, nlive, who) || stall_thread_gone(who))) ||
	    (k == TRACER_FUTEX_JOIN && tid_in(live, nlive, who))) {
		nd->kind = WF_ON_THREAD;
		nd->on = who;
	}
}

/*
 * A thread of process pid in wait4/waitid: the threads of the child
 * processes it waits for (*ons, caller frees), when every such child is
 * one of those watched (tids[i] in process pids[i]); else false: a child
 * racegate does not see may end the wait.
 */
bool stall_child_wait(pid_t pid, const tracer_tstate *st, const pid_t *tids,
		      const pid_t *pids, size_t n, pid_t **ons, size_t *nons)
{
	pid_t child, *kids = NULL;
	size_t nkids = 0, i, k, cap = 0;
	bool ok = true;

	*ons = NULL;
	*nons = 0;
	if (!tracer_tstate_waits_child(st, &child))
		return false;
	if (child > 0) {
		kids = xmalloc(sizeof(*kids));
		kids[nkids++] = child;
	} else if (tracer_children(pid, &kids, &nkids) < 0 || !nkids) {
		free(kids);
		return false;
	}
	for (k = 0; k < nkids && ok; k++) {
		size_t before = *nons;

		for (i = 0; i < n; i++)
			if (pids[i] == kids[k]) {
				RG_GROW(*ons, *nons + 1, cap);
				(*ons)[(*nons)++] = tids[i];
			}
		ok = *nons > before;
	}
	free(kids);
	if (!ok) {
		free(*ons);
		*ons = NULL;
		*nons = 0;
	}
	return ok;
}

/*
 * The wait-for graph of the live threads now (waitfor.h), and a snapshot
 * of its stuck set (*out, *nout); returns whether a held thread is in it.
 * *sure: no thread of the set waits for anyone (each is held, or waits
 * for a mutex's owner, a thread to exit, a child process).
 */
static bool stuck_now(stall_held_fn held, stall_needs_fn needs, void *ctx,
		      const pid_t *tids, const pid_t *pids, size_t n,
		      struct snap **out, size_t *nout, bool *sure)
{
	wf_node *v = xcalloc(n ? n : 1, sizeof(*v));
	struct snap *snap = xcalloc(n ? n : 1, sizeof(*snap));
	size_t i, nv = 0, ns = 0;
	bool with_held = false;

	for (i = 0; i < n; i++) {
		wf_node *nd = &v[nv];
		struct snap *sp = &snap[nv];
		tracer_tstate st;

		memset(nd, 0, sizeof(*nd));
		memset(sp, 0, sizeof(*sp));
		nd->tid = sp->tid = tids[i];
		if (held(ctx, tids[i])) {
			wf_need *nn = NULL;

			nd->kind = WF_HELD;
			nd->nneeds = needs ? needs(ctx, tids[i], &nn) : 0;
			nd->needs = nn;
			sp->kind = 'H';
			nv++;
			continue;
		}
		tracer_tstate_read(pids[i], tids[i], &st);
		if (!st.state || st.state == 'Z' || st.state == 'X')
			continue;          /* dead, not yet reaped */
		if (stall_child_wait(pids[i], &st, tids, pids, n, (pid_t **)&nd->ons,
				    &nd->nons)) {
			nd->kind = WF_ON_ANY_OF;
			sp->kind = 'B';
			sp->nr = st.nr;
			sp->a0 = st.args[0];
			sp->runs = st.runs;
		} else if (tracer_tstate_wait(pids[i], &st) == TRACER_WAIT_FOREVER) {
			blocked_node(pids[i], &st, tids, n, nd);
			sp->kind = 'B';
			sp->on = nd->on;
			sp->nr = st.nr;
			sp->a0 = st.args[0];
			sp->a1 = st.args[1];
			sp->runs = st.runs;
		}
		nv++;
	}
	*sure = true;
	if (wf_solve(v, nv)) {
		for (i = 0; i < nv; i++) {
			if (!v[i].stuck)
				continue;
			with_held |= v[i].kind == WF_HELD;
			*sure &= v[i].kind != WF_ON_ANYONE;
			snap[ns++] = snap[i];
		}
	}
	for (i = 0; i < nv; i++) {
		wf_needs_free((wf_need *)v[i].needs, v[i].nneeds);
		free((pid_t *)v[i].ons);
	}
	free(v);
	*out = snap;
	*nout = ns;
	return with_held;
}

enum stall_verdict stall_check(stall_watch *w, stall_held_fn held, stall_needs_fn needs,
			       void *ctx, double t_ms, double *next_ms)
{
	double step = w->quiet_ms / 4 < 5 ? 5 : w->quiet_ms / 4;
	pid_t *tids = NULL, *pids = NULL;
	size_t n = 0, nc = 0;
	struct snap *cur;
	bool with_held, sure;
	double t0, quiet;

	/*
	 * Reading /proc for every thread costs more than a breakpoint hit:
	 * after an event, look only once nothing has happened for a step
	 * (the verdict comes at most a step later; a hot gated loop never
	 * pays for it).  Every thread is read each time (a cycle may hide
	 * among running ones), so with thousands of threads a look is slow:
	 * the step is then at least four times what the last look took, and
	 * looking never takes more than a fifth of racegate's time.
	 */
	if (step < 4 * w->cost_ms)
		step = 4 * w->cost_ms;
	if (w->touched) {
		w->touched = false;
		w->settle_at = t_ms + step;
	}
	if (t_ms < w->settle_at) {
		*next_ms = w->settle_at;
		return STALL_NONE;
	}
	*next_ms = t_ms + step;
	if (stall_tasks(w, &tids, &pids, &n) < 0 || !n) {
		free(tids);
		free(pids);
		w->have = false;
		return STALL_NONE;
	}
	t0 = mono_ms();
	with_held = stuck_now(held, needs, ctx, tids, pids, n, &cur, &nc, &sure);
	w->cost_ms = mono_ms() - t0;
	free(tids);
	free(pids);
	if (!nc) {
		free(cur);
		w->have = false;
		return STALL_NONE;
	}
	/*
	 * A sure set seen twice alike is stuck: none of its threads ran in
	 * between (their run counts), so at an instant between the two looks
	 * each was in its wait, and each could be let out only by another of
	 * them (or by a signal, which no quiet period rules out).
	 * A set where some thread waits for anyone (a condition, a pipe) waits
	 * out the quiet period, as does every set when it was given.
	 */
	quiet = w->sure_fast && sure ? 0 : w->quiet_ms;
	if (w->have && w->nlast == nc && !memcmp(w->last, cur, nc * sizeof(*cur))) {
		free(cur);
		if (t_ms - w->since >= quiet)
			return STALL_STUCK;
		if (w->since + quiet < *next_ms)
			*next_ms = w->since + quiet;
		return STALL_MAYBE;
	}
	free(w->last);
	w->last = cur;
	w->nlast = nc;
	w->have = true;
	w->last_held = with_held;
	w->since = t_ms;
	if (!quiet && t_ms + SURE_AGAIN_MS + w->cost_ms < *next_ms)
		*next_ms = t_ms + SURE_AGAIN_MS + w->cost_ms;
	return STALL_MAYBE;
}
