/*
 * diagnose: a stuck run, in words.  See diagnose.h.
 *
 * What a blocked thread waits for is read from the program's memory, the way
 * glibc lays it out (procstate.h knows where):
 *  - a mutex: the futex is its lock word, and it records its owner's tid;
 *  - pthread_join waits on the joined thread's tid field, which holds its
 *    tid until the kernel clears it at the thread's exit;
 *  - condition variables wait on a futex inside the pthread_cond_t.
 * The backtrace says which of these it is (pthread_mutex_lock, ...); without
 * one (no unwinding when the run goes on: on_deadlock: release) the futex
 * word itself is the hint.
 */
#include "diagnose.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decide_gates.h"
#include "procstate.h"
#include "stall.h"
#include "waitfor.h"

#define MAX_FRAMES 48

/* ---- symbols ---------------------------------------------------------- */

/* A process's code, for naming places in it. */
struct dproc {
	pid_t pid;
	plan *p;                   /* the plan of the image it runs, or NULL: none
				      describes it (diag_image) */
	uint64_t bias;             /* p's executable's */
	dwarfx *exe;               /* its executable (NULL: unknown) */
	tracer_map *maps;
	size_t nmaps;
};

struct dctx {
	const diag_input *in;
	struct dproc **procs;      /* each process looked at so far (they stay put) */
	size_t nprocs;
};

/* Process pid's view: its mappings read once, its image's plan. */
static struct dproc *proc_view(struct dctx *d, pid_t pid)
{
	const diag_input *in = d->in;
	struct dproc *pr;
	char exe[PATH_MAX], path[64];
	ssize_t len;

	for (size_t i = 0; i < d->nprocs; i++)
		if (d->procs[i]->pid == pid)
			return d->procs[i];
	d->procs = xrealloc(d->procs, (d->nprocs + 1) * sizeof(*d->procs));
	pr = d->procs[d->nprocs++] = xcalloc(1, sizeof(*pr));
	pr->pid = pid;
	pr->p = in->p;
	pr->bias = in->bias;
	for (size_t i = 0; i < in->nimages; i++)
		if (in->images[i].pid == pid) {
			pr->p = in->images[i].p;
			pr->bias = in->images[i].bias;
		}
	if (tracer_maps_of(in->tr, pid, &pr->maps, &pr->nmaps, NULL) < 0)
		pr->nmaps = 0;
	if (pr->p) {
		pr->exe = pr->p->dx;
		return pr;
	}
	/* an image no plan describes: its executable is a file like another */
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	if ((len = readlink(path, exe, sizeof(exe) - 1)) > 0) {
		exe[len] = '\0';
		pr->exe = plan_object(in->p, exe);
	}
	return pr;
}

static void procs_free(struct dctx *d)
{
	for (size_t i = 0; i < d->nprocs; i++) {
		tracer_maps_free(d->procs[i]->maps, d->procs[i]->nmaps);
		free(d->procs[i]);
	}
	free(d->procs);
}

/*
 * The object mapped at run-time address a in pr, and a's link-time address
 * in it (run_site_at; memory no file backs counts as the executable's).
 */
static dwarfx *object_at(struct dctx *d, const struct dproc *pr, uint64_t a,
			 uint64_t *link)
{
	rg_site site;

	if (pr->p ? !run_site_at(pr->p, pr->maps, pr->nmaps, pr->bias, true, a, &site) :
	    !run_site_in_files(d->in->p, pr->maps, pr->nmaps, a, &site))
		return NULL;
	*link = site.link_addr;
	return plan_site_dx(pr->p ? pr->p : d->in->p, site);
}

/*
 * "fn at file.c:12" (in_exe: in pr's executable, with a line) or
 * "fn (libc.so.6)"; lookup at pc - 1 for return addresses.
 */
static char *describe_pc(struct dctx *d, const struct dproc *pr, uint64_t pc,
			 bool is_return, bool *in_exe, dwarfx_loc *out)
{
	uint64_t link = 0;
	dwarfx *dx = object_at(d, pr, pc, &link);
	dwarfx_loc loc;

	*in_exe = false;
	memset(&loc, 0, sizeof(loc));
	if (!dx || dwarfx_symbolize(dx, is_return ? link - 1 : link, &loc) < 0) {
		for (size_t i = 0; i < pr->nmaps; i++)
			if (pr->maps[i].path && pc >= pr->maps[i].start && pc < pr->maps[i].end)
				return xasprintf("?? (%s)", rg_base_name(pr->maps[i].path));
		return xstrdup("??");
	}
	if (out)
		*out = loc;
	if (loc.file && loc.line) {
		*in_exe = dx == pr->exe;
		return xasprintf("%s at %s:%d", loc.function ? loc.function : "??",
				 rg_base_name(loc.file), loc.line);
	}
	{
		/* a library's symbol table: std::thread::join(), not _ZNSt6thread4joinEv */
		char *dem = dwarfx_demangle(loc.function);
		char *s = xasprintf("%s (%s)", dem ? dem : loc.function ? loc.function : "??",
				    rg_base_name(dwarfx_path(dx)));

		free(dem);
		return s;
	}
}

