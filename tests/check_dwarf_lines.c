/*
 * check_dwarf on C++ names, the line listing, headers (DWARF 4 and 5,
 * compressed sections) and bad or corrupt input: part of check_dwarf, kept
 * apart for the 1,500-line limit (what the files share is in check_dwarf.h).
 */
#include "dwarfx.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_dwarf.h"

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

/* The tests of C++ names, lines, headers, bad input, in check_dwarf's order. */
/*
 * The shared accesses of a line, and which read and which write: `sink +=
 * y` at -O0 loads sink first and stores it last; `y = x * 3` touches
 * only the stack.
 */
START_TEST(test_line_accesses)
{
	const struct prog *p = &progs[_i];
	dwarfx *dx = open_ok(p->path);
	const char *sink = fmt("main.c:%d", marker_line(SRC("main.c"), "worker-sink"));
	const char *first = fmt("main.c:%d", marker_line(SRC("main.c"), "worker-first"));
	size_t *plus = NULL, n = 0;
	unsigned char *how = NULL;
	rg_err err = RG_ERR_INIT;

	ck_assert_int_eq(dwarfx_line_accesses(dx, sink, &plus, &how, &n, &err), DWARFX_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_lt(plus[0], plus[1]);
	ck_assert_int_eq(how[0], DWARFX_READS);
	ck_assert_int_eq(how[1], DWARFX_WRITES);
	free(plus);
	free(how);
	ck_assert_int_eq(dwarfx_line_accesses(dx, first, &plus, &how, &n, &err), DWARFX_OK);
	ck_assert_uint_eq(n, 0);
	free(plus);
	free(how);
	/* without how, the same instructions */
	ck_assert_int_eq(dwarfx_line_accesses(dx, sink, &plus, NULL, &n, &err), DWARFX_OK);
	ck_assert_uint_eq(n, 2);
	free(plus);
	dwarfx_free(dx);
}
END_TEST

/* A line as an anchor: its code taken literally, the same addresses. */
START_TEST(test_anchor)
{
	const struct prog *p = &progs[_i];
	dwarfx *dx = open_ok(p->path);
	int sink = marker_line(SRC("main.c"), "worker-sink");
	char *a = dwarfx_anchor(dx, fmt("main.c:%d", sink));
	char *b = dwarfx_anchor(dx, fmt("main.c:%d+1", sink));
	size_t n1, n2;
	dwarfx_loc *l1, *l2;

	ck_assert_ptr_nonnull(a);
	/* "sink" is on several lines, and shorter than a name to anchor on */
	ck_assert_str_eq(a, "main.c:/sink \\+= y;/");
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(b, "main.c:/sink \\+= y;/+1");
	l1 = resolve_ok(dx, b, &n1);
	l2 = resolve_ok(dx, fmt("main.c:%d+1", sink), &n2);
	ck_assert_uint_eq(n1, n2);
	ck_assert_uint_eq(l1[0].addr, l2[0].addr);
	free(l1);
	free(l2);
	free(a);
	free(b);
	/* the same code on two lines of one function: a word of the comment */
	a = dwarfx_anchor(dx, fmt("main.c:%d", marker_line(SRC("main.c"), "twice-again")));
	ck_assert_str_eq(a, "main.c:/twice-again/");
	free(a);
	/* a word of UTF-8 is whole, not cut at its first byte above 0x7f */
	a = dwarfx_anchor(dx, fmt("main.c:%d", marker_line(SRC("main.c"), "ÜBER-TAG")));
	ck_assert_str_eq(a, "main.c:/ÜBER-TAG/");
	free(a);
	/* worker's "}" (two lines below the sink), which no text names: its
	 * place from the function's entry, the same address */
	a = dwarfx_anchor(dx, fmt("main.c:%d", sink + 2));
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(fmt("%.8s", a), "*worker+");
	l1 = resolve_ok(dx, a, &n1);
	l2 = resolve_ok(dx, fmt("main.c:%d", sink + 2), &n2);
	ck_assert_uint_eq(n1, 1);
	ck_assert_uint_eq(n2, 1);
	ck_assert_uint_eq(l1[0].addr, l2[0].addr);
	free(l1);
	free(l2);
	free(a);
	/* not a FILE:LINE, or no line of code */
	ck_assert_ptr_null(dwarfx_anchor(dx, "worker"));
	ck_assert_ptr_null(dwarfx_anchor(dx, "main.c:100000"));
	dwarfx_free(dx);
}
END_TEST

void dwarf_add_lines(TCase *tc)
{
	tcase_add_loop_test(tc, test_anchor, 0, 2);
	tcase_add_loop_test(tc, test_line_accesses, 0, 2);
	tcase_add_test(tc, test_cxx_names);
	tcase_add_test(tc, test_cxx_written);
	tcase_add_test(tc, test_cxx_start_names);
	tcase_add_test(tc, test_lines);
	tcase_add_loop_test(tc, test_header_lines, 0,
			    sizeof(hdr_progs) / sizeof(hdr_progs[0]));
	tcase_add_test(tc, test_bad_inputs);
	tcase_add_test(tc, test_corrupt_dwarf);
}
