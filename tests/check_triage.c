/*
 * triage/: the report parsers on real reports of the triage examples
 * (the .txt files of tests/triage, taken by tests/triage/gen.sh with gcc 12's and
 * clang's ThreadSanitizer at -O0 and -O1, Helgrind and DRD), on hand-cut
 * bad ones (tests/triage/bad/), and on every truncation and many mutations
 * of the real ones (never a crash; an error names a line of the report).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "triage.h"

static char *path_of(const char *name)
{
	return xasprintf("%s/%s", TRIAGE_DATA, name);
}

static char *slurp(const char *name, size_t *len)
{
	char *path = path_of(name);
	FILE *f = fopen(path, "rb");
	rg_buf b = RG_BUF_INIT;
	char chunk[4096];
	size_t n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		rg_buf_add(&b, chunk, n);
	fclose(f);
	free(path);
	*len = b.len;
	return b.s ? rg_buf_detach(&b) : xstrdup("");
}

static enum triage_tool tool_of(const char *name)
{
	if (strstr(name, "helgrind"))
		return TRIAGE_HELGRIND;
	if (strstr(name, "drd"))
		return TRIAGE_DRD;
	return TRIAGE_TSAN;
}

/* The real report name, which must parse. */
static triage_report *load_ok(const char *name)
{
	char *path = path_of(name);
	triage_report *r = NULL;
	rg_err err = RG_ERR_INIT;
	int rc = triage_load(tool_of(name), path, &r, &err);

	ck_assert_msg(rc == TRIAGE_OK, "%s: %d: %s", name, rc, err.msg);
	ck_assert_ptr_nonnull(r);
	free(path);
	return r;
}

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path ? path : "?";
}

static const char *const kinds[] = {"?", "read", "write"};

static bool tr_ends(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && !strcmp(s + n - m, tail);
}

/* "write stale_conn.c:49 closer": kind, place (base name) and start routine. */
static void access_str(rg_buf *b, const triage_access *a)
{
	int p = triage_place(a), s = triage_start_frame(a);

	if (p < 0) {
		rg_buf_printf(b, "%s", a->kind ? kinds[a->kind] : "?");
		return;
	}
	rg_buf_printf(b, "%s%s", a->atomic ? "atomic " : "", kinds[a->kind]);
	rg_buf_printf(b, " %s:%d %s", base(a->stack.v[p].file), a->stack.v[p].line,
		      s >= 0 && a->stack.v[s].function ? a->stack.v[s].function : "?");
}

/* Every race of r, one per line: "A ~ B xCOUNT". */
static char *races_str(const triage_report *r)
{
	rg_buf b = RG_BUF_INIT;

	for (size_t i = 0; i < triage_nraces(r); i++) {
		const triage_race *race = triage_race_at(r, i);
		access_str(&b, &race->a);
		rg_buf_puts(&b, " ~ ");
		access_str(&b, &race->b);
		rg_buf_printf(&b, " x%u\n", race->count);
	}
	return rg_buf_detach(&b);
}

static void expect_races(const char *name, const char *want)
{
	triage_report *r = load_ok(name);
	char *got = races_str(r);

	ck_assert_msg(!strcmp(got, want), "%s: races\n%s\nwanted\n%s", name, got, want);
	free(got);
	triage_free(r);
}

/* Each TSan build of an example (gcc and clang, -O0 and -O1). */
static void expect_tsan(const char *ex, const char *want)
{
	static const char *const builds[] = {"gcc-O0", "gcc-O1", "clang-O0", "clang-O1"};

	for (size_t i = 0; i < 4; i++) {
		char *name = xasprintf("tsan-%s-%s.txt", builds[i], ex);
		expect_races(name, want);
		free(name);
	}
}

