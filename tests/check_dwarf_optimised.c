/*
 * check_dwarf on optimised builds (-O2, -Og: lines the compiler removed),
 * regex anchors, source directories, instruction offsets and boundaries:
 * part of check_dwarf, kept apart for the 1,500-line limit (what the files
 * share is in check_dwarf.h).
 */
#include "dwarfx.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_dwarf.h"

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

/* The tests of optimised code and boundaries, in check_dwarf's order. */
void dwarf_add_optimised(TCase *tc)
{
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
}