/* "'lock'" or "'bank'+8" or "at 0x...": the variable at run-time address a
 * in process pid. */
static char *object_name(struct dctx *d, pid_t pid, uint64_t a, bool whole)
{
	uint64_t link = 0, off = 0;
	dwarfx *dx = object_at(d, proc_view(d, pid), a, &link);
	char name[128];

	if (dx && dwarfx_data_symbol_at(dx, link, name, sizeof(name), &off)) {
		/* a C++ variable as its source names it (std::mutex m, not _ZL1m) */
		char *dem = dwarfx_demangle(name), *s;

		if (off && !whole)
			s = xasprintf("'%s'+%llu", dem ? dem : name, (unsigned long long)off);
		else
			s = xasprintf("'%s'", dem ? dem : name);
		free(dem);
		return s;
	}
	return xasprintf("at 0x%llx", (unsigned long long)a);
}

/* ---- one thread ------------------------------------------------------- */

enum waits { W_NONE, W_MUTEX, W_COND, W_JOIN, W_BARRIER, W_SEM, W_RWLOCK, W_FUTEX, W_CHILD };

struct dthread {
	pid_t tid;
	pid_t pid;                 /* its process */
	const char *label;
	const plan_bp *at;
	bool live, held;
	int gate;
	char *reason;              /* held: "waiting for x" */
	tracer_tstate st;
	enum tracer_wait wait;
	uint64_t pcs[MAX_FRAMES];
	size_t npcs;
	char **frames;             /* described pcs */
	char *where;               /* "file.c:12 in fn" */
	char *where_paren;         /* "fn (file.c:12)" */
	enum waits what;
	uint64_t obj;              /* futex address */
	pid_t other;               /* W_MUTEX: owner, W_JOIN: the joined thread,
				      W_CHILD: the child process (-1: any) */
};

static const char *label_of(const diag_input *in, pid_t tid, char *buf, size_t len)
{
	const char *l = gate_thread_label(in->eng, tid);

	if (l && strcmp(l, "unknown"))
		return l;
	snprintf(buf, len, "tid %d", (int)tid);
	return buf;
}

static bool has_frame(const struct dthread *t, const char *const *names)
{
	for (size_t i = 0; i < t->npcs && t->frames; i++)
		for (size_t k = 0; names[k]; k++)
			if (strstr(t->frames[i], names[k]))
				return true;
	return false;
}

static void classify(struct dctx *d, struct dthread *t, const pid_t *live, size_t nlive)
{
	static const char *const mutex[] = { "mutex_lock", "lll_lock_wait", NULL };
	static const char *const cond[] = { "pthread_cond_", NULL };
	static const char *const join[] = { "pthread_join", "pthread_clockjoin",
					    "pthread_timedjoin", "pthread_tryjoin", NULL };
	static const char *const barrier[] = { "pthread_barrier_wait", NULL };
	static const char *const sem[] = { "sem_wait", "sem_timedwait", "sem_clockwait", NULL };
	static const char *const rw[] = { "pthread_rwlock", NULL };
	int32_t word = 0;
	pid_t owner = 0;
	bool known_word = false, known_owner = false;
	size_t i;

	if (tracer_tstate_waits_child(&t->st, &t->other)) {
		t->what = W_CHILD;
		return;
	}
	t->obj = tracer_tstate_futex(&t->st);
	if (!t->obj) {
		t->what = W_NONE;
		return;
	}
	/* in the thread's own process: a followed child's memory is its own
	 * (the same addresses hold other words in its parent) */
	known_word = tracer_read_batch(d->in->tr, t->tid, &(tracer_read_req){
		.addr = t->obj, .buf = &word, .len = sizeof(word) }, 1) == 1;
	known_owner = tracer_mutex_owner(t->pid, t->obj, &owner);
	if (t->npcs) {
		t->what = has_frame(t, join) ? W_JOIN : has_frame(t, cond) ? W_COND :
			  has_frame(t, barrier) ? W_BARRIER : has_frame(t, sem) ? W_SEM :
			  has_frame(t, rw) ? W_RWLOCK : has_frame(t, mutex) ? W_MUTEX :
			  W_FUTEX;
	}
	if (!t->npcs || t->what == W_FUTEX) {
		/* no frame said it (a static function of libc): the futex word */
		t->what = W_FUTEX;
		for (i = 0; i < nlive; i++) {
			if (live[i] == t->tid)
				continue;
			if (known_word && word == live[i])
				t->what = W_JOIN;
			else if (known_owner && owner == live[i] && (word == 1 || word == 2))
				t->what = W_MUTEX;
		}
	}
	if (t->what == W_FUTEX) {
		/* a robust or PI mutex (libc's own static lock function) */
		pid_t who = 0;

		if (tracer_tstate_futex_on(t->pid, &t->st, &who) ==
		    TRACER_FUTEX_MUTEX && who != t->tid) {
			for (i = 0; i < nlive; i++)
				if (live[i] == who)
					break;
			if (i < nlive) {
				t->what = W_MUTEX;
				owner = who;
				known_owner = true;
			}
		}
	}
	if (t->what == W_JOIN && known_word)
		t->other = word;
	if (t->what == W_MUTEX && known_owner)
		t->other = owner;
}

