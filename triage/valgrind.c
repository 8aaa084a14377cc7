/*
 * Helgrind's and DRD's text reports (triage.h has the formats).  Only the
 * "==PID==" lines are read: the program's own output is between them.  An
 * error is a block of lines ending with a blank "==PID==" line; a data
 * race's block has blank lines inside too (Helgrind's before "This
 * conflicts"), so its parts are read in order and the blank that follows
 * its last part ends it.
 */
#include "triage_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct vg_lock {        /* Helgrind's "Lock at 0xA was first observed" */
	unsigned long long addr;
	triage_stack created;
} vg_lock;

typedef struct vg_p {
	triage_report *r;
	size_t *ix;          /* the valgrind lines' indices into r->lines */
	size_t n;
	vg_lock *locks;
	size_t nlocks;
	triage_race *pending; /* DRD: conflicts, paired before they become races */
	size_t npending;
} vg_p;

static const char *V(const vg_p *P, size_t k)
{
	return P->r->lines[P->ix[k]].s;
}

static size_t LINE(const vg_p *P, size_t k)
{
	return k < P->n ? P->ix[k] + 1 : P->r->nlines;
}

static long PID(const vg_p *P, size_t k)
{
	return P->r->lines[P->ix[k]].pid;
}

/* ---- frames ---- */

static bool frame_line(const char *s)
{
	return !strncmp(s, "at 0x", 5) || !strncmp(s, "by 0x", 5);
}

/* "at|by 0xPC: FUNCTION (FILE:LINE)" | "... (in OBJECT)" | "???" */
static int parse_frame(vg_p *P, size_t k, triage_frame *f)
{
	const char *p = V(P, k) + 3, *open = NULL;
	unsigned long long pc;
	size_t n;

	memset(f, 0, sizeof(*f));
	if (!tr_hex(&p, &pc) || !tr_skip(&p, ":"))
		return tr_fail(P->r, LINE(P, k), "a stack frame I cannot read: '%s'", V(P, k));
	f->pc = pc;
	while (*p == ' ')
		p++;
	n = strlen(p);
	if (n > 0 && p[n - 1] == ')') {
		for (size_t j = n - 1; j > 0; j--) {
			if (p[j] == '(' && p[j - 1] == ' ') {
				open = p + j;
				break;
			}
		}
	}
	if (open) {
		const char *in = open + 1;
		size_t len = (size_t)(p + n - 1 - in);
		if (tr_skip(&in, "in "))
			f->object = tr_dup(in, (size_t)(p + n - 1 - in));
		else if (!tr_file_line(in, len, f))
			f->file = tr_dup(in, len);
		n = (size_t)(open - 1 - p);
	}
	if (n > 0 && !(n == 3 && !strncmp(p, "???", 3)))
		f->function = tr_dup(p, n);
	tr_frame_classify(f);
	return 0;
}

/* The frames from line k into st; *next is the line after them. */
static int read_stack(vg_p *P, size_t k, triage_stack *st, size_t *next)
{
	triage_frame f;

	for (; k < P->n && frame_line(V(P, k)); k++) {
		if (parse_frame(P, k, &f) < 0) {
			tr_frame_release(&f);
			return -1;
		}
		tr_stack_push(st, &f);
	}
	*next = k;
	return 0;
}

/* A non-blank line followed by a frame: the start of an error of some kind. */
static bool error_start(const vg_p *P, size_t k)
{
	return V(P, k)[0] && !frame_line(V(P, k)) && k + 1 < P->n && frame_line(V(P, k + 1));
}

/* Skips to the blank line ending this block (or the end). */
static size_t block_skip(const vg_p *P, size_t k)
{
	while (k < P->n && V(P, k)[0])
		k++;
	return k;
}

/* ---- Helgrind ---- */

/* A thread's number (Helgrind's #K, DRD's K); 1 is the main thread. */
static int vg_thread_id(vg_p *P, size_t k, const char **p, int *thread)
{
	unsigned long long id;

	if (!tr_uint(p, &id) || id > 0x7fffffff)
		return tr_fail(P->r, LINE(P, k), "no thread in '%s'", V(P, k));
	*thread = tr_thread(P->r, PID(P, k), (int)id);
	if (id == 1)
		P->r->threads[*thread].main = true;
	return 0;
}

static int hg_thread_ref(vg_p *P, size_t k, const char **p, int *thread)
{
	if (!tr_skip(p, "thread #"))
		return tr_fail(P->r, LINE(P, k), "no thread in '%s'", V(P, k));
	return vg_thread_id(P, k, p, thread);
}

