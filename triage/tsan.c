/*
 * ThreadSanitizer's text report (triage.h has the format).  A warning is a
 * block from its "WARNING: ThreadSanitizer:" line to its SUMMARY (or the
 * "==================" that closes it); inside it, sections start with a
 * line of their own (an access, "Location is", "Mutex", "Thread") and a
 * section's stack is the "#N" lines after it.  Lines that are none of these
 * are the program's own output, which may land inside a block (TSan writes
 * its report while the other threads go on printing).
 */
#include "triage_int.h"

#include <stdlib.h>
#include <string.h>

#define SEPARATOR "=================="

typedef struct tsan_p {
	triage_report *r;
	size_t *ix;        /* the lines read: TSan's (below), indices into r->lines */
	size_t n;
	long pid;          /* of the warning being read */
} tsan_p;

static const char *L(const tsan_p *P, size_t i)
{
	return P->r->lines[P->ix[i]].s;
}

static size_t LINE(const tsan_p *P, size_t i)
{
	return P->ix[i] + 1;
}

/* ---- frames ---- */

static bool frame_line(const char *s)
{
	return s[0] == '#' && s[1] >= '0' && s[1] <= '9';
}

/* "(OBJECT+0xOFF)" or "(<unknown module>)" ending at s + n; cuts it off. */
static void frame_module(const char *s, size_t *n, triage_frame *f)
{
	const char *open, *plus;
	unsigned long long off;

	if (*n < 2 || s[*n - 1] != ')')
		return;
	open = NULL;
	for (const char *q = s + *n - 1; q > s; q--) {
		if (q[-1] == ' ' && q[0] == '(') {
			open = q;
			break;
		}
	}
	if (!open)
		return;
	if (open[1] == '0' && open[2] == 'x') {
		const char *h = open + 1;
		if (tr_hex(&h, &off) && h == s + *n - 1) {   /* "(0x7fbe393235f8)": code of no module */
			f->pc = off;
			*n = (size_t)(open - 1 - s);
			return;
		}
	}
	if (strncmp(open, "(<unknown module>)", 18)) {
		char *inner = tr_dup(open + 1, (size_t)(s + *n - 1 - (open + 1)));
		plus = strstr(inner, "+0x");
		while (plus && strstr(plus + 1, "+0x"))
			plus = strstr(plus + 1, "+0x");
		if (plus) {
			const char *h = plus + 1;
			if (tr_hex(&h, &off) && *h == '\0') {
				f->offset = off;
				f->has_offset = true;
				inner[plus - inner] = '\0';
			}
		}
		f->object = inner;
	}
	*n = (size_t)(open - 1 - s);
}

/* "#K FUNCTION LOCATION (MODULE)[ (BuildId: X)]": the frame, or -1. */
static int parse_frame(tsan_p *P, size_t i, size_t want, triage_frame *f)
{
	const char *p = L(P, i) + 1, *b, *sp;
	unsigned long long k;
	size_t n;

	memset(f, 0, sizeof(*f));
	if (!tr_uint(&p, &k) || *p != ' ')
		return tr_fail(P->r, LINE(P, i), "a stack frame I cannot read: '%s'", L(P, i));
	if (k != want)
		return tr_fail(P->r, LINE(P, i), "frame #%llu where #%zu was due: a stack with a line missing",
			       k, want);
	while (*p == ' ')
		p++;
	n = strlen(p);
	b = strstr(p, " (BuildId: ");
	if (b && tr_ends_with(p, ")"))
		n = (size_t)(b - p);
	frame_module(p, &n, f);
	while (n > 0 && p[n - 1] == ' ')
		n--;
	if (n == 0)
		return tr_fail(P->r, LINE(P, i), "a stack frame without a function: '%s'", L(P, i));
	sp = NULL;
	for (size_t j = n; j-- > 0;) {
		if (p[j] == ' ') {
			sp = p + j;
			break;
		}
	}
	if (sp) {
		const char *loc = sp + 1;
		size_t ln = (size_t)(p + n - loc);
		if (!(ln == 6 && !strncmp(loc, "<null>", 6)) && !tr_file_line(loc, ln, f))
			f->file = tr_dup(loc, ln);       /* a file without a line */
		n = (size_t)(sp - p);
		while (n > 0 && p[n - 1] == ' ')
			n--;
	}
	if (n > 0 && !(n == 6 && !strncmp(p, "<null>", 6)))
		f->function = tr_dup(p, n);
	tr_frame_classify(f);
	return 0;
}