static char *state_text(struct dctx *d, const struct dthread *t)
{
	char b1[32], b2[32], *obj, *s;
	const char *who, *nm;

	if (t->held)
		return xasprintf("held at gate '%s': %s",
				 t->gate >= 0 ? d->in->p->sp->gates[t->gate].name : "?",
				 t->reason ? t->reason : "");
	switch (t->what) {
	case W_MUTEX:
		obj = object_name(d, t->pid, t->obj, false);
		who = label_of(d->in, t->other, b1, sizeof(b1));
		s = t->other > 0 ?
		    xasprintf("blocked: waits for mutex %s, held by %s (tid %d)", obj,
			      who, (int)t->other) :
		    xasprintf("blocked: waits for mutex %s", obj);
		free(obj);
		return s;
	case W_JOIN:
		return xasprintf("blocked: waits for %s (tid %d) to exit (pthread_join)",
				 label_of(d->in, t->other, b1, sizeof(b1)), (int)t->other);
	case W_CHILD:
		nm = tracer_syscall_name(t->st.nr, b2, sizeof(b2));
		if (t->other < 0)
			return xasprintf("blocked: waits for a child process to end (%s)", nm);
		return xasprintf("blocked: waits for %s (pid %d) to end (%s)",
				 label_of(d->in, t->other, b1, sizeof(b1)), (int)t->other, nm);
	case W_COND:
	case W_BARRIER:
	case W_SEM:
	case W_RWLOCK:
		obj = object_name(d, t->pid, t->obj, true);
		s = xasprintf("blocked: waits on %s %s",
			      t->what == W_COND ? "condition variable" :
			      t->what == W_BARRIER ? "barrier" :
			      t->what == W_SEM ? "semaphore" : "rwlock", obj);
		free(obj);
		return s;
	case W_FUTEX:
		return xasprintf("blocked: futex wait at 0x%llx%s",
				 (unsigned long long)t->obj,
				 t->wait == TRACER_WAIT_TIMED ? ", with a timeout" : "");
	case W_NONE:
		break;
	}
	if (t->st.state == 'T' || t->st.state == 't')
		return xstrdup("stopped");
	if (t->st.state == 'R' || !t->st.in_syscall)
		return xstrdup("running");
	nm = tracer_syscall_name(t->st.nr, b2, sizeof(b2));
	if (t->wait == TRACER_WAIT_TIMED)
		return xasprintf("sleeping in %s (wakes by itself)", nm);
	if (t->wait == TRACER_WAIT_FOREVER)
		return xasprintf("blocked: %s with no timeout%s", nm,
				 tracer_syscall_reads_fd(t->st.nr) ?
				 " on a pipe or socket only the program can write" : "");
	return xasprintf("in %s (may wake)", nm);
}

static void unwind_thread(struct dctx *d, struct dthread *t, bool stop)
{
	const struct dproc *pr = proc_view(d, t->pid);
	rg_err err = RG_ERR_INIT;
	size_t i;

	if (stop && !t->held && tracer_interrupt(d->in->tr, t->tid, &err) < 0)
		return;
	if (tracer_backtrace(d->in->tr, t->tid, t->pcs, MAX_FRAMES, &t->npcs, &err) < 0 &&
	    !t->npcs)
		return;
	t->frames = xcalloc(t->npcs, sizeof(*t->frames));
	for (i = 0; i < t->npcs; i++) {
		bool in_exe;
		dwarfx_loc loc;
		char *s = describe_pc(d, pr, t->pcs[i], i > 0, &in_exe, &loc);

		t->frames[i] = xasprintf("#%zu 0x%016llx in %s", i,
					 (unsigned long long)t->pcs[i], s);
		if (in_exe && !t->where) {
			t->where = xasprintf("%s:%d in %s", rg_base_name(loc.file), loc.line,
					     loc.function ? loc.function : "??");
			t->where_paren = xasprintf("%s (%s:%d)",
						   loc.function ? loc.function : "??",
						   rg_base_name(loc.file), loc.line);
		}
		free(s);
	}
}