START_TEST(test_tsan_examples)
{
	/* the check-then-use: the pointer (check vs clear) and the freed
	 * connection (its use vs free(): the place is closer's call, not free) */
	expect_tsan("stale_conn",
		    "write stale_conn.c:49 closer ~ read stale_conn.c:33 sender x1\n"
		    "write stale_conn.c:50 closer ~ write stale_conn.c:35 sender x1\n");
	expect_tsan("retry_flag",
		    "write retry_flag.c:36 worker ~ write retry_flag.c:36 worker x1\n");
	/* which of tally's accesses TSan pairs depends on the run */
	expect_races("tsan-gcc-O0-tally.txt", "read tally.c:30 counter ~ write tally.c:32 counter x1\n");
	expect_races("tsan-gcc-O1-tally.txt", "read tally.c:30 counter ~ write tally.c:32 counter x1\n");
	expect_races("tsan-clang-O0-tally.txt", "write tally.c:32 counter ~ write tally.c:32 counter x1\n");
	expect_races("tsan-clang-O1-tally.txt", "write tally.c:32 counter ~ write tally.c:32 counter x1\n");
	/* gcc's runtime reports the handoff flag and the data; clang's the flag only */
	expect_races("tsan-gcc-O1-spin_handoff.txt",
		     "write spin_handoff.c:31 producer ~ read spin_handoff.c:39 consumer x1\n"
		     "read spin_handoff.c:42 consumer ~ write spin_handoff.c:29 producer x1\n");
	expect_races("tsan-clang-O1-spin_handoff.txt",
		     "write spin_handoff.c:31 producer ~ read spin_handoff.c:39 consumer x1\n");
	/* C++: gcc's symbolizer prints short names, clang's qualified ones; the
	 * std::thread frames below the lambda are the C++ library's */
	expect_races("tsan-gcc-O1-cxx_stock.txt",
		     "read cxx_stock.cpp:26 operator() ~ write cxx_stock.cpp:27 operator() x1\n");
	expect_races("tsan-clang-O1-cxx_stock.txt",
		     "read cxx_stock.cpp:26 main::$_0::operator()(char const*) const ~ "
		     "write cxx_stock.cpp:27 main::$_0::operator()(char const*) const x1\n");
	/* bump() reached through two callers: two warnings, one pair of places */
	expect_races("tsan-gcc-O1-mixed.txt",
		     "read mixed.c:30 worker ~ write mixed.c:30 other x2\n"
		     "read mixed.c:80 main ~ write mixed.c:47 worker x1\n"
		     "read mixed.c:81 main ~ atomic write mixed.c:49 worker x1\n");
	/* gcc's runtime did not report the read of worker-a's TLS in this run */
	expect_races("tsan-clang-O1-mixed.txt",
		     "write mixed.c:30 worker ~ write mixed.c:30 other x2\n"
		     "read mixed.c:79 main ~ write mixed.c:45 worker x1\n"
		     "read mixed.c:80 main ~ write mixed.c:47 worker x1\n"
		     "read mixed.c:81 main ~ atomic write mixed.c:49 worker x1\n");
}
END_TEST

START_TEST(test_valgrind_examples)
{
	/* Helgrind reports both orders of stale_conn's pair: one race, two warnings */
	expect_races("helgrind-stale_conn.txt", "write stale_conn.c:49 closer ~ read stale_conn.c:33 sender x2\n");
	expect_races("helgrind-tally.txt",
		     "read tally.c:30 counter ~ write tally.c:32 counter x1\n"
		     "write tally.c:32 counter ~ write tally.c:32 counter x1\n");
	expect_races("helgrind-cxx_stock.txt",
		     "read cxx_stock.cpp:26 main::{lambda(char const*)#1}::operator()(char const*) const ~ "
		     "write cxx_stock.cpp:27 main::{lambda(char const*)#1}::operator()(char const*) const x1\n");
	expect_races("helgrind-mixed.txt",
		     "read mixed.c:30 other ~ write mixed.c:30 worker x4\n"
		     "read mixed.c:80 main ~ write mixed.c:47 worker x1\n"
		     "read mixed.c:81 main ~ write mixed.c:49 worker x1\n");
	/* DRD: the two sides of stale_conn's race are two conflicts, paired */
	expect_races("drd-stale_conn.txt", "write stale_conn.c:49 closer ~ read stale_conn.c:33 sender x2\n");
	expect_races("drd-spin_handoff.txt",
		     "write spin_handoff.c:31 producer ~ read spin_handoff.c:39 consumer x2\n"
		     "read spin_handoff.c:42 consumer ~ ? x1\n");
	expect_races("drd-tally.txt", "read tally.c:30 counter ~ ? x1\nwrite tally.c:32 counter ~ ? x1\n");
	/* DRD leaves stack variables alone by default: main's Shelf */
	expect_races("drd-cxx_stock.txt", "");
	/* less history: the other access is not shown */
	expect_races("helgrind-approx-tally.txt", "read tally.c:30 counter ~ ? x1\nwrite tally.c:32 counter ~ ? x1\n");
	expect_races("helgrind-none-tally.txt", "read tally.c:30 counter ~ ? x1\nwrite tally.c:32 counter ~ ? x1\n");
}
END_TEST

static const triage_race *race_at_line(const triage_report *r, int line_a)
{
	for (size_t i = 0; i < triage_nraces(r); i++) {
		const triage_race *race = triage_race_at(r, i);
		int p = triage_place(&race->a);
		if (p >= 0 && race->a.stack.v[p].line == line_a)
			return race;
	}
	ck_abort_msg("no race with its first access at line %d", line_a);
	return NULL;
}

static const triage_thread *thread_of(const triage_report *r, int ix)
{
	ck_assert_int_ge(ix, 0);
	return triage_thread_at(r, (size_t)ix);
}