/* The "#N" lines from i into st; *next is the line after them. */
static int read_stack(tsan_p *P, size_t i, size_t end, triage_stack *st, size_t *next)
{
	triage_frame f;

	for (; i < end && frame_line(L(P, i)); i++) {
		if (parse_frame(P, i, st->n, &f) < 0) {
			tr_frame_release(&f);
			return -1;
		}
		tr_stack_push(st, &f);
	}
	*next = i;
	return 0;
}

/* ---- threads ---- */

/* "main thread" or "thread TK": the thread's index; false when neither. */
static bool thread_ref(tsan_p *P, const char **p, int *thread)
{
	unsigned long long k;
	const char *s = *p;

	if (tr_skip(&s, "main thread")) {
		*thread = tr_thread(P->r, P->pid, 0);
		P->r->threads[*thread].main = true;
	} else if (tr_skip(&s, "thread T") && tr_uint(&s, &k) && k <= 0x7fffffff) {
		*thread = tr_thread(P->r, P->pid, (int)k);
		if (k == 0)
			P->r->threads[*thread].main = true;
	} else {
		return false;
	}
	*p = s;
	return true;
}

/* "Thread TK ['NAME'] (tid=N, running|finished) created by REF[ at:]" + stack. */
static int thread_section(tsan_p *P, size_t i, size_t end, size_t *next)
{
	const char *s = L(P, i), *p = s + 8, *tid;
	unsigned long long k, ostid;
	triage_thread *t;
	triage_stack st = {NULL, 0};
	int ix, creator = -1;
	bool has_creator = false;

	if (!tr_uint(&p, &k) || k > 0x7fffffff)
		return tr_fail(P->r, LINE(P, i), "a thread I cannot read: '%s'", s);
	ix = tr_thread(P->r, P->pid, (int)k);
	tid = strstr(p, "(tid=");
	if (tid && p[0] == ' ' && p[1] == '\'' && tid - p > 4 && tid[-2] == '\'') {
		t = &P->r->threads[ix];
		if (!t->name)
			t->name = tr_dup(p + 2, (size_t)(tid - 2 - (p + 2)));
	}
	if (tid) {
		const char *q = tid + 5;
		if (tr_uint(&q, &ostid))
			P->r->threads[ix].tid = (long)ostid;
	}
	p = strstr(p, " created by ");
	if (p) {
		p += 12;
		has_creator = thread_ref(P, &p, &creator);
	}
	*next = i + 1;
	if (tr_ends_with(s, " at:") && read_stack(P, i + 1, end, &st, next) < 0) {
		tr_stack_release(&st);
		return -1;
	}
	t = &P->r->threads[ix];   /* thread_ref may have moved the table */
	if (has_creator && t->creator < 0 && creator != ix)
		t->creator = creator;
	if (!t->created_known && st.n) {
		t->created = st;
		t->created_known = true;
	} else {
		tr_stack_release(&st);
	}
	return 0;
}

/* ---- accesses ---- */

static size_t mutex_ix(triage_race *race, const char *id, size_t n)
{
	for (size_t m = 0; m < race->nmutexes; m++)
		if (strlen(race->mutexes[m].id) == n && !strncmp(race->mutexes[m].id, id, n))
			return m;
	race->mutexes = xrealloc(race->mutexes, (race->nmutexes + 1) * sizeof(*race->mutexes));
	memset(&race->mutexes[race->nmutexes], 0, sizeof(*race->mutexes));
	race->mutexes[race->nmutexes].id = tr_dup(id, n);
	return race->nmutexes++;
}