/* ---- the chain -------------------------------------------------------- */

static bool strv_has(const spec_strv *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

static struct dthread *find_thread(struct dthread *v, size_t n, pid_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].tid == tid)
			return &v[i];
	return NULL;
}

/* The first live thread neither held nor blocked for ever, or NULL. */
static const struct dthread *first_mover(const struct dthread *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].live && !v[i].held && v[i].wait != TRACER_WAIT_FOREVER)
			return &v[i];
	return NULL;
}

/*
 * A gate that opens ev with a thread filter that could pick any thread
 * (gate_open_ended), while some thread can still move: that thread might
 * reach the gate, so the wait-for graph rightly finds no deadlock, and the
 * run can only end at its timeout.  Says so, and how to pin the gate down;
 * false when it does not apply.
 */
static bool explain_open_ended(struct dctx *d, struct dthread *v, size_t n,
			       const char *ev, rg_buf *b)
{
	const spec *sp = d->in->p->sp;
	const struct dthread *mover = first_mover(v, n);
	size_t i;

	if (!mover)
		return false;
	for (i = 0; i < sp->ngates; i++) {
		const spec_gate *g = &sp->gates[i];

		if ((!strv_has(&g->open, ev) && !strv_has(&g->then_open, ev) &&
		     !strv_has(&g->open_when_blocked, ev)) ||
		    !gate_open_ended(d->in->eng, i))
			continue;
		rg_buf_printf(b, "; no deadlock verdict: gate '%s', which opens %s, does not "
			      "name one thread, and %s (tid %d) still moves, so it might "
			      "get there; a thread alias or {start: F, nth: K} on the gate "
			      "lets racegate tell", g->name, ev, mover->label, (int)mover->tid);
		return true;
	}
	return false;
}

/*
 * A thread that a gate opening ev selects is blocked on something any
 * thread might end (a condition variable, a semaphore, a futex whose owner
 * is not known) while another thread still moves: the wait-for graph
 * cannot call that stuck, so the run can only end at its timeout.  Says
 * so; false when it does not apply.
 */
static bool explain_woken_opener(struct dctx *d, struct dthread *v, size_t n,
				 const char *ev, rg_buf *b)
{
	const spec *sp = d->in->p->sp;
	const struct dthread *mover = first_mover(v, n);
	size_t i, k;

	if (!mover)
		return false;
	for (i = 0; i < sp->ngates; i++) {
		const spec_gate *g = &sp->gates[i];

		if (!strv_has(&g->open, ev) && !strv_has(&g->then_open, ev) &&
		    !strv_has(&g->open_when_blocked, ev))
			continue;
		for (k = 0; k < n; k++) {
			struct dthread *t = &v[k];
			char *st;

			if (!t->live || t->held || t->wait != TRACER_WAIT_FOREVER ||
			    t->what == W_JOIN || (t->what == W_MUTEX && t->other > 0) ||
			    !gate_selects(d->in->eng, i, t->tid))
				continue;
			st = state_text(d, t);
			rg_buf_printf(b, "; no deadlock verdict: %s, which opens %s at gate "
				      "'%s', is blocked (%s), and %s (tid %d) still moves, "
				      "so it might wake it", t->label, ev, g->name,
				      !strncmp(st, "blocked: ", 9) ? st + 9 : st,
				      mover->label, (int)mover->tid);
			free(st);
			return true;
		}
	}
	return false;
}