START_TEST(test_tsan_details)
{
	triage_report *r = load_ok("tsan-gcc-O1-mixed.txt");
	const triage_race *heap = race_at_line(r, 80), *atom = race_at_line(r, 81);
	const triage_race *bump = race_at_line(r, 30);
	const triage_thread *main_t = thread_of(r, heap->a.thread), *worker = thread_of(r, heap->b.thread);
	const triage_frame *f;
	const triage_mutex *m;

	ck_assert_uint_eq(triage_nwarnings(r), 4);
	ck_assert_uint_eq(triage_nskipped(r), 0);
	/* threads: main is T0; worker-a is T1, named, created at line 72 */
	ck_assert(main_t->main);
	ck_assert_int_eq(main_t->id, 0);
	ck_assert(!worker->main);
	ck_assert_int_eq(worker->id, 1);
	ck_assert_str_eq(worker->name, "worker-a");
	ck_assert_int_gt(worker->tid, 0);
	ck_assert_int_eq(worker->creator, heap->a.thread);
	ck_assert(worker->created_known);
	ck_assert_int_eq(triage_created_at(worker), 1);
	f = &worker->created.v[1];
	ck_assert_str_eq(f->function, "main");
	ck_assert_int_eq(f->line, 72);
	ck_assert(worker->created.v[0].system);      /* pthread_create, the interceptor */
	ck_assert_str_eq(worker->created.v[0].object, "libtsan.so.2");
	ck_assert(worker->created.v[0].has_offset);
	/* the heap race: a block of 16 allocated by main, written under M1 */
	ck_assert_int_eq(heap->loc.kind, TRIAGE_LOC_HEAP);
	ck_assert_uint_eq(heap->loc.size, 16);
	ck_assert(heap->loc.has_offset);
	ck_assert_uint_eq(heap->loc.offset, 8);
	ck_assert_int_eq(heap->loc.thread, heap->a.thread);
	ck_assert_uint_eq(heap->loc.alloc.n, 2);
	ck_assert_str_eq(heap->loc.alloc.v[0].function, "calloc");
	ck_assert_int_eq(heap->loc.alloc.v[1].line, 69);
	ck_assert(heap->a.locks_known);
	ck_assert_uint_eq(heap->a.nlocks, 0);
	ck_assert_uint_eq(heap->b.nlocks, 1);
	ck_assert(heap->b.locks[0].write);
	ck_assert_uint_eq(heap->nmutexes, 1);
	m = &heap->mutexes[heap->b.locks[0].mutex];
	ck_assert_str_eq(m->id, "M1");
	ck_assert_uint_ne(m->addr, 0);
	ck_assert_uint_eq(m->created.n, 2);
	ck_assert_int_eq(m->created.v[1].line, 46);
	ck_assert_int_eq(heap->a.kind, TRIAGE_READ);
	ck_assert_int_eq(heap->a.size, 8);
	ck_assert_uint_eq(heap->a.addr, heap->b.addr);
	ck_assert_int_eq(heap->a.report_line, 59);
	ck_assert_int_eq(heap->report_line, 58);
	ck_assert_str_eq(heap->summary, "tests/triage/mixed.c:80 in main");
	/* the flag: an atomic store against a plain load */
	ck_assert(atom->b.atomic);
	ck_assert(!atom->a.atomic);
	ck_assert_int_eq(atom->loc.kind, TRIAGE_LOC_GLOBAL);
	ck_assert_str_eq(atom->loc.name, "flag");
	ck_assert_uint_eq(atom->loc.size, 4);
	ck_assert_str_eq(atom->loc.object, "mixed");
	/* bump through via_a and via_b: its first warning's stacks are kept */
	ck_assert_uint_eq(bump->count, 2);
	ck_assert_uint_eq(bump->a.stack.n, 3);
	ck_assert_str_eq(bump->a.stack.v[1].function, "via_a");
	ck_assert_str_eq(bump->a.stack.v[0].file, "tests/triage/mixed.c");
	ck_assert_int_eq(bump->a.stack.v[0].column, 0);
	ck_assert_int_eq(triage_place(&bump->a), 0);
	ck_assert_int_eq(triage_start_frame(&bump->a), 2);
	triage_free(r);
}
END_TEST

START_TEST(test_clang_frames)
{
	triage_report *r = load_ok("tsan-clang-O1-stale_conn.txt");
	const triage_race *freed = race_at_line(r, 50);
	const triage_frame *f = &freed->a.stack.v[0], *g = &freed->a.stack.v[1];
	char key[256];

	/* clang builds the interceptor into the program: "free <null> (stale_conn+0x..)" */
	ck_assert_str_eq(f->function, "free");
	ck_assert_ptr_null(f->file);
	ck_assert_str_eq(f->object, "stale_conn");
	ck_assert(f->has_offset);
	ck_assert_int_eq(triage_place(&freed->a), 1);
	/* "./examples/...:50:5 (stale_conn+0xOFF) (BuildId: ...)" */
	ck_assert_str_eq(g->file, "./examples/stale_conn/stale_conn.c");
	ck_assert_int_eq(g->line, 50);
	ck_assert_int_eq(g->column, 5);
	ck_assert_str_eq(g->object, "stale_conn");
	ck_assert_str_eq(triage_place_key(&freed->a, key, sizeof(key)),
			 "./examples/stale_conn/stale_conn.c:50");
	ck_assert_int_eq(freed->loc.kind, TRIAGE_LOC_UNKNOWN);
	/* "SUMMARY: ThreadSanitizer: data race (/build/stale_conn+0x..) (BuildId: ..) in free" */
	ck_assert_int_eq(freed->summary[0], '(');
	ck_assert(tr_ends(freed->summary, ") in free"));
	triage_free(r);

	/* worker-a's thread-local storage */
	r = load_ok("tsan-clang-O1-mixed.txt");
	{
		const triage_race *tls = race_at_line(r, 79);
		const triage_thread *t = thread_of(r, tls->b.thread);
		ck_assert_int_eq(tls->loc.kind, TRIAGE_LOC_TLS);
		ck_assert_int_eq(tls->loc.thread, tls->b.thread);
		ck_assert_str_eq(t->name, "worker-a");
		ck_assert_str_eq(race_at_line(r, 30)->loc.name, "slots.0");
	}
	triage_free(r);

	/* a std::thread's creation: the constructor in <thread>, called from main */
	r = load_ok("tsan-clang-O0-cxx_stock.txt");
	{
		const triage_race *race = triage_race_at(r, 0);
		const triage_thread *t = thread_of(r, race->a.thread);
		int c = triage_created_at(t);
		ck_assert_int_ge(c, 0);
		ck_assert_str_eq(base(t->created.v[c].file), "cxx_stock.cpp");
		ck_assert_int_eq(race->loc.kind, TRIAGE_LOC_STACK);
		ck_assert(thread_of(r, race->loc.thread)->main);
	}
	triage_free(r);
}
END_TEST

