/*
 * The report: its text as lines, the threads and races the parsers find,
 * one race per pair of places, and the answers of triage.h.
 */
#include "triage_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *triage_tool_name(enum triage_tool tool)
{
	switch (tool) {
	case TRIAGE_TSAN: return "ThreadSanitizer";
	case TRIAGE_HELGRIND: return "Helgrind";
	case TRIAGE_DRD: return "DRD";
	}
	rg_bug("unknown triage tool %d", (int)tool);
}

int tr_fail(triage_report *r, size_t line, const char *fmt, ...)
{
	rg_buf b = RG_BUF_INIT;
	va_list ap;

	if (line)
		rg_buf_printf(&b, "%s:%zu: ", r->name, line);
	else
		rg_buf_printf(&b, "%s: ", r->name);
	va_start(ap, fmt);
	rg_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	rg_error(r->err, "%s", b.s);
	rg_buf_release(&b);
	return -1;
}

/* ---- lines ---- */

/* Copies [s, s + n) without ANSI escape sequences (ESC [ ... final byte). */
static char *clean_line(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;
	size_t i = 0;

	while (i < n) {
		if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
			i += 2;
			while (i < n && !(s[i] >= 0x40 && s[i] <= 0x7e))
				i++;
			i++;       /* the final byte */
			continue;
		}
		*o++ = s[i++];
	}
	*o = '\0';
	return out;
}

/* "==PID==" then a blank or the end: valgrind's prefix; sets *pid, *len. */
static bool vg_prefix(const char *s, long *pid, size_t *len)
{
	const char *p = s;
	unsigned long long v;

	if (!tr_skip(&p, "==") || !tr_uint(&p, &v) || !tr_skip(&p, "=="))
		return false;
	if (*p != '\0' && *p != ' ')
		return false;
	*pid = (long)v;
	*len = (size_t)(p - s);
	return true;
}

static void add_line(triage_report *r, size_t *cap, const char *s, size_t n)
{
	tr_line *l;
	char *c = clean_line(s, n);
	const char *p = c;
	size_t plen;

	RG_GROW(r->lines, r->nlines + 1, *cap);
	l = &r->lines[r->nlines++];
	memset(l, 0, sizeof(*l));
	if (vg_prefix(c, &l->pid, &plen)) {
		l->vg = true;
		p = c + plen;
		if (*p == ' ')
			p++;
	}
	while (*p == ' ' || *p == '\t') {
		p++;
		l->indent++;
	}
	l->s = xstrdup(p);
	free(c);
}

static int split_lines(triage_report *r, const char *text, size_t len)
{
	size_t cap = 0, start = 0, i;
	const char *nul = memchr(text, '\0', len);

	if (nul) {
		size_t line = 1;
		for (const char *p = text; p < nul; p++)
			line += *p == '\n' || (*p == '\r' && p[1] != '\n');
		return tr_fail(r, line, "a NUL byte: not a text report");
	}
	/* '\n', "\r\n" and a lone '\r' (a progress line's return) end a line */
	for (i = 0; i <= len; i++) {
		if (i == len || text[i] == '\n' || text[i] == '\r') {
			if (i == len && start == len)
				break;      /* no empty line after the last end */
			add_line(r, &cap, text + start, i - start);
			if (i + 1 < len && text[i] == '\r' && text[i + 1] == '\n')
				i++;
			start = i + 1;
		}
	}
	return 0;
}

static void free_lines(triage_report *r)
{
	for (size_t i = 0; i < r->nlines; i++)
		free(r->lines[i].s);
	free(r->lines);
	r->lines = NULL;
	r->nlines = 0;
}

/* ---- detection ---- */

static int detect_lines(const triage_report *r)
{
	bool tsan = false;

	for (size_t i = 0; i < r->nlines; i++) {
		const tr_line *l = &r->lines[i];
		if (l->vg) {
			if (strstr(l->s, "Helgrind, a thread error detector") ||
			    !strncmp(l->s, "Possible data race during ", 26))
				return TRIAGE_HELGRIND;
			if (strstr(l->s, "drd, a thread error detector") ||
			    !strncmp(l->s, "Conflicting load by thread ", 27) ||
			    !strncmp(l->s, "Conflicting store by thread ", 28))
				return TRIAGE_DRD;
		} else if (strstr(l->s, "ThreadSanitizer")) {
			tsan = true;
		}
	}
	return tsan ? TRIAGE_TSAN : -1;
}