/* Who could open ev, and can they?  Appended to b as a sentence. */
static void explain_event(struct dctx *d, struct dthread *v, size_t n,
			  const char *ev, rg_buf *b)
{
	const spec *sp = d->in->p->sp;
	size_t i, k, nopeners = 0, ngone = 0;
	rg_buf gone = RG_BUF_INIT;

	for (i = 0; i < sp->ngates; i++) {
		const spec_gate *g = &sp->gates[i];
		const char *who = NULL;
		struct dthread *t = NULL;

		if (!strv_has(&g->open, ev) && !strv_has(&g->then_open, ev) &&
		    !strv_has(&g->open_when_blocked, ev))
			continue;
		nopeners++;
		if (g->thread.kind == SPEC_SEL_ALIAS)
			who = g->thread.alias;
		else if (g->thread.kind == SPEC_SEL_MAIN)
			who = "main";
		if (!who)
			continue;
		for (k = 0; k < n && !t; k++)
			if (!strcmp(gate_thread_label(d->in->eng, v[k].tid), who))
				t = &v[k];
		if (t && !t->live) {
			rg_buf_printf(&gone, "%s%s (tid %d), at gate '%s'",
				      ngone ? " or " : "", who, (int)t->tid, g->name);
			ngone++;
		}
	}
	if (nopeners && ngone == nopeners)
		rg_buf_printf(b, "; only %s can open %s, and %s exited", gone.s, ev,
			      ngone > 1 ? "they have all" : "it has");
	else if (!strncmp(ev, "exited:", 7))
		rg_buf_printf(b, "; %s opens only when %s exits%s", ev, ev + 7,
			      gate_alias_bound(d->in->eng, ev + 7) ? "" :
			      ", and no thread has been bound to it");
	else if (!explain_open_ended(d, v, n, ev, b) &&
		 !explain_woken_opener(d, v, n, ev, b))
		rg_buf_printf(b, "; nothing else can open %s", ev);
	rg_buf_release(&gone);
}

static char *build_chain(struct dctx *d, struct dthread *v, size_t n)
{
	rg_buf b = RG_BUF_INIT;
	size_t i, j, k;
	const spec *sp = d->in->p->sp;

	for (i = 0; i < n; i++) {
		struct dthread *t = &v[i];
		bool holds = false;
		char *obj;

		if (!t->live)
			continue;
		rg_buf_printf(&b, "%s%s", b.len ? "; " : "", t->label);
		/* mutexes it owns: those other threads wait for */
		for (j = 0; j < n; j++) {
			if (!v[j].live || v[j].what != W_MUTEX || v[j].other != t->tid)
				continue;
			for (k = 0; k < j; k++)
				if (v[k].live && v[k].what == W_MUTEX && v[k].obj == v[j].obj &&
				    v[k].other == t->tid)
					break;
			if (k < j)
				continue;
			obj = object_name(d, v[j].pid, v[j].obj, false);
			rg_buf_printf(&b, "%s mutex %s", holds ? "," : " holds", obj);
			free(obj);
			holds = true;
		}
		if (holds && t->held && t->at)
			rg_buf_printf(&b, " (%s)", t->at->where);
		if (holds)
			rg_buf_puts(&b, " and");
		if (t->held) {
			rg_buf_printf(&b, " is held at gate %s %s",
				      t->gate >= 0 ? sp->gates[t->gate].name : "?",
				      t->reason ? t->reason : "");
			continue;
		}
		switch (t->what) {
		case W_MUTEX: {
			char lb[32];
			struct dthread *o = find_thread(v, n, t->other);

			obj = object_name(d, t->pid, t->obj, false);
			rg_buf_printf(&b, " waits for mutex %s", obj);
			free(obj);
			if (t->where_paren)
				rg_buf_printf(&b, " in %s", t->where_paren);
			if (t->other > 0 && !(o && o->live))
				rg_buf_printf(&b, ", held by %s, which has exited",
					      label_of(d->in, t->other, lb, sizeof(lb)));
			break;
		}
		case W_JOIN: {
			char lb[32];

			rg_buf_printf(&b, " waits for %s to exit (pthread_join%s%s)",
				      label_of(d->in, t->other, lb, sizeof(lb)),
				      t->where_paren ? " in " : "",
				      t->where_paren ? t->where_paren : "");
			break;
		}
		case W_FUTEX:
			rg_buf_printf(&b, " is blocked in a futex wait at 0x%llx%s%s",
				      (unsigned long long)t->obj,
				      t->where_paren ? " in " : "",
				      t->where_paren ? t->where_paren : "");
			break;
		default: {
			char *s = state_text(d, t);
			const char *txt = !strncmp(s, "blocked: ", 9) ? s + 9 : s;

			rg_buf_printf(&b, " %s%s%s", !strncmp(s, "blocked: ", 9) ? "" : "is ",
				      txt, t->where_paren ? " in " : "");
			if (t->where_paren)
				rg_buf_puts(&b, t->where_paren);
			free(s);
		}
		}
	}
	/* what the held threads wait for, and why it cannot come */
	for (i = 0; i < n; i++) {
		const spec_gate *g;

		if (!v[i].live || !v[i].held || v[i].gate < 0)
			continue;
		g = &sp->gates[v[i].gate];
		for (j = 0; j < g->wait.n; j++) {
			const char *ev = g->wait.v[j];
			bool dup = false;

			if (gate_event_open(d->in->eng, ev))
				continue;
			for (k = 0; k < i && !dup; k++)
				if (v[k].live && v[k].held && v[k].gate >= 0 &&
				    strv_has(&sp->gates[v[k].gate].wait, ev))
					dup = true;
			if (!dup)
				explain_event(d, v, n, ev, &b);
		}
	}
	return rg_buf_detach(&b);
}