START_TEST(test_valgrind_details)
{
	triage_report *r = load_ok("helgrind-mixed.txt");
	const triage_race *heap = race_at_line(r, 80);
	const triage_mutex *m;

	/* Helgrind: "Locks held: 1, at address 0x10C0A0", announced with its stack */
	ck_assert(heap->a.locks_known);
	ck_assert_uint_eq(heap->a.nlocks, 0);
	ck_assert_uint_eq(heap->b.nlocks, 1);
	m = &heap->mutexes[heap->b.locks[0].mutex];
	ck_assert_str_eq(m->id, "0x10C0A0");
	ck_assert_uint_eq(m->addr, 0x10c0a0);
	ck_assert_int_ge(m->created.n, 2);
	ck_assert_int_eq(m->created.v[1].line, 46);
	ck_assert_int_eq(heap->loc.kind, TRIAGE_LOC_HEAP);
	ck_assert_uint_eq(heap->loc.size, 16);
	ck_assert_uint_eq(heap->loc.offset, 8);
	ck_assert(thread_of(r, heap->loc.thread)->main);
	ck_assert_str_eq(heap->loc.alloc.v[1].function, "main");
	ck_assert(thread_of(r, heap->a.thread)->main);
	ck_assert_int_eq(thread_of(r, heap->a.thread)->id, 1);
	ck_assert_int_eq(heap->b.stack.v[0].pc, 0x1092cf);
	ck_assert_str_eq(heap->b.stack.v[1].object,
			 "/usr/libexec/valgrind/vgpreload_helgrind-amd64-linux.so");
	ck_assert(heap->b.stack.v[1].system);
	ck_assert(heap->b.stack.v[2].system);          /* start_thread */
	ck_assert_int_eq(triage_start_frame(&heap->b), 0);
	triage_free(r);

	/* DRD: paired sides; the other segment's threads */
	r = load_ok("drd-stale_conn.txt");
	{
		const triage_race *race = triage_race_at(r, 0);
		ck_assert_int_eq(thread_of(r, race->a.thread)->id, 3);
		ck_assert_int_eq(thread_of(r, race->b.thread)->id, 2);
		ck_assert_int_eq(race->a.size, 8);
		ck_assert_int_eq(race->b.kind, TRIAGE_READ);
		ck_assert_uint_eq(race->a.addr, 0x10c070);
		ck_assert_str_eq(race->loc.text, "Allocation context: BSS section of /build/stale_conn");
	}
	triage_free(r);

	/* approx: the other access lies between its thread's start and end */
	r = load_ok("helgrind-approx-tally.txt");
	{
		const triage_race *race = triage_race_at(r, 0);
		ck_assert_int_eq(race->b.kind, TRIAGE_ACCESS_UNKNOWN);
		ck_assert_int_eq(thread_of(r, race->b.thread)->id, 2);
		ck_assert_uint_eq(race->b.seg_start.n, 0);
		ck_assert_uint_eq(race->b.seg_end.n, 0);
		ck_assert_int_gt(race->b.report_line, race->a.report_line);
	}
	triage_free(r);
	r = load_ok("helgrind-none-tally.txt");
	ck_assert_int_eq(triage_race_at(r, 0)->b.thread, -1);
	triage_free(r);
}
END_TEST

START_TEST(test_skipped)
{
	triage_report *r = load_ok("tsan-gcc-O1-other.txt");

	ck_assert_uint_eq(triage_nraces(r), 1);
	ck_assert_uint_eq(triage_nskipped(r), 2);
	ck_assert_str_eq(triage_skipped_at(r, 0)->what, "lock-order-inversion (potential deadlock)");
	ck_assert_int_eq(triage_skipped_at(r, 0)->report_line, 2);
	ck_assert_str_eq(triage_skipped_at(r, 1)->what, "thread leak");
	ck_assert_uint_eq(triage_nwarnings(r), 3);
	triage_free(r);
	r = load_ok("helgrind-other.txt");
	ck_assert_uint_eq(triage_nraces(r), 1);
	ck_assert_uint_eq(triage_nskipped(r), 1);
	ck_assert_ptr_nonnull(strstr(triage_skipped_at(r, 0)->what, "lock order"));
	triage_free(r);
}
END_TEST

