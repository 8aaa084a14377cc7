/*
 * check_dwarf: dwarfx on programs the build compiles (tests/fixtures/dwarf).
 *
 * Nothing here is a hard-coded address or line number: lines come from
 * "@name" markers in the fixture sources, addresses from nm and objdump
 * listings made at build time (and, for libc, from the dynamic linker), so
 * a new compiler or an edited fixture does not break the test.
 */
#include "dwarfx.h"
#include "dwarfx_dyn.h"

#include <check.h>
#include <ctype.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SRC(f) FX_SRC_DIR "/" f
#define LISTING(t, ext) FX_OUT_DIR "/" t ext

/* ---- what the fixtures say about themselves ---- */

/* Line number of the line holding "@tag" (and not a longer tag) in src. */
static int marker_line(const char *src, const char *tag)
{
	FILE *f = fopen(src, "r");
	char buf[1024];
	size_t tlen = strlen(tag);
	int line = 0;

	ck_assert_msg(f != NULL, "cannot open %s", src);
	while (fgets(buf, sizeof(buf), f)) {
		const char *p = buf;

		line++;
		while ((p = strchr(p, '@'))) {
			p++;
			if (!strncmp(p, tag, tlen) &&
			    !(isalnum((unsigned char)p[tlen]) || p[tlen] == '-' ||
			      p[tlen] == '_')) {
				fclose(f);
				return line;
			}
		}
	}
	fclose(f);
	ck_abort_msg("no marker @%s in %s", tag, src);
	return 0;
}

struct nm_sym {
	uint64_t addr, size;
	bool found;
};

/* The symbol called name in an "nm -S --defined-only" listing. */
static struct nm_sym nm_lookup(const char *listing, const char *name)
{
	struct nm_sym s = {0, 0, false};
	FILE *f = fopen(listing, "r");
	char buf[1024];

	ck_assert_msg(f != NULL, "cannot open %s", listing);
	while (fgets(buf, sizeof(buf), f)) {
		char a[64], b[64], c[512], d[512];
		int n = sscanf(buf, "%63s %63s %511s %511s", a, b, c, d);

		if (n == 4 && !strcmp(d, name)) {
			s.addr = strtoull(a, NULL, 16);
			s.size = strtoull(b, NULL, 16);
			s.found = true;
			break;
		}
		if (n == 3 && !strcmp(c, name)) {
			s.addr = strtoull(a, NULL, 16);
			s.found = true;
			break;
		}
	}
	fclose(f);
	ck_assert_msg(s.found, "no symbol %s in %s", name, listing);
	return s;
}

/*
 * The lowest address of a statement row for file:line in objdump's decoded
 * line table (columns: file, line, address, [view], [x for a statement]).
 */
static uint64_t objdump_line_addr(const char *listing, const char *file, int line)
{
	FILE *f = fopen(listing, "r");
	char buf[1024];
	uint64_t best = UINT64_MAX;

	ck_assert_msg(f != NULL, "cannot open %s", listing);
	while (fgets(buf, sizeof(buf), f)) {
		char name[512], lno[64], addr[64];
		size_t len = strlen(buf);

		while (len && isspace((unsigned char)buf[len - 1]))
			buf[--len] = '\0';
		if (sscanf(buf, "%511s %63s %63s", name, lno, addr) != 3 ||
		    strcmp(name, file) || atoi(lno) != line || !len ||
		    buf[len - 1] != 'x' || !isspace((unsigned char)buf[len - 2]))
			continue;
		if (strtoull(addr, NULL, 16) < best)
			best = strtoull(addr, NULL, 16);
	}
	fclose(f);
	ck_assert_msg(best != UINT64_MAX, "no row for %s:%d in %s", file, line, listing);
	return best;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* ---- dwarfx helpers ---- */

static dwarfx *open_ok(const char *path)
{
	rg_err err = RG_ERR_INIT;
	dwarfx *dx = NULL;

	ck_assert_msg(dwarfx_open(path, &dx, &err) == 0, "open %s: %s", path, err.msg);
	ck_assert_ptr_nonnull(dx);
	return dx;
}

static dwarfx_loc *resolve_ok(dwarfx *dx, const char *where, size_t *n)
{
	rg_err err = RG_ERR_INIT;
	dwarfx_loc *locs = NULL;

	ck_assert_msg(dwarfx_resolve(dx, where, &locs, n, NULL, &err) == 0,
		      "resolve %s: %s", where, err.msg);
	ck_assert_uint_ge(*n, 1);
	for (size_t i = 1; i < *n; i++)
		ck_assert_msg(locs[i - 1].addr < locs[i].addr, "%s: not sorted", where);
	return locs;
}

/* Resolves a location that must fail; returns the message (static). */
static const char *resolve_err(dwarfx *dx, const char *where)
{
	static rg_err err;
	dwarfx_loc *locs = (dwarfx_loc *)&err;	/* must be reset to NULL */
	size_t n = 99;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(dwarfx_resolve(dx, where, &locs, &n, NULL, &err) < 0,
		      "%s resolved", where);
	ck_assert_ptr_null(locs);
	ck_assert_uint_eq(n, 0);
	ck_assert_msg(err.msg[0], "%s: empty message", where);
	return err.msg;
}

static const char *open_err(const char *path)
{
	static rg_err err;
	dwarfx *dx = (dwarfx *)&err;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(dwarfx_open(path, &dx, &err) < 0, "%s opened", path);
	ck_assert_ptr_null(dx);
	return err.msg;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	static char bufs[4][1024];
	static int k;
	char *b = bufs[k++ % 4];
	va_list ap;

	va_start(ap, f);
	vsnprintf(b, sizeof(bufs[0]), f, ap);
	va_end(ap);
	return b;
}

#define ck_assert_contains(s, sub) \
	ck_assert_msg(strstr((s), (sub)) != NULL, "'%s' lacks '%s'", (s), (sub))

/* ---- the -O0 programs, PIE and not ---- */

struct prog {
	const char *path, *nm, *lines;
	bool pie;
};

static const struct prog progs[] = {
	{FX_PIE, LISTING("dwarf_fx_pie", ".nm"), LISTING("dwarf_fx_pie", ".lines"), true},
	{FX_NOPIE, LISTING("dwarf_fx_nopie", ".nm"), LISTING("dwarf_fx_nopie", ".lines"), false},
};

START_TEST(test_open_kinds)
{
	const struct prog *p = &progs[_i];
	dwarfx *dx = open_ok(p->path);

	ck_assert_str_eq(dwarfx_path(dx), p->path);
	ck_assert(dwarfx_is_pie(dx) == p->pie);
	ck_assert(dwarfx_has_debug_info(dx));
	ck_assert_uint_eq(dwarfx_entry(dx), nm_lookup(p->nm, "_start").addr);
	ck_assert_uint_eq(dwarfx_load_base(dx) & 0xfff, 0);
	if (p->pie)
		ck_assert_uint_eq(dwarfx_load_base(dx), 0);
	else
		ck_assert_uint_eq(dwarfx_load_base(dx), 0x400000);
	dwarfx_free(dx);
}
END_TEST

START_TEST(test_file_line)
{
	const struct prog *p = &progs[_i];
	static const char *const tags[] = {"worker-first", "worker-sink", "loop-for"};
	dwarfx *dx = open_ok(p->path);

	for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
		int line = marker_line(SRC("main.c"), tags[t]);
		const char *fn = t < 2 ? "worker" : "loop_sum";
		struct nm_sym s = nm_lookup(p->nm, fn);
		size_t n;
		dwarfx_loc *l = resolve_ok(dx, fmt("main.c:%d", line), &n);

		/* -O0: one instance, the lowest statement row, inside the body */
		ck_assert_uint_eq(n, 1);
		ck_assert_uint_eq(l[0].addr, objdump_line_addr(p->lines, "main.c", line));
		ck_assert_uint_gt(l[0].addr, s.addr);
		ck_assert_uint_lt(l[0].addr, s.addr + s.size);
		ck_assert_int_eq(l[0].line, line);
		ck_assert(ends_with(l[0].file, "/tests/fixtures/dwarf/main.c"));
		ck_assert_str_eq(l[0].function, fn);
		free(l);
	}
	dwarfx_free(dx);
}
END_TEST

START_TEST(test_suffix_match)
{
	int line = marker_line(SRC("a/util.c"), "util-a");
	dwarfx *dx = open_ok(FX_PIE);
	struct nm_sym s = nm_lookup(progs[0].nm, "util_a");
	static const char *const spellings[] = {
		"a/util.c", "dwarf/a/util.c", "fixtures/dwarf/a/util.c",
		"./a/util.c", SRC("a/util.c"),
	};
	uint64_t addr = 0;

	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		size_t n;
		dwarfx_loc *l = resolve_ok(dx, fmt("%s:%d", spellings[i], line), &n);

		ck_assert_uint_eq(n, 1);
		ck_assert_str_eq(l[0].function, "util_a");
		ck_assert(ends_with(l[0].file, "/dwarf/a/util.c"));
		ck_assert_uint_gt(l[0].addr, s.addr);
		ck_assert_uint_lt(l[0].addr, s.addr + s.size);
		if (i)
			ck_assert_uint_eq(l[0].addr, addr);
		addr = l[0].addr;
		free(l);
	}
	/* a suffix only at a '/' boundary: "til.c" is not "util.c" */
	ck_assert_contains(resolve_err(dx, fmt("til.c:%d", line)),
			   "no source file 'til.c'");
	ck_assert_contains(resolve_err(dx, fmt("til.c:%d", line)),
			   "(did you mean 'util.c'?)");
	/* the right name in a folder that does not exist */
	ck_assert_contains(resolve_err(dx, fmt("c/util.c:%d", line)),
			   "no source file 'c/util.c'");
	dwarfx_free(dx);
}
END_TEST

