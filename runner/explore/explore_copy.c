/*
 * The fork server (docs/explore.md, "The fork server"): each schedule runs
 * in a copy of the program made before any of its code runs, not in a new
 * exec.
 *
 * racegate starts the program once per slot (one, or one per --jobs
 * worker slot) and stops it where the dynamic linker has mapped and
 * relocated its libraries: exec, dynamic loading, relocation, arming
 * every point are done once (session_snapshot).  For
 * each schedule it makes the stopped program fork itself (session_copy),
 * then forks itself: the fork holds the template's session as it was, takes
 * the copy over and runs the schedule in it (session_run_copy), and hands
 * the run back over a pipe as a --jobs worker does, with what a search
 * made in one process needs besides (the decisions, the woken threads).
 * While that fork runs, this process makes the next schedule's copy, and
 * the fork's exit (letting go of its memory) overlaps the next schedule.
 *
 * A program that cannot be copied faithfully runs anew for each schedule,
 * as with --no-fork-server: --verbose says why.
 */
#include "explore.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "explore_int.h"
#include "interrupt.h"

struct xtemplate {
	session *s;            /* stopped before the program's code, or NULL */
	run_result res;
	pid_t child;           /* the latest copy made of it, to reap; 0 none */
	pid_t early;           /* a copy made for the next schedule (make_early), or 0 */
};

/* Kills and reaps a copy (racegate's child: CLONE_PARENT). */
static void reap_copy(pid_t *child)
{
	if (*child <= 0)
		return;
	kill(*child, SIGKILL);
	while (waitpid(*child, NULL, __WALL) < 0 && errno == EINTR)
		;
	*child = 0;
}

/*
 * Waits for the fork of racegate whose record was read last.  Its exit
 * (its memory let go) overlaps the next schedule; it is reaped before
 * this process traces anything itself (a tracer reaps with waitpid(-1)).
 */
static void reap_ended(struct xctx *c)
{
	if (c->fs.ended <= 0)
		return;
	while (waitpid(c->fs.ended, NULL, 0) < 0 && errno == EINTR)
		;
	c->fs.ended = 0;
}

static void turn_off(struct xctx *c, const char *why)
{
	if (!c->fs.off)
		rg_trace("explore: each schedule runs the program anew: %s", why);
	c->fs.off = true;
}

/* Slot's template, made on first use; NULL when the program cannot have one. */
static struct xtemplate *template_of(struct xctx *c, int slot)
{
	struct xtemplate *t;
	rg_err err = RG_ERR_INIT;

	/* each apart: its session keeps a pointer to its res */
	if (slot >= c->fs.nt) {
		c->fs.t = xrealloc(c->fs.t, (size_t)(slot + 1) * sizeof(*c->fs.t));
		for (int i = c->fs.nt; i <= slot; i++)
			c->fs.t[i] = xcalloc(1, sizeof(**c->fs.t));
		c->fs.nt = slot + 1;
	}
	t = c->fs.t[slot];
	if (t->s)
		return t;
	reap_ended(c);
	memset(&t->res, 0, sizeof(t->res));
	t->res.exit_code = -1;
	t->res.ngates = c->sp->ngates;
	c->ro.timeout_ms = c->o->timeout_ms;
	t->s = session_new(&c->p, &c->ro, &t->res);
	if (session_snapshot(t->s, &err) < 0) {
		char *why = xasprintf("the program cannot be copied: %s",
				      err.msg);

		turn_off(c, why);
		free(why);
		session_free(t->s);
		t->s = NULL;
		run_result_release(&t->res);
		return NULL;
	}
	return t;
}

bool explore_copy_prepare(struct xctx *c, int slot)
{
	struct xtemplate *t;
	rg_err err = RG_ERR_INIT;

	/* a --jobs worker: its copy, if any, was made before it was forked */
	if (c->fs.owner != getpid())
		return false;
	c->fs.pending = 0;
	if (c->fs.off || !c->o->fork_server)
		return false;
	if (!(t = template_of(c, slot)))
		return false;
	reap_copy(&t->child);
	/* what the copy before left in the pipes is not this one's */
	session_copy_clear(t->s);
	if (t->early) {
		t->child = t->early;
		t->early = 0;
	} else if (session_copy(t->s, &t->child, &err) < 0) {
		char *why = xasprintf("the program could not be copied: %s", err.msg);

		turn_off(c, why);
		free(why);
		return false;
	}
	c->fs.pending = t->child;
	c->fs.pending_slot = slot;
	return true;
}