/* The races of two reports name the same places, in order. */
static void expect_same(const char *x, const char *y)
{
	triage_report *a = load_ok(x), *b = load_ok(y);

	ck_assert_uint_eq(triage_nraces(a), triage_nraces(b));
	for (size_t i = 0; i < triage_nraces(a); i++)
		ck_assert_msg(triage_same_places(triage_race_at(a, i), triage_race_at(b, i)),
			      "%s and %s: race %zu differs", x, y, i + 1);
	triage_free(a);
	triage_free(b);
}

START_TEST(test_same_places)
{
	triage_report *t, *h;

	/* colours (TSAN_OPTIONS=color=always) change nothing */
	expect_same("tsan-gcc-O1-tally.txt", "tsan-gcc-O1-tally-color.txt");
	/* across tools: TSan's paths against valgrind's base names, in either order */
	expect_same("tsan-gcc-O1-stale_conn.txt", "tsan-clang-O1-stale_conn.txt");
	t = load_ok("tsan-gcc-O1-stale_conn.txt");
	h = load_ok("helgrind-stale_conn.txt");
	ck_assert(triage_same_places(triage_race_at(t, 0), triage_race_at(h, 0)));
	ck_assert(!triage_same_places(triage_race_at(t, 1), triage_race_at(h, 0)));
	triage_free(t);
	triage_free(h);
	t = load_ok("tsan-gcc-O1-tally.txt");
	h = load_ok("helgrind-tally.txt");
	ck_assert(triage_same_places(triage_race_at(t, 0), triage_race_at(h, 0)));
	ck_assert(!triage_same_places(triage_race_at(t, 0), triage_race_at(h, 1)));
	triage_free(t);
	triage_free(h);
}
END_TEST

/* Equal, where "0x*" in want stands for any hexadecimal number in got. */
static bool same_but_addresses(const char *got, const char *want)
{
	while (*want) {
		if (!strncmp(want, "0x*", 3) && !strncmp(got, "0x", 2)) {
			want += 3;
			got += 2;
			while ((*got >= '0' && *got <= '9') || (*got >= 'a' && *got <= 'f'))
				got++;
		} else if (*got++ != *want++) {
			return false;
		}
	}
	return *got == '\0';
}

/* name must fail with rc and the message want (see same_but_addresses). */
static void expect_error(const char *name, enum triage_tool tool, int rc, const char *want)
{
	char *path = path_of(name);
	triage_report *r = (triage_report *)1;
	rg_err err = RG_ERR_INIT;
	char *full = xasprintf("%s%s", path, want);

	ck_assert_int_eq(triage_load(tool, path, &r, &err), rc);
	ck_assert_ptr_null(r);
	ck_assert_msg(same_but_addresses(err.msg, full), "%s: got '%s', wanted '%s'", name, err.msg, full);
	free(full);
	free(path);
}

START_TEST(test_bad_reports)
{
	expect_error("bad/tsan-no-previous-stack.txt", TRIAGE_TSAN, TRIAGE_ERROR,
		     ":6: a data race's second access has no stack");
	expect_error("bad/tsan-cut.txt", TRIAGE_TSAN, TRIAGE_ERROR,
		     ":2: a warning cut short: the report ends before its SUMMARY line");
	expect_error("bad/tsan-frame-gap.txt", TRIAGE_TSAN, TRIAGE_ERROR,
		     ":5: frame #2 where #1 was due: a stack with a line missing");
	expect_error("bad/tsan-access.txt", TRIAGE_TSAN, TRIAGE_ERROR,
		     ":3: an access I cannot read: 'Write of size eight at 0x* by thread T2:'");
	expect_error("bad/tsan-fatal.txt", TRIAGE_TSAN, TRIAGE_ERROR,
		     ":1: ThreadSanitizer stopped the program: 'unexpected memory mapping "
		     "0x5565d83c1000-0x5565d83c2000' (run it again under 'setarch -R': the kernel "
		     "spreads mappings wider than TSan expects)");
	expect_error("bad/helgrind-cut.txt", TRIAGE_HELGRIND, TRIAGE_ERROR,
		     ":35: a data race's second access has no stack");
	expect_error("bad/drd-cut.txt", TRIAGE_DRD, TRIAGE_ERROR,
		     ":7: a data race cut short: the report ends inside it");
	/* the wrong tool's report */
	expect_error("helgrind-tally.txt", TRIAGE_TSAN, TRIAGE_NO_ENTRY,
		     ": a Helgrind report, not ThreadSanitizer's");
	expect_error("tsan-gcc-O1-tally.txt", TRIAGE_DRD, TRIAGE_NO_ENTRY,
		     ": a ThreadSanitizer report, not DRD's");
	expect_error("drd-tally.txt", TRIAGE_HELGRIND, TRIAGE_NO_ENTRY, ": a DRD report, not Helgrind's");
	expect_error("mixed.c", TRIAGE_TSAN, TRIAGE_NO_ENTRY,
		     ": not a ThreadSanitizer report: no line names ThreadSanitizer");
	expect_error("mixed.c", TRIAGE_HELGRIND, TRIAGE_NO_ENTRY,
		     ": not a Helgrind report: no valgrind '==PID==' line");
	{
		triage_report *r;
		rg_err err = RG_ERR_INIT;
		ck_assert_int_eq(triage_load(TRIAGE_TSAN, "/nonexistent/report.txt", &r, &err), TRIAGE_ERROR);
		ck_assert_str_eq(err.msg, "cannot open '/nonexistent/report.txt': No such file or directory");
	}
}
END_TEST