/* "Thread #K was created" + stack, or "Thread #K is the program's root thread". */
static int hg_announcement(vg_p *P, size_t k, size_t *next)
{
	const char *p = V(P, k) + 8;
	triage_stack st = {NULL, 0};
	triage_thread *t;
	int ix;

	if (vg_thread_id(P, k, &p, &ix) < 0)
		return -1;
	if (!strcmp(p, " is the program's root thread")) {
		P->r->threads[ix].main = true;
		*next = k + 1;
		return 0;
	}
	if (strcmp(p, " was created"))
		return tr_fail(P->r, LINE(P, k), "a thread announcement I cannot read: '%s'", V(P, k));
	if (read_stack(P, k + 1, &st, next) < 0) {
		tr_stack_release(&st);
		return -1;
	}
	t = &P->r->threads[ix];
	if (!t->created_known && st.n) {
		t->created = st;
		t->created_known = true;
	} else {
		tr_stack_release(&st);
	}
	return 0;
}

/* "Lock at 0xA was first observed" + stack: kept for the races that name it. */
static int hg_lock(vg_p *P, size_t k, size_t *next)
{
	const char *p = V(P, k) + 8;
	unsigned long long addr;
	vg_lock *l;

	if (!tr_hex(&p, &addr))
		return tr_fail(P->r, LINE(P, k), "a lock I cannot read: '%s'", V(P, k));
	P->locks = xrealloc(P->locks, (P->nlocks + 1) * sizeof(*P->locks));
	l = &P->locks[P->nlocks++];
	l->addr = addr;
	l->created.v = NULL;
	l->created.n = 0;
	return read_stack(P, k + 1, &l->created, next);
}

static void copy_stack(triage_stack *to, const triage_stack *from)
{
	for (size_t i = 0; i < from->n; i++) {
		triage_frame f = from->v[i];
		f.function = f.function ? xstrdup(f.function) : NULL;
		f.file = f.file ? xstrdup(f.file) : NULL;
		f.object = f.object ? xstrdup(f.object) : NULL;
		tr_stack_push(to, &f);
	}
}

/* "Locks held: none" | "Locks held: N, at address[es] 0xA 0xB ..." */
static int hg_locks(vg_p *P, size_t k, triage_race *race, triage_access *a)
{
	const char *p = V(P, k) + 12, *t;
	unsigned long long n, addr;

	a->locks_known = true;
	if (!strcmp(p, "none"))
		return 0;
	if (!tr_uint(&p, &n) || !tr_skip(&p, ", at address") || (!tr_skip(&p, "es ") && !tr_skip(&p, " ")))
		return tr_fail(P->r, LINE(P, k), "a list of locks I cannot read: '%s'", V(P, k));
	for (t = p; tr_hex(&p, &addr); t = p) {
		triage_mutex *m;
		size_t ix = race->nmutexes;
		for (size_t i = 0; i < race->nmutexes; i++)
			if (race->mutexes[i].addr == addr)
				ix = i;
		if (ix == race->nmutexes) {
			race->mutexes = xrealloc(race->mutexes, (ix + 1) * sizeof(*race->mutexes));
			m = &race->mutexes[race->nmutexes++];
			memset(m, 0, sizeof(*m));
			m->id = tr_dup(t, (size_t)(p - t));
			m->addr = addr;
			for (size_t l = 0; l < P->nlocks; l++)
				if (P->locks[l].addr == addr)
					copy_stack(&m->created, &P->locks[l].created);
		}
		a->locks = xrealloc(a->locks, (a->nlocks + 1) * sizeof(*a->locks));
		a->locks[a->nlocks].mutex = ix;
		a->locks[a->nlocks++].write = true;
		while (*p == ' ')
			p++;
	}
	return 0;
}

/* "read|write of size N": the kind and the size. */
static bool kind_size(const char **p, triage_access *a)
{
	unsigned long long size;

	if (tr_skip(p, "read of size "))
		a->kind = TRIAGE_READ;
	else if (tr_skip(p, "write of size "))
		a->kind = TRIAGE_WRITE;
	else
		return false;
	if (!tr_uint(p, &size) || size > 1u << 30)
		return false;
	a->size = (int)size;
	return true;
}

/* An access's "Locks held" line and stack, from line k. */
static int hg_access_body(vg_p *P, size_t k, triage_race *race, triage_access *a, size_t *next,
			  const char *which)
{
	if (k < P->n && !strncmp(V(P, k), "Locks held: ", 12)) {
		if (hg_locks(P, k, race, a) < 0)
			return -1;
		k++;
	}
	if (read_stack(P, k, &a->stack, next) < 0)
		return -1;
	if (a->stack.n == 0)
		return tr_fail(P->r, (size_t)a->report_line, "a data race's %s access has no stack", which);
	return 0;
}

