/*
 * One traced program and its event loop (session.h says the contract).
 *
 * The loop has two halves, as strace's: the tracer turns wait statuses into
 * events; a decider (session.h) decides.  This file only connects them: it
 * maps a breakpoint address to the gate location there, tells the decider
 * who arrived, and restarts the threads the decider releases.
 *
 * Besides the gates, two breakpoints of racegate's own are armed:
 *  - the program's entry point: when it is reached, the dynamic linker has
 *    mapped the libraries the program was linked with, so the thread
 *    library's pthread_create can be found;
 *  - pthread_create: its third argument is the new thread's start routine
 *    (for std::thread, its fourth names the callable: starts.c), which is
 *    how {start: worker} selectors know a thread.  The clone that
 *    follows in the same thread tells the new thread's id.
 */
#include "session_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"
#include "procstate.h"
#include "starts.h"

#define NAME_POLL_MS 20 /* thread names are read again this often while threads are held */
#define BLOCK_POLL_MS 2 /* threads are looked at this often while open_when_blocked waits */

double session_now(const session *s)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - s->t0.tv_sec) * 1e3 +
	       (double)(t.tv_nsec - s->t0.tv_nsec) / 1e6;
}

static struct thr *thr_find(const session *s, pid_t tid)
{
	size_t *i = rg_intmap_get(&s->thr_ix, (uint64_t)(uint32_t)tid);

	return i ? &s->thr[*i] : NULL;
}

static struct thr *thr_add(session *s, pid_t tid, char *start)
{
	struct thr *t;

	RG_GROW(s->thr, s->nthr + 1, s->capthr);
	*rg_intmap_ref(&s->thr_ix, (uint64_t)(uint32_t)tid, 0) = s->nthr;
	t = &s->thr[s->nthr++];
	t->tid = tid;
	t->proc = 0;
	t->at = NULL;
	t->start = start;
	t->npast = 0;
	return t;
}

/* The first failure ends the run as ERROR; its message is the note. */
static void fail(session *s, char *note)
{
	if (s->end.failed) {
		free(note);
		return;
	}
	s->end.failed = true;
	s->res->note = note;
}

void session_release(session *s, pid_t tid)
{
	RG_GROW(s->release, s->nrelease + 1, s->caprelease);
	s->release[s->nrelease++] = tid;
}

const plan_bp *session_thread_at(const session *s, pid_t tid)
{
	const struct thr *t = thr_find(s, tid);

	return t ? t->at : NULL;
}

size_t session_threads(const session *s, pid_t **tids, const plan_bp ***at)
{
	size_t i;

	*tids = xcalloc(s->nthr + 1, sizeof(**tids));
	*at = xcalloc(s->nthr + 1, sizeof(**at));
	for (i = 0; i < s->nthr; i++) {
		(*tids)[i] = s->thr[i].tid;
		(*at)[i] = s->thr[i].at;
	}
	return s->nthr;
}

static void proc_drop_image(struct proc *pr)
{
	pr->img = NULL;
	run_bias_release(&pr->bt);
}

/* The process tid is in (the program's when not known). */
static struct proc *proc_of(const session *s, pid_t tid)
{
	const struct thr *t = thr_find(s, tid);

	return &s->procs[t && t->proc < s->nprocs ? t->proc : 0];
}

static size_t proc_add(session *s, pid_t pid, const char *exe_path)
{
	const char *base;

	RG_GROW(s->procs, s->nprocs + 1, s->capprocs);
	s->procs[s->nprocs].pid = pid;
	s->procs[s->nprocs].gone = false;
	s->procs[s->nprocs].img = NULL;
	s->procs[s->nprocs].bt = (run_bias)RUN_BIAS_INIT;
	s->procs[s->nprocs].foreign = false;
	base = exe_path ? strrchr(exe_path, '/') : NULL;
	s->procs[s->nprocs].exe = exe_path ? xstrdup(base ? base + 1 : exe_path) : NULL;
	return s->nprocs++;
}

static size_t proc_index(const session *s, pid_t pid)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].pid == pid)
			return i;
	return 0;
}

bool session_thread_proc(const session *s, pid_t tid, session_proc *out)
{
	const struct thr *t = thr_find(s, tid);
	const struct proc *pr;

	if (!t || t->proc >= s->nprocs)
		return false;
	pr = &s->procs[t->proc];
	out->pid = pr->pid;
	out->nth = (int)t->proc;
	out->exe = pr->exe;
	out->initial = tid == pr->pid;
	out->img = pr->img;
	out->bias = pr->bt.exe;
	out->foreign = pr->foreign;
	return true;
}

size_t session_nprocs(const session *s)
{
	return s->nprocs;
}

bool session_ending(const session *s)
{
	return s->killed;
}

plan *session_plan(const session *s)
{
	return s->p;
}

tracer *session_tracer(const session *s)
{
	return s->tr;
}

uint64_t session_bias(const session *s)
{
	return s->bt.exe;
}

run_result *session_result(const session *s)
{
	return s->res;
}

const run_bias *session_run_bias(const session *s)
{
	return &s->bt;
}

/*
 * Restarts tid.  When the arrival it was just released from (or passed)
 * left lines to get past (the decider's pass_depth), the tracer watches it
 * get past the gated line first (TRACER_EV_RANGE_DONE, then passed); with
 * no line to watch, passed comes now.  Threads that releases are queued.
 */
static void resume(session *s, pid_t tid)
{
	struct thr *t = thr_find(s, tid);
	const struct proc *pr = proc_of(s, tid);
	rg_err err = RG_ERR_INIT;
	int rc;

	if (!t || decider_pass_depth(&s->dec, tid) <= t->npast)
		rc = tracer_resume(s->tr, tid, &err);
	else if ((rc = pr->img ?
		       run_resume_past(pr->img, s->tr, &pr->bt, tid, t->at, &err) :
		       run_resume_past(s->p, s->tr, &s->bt, tid, t->at, &err)) == 0)
		t->npast++;
	else if (rc > 0)
		decider_passed(&s->dec, tid, true, session_now(s));
	if (rc < 0)
		fail(s, xasprintf("cannot restart thread %d: %s", (int)tid, err.msg));
}