/* ---- the cycle: stuck threads beside others that run ------------------ */

struct cyc {
	struct dctx *d;
	struct dthread *v;         /* the threads, as diagnose() has them */
	size_t n;
	wf_node *w;           /* the graph's nodes, of the live threads */
	size_t *th;                /* per node: its index in v */
	wf_need **needs;           /* per node: what it needs (held) */
	size_t nw;
	bool *said;                /* per node: described */
	bool *named;               /* per node: "label (tid N)" already written */
};

/* "label (tid N)" the first time, "label" after. */
static void cyc_name(struct cyc *c, rg_buf *b, size_t node)
{
	const struct dthread *t = &c->v[c->th[node]];

	if (c->named[node]) {
		rg_buf_puts(b, t->label);
		return;
	}
	rg_buf_printf(b, "%s (tid %d)", t->label, (int)t->tid);
	c->named[node] = true;
}

static size_t cyc_node(const struct cyc *c, pid_t tid)
{
	for (size_t i = 0; i < c->nw; i++)
		if (c->w[i].tid == tid)
			return i;
	return (size_t)-1;
}

/* A thread outside the graph (gone), or in it, by tid. */
static void cyc_tid(struct cyc *c, rg_buf *b, pid_t tid)
{
	size_t k = cyc_node(c, tid);
	char lb[32];

	if (k != (size_t)-1) {
		cyc_name(c, b, k);
		return;
	}
	rg_buf_printf(b, "%s (tid %d), which has exited",
		      label_of(c->d->in, tid, lb, sizeof(lb)), (int)tid);
}

/* What held node i waits for and who alone could give it. */
static void cyc_held(struct cyc *c, rg_buf *b, size_t i)
{
	const struct dthread *t = &c->v[c->th[i]];
	const wf_need *nd;

	rg_buf_printf(b, " held at %s", t->at ? t->at->where : "a gate");
	if (c->w[i].blocked_need < 0) {
		rg_buf_printf(b, " %s", t->reason ? t->reason : "");
		return;
	}
	nd = &c->needs[i][c->w[i].blocked_need];
	if (nd->event)
		rg_buf_printf(b, " waiting for '%s', which ", nd->event);
	else
		rg_buf_printf(b, " at barrier '%s' (%d more to arrive), which ",
			      nd->barrier, nd->missing);
	if (!nd->nby) {
		rg_buf_puts(b, nd->event ? "no thread left can open" : "no thread left can reach");
		return;
	}
	rg_buf_puts(b, "only ");
	for (size_t k = 0; k < nd->nby; k++) {
		rg_buf_puts(b, k ? (k + 1 == nd->nby ? " or " : ", ") : "");
		cyc_tid(c, b, nd->by[k]);
	}
	rg_buf_puts(b, nd->event ? (nd->nby > 1 ? " open" : " opens") :
		    (nd->nby > 1 ? " reach" : " reaches"));
}

/* One clause: what stuck node i does. */
static void cyc_clause(struct cyc *c, rg_buf *b, size_t i)
{
	struct dthread *t = &c->v[c->th[i]];
	char *obj, *st;

	cyc_name(c, b, i);
	if (c->w[i].kind == WF_HELD) {
		cyc_held(c, b, i);
		return;
	}
	if (t->what == W_MUTEX && c->w[i].kind == WF_ON_THREAD) {
		obj = object_name(c->d, t->pid, t->obj, false);
		rg_buf_printf(b, " is blocked in pthread_mutex_lock on mutex %s owned by ", obj);
		free(obj);
		cyc_tid(c, b, c->w[i].on);
		return;
	}
	if (c->w[i].kind == WF_ON_THREAD) {
		rg_buf_puts(b, " is blocked in pthread_join waiting for ");
		cyc_tid(c, b, c->w[i].on);
		rg_buf_puts(b, " to exit");
		return;
	}
	st = state_text(c->d, t);
	rg_buf_printf(b, " is %s", !strncmp(st, "blocked: ", 9) ? st + 9 : st);
	free(st);
}

/* Clauses from node i along the chain, until one already said. */
static void cyc_walk(struct cyc *c, rg_buf *b, size_t i)
{
	while (i != (size_t)-1 && c->w[i].stuck && !c->said[i]) {
		c->said[i] = true;
		rg_buf_puts(b, b->len ? "; " : "");
		cyc_clause(c, b, i);
		i = c->w[i].next;
	}
}