/* "(mutexes: write M0, read M1)" */
static bool access_mutexes(triage_race *race, triage_access *a, const char **p)
{
	const char *s = *p;

	if (!tr_skip(&s, " (mutexes: "))
		return true;
	for (;;) {
		bool write;
		size_t n = 0;
		if (tr_skip(&s, "write "))
			write = true;
		else if (tr_skip(&s, "read "))
			write = false;
		else
			return false;
		while (s[n] && s[n] != ',' && s[n] != ')')
			n++;
		if (!n)
			return false;
		a->locks = xrealloc(a->locks, (a->nlocks + 1) * sizeof(*a->locks));
		a->locks[a->nlocks].mutex = mutex_ix(race, s, n);
		a->locks[a->nlocks++].write = write;
		s += n;
		if (tr_skip(&s, ")"))
			break;
		if (!tr_skip(&s, ", "))
			return false;
	}
	*p = s;
	return true;
}

/*
 * "[Previous ][atomic ]read|write of size N at 0xA by REF[ (mutexes: ...)]:"
 * into race->a or ->b; 0 when the line is no access header, 1 when it is,
 * -1 on a broken one.
 */
static int access_header(tsan_p *P, size_t i, triage_race *race, triage_access **out)
{
	const char *p = L(P, i);
	bool previous = tr_skip(&p, "Previous ");
	bool atomic = tr_skip(&p, "atomic ") || tr_skip(&p, "Atomic ");
	unsigned long long size, addr;
	triage_access *a;
	enum triage_kind kind;

	if (tr_skip(&p, "read ") || tr_skip(&p, "Read "))
		kind = TRIAGE_READ;
	else if (tr_skip(&p, "write ") || tr_skip(&p, "Write "))
		kind = TRIAGE_WRITE;
	else
		return 0;
	if (!tr_skip(&p, "of size "))
		return 0;
	a = previous ? &race->b : &race->a;
	if (a->kind != TRIAGE_ACCESS_UNKNOWN)
		return tr_fail(P->r, LINE(P, i), "a data race with a second %s access",
			       previous ? "'Previous'" : "current");
	a->kind = kind;
	a->atomic = atomic;
	a->report_line = (int)LINE(P, i);
	a->locks_known = true;      /* TSan lists every mutex held, or none */
	if (!tr_uint(&p, &size) || size > 1u << 30 || !tr_skip(&p, " at ") || !tr_hex(&p, &addr) ||
	    !tr_skip(&p, " by ") || !thread_ref(P, &p, &a->thread) || !access_mutexes(race, a, &p) ||
	    !tr_skip(&p, ":") || *p)
		return tr_fail(P->r, LINE(P, i), "an access I cannot read: '%s'", L(P, i));
	a->size = (int)size;
	a->addr = addr;
	*out = a;
	return 1;
}

/* ---- locations and mutexes ---- */

static void location_global(tsan_p *P, const char *p, triage_location *loc)
{
	const char *end = strstr(p, "' of size "), *q;
	unsigned long long v;

	if (!end)
		end = strstr(p, "' at ");
	if (!end)
		return;
	loc->kind = TRIAGE_LOC_GLOBAL;
	loc->name = tr_dup(p, (size_t)(end - p));
	q = end + 1;
	if (tr_skip(&q, " of size ") && tr_uint(&q, &v))
		loc->size = v;
	q = strrchr(q, '(');
	if (q && tr_ends_with(q, ")")) {
		triage_frame f;
		size_t n = strlen(q - 1);
		memset(&f, 0, sizeof(f));
		frame_module(q - 1, &n, &f);
		loc->object = f.object;
		loc->object_offset = f.offset;
	}
	(void)P;
}