/* Restarts every thread the decider released since the last call. */
static void restart_released(session *s)
{
	size_t i;

	/* resume() may release more: they are appended, and restarted here too */
	for (i = 0; i < s->nrelease; i++)
		resume(s, s->release[i]);
	s->nrelease = 0;
}

/* The names of the program's threads now: {name: NAME} selectors bind on them. */
static void learn_names(session *s)
{
	char comm[64];
	size_t i;

	for (i = 0; i < s->nthr; i++)
		if (run_thread_comm(s->procs[s->thr[i].proc].pid, s->thr[i].tid, comm,
				    sizeof(comm)) == 0)
			decider_named(&s->dec, s->thr[i].tid, comm, session_now(s));
}

static void arm(session *s, uint64_t addr)
{
	rg_err err = RG_ERR_INIT;

	if (tracer_insert_bp(s->tr, addr, &err) < 0)
		fail(s, xasprintf("cannot set a breakpoint at 0x%llx: %s",
				  (unsigned long long)addr, err.msg));
}

static void add_ptc(session *s, uint64_t a)
{
	size_t i;

	for (i = 0; i < s->nptc; i++)
		if (s->ptc[i] == a)
			return;
	s->ptc = xrealloc(s->ptc, (s->nptc + 1) * sizeof(*s->ptc));
	s->ptc[s->nptc++] = a;
	arm(s, a);
}
/*
 * At the program's entry point the libraries it was linked with are
 * mapped: find the thread library's pthread_create in each of them.
 * (Libraries opened later with dlopen are not looked at here.)
 */
static void at_entry(session *s)
{
	tracer_map *maps = NULL;
	size_t n = 0, i, j;
	rg_err err = RG_ERR_INIT;

	if (tracer_maps(s->tr, &maps, &n, &err) < 0) {
		starts_none_found(s->p, err.msg, &s->res->warnings);
		return;
	}
	for (i = 0; i < n; i++) {
		dwarfx *dx;
		uint64_t addrs[4];
		size_t na;

		if (!maps[i].path || maps[i].offset != 0)
			continue;
		if (!starts_thread_library(maps[i].path))
			continue;
		dx = plan_object(s->p, maps[i].path);
		if (!dx)
			continue;
		na = dwarfx_symbol_addrs(dx, "pthread_create", addrs, 4);
		for (j = 0; j < na && j < 4; j++)
			add_ptc(s, maps[i].start - dwarfx_load_base(dx) + addrs[j]);
	}
	tracer_maps_free(maps, n);
	if (!s->nptc)
		starts_none_found(s->p, NULL, &s->res->warnings);
}

bool session_is_ptc(const session *s, uint64_t a)
{
	size_t i;

	for (i = 0; i < s->nptc; i++)
		if (s->ptc[i] == a)
			return true;
	return false;
}

static void on_pthread_create(session *s, pid_t tid)
{
	arch_regs regs;
	rg_err err = RG_ERR_INIT;
	struct pending_start *ps = NULL;
	size_t i;

	if (tracer_get_regs(s->tr, tid, &regs, &err) < 0) {
		rg_trace("thread %d in pthread_create, its start unknown: %s",
			 (int)tid, err.msg);
		return;
	}
	for (i = 0; i < s->npend; i++)
		if (s->pend[i].creator == tid)
			ps = &s->pend[i];
	if (!ps) {
		RG_GROW(s->pend, s->npend + 1, s->cappend);
		ps = &s->pend[s->npend++];
		ps->creator = tid;
	} else {
		free(ps->start);
	}
	/* pthread_create(thread, attr, start_routine, arg) */
	ps->start = starts_name(s->p, s->tr, &s->bt, proc_of(s, tid)->pid, tid,
				tracer_call_arg(&regs, 2), tracer_call_arg(&regs, 3));
}

static char *take_pending_start(session *s, pid_t creator)
{
	size_t i;

	for (i = 0; i < s->npend; i++)
		if (s->pend[i].creator == creator) {
			char *start = s->pend[i].start;

			s->pend[i] = s->pend[--s->npend];
			return start;
		}
	return NULL;
}

/* Is addr one of the breakpoints this file arms, which objects.c must leave in? */
static bool own_busy(void *ctx, uint64_t addr)
{
	session *s = ctx;

	return plan_find(s->p, run_bias_exe_site(&s->bt, addr).link_addr) ||
	       (s->entry && addr == s->entry) ||
	       session_is_ptc(s, addr);
}

static void locs_failed(session *s, const rg_err *err)
{
	fail(s, xstrdup(err->msg));
}

/*
 * A hot loop should pay for a gate only while the gate matters: once the
 * decider says nothing at bp can act on a future arrival (site_live; for
 * the gates: once and done, waits whose events are all open, ...), its
 * int3 is taken out.  A thread that trapped on it meanwhile is rewound
 * silently by the tracer.  racegate's own breakpoints (entry,
 * pthread_create) at the same address stay.
 */
static bool disarm_one(session *s, const plan_bp *bp, uint64_t addr)
{
	rg_err err = RG_ERR_INIT;

	if (s->dec.ops->site_live(s->dec.d, bp))
		return false;
	/* (a dead site never comes back to life) */
	if (s->dead && bp >= s->p->bps && bp < s->p->bps + s->p->nbps)
		s->dead[bp - s->p->bps] = true;
	if ((s->entry && addr == s->entry) || session_is_ptc(s, addr) ||
	    run_locs_busy(s->locs, addr))
		return false;
	/* a pad's passes so far count, as the traps before a disarm do */
	if (tracer_pad_at(s->tr, addr))
		session_pad_sync_all(s, bp);
	if (tracer_remove_bp(s->tr, addr, &err) < 0)
		return false;
	s->res->bp_disarmed++;
	return true;
}