static bool any_vg_line(const triage_report *r)
{
	for (size_t i = 0; i < r->nlines; i++)
		if (r->lines[i].vg)
			return true;
	return false;
}

static bool blank_text(const triage_report *r)
{
	for (size_t i = 0; i < r->nlines; i++)
		if (r->lines[i].s[0] || r->lines[i].vg)
			return false;
	return true;
}

static triage_report *report_new(enum triage_tool tool, const char *name, rg_err *err)
{
	triage_report *r = xcalloc(1, sizeof(*r));

	r->tool = tool;
	r->name = xstrdup(name ? name : "report");
	r->err = err;
	return r;
}

int triage_detect(const char *text, size_t len)
{
	triage_report *r = report_new(TRIAGE_TSAN, "text", NULL);
	int tool = -1;

	if (split_lines(r, text, len) == 0)
		tool = detect_lines(r);
	triage_free(r);
	return tool;
}

/*
 * Is r a report of its tool?  0 when it is (or is an empty text, for TSan),
 * else TRIAGE_NO_ENTRY with a message saying what it seems to be.
 */
static int check_kind(triage_report *r, const char *text, size_t len)
{
	int seen = detect_lines(r);
	const char *want = triage_tool_name(r->tool);
	size_t i = 0;

	if (seen == (int)r->tool)
		return 0;
	if (r->tool == TRIAGE_TSAN && seen < 0 && blank_text(r))
		return 0;           /* a TSan run without warnings prints nothing */
	while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t'))
		i++;
	if (len - i >= 5 && !memcmp(text + i, "<?xml", 5))
		tr_fail(r, 0, "an XML report: give %s's text output", want);
	else if (seen >= 0)
		tr_fail(r, 0, "a %s report, not %s's", triage_tool_name((enum triage_tool)seen), want);
	else if (r->tool == TRIAGE_TSAN)
		tr_fail(r, 0, "not a ThreadSanitizer report: no line names ThreadSanitizer");
	else if (any_vg_line(r))
		tr_fail(r, 0, "not a %s report: a valgrind log without %s's banner or any data race",
			want, want);
	else
		tr_fail(r, 0, "not a %s report: no valgrind '==PID==' line", want);
	return TRIAGE_NO_ENTRY;
}

int triage_parse(enum triage_tool tool, const char *name, const char *text, size_t len,
		 triage_report **out, rg_err *err)
{
	triage_report *r = report_new(tool, name, err);
	int rc;

	*out = NULL;
	if (tool != TRIAGE_TSAN && tool != TRIAGE_HELGRIND && tool != TRIAGE_DRD)
		rg_bug("unknown triage tool %d", (int)tool);
	if (split_lines(r, text, len) < 0) {
		triage_free(r);
		return TRIAGE_ERROR;
	}
	rc = check_kind(r, text, len);
	if (rc == 0)
		rc = tool == TRIAGE_TSAN ? tr_parse_tsan(r) : tr_parse_valgrind(r);
	free_lines(r);
	if (rc != 0) {
		triage_free(r);
		return rc == TRIAGE_NO_ENTRY ? TRIAGE_NO_ENTRY : TRIAGE_ERROR;
	}
	r->err = NULL;
	*out = r;
	return TRIAGE_OK;
}

int triage_load(enum triage_tool tool, const char *path, triage_report **out, rg_err *err)
{
	FILE *f = fopen(path, "rb");
	rg_buf b = RG_BUF_INIT;
	char chunk[65536];
	size_t n;
	int rc;

	*out = NULL;
	if (!f)
		return rg_error(err, "cannot open '%s': %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		rg_buf_add(&b, chunk, n);
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		rg_buf_release(&b);
		return rg_error(err, "cannot read '%s': %s", path, strerror(e));
	}
	fclose(f);
	rc = triage_parse(tool, path, b.s ? b.s : "", b.len, out, err);
	rg_buf_release(&b);
	return rc;
}

/* ---- threads, races, skips ---- */