/* "Location is ..." (+ a stack for a heap block or a file descriptor). */
static int location_section(tsan_p *P, size_t i, size_t end, triage_race *race, size_t *next)
{
	const char *p = L(P, i) + 12;
	triage_location *loc = &race->loc;
	triage_stack st = {NULL, 0};
	unsigned long long v, at;

	if (read_stack(P, i + 1, end, &st, next) < 0) {
		tr_stack_release(&st);
		return -1;
	}
	if (loc->text) {         /* a second description: "stack of main thread", then '??' */
		tr_stack_release(&st);
		return 0;
	}
	loc->text = xstrdup(p);
	loc->thread = -1;
	if (tr_ends_with(loc->text, ".") || tr_ends_with(loc->text, ":"))
		loc->text[strlen(loc->text) - 1] = '\0';
	if (tr_skip(&p, "global '")) {
		location_global(P, p, loc);
	} else if (tr_skip(&p, "heap block of size ") && tr_uint(&p, &v) && tr_skip(&p, " at ") &&
		   tr_hex(&p, &at)) {
		loc->kind = TRIAGE_LOC_HEAP;
		loc->size = v;
		if (race->a.addr >= at && race->a.addr - at < v) {
			loc->offset = race->a.addr - at;
			loc->has_offset = true;
		}
		if (tr_skip(&p, " allocated by "))
			thread_ref(P, &p, &loc->thread);
		loc->alloc = st;
		return 0;
	} else if (tr_skip(&p, "stack of ")) {
		if (thread_ref(P, &p, &loc->thread))
			loc->kind = TRIAGE_LOC_STACK;
	} else if (tr_skip(&p, "TLS of ")) {
		if (thread_ref(P, &p, &loc->thread))
			loc->kind = TRIAGE_LOC_TLS;
	} else {
		loc->kind = TRIAGE_LOC_OTHER;
		loc->alloc = st;
		return 0;
	}
	if (loc->kind == TRIAGE_LOC_UNKNOWN)
		loc->kind = TRIAGE_LOC_OTHER;
	tr_stack_release(&st);
	return 0;
}

/* "Mutex MK (0xA) created at:" + stack, or "Mutex MK is already destroyed." */
static int mutex_section(tsan_p *P, size_t i, size_t end, triage_race *race, size_t *next)
{
	const char *p = L(P, i) + 6;
	size_t n = 0, m;
	unsigned long long addr;
	triage_mutex *mx;

	while (p[n] && p[n] != ' ')
		n++;
	if (!n)
		return tr_fail(P->r, LINE(P, i), "a mutex I cannot read: '%s'", L(P, i));
	m = mutex_ix(race, p, n);
	mx = &race->mutexes[m];
	p += n;
	if (tr_skip(&p, " (") && tr_hex(&p, &addr))
		mx->addr = addr;
	if (strstr(p, "is already destroyed"))
		mx->destroyed = true;
	tr_stack_release(&mx->created);
	return read_stack(P, i + 1, end, &mx->created, next);
}

/* ---- warnings ---- */

/*
 * The end of the warning starting at line w: its SUMMARY, or the separator
 * closing it.  Cut short (the text ends, or another warning starts, first):
 * *end is where it stops and *cut is set.
 */
static void block_end(tsan_p *P, size_t w, size_t *end, size_t *summary, bool *cut)
{
	size_t i;

	*summary = 0;
	*cut = false;
	for (i = w + 1; i < P->n; i++) {
		const char *s = L(P, i);
		if (!strncmp(s, "SUMMARY: ThreadSanitizer: ", 26)) {
			*summary = i;
			break;
		}
		if (!strncmp(s, SEPARATOR, sizeof(SEPARATOR) - 1) && i > w + 1)
			break;
		if (!strncmp(s, "WARNING: ThreadSanitizer: ", 26)) {
			*cut = true;
			break;
		}
	}
	*end = i;
	if (i == P->n)
		*cut = true;
}