/*
 * The other sites of its gates (inlined copies, a template's instances)
 * are dead with it: out at once, rather than at their next hit, which a
 * pad that lets a thread pass for ever would never trap on (the counts of
 * hits are the same with pads and without).
 */
static void disarm_if_dead(session *s, const plan_bp *bp, uint64_t addr)
{
	if (!disarm_one(s, bp, addr) || plan_find(s->p, bp->site.link_addr) != bp)
		return;
	for (size_t i = 0; i < s->p->nbps; i++) {
		const plan_bp *o = &s->p->bps[i];
		uint64_t a = run_bias_addr(&s->bt, o->site);

		if (o != bp && session_gates_meet(o, bp) && tracer_bp_armed(s->tr, a))
			disarm_one(s, o, a);
	}
}

/*
 * tid stays stopped at its breakpoint for as long as the decider holds it:
 * its PC goes back to the instruction in the kernel, not in the tracer's
 * cache only, so that a racegate killed outright (SIGKILL) meanwhile never
 * lets it run on from the middle of the instruction (tracer_hold).
 */
static void hold_begins(session *s, pid_t tid)
{
	rg_err err = RG_ERR_INIT;

	if (tracer_hold(s->tr, tid, &err) < 0)
		fail(s, xstrdup(err.msg));
}

/*
 * attach: a gate that can no longer act loses its int3s at once, not at
 * its site's next arrival (a gate done at another site, a thread gone, its
 * events all open): a racegate killed outright (SIGKILL) leaves every int3
 * still in the process, and the next thread to reach one dies of SIGTRAP.
 * The executable's sites; a library's go at their next arrival.
 */
static void disarm_dead_sites(session *s)
{
	if (!s->dead || s->killed)
		return;
	for (size_t i = 0; i < s->p->nbps; i++)
		if (!s->dead[i])
			disarm_if_dead(s, &s->p->bps[i],
				       run_bias_addr(&s->bt, s->p->bps[i].site));
}

/* An arrival in the image a followed child runs after its exec. */
static void on_image_breakpoint(session *s, pid_t tid, struct proc *pr, uint64_t addr)
{
	const plan_bp *bp = plan_find(pr->img, run_bias_exe_site(&pr->bt, addr).link_addr);
	struct thr *t = thr_find(s, tid);

	if (bp && t) {
		t->at = bp;
		s->res->bp_hits++;
		if (s->names)
			learn_names(s);
		if (s->dec.ops->arrive(s->dec.d, tid, bp, session_now(s)) == DECIDE_HOLD) {
			hold_begins(s, tid);
			restart_released(s);
			return;
		}
		restart_released(s);
	}
	resume(s, tid);
	restart_released(s);
}

static void on_breakpoint(session *s, pid_t tid, uint64_t addr)
{
	const plan_bp *bp;
	struct proc *pr = proc_of(s, tid);

	if (pr->img) {
		on_image_breakpoint(s, tid, pr, addr);
		return;
	}
	bp = plan_find(s->p, run_bias_exe_site(&s->bt, addr).link_addr);

	if (s->entry && addr == s->entry) {
		rg_err err = RG_ERR_INIT;

		at_entry(s);
		if (run_locs_at_entry(s->locs, &err) < 0)
			locs_failed(s, &err);
		if (!bp && !run_locs_busy(s->locs, s->entry))
			tracer_remove_bp(s->tr, s->entry, &err);
		s->entry = 0;
		if (s->snap && !s->snap_why)
			s->snap_why = "its entry point came before the dynamic linker's "
				      "last stop (a static program has no dynamic linker)";
	}
	if (session_is_ptc(s, addr))
		on_pthread_create(s, tid);
	if (s->locs) {
		rg_err err = RG_ERR_INIT;

		if (run_locs_on_breakpoint(s->locs, tid, addr, &bp, &err) < 0)
			locs_failed(s, &err);
	}
	/* session_snapshot: the libraries mapped and relocated, none of the
	 * program's code run yet; stopped there, the template */
	if (s->snap && !s->snap_why && s->entry && !bp && run_locs_settled(s->locs, addr)) {
		s->snapped = true;
		return;
	}
	if (bp) {
		struct thr *t = thr_find(s, tid);
		enum decision dn;

		if (!t)
			t = thr_add(s, tid, NULL);
		t->at = bp;
		s->res->bp_hits++;
		if (s->names)
			learn_names(s);
		/* the gates' hits at every site so far, pads' passes too */
		session_pads_before(s, tid, bp);
		dn = s->dec.ops->arrive(s->dec.d, tid, bp, session_now(s));
		if (dn == DECIDE_HOLD)
			hold_begins(s, tid);
		session_pads_after(s, tid, bp);
		restart_released(s);
		disarm_if_dead(s, bp, addr);
		if (dn == DECIDE_HOLD)
			return;
	}
	/* racegate's own breakpoints, and ones no longer known: go on */
	resume(s, tid);
	restart_released(s);
}

/* The path of the program process pid runs, into buf; false if unknown. */
static bool program_path(pid_t pid, char *buf, size_t cap)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, buf, cap - 1);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0;
}

static int find_bias(session *s, rg_err *err);

/*
 * The program called exec: the breakpoints went with the old image, and
 * the new one gets none (its code is another program's, or this one's at
 * a new place).  The run goes on, and the new image's exit and output are
 * what is judged.  What pointed into the old image is forgotten; the load
 * bias is found again for a diagnosis to name places in the new image
 * when it is the same executable.
 */