static int parse_text(enum triage_tool tool, const char *text, size_t len, triage_report **r, rg_err *err)
{
	return triage_parse(tool, "t.txt", text, len, r, err);
}

/* The first n lines of the real report name. */
static int parse_head(const char *name, int n, triage_report **r, rg_err *err)
{
	size_t len, i = 0;
	char *text = slurp(name, &len);
	int rc;

	for (int k = 0; k < n && i < len; i++)
		k += text[i] == '\n';
	rc = triage_parse(tool_of(name), "t.txt", text, i, r, err);
	free(text);
	return rc;
}

START_TEST(test_cut_reports)
{
	triage_report *r;
	rg_err err = RG_ERR_INIT;

	/* cut after the first access: cut short, not "one access" */
	ck_assert_int_eq(parse_head("tsan-gcc-O1-stale_conn.txt", 5, &r, &err), TRIAGE_ERROR);
	ck_assert_str_eq(err.msg, "t.txt:2: a warning cut short: the report ends before its SUMMARY line");
	/* cut after the second access's header: that access has no stack */
	ck_assert_int_eq(parse_head("tsan-gcc-O1-stale_conn.txt", 6, &r, &err), TRIAGE_ERROR);
	ck_assert_str_eq(err.msg, "t.txt:6: a data race's second access has no stack");
	/* cut after the first warning's closing line: one race, read whole */
	ck_assert_int_eq(parse_head("tsan-gcc-O1-stale_conn.txt", 24, &r, &err), TRIAGE_OK);
	ck_assert_uint_eq(triage_nraces(r), 1);
	triage_free(r);
	/* the second warning's start, on its own: cut short */
	ck_assert_int_eq(parse_head("tsan-gcc-O1-stale_conn.txt", 26, &r, &err), TRIAGE_ERROR);
	ck_assert_str_eq(err.msg, "t.txt:26: a warning cut short: the report ends before its SUMMARY line");
	/* Helgrind cut inside the first access's stack is read as far as it goes,
	 * and its end is not there */
	ck_assert_int_eq(parse_head("helgrind-stale_conn.txt", 30, &r, &err), TRIAGE_ERROR);
	ck_assert_str_eq(err.msg, "t.txt:28: a data race cut short: the report ends inside it");
}
END_TEST