/* The oldest thread of the cycle a walk from i ends in, or i if none. */
static size_t cyc_entry(const struct cyc *c, size_t i)
{
	size_t at = i, best, steps;

	/* nw steps along next from anywhere land inside the cycle, if any */
	for (steps = 0; steps < c->nw && at != (size_t)-1; steps++)
		at = c->w[at].next;
	if (at == (size_t)-1)
		return i;
	best = at;
	for (size_t k = c->w[at].next; k != at && k != (size_t)-1; k = c->w[k].next)
		if (k < best)
			best = k;
	return best;
}

/*
 * The wait-for graph of the threads as diagnosed.  When some threads are
 * stuck and others are not (an event loop, a sleeper), the chain is the
 * stuck ones' story, cycle first ("... which only incr (tid 13) opens;
 * incr is blocked in pthread_mutex_lock on mutex 'm' owned by writer"),
 * and NULL is returned otherwise: when every thread is stuck, the whole
 * chain (build_chain) says it.
 */
static char *cycle_chain(struct dctx *d, struct dthread *v, size_t n)
{
	struct cyc c = { .d = d, .v = v, .n = n };
	rg_buf b = RG_BUF_INIT;
	size_t i, nstuck, first = (size_t)-1, nlive = 0;
	pid_t *tids, *pids;

	c.w = xcalloc(n + 1, sizeof(*c.w));
	c.th = xcalloc(n + 1, sizeof(*c.th));
	c.needs = xcalloc(n + 1, sizeof(*c.needs));
	tids = xcalloc(n + 1, sizeof(*tids));
	pids = xcalloc(n + 1, sizeof(*pids));
	for (i = 0; i < n; i++)
		if (v[i].live) {
			tids[nlive] = v[i].tid;
			pids[nlive++] = v[i].pid;
		}
	for (i = 0; i < n; i++) {
		struct dthread *t = &v[i];
		wf_node *nd = &c.w[c.nw];

		if (!t->live)
			continue;
		c.th[c.nw] = i;
		nd->tid = t->tid;
		if (t->held) {
			nd->kind = WF_HELD;
			nd->nneeds = gates_wf_needs(d->in->eng, t->tid, &c.needs[c.nw]);
			nd->needs = c.needs[c.nw];
		} else if (t->what == W_CHILD &&
			   stall_child_wait(t->pid, &t->st, tids, pids, nlive,
					   (pid_t **)&nd->ons, &nd->nons)) {
			nd->kind = WF_ON_ANY_OF;
		} else if ((t->what == W_MUTEX || t->what == W_JOIN) && t->other > 0 &&
			   (find_thread(v, n, t->other) || stall_thread_gone(t->other))) {
			nd->kind = WF_ON_THREAD;
			nd->on = t->other;
		} else {
			nd->kind = t->wait == TRACER_WAIT_FOREVER ? WF_ON_ANYONE : WF_RUNS;
		}
		c.nw++;
	}
	nstuck = wf_solve(c.w, c.nw);
	if (nstuck && nstuck < c.nw) {
		c.said = xcalloc(c.nw, sizeof(*c.said));
		c.named = xcalloc(c.nw, sizeof(*c.named));
		for (i = 0; i < c.nw && first == (size_t)-1; i++)
			if (c.w[i].stuck && c.w[i].kind == WF_HELD)
				first = i;
		for (i = 0; i < c.nw && first == (size_t)-1; i++)
			if (c.w[i].stuck)
				first = cyc_entry(&c, i);
		cyc_walk(&c, &b, first);
		for (i = 0; i < c.nw; i++)
			cyc_walk(&c, &b, i);
		free(c.said);
		free(c.named);
	}
	for (i = 0; i < c.nw; i++) {
		wf_needs_free(c.needs[i], c.w[i].nneeds);
		free((pid_t *)c.w[i].ons);
	}
	free(c.needs);
	free(c.w);
	free(c.th);
	free(tids);
	free(pids);
	return b.len ? rg_buf_detach(&b) : (rg_buf_release(&b), NULL);
}

/* ---- the diagnosis ---------------------------------------------------- */

static void clear_diag(run_result *res)
{
	for (size_t i = 0; i < res->ndiag; i++) {
		diag_thread *dt = &res->diag[i];

		free(dt->label);
		free(dt->state);
		free(dt->where);
		for (size_t j = 0; j < dt->nbacktrace; j++)
			free(dt->backtrace[j]);
		free(dt->backtrace);
	}
	free(res->diag);
	free(res->chain);
	res->diag = NULL;
	res->ndiag = 0;
	res->chain = NULL;
}