static int cut_short(tsan_p *P, size_t w, size_t end)
{
	if (end < P->n)
		return tr_fail(P->r, LINE(P, w), "a warning cut short: the next one starts at line %zu, before its SUMMARY line",
			       LINE(P, end));
	return tr_fail(P->r, LINE(P, w), "a warning cut short: the report ends before its SUMMARY line");
}

/* One section of a data race's block at line i; *next is the line after it. */
static int race_section(tsan_p *P, size_t i, size_t end, triage_race *race, size_t *next)
{
	const char *s = L(P, i);
	triage_access *a = NULL;
	triage_stack sleep = {NULL, 0};
	int rc = access_header(P, i, race, &a);

	if (rc < 0)
		return -1;
	if (rc > 0) {
		if (i + 1 < end && !strcmp(L(P, i + 1), "[failed to restore the stack]")) {
			a->stack_lost = true;
			*next = i + 2;
			return 0;
		}
		return read_stack(P, i + 1, end, &a->stack, next);
	}
	if (!strncmp(s, "As if synchronized via sleep:", 29)) {
		rc = read_stack(P, i + 1, end, &sleep, next);
		tr_stack_release(&sleep);
		return rc;
	}
	if (!strncmp(s, "Location is ", 12))
		return location_section(P, i, end, race, next);
	if (!strncmp(s, "Mutex ", 6))
		return mutex_section(P, i, end, race, next);
	if (!strncmp(s, "Thread T", 8) && s[8] >= '0' && s[8] <= '9')
		return thread_section(P, i, end, next);
	*next = i + 1;           /* a blank line, or the program's output */
	return 0;
}

static int check_race(tsan_p *P, size_t w, const triage_race *race)
{
	if (race->a.kind == TRIAGE_ACCESS_UNKNOWN)
		return tr_fail(P->r, LINE(P, w), "a data race without its access ('Read of size ...' or 'Write of size ...')");
	if (race->a.stack.n == 0)
		return tr_fail(P->r, (size_t)race->a.report_line, "a data race's first access has no stack");
	if (race->b.kind == TRIAGE_ACCESS_UNKNOWN)
		return tr_fail(P->r, LINE(P, w), "a data race with one access: no 'Previous read' or 'Previous write'");
	if (race->b.stack.n == 0 && !race->b.stack_lost)
		return tr_fail(P->r, (size_t)race->b.report_line, "a data race's second access has no stack");
	return 0;
}

static int race_block(tsan_p *P, size_t w, size_t end, size_t summary, bool cut)
{
	triage_race race;
	size_t i = w + 1;

	memset(&race, 0, sizeof(race));
	race.a.thread = race.b.thread = race.loc.thread = -1;
	race.count = 1;
	race.report_line = (int)LINE(P, w);
	while (i < end) {
		if (race_section(P, i, end, &race, &i) < 0)
			goto fail;
	}
	if (cut) {
		/* an access cut from its stack says more than "cut short" */
		if ((race.a.kind && !race.a.stack.n) || (race.b.kind && !race.b.stack.n && !race.b.stack_lost))
			check_race(P, w, &race);
		else
			cut_short(P, w, end);
		goto fail;
	}
	if (check_race(P, w, &race) < 0)
		goto fail;
	if (summary) {
		const char *p = L(P, summary) + 26;
		if (tr_skip(&p, "data race "))
			race.summary = xstrdup(p);
	}
	tr_add_race(P->r, &race);
	return 0;
fail:
	tr_race_release(&race);
	return -1;
}

/*
 * TSan's own trouble, "[==PID==]FATAL: ThreadSanitizer..." or
 * "[==PID==]ERROR: ThreadSanitizer failed to ..." (no colon: TSan could
 * not go on), as against "ERROR: ThreadSanitizer: SEGV ..." (the program
 * crashed, a warning of its own): 1, 2, or 0 for neither; *what after
 * "ThreadSanitizer" and its ": ".
 */