START_TEST(test_edge_texts)
{
	triage_report *r;
	rg_err err = RG_ERR_INIT;
	static const char nul[] = "WARNING: ThreadSanitizer: data race\n\0x\n";
	static const char xml[] = "<?xml version=\"1.0\"?>\n<valgrindoutput>\n";
	static const char vg_other[] = "==12== Memcheck, a memory error detector\n==12== \n";
	static const char stamped[] = "12:00:01 ==================\n"
				      "12:00:01 WARNING: ThreadSanitizer: data race (pid=1)\n";

	/* a TSan run without warnings prints nothing */
	ck_assert_int_eq(parse_text(TRIAGE_TSAN, "", 0, &r, &err), TRIAGE_OK);
	ck_assert_uint_eq(triage_nraces(r), 0);
	ck_assert_str_eq(triage_report_name(r), "t.txt");
	ck_assert_int_eq(triage_report_tool(r), TRIAGE_TSAN);
	triage_free(r);
	ck_assert_int_eq(parse_text(TRIAGE_TSAN, "\n \n", 3, &r, &err), TRIAGE_OK);
	triage_free(r);
	ck_assert_int_eq(parse_text(TRIAGE_HELGRIND, "", 0, &r, &err), TRIAGE_NO_ENTRY);
	ck_assert_ptr_null(r);
	ck_assert_int_eq(parse_text(TRIAGE_TSAN, nul, sizeof(nul) - 1, &r, &err), TRIAGE_ERROR);
	ck_assert_str_eq(err.msg, "t.txt:2: a NUL byte: not a text report");
	ck_assert_int_eq(parse_text(TRIAGE_HELGRIND, xml, strlen(xml), &r, &err), TRIAGE_NO_ENTRY);
	ck_assert_str_eq(err.msg, "t.txt: an XML report: give Helgrind's text output");
	ck_assert_int_eq(parse_text(TRIAGE_DRD, vg_other, strlen(vg_other), &r, &err), TRIAGE_NO_ENTRY);
	ck_assert_str_eq(err.msg, "t.txt: not a DRD report: a valgrind log without DRD's banner or any data race");
	ck_assert_int_eq(triage_detect(vg_other, strlen(vg_other)), -1);
	/* TSan's own failures, with or without the pid; a crash is a skip */
	{
		static const char fatal[] = "==18176==FATAL: ThreadSanitizer: failed to intercept pthread_mutex_lock\n";
		static const char check[] = "FATAL: ThreadSanitizer CHECK failed: tsan_rtl.cpp:12 \"((x)) != (0)\"\n";
		static const char mmap[] = "x\n==17==ERROR: ThreadSanitizer failed to allocate 0x10000 bytes\n";
		static const char segv[] = "==9==ERROR: ThreadSanitizer: SEGV on unknown address 0x000000000000\n"
					   "    #0 main a.c:3 (a+0x11d9)\n";
		static const char jit[] = "WARNING: ThreadSanitizer: data race (pid=1)\n"
					  "  Read of size 8 at 0x7fbe415ad060 by thread T2:\n"
					  "    #0 <null> <null> (0x7fbe393235f8)\n"
					  "    #1 run /src/t.c:311:9 (libjulia.so.0.7+0xbe8bb)\n"
					  "  Previous write of size 8 at 0x7fbe415ad060 by main thread:\n"
					  "    #0 <null> <null> (0x7fbe39323616)\n"
					  "SUMMARY: ThreadSanitizer: data race (<unknown module>)\n";
		const triage_race *race;
		ck_assert_int_eq(parse_text(TRIAGE_TSAN, fatal, strlen(fatal), &r, &err), TRIAGE_ERROR);
		ck_assert_str_eq(err.msg, "t.txt:1: ThreadSanitizer stopped the program: "
				 "'failed to intercept pthread_mutex_lock'");
		ck_assert_int_eq(parse_text(TRIAGE_TSAN, check, strlen(check), &r, &err), TRIAGE_ERROR);
		ck_assert_str_eq(err.msg, "t.txt:1: ThreadSanitizer stopped the program: "
				 "'CHECK failed: tsan_rtl.cpp:12 \"((x)) != (0)\"'");
		ck_assert_int_eq(parse_text(TRIAGE_TSAN, mmap, strlen(mmap), &r, &err), TRIAGE_ERROR);
		ck_assert_str_eq(err.msg, "t.txt:2: ThreadSanitizer stopped the program: "
				 "'failed to allocate 0x10000 bytes'");
		ck_assert_int_eq(parse_text(TRIAGE_TSAN, segv, strlen(segv), &r, &err), TRIAGE_OK);
		ck_assert_uint_eq(triage_nskipped(r), 1);
		ck_assert_str_eq(triage_skipped_at(r, 0)->what, "SEGV on unknown address 0x000000000000");
		triage_free(r);
		/* code of no module (a JIT): its address, no object */
		ck_assert_int_eq(parse_text(TRIAGE_TSAN, jit, strlen(jit), &r, &err), TRIAGE_OK);
		race = triage_race_at(r, 0);
		ck_assert_uint_eq(race->a.stack.v[0].pc, 0x7fbe393235f8);
		ck_assert_ptr_null(race->a.stack.v[0].object);
		ck_assert_ptr_null(race->a.stack.v[0].function);
		ck_assert_int_eq(triage_place(&race->a), 1);
		ck_assert_int_eq(race->a.stack.v[1].column, 9);
		ck_assert_str_eq(race->a.stack.v[1].object, "libjulia.so.0.7");
		ck_assert_int_eq(triage_place(&race->b), 0);
		ck_assert(thread_of(r, race->b.thread)->main);
		ck_assert_str_eq(race->summary, "(<unknown module>)");
		triage_free(r);
	}
	/* read as having no warning, this would be a run without races */
	ck_assert_int_eq(parse_text(TRIAGE_TSAN, stamped, strlen(stamped), &r, &err), TRIAGE_ERROR);
	ck_assert_str_eq(err.msg, "t.txt:2: a warning that does not start its line (a prefix such "
			 "as a CI log's timestamps?): take the prefix off");
	ck_assert_int_eq(triage_detect(nul, 5), -1);
}
END_TEST

/* text with every "\n" made "\r\n" */
static char *crlf(const char *text, size_t len, size_t *out)
{
	rg_buf b = RG_BUF_INIT;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n')
			rg_buf_add(&b, "\r", 1);
		rg_buf_add(&b, text + i, 1);
	}
	*out = b.len;
	return rg_buf_detach(&b);
}

/* text with every "\n" made "\r" (a log of lone carriage returns) */
static char *cr(const char *text, size_t len, size_t *out)
{
	char *t = xstrndup(text, len);

	for (size_t i = 0; i < len; i++)
		if (t[i] == '\n')
			t[i] = '\r';
	*out = len;
	return t;
}

/* text with a line of the program's own output after every line */
static char *interleave(const char *text, size_t len, size_t *out)
{
	rg_buf b = RG_BUF_INIT;

	for (size_t i = 0; i < len; i++) {
		rg_buf_add(&b, text + i, 1);
		if (text[i] == '\n')
			rg_buf_puts(&b, "round 3 sent\n");
	}
	*out = b.len;
	return rg_buf_detach(&b);
}

static void expect_same_text(const char *name, char *(*change)(const char *, size_t, size_t *))
{
	size_t len, len2;
	char *text = slurp(name, &len), *text2 = change(text, len, &len2);
	triage_report *a, *b;
	rg_err err = RG_ERR_INIT;
	char *x, *y;

	ck_assert_int_eq(parse_text(tool_of(name), text, len, &a, &err), TRIAGE_OK);
	ck_assert_msg(parse_text(tool_of(name), text2, len2, &b, &err) == TRIAGE_OK, "%s: %s", name, err.msg);
	x = races_str(a);
	y = races_str(b);
	ck_assert_str_eq(x, y);
	ck_assert_uint_eq(triage_nthreads(a), triage_nthreads(b));
	free(x);
	free(y);
	triage_free(a);
	triage_free(b);
	free(text);
	free(text2);
}