/* "This conflicts with a previous access by thread #J, after" + bounds. */
static int hg_approx(vg_p *P, size_t k, triage_access *b, size_t *next)
{
	if (k < P->n && !strncmp(V(P, k), "(the start of", 13))
		k++;
	else if (read_stack(P, k, &b->seg_start, &k) < 0)
		return -1;
	if (k >= P->n || strcmp(V(P, k), "but before"))
		return tr_fail(P->r, LINE(P, k), "a data race's second access without its 'but before'");
	k++;
	if (k < P->n && !strncmp(V(P, k), "(the end of", 11))
		k++;
	else if (read_stack(P, k, &b->seg_end, &k) < 0)
		return -1;
	*next = k;
	return 0;
}

/* "This conflicts with a previous ..." at line k, into race->b. */
static int hg_conflict(vg_p *P, size_t k, triage_race *race, size_t *next)
{
	const char *p = V(P, k) + 31;
	triage_access *b = &race->b;

	b->report_line = (int)LINE(P, k);
	if (tr_skip(&p, "access by ")) {
		if (hg_thread_ref(P, k, &p, &b->thread) < 0)
			return -1;
		if (strcmp(p, ", after"))
			return tr_fail(P->r, LINE(P, k), "a conflicting access I cannot read: '%s'", V(P, k));
		return hg_approx(P, k + 1, b, next);
	}
	if (!kind_size(&p, b) || !tr_skip(&p, " by ") || hg_thread_ref(P, k, &p, &b->thread) < 0 || *p)
		return tr_fail(P->r, LINE(P, k), "a conflicting access I cannot read: '%s'", V(P, k));
	return hg_access_body(P, k + 1, race, b, next, "second");
}

/* Helgrind's and DRD's words for where the memory is. */
static int vg_address(vg_p *P, size_t k, triage_race *race, size_t *next)
{
	triage_location *loc = &race->loc;
	const char *s = V(P, k), *p, *q;
	unsigned long long v;

	*next = k + 1;
	if (loc->text)
		return 0;
	p = strstr(s, " is ");
	loc->text = xstrdup(p ? p + 4 : s);
	loc->thread = -1;
	if ((q = strstr(s, "data symbol \"")) || (q = strstr(s, "global var \""))) {
		q = strchr(q, '"') + 1;
		loc->kind = TRIAGE_LOC_GLOBAL;
		if (strchr(q, '"'))
			loc->name = tr_dup(q, (size_t)(strchr(q, '"') - q));
		p = loc->text;
		if (tr_uint(&p, &v) && tr_skip(&p, " bytes inside")) {
			loc->offset = v;
			loc->has_offset = true;
		}
	} else if ((q = strstr(s, "bytes inside a block of size "))) {
		p = loc->text;
		loc->kind = TRIAGE_LOC_HEAP;
		if (tr_uint(&p, &v)) {
			loc->offset = v;
			loc->has_offset = true;
		}
		q += 29;
		if (tr_uint(&q, &v))
			loc->size = v;
		if (read_stack(P, k + 1, &loc->alloc, next) < 0)
			return -1;
		p = *next < P->n ? V(P, *next) : "";
		if (tr_skip(&p, "Block was alloc'd by ")) {
			if (hg_thread_ref(P, *next, &p, &loc->thread) < 0)
				return -1;
			(*next)++;
		}
	} else if ((q = strstr(s, "is on thread #"))) {
		q += 6;
		loc->kind = TRIAGE_LOC_STACK;
		if (hg_thread_ref(P, k, &q, &loc->thread) < 0)
			return -1;
	} else if ((q = strstr(s, "is at offset ")) && strstr(s, "Allocation context:")) {
		q += 13;
		loc->kind = TRIAGE_LOC_HEAP;
		if (tr_uint(&q, &v)) {
			loc->offset = v;
			loc->has_offset = true;
		}
		if (read_stack(P, k + 1, &loc->alloc, next) < 0)
			return -1;
	} else {
		loc->kind = TRIAGE_LOC_OTHER;
	}
	return 0;
}

/* The blank line ending a race's block; *next is past it. */
static int block_close(vg_p *P, size_t k, size_t start, size_t *next)
{
	k = block_skip(P, k);     /* more words about the address */
	if (k >= P->n)
		return tr_fail(P->r, LINE(P, start), "a data race cut short: the report ends inside it");
	*next = k + 1;
	return 0;
}