static int runtime_line(const char *s, const char **what)
{
	const char *p = s;
	unsigned long long pid;
	int kind;

	if (tr_skip(&p, "==") && !(tr_uint(&p, &pid) && tr_skip(&p, "==")))
		return 0;
	if (tr_skip(&p, "FATAL: ThreadSanitizer"))
		kind = 1;
	else if (tr_skip(&p, "ERROR: ThreadSanitizer"))
		kind = *p == ':' ? 2 : 1;
	else
		return 0;
	tr_skip(&p, ":");
	while (*p == ' ')
		p++;
	*what = p;
	return kind;
}

/* "ThreadSanitizer could not run": the run has no report to read. */
static int fatal_line(tsan_p *P, size_t i, const char *what)
{
	if (strstr(what, "unexpected memory mapping"))
		return tr_fail(P->r, LINE(P, i), "ThreadSanitizer stopped the program: '%s' "
			       "(run it again under 'setarch -R': the kernel spreads mappings wider than TSan expects)",
			       what);
	return tr_fail(P->r, LINE(P, i), "ThreadSanitizer stopped the program: '%s'", what);
}

/* The warning whose "WARNING:" line is i (p: after "ThreadSanitizer: "). */
static int warning(tsan_p *P, size_t i, const char *p, size_t *end)
{
	const char *q = strstr(p, " (pid=");
	char *kind = tr_dup(p, q ? (size_t)(q - p) : strlen(p));
	unsigned long long pid = 0;
	size_t summary;
	bool cut;
	int rc = 0;

	if (q) {
		q += 6;
		if (!tr_uint(&q, &pid))
			pid = 0;
	}
	P->pid = (long)pid;
	block_end(P, i, end, &summary, &cut);
	if (strncmp(kind, "data race", 9)) {
		tr_add_skip(P->r, LINE(P, i), kind);
		if (cut)
			rc = cut_short(P, i, *end);
	} else {
		rc = race_block(P, i, *end, summary, cut);
	}
	free(kind);
	return rc;
}

/*
 * TSan indents every line of a warning but the first and the last (and
 * the separators); a line that starts at the margin inside one is the
 * program's own output, printed while TSan wrote the warning.  Those are
 * left out, and blank lines with them (they separate nothing TSan needs).
 */
static bool tsan_line(const tr_line *l)
{
	static const char *const margin[] = {
		"WARNING: ThreadSanitizer: ", "SUMMARY: ThreadSanitizer: ", "FATAL: ThreadSanitizer",
		"ERROR: ThreadSanitizer", SEPARATOR, "==", NULL,
	};

	if (l->indent > 0 && l->s[0])
		return true;
	for (const char *const *m = margin; *m; m++)
		if (!strncmp(l->s, *m, strlen(*m)))
			return true;
	return false;
}

int tr_parse_tsan(triage_report *r)
{
	tsan_p P = {r, NULL, 0, 0};
	size_t i = 0, end;
	int rc = 0;

	P.ix = xmalloc((r->nlines + 1) * sizeof(*P.ix));
	for (size_t k = 0; k < r->nlines && rc == 0; k++) {
		const char *w = strstr(r->lines[k].s, "WARNING: ThreadSanitizer: ");
		if (w && (w != r->lines[k].s || r->lines[k].indent))
			rc = tr_fail(r, k + 1, "a warning that does not start its line "
				     "(a prefix such as a CI log's timestamps?): take the prefix off");
		if (tsan_line(&r->lines[k]))
			P.ix[P.n++] = k;
	}
	while (i < P.n && rc == 0) {
		const char *s = L(&P, i), *p = s, *what;
		int kind = runtime_line(s, &what);

		if (kind == 1) {
			rc = fatal_line(&P, i, what);
		} else if (tr_skip(&p, "WARNING: ThreadSanitizer: ")) {
			rc = warning(&P, i, p, &end);
			i = end + 1;
		} else {
			if (kind == 2)
				tr_add_skip(r, LINE(&P, i), what);
			i++;
		}
	}
	free(P.ix);
	return rc;
}