static void on_exec(session *s)
{
	rg_err err = RG_ERR_INIT;
	size_t i;

	if (s->attached) {
		/* the gated code is gone with the old image: nothing is left
		 * for racegate to do, and the new program may run for ever */
		if (!program_path(tracer_pid(s->tr), s->end.execed,
				  sizeof(s->end.execed)))
			snprintf(s->end.execed, sizeof(s->end.execed), "?");
		return;
	}
	s->entry = 0;
	s->nptc = 0;
	for (i = 0; i < s->npend; i++)
		free(s->pend[i].start);
	s->npend = 0;
	/* followed children still run the program's old image, where it was:
	 * their gates go on (those of its executable's own code) */
	for (i = 1; i < s->nprocs; i++)
		if (!s->procs[i].img && !s->procs[i].foreign && !s->procs[i].gone) {
			s->procs[i].img = s->p;
			s->procs[i].bt.exe = s->bt.exe;
		}
	find_bias(s, &err);   /* another executable: nothing of it is looked up */
}

static void on_fork(session *s, pid_t child);

/* The load bias of the executable at path in process pid (0: not PIE). */
static int image_bias(session *s, pid_t pid, dwarfx *dx, const char *path,
		      uint64_t *bias, rg_err *err)
{
	tracer_map *maps = NULL;
	size_t n = 0, i;
	char real[PATH_MAX];
	int ret = -1;

	*bias = 0;
	if (!dwarfx_is_pie(dx))
		return 0;
	if (!realpath(path, real))
		return rg_error(err, "cannot resolve the path of '%s': %s", path,
				strerror(errno));
	if (tracer_maps_of(s->tr, pid, &maps, &n, err) < 0)
		return -1;
	for (i = 0; i < n && ret < 0; i++)
		if (maps[i].path && maps[i].offset == 0 && !strcmp(maps[i].path, real)) {
			*bias = maps[i].start - dwarfx_load_base(dx);
			ret = 0;
		}
	tracer_maps_free(maps, n);
	if (ret < 0)
		rg_error(err, "cannot find '%s' in the memory map of process %d", real,
			 (int)pid);
	return ret;
}

/* Problems of an image's gates: warnings of the run, once a session. */
static void image_warn(session *s, const spec_diags *d, const char *more)
{
	for (size_t i = 0; i < d->n; i++) {
		char *m = spec_diag_format(d, i), *line = xasprintf("%s\n", m);

		if (!s->res->warnings.s || !strstr(s->res->warnings.s, line))
			rg_buf_puts(&s->res->warnings, line);
		free(line);
		free(m);
	}
	if (more) {
		char *line = xasprintf("%s\n", more);

		if (!s->res->warnings.s || !strstr(s->res->warnings.s, line))
			rg_buf_puts(&s->res->warnings, line);
		free(line);
	}
}

static bool image_gated(const spec *sp, const char *exe)
{
	for (size_t i = 0; i < sp->ngates; i++)
		if (plan_gate_in_image(sp, i, exe, false))
			return true;
	return false;
}

/*
 * A followed child called exec: its new image gets the gates that name it
 * ({exe: NAME}), resolved in its executable and armed before it runs
 * (the tracer keeps it stopped until then).  A gate that does not resolve
 * there is a warning, and the run goes on without it.
 */
static void on_child_exec(session *s, pid_t pid, pid_t tid)
{
	struct proc *pr;

	if (!proc_index(s, pid)) {
		/* a vfork or posix_spawn child, followed from its exec on */
		on_fork(s, pid);
		thr_add(s, tid, NULL)->proc = s->nprocs - 1;
		s->nlive++;
		s->dec.ops->thread_started(s->dec.d, tid, NULL, false, session_now(s));
		restart_released(s);
	}
	pr = &s->procs[proc_index(s, pid)];
	char exe[PATH_MAX];
	spec_diags d = SPEC_DIAGS_INIT;
	rg_err err = RG_ERR_INIT;
	uint64_t bias;
	bool known = program_path(pid, exe, sizeof(exe));

	free(pr->exe);
	pr->exe = known ? xstrdup(strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe) : NULL;
	proc_drop_image(pr);
	pr->foreign = true;    /* until a plan of its image is made */
	rg_trace("process %d runs '%s' now", (int)pid, known ? exe : "?");
	/* {exe:} selectors may name it now, before it runs a gated line */
	decider_execed(&s->dec, tid, session_now(s));
	restart_released(s);
	if (!known || !image_gated(s->p->sp, exe)) {
		resume(s, tid);     /* an executable no gate names: nothing to arm */
		return;
	}
	d.file = xstrdup(s->p->sp->path);
	if ((pr->img = plan_image(s->p, exe, &d, &err))) {
		pr->foreign = false;
		if (image_bias(s, pid, pr->img->dx, exe, &bias, &err) < 0) {
			image_warn(s, &d, err.msg);
		} else {
			image_warn(s, &d, NULL);
			pr->bt.exe = bias;
			for (size_t i = 0; i < pr->img->nbps && !s->end.failed; i++) {
				plan_assert_boundary(pr->img->dx, pr->img->bps[i].site.link_addr);
				if (tracer_insert_bp_in(s->tr, pid, bias +
							pr->img->bps[i].site.link_addr, &err) < 0)
					fail(s, xasprintf("cannot set a breakpoint in process "
							  "%d: %s", (int)pid, err.msg));
			}
			if (!s->end.failed)
				session_pads_exec(s, pid, pr->img, &pr->bt);
		}
	} else {
		image_warn(s, &d, err.msg);
	}
	spec_diags_release(&d);
	resume(s, tid);
}