static void race_init(triage_race *race, size_t line)
{
	memset(race, 0, sizeof(*race));
	race->a.thread = race->b.thread = race->loc.thread = -1;
	race->count = 1;
	race->report_line = (int)line;
}

/* "Possible data race during read|write of size N at 0xA by thread #K" */
static int hg_race(vg_p *P, size_t k, size_t *next)
{
	const char *p = V(P, k) + 26;
	unsigned long long addr;
	triage_race race;
	size_t start = k;

	race_init(&race, LINE(P, k));
	race.a.report_line = (int)LINE(P, k);
	if (!kind_size(&p, &race.a) || !tr_skip(&p, " at ") || !tr_hex(&p, &addr) ||
	    !tr_skip(&p, " by ") || hg_thread_ref(P, k, &p, &race.a.thread) < 0 || *p) {
		tr_fail(P->r, LINE(P, k), "a data race I cannot read: '%s'", V(P, k));
		goto fail;
	}
	race.a.addr = addr;
	if (hg_access_body(P, k + 1, &race, &race.a, &k, "first") < 0)
		goto fail;
	while (k < P->n && !V(P, k)[0])
		k++;
	if (k < P->n && !strncmp(V(P, k), "This conflicts with a previous ", 31) &&
	    hg_conflict(P, k, &race, &k) < 0)
		goto fail;
	if (k < P->n && !strncmp(V(P, k), "Address ", 8) && vg_address(P, k, &race, &k) < 0)
		goto fail;
	if (block_close(P, k, start, next) < 0)
		goto fail;
	tr_add_race(P->r, &race);
	return 0;
fail:
	tr_race_release(&race);
	return -1;
}

/*
 * Helgrind starts each error after a line of dashes; an error that is not
 * a data race ("lock order ... violated", "unlocked a not-locked lock") is
 * listed and its lines pass (its lock announcements are still read).
 */