START_TEST(test_ambiguous_file)
{
	int line = marker_line(SRC("a/util.c"), "util-a");
	dwarfx *dx = open_ok(FX_PIE);
	const char *msg = resolve_err(dx, fmt("util.c:%d", line));

	ck_assert_contains(msg, fmt("cannot resolve 'util.c:%d': 'util.c' matches "
				    "2 files: ", line));
	ck_assert_contains(msg, SRC("a/util.c"));
	ck_assert_contains(msg, SRC("b/util.c"));
	dwarfx_free(dx);
}
END_TEST

START_TEST(test_no_code)
{
	const struct prog *p = &progs[_i];
	int line = marker_line(SRC("main.c"), "worker-nocode");
	int before = marker_line(SRC("main.c"), "worker-first");
	int after = marker_line(SRC("main.c"), "worker-sink");
	dwarfx *dx = open_ok(p->path);

	ck_assert_str_eq(resolve_err(dx, fmt("main.c:%d", line)),
			 fmt("cannot resolve 'main.c:%d': no code on this line "
			     "(nearest: %d, %d)", line, before, after));
	/* past the end: only a line before */
	ck_assert_contains(resolve_err(dx, "main.c:100000"),
			   "no code on this line (nearest: ");
	ck_assert_contains(resolve_err(dx, "main.c:0"), "cannot resolve 'main.c:0'");
	dwarfx_free(dx);
}
END_TEST

START_TEST(test_unknown_file)
{
	dwarfx *dx = open_ok(FX_PIE);

	ck_assert_str_eq(resolve_err(dx, "nosuch.c:3"),
			 fmt("cannot resolve 'nosuch.c:3': no source file 'nosuch.c' "
			     "in '%s'", FX_PIE));
	ck_assert_contains(resolve_err(dx, "mian.c:3"), "(did you mean 'main.c'?)");
	dwarfx_free(dx);
}
END_TEST

/* Resolves where, which must fail with status; the hint it left. */
static dwarfx_hint resolve_status(dwarfx *dx, const char *where, int status)
{
	dwarfx_hint h = {"junk", true, 7, 7, "junk", 7};
	rg_err err = RG_ERR_INIT;
	dwarfx_loc *locs = NULL;
	size_t n = 0;

	ck_assert_int_eq(dwarfx_resolve(dx, where, &locs, &n, &h, &err), status);
	ck_assert_ptr_null(locs);
	ck_assert_msg(err.msg[0], "%s: empty message", where);
	return h;
}

/*
 * Callers decide on the status and the hint, never on the message: a name
 * not here is NO_ENTRY (another object may have it), anything wrong with a
 * name that is here is ERROR, and the hint carries "did you mean" and the
 * nearest lines as values.
 */
START_TEST(test_result_kinds)
{
	int line = marker_line(SRC("main.c"), "worker-nocode");
	int before = marker_line(SRC("main.c"), "worker-first");
	int after = marker_line(SRC("main.c"), "worker-sink");
	dwarfx *dx = open_ok(FX_PIE);
	dwarfx_hint h = DWARFX_HINT_INIT;
	dwarfx_loc *locs = NULL;
	rg_err err = RG_ERR_INIT;
	size_t n;

	h = resolve_status(dx, "nosuch.c:3", DWARFX_NO_ENTRY);
	ck_assert_ptr_null(h.suggest);
	ck_assert_int_eq(h.before, 0);
	h = resolve_status(dx, "mian.c:3", DWARFX_NO_ENTRY);
	ck_assert_str_eq(h.suggest, "main.c");
	ck_assert(h.suggest_is_file);
	h = resolve_status(dx, "wroker", DWARFX_NO_ENTRY);
	ck_assert_str_eq(h.suggest, "worker");
	ck_assert(!h.suggest_is_file);
	h = resolve_status(dx, "*wroker+2", DWARFX_NO_ENTRY);
	ck_assert_str_eq(h.suggest, "worker");
	h = resolve_status(dx, fmt("main.c:%d", line), DWARFX_ERROR);
	ck_assert_ptr_null(h.suggest);
	ck_assert_ptr_null(h.credit_file);
	ck_assert_int_eq(h.before, before);
	ck_assert_int_eq(h.after, after);
	resolve_status(dx, "main.c:0", DWARFX_ERROR);
	resolve_status(dx, "*0xzz", DWARFX_ERROR);
	resolve_status(dx, "", DWARFX_ERROR);
	ck_assert_int_eq(dwarfx_resolve(dx, "worker", &locs, &n, &h, &err), DWARFX_OK);
	free(locs);
	dwarfx_free(dx);
}
END_TEST