/* The stall watch looks at every followed process still there. */
static void stall_refresh(session *s)
{
	pid_t *pids = xcalloc(s->nprocs + 1, sizeof(*pids));
	size_t n = 0;

	for (size_t i = 0; i < s->nprocs; i++)
		if (i == 0 || !s->procs[i].gone)
			pids[n++] = s->procs[i].pid;
	stall_processes(s->stall, pids, n);
	free(pids);
}

/* A followed child process: its threads are told of as they come (THREAD_NEW). */
static void on_fork(session *s, pid_t child)
{
	char exe[PATH_MAX];
	bool known = program_path(child, exe, sizeof(exe));

	proc_add(s, child, known ? exe : NULL);
	stall_refresh(s);
	rg_trace("following process %d (%s), child #%zu", (int)child,
		 known ? exe : "?", s->nprocs - 1);
}

static void dispatch(session *s, const tracer_event *ev)
{
	double t = session_now(s);

	switch (ev->kind) {
	case TRACER_EV_BREAKPOINT:
		on_breakpoint(s, ev->tid, ev->addr);
		break;
	case TRACER_EV_THREAD_NEW: {
		bool first = ev->pid == ev->tid;   /* a followed child process's */
		char *start = first ? NULL : take_pending_start(s, ev->parent);

		if (!start && !first)
			starts_unnamed(s->p, &s->res->warnings);
		thr_add(s, ev->tid, start)->proc = proc_index(s, ev->pid);
		s->nlive++;
		s->dec.ops->thread_started(s->dec.d, ev->tid, start, false, t);
		restart_released(s);
		resume(s, ev->tid);
		break;
	}
	case TRACER_EV_THREAD_EXIT: {
		struct thr *th = thr_find(s, ev->tid);

		if (th)
			th->npast = 0;   /* the decider opens what it had not got past */
		if (th && th->proc && th->tid == s->procs[th->proc].pid) {
			s->procs[th->proc].gone = true;
			stall_refresh(s);
		}
		if (s->nlive)
			s->nlive--;
		run_locs_thread_exited(s->locs, ev->tid);
		session_pads_thread_gone(s, ev->tid);
		s->dec.ops->thread_exited(s->dec.d, ev->tid, t);
		restart_released(s);
		break;
	}
	case TRACER_EV_EXIT:
		/* (a program racegate attached to is never killed) */
		s->res->exited = !s->killed || s->attached;
		s->res->exit_code = ev->exit_code;
		s->res->term_signal = ev->term_signal;
		s->res->core_dumped = ev->core_dumped;
		s->nlive = 0;
		break;
	case TRACER_EV_EXEC:
		if (ev->pid && ev->pid != tracer_pid(s->tr))
			on_child_exec(s, ev->pid, ev->tid);
		else
			on_exec(s);
		break;
	case TRACER_EV_RANGE_DONE: {
		struct thr *th = thr_find(s, ev->tid);

		/* the thread has got past its gated line: its then_open opens */
		if (th && th->npast)
			th->npast--;
		decider_passed(&s->dec, ev->tid, false, t);
		restart_released(s);
		break;
	}
	case TRACER_EV_SLEEPS: {
		rg_err err = RG_ERR_INIT;

		/* not the decider's to keep: it sleeps its time */
		if (!decider_asleep(&s->dec, ev->tid, t) &&
		    tracer_resume(s->tr, ev->tid, &err) < 0)
			fail(s, xasprintf("cannot restart thread %d: %s", (int)ev->tid, err.msg));
		restart_released(s);
		break;
	}
	case TRACER_EV_FORK:
		if (ev->followed)
			on_fork(s, ev->child);
		else
			s->res->untraced_forks++;
		break;
	case TRACER_EV_SIGNAL:
		break;
	}
}

/*
 * racegate attach: the program goes on without racegate, with nothing of
 * racegate's left in it (tracer_detach).  The loop ends there: no event
 * follows.
 */
static void session_let_go(session *s)
{
	rg_err err = RG_ERR_INIT;

	s->killed = true;
	/* exiting already: its EXIT event ends the loop, with the status */
	if (tracer_ending(s->tr)) {
		rg_trace("process %d is ending: racegate waits for its exit",
			 (int)tracer_pid(s->tr));
		return;
	}
	/* the passes through pads since each thread's last arrival count, as
	 * the traps before the let-go do: read with every thread stopped */
	if (s->npads) {
		pid_t *stopped;
		size_t n;

		if (tracer_stop_all(s->tr, &stopped, &n, &err) == 0)
			free(stopped);      /* tracer_detach lets them go */
		session_pads_sync_every(s);
	}
	if (tracer_detach(s->tr, &err) < 0)
		fail(s, xasprintf("cannot detach from process %d cleanly: %s",
				  (int)tracer_pid(s->tr), err.msg));
	else
		rg_trace("detached from process %d", (int)tracer_pid(s->tr));
	s->end.detached = true;
}

/* A verdict ends the run: say why, then kill the program or leave it stopped. */
static void end_run(session *s)
{
	rg_err err = RG_ERR_INIT;

	s->dec.ops->diagnose(s->dec.d, true);
	if (s->attached) {
		session_let_go(s);
		return;
	}
	if (s->o->keep_stopped) {
		pid_t pid = tracer_pid(s->tr);

		if (tracer_detach_stopped(s->tr, &err) == 0) {
			s->end.kept = true;
			s->killed = true;
			s->end.kept_pid = pid;
			return;
		}
		s->res->note = xasprintf("cannot leave the program stopped: %s", err.msg);
	}
	tracer_kill(s->tr);
	s->killed = true;
}

static bool held_by_decider(void *ctx, pid_t tid)
{
	session *s = ctx;

	return s->dec.ops->is_held(s->dec.d, tid);
}

static size_t needs_of_decider(void *ctx, pid_t tid, wf_need **out)
{
	session *s = ctx;

	return decider_needs(&s->dec, tid, out);
}