/* The live threads of the program and of every followed process of in,
 * each with its process in (*lpids)[i]. */
static void live_threads(const diag_input *in, pid_t **live, pid_t **lpids,
			 size_t *nlive)
{
	pid_t main_pid = tracer_pid(in->tr);

	*live = *lpids = NULL;
	*nlive = 0;
	for (size_t i = 0; i <= in->ntids; i++) {
		pid_t pid = i ? (in->pids ? in->pids[i - 1] : 0) : main_pid, *v = NULL;
		size_t m = 0;

		/* each process once: the program's first, then each child at its
		 * first thread */
		if (i && (!pid || pid == main_pid || pid != in->tids[i - 1]))
			continue;
		if (tracer_tasks(pid, &v, &m) == 0 && m) {
			*live = xrealloc(*live, (*nlive + m) * sizeof(**live));
			*lpids = xrealloc(*lpids, (*nlive + m) * sizeof(**lpids));
			memcpy(*live + *nlive, v, m * sizeof(*v));
			for (size_t k = 0; k < m; k++)
				(*lpids)[*nlive + k] = pid;
			*nlive += m;
		}
		free(v);
	}
}

void diagnose(const diag_input *in, run_result *res)
{
	struct dctx d = { .in = in };
	struct dthread *v;
	pid_t *live = NULL, *lpids = NULL;
	size_t nlive = 0, n = 0, i, j;

	clear_diag(res);
	live_threads(in, &live, &lpids, &nlive);
	v = xcalloc(in->ntids + nlive + 1, sizeof(*v));
	/* every thread seen, in creation order, then any not seen yet */
	for (i = 0; i < in->ntids; i++) {
		v[n].tid = in->tids[i];
		v[n].pid = in->pids && in->pids[i] ? in->pids[i] : tracer_pid(in->tr);
		v[n].at = in->at ? in->at[i] : NULL;
		n++;
	}
	for (i = 0; i < nlive; i++) {
		struct dthread *t = find_thread(v, n, live[i]);

		if (!t) {
			t = &v[n++];
			t->tid = live[i];
			t->pid = lpids[i];
		}
		t->live = true;
	}
	/* first the states, untouched; only then stop threads to unwind them */
	for (i = 0; i < n; i++) {
		struct dthread *t = &v[i];
		const char *why;

		if (!t->live)
			continue;
		t->gate = -1;
		why = gate_hold_reason(in->eng, t->tid, &t->gate);
		if (why) {
			t->held = true;
			t->reason = xstrdup(why);
		} else {
			tracer_tstate_read(t->pid, t->tid, &t->st);
			if (!t->st.state || t->st.state == 'Z' || t->st.state == 'X')
				t->live = false;
			else
				t->wait = tracer_tstate_wait(t->pid, &t->st);
		}
	}
	for (i = 0; i < n; i++) {
		struct dthread *t = &v[i];
		char lb[32];

		t->label = xstrdup(label_of(in, t->tid, lb, sizeof(lb)));
		if (!t->live)
			continue;
		if (in->unwind || t->held)
			unwind_thread(&d, t, in->unwind);
		if (!t->held)
			classify(&d, t, live, nlive);
		if (t->held && t->at) {
			free(t->where);
			t->where = t->at->function ?
				   xasprintf("%s in %s", t->at->where, t->at->function) :
				   xstrdup(t->at->where);
		}
	}
	res->chain = cycle_chain(&d, v, n);
	if (!res->chain)
		res->chain = build_chain(&d, v, n);
	for (i = 0; i < n; i++)
		if (v[i].live)
			res->ndiag++;
	res->diag = xcalloc(res->ndiag ? res->ndiag : 1, sizeof(*res->diag));
	for (i = 0, j = 0; i < n; i++) {
		struct dthread *t = &v[i];
		diag_thread *dt;

		if (t->live) {
			dt = &res->diag[j++];
			dt->tid = t->tid;
			dt->pid = t->pid;
			dt->label = xstrdup(t->label);
			dt->state = state_text(&d, t);
			dt->where = t->where;
			t->where = NULL;
			dt->backtrace = t->frames;
			dt->nbacktrace = t->npcs;
			t->frames = NULL;
		}
		free((char *)t->label);
		free(t->reason);
		free(t->where);
		free(t->where_paren);
		if (t->frames)
			for (size_t k = 0; k < t->npcs; k++)
				free(t->frames[k]);
		free(t->frames);
	}
	free(v);
	free(live);
	free(lpids);
	procs_free(&d);
}
