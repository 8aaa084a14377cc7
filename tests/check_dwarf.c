/*
 * check_dwarf: dwarfx on programs the build compiles (tests/fixtures/dwarf).
 *
 * Nothing here is a hard-coded address or line number: lines come from
 * "@name" markers in the fixture sources, addresses from nm and objdump
 * listings made at build time (and, for libc, from the dynamic linker), so
 * a new compiler or an edited fixture does not break the test.
 *
 * The suite is split in files of under 1,500 lines sharing check_dwarf.h:
 * optimised builds, anchors and instruction boundaries in
 * check_dwarf_optimised.c; C++ names, line listings, headers and bad input
 * in check_dwarf_lines.c.
 */
#include "dwarfx.h"
#include "dwarfx_dyn.h"
#include "check_dwarf.h"

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

/* ---- what the fixtures say about themselves ---- */

/* Line number of the line holding "@tag" (and not a longer tag) in src. */
int marker_line(const char *src, const char *tag)
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

/* The symbol called name in an "nm -S --defined-only" listing. */
struct nm_sym nm_lookup(const char *listing, const char *name)
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

bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* ---- dwarfx helpers ---- */

dwarfx *open_ok(const char *path)
{
	rg_err err = RG_ERR_INIT;
	dwarfx *dx = NULL;

	ck_assert_msg(dwarfx_open(path, &dx, &err) == 0, "open %s: %s", path, err.msg);
	ck_assert_ptr_nonnull(dx);
	return dx;
}

dwarfx_loc *resolve_ok(dwarfx *dx, const char *where, size_t *n)
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
const char *resolve_err(dwarfx *dx, const char *where)
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

const char *open_err(const char *path)
{
	static rg_err err;
	dwarfx *dx = (dwarfx *)&err;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(dwarfx_open(path, &dx, &err) < 0, "%s opened", path);
	ck_assert_ptr_null(dx);
	return err.msg;
}

char *fmt(const char *f, ...)
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

/* ---- the -O0 programs, PIE and not ---- */

const struct prog progs[] = {
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

bool in_sym(uint64_t addr, struct nm_sym s)
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

int find_libc(struct dl_phdr_info *info, size_t size, void *data)
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
	dwarf_add_optimised(tc);
	dwarf_add_lines(tc);
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