bool session_stuck_held(const session *s)
{
	return s->stall && stall_stuck_held(s->stall);
}

/*
 * Some threads, held by the decider or blocked for ever, wait only on each
 * other, and nothing changed in them for the quiet period (diagnose.c).
 * Only a deadline of the decider could still change that, so none may be
 * pending (next_deadline < 0).
 */
static void check_stall(session *s, double t, double next_deadline,
			double *next_check)
{
	if (next_deadline >= 0) {
		stall_touch(s->stall);
		return;
	}
	if (stall_check(s->stall, held_by_decider, needs_of_decider, s, t, next_check) !=
	    STALL_STUCK)
		return;
	stall_touch(s->stall);
	if (s->dec.ops->stuck(s->dec.d, t)) {
		restart_released(s);
		/* attach: the verdict ends it (on_deadlock: release lets the
		 * threads go, the process goes on without racegate), as a
		 * verdict without release does; nothing else would, but --for */
		if (s->attached)
			session_let_go(s);
		return;
	}
	end_run(s);
}

/*
 * racegate got SIGINT, SIGTERM or SIGHUP: say who was where (held threads
 * are unwound, nothing else is stopped), and kill the program whatever
 * --keep-stopped says: the user wants racegate gone, and nothing traced
 * may outlive it.  The loop then reaps the program as after any kill.
 */
static void interrupt_run(session *s, int sig)
{
	s->end.interrupted = sig;
	s->dec.ops->diagnose(s->dec.d, false);
	if (s->attached) {
		session_let_go(s);
		return;
	}
	tracer_kill(s->tr);
	s->killed = true;
}

/* The program ends, or is let go: racegate's trouble must never kill a
 * program it attached to. */
static void stop_program(session *s)
{
	if (s->attached)
		session_let_go(s);
	else
		tracer_kill(s->tr);
	s->killed = true;
}

/* Takes every queued tracer event; true when the program is gone. */
static bool take_events(session *s)
{
	tracer_event ev;
	rg_err err = RG_ERR_INIT;
	int r;

	while ((r = tracer_next_event(s->tr, &ev, 0, &err)) == 1) {
		stall_touch(s->stall);
		dispatch(s, &ev);
		if (ev.kind == TRACER_EV_EXIT)
			return true;
	}
	if (r < 0) {
		fail(s, xstrdup(err.msg));
		stop_program(s);
	}
	return false;
}

/* How long poll may sleep: until the nearest deadline (-1: none). */
static int wait_for(const session *s, double t, double next, double check,
		    double deadline)
{
	int wait_ms = -1;

	if (next >= 0)
		wait_ms = (int)(next - t) + 1;
	if (!s->killed && check >= 0 && (wait_ms < 0 || (int)(check - t) + 1 < wait_ms))
		wait_ms = (int)(check - t) + 1;
	if (!s->killed && deadline >= 0) {
		int d = (int)(deadline - t) + 1;
		if (wait_ms < 0 || d < wait_ms)
			wait_ms = d;
	}
	if (s->killed && (wait_ms < 0 || wait_ms > 100))
		wait_ms = 100;
	if (s->names && !s->killed && s->dec.ops->nheld(s->dec.d) &&
	    (wait_ms < 0 || wait_ms > NAME_POLL_MS))
		wait_ms = NAME_POLL_MS;
	return wait_ms;
}

/*
 * open_when_blocked: each thread the decider watches that sleeps in a
 * system call now, not stopped by the tracer, is told of.  True while the
 * decider watches any (the loop then looks again in BLOCK_POLL_MS: a poll
 * of /proc, as the stall watch reads it, since no wait status says a
 * thread went to sleep).
 */
static bool watch_blocked(session *s, double t)
{
	pid_t *tids = NULL;
	size_t i, n;

	if (!decider_watches_blocking(&s->dec) || s->killed)
		return false;
	n = decider_blocking_tids(&s->dec, &tids);
	for (i = 0; i < n; i++) {
		struct thr *th = thr_find(s, tids[i]);
		tracer_tstate st;
		char buf[32];

		if (!th || tracer_is_stopped(s->tr, tids[i]))
			continue;
		tracer_tstate_read(s->procs[th->proc].pid, tids[i], &st);
		if (!tracer_tstate_sleeps(&st))
			continue;
		decider_blocked(&s->dec, tids[i], tracer_syscall_name(st.nr, buf, sizeof(buf)), t);
		restart_released(s);
	}
	free(tids);
	return n > 0;
}