session *explore_copy_take(struct xctx *c, pid_t *child)
{
	/* taken once: a second run in the same fork finds none, and makes
	 * none (explore_copy_prepare: not the templates' owner), so runs anew */
	*child = c->fs.pending;
	c->fs.pending = 0;
	return *child ? c->fs.t[c->fs.pending_slot]->s : NULL;
}

static void reap_copies(struct xctx *c)
{
	for (int i = 0; i < c->fs.nt; i++)
		reap_copy(&c->fs.t[i]->child);
}

void explore_copy_reap(struct xctx *c)
{
	if (c->fs.owner != getpid())
		return;
	reap_ended(c);
	reap_copies(c);
}

void explore_copy_init(struct xctx *c)
{
	memset(&c->fs, 0, sizeof(c->fs));
	c->fs.owner = getpid();
}

void explore_copy_free(struct xctx *c)
{
	if (c->fs.owner != getpid())
		return;
	reap_ended(c);
	for (int i = 0; i < c->fs.nt; i++) {
		reap_copy(&c->fs.t[i]->child);
		reap_copy(&c->fs.t[i]->early);
		if (c->fs.t[i]->s) {
			session_free(c->fs.t[i]->s);
			run_result_release(&c->fs.t[i]->res);
		}
		free(c->fs.t[i]);
	}
	free(c->fs.t);
	c->fs.t = NULL;
	c->fs.nt = 0;
}

/* ---- one schedule in a fork of racegate ---- */

/*
 * While the fork of racegate runs a schedule in one copy, this process
 * makes the copy for the next schedule (a copy is the template as it
 * was, whenever it is made): on two CPUs it is ready when the run ends.
 * When it cannot be made now, explore_copy_prepare tries again, and says
 * why if it still cannot.
 */
static void make_early(struct xctx *c)
{
	struct xtemplate *t;
	rg_err err = RG_ERR_INIT;

	if (c->fs.owner != getpid() || c->fs.off || c->fs.pending_slot >= c->fs.nt)
		return;
	t = c->fs.t[c->fs.pending_slot];
	if (!t->s || t->early || !session_copy_early(t->s))
		return;
	if (session_copy(t->s, &t->early, &err) < 0)
		rg_trace("explore: no copy made ahead: %s", err.msg);
}

static void put(rg_buf *b, const void *p, size_t n)
{
	rg_buf_add(b, (const char *)p, n);
}

/* What the record of --jobs leaves out: the run's wakes and end, the
 * schedule's decisions. */
static void put_more(rg_buf *b, const explore_run *r, const explore_sched *sc)
{
	put(b, &r->nwakes, sizeof(r->nwakes));
	put(b, r->wakes, r->nwakes * sizeof(*r->wakes));
	put(b, &r->end_held, sizeof(r->end_held));
	put(b, &r->end_gate, sizeof(r->end_gate));
	put(b, &r->end_hit, sizeof(r->end_hit));
	put(b, &sc->npreempt, sizeof(sc->npreempt));
	put(b, &sc->nsteps, sizeof(sc->nsteps));
	for (size_t i = 0; i < sc->nsteps; i++) {
		const explore_decision *d = &sc->steps[i];

		put(b, d, sizeof(*d));
		put(b, d->runnable, d->n * sizeof(*d->runnable));
	}
}

static bool get(const char **p, const char *end, void *out, size_t n)
{
	if ((size_t)(end - *p) < n)
		return false;
	memcpy(out, *p, n);
	*p += n;
	return true;
}