static int helgrind(vg_p *P)
{
	size_t k = 0;

	while (k < P->n) {
		const char *s = V(P, k);
		int rc = 0;
		if (!strncmp(s, "Possible data race during ", 26)) {
			rc = hg_race(P, k, &k);
		} else if (!strncmp(s, "Thread #", 8) &&
			   (tr_ends_with(s, " was created") || tr_ends_with(s, "root thread"))) {
			rc = hg_announcement(P, k, &k);
		} else if (!strncmp(s, "Lock at 0x", 10) && strstr(s, "was first observed")) {
			rc = hg_lock(P, k, &k);
		} else if (!strncmp(s, "--------", 8)) {
			size_t j = k + 1;
			while (j < P->n && !V(P, j)[0])
				j++;
			if (j < P->n && strncmp(V(P, j), "Possible data race during ", 26) &&
			    strncmp(V(P, j), "Lock at 0x", 10) && strncmp(V(P, j), "Thread #", 8)) {
				tr_add_skip(P->r, LINE(P, j), V(P, j));
				j++;
			} else if (j < P->n && !strncmp(V(P, j), "Thread #", 8) &&
				   !tr_ends_with(V(P, j), " was created") &&
				   !tr_ends_with(V(P, j), "root thread")) {
				tr_add_skip(P->r, LINE(P, j), V(P, j));
				j++;
			}
			k = j;
		} else {
			k++;
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* ---- DRD ---- */

/* "Other segment start|end (thread J)" + stack, at line k. */
static int drd_segment(vg_p *P, size_t k, triage_race *race, size_t *next)
{
	const char *p = V(P, k) + 14;
	bool start = tr_skip(&p, "start (thread ");
	triage_access *b = &race->b;
	triage_stack st = {NULL, 0};
	int thread;

	if (!start && !tr_skip(&p, "end (thread "))
		return tr_fail(P->r, LINE(P, k), "a segment I cannot read: '%s'", V(P, k));
	if (vg_thread_id(P, k, &p, &thread) < 0)
		return -1;
	*next = k + 1;
	if (k + 1 < P->n && !strncmp(V(P, k + 1), "(thread finished", 16)) {
		b->stack_lost = true;
		*next = k + 2;
	} else if (read_stack(P, k + 1, &st, next) < 0) {
		tr_stack_release(&st);
		return -1;
	}
	if (b->thread < 0)
		b->thread = thread;
	if (thread == b->thread && start && !b->seg_start.n)
		b->seg_start = st;
	else if (thread == b->thread && !start && !b->seg_end.n)
		b->seg_end = st;
	else
		tr_stack_release(&st);
	return 0;
}

/* "Conflicting load|store by thread K at 0xA size N" and what follows. */
static int drd_conflict(vg_p *P, size_t k, size_t *next)
{
	const char *p = V(P, k) + 12;
	unsigned long long addr, size;
	triage_race race;
	size_t start = k;

	race_init(&race, LINE(P, k));
	race.a.report_line = (int)LINE(P, k);
	race.a.kind = tr_skip(&p, "load") ? TRIAGE_READ : tr_skip(&p, "store") ? TRIAGE_WRITE
									   : TRIAGE_ACCESS_UNKNOWN;
	if (race.a.kind == TRIAGE_ACCESS_UNKNOWN || !tr_skip(&p, " by thread ") ||
	    vg_thread_id(P, k, &p, &race.a.thread) < 0 || !tr_skip(&p, " at ") || !tr_hex(&p, &addr) ||
	    !tr_skip(&p, " size ") || !tr_uint(&p, &size) || size > 1u << 30 || *p) {
		tr_fail(P->r, LINE(P, k), "a conflicting access I cannot read: '%s'", V(P, k));
		goto fail;
	}
	race.a.addr = addr;
	race.a.size = (int)size;
	if (read_stack(P, k + 1, &race.a.stack, &k) < 0)
		goto fail;
	if (race.a.stack.n == 0) {
		tr_fail(P->r, LINE(P, start), "a data race's first access has no stack");
		goto fail;
	}
	while (k < P->n && V(P, k)[0]) {
		const char *s = V(P, k);
		int rc = 0;
		if (!strncmp(s, "Other segment ", 14))
			rc = drd_segment(P, k, &race, &k);
		else if (!strncmp(s, "Allocation context: ", 20) || !strncmp(s, "Address ", 8) ||
			 !strncmp(s, "Location ", 9))
			rc = vg_address(P, k, &race, &k);
		else
			k++;
		if (rc < 0)
			goto fail;
	}
	if (block_close(P, k, start, next) < 0)
		goto fail;
	P->pending = xrealloc(P->pending, (P->npending + 1) * sizeof(*P->pending));
	P->pending[P->npending++] = race;
	return 0;
fail:
	tr_race_release(&race);
	return -1;
}

/*
 * DRD reports each side of a race as a conflict of its own: two conflicts
 * on one address whose threads name each other are one race (a, then the
 * other's access as b).  The rest keep b unknown.
 */
static void drd_pair(vg_p *P)
{
	for (size_t i = 0; i < P->npending; i++) {
		triage_race *x = &P->pending[i];
		if (x->count == 0)
			continue;
		for (size_t j = i + 1; j < P->npending; j++) {
			triage_race *y = &P->pending[j];
			if (y->count == 0 || y->a.addr != x->a.addr || x->b.kind != TRIAGE_ACCESS_UNKNOWN ||
			    y->a.thread != x->b.thread || x->a.thread != y->b.thread || x->b.thread < 0)
				continue;
			tr_access_release(&x->b);
			x->b = y->a;
			memset(&y->a, 0, sizeof(y->a));
			x->count = 2;
			tr_race_release(y);   /* count 0: taken */
			break;
		}
	}
	for (size_t i = 0; i < P->npending; i++) {
		if (P->pending[i].count)
			tr_add_race(P->r, &P->pending[i]);
		else
			tr_race_release(&P->pending[i]);
	}
	P->npending = 0;
}

static int drd(vg_p *P)
{
	size_t k = 0;

	while (k < P->n) {
		const char *s = V(P, k);
		if (!strncmp(s, "Conflicting load by thread ", 27) ||
		    !strncmp(s, "Conflicting store by thread ", 28)) {
			if (drd_conflict(P, k, &k) < 0)
				return -1;
		} else if (error_start(P, k)) {
			tr_add_skip(P->r, LINE(P, k), s);
			k = block_skip(P, k);
		} else {
			k++;
		}
	}
	drd_pair(P);
	return 0;
}

int tr_parse_valgrind(triage_report *r)
{
	vg_p P;
	int rc;

	memset(&P, 0, sizeof(P));
	P.r = r;
	P.ix = xmalloc((r->nlines + 1) * sizeof(*P.ix));
	for (size_t i = 0; i < r->nlines; i++)
		if (r->lines[i].vg)
			P.ix[P.n++] = i;
	rc = r->tool == TRIAGE_HELGRIND ? helgrind(&P) : drd(&P);
	for (size_t i = 0; i < P.nlocks; i++)
		tr_stack_release(&P.locks[i].created);
	free(P.locks);
	for (size_t i = 0; i < P.npending; i++)
		tr_race_release(&P.pending[i]);
	free(P.pending);
	free(P.ix);
	return rc;
}