static void event_loop(session *s)
{
	const double deadline = s->o->timeout_ms > 0 ? (double)s->o->timeout_ms : -1;

	for (;;) {
		struct pollfd pfd[4];
		int npfd = 0, wait_ms, ready;
		double t, next, check = -1;
		bool watching;

		if (take_events(s))
			break;
		if (s->snap && (s->snapped || s->snap_why))
			break;      /* session_snapshot: at the entry point, or never */
		if (!s->killed && interrupt_signal())
			interrupt_run(s, interrupt_signal());
		if (s->end.failed && !s->killed)
			stop_program(s);
		/* attach: once every gate that counts has acted, let it go,
		 * unless it is ending: its exit status is then what is judged */
		if (s->attached && !s->killed && decider_done(&s->dec) &&
		    !tracer_ending(s->tr)) {
			s->end.completed = true;
			session_let_go(s);
		}
		if (s->end.execed[0] && !s->killed)
			session_let_go(s);
		if (s->end.detached)
			break;

		t = session_now(s);
		/* a name set while threads are held may be what they wait for */
		if (s->names && !s->killed && s->dec.ops->nheld(s->dec.d))
			learn_names(s);
		next = s->dec.ops->tick(s->dec.d, t);
		restart_released(s);
		disarm_dead_sites(s);
		/* before the stall check: a thread it would call stuck may be
		 * the one whose block opens the event the others wait for */
		watching = watch_blocked(s, t);
		if (!s->killed)
			check_stall(s, t, next, &check);
		if (!s->killed && deadline >= 0 && t >= deadline) {
			s->end.timed_out = true;
			end_run(s);
		}
		if (s->end.kept || s->end.detached)
			break;

		pfd[npfd++] = (struct pollfd){ .fd = tracer_fd(s->tr), .events = POLLIN };
		if (s->outfd >= 0)
			pfd[npfd++] = (struct pollfd){ .fd = s->outfd, .events = POLLIN };
		if (s->errfd >= 0)
			pfd[npfd++] = (struct pollfd){ .fd = s->errfd, .events = POLLIN };
		/* readable for good once a signal came: only until it is acted on */
		if (!s->killed && interrupt_fd() >= 0)
			pfd[npfd++] = (struct pollfd){ .fd = interrupt_fd(), .events = POLLIN };
		wait_ms = wait_for(s, t, next, check, deadline);
		if (watching && (wait_ms < 0 || wait_ms > BLOCK_POLL_MS))
			wait_ms = BLOCK_POLL_MS;
		ready = poll(pfd, (nfds_t)npfd, wait_ms);
		if (ready < 0 && errno != EINTR)
			break;
		/* only what poll said is there: most wakes are the tracer's */
		for (int i = 1; ready > 0 && i < npfd; i++)
			if (pfd[i].revents && pfd[i].fd == s->outfd)
				session_drain(s, &s->outfd, &s->res->out, STDOUT_FILENO);
			else if (pfd[i].revents && pfd[i].fd == s->errfd)
				session_drain(s, &s->errfd, &s->res->err, STDERR_FILENO);
	}
}