static const char *const reports[] = {
	"tsan-gcc-O0-stale_conn.txt", "tsan-gcc-O1-mixed.txt", "tsan-clang-O1-mixed.txt",
	"tsan-clang-O0-cxx_stock.txt", "tsan-gcc-O1-other.txt", "tsan-gcc-O1-tally-color.txt",
	"helgrind-mixed.txt", "helgrind-other.txt", "helgrind-approx-tally.txt",
	"helgrind-cxx_stock.txt", "drd-mixed.txt", "drd-stale_conn.txt", NULL,
};

START_TEST(test_line_ends_and_output)
{
	for (const char *const *n = reports; *n; n++) {
		expect_same_text(*n, crlf);
		expect_same_text(*n, cr);
		expect_same_text(*n, interleave);
	}
}
END_TEST

/* An error names a line of the text, "t.txt:N: ..." with 1 <= N <= lines. */
static void check_error_line(const char *what, const rg_err *err, size_t nlines)
{
	const char *p = err->msg + 6;
	long line;

	ck_assert_msg(!strncmp(err->msg, "t.txt:", 6), "%s: '%s'", what, err->msg);
	line = strtol(p, NULL, 10);
	ck_assert_msg(line >= 1 && (size_t)line <= nlines, "%s: line %ld of %zu: '%s'", what, line, nlines,
		      err->msg);
}

/* Every cut at a line's end parses or fails naming a line; never crashes. */
START_TEST(test_truncations)
{
	for (const char *const *n = reports; *n; n++) {
		size_t len, nlines = 0, ok = 0, bad = 0;
		char *text = slurp(*n, &len);
		for (size_t i = 0; i < len; i++) {
			triage_report *r;
			rg_err err = RG_ERR_INIT;
			int rc;
			if (text[i] != '\n')
				continue;
			nlines++;
			rc = parse_text(tool_of(*n), text, i + 1, &r, &err);
			if (rc == TRIAGE_OK) {
				ok++;
				triage_free(r);
			} else if (rc == TRIAGE_ERROR) {
				bad++;
				check_error_line(*n, &err, nlines);
			}
		}
		/* the whole report parses; a report cut inside its first
		 * warning does not */
		ck_assert_uint_gt(ok, 0);
		ck_assert_uint_gt(bad, 0);
		free(text);
	}
}
END_TEST

/* Random damage (bytes changed, lines dropped or doubled): no crash, no leak. */
START_TEST(test_mutations)
{
	unsigned seed = 24;

	for (const char *const *n = reports; *n; n++) {
		size_t len;
		char *text = slurp(*n, &len);
		for (int round = 0; round < 300; round++) {
			char *t = xmalloc(len * 2 + 1);
			size_t tl = len;
			triage_report *r;
			rg_err err = RG_ERR_INIT;
			memcpy(t, text, len);
			for (int k = 0; k < 1 + round % 4 && tl > 0; k++) {
				size_t at = (size_t)rand_r(&seed) % tl;
				static const char pool[] = "#0:() \n'xT1+-0x9?<>";
				switch (rand_r(&seed) % 3) {
				case 0:
					t[at] = pool[(size_t)rand_r(&seed) % (sizeof(pool) - 1)];
					break;
				case 1:     /* drop a span */
					{
						size_t span = (size_t)rand_r(&seed) % 200;
						if (at + span > tl)
							span = tl - at;
						memmove(t + at, t + at + span, tl - at - span);
						tl -= span;
					}
					break;
				default:    /* double a span */
					{
						size_t span = (size_t)rand_r(&seed) % 200;
						if (at + span > tl)
							span = tl - at;
						if (tl + span <= len * 2) {
							memmove(t + at + span, t + at, tl - at);
							tl += span;
						}
					}
					break;
				}
			}
			if (parse_text(tool_of(*n), t, tl, &r, &err) == TRIAGE_OK)
				triage_free(r);
			free(t);
		}
		free(text);
	}
}
END_TEST

START_TEST(test_detect)
{
	for (const char *const *n = reports; *n; n++) {
		size_t len;
		char *text = slurp(*n, &len);
		ck_assert_int_eq(triage_detect(text, len), (int)tool_of(*n));
		free(text);
	}
	ck_assert_str_eq(triage_tool_name(TRIAGE_DRD), "DRD");
}
END_TEST

static Suite *triage_suite(void)
{
	Suite *s = suite_create("triage");
	TCase *tc = tcase_create("reports");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_tsan_examples);
	tcase_add_test(tc, test_valgrind_examples);
	tcase_add_test(tc, test_tsan_details);
	tcase_add_test(tc, test_clang_frames);
	tcase_add_test(tc, test_valgrind_details);
	tcase_add_test(tc, test_skipped);
	tcase_add_test(tc, test_same_places);
	tcase_add_test(tc, test_bad_reports);
	tcase_add_test(tc, test_cut_reports);
	tcase_add_test(tc, test_edge_texts);
	tcase_add_test(tc, test_line_ends_and_output);
	tcase_add_test(tc, test_truncations);
	tcase_add_test(tc, test_mutations);
	tcase_add_test(tc, test_detect);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(triage_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