int tr_thread(triage_report *r, long pid, int id)
{
	uint64_t key = ((uint64_t)(uint32_t)pid << 32) | (uint32_t)id;
	size_t *ix = rg_intmap_get(&r->thread_ix, key);
	triage_thread *t;

	if (ix)
		return (int)(*ix - 1);
	RG_GROW(r->threads, r->nthreads + 1, r->threads_cap);
	t = &r->threads[r->nthreads];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->id = id;
	t->creator = -1;
	*rg_intmap_ref(&r->thread_ix, key, 0) = ++r->nthreads;
	return (int)(r->nthreads - 1);
}

void tr_add_skip(triage_report *r, size_t line, const char *what)
{
	RG_GROW(r->skips, r->nskips + 1, r->skips_cap);
	r->skips[r->nskips].report_line = (int)line;
	r->skips[r->nskips].what = xstrdup(what);
	r->nskips++;
	r->nwarnings++;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h ^ 0xff) * 1099511628211ULL;
}

/* The race's pair of keys, in a fixed order, hashed. */
static uint64_t race_hash(const triage_race *race)
{
	char ka[1024], kb[1024];
	const char *x, *y;

	triage_place_key(&race->a, ka, sizeof(ka));
	triage_place_key(&race->b, kb, sizeof(kb));
	x = strcmp(ka, kb) <= 0 ? ka : kb;
	y = x == ka ? kb : ka;
	return hash_str(hash_str(14695981039346656037ULL, x), y);
}

static bool same_keys(const triage_race *x, const triage_race *y)
{
	char xa[1024], xb[1024], ya[1024], yb[1024];

	triage_place_key(&x->a, xa, sizeof(xa));
	triage_place_key(&x->b, xb, sizeof(xb));
	triage_place_key(&y->a, ya, sizeof(ya));
	triage_place_key(&y->b, yb, sizeof(yb));
	return (!strcmp(xa, ya) && !strcmp(xb, yb)) || (!strcmp(xa, yb) && !strcmp(xb, ya));
}

void tr_add_race(triage_report *r, triage_race *race)
{
	uint64_t h = race_hash(race);
	size_t *ix = rg_intmap_get(&r->race_ix, h);

	r->nwarnings += race->count;
	if (ix) {
		/* the first race with this hash; a collision looks further */
		for (size_t i = *ix - 1; i < r->nraces; i++) {
			if (same_keys(&r->races[i], race)) {
				r->races[i].count += race->count;
				tr_race_release(race);
				return;
			}
		}
	} else {
		*rg_intmap_ref(&r->race_ix, h, 0) = r->nraces + 1;
	}
	RG_GROW(r->races, r->nraces + 1, r->races_cap);
	r->races[r->nraces++] = *race;
	memset(race, 0, sizeof(*race));
}

/* ---- frames ---- */

void tr_stack_push(triage_stack *st, triage_frame *f)
{
	st->v = xrealloc(st->v, (st->n + 1) * sizeof(*st->v));
	st->v[st->n++] = *f;
	memset(f, 0, sizeof(*f));
}

void tr_frame_release(triage_frame *f)
{
	free(f->function);
	free(f->file);
	free(f->object);
	memset(f, 0, sizeof(*f));
}

void tr_stack_release(triage_stack *st)
{
	for (size_t i = 0; i < st->n; i++)
		tr_frame_release(&st->v[i]);
	free(st->v);
	st->v = NULL;
	st->n = 0;
}

void tr_access_release(triage_access *a)
{
	free(a->locks);
	tr_stack_release(&a->stack);
	tr_stack_release(&a->seg_start);
	tr_stack_release(&a->seg_end);
	memset(a, 0, sizeof(*a));
}

void tr_race_release(triage_race *race)
{
	tr_access_release(&race->a);
	tr_access_release(&race->b);
	free(race->loc.text);
	free(race->loc.name);
	free(race->loc.object);
	tr_stack_release(&race->loc.alloc);
	for (size_t i = 0; i < race->nmutexes; i++) {
		free(race->mutexes[i].id);
		tr_stack_release(&race->mutexes[i].created);
	}
	free(race->mutexes);
	free(race->summary);
	memset(race, 0, sizeof(*race));
}