/* Load bias of the executable: where its first mapping is, minus where it was linked. */
static int find_bias(session *s, rg_err *err)
{
	tracer_map *maps = NULL;
	size_t n = 0, i;
	char real[PATH_MAX];
	int ret = -1;

	if (!dwarfx_is_pie(s->p->dx)) {
		s->bt.exe = 0;
		return 0;
	}
	if (!realpath(s->p->exe, real))
		return rg_error(err, "cannot resolve the path of '%s': %s",
				s->p->exe, strerror(errno));
	if (tracer_maps(s->tr, &maps, &n, err) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (maps[i].path && maps[i].offset == 0 && !strcmp(maps[i].path, real)) {
			s->bt.exe = maps[i].start - dwarfx_load_base(s->p->dx);
			ret = 0;
			break;
		}
	tracer_maps_free(maps, n);
	if (ret < 0)
		rg_error(err, "cannot find '%s' in the program's memory map", real);
	return ret;
}

session *session_new(plan *p, const run_opts *o, run_result *res)
{
	session *s = xcalloc(1, sizeof(*s));

	s->p = p;
	s->o = o;
	s->res = res;
	s->outfd = s->errfd = -1;
	return s;
}

/* Arms the plan's breakpoints and racegate's own, at the exec stop. */
static void arm_all(session *s)
{
	rg_err err = RG_ERR_INIT;
	size_t i;

	if (find_bias(s, &err) < 0)
		fail(s, xstrdup(err.msg));
	for (i = 0; i < s->p->nbps && !s->end.failed; i++) {
		plan_assert_boundary(s->p->dx, s->p->bps[i].site.link_addr);
		arm(s, run_bias_addr(&s->bt, s->p->bps[i].site));
	}
	for (i = 0; i < s->p->npthread_create && !s->end.failed; i++)
		add_ptc(s, run_bias_addr(&s->bt, (rg_site){PLAN_EXE,
							  s->p->pthread_create_addrs[i]}));
	s->entry = tracer_entry(s->tr);
	if (s->entry && !s->end.failed)
		arm(s, s->entry);
	s->locs = run_locs_new(s->p, s->tr, &s->bt, own_busy, s, s->snap);
	run_locs_watch_sites(s->locs, session_pads_site, s);
	if (!s->end.failed && run_locs_start(s->locs, &err) < 0)
		locs_failed(s, &err);
	if (!s->end.failed)
		session_make_pads(s);
}

/*
 * racegate attach: no exec stop and no entry point, the program runs
 * already.  Its libraries are mapped (the entry's work is done now), and
 * the dynamic linker's rendezvous is watched for later dlopen, as in runs.
 * A program holding an int3 its file does not have (a racegate killed
 * while attached) is refused: its next thread there would die.
 */
static void arm_attached(session *s)
{
	rg_err err = RG_ERR_INIT;
	uint64_t stray;
	char *path = NULL;
	int rc;

	if ((rc = tracer_stray_trap(s->tr, &stray, &path, &err)) != 0) {
		fail(s, rc < 0 ? xstrdup(err.msg) :
		     xasprintf("process %d has racegate's code (a breakpoint "
			       "instruction, or a jump to a pad) at 0x%llx in "
			       "'%s' that the file does not have: a racegate or "
			       "debugger killed while attached left it, and a thread "
			       "that gets there dies of SIGTRAP (at a jump to a pad: "
			       "unless it was let pass for ever); restart the "
			       "program", (int)tracer_pid(s->tr),
			       (unsigned long long)stray, path));
		free(path);
		return;
	}
	if (find_bias(s, &err) < 0) {
		fail(s, xstrdup(err.msg));
		return;
	}
	for (size_t i = 0; i < s->p->nbps && !s->end.failed; i++) {
		plan_assert_boundary(s->p->dx, s->p->bps[i].site.link_addr);
		arm(s, run_bias_addr(&s->bt, s->p->bps[i].site));
	}
	for (size_t i = 0; i < s->p->npthread_create && !s->end.failed; i++)
		add_ptc(s, run_bias_addr(&s->bt, (rg_site){PLAN_EXE,
							  s->p->pthread_create_addrs[i]}));
	if (!s->end.failed)
		at_entry(s);
	s->entry = 0;
	s->locs = run_locs_new(s->p, s->tr, &s->bt, own_busy, s, false);
	run_locs_watch_sites(s->locs, session_pads_site, s);
	if (!s->end.failed && run_locs_start(s->locs, &err) < 0)
		locs_failed(s, &err);
	/* every thread is stopped: pads in the executable, then in each
	 * library the link map names */
	if (!s->end.failed)
		session_make_pads(s);
	if (!s->end.failed && run_locs_at_entry(s->locs, &err) < 0)
		locs_failed(s, &err);
}

/*
 * From the first PTRACE_SEIZE until the process is let go (or has ended),
 * a second SIGINT, SIGTERM or SIGHUP must not end racegate: its int3s
 * would stay in the process, and a thread held or at a breakpoint would be
 * left to the kernel (`timeout` sends its signal twice, to racegate and
 * to its process group).  The let-go is bounded (tracer_detach waits
 * STOP_WAIT_MS at most), so the user waits seconds at most.
 */
static void guard_attached(pid_t pid)
{
	char *why = xasprintf("letting process %d go first (racegate's "
			      "breakpoints must not stay in it)", (int)pid);

	interrupt_guard(why);
	free(why);
}

/*
 * Attaches to o->attach_pid; every thread that exists is the decider's
 * from now on (the leader as the main thread), then each is let go.  What
 * could not be set up ends the run at once, the program let go.
 */
static int attach_program(session *s)
{
	rg_err err = RG_ERR_INIT;
	pid_t *tids;
	size_t n;

	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	guard_attached(s->o->attach_pid);
	if (tracer_attach(s->o->attach_pid, &s->tr, &err) < 0) {
		s->res->note = xstrdup(err.msg);
		return -1;
	}
	s->attached = true;
	s->end.started = true;
	s->names = decider_wants_names(&s->dec);
	s->stall = stall_new(tracer_pid(s->tr), (double)s->o->quiet_ms);
	/* the one process of an attach (it follows no fork): process main */
	proc_add(s, tracer_pid(s->tr), s->p->exe);
	s->dead = xcalloc(s->p->nbps + 1, sizeof(*s->dead));
	arm_attached(s);
	n = tracer_threads(s->tr, &tids);
	for (size_t i = 0; i < n; i++) {
		thr_add(s, tids[i], NULL);
		s->nlive++;
		s->dec.ops->thread_started(s->dec.d, tids[i], NULL, tids[i] == tracer_pid(s->tr),
				       session_now(s));
	}
	if (s->names)
		learn_names(s);
	restart_released(s);
	for (size_t i = 0; i < n && !s->end.failed; i++)
		if (tracer_is_stopped(s->tr, tids[i]))
			resume(s, tids[i]);
	free(tids);
	if (s->end.failed)
		stop_program(s);
	else
		rg_trace("attached to process %d: %zu threads, gates armed",
			 (int)tracer_pid(s->tr), n);
	return 0;
}

/* Why each gate was never armed, when some location was pending. */
static void unarmed(session *s)
{
	size_t i;

	if (!s->locs)
		return;
	s->res->gate_unarmed = xcalloc(s->p->sp->ngates, sizeof(char *));
	for (i = 0; i < s->p->sp->ngates; i++)
		s->res->gate_unarmed[i] = run_locs_unarmed(s->locs, i);
}

void session_run(session *s, const decider_ops *ops, void *d, session_end *end)
{

	decider_check(ops);
	s->dec = (decider){ ops, d };
	if (s->o->attach_pid) {
		if (attach_program(s) == 0 && !s->end.detached)
			event_loop(s);
		s->res->elapsed_ms = session_now(s);
		unarmed(s);
		session_say_rewrites(s);
		*end = s->end;
		return;
	}
	if (session_spawn(s) == 0) {
		session_started(s);
		session_go(s);
	}
	*end = s->end;
}

void session_started(session *s)
{
	s->end.started = true;
	s->names = decider_wants_names(&s->dec);
	s->stall = stall_new(tracer_pid(s->tr), (double)s->o->quiet_ms);
	arm_all(s);
	proc_add(s, tracer_pid(s->tr), s->p->exe);
	thr_add(s, tracer_pid(s->tr), NULL);
	s->nlive = 1;
}

void session_go(session *s)
{
	s->dec.ops->thread_started(s->dec.d, tracer_pid(s->tr), NULL, true, session_now(s));
	restart_released(s);
	if (!s->end.failed)
		resume(s, tracer_pid(s->tr));
	event_loop(s);
	if (s->snap)
		return;
	session_finish_output(s);
	s->res->elapsed_ms = session_now(s);
	unarmed(s);
	session_say_rewrites(s);
}

void session_free(session *s)
{
	size_t i;

	if (!s)
		return;
	run_locs_free(s->locs);
	run_bias_release(&s->bt);
	stall_free(s->stall);
	if (s->tr)
		tracer_free(s->tr);
	/* attach: let go (tracer_free lets go what the loop could not) */
	if (s->o->attach_pid)
		interrupt_guard(NULL);
	if (s->outfd >= 0)
		close(s->outfd);
	if (s->errfd >= 0)
		close(s->errfd);
	for (i = 0; i < s->nthr; i++)
		free(s->thr[i].start);
	for (i = 0; i < s->npend; i++)
		free(s->pend[i].start);
	free(s->thr);
	for (i = 0; i < s->nprocs; i++) {
		free(s->procs[i].exe);
		proc_drop_image(&s->procs[i]);
	}
	free(s->procs);
	rg_intmap_release(&s->thr_ix);
	free(s->pend);
	free(s->ptc);
	session_pads_free(s);
	free(s->release);
	free(s->dead);
	free(s);
}