START_TEST(test_function_prologue)
{
	const struct prog *p = &progs[_i];
	struct nm_sym s = nm_lookup(p->nm, "worker");
	int first = marker_line(SRC("main.c"), "worker-first");
	dwarfx *dx = open_ok(p->path);
	dwarfx_loc *l, *e, sym;
	size_t n;

	l = resolve_ok(dx, "worker", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_gt(l[0].addr, s.addr);
	ck_assert_uint_lt(l[0].addr, s.addr + s.size);
	ck_assert_int_eq(l[0].line, first);
	ck_assert_str_eq(l[0].function, "worker");
	/* the first body line's breakpoint is the same one */
	free(resolve_ok(dx, fmt("main.c:%d", first), &n));
	ck_assert_int_eq(dwarfx_symbolize(dx, l[0].addr, &sym), 0);
	ck_assert_int_eq(sym.line, first);

	e = resolve_ok(dx, "*worker", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(e[0].addr, s.addr);
	ck_assert_str_eq(e[0].function, "worker");
	ck_assert_int_lt(e[0].line, first);
	free(e);
	free(l);

	ck_assert_str_eq(resolve_err(dx, "wroker"),
			 fmt("cannot resolve 'wroker': no function 'wroker' in '%s' "
			     "(did you mean 'worker'?)", p->path));
	ck_assert_contains(resolve_err(dx, "*"), "cannot resolve '*'");
	dwarfx_free(dx);
}
END_TEST

START_TEST(test_addr)
{
	const struct prog *p = &progs[_i];
	struct nm_sym w = nm_lookup(p->nm, "worker");
	struct nm_sym sink = nm_lookup(p->nm, "sink");
	dwarfx *dx = open_ok(p->path);
	dwarfx_loc *l;
	size_t n;

	l = resolve_ok(dx, fmt("*0x%" PRIx64, w.addr), &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(l[0].addr, w.addr);
	ck_assert_str_eq(l[0].function, "worker");
	ck_assert(ends_with(l[0].file, "/main.c"));
	free(l);
	ck_assert_contains(resolve_err(dx, fmt("*0x%" PRIx64, sink.addr)),
			   "is not in an executable segment");
	ck_assert_contains(resolve_err(dx, "*0x0"), "is not in an executable segment");
	ck_assert_contains(resolve_err(dx, "*0xzz"), "not a hexadecimal address");
	ck_assert_contains(resolve_err(dx, "*0x"), "not a hexadecimal address");
	ck_assert_contains(resolve_err(dx, "*0xffffffffffffffffff"),
			   "not a hexadecimal address");
	dwarfx_free(dx);
}
END_TEST

START_TEST(test_symbolize_roundtrip)
{
	static const char *const tags[] = {"worker-first", "worker-sink", "loop-for"};
	const struct prog *p = &progs[_i];
	dwarfx *dx = open_ok(p->path);
	dwarfx_loc sym;

	for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
		int line = marker_line(SRC("main.c"), tags[t]);
		size_t n;
		dwarfx_loc *l = resolve_ok(dx, fmt("main.c:%d", line), &n);

		ck_assert_int_eq(dwarfx_symbolize(dx, l[0].addr, &sym), 0);
		ck_assert_uint_eq(sym.addr, l[0].addr);
		ck_assert_str_eq(sym.file, l[0].file);
		ck_assert_int_eq(sym.line, l[0].line);
		ck_assert_str_eq(sym.function, l[0].function);
		free(l);
	}
	/* a byte inside util_b: its function, its file */
	ck_assert_int_eq(dwarfx_symbolize(dx, nm_lookup(p->nm, "util_b").addr + 1, &sym), 0);
	ck_assert_str_eq(sym.function, "util_b");
	ck_assert(ends_with(sym.file, "/b/util.c"));
	ck_assert_str_eq(dwarfx_symbol_at(dx, nm_lookup(p->nm, "util_b").addr + 1), "util_b");
	/* nowhere */
	ck_assert_int_eq(dwarfx_symbolize(dx, 0, &sym), -1);
	ck_assert_ptr_null(sym.function);
	ck_assert_ptr_null(dwarfx_symbol_at(dx, 0));
	dwarfx_free(dx);
}
END_TEST

/* ---- -O2: inlined copies, specialised clones ---- */

#define INLINE_NM LISTING("dwarf_fx_inline", ".nm")

static bool in_sym(uint64_t addr, struct nm_sym s)
{
	return addr >= s.addr && addr < s.addr + s.size;
}

START_TEST(test_inline_instances)
{
	int body = marker_line(SRC("inline.c"), "inline-body");
	int call = marker_line(SRC("inline.c"), "first-call");
	struct nm_sym first = nm_lookup(INLINE_NM, "first");
	struct nm_sym second = nm_lookup(INLINE_NM, "second");
	dwarfx *dx = open_ok(FX_INLINE);
	dwarfx_loc *l, sym;
	size_t n, i;

	/* a line of the inlined function: one breakpoint in each copy */
	l = resolve_ok(dx, fmt("inline.c:%d", body), &n);
	ck_assert_uint_eq(n, 2);
	for (i = 0; i < n; i++) {
		ck_assert_str_eq(l[i].function, "add_twice");
		ck_assert_int_eq(l[i].line, body);
		ck_assert_int_eq(dwarfx_symbolize(dx, l[i].addr, &sym), 0);
		ck_assert_int_eq(sym.line, body);
		ck_assert_str_eq(sym.function, "add_twice");
		ck_assert_str_eq(sym.file, l[i].file);
	}
	ck_assert(in_sym(l[0].addr, first) != in_sym(l[1].addr, first));
	ck_assert(in_sym(l[0].addr, second) != in_sym(l[1].addr, second));
	free(l);

	/* the function: each inlined copy at its entry */
	l = resolve_ok(dx, "add_twice", &n);
	ck_assert_uint_eq(n, 2);
	ck_assert(in_sym(l[0].addr, first) || in_sym(l[0].addr, second));
	ck_assert(in_sym(l[1].addr, first) || in_sym(l[1].addr, second));
	free(l);

	/* the call line belongs to the caller, not to the inlined copy */
	l = resolve_ok(dx, fmt("inline.c:%d", call), &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(l[0].function, "first");
	ck_assert(in_sym(l[0].addr, first));
	free(l);
	dwarfx_free(dx);
}
END_TEST

START_TEST(test_clone)
{
	int body = marker_line(SRC("inline.c"), "scale-body");
	struct nm_sym clone = nm_lookup(INLINE_NM, "scale.constprop.0");
	dwarfx *dx = open_ok(FX_INLINE);
	dwarfx_loc *l;
	size_t n;

	l = resolve_ok(dx, "scale", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert(in_sym(l[0].addr, clone));
	ck_assert_str_eq(l[0].function, "scale");
	free(l);
	l = resolve_ok(dx, "*scale", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(l[0].addr, clone.addr);
	free(l);
	l = resolve_ok(dx, fmt("inline.c:%d", body), &n);
	ck_assert_uint_eq(n, 1);
	ck_assert(in_sym(l[0].addr, clone));
	free(l);
	/* the ELF name works too */
	l = resolve_ok(dx, "*scale.constprop.0", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(l[0].addr, clone.addr);
	free(l);
	dwarfx_free(dx);
}
END_TEST

/* ---- symbols only ---- */

START_TEST(test_nodebug)
{
	const char *nm = LISTING("dwarf_fx_nodebug", ".nm");
	struct nm_sym w = nm_lookup(nm, "nodebug_worker");
	dwarfx *dx = open_ok(FX_NODEBUG);
	dwarfx_loc *l, sym;
	size_t n;

	ck_assert(!dwarfx_has_debug_info(dx));
	l = resolve_ok(dx, "nodebug_worker", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(l[0].addr, w.addr);	/* no line table: the entry */
	ck_assert_str_eq(l[0].function, "nodebug_worker");
	ck_assert_ptr_null(l[0].file);
	free(l);
	ck_assert_int_eq(dwarfx_symbolize(dx, w.addr + 2, &sym), 0);
	ck_assert_str_eq(sym.function, "nodebug_worker");
	ck_assert_ptr_null(sym.file);
	ck_assert_int_eq(sym.line, 0);
	ck_assert_contains(resolve_err(dx, "nodebug.c:8"), "has no debug information");
	ck_assert_contains(resolve_err(dx, "nodebug_wroker"),
			   "(did you mean 'nodebug_worker'?)");
	dwarfx_free(dx);
}
END_TEST

static int find_libc(struct dl_phdr_info *info, size_t size, void *data)
{
	const char *base = strrchr(info->dlpi_name, '/');

	(void)size;
	if (base && !strncmp(base, "/libc.so", 8)) {
		*(struct dl_phdr_info *)data = *info;
		return 1;
	}
	return 0;
}

static void copy_file(const char *from, const char *dir, const char *name);
static void write_file(const char *path, const void *data, size_t len);

/* dir/name, a copy of the file at from. */
static void copy_file(const char *from, const char *dir, const char *name)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	ck_assert_int_ge(in, 0);
	out = open(fmt("%s/%s", dir, name), O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ck_assert_int_ge(out, 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		ck_assert_int_eq(write(out, buf, (size_t)n), n);
	close(in);
	close(out);
}

static void write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
}

/* The program's own dynamic section, and its libraries as ld.so finds them. */
START_TEST(test_dyn_read)
{
	dwarfx_dyn d = DWARFX_DYN_INIT;
	dwarfx_ldpath *lp = dwarfx_ldpath_new(NULL, NULL);
	rg_err err = RG_ERR_INIT;
	char **libs;
	size_t n, i;
	bool libc = false;

	ck_assert_int_eq(dwarfx_dyn_read(FX_PIE, &d, &err), 0);
	ck_assert_ptr_nonnull(d.interp);
	ck_assert(ends_with(d.interp, "ld-linux-x86-64.so.2"));
	ck_assert_uint_ne(d.dyn_vaddr, 0);
	for (i = 0; i < d.nneeded; i++)
		libc |= !strcmp(d.needed[i], "libc.so.6");
	ck_assert(libc);
	dwarfx_dyn_release(&d);
	n = dwarfx_needed_closure(lp, FX_PIE, 512, &libs);
	ck_assert_uint_ge(n, 1);
	for (i = 0, libc = false; i < n; i++) {
		ck_assert_msg(libs[i][0] == '/', "%s: not absolute", libs[i]);
		libc |= strstr(libs[i], "/libc.so") != NULL;
		free(libs[i]);
	}
	free(libs);
	ck_assert(libc);
	/* no section headers (sstrip): the PT_DYNAMIC segment, as ld.so reads it */
	{
		char tmpl[] = "/tmp/rg_dyn_XXXXXX", *dir = mkdtemp(tmpl);
		Elf64_Ehdr eh;
		int fd;

		ck_assert_ptr_nonnull(dir);
		copy_file(FX_PIE, dir, "noshdr");
		fd = open(fmt("%s/noshdr", dir), O_RDWR);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(pread(fd, &eh, sizeof(eh), 0), (ssize_t)sizeof(eh));
		eh.e_shoff = 0;
		eh.e_shnum = 0;
		eh.e_shstrndx = 0;
		ck_assert_int_eq(pwrite(fd, &eh, sizeof(eh), 0), (ssize_t)sizeof(eh));
		close(fd);
		ck_assert_int_eq(dwarfx_dyn_read(fmt("%s/noshdr", dir), &d, &err), 0);
		for (i = 0, libc = false; i < d.nneeded; i++)
			libc |= !strcmp(d.needed[i], "libc.so.6");
		ck_assert(libc);
		ck_assert_ptr_nonnull(d.interp);
		dwarfx_dyn_release(&d);
		unlink(fmt("%s/noshdr", dir));
		rmdir(dir);
	}
	/* not ELF: an error, and nothing in it */
	ck_assert_int_lt(dwarfx_dyn_read(SRC("main.c"), &d, &err), 0);
	ck_assert_uint_eq(d.nneeded, 0);
	dwarfx_dyn_release(&d);
	dwarfx_ldpath_free(lp);
}
END_TEST

/*
 * ld.so's order: DT_RPATH (only without DT_RUNPATH), LD_LIBRARY_PATH,
 * DT_RUNPATH, ld.so.cache, the defaults; $ORIGIN is the needing object's
 * directory; a file that is not x86-64 ELF is passed over.
 */
START_TEST(test_dyn_search)
{
	char tmpl[] = "/tmp/rg_dyn_XXXXXX", top[PATH_MAX], *dir, *got;
	const char *subs[] = {"rp", "llp", "run", "bad"};
	dwarfx_dyn d = DWARFX_DYN_INIT;
	dwarfx_ldpath *lp;
	unsigned char cache[256] = "glibc-ld.so.cache1.1";
	uint32_t one = 1, key = 80, value = 100;
	int32_t flags = 0x0303;
	size_t i;

	ck_assert_ptr_nonnull(dir = mkdtemp(tmpl));
	ck_assert_ptr_nonnull(realpath(dir, top));
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(mkdir(fmt("%s/%s", top, subs[i]), 0755), 0);
		if (i < 3)
			copy_file(FX_PIE, fmt("%s/%s", top, subs[i]), "libx.so.1");
	}
	write_file(fmt("%s/bad/libx.so.1", top), "not elf", 7);
	d.rpath = "$ORIGIN/rp";
	lp = dwarfx_ldpath_new(fmt("%s/llp", top), NULL);
	got = dwarfx_ldpath_find(lp, "libx.so.1", &d, fmt("%s/prog", top));
	ck_assert_str_eq(got, fmt("%s/rp/libx.so.1", top));
	free(got);
	d.runpath = "${ORIGIN}/bad:$ORIGIN/run";   /* RPATH no longer counts */
	got = dwarfx_ldpath_find(lp, "libx.so.1", &d, fmt("%s/prog", top));
	ck_assert_str_eq(got, fmt("%s/llp/libx.so.1", top));
	free(got);
	dwarfx_ldpath_free(lp);
	/* the cache: one entry, "libcached.so.1" -> run/libx.so.1 */
	memcpy(cache + 20, &one, 4);
	memcpy(cache + 48, &flags, 4);
	memcpy(cache + 52, &key, 4);
	memcpy(cache + 56, &value, 4);
	strcpy((char *)cache + key, "libcached.so.1");
	ck_assert_uint_lt(strlen(top) + 16, sizeof(cache) - value);
	memcpy(cache + value, fmt("%s/run/libx.so.1", top), strlen(top) + 16);
	write_file(fmt("%s/cache", top), cache, sizeof(cache));
	lp = dwarfx_ldpath_new(NULL, fmt("%s/cache", top));
	got = dwarfx_ldpath_find(lp, "libx.so.1", &d, fmt("%s/prog", top));
	ck_assert_str_eq(got, fmt("%s/run/libx.so.1", top));
	free(got);
	d.runpath = NULL;
	d.rpath = NULL;
	got = dwarfx_ldpath_find(lp, "libcached.so.1", &d, fmt("%s/prog", top));
	ck_assert_str_eq(got, fmt("%s/run/libx.so.1", top));
	free(got);
	ck_assert_ptr_null(dwarfx_ldpath_find(lp, "libnosuch-rg.so.9", &d, "prog"));
	got = dwarfx_ldpath_find(lp, fmt("%s/rp/libx.so.1", top), &d, "prog");
	ck_assert_str_eq(got, fmt("%s/rp/libx.so.1", top));
	free(got);
	ck_assert_ptr_null(dwarfx_ldpath_find(lp, fmt("%s/bad/libx.so.1", top), &d, "prog"));
	dwarfx_ldpath_free(lp);
	for (i = 0; i < 4; i++) {
		unlink(fmt("%s/%s/libx.so.1", top, subs[i]));
		rmdir(fmt("%s/%s", top, subs[i]));
	}
	unlink(fmt("%s/cache", top));
	rmdir(top);
}
END_TEST

START_TEST(test_libc)
{
	struct dl_phdr_info libc = {0};
	uint64_t addrs[4], want;
	dwarfx *dx;
	dwarfx_loc *l;
	void *h, *fn;
	size_t n;

	ck_assert_msg(dl_iterate_phdr(find_libc, &libc), "libc is not loaded");
	/* where the dynamic linker put libc's own pthread_create, unbiased */
	h = dlopen(libc.dlpi_name, RTLD_NOW | RTLD_NOLOAD);
	ck_assert_ptr_nonnull(h);
	fn = dlsym(h, "pthread_create");
	ck_assert_ptr_nonnull(fn);
	want = (uint64_t)(uintptr_t)fn - libc.dlpi_addr;
	dlclose(h);

	dx = open_ok(libc.dlpi_name);
	ck_assert(dwarfx_is_pie(dx));
	l = resolve_ok(dx, "pthread_create", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(l[0].addr, want);
	ck_assert_str_eq(l[0].function, "pthread_create");
	free(l);
	l = resolve_ok(dx, "*pthread_create", &n);
	ck_assert_uint_eq(l[0].addr, want);
	free(l);
	/* two versions (GLIBC_2.2.5, GLIBC_2.34), one address */
	ck_assert_uint_eq(dwarfx_symbol_addrs(dx, "pthread_create", addrs, 4), 1);
	ck_assert_uint_eq(addrs[0], want);
	ck_assert_str_eq(dwarfx_symbol_at(dx, want), "pthread_create");
	ck_assert_contains(resolve_err(dx, "phtread_create"),
			   "(did you mean 'pthread_create'?)");
	/* x86_64 glibc's memcpy is an ifunc: its symbol is the resolver */
	ck_assert_contains(resolve_err(dx, "memcpy"), "indirect function (ifunc)");
	dwarfx_free(dx);
}
END_TEST

START_TEST(test_versions)
{
	const char *nm = LISTING("dwarf_fx_lib", ".nm");
	struct nm_sym v1 = nm_lookup(nm, "fx_versioned@FX_1");
	struct nm_sym v2 = nm_lookup(nm, "fx_versioned@@FX_2");
	int work = marker_line(SRC("lib.c"), "lib-work");
	dwarfx *dx = open_ok(FX_LIB);
	uint64_t addrs[4];
	dwarfx_loc *l;
	size_t n;

	ck_assert(dwarfx_is_pie(dx));
	ck_assert(dwarfx_has_debug_info(dx));
	ck_assert_uint_ne(v1.addr, v2.addr);
	ck_assert_uint_eq(dwarfx_symbol_addrs(dx, "fx_versioned", NULL, 0), 2);
	ck_assert_uint_eq(dwarfx_symbol_addrs(dx, "fx_versioned", addrs, 1), 2);
	ck_assert_uint_eq(dwarfx_symbol_addrs(dx, "fx_versioned", addrs, 4), 2);
	ck_assert((addrs[0] == v1.addr && addrs[1] == v2.addr) ||
		  (addrs[0] == v2.addr && addrs[1] == v1.addr));
	ck_assert_uint_eq(dwarfx_symbol_addrs(dx, "fx_versioned@@FX_2", addrs, 4), 0);
	ck_assert_uint_eq(dwarfx_symbol_addrs(dx, "no_such_symbol", addrs, 4), 0);
	ck_assert_str_eq(dwarfx_symbol_at(dx, v2.addr), "fx_versioned");

	l = resolve_ok(dx, "*fx_versioned", &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(l[0].addr, v1.addr < v2.addr ? v1.addr : v2.addr);
	ck_assert_uint_eq(l[1].addr, v1.addr < v2.addr ? v2.addr : v1.addr);
	free(l);

	l = resolve_ok(dx, fmt("lib.c:%d", work), &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(l[0].function, "fx_lib_work");
	ck_assert(in_sym(l[0].addr, nm_lookup(nm, "fx_lib_work")));
	free(l);
	dwarfx_free(dx);
}
END_TEST

/* ---- optimised builds: -Og instances, lines the compiler removed ---- */

static const char *const opt_progs[] = {FX_INLINE, FX_INLINE_OG};
static const char *const opt_flags[] = {"-O2", "-Og"};

START_TEST(test_optimised_away)
{
	int dead = marker_line(SRC("inline.c"), "dead-branch");
	int test = marker_line(SRC("inline.c"), "dead-test");
	int after = marker_line(SRC("inline.c"), "dead-after");
	int body = marker_line(SRC("inline.c"), "inline-body");
	dwarfx *dx = open_ok(opt_progs[_i]);
	dwarfx_loc *l;
	size_t n;

	ck_assert_str_eq(resolve_err(dx, fmt("inline.c:%d", dead)),
			 fmt("cannot resolve 'inline.c:%d': no code on this line "
			     "(built with %s: the compiler may have optimised it "
			     "away; nearest lines with code: %d, %d)", dead,
			     opt_flags[_i], test, after));
	/* a comment line is not "optimised away" even in an -O2 build */
	ck_assert_contains(resolve_err(dx, "inline.c:2"), "no code on this line (nearest: ");
	/* every inlined copy is armed, at -Og as at -O2 */
	l = resolve_ok(dx, fmt("inline.c:%d", body), &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(l[0].function, "add_twice");
	ck_assert_str_eq(l[1].function, "add_twice");
	free(l);
	dwarfx_free(dx);
}
END_TEST

/*
 * A function-scoped anchor finds what the file-scoped one finds, in every
 * copy, though optimised code puts the line's first row at the same
 * address as the rows before it; inlined entries say they are inlined.
 */
START_TEST(test_optimised_function_anchor)
{
	static const char *const anchors[] = {"@inline-body", "@scale-body",
					      "@first-call", "@second-call"};
	static const char *const fns[] = {"add_twice", "scale", "first", "second"};
	dwarfx *dx = open_ok(opt_progs[_i]);
	dwarfx_loc *a, *b;
	size_t na, nb, k, j;

	for (k = 0; k < 4; k++) {
		a = resolve_ok(dx, fmt("inline.c:/%s/", anchors[k]), &na);
		b = resolve_ok(dx, fmt("%s:/%s/", fns[k], anchors[k]), &nb);
		ck_assert_uint_eq(na, nb);
		for (j = 0; j < na; j++)
			ck_assert_uint_eq(a[j].addr, b[j].addr);
		free(a);
		free(b);
	}
	a = resolve_ok(dx, "*add_twice", &na);
	ck_assert_uint_eq(na, 2);
	ck_assert(a[0].inlined && a[1].inlined);
	free(a);
	a = resolve_ok(dx, "*first", &na);
	ck_assert(!a[0].inlined);
	free(a);
	dwarfx_free(dx);
}
END_TEST

/* ---- regex anchors ---- */

START_TEST(test_anchor_file)
{
	int sink = marker_line(SRC("main.c"), "worker-sink");
	int nocode = marker_line(SRC("main.c"), "worker-nocode");
	int first = marker_line(SRC("main.c"), "worker-first");
	dwarfx *dx = open_ok(FX_PIE);
	dwarfx_loc *a, *b;
	size_t na, nb;
	const char *msg;

	a = resolve_ok(dx, "main.c:/@worker-sink/", &na);
	b = resolve_ok(dx, fmt("main.c:%d", sink), &nb);
	ck_assert_uint_eq(na, 1);
	ck_assert_uint_eq(a[0].addr, b[0].addr);
	ck_assert_int_eq(a[0].line, sink);
	free(a);
	free(b);
	/* ERE: an escaped '+', alternation, anchors */
	a = resolve_ok(dx, "main.c:/sink \\+= y;/", &na);
	ck_assert_int_eq(a[0].line, sink);
	free(a);
	a = resolve_ok(dx, "a/util.c:/@util-a \\*/$|nothing/", &na);
	ck_assert_str_eq(a[0].function, "util_a");
	free(a);

	ck_assert_str_eq(resolve_err(dx, "main.c:/@worker-nocode/"),
			 fmt("cannot resolve 'main.c:/@worker-nocode/': the matching "
			     "line, main.c:%d '/* @worker-nocode */', has no code "
			     "(nearest: %d, %d)", nocode, first, sink));
	msg = resolve_err(dx, "main.c:/sink/");
	ck_assert_contains(msg, "cannot resolve 'main.c:/sink/': /sink/ matches ");
	ck_assert_contains(msg, fmt("main.c:%d 'sink += y;\t/* @worker-sink */'", sink));
	ck_assert_contains(msg, "(an anchor must match exactly one)");
	ck_assert_str_eq(resolve_err(dx, "main.c:/no such text/"),
			 "cannot resolve 'main.c:/no such text/': no line of file "
			 "'main.c' matches /no such text/");
	ck_assert_contains(resolve_err(dx, "main.c:/(/"), "bad regular expression /(/");
	ck_assert_contains(resolve_err(dx, "util.c:/x/"), "matches 2 files");
	ck_assert_contains(resolve_err(dx, "nosuch.c:/x/"), "no source file 'nosuch.c'");
	dwarfx_free(dx);
}
END_TEST

START_TEST(test_anchor_function)
{
	int sink = marker_line(SRC("main.c"), "worker-sink");
	int loop = marker_line(SRC("main.c"), "loop-for");
	dwarfx *dx = open_ok(FX_NOPIE);
	dwarfx_loc *l;
	size_t n;

	/* "sink" is on several lines of main.c, one of worker */
	l = resolve_ok(dx, "worker:/sink/", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(l[0].line, sink);
	ck_assert_str_eq(l[0].function, "worker");
	free(l);
	l = resolve_ok(dx, "loop_sum:/for \\(/", &n);
	ck_assert_int_eq(l[0].line, loop);
	free(l);
	ck_assert_str_eq(resolve_err(dx, "worker:/@loop-for/"),
			 "cannot resolve 'worker:/@loop-for/': no line of function "
			 "'worker' matches /@loop-for/");
	ck_assert_contains(resolve_err(dx, "wroker:/x/"), "(did you mean 'worker'?)");
	dwarfx_free(dx);
}
END_TEST

/* The sources moved: --source-dir says where they are now. */
START_TEST(test_source_dir)
{
	int sink = marker_line(SRC("main.c"), "worker-sink");
	char *dir = xasprintf("%s/srcdir.%d", FX_OUT_DIR, (int)getpid());
	char *path = xasprintf("%s/main.c", dir);
	dwarfx *dx = open_ok(FX_PIE);
	dwarfx_loc *l;
	FILE *f;
	size_t n;

	ck_assert_int_eq(mkdir(dir, 0700), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	for (int i = 1; i < sink; i++)
		fputs("\n", f);
	fputs("MOVED HERE\n", f);
	fclose(f);
	dwarfx_set_source_dir(dx, dir);
	l = resolve_ok(dx, "main.c:/MOVED/", &n);
	ck_assert_int_eq(l[0].line, sink);
	free(l);
	ck_assert_contains(resolve_err(dx, "a/util.c:/@util-a/"),
			   fmt("cannot find the source file '%s' under '%s'",
			       SRC("a/util.c"), dir));
	dwarfx_set_source_dir(dx, NULL);
	ck_assert_contains(resolve_err(dx, "main.c:/MOVED/"), "no line of file");
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
	dwarfx_free(dx);
}
END_TEST

/* ---- instruction offsets ---- */

START_TEST(test_insn_offsets)
{
	const struct prog *p = &progs[_i];
	int sink = marker_line(SRC("main.c"), "worker-sink");
	struct nm_sym w = nm_lookup(p->nm, "worker");
	dwarfx *dx = open_ok(p->path);
	dwarfx_loc *l, *line;
	uint64_t last;
	size_t n, k, count;
	const char *msg;
	char *end;

	/* `sink += y` at -O0: loads, an add, a store */
	line = resolve_ok(dx, fmt("main.c:%d", sink), &n);
	msg = resolve_err(dx, fmt("main.c:%d+99", sink));
	ck_assert_contains(msg, fmt("cannot resolve 'main.c:%d+99': line %d has ",
				    sink, sink));
	count = strtoul(strstr(msg, " has ") + 5, &end, 10);
	ck_assert_str_eq(end, fmt(" instructions in worker (+0 to +%zu)", count - 1));
	ck_assert_uint_ge(count, 3);
	last = 0;
	for (k = 0; k < count; k++) {
		l = resolve_ok(dx, fmt("main.c:%d+%zu", sink, k), &n);
		ck_assert_uint_eq(n, 1);
		if (k == 0)
			ck_assert_uint_eq(l[0].addr, line[0].addr);
		else
			ck_assert_uint_gt(l[0].addr, last);
		ck_assert(in_sym(l[0].addr, w));
		ck_assert_int_eq(l[0].line, sink);
		last = l[0].addr;
		free(l);
	}
	ck_assert_contains(resolve_err(dx, fmt("main.c:%d+%zu", sink, count)),
			   fmt("(+0 to +%zu)", count - 1));
	/* the anchor form takes an offset too */
	l = resolve_ok(dx, fmt("main.c:/@worker-sink/+%zu", count - 1), &n);
	ck_assert_uint_eq(l[0].addr, last);
	free(l);
	free(line);

	l = resolve_ok(dx, "*worker+0", &n);
	ck_assert_uint_eq(l[0].addr, w.addr);
	free(l);
	l = resolve_ok(dx, "*worker+1", &n);
	ck_assert_uint_gt(l[0].addr, w.addr);
	ck_assert(in_sym(l[0].addr, w));
	free(l);
	msg = resolve_err(dx, "*worker+100000");
	ck_assert_contains(msg, "cannot resolve '*worker+100000': worker has ");
	ck_assert_contains(msg, " instructions (+0 to +");
	ck_assert_str_eq(resolve_err(dx, "worker+1"),
			 "cannot resolve 'worker+1': an instruction offset goes "
			 "after '*FUNCTION' or 'FILE:LINE' (write '*worker+1')");
	dwarfx_free(dx);
}
END_TEST

/* ---- instruction boundaries ---- */

/*
 * The instruction starts objdump lists in [lo, hi) (an "objdump -d
 * --no-show-raw-insn" listing: one "  addr:\tinsn" line each); returns how
 * many, at most max.
 */
static size_t objdump_starts(const char *listing, uint64_t lo, uint64_t hi,
			     uint64_t *out, size_t max)
{
	FILE *f = fopen(listing, "r");
	char buf[1024];
	size_t n = 0;

	ck_assert_msg(f != NULL, "cannot open %s", listing);
	while (fgets(buf, sizeof(buf), f)) {
		char *end;
		uint64_t a = strtoull(buf, &end, 16);

		if (end == buf || *end != ':' || end[1] != '\t' || a < lo || a >= hi)
			continue;
		ck_assert_uint_lt(n, max);
		out[n++] = a;
	}
	fclose(f);
	return n;
}

/* Every byte of worker, against objdump: a boundary exactly where it says. */
START_TEST(test_boundaries)
{
	const struct prog *p = &progs[_i];
	struct nm_sym w = nm_lookup(p->nm, "worker");
	const char *dis = _i ? LISTING("dwarf_fx_nopie", ".dis") :
			  LISTING("dwarf_fx_pie", ".dis");
	uint64_t starts[512], a;
	size_t n = objdump_starts(dis, w.addr, w.addr + w.size, starts, 512), k = 0;
	dwarfx *dx = open_ok(p->path);
	dwarfx_loc *l;
	bool refused = false;
	size_t nl;

	ck_assert_uint_ge(n, 4);
	for (a = w.addr; a < w.addr + w.size; a++) {
		dwarfx_insn_at at;
		enum dwarfx_bound b = dwarfx_boundary(dx, a, &at);

		if (k + 1 < n && a == starts[k + 1])
			k++;
		if (a == starts[k]) {
			ck_assert_msg(b == DWARFX_BOUNDARY, "0x%llx: %s",
				      (unsigned long long)a, at.why);
			continue;
		}
		ck_assert_int_eq(b, DWARFX_INSIDE);
		ck_assert_uint_eq(at.insn, starts[k]);
		ck_assert_uint_eq(at.len, (k + 1 < n ? starts[k + 1] : w.addr + w.size) -
				  starts[k]);
		ck_assert_uint_eq(at.from, w.addr);
		ck_assert_str_eq(at.function, "worker");
		ck_assert_contains(at.why, fmt("0x%llx is inside '", (unsigned long long)a));
		ck_assert_contains(at.why, fmt("' at 0x%llx (%u bytes); boundaries: "
					       "0x%llx, 0x%llx", (unsigned long long)at.insn,
					       at.len, (unsigned long long)at.insn,
					       (unsigned long long)(at.insn + at.len)));
		/* *0xADDR there is refused with the same words */
		if (!refused) {
			const char *msg = resolve_err(dx, fmt("*0x%llx", (unsigned long long)a));

			ck_assert_str_eq(msg, fmt("cannot resolve '*0x%llx': %s",
						  (unsigned long long)a, at.why));
			refused = true;
		}
	}
	ck_assert(refused);
	l = resolve_ok(dx, fmt("*0x%llx", (unsigned long long)starts[1]), &nl);
	ck_assert_uint_eq(l[0].addr, starts[1]);
	free(l);
	/* a function's start is one */
	a = nm_lookup(p->nm, "_start").addr;
	ck_assert_uint_eq(dwarfx_boundary(dx, a, &(dwarfx_insn_at){0}), DWARFX_BOUNDARY);
	dwarfx_free(dx);
}
END_TEST

/*
 * Stripped of symbols and DWARF, the unwind tables (.eh_frame_hdr) still
 * say where functions start; where nothing does, an address is refused.
 */
START_TEST(test_boundary_stripped)
{
	const char *nm = LISTING("dwarf_fx_nodebug", ".nm");
	const char *path = FX_OUT_DIR "/dwarf_fx_nodebug.stripped";
	uint64_t m = nm_lookup(nm, "main").addr, init = nm_lookup(nm, "_init").addr;
	dwarfx *dx = open_ok(path);
	dwarfx_insn_at at;

	ck_assert_int_eq(dwarfx_symbol_addrs(dx, "main", NULL, 0), 0);
	/* main: push rbp (1 byte), mov rbp, rsp (3 bytes), ... */
	ck_assert_int_eq(dwarfx_boundary(dx, m + 1, &at), DWARFX_BOUNDARY);
	ck_assert_int_eq(dwarfx_boundary(dx, m + 2, &at), DWARFX_INSIDE);
	ck_assert_uint_eq(at.from, m);
	ck_assert_uint_eq(at.insn, m + 1);
	ck_assert_uint_eq(at.len, 3);
	/* _init has no unwind information */
	ck_assert_int_eq(dwarfx_boundary(dx, init + 4, &at), DWARFX_UNCHECKED);
	ck_assert_str_eq(resolve_err(dx, fmt("*0x%llx", (unsigned long long)init + 4)),
			 fmt("cannot resolve '*0x%llx': cannot tell whether 0x%llx "
			     "starts an instruction: no function of '%s' holds it (in its "
			     "symbols, debug information or unwind tables)",
			     (unsigned long long)init + 4, (unsigned long long)init + 4, path));
	dwarfx_free(dx);
}
END_TEST

/* Warnings dwarfx_take_warnings hands over: how many, and the first. */
static size_t take_warnings(dwarfx *dx, char *first, size_t len)
{
	char **w;
	size_t n = dwarfx_take_warnings(dx, &w), i;

	if (first)
		snprintf(first, len, "%s", n ? w[0] : "");
	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
	return n;
}

static int note_lines(const dwarfx_line_info *li, void *arg)
{
	rg_buf *b = arg;

	rg_buf_printf(b, "%d@0x%llx ", li->line, (unsigned long long)li->addr);
	return 0;
}

/*
 * rowfix.s: line rows and a symbol inside movabs instructions (offsets
 * from main are fixed by the hand-written code: see the fixture).
 */
START_TEST(test_rows_inside)
{
	const char *nm = LISTING("dwarf_fx_rowfix", ".nm");
	uint64_t m = nm_lookup(nm, "main").addr, in = nm_lookup(nm, "inside").addr, u;
	dwarfx *dx = open_ok(FX_ROWFIX);
	dwarfx_insn_at at;
	rg_err err = RG_ERR_INIT;
	rg_buf b = RG_BUF_INIT;
	char warn[1024];
	dwarfx_loc *l;
	size_t n;

	ck_assert_uint_eq(in, m + 4);
	/* line 15's only row is inside the movabs at main+1 */
	ck_assert_str_eq(resolve_err(dx, "rowfix.s:15"),
			 fmt("cannot resolve 'rowfix.s:15': every line table row of "
			     "this line is off an instruction boundary (corrupt debug "
			     "information in '%s'?)", FX_ROWFIX));
	ck_assert_uint_eq(take_warnings(dx, warn, sizeof(warn)), 1);
	ck_assert_str_eq(warn, fmt("ignoring the line table row of 'rowfix.s:15' at "
				   "0x%llx in '%s' (corrupt debug information?): 0x%llx "
				   "is inside 'movabs rax, 0x9090909090909090' at 0x%llx "
				   "(10 bytes); boundaries: 0x%llx, 0x%llx",
				   (unsigned long long)m + 3, FX_ROWFIX,
				   (unsigned long long)m + 3, (unsigned long long)m + 1,
				   (unsigned long long)m + 1, (unsigned long long)m + 11));
	/* said once per row */
	resolve_err(dx, "rowfix.s:15");
	ck_assert_uint_eq(take_warnings(dx, NULL, 0), 0);
	/* line 23: the row inside the movabs at main+11 is skipped for the next one */
	l = resolve_ok(dx, "rowfix.s:23", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(l[0].addr, m + 26);
	free(l);
	ck_assert_uint_eq(take_warnings(dx, warn, sizeof(warn)), 1);
	ck_assert_contains(warn, fmt("'rowfix.s:23' at 0x%llx", (unsigned long long)m + 13));
	/* `racegate lines` leaves line 15 out */
	ck_assert_int_eq(dwarfx_lines(dx, "rowfix.s", 0, 0, note_lines, &b, &err), 0);
	ck_assert_str_eq(b.s, fmt("11@0x%llx 23@0x%llx 26@0x%llx 31@0x%llx ",
				  (unsigned long long)m, (unsigned long long)m + 26,
				  (unsigned long long)m + 21, (unsigned long long)m + 27));
	rg_buf_release(&b);
	/* a function symbol inside an instruction starts nothing: *F, *F+N refused */
	ck_assert_contains(resolve_err(dx, "*inside"),
			   fmt("cannot resolve '*inside': 0x%llx is inside 'movabs rax, "
			       "0x9090909090909090' at 0x%llx (10 bytes)",
			       (unsigned long long)in, (unsigned long long)m + 1));
	ck_assert_contains(resolve_err(dx, "*inside+2"),
			   fmt("cannot resolve '*inside+2': 0x%llx is inside 'movabs",
			       (unsigned long long)in + 2));
	ck_assert_contains(resolve_err(dx, "inside"), "is inside 'movabs");
	/* decoded from main's start, +N lands on main's real instructions */
	l = resolve_ok(dx, "*main+2", &n);
	ck_assert_uint_eq(l[0].addr, m + 11);
	free(l);
	/* past bytes that decode as nothing, nothing can be told */
	u = nm_lookup(nm, "unknown_insn").addr;
	l = resolve_ok(dx, "*unknown_insn", &n);
	ck_assert_uint_eq(l[0].addr, u);
	free(l);
	ck_assert_int_eq(dwarfx_boundary(dx, u + 1, &at), DWARFX_UNCHECKED);
	ck_assert_str_eq(resolve_err(dx, fmt("*0x%llx", (unsigned long long)u + 2)),
			 fmt("cannot resolve '*0x%llx': cannot tell whether 0x%llx starts "
			     "an instruction: the code of '%s' from 0x%llx decodes only up "
			     "to 0x%llx", (unsigned long long)u + 2, (unsigned long long)u + 2,
			     FX_ROWFIX, (unsigned long long)u, (unsigned long long)u + 1));
	dwarfx_free(dx);
}
END_TEST

/*
 * Every function symbol of the C library (hand-written assembly, entries
 * inside other functions, AVX-512 the decoder may not know) starts an
 * instruction as racegate decodes it: never refused as INSIDE.
 */
START_TEST(test_libc_boundaries)
{
	struct dl_phdr_info libc = {0};
	char cmd[1024], line[1024];
	size_t nsyms = 0, unchecked = 0;
	dwarfx *dx;
	FILE *f;

	ck_assert_msg(dl_iterate_phdr(find_libc, &libc), "libc is not loaded");
	dx = open_ok(libc.dlpi_name);
	snprintf(cmd, sizeof(cmd), "'%s' -D --defined-only '%s'", FX_NM, libc.dlpi_name);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		char a[64], t[8], name[512];
		dwarfx_insn_at at;
		enum dwarfx_bound b;

		if (sscanf(line, "%63s %7s %511s", a, t, name) != 3 ||
		    (strcmp(t, "T") && strcmp(t, "t") && strcmp(t, "W")))
			continue;
		b = dwarfx_boundary(dx, strtoull(a, NULL, 16), &at);
		ck_assert_msg(b != DWARFX_INSIDE, "%s: %s", name, at.why);
		unchecked += b == DWARFX_UNCHECKED;
		nsyms++;
	}
	pclose(f);
	ck_assert_uint_gt(nsyms, 1000);
	ck_assert_uint_eq(unchecked, 0);
	dwarfx_free(dx);
}
END_TEST

/* ---- C++ ---- */

START_TEST(test_cxx_names)
{
	int push_int = marker_line(SRC("cxx.cpp"), "push-int");
	int push_str = marker_line(SRC("cxx.cpp"), "push-str");
	int size = marker_line(SRC("cxx.cpp"), "size");
	int drain = marker_line(SRC("cxx.cpp"), "drain");
	int stack = marker_line(SRC("cxx.cpp"), "stack-push");
	dwarfx *dx = open_ok(FX_CXX);
	dwarfx_loc *l;
	size_t n;
	const char *msg;

	l = resolve_ok(dx, "store::Queue::size", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(l[0].line, size);
	ck_assert_str_eq(l[0].function, "store::Queue::size");
	free(l);
	/* a tail of the qualified name, or the bare name, when unambiguous */
	l = resolve_ok(dx, "Queue::size", &n);
	ck_assert_int_eq(l[0].line, size);
	free(l);
	l = resolve_ok(dx, "drain", &n);
	ck_assert_int_eq(l[0].line, drain);
	ck_assert_str_eq(l[0].function, "store::drain");
	free(l);
	l = resolve_ok(dx, "Stack::push", &n);
	ck_assert_int_eq(l[0].line, stack);
	free(l);
	/* overloads: an error listing them, then the one with its parameters */
	ck_assert_str_eq(resolve_err(dx, "Queue::push"),
			 "cannot resolve 'Queue::push': 'Queue::push' is overloaded: "
			 "2 functions: store::Queue::push(int), "
			 "store::Queue::push(char const*) (write one of them, with "
			 "its parameter types)");
	msg = resolve_err(dx, "push");
	ck_assert_contains(msg, "cannot resolve 'push': 'push' names 3 functions: ");
	ck_assert_contains(msg, "Stack::push(int)");
	l = resolve_ok(dx, "Queue::push(int)", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(l[0].line, push_int);
	free(l);
	l = resolve_ok(dx, "store::Queue::push(char const *)", &n);
	ck_assert_int_eq(l[0].line, push_str);
	free(l);
	l = resolve_ok(dx, "*Queue::push(int)", &n);
	ck_assert_int_lt(l[0].line, push_int);
	free(l);
	ck_assert_contains(resolve_err(dx, "Queue::push(long)"), "no function");
	/* anchors inside a method */
	l = resolve_ok(dx, "Queue::push(int):/n \\+=/", &n);
	ck_assert_int_eq(l[0].line, push_int);
	free(l);
	ck_assert_contains(resolve_err(dx, "Queue::push:/n/"), "is overloaded");
	/* file lines report the qualified name */
	l = resolve_ok(dx, fmt("cxx.cpp:%d", push_str), &n);
	ck_assert_str_eq(l[0].function, "store::Queue::push");
	free(l);
	dwarfx_free(dx);
}
END_TEST

/* C++ as people write it: templates by their bare name, std::string, lambdas. */
START_TEST(test_cxx_written)
{
	int box_put = marker_line(SRC("cxx.cpp"), "box-put");
	int note_int = marker_line(SRC("cxx.cpp"), "note-int");
	int note_str = marker_line(SRC("cxx.cpp"), "note-str");
	int lambda = marker_line(SRC("cxx.cpp"), "lambda-body");
	dwarfx *dx = open_ok(FX_CXX);
	dwarfx_loc *l;
	size_t n;

	/* every instantiation, each named in full */
	l = resolve_ok(dx, "Box::put", &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(l[0].line, box_put);
	ck_assert_int_eq(l[1].line, box_put);
	ck_assert(!strcmp(l[0].function, "Box<int>::put") ||
		  !strcmp(l[1].function, "Box<int>::put"));
	ck_assert(strstr(l[0].function, "basic_string") ||
		  strstr(l[1].function, "basic_string"));
	free(l);
	l = resolve_ok(dx, "Box::put(const int &)", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(l[0].function, "Box<int>::put");
	free(l);
	/* one instantiation, with std::string as written */
	l = resolve_ok(dx, "Box<std::string>::put", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(l[0].line, box_put);
	ck_assert_ptr_nonnull(strstr(l[0].function, "basic_string"));
	free(l);
	l = resolve_ok(dx, "Box<int>::put", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(l[0].function, "Box<int>::put");
	free(l);
	/* static overloads: told apart by their symbols' parameter types */
	ck_assert_contains(resolve_err(dx, "note"), "'note' is overloaded: 2 functions");
	l = resolve_ok(dx, "note(std::string)", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(l[0].line, note_str);
	free(l);
	l = resolve_ok(dx, "note(int)", &n);
	ck_assert_int_eq(l[0].line, note_int);
	free(l);
	l = resolve_ok(dx, "note(std::string):/printf/", &n);
	ck_assert_int_eq(l[0].line, note_str);
	free(l);
	/* a lambda's body: its closure's operator(), named as demangled */
	l = resolve_ok(dx, "main::{lambda(int)#1}::operator()", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(l[0].line, lambda);
	ck_assert_str_eq(l[0].function, "main::{lambda(int)#1}::operator()");
	free(l);
	l = resolve_ok(dx, fmt("cxx.cpp:%d", lambda), &n);
	ck_assert_str_eq(l[0].function, "main::{lambda(int)#1}::operator()");
	free(l);
	dwarfx_free(dx);
}
END_TEST

/* What threads are named by ({start:}, {runs:}): names, lines, code. */
START_TEST(test_cxx_start_names)
{
	int push_int = marker_line(SRC("cxx.cpp"), "push-int");
	int size = marker_line(SRC("cxx.cpp"), "size");
	int lambda = marker_line(SRC("cxx.cpp"), "lambda-body");
	dwarfx *dx = open_ok(FX_CXX);
	dwarfx_routine *r;
	dwarfx_span *code;
	const char **names;
	dwarfx_loc *l;
	rg_err err = RG_ERR_INIT;
	size_t n, i;
	bool in;

	/* a function with its parameter types, as the demangler writes them */
	l = resolve_ok(dx, "*Queue::push(int)", &n);
	ck_assert_str_eq(dwarfx_start_name_at(dx, l[0].addr), "store::Queue::push(int)");
	free(l);
	l = resolve_ok(dx, "*main", &n);
	ck_assert_str_eq(dwarfx_start_name_at(dx, l[0].addr), "main");
	free(l);

	/* names as users write them */
	ck_assert(dwarfx_name_answers("store::Queue::push(int)", "Queue::push"));
	ck_assert(dwarfx_name_answers("store::Queue::push(int)", "push"));
	ck_assert(dwarfx_name_answers("store::Queue::push(int)", "Queue::push(int)"));
	ck_assert(!dwarfx_name_answers("store::Queue::push(int)", "Queue::push(long)"));
	ck_assert(!dwarfx_name_answers("store::Queue::push(int)", "ueue::push"));
	ck_assert(dwarfx_name_answers("store::Queue::size() const", "Queue::size()"));
	ck_assert(dwarfx_name_answers("store::Queue::push(char const*)",
				      "Queue::push(const char *)"));
	ck_assert(dwarfx_name_answers("Box<int>::put(int const&)", "Box::put"));
	ck_assert(dwarfx_name_answers("main::{lambda()#1}", "main::{lambda()#1}"));
	ck_assert(!dwarfx_name_answers("main::{lambda()#1}", "main::{lambda()#2}"));
	ck_assert(!dwarfx_name_answers("worker", "worker(int)"));

	/* what a line defines: a lambda by its line, a method by its own */
	ck_assert_int_eq(dwarfx_defined_at(dx, "cxx.cpp", lambda - 1, &names, &n, &err),
			 DWARFX_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(names[0], "main::{lambda(int)#1}");
	free(names);
	ck_assert_int_eq(dwarfx_defined_at(dx, "cxx.cpp", push_int - 2, &names, &n, &err),
			 DWARFX_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(names[0], "store::Queue::push(int)");
	free(names);
	ck_assert_int_eq(dwarfx_defined_at(dx, "cxx.cpp", push_int, &names, &n, &err),
			 DWARFX_NO_ENTRY);
	ck_assert_contains(err.msg, "no function or lambda is defined at 'cxx.cpp:");

	/* the code of a function: its body's line is in it */
	ck_assert_int_eq(dwarfx_function_code(dx, "Queue::size", &code, &n, NULL, &err),
			 DWARFX_OK);
	l = resolve_ok(dx, fmt("cxx.cpp:%d", size), &i);
	for (in = false; n--; )
		in |= l[0].addr >= code[n].lo && l[0].addr < code[n].hi;
	ck_assert(in);
	free(l);
	free(code);

	/* no thread is started here: no start routine */
	ck_assert_uint_eq(dwarfx_thread_routines(dx, &r), 0);
	dwarfx_routines_free(r, 0);
	dwarfx_free(dx);
}
END_TEST

/* ---- racegate lines ---- */

struct seen_lines {
	int line[64];
	size_t inst[64];
	const char *fn[64];
	bool text_ok[64];
	size_t n;
};

static int note_line(const dwarfx_line_info *li, void *arg)
{
	struct seen_lines *s = arg;

	ck_assert_uint_lt(s->n, 64);
	s->line[s->n] = li->line;
	s->inst[s->n] = li->instances;
	s->fn[s->n] = li->function;
	s->text_ok[s->n] = li->text && strstr(li->text, "@") != NULL;
	s->n++;
	return 0;
}

START_TEST(test_lines)
{
	int first = marker_line(SRC("main.c"), "worker-first");
	int sink = marker_line(SRC("main.c"), "worker-sink");
	int body = marker_line(SRC("inline.c"), "inline-body");
	struct seen_lines s;
	rg_err err = RG_ERR_INIT;
	dwarfx *dx = open_ok(FX_PIE);

	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(dwarfx_lines(dx, "main.c", first, sink, note_line, &s, &err), 0);
	/* the comment line between them has no code: not listed */
	ck_assert_uint_eq(s.n, 2);
	ck_assert_int_eq(s.line[0], first);
	ck_assert_int_eq(s.line[1], sink);
	ck_assert_str_eq(s.fn[0], "worker");
	ck_assert_uint_eq(s.inst[0], 1);
	ck_assert(s.text_ok[0] && s.text_ok[1]);
	/* the whole file: in order */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(dwarfx_lines(dx, "main.c", 0, 0, note_line, &s, &err), 0);
	ck_assert_uint_gt(s.n, 5);
	for (size_t i = 1; i < s.n; i++)
		ck_assert_int_lt(s.line[i - 1], s.line[i]);
	ck_assert_int_eq(dwarfx_lines(dx, "util.c", 0, 0, note_line, &s, &err), -1);
	ck_assert_contains(err.msg, "matches 2 files");
	dwarfx_free(dx);

	dx = open_ok(FX_INLINE);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(dwarfx_lines(dx, "inline.c", body, body, note_line, &s, &err), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.inst[0], 2);
	ck_assert_str_eq(s.fn[0], "add_twice");
	dwarfx_free(dx);
}
END_TEST

/* ---- lines from a header (a static inline function) ---- */

/*
 * Whether path's .debug_line is SHF_COMPRESSED: such tables are read by
 * libdwarf, the others by dwarfx_line.c.
 */
static bool debug_line_compressed(const char *path)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	Elf64_Shdr *sh, *strs;
	char *names;
	bool found = false, compressed = false;

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(&eh, sizeof(eh), 1, f), 1);
	ck_assert_uint_lt(eh.e_shstrndx, eh.e_shnum);
	sh = calloc(eh.e_shnum, sizeof(*sh));
	ck_assert_ptr_nonnull(sh);
	ck_assert_int_eq(fseek(f, (long)eh.e_shoff, SEEK_SET), 0);
	ck_assert_uint_eq(fread(sh, sizeof(*sh), eh.e_shnum, f), eh.e_shnum);
	strs = &sh[eh.e_shstrndx];
	names = calloc(1, strs->sh_size + 1);
	ck_assert_ptr_nonnull(names);
	ck_assert_int_eq(fseek(f, (long)strs->sh_offset, SEEK_SET), 0);
	ck_assert_uint_eq(fread(names, 1, strs->sh_size, f), strs->sh_size);
	for (size_t i = 0; i < eh.e_shnum; i++) {
		if (sh[i].sh_name < strs->sh_size &&
		    !strcmp(names + sh[i].sh_name, ".debug_line")) {
			found = true;
			compressed = (sh[i].sh_flags & SHF_COMPRESSED) != 0;
		}
	}
	ck_assert_msg(found, "%s has no .debug_line", path);
	free(names);
	free(sh);
	fclose(f);
	return compressed;
}

struct hdr_prog {
	const char *path, *nm;
	bool compressed;
};

static const struct hdr_prog hdr_progs[] = {
	{FX_HDR, LISTING("dwarf_fx_hdr", ".nm"), false},
	{FX_HDR4, LISTING("dwarf_fx_hdr4", ".nm"), false},
	{FX_HDR_GZ, LISTING("dwarf_fx_hdr_gz", ".nm"), true},
	{FX_HDR4_GZ, LISTING("dwarf_fx_hdr4_gz", ".nm"), true},
};

/*
 * In DWARF 5 the file register still starts at 1, but the file table
 * starts at 0 (the unit's source, which gcc repeats later).  gcc names the
 * header of hdr.c's first function by that initial 1 alone; reading it as
 * file 0 (as libdwarf 20210528 does) gave the header's rows to hdr.c: no
 * file 'hdr_inline.h', and hdr.c lines "in hdr_twice" on a comment.
 */
START_TEST(test_header_lines)
{
	const struct hdr_prog *p = &hdr_progs[_i];
	int body = marker_line(SRC("hdr_inline.h"), "hdr-body");
	int ret = marker_line(SRC("hdr_inline.h"), "hdr-return");
	int include = marker_line(SRC("hdr.c"), "hdr-include");
	int call = marker_line(SRC("hdr.c"), "hdr-call");
	struct nm_sym twice = nm_lookup(p->nm, "hdr_twice");
	struct nm_sym main_sym = nm_lookup(p->nm, "main");
	struct seen_lines s;
	rg_err err = RG_ERR_INIT;
	dwarfx_loc *l, sym;
	size_t n, i;
	bool saw_body = false, saw_ret = false;
	dwarfx *dx;

	/* the fixture: both readers, and hdr.c has no code on the header's lines */
	ck_assert_msg(debug_line_compressed(p->path) == p->compressed,
		      "%s: .debug_line %scompressed", p->path, p->compressed ? "not " : "");
	ck_assert_int_lt(ret, include);
	ck_assert(twice.found && main_sym.found);

	dx = open_ok(p->path);
	/* FILE:LINE in the header: the header's function */
	l = resolve_ok(dx, fmt("hdr_inline.h:%d", body), &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(l[0].function, "hdr_twice");
	ck_assert_int_eq(l[0].line, body);
	ck_assert(ends_with(l[0].file, "/tests/fixtures/dwarf/hdr_inline.h"));
	ck_assert(in_sym(l[0].addr, twice));
	ck_assert_int_eq(dwarfx_symbolize(dx, l[0].addr, &sym), 0);
	ck_assert_int_eq(sym.line, body);
	ck_assert_str_eq(sym.file, l[0].file);
	ck_assert_str_eq(sym.function, "hdr_twice");
	free(l);

	/* the same line number in hdr.c is a comment */
	ck_assert_contains(resolve_err(dx, fmt("hdr.c:%d", body)), "no code on this line");
	ck_assert_contains(resolve_err(dx, fmt("hdr.c:%d", ret)), "no code on this line");

	/* hdr.c's own lines stay hdr.c's */
	l = resolve_ok(dx, fmt("hdr.c:%d", call), &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(l[0].function, "main");
	ck_assert(ends_with(l[0].file, "/tests/fixtures/dwarf/hdr.c"));
	ck_assert(in_sym(l[0].addr, main_sym));
	free(l);

	/* racegate lines hdr_inline.h: the function's lines, all of them its own */
	memset(&s, 0, sizeof(s));
	ck_assert_msg(dwarfx_lines(dx, "hdr_inline.h", 0, 0, note_line, &s, &err) == 0,
		      "%s", err.msg);
	ck_assert_uint_ge(s.n, 2);
	for (i = 0; i < s.n; i++) {
		ck_assert_str_eq(s.fn[i], "hdr_twice");
		ck_assert_int_lt(s.line[i], include);
		saw_body |= s.line[i] == body;
		saw_ret |= s.line[i] == ret;
	}
	ck_assert(saw_body && saw_ret);

	/* racegate lines hdr.c: none of the header's */
	memset(&s, 0, sizeof(s));
	ck_assert_msg(dwarfx_lines(dx, "hdr.c", 0, 0, note_line, &s, &err) == 0,
		      "%s", err.msg);
	ck_assert_uint_gt(s.n, 8);
	for (i = 0; i < s.n; i++) {
		ck_assert_msg(s.line[i] > include, "hdr.c:%d listed", s.line[i]);
		ck_assert_str_ne(s.fn[i], "hdr_twice");
	}
	dwarfx_free(dx);
}
END_TEST

/* ---- bad input ---- */

static char *temp_copy(const char *src, size_t len, const char *name)
{
	char *path = xasprintf("%s/%s.%d", FX_OUT_DIR, name, (int)getpid());
	FILE *in = fopen(src, "rb"), *out = fopen(path, "wb");
	char buf[4096];
	size_t n;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	while (len && (n = fread(buf, 1, len < sizeof(buf) ? len : sizeof(buf), in))) {
		ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
		len -= n;
	}
	fclose(in);
	fclose(out);
	return path;
}

START_TEST(test_bad_inputs)
{
	static const unsigned char elf32[52] = {
		0x7f, 'E', 'L', 'F', 1 /* ELFCLASS32 */, 1, 1, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		2, 0, 3, 0 /* EM_386 */, 1, 0, 0, 0,
	};
	char *path;
	FILE *f;
	long size;

	ck_assert_str_eq(open_err(FX_OUT_DIR "/no-such-file"),
			 "cannot open '" FX_OUT_DIR "/no-such-file': No such file or "
			 "directory");
	ck_assert_str_eq(open_err(SRC("main.c")),
			 "'" SRC("main.c") "' is not an ELF file");
	ck_assert_contains(open_err(FX_SRC_DIR), "is a directory");

	path = xasprintf("%s/elf32.%d", FX_OUT_DIR, (int)getpid());
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(elf32, 1, sizeof(elf32), f), sizeof(elf32));
	fclose(f);
	ck_assert_str_eq(open_err(path),
			 fmt("'%s' is a 32-bit ELF; racegate supports x86_64", path));
	unlink(path);
	free(path);

	f = fopen(FX_PIE, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	/* cut in the header, the segments, the section headers at the end */
	{
		const size_t cuts[] = {0, 20, 64, 3000, (size_t)size / 2,
				       (size_t)size - 100, (size_t)size - 1};

		for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
			const char *msg;

			path = temp_copy(FX_PIE, cuts[i], "truncated");
			msg = open_err(path);
			ck_assert_msg(strstr(msg, "is truncated") ||
				      strstr(msg, "is not an ELF file"),
				      "cut at %zu: %s", cuts[i], msg);
			if (cuts[i] >= 20)
				ck_assert_contains(msg, "is truncated");
			unlink(path);
			free(path);
		}
	}
}
END_TEST

START_TEST(test_corrupt_dwarf)
{
	char *path = temp_copy(FX_PIE, SIZE_MAX, "corrupt");
	unsigned char junk[64];
	dwarfx *dx = NULL;
	rg_err err = RG_ERR_INIT;
	int fd;

	/* scribble over the middle of the file: whatever it hits, no crash */
	memset(junk, 0xff, sizeof(junk));
	fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	for (off_t off = 4096; off < 16384; off += 997)
		ck_assert_int_eq(pwrite(fd, junk, sizeof(junk), off), (ssize_t)sizeof(junk));
	close(fd);
	if (dwarfx_open(path, &dx, &err) == 0) {
		dwarfx_loc *l = NULL;
		size_t n;

		if (dwarfx_resolve(dx, "worker", &l, &n, NULL, &err) == 0)
			free(l);
		dwarfx_free(dx);
	} else {
		ck_assert(err.msg[0]);
	}
	unlink(path);
	free(path);
}
END_TEST

static Suite *dwarf_suite(void)
{
	Suite *s = suite_create("dwarf");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_open_kinds, 0, 2);
	tcase_add_loop_test(tc, test_file_line, 0, 2);
	tcase_add_test(tc, test_suffix_match);
	tcase_add_test(tc, test_ambiguous_file);
	tcase_add_loop_test(tc, test_no_code, 0, 2);
	tcase_add_test(tc, test_unknown_file);
	tcase_add_test(tc, test_result_kinds);
	tcase_add_loop_test(tc, test_function_prologue, 0, 2);
	tcase_add_loop_test(tc, test_addr, 0, 2);
	tcase_add_loop_test(tc, test_symbolize_roundtrip, 0, 2);
	tcase_add_test(tc, test_inline_instances);
	tcase_add_test(tc, test_clone);
	tcase_add_test(tc, test_nodebug);
	tcase_add_test(tc, test_libc);
	tcase_add_test(tc, test_dyn_read);
	tcase_add_test(tc, test_dyn_search);
	tcase_add_test(tc, test_versions);
	tcase_add_loop_test(tc, test_optimised_away, 0, 2);
	tcase_add_loop_test(tc, test_optimised_function_anchor, 0, 2);
	tcase_add_test(tc, test_anchor_file);
	tcase_add_test(tc, test_anchor_function);
	tcase_add_test(tc, test_source_dir);
	tcase_add_loop_test(tc, test_insn_offsets, 0, 2);
	tcase_add_loop_test(tc, test_boundaries, 0, 2);
	tcase_add_test(tc, test_boundary_stripped);
	tcase_add_test(tc, test_rows_inside);
	tcase_add_test(tc, test_libc_boundaries);
	tcase_add_test(tc, test_cxx_names);
	tcase_add_test(tc, test_cxx_written);
	tcase_add_test(tc, test_cxx_start_names);
	tcase_add_test(tc, test_lines);
	tcase_add_loop_test(tc, test_header_lines, 0,
			    sizeof(hdr_progs) / sizeof(hdr_progs[0]));
	tcase_add_test(tc, test_bad_inputs);
	tcase_add_test(tc, test_corrupt_dwarf);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(dwarf_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