/* Objects of the tools' and the C/C++ runtimes, by the start of their base name. */
static const char *const system_objects[] = {
	"libtsan", "libclang_rt", "vgpreload_", "libc.so", "libc-", "libpthread",
	"libstdc++", "libc++", "libgcc_s", "libm.so", "libm-", "ld-linux", "ld64.so",
	"libdl", "librt", NULL,
};
/* Source paths of those runtimes: a part of the path... */
static const char *const system_dirs[] = {
	"/libsanitizer/", "compiler-rt/", "/sanitizer_common/", "/sysdeps/",
	"/include/c++/", "/c++/v1/", NULL,
};
/* ...or its start, or its base name (valgrind's replacements, glibc's clone). */
static const char *const system_starts[] = { "../sysdeps/", "csu/", "nptl/", NULL };
static const char *const system_files[] = {
	"vg_replace_strmem.c", "vg_replace_malloc.c", "hg_intercepts.c",
	"drd_pthread_intercepts.c", "clone.S", "clone3.S", NULL,
};
/* glibc's thread start and program entry, whose file says little. */
static const char *const system_functions[] = {
	"clone", "clone3", "__clone", "__clone3", "__clone_internal", "start_thread",
	"create_thread", "__libc_start_main", "__libc_start_call_main", "_start", NULL,
};

static bool starts_any(const char *s, const char *const *v)
{
	for (; *v; v++)
		if (!strncmp(s, *v, strlen(*v)))
			return true;
	return false;
}

void tr_frame_classify(triage_frame *f)
{
	f->system = false;
	if (f->object && starts_any(rg_base_name(f->object), system_objects))
		f->system = true;
	if (f->file) {
		for (const char *const *d = system_dirs; *d; d++)
			if (strstr(f->file, *d))
				f->system = true;
		if (starts_any(f->file, system_starts))
			f->system = true;
		for (const char *const *b = system_files; *b; b++)
			if (!strcmp(rg_base_name(f->file), *b))
				f->system = true;
	}
	if (f->function) {
		for (const char *const *fn = system_functions; *fn; fn++)
			if (!strcmp(f->function, *fn))
				f->system = true;
		if (!strncmp(f->function, "pthread_create", 14) || !strncmp(f->function, "std::", 5) ||
		    !strncmp(f->function, "void std::", 10) || !strncmp(f->function, "__gnu_cxx::", 11))
			f->system = true;
	}
}

/* ---- scanners ---- */

bool tr_skip(const char **p, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*p, lit, n))
		return false;
	*p += n;
	return true;
}

bool tr_uint(const char **p, unsigned long long *v)
{
	const char *s = *p;
	unsigned long long x = 0;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (~0ULL - 9) / 10)
			return false;
		x = x * 10 + (unsigned)(*s - '0');
	}
	*v = x;
	*p = s;
	return true;
}

bool tr_hex(const char **p, unsigned long long *v)
{
	const char *s = *p;
	unsigned long long x = 0;
	int digits = 0;

	if (!tr_skip(&s, "0x") && !tr_skip(&s, "0X"))
		return false;
	for (;; s++, digits++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (digits >= 16)
			return false;
		x = x * 16 + (unsigned)d;
	}
	if (!digits)
		return false;
	*v = x;
	*p = s;
	return true;
}

bool tr_ends_with(const char *s, const char *lit)
{
	size_t n = strlen(s), m = strlen(lit);
	return n >= m && !memcmp(s + n - m, lit, m);
}

char *tr_dup(const char *s, size_t n)
{
	return xstrndup(s, n);
}

/* The number after the last ':' of [s, s + *n), if all digits; shortens *n. */
static bool tail_number(const char *s, size_t *n, int *v)
{
	size_t i = *n, j;
	long x = 0;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i == *n || i == 0 || s[i - 1] != ':' || *n - i > 9)
		return false;
	for (j = i; j < *n; j++)
		x = x * 10 + (s[j] - '0');
	*v = (int)x;
	*n = i - 1;
	return true;
}

bool tr_file_line(const char *s, size_t n, triage_frame *f)
{
	int a, b;

	if (!tail_number(s, &n, &a))
		return false;
	if (tail_number(s, &n, &b)) {
		f->line = b;
		f->column = a;
	} else {
		f->line = a;
	}
	if (n == 0 || f->line <= 0)
		return false;
	f->file = tr_dup(s, n);
	return true;
}

/* ---- answers ---- */