static bool get_more(const char *p, const char *end, explore_run *r, explore_sched *sc)
{
	size_t n;

	if (!get(&p, end, &r->nwakes, sizeof(r->nwakes)) ||
	    r->nwakes > (size_t)(end - p) / sizeof(*r->wakes))
		return false;
	r->wakes = xcalloc(r->nwakes ? r->nwakes : 1, sizeof(*r->wakes));
	if (!get(&p, end, r->wakes, r->nwakes * sizeof(*r->wakes)) ||
	    !get(&p, end, &r->end_held, sizeof(r->end_held)) ||
	    !get(&p, end, &r->end_gate, sizeof(r->end_gate)) ||
	    !get(&p, end, &r->end_hit, sizeof(r->end_hit)) ||
	    !get(&p, end, &sc->npreempt, sizeof(sc->npreempt)) ||
	    !get(&p, end, &n, sizeof(n)) || n > (size_t)(end - p))
		return false;
	for (size_t i = 0; i < n; i++) {
		explore_decision d;

		if (!get(&p, end, &d, sizeof(d)) || d.n > (size_t)(end - p) / sizeof(int))
			return false;
		d.runnable = xcalloc(d.n ? d.n : 1, sizeof(int));
		if (!get(&p, end, d.runnable, d.n * sizeof(int))) {
			free(d.runnable);
			return false;
		}
		RG_GROW(sc->steps, sc->nsteps + 1, sc->capsteps);
		sc->steps[sc->nsteps++] = d;
	}
	return true;
}

/*
 * Reads the fork's pipe to its end into b; a signal racegate takes
 * meanwhile is passed on to the fork, whose run then ends as an
 * interrupted one does (and says so in its record).
 */
static void read_all(int fd, pid_t w, rg_buf *b)
{
	char buf[65536];
	bool told = false;
	ssize_t n;

	for (;;) {
		struct pollfd pf[2] = { { .fd = fd, .events = POLLIN },
					{ .fd = interrupt_fd(), .events = POLLIN } };

		if (!told && interrupt_signal()) {
			kill(w, interrupt_signal());
			told = true;
		}
		if (poll(pf, told || pf[1].fd < 0 ? 1 : 2, -1) < 0 && errno != EINTR)
			break;
		if (!pf[0].revents)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		rg_buf_add(b, buf, (size_t)n);
	}
}

/* The record the fork sent: the run and the schedule's decisions. */
static int take_record(const rg_buf *in, explore_sched *sc, explore_run *out)
{
	explore_dev *devs = NULL;
	size_t ndevs = 0;
	uint64_t len;
	int rc;

	if (in->len < sizeof(len))
		return interrupt_signal() ? 1 : -2;
	memcpy(&len, in->s + in->len - sizeof(len), sizeof(len));
	if (len > in->len - sizeof(len) ||
	    explore_record_get(in->s, (size_t)len, &rc, out, &devs, &ndevs) < 0)
		return -2;
	free(devs);
	if (!get_more(in->s + len, in->s + in->len - sizeof(len), out, sc)) {
		explore_run_release(out);
		return -2;
	}
	return rc;
}

int explore_copy_run(struct xctx *c, explore_sched *sc, explore_run *out,
		     int (*run)(struct xctx *, explore_sched *, explore_run *))
{
	rg_buf in = RG_BUF_INIT;
	sigset_t held;
	int fds[2], rc;
	pid_t w, parent = getpid();

	memset(out, 0, sizeof(*out));
	if (pipe(fds) < 0)
		return rg_say("cannot run a schedule in a copy of the program: %s",
			      strerror(errno)), -1;
	fflush(NULL);          /* nothing buffered is written twice */
	interrupt_hold(&held);
	if ((w = fork()) < 0) {
		interrupt_release(&held);
		rg_say("cannot run a schedule in a copy of the program: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (w == 0) {
		rg_buf b = RG_BUF_INIT;
		rg_err err = RG_ERR_INIT;
		explore_run r;
		uint64_t n;

		close(fds[0]);
		if (interrupt_worker(parent, &err) < 0)
			_exit(1);
		interrupt_release(&held);
		rc = run(c, sc, &r);
		explore_record_put(&b, rc, &r, NULL, 0);
		n = b.len;
		put_more(&b, &r, sc);
		rg_buf_add(&b, (const char *)&n, sizeof(n));   /* where the rest begins */
		explore_write_all(fds[1], b.s, b.len);
		close(fds[1]);     /* the record's end: before the exit lets go of memory */
		_exit(0);
	}
	interrupt_release(&held);
	close(fds[1]);
	make_early(c);
	reap_ended(c);         /* the fork before this one */
	read_all(fds[0], w, &in);
	close(fds[0]);
	c->fs.ended = w;
	reap_copies(c);
	if ((rc = take_record(&in, sc, out)) == -2) {
		rg_say("a schedule run in a copy of the program ended without its result");
		rc = -1;
	}
	rg_buf_release(&in);
	return rc;
}