void triage_free(triage_report *r)
{
	if (!r)
		return;
	free_lines(r);
	for (size_t i = 0; i < r->nraces; i++)
		tr_race_release(&r->races[i]);
	free(r->races);
	for (size_t i = 0; i < r->nthreads; i++) {
		free(r->threads[i].name);
		tr_stack_release(&r->threads[i].created);
	}
	free(r->threads);
	for (size_t i = 0; i < r->nskips; i++)
		free(r->skips[i].what);
	free(r->skips);
	rg_intmap_release(&r->thread_ix);
	rg_intmap_release(&r->race_ix);
	free(r->name);
	free(r);
}

enum triage_tool triage_report_tool(const triage_report *r) { return r->tool; }
const char *triage_report_name(const triage_report *r) { return r->name; }
size_t triage_nraces(const triage_report *r) { return r->nraces; }
size_t triage_nthreads(const triage_report *r) { return r->nthreads; }
size_t triage_nskipped(const triage_report *r) { return r->nskips; }
size_t triage_nwarnings(const triage_report *r) { return r->nwarnings; }

const triage_race *triage_race_at(const triage_report *r, size_t i)
{
	RG_ASSERT(i < r->nraces);
	return &r->races[i];
}

const triage_thread *triage_thread_at(const triage_report *r, size_t i)
{
	RG_ASSERT(i < r->nthreads);
	return &r->threads[i];
}

const triage_skip *triage_skipped_at(const triage_report *r, size_t i)
{
	RG_ASSERT(i < r->nskips);
	return &r->skips[i];
}

int triage_place(const triage_access *a)
{
	const triage_stack *st = &a->stack;
	int own = -1;

	if (st->n == 0)
		return -1;
	for (size_t i = 0; i < st->n; i++) {
		if (st->v[i].system)
			continue;
		if (st->v[i].file)
			return (int)i;
		if (own < 0)
			own = (int)i;
	}
	return own >= 0 ? own : 0;
}

int triage_start_frame(const triage_access *a)
{
	const triage_stack *st = &a->stack;
	int own = -1;

	for (size_t i = st->n; i-- > 0;) {
		if (st->v[i].system)
			continue;
		if (st->v[i].file)
			return (int)i;
		if (own < 0)
			own = (int)i;
	}
	return own;
}

int triage_created_at(const triage_thread *t)
{
	for (size_t i = 0; i < t->created.n; i++)
		if (!t->created.v[i].system)
			return (int)i;
	return -1;
}

const char *triage_place_key(const triage_access *a, char *buf, size_t size)
{
	int i = triage_place(a);
	const triage_frame *f = i >= 0 ? &a->stack.v[i] : NULL;

	if (!f)
		snprintf(buf, size, "?");
	else if (f->file)
		snprintf(buf, size, "%s:%d", f->file, f->line);
	else
		snprintf(buf, size, "%s@%s+0x%llx", f->function ? f->function : "?",
			 f->object ? f->object : "?", (unsigned long long)f->offset);
	return buf;
}

/* Equal files: one path a tail of the other at a '/' ("./a/b.c", "b.c"). */
static bool same_file(const char *x, const char *y)
{
	size_t nx, ny;

	while (!strncmp(x, "./", 2))
		x += 2;
	while (!strncmp(y, "./", 2))
		y += 2;
	nx = strlen(x);
	ny = strlen(y);
	if (nx < ny) {
		const char *t = x;
		size_t tn = nx;
		x = y, nx = ny;
		y = t, ny = tn;
	}
	return !strcmp(x + nx - ny, y) && (nx == ny || x[nx - ny - 1] == '/');
}

static bool same_place(const triage_access *x, const triage_access *y)
{
	int i = triage_place(x), j = triage_place(y);
	const triage_frame *f, *g;
	char kx[1024], ky[1024];

	if (i < 0 || j < 0)
		return i < 0 && j < 0;
	f = &x->stack.v[i];
	g = &y->stack.v[j];
	if (f->file && g->file)
		return f->line == g->line && same_file(f->file, g->file);
	return !strcmp(triage_place_key(x, kx, sizeof(kx)), triage_place_key(y, ky, sizeof(ky)));
}

bool triage_same_places(const triage_race *x, const triage_race *y)
{
	return (same_place(&x->a, &y->a) && same_place(&x->b, &y->b)) ||
	       (same_place(&x->a, &y->b) && same_place(&x->b, &y->a));
}
