/*
 * check_vars: dwarfx_vars.h (what a `when:` condition names) on programs
 * the build compiles at -O0 and -O2 (tests/fixtures/vars.cmake).
 *
 * Places are checked, not just found: each place's ops are evaluated here
 * with register values the test chooses, and the result compared with what
 * readelf says about the same program -- the CFA rule from the raw CFI, the
 * frame offset or the location list entry from the DIE -- at the same
 * address.  Lines come from "@name" markers in the sources, addresses from
 * objdump's line table and nm.  Nothing here is a number one compiler run
 * produced.
 */
#include "dwarfx_vars.h"

#include <check.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRC(f) VX_SRC_DIR "/" f
#define FX(t) VX_OUT_DIR "/" t
#define LISTING(t, ext) VX_OUT_DIR "/" t "." ext
#define NREGS 64

/* ---- listings ---- */

struct text {
	char **lines;
	size_t n;
};

static struct text text_read(const char *path)
{
	struct text t = {NULL, 0};
	FILE *f = fopen(path, "r");
	char buf[4096];
	size_t cap = 0;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	while (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (t.n == cap) {
			cap = cap ? cap * 2 : 1024;
			t.lines = realloc(t.lines, cap * sizeof(*t.lines));
		}
		t.lines[t.n++] = strdup(buf);
	}
	fclose(f);
	return t;
}

static void text_free(struct text *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->lines[i]);
	free(t->lines);
}

/* Line number of the line holding "@tag" in src. */
static int marker_line(const char *src, const char *tag)
{
	struct text t = text_read(src);
	size_t i, tl = strlen(tag);
	int line = 0;

	for (i = 0; i < t.n && !line; i++) {
		const char *p = strstr(t.lines[i], tag);

		if (p && p > t.lines[i] && p[-1] == '@' && !isalnum((unsigned char)p[tl]) &&
		    p[tl] != '-')
			line = (int)i + 1;
	}
	text_free(&t);
	ck_assert_msg(line, "no marker @%s in %s", tag, src);
	return line;
}

/* objdump names a file by its name or by a path ending with it. */
static bool same_file(const char *listed, const char *file)
{
	size_t a = strlen(listed), b = strlen(file);

	return !strcmp(listed, file) ||
		(a > b && listed[a - b - 1] == '/' && !strcmp(listed + a - b, file));
}

/* The statement rows of file:line in objdump's line table, ascending. */
static size_t line_addrs(const char *listing, const char *file, int line, uint64_t *out,
			 size_t max)
{
	struct text t = text_read(listing);
	size_t i, n = 0;

	for (i = 0; i < t.n; i++) {
		char name[512], lno[64], addr[64];
		size_t len = strlen(t.lines[i]);

		if (sscanf(t.lines[i], "%511s %63s %63s", name, lno, addr) != 3 ||
		    !same_file(name, file) || atoi(lno) != line || len < 2 ||
		    t.lines[i][len - 1] != 'x' || !isspace((unsigned char)t.lines[i][len - 2]))
			continue;
		if (n < max)
			out[n++] = strtoull(addr, NULL, 16);
	}
	text_free(&t);
	return n;
}

static uint64_t line_addr(const char *listing, const char *file, int line)
{
	uint64_t a[64];
	size_t n = line_addrs(listing, file, line, a, 64), i;
	uint64_t lo = UINT64_MAX;

	ck_assert_msg(n > 0, "no row for %s:%d in %s", file, line, listing);
	for (i = 0; i < n; i++)
		if (a[i] < lo)
			lo = a[i];
	return lo;
}

/* The address of the symbol called name (or, with prefix, starting so). */
static uint64_t nm_addr(const char *listing, const char *name, bool prefix)
{
	struct text t = text_read(listing);
	uint64_t a = 0;
	bool found = false;
	size_t i;

	for (i = 0; i < t.n && !found; i++) {
		char addr[64], type[8], sym[512];

		if (sscanf(t.lines[i], "%63s %7s %511s", addr, type, sym) != 3)
			continue;
		if (prefix ? !strncmp(sym, name, strlen(name)) : !strcmp(sym, name)) {
			a = strtoull(addr, NULL, 16);
			found = true;
		}
	}
	text_free(&t);
	ck_assert_msg(found, "no symbol %s in %s", name, listing);
	return a;
}

/* ---- readelf --debug-dump=info ---- */

struct die {
	unsigned depth;
	char tag[64];
	char name[128];
	int decl_line;
	char location[512];     /* the value after "DW_AT_location :" */
	char const_value[128];
	char frame_base[256];
	long data_bit_offset, bit_size;
	long bit_offset, byte_size, member_location;   /* DWARF 4 bitfields */
	uint64_t low_pc;
};

/* The value part of a readelf attribute line ("<42b>   DW_AT_x : value"). */
static const char *attr_value(const char *line, const char *at)
{
	const char *p = strstr(line, at), *c;

	if (!p || (p[strlen(at)] != ' ' && p[strlen(at)] != ':'))
		return NULL;
	c = strstr(p, ": ");
	return c ? c + 2 : NULL;
}

/* Entries of an info listing, in order. */
static struct die *dies_read(const char *listing, size_t *count)
{
	struct text t = text_read(listing);
	struct die *d = NULL;
	size_t n = 0, cap = 0, i;

	for (i = 0; i < t.n; i++) {
		const char *l = t.lines[i], *v;
		unsigned depth;
		char tag[64];

		if (sscanf(l, " <%u><%*[0-9a-f]>: Abbrev Number: %*u (%63[^)])", &depth, tag) == 2) {
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				d = realloc(d, cap * sizeof(*d));
			}
			memset(&d[n], 0, sizeof(d[n]));
			d[n].depth = depth;
			d[n].data_bit_offset = d[n].bit_size = d[n].bit_offset = -1;
			d[n].byte_size = d[n].member_location = -1;
			snprintf(d[n].tag, sizeof(d[n].tag), "%s", tag);
			n++;
			continue;
		}
		if (!n)
			continue;
		if ((v = attr_value(l, "DW_AT_name"))) {
			const char *s = strstr(v, "): ");

			/* "(indirect string, offset: 0x4b): x", "(indexed string: 0x3): x" */
			snprintf(d[n - 1].name, sizeof(d[n - 1].name), "%s",
				 (!strncmp(v, "(indirect", 9) || !strncmp(v, "(indexed", 8)) && s ?
				 s + 3 : v);
		} else if ((v = attr_value(l, "DW_AT_decl_line"))) {
			d[n - 1].decl_line = atoi(v);
		} else if ((v = attr_value(l, "DW_AT_location"))) {
			snprintf(d[n - 1].location, sizeof(d[n - 1].location), "%s", v);
		} else if ((v = attr_value(l, "DW_AT_const_value"))) {
			snprintf(d[n - 1].const_value, sizeof(d[n - 1].const_value), "%s", v);
		} else if ((v = attr_value(l, "DW_AT_frame_base"))) {
			snprintf(d[n - 1].frame_base, sizeof(d[n - 1].frame_base), "%s", v);
		} else if ((v = attr_value(l, "DW_AT_data_bit_offset"))) {
			d[n - 1].data_bit_offset = atol(v);
		} else if ((v = attr_value(l, "DW_AT_bit_offset"))) {
			d[n - 1].bit_offset = atol(v);
		} else if ((v = attr_value(l, "DW_AT_byte_size"))) {
			d[n - 1].byte_size = atol(v);
		} else if ((v = attr_value(l, "DW_AT_data_member_location"))) {
			/* a constant, or "2 byte block: 23 8 \t(DW_OP_plus_uconst: 8)" */
			const char *pu = strstr(v, "(DW_OP_plus_uconst: ");

			d[n - 1].member_location = pu ? atol(pu + 20) : atol(v);
		} else if ((v = attr_value(l, "DW_AT_low_pc"))) {
			d[n - 1].low_pc = strtoull(v, NULL, 16);
		} else if ((v = attr_value(l, "DW_AT_bit_size"))) {
			d[n - 1].bit_size = atol(v);
		}
	}
	text_free(&t);
	*count = n;
	return d;
}

/* The entry with this tag, name and (when not 0) declaration line. */
static const struct die *die_find(const struct die *d, size_t n, const char *tag,
				  const char *name, int decl_line)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(d[i].tag, tag) && !strcmp(d[i].name, name) &&
		    (!decl_line || d[i].decl_line == decl_line))
			return &d[i];
	ck_abort_msg("no %s '%s' (line %d) in the listing", tag, name, decl_line);
	return NULL;
}

/* The child with this tag and name of the function whose code starts at pc. */
static const struct die *fn_child(const struct die *d, size_t n, uint64_t pc,
				  const char *tag, const char *name)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (strcmp(d[i].tag, "DW_TAG_subprogram") || d[i].low_pc != pc)
			continue;
		for (j = i + 1; j < n && d[j].depth > d[i].depth; j++)
			if (!strcmp(d[j].tag, tag) && !strcmp(d[j].name, name))
				return &d[j];
	}
	ck_abort_msg("no %s '%s' in the function at %#" PRIx64, tag, name, pc);
	return NULL;
}

/* ---- readelf --debug-dump=frames: the CFA rule, interpreted here ---- */

struct cfa {
	int reg;
	long off;
	bool expr;
};

/* "r7 (x) ofs 8" and friends: the register number after 'r'. */
static int reg_of(const char *s)
{
	const char *r = strstr(s, ": r");

	ck_assert_msg(r != NULL, "no register in '%s'", s);
	return atoi(r + 3);
}

static struct cfa cfa_at(const char *listing, uint64_t addr)
{
	struct text t = text_read(listing);
	struct cfa cie = {-1, 0, false}, cur = {-1, 0, false}, stack[16];
	size_t i, sp = 0;
	bool in_fde = false, done = false;
	char cie_id[32] = "";

	for (i = 0; i < t.n && !done; i++) {
		const char *l = t.lines[i];
		char off[32], cid[32];
		unsigned long long lo, hi;

		if (sscanf(l, "%31s %*s %*s CIE", off) == 1 && strstr(l, " CIE")) {
			snprintf(cie_id, sizeof(cie_id), "%s", off);
			in_fde = false;
			cie.reg = -1;
			continue;
		}
		if (sscanf(l, "%*s %*s %*s FDE cie=%31s pc=%llx..%llx", cid, &lo, &hi) == 3) {
			in_fde = addr >= lo && addr < hi;
			/* the CIE printed last before is this FDE's in gcc's output */
			ck_assert_msg(!in_fde || !strcmp(cid, cie_id),
				      "FDE's CIE %s is not the one before it", cid);
			cur = cie;
			sp = 0;
			continue;
		}
		if (!in_fde && cie.reg == -1 && strstr(l, "DW_CFA_def_cfa: ")) {
			cie.reg = reg_of(l);
			cie.off = atol(strstr(l, "ofs ") + 4);
			continue;
		}
		if (!in_fde)
			continue;
		if (strstr(l, "DW_CFA_advance_loc")) {
			const char *to = strstr(l, " to ");

			if (to && strtoull(to + 4, NULL, 16) > addr)
				done = true;
		} else if (strstr(l, "DW_CFA_def_cfa: ")) {
			cur.reg = reg_of(l);
			cur.off = atol(strstr(l, "ofs ") + 4);
			cur.expr = false;
		} else if (strstr(l, "DW_CFA_def_cfa_register: ")) {
			cur.reg = reg_of(l);
		} else if (strstr(l, "DW_CFA_def_cfa_offset: ")) {
			cur.off = atol(strstr(l, "offset: ") + 8);
		} else if (strstr(l, "DW_CFA_def_cfa_expression")) {
			cur.expr = true;
		} else if (strstr(l, "DW_CFA_remember_state") && sp < 16) {
			stack[sp++] = cur;
		} else if (strstr(l, "DW_CFA_restore_state") && sp) {
			cur = stack[--sp];
		}
	}
	text_free(&t);
	ck_assert_msg(cur.reg >= 0, "no CFA rule for %#" PRIx64 " in %s", addr, listing);
	return cur;
}

/* ---- readelf --debug-dump=loc: a location list's entry for an address ---- */

/*
 * The expression of the entry of the list at off covering addr, into expr;
 * false when no entry covers it.
 */
static bool loc_entry(const char *listing, unsigned long off, uint64_t addr, char *expr,
		      size_t len)
{
	struct text t = text_read(listing);
	char head[32];
	size_t i;
	bool in = false, found = false, started = false;

	snprintf(head, sizeof(head), "%08lx", off);
	for (i = 0; i < t.n && !found; i++) {
		const char *l = t.lines[i];
		unsigned long long lo, hi;
		int pos = 0;

		while (*l == ' ')
			l++;
		if (!strncmp(l, head, strlen(head)) && !in) {
			in = true;
			started = true;
		}
		if (!in)
			continue;
		if (strstr(l, "<End of list>"))
			break;
		if (sscanf(l, "%llx %llx (%n", &lo, &hi, &pos) == 2 && pos &&
		    !strstr(l, " v0") && addr >= lo && addr < hi) {
			snprintf(expr, len, "%s", l + pos);
			found = true;
		}
	}
	text_free(&t);
	ck_assert_msg(started, "no location list at %#lx in %s", off, listing);
	return found;
}

/* ---- evaluating places ---- */

static bool eval(const dwarfx_op *ops, size_t n, const uint64_t *regs, uint64_t *out)
{
	uint64_t st[64];
	size_t sp = 0, i;

	for (i = 0; i < n; i++) {
		const dwarfx_op *o = &ops[i];

		switch (o->code) {
		case DWARFX_OP_CONST: st[sp++] = (uint64_t)o->arg; break;
		case DWARFX_OP_ADDR: st[sp++] = (uint64_t)o->arg; break;	/* bias 0 */
		case DWARFX_OP_REG:
			ck_assert_uint_lt(o->reg, NREGS);
			st[sp++] = regs[o->reg];
			break;
		case DWARFX_OP_PLUS_CONST:
			ck_assert_uint_ge(sp, 1);
			st[sp - 1] += (uint64_t)o->arg;
			break;
		case DWARFX_OP_ADD:
			ck_assert_uint_ge(sp, 2);
			st[sp - 2] += st[sp - 1];
			sp--;
			break;
		case DWARFX_OP_MUL:
			ck_assert_uint_ge(sp, 2);
			st[sp - 2] *= st[sp - 1];
			sp--;
			break;
		case DWARFX_OP_SUB:
			ck_assert_uint_ge(sp, 2);
			st[sp - 2] -= st[sp - 1];
			sp--;
			break;
		default:
			return false;	/* not met in these fixtures' places */
		}
		ck_assert_uint_lt(sp, 64);
	}
	if (!sp)
		return false;
	*out = st[sp - 1];
	return true;
}

/* Register r holds 0x1000 * (r + 1) + 0x10: no two alike, none zero. */
static void choose_regs(uint64_t *regs)
{
	int r;

	for (r = 0; r < NREGS; r++)
		regs[r] = 0x1000ULL * (uint64_t)(r + 1) + 0x10;
}

/* The address a one-piece memory place gives with regs. */
static uint64_t mem_addr(const dwarfx_var *v, const uint64_t *regs)
{
	uint64_t a = 0;

	ck_assert_msg(v->place.kind == DWARFX_PLACE_KNOWN, "'%s' has no place (%s)", v->name,
		      v->place.why ? v->place.why : "optimized out");
	ck_assert_uint_eq(v->place.npieces, 1);
	ck_assert_int_eq(v->place.pieces[0].kind, DWARFX_PIECE_MEM);
	ck_assert(eval(v->place.pieces[0].ops, v->place.pieces[0].nops, regs, &a));
	return a;
}

/* "2 byte block: 91 68 	(DW_OP_fbreg: -24)": -24. */
static long fbreg_of(const struct die *d)
{
	const char *p = strstr(d->location, "(DW_OP_fbreg: ");

	ck_assert_msg(p != NULL, "'%s' is not at a frame offset: %s", d->name, d->location);
	return atol(p + 14);
}

static dwarfx *open_fx(const char *path)
{
	dwarfx *dx;
	rg_err err = RG_ERR_INIT;

	ck_assert_msg(dwarfx_open(path, &dx, &err) == 0, "%s", err.msg);
	return dx;
}

static dwarfx_scope *scope(dwarfx *dx, uint64_t addr)
{
	dwarfx_scope *sc = NULL;
	rg_err err = RG_ERR_INIT;

	ck_assert_msg(dwarfx_scope_at(dx, addr, &sc, &err) == DWARFX_OK, "at %#" PRIx64 ": %s",
		      addr, err.msg);
	return sc;
}

/* The idx-th variable called name among sc's own (0: innermost). */
static const dwarfx_var *own(const dwarfx_scope *sc, const char *name, int idx)
{
	const dwarfx_var *v[128];
	size_t n = dwarfx_scope_locals(sc, v, 128), i;

	for (i = 0; i < n && i < 128; i++)
		if (!strcmp(v[i]->name, name) && idx-- == 0)
			return v[i];
	ck_abort_msg("no variable '%s' in %s", name, dwarfx_scope_function(sc));
	return NULL;
}


/* ---- -O0: frame offsets through the CFA rule ---- */

/*
 * Every local and parameter of walk() at the inner block's line: the place
 * evaluates to CFA + the DIE's DW_OP_fbreg offset, the CFA being what the
 * CFI says at that address; the inner `total` shadows the outer one.
 */
/* VX_OUT_DIR/name.ext */
static const char *listing(char *buf, size_t len, const char *name, const char *ext)
{
	snprintf(buf, len, "%s/%s%s%s", VX_OUT_DIR, name, *ext ? "." : "", ext);
	return buf;
}

/*
 * What the function's DW_AT_frame_base makes of regs: the CFA (gcc), or a
 * register's value (clang: DW_OP_reg6).
 */
static uint64_t frame_base(const struct die *fn, const uint64_t *regs, struct cfa c)
{
	int r;

	if (strstr(fn->frame_base, "(DW_OP_call_frame_cfa)"))
		return regs[c.reg] + (uint64_t)c.off;
	ck_assert_msg(sscanf(strchr(fn->frame_base, '(') ? strchr(fn->frame_base, '(') : "",
			     "(DW_OP_reg%d", &r) == 1, "frame base: %s", fn->frame_base);
	ck_assert_int_lt(r, NREGS);
	return regs[r];
}

static void check_frame_offsets(const char *name)
{
	char p[4][512];
	dwarfx *dx = open_fx(listing(p[0], sizeof(p[0]), name, ""));
	size_t nd;
	struct die *d = dies_read(listing(p[1], sizeof(p[1]), name, "info"), &nd);
	int inner = marker_line(SRC("vars.c"), "inner-block");
	const char *lines = listing(p[2], sizeof(p[2]), name, "lines");
	uint64_t addr = line_addr(lines, "vars.c", inner);
	struct cfa c = cfa_at(listing(p[3], sizeof(p[3]), name, "frames"), addr);
	const struct die *fn = die_find(d, nd, "DW_TAG_subprogram", "walk", 0);
	uint64_t regs[NREGS], cfa;
	dwarfx_scope *sc = scope(dx, addr);
	const dwarfx_var *t0, *t1;
	static const char *const names[] = {"i", "list", "limit"};
	size_t k;

	ck_assert(!c.expr);
	choose_regs(regs);
	cfa = frame_base(fn, regs, c);
	ck_assert_ptr_nonnull(strstr(dwarfx_scope_function(sc), "walk"));

	/* innermost first: the block's total, then the function's */
	t0 = own(sc, "total", 0);
	t1 = own(sc, "total", 1);
	ck_assert_int_eq(t0->kind, DWARFX_VAR_LOCAL);
	ck_assert_uint_eq(mem_addr(t0, regs),
			  cfa + (uint64_t)fbreg_of(die_find(d, nd, "DW_TAG_variable", "total",
							    marker_line(SRC("vars.c"), "shadow"))));
	ck_assert_uint_eq(mem_addr(t1, regs),
			  cfa + (uint64_t)fbreg_of(die_find(d, nd, "DW_TAG_variable", "total",
							    marker_line(SRC("vars.c"), "outer-total"))));
	ck_assert_ptr_eq(dwarfx_scope_find(sc, "total"), t0);
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const dwarfx_var *v = own(sc, names[k], 0);
		const char *tag = k ? "DW_TAG_formal_parameter" : "DW_TAG_variable";

		ck_assert_int_eq(v->kind, k ? DWARFX_VAR_PARAM : DWARFX_VAR_LOCAL);
		ck_assert_uint_eq(mem_addr(v, regs),
				  cfa + (uint64_t)fbreg_of(die_find(d, nd, tag, names[k], 0)));
		ck_assert_ptr_eq(dwarfx_scope_find(sc, names[k]), v);
	}
	/* outside the block, only one total */
	dwarfx_scope_free(sc);
	sc = scope(dx, line_addr(lines, "vars.c", marker_line(SRC("vars.c"), "after-loop")));
	ck_assert_ptr_eq(dwarfx_scope_find(sc, "total"), own(sc, "total", 0));
	ck_assert_uint_eq(mem_addr(own(sc, "total", 0), regs), cfa +
			  (uint64_t)fbreg_of(die_find(d, nd, "DW_TAG_variable", "total",
						      marker_line(SRC("vars.c"), "outer-total"))));
	dwarfx_scope_free(sc);
	free(d);
	dwarfx_free(dx);
}

START_TEST(test_o0_frame_offsets)
{
	check_frame_offsets("vars_fx_O0");
}
END_TEST

/* The same with the CFI in .debug_frame, which is read first when present. */
START_TEST(test_o0_frame_offsets_debug_frame)
{
	char path[512];
	struct text t = text_read(listing(path, sizeof(path), "vars_fx_O0_debug_frame",
					  "frames"));
	size_t i;
	bool has = false;

	for (i = 0; i < t.n; i++)
		has |= strstr(t.lines[i], "Contents of the .debug_frame section") != NULL;
	text_free(&t);
	ck_assert_msg(has, "the fixture has no .debug_frame");
	check_frame_offsets("vars_fx_O0_debug_frame");
}
END_TEST

#if VX_CLANG
/* clang's frame base is a register, not the CFA. */
START_TEST(test_o0_frame_offsets_clang)
{
	check_frame_offsets("vars_fx_clang_O0");
}
END_TEST
#endif

/*
 * The CFA rule changes inside a function: at walk's first instruction and
 * after its prologue the same parameter is found through different
 * registers, each time where the CFI says.
 */
START_TEST(test_o0_cfa_entry_and_body)
{
	dwarfx *dx = open_fx(FX("vars_fx_O0"));
	size_t nd;
	struct die *d = dies_read(LISTING("vars_fx_O0", "info"), &nd);
	uint64_t entry = nm_addr(LISTING("vars_fx_O0", "nm"), "walk", false);
	uint64_t body = line_addr(LISTING("vars_fx_O0", "lines"), "vars.c",
				  marker_line(SRC("vars.c"), "after-loop"));
	struct cfa ce = cfa_at(LISTING("vars_fx_O0", "frames"), entry);
	struct cfa cb = cfa_at(LISTING("vars_fx_O0", "frames"), body);
	long k = fbreg_of(die_find(d, nd, "DW_TAG_formal_parameter", "limit", 0));
	uint64_t regs[NREGS];
	dwarfx_scope *sc;

	choose_regs(regs);
	ck_assert_int_ne(ce.reg, cb.reg);	/* stack pointer, then frame pointer */
	sc = scope(dx, entry);
	ck_assert_uint_eq(mem_addr(own(sc, "limit", 0), regs),
			  regs[ce.reg] + (uint64_t)ce.off + (uint64_t)k);
	dwarfx_scope_free(sc);
	sc = scope(dx, body);
	ck_assert_uint_eq(mem_addr(own(sc, "limit", 0), regs),
			  regs[cb.reg] + (uint64_t)cb.off + (uint64_t)k);
	dwarfx_scope_free(sc);
	free(d);
	dwarfx_free(dx);
}
END_TEST

/* ---- globals, statics, types ---- */

static void check_globals(const char *exe, const char *nm, const char *info, bool o0)
{
	dwarfx *dx = open_fx(exe);
	uint64_t addr = line_addr(o0 ? LISTING("vars_fx_O0", "lines") :
				  LISTING("vars_fx_O2", "lines"), "vars.c",
				  marker_line(SRC("vars.c"), "after-loop"));
	dwarfx_scope *sc = scope(dx, addr);
	uint64_t regs[NREGS];
	const dwarfx_var *v;
	size_t nd;
	struct die *d = dies_read(info, &nd);
	char buf[128];

	choose_regs(regs);
	v = dwarfx_scope_find(sc, "counter");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->kind, DWARFX_VAR_GLOBAL);
	ck_assert_uint_eq(mem_addr(v, regs), nm_addr(nm, "counter", false));
	ck_assert_ptr_eq(dwarfx_scope_find(sc, "::counter"), v);
	ck_assert_ptr_eq(dwarfx_global(dx, "counter"), v);

	v = dwarfx_scope_find(sc, "file_total");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->kind, DWARFX_VAR_STATIC);
	ck_assert_uint_eq(mem_addr(v, regs), nm_addr(nm, "file_total", false));
	ck_assert_str_eq(dwarfx_type_spell(v->type, buf, sizeof(buf)), "long int");

	v = dwarfx_scope_find(sc, "calls");	/* gcc names its symbol calls.N */
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->kind, DWARFX_VAR_STATIC);
	ck_assert_uint_eq(mem_addr(v, regs), nm_addr(nm, "calls.", true));

	v = dwarfx_scope_find(sc, "mine");	/* static __thread in walk() */
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->kind, DWARFX_VAR_STATIC);
	ck_assert_int_eq(v->place.kind, DWARFX_PLACE_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(v->place.why, "thread-local"));

	v = dwarfx_scope_find(sc, "per_thread");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->place.kind, DWARFX_PLACE_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(v->place.why, "thread-local"));

	/* declared only in this unit, defined in vars_other.c */
	v = dwarfx_scope_find(sc, "handle");
	ck_assert_str_eq(dwarfx_type_spell(v->type, buf, sizeof(buf)), "struct opaque *");
	ck_assert_int_eq(v->type->target->kind, DWARFX_T_STRUCT);
	ck_assert(!v->type->target->incomplete);
	ck_assert_uint_eq(v->type->target->nmembers, 2);
	ck_assert_str_eq(v->type->target->members[1].name, "size");

	/* defined nowhere: incomplete, and spelled as declared */
	v = dwarfx_scope_find(sc, "nowhere");
	ck_assert_ptr_nonnull(v);
	ck_assert(v->type->target->incomplete);
	ck_assert_uint_eq(v->type->target->size, 0);
	ck_assert_str_eq(dwarfx_type_spell(v->type, buf, sizeof(buf)), "struct never *");

	v = dwarfx_scope_find(sc, "grid");
	ck_assert_str_eq(dwarfx_type_spell(v->type, buf, sizeof(buf)), "int [2][3]");
	ck_assert_uint_eq(v->type->count, 2);
	ck_assert_uint_eq(v->type->target->count, 3);
	ck_assert_uint_eq(v->type->size, 6 * dwarfx_type_strip(v->type->target->target)->size);

	v = dwarfx_scope_find(sc, "head");
	ck_assert_str_eq(dwarfx_type_spell(v->type, buf, sizeof(buf)), "node_t *");
	/* the cycle: node->next is a pointer to the same node */
	{
		const dwarfx_type *node = dwarfx_type_strip(v->type->target);

		ck_assert_int_eq(node->kind, DWARFX_T_STRUCT);
		ck_assert_str_eq(node->members[0].name, "next");
		ck_assert_ptr_eq(node->members[0].type->target, node);
		ck_assert_ptr_eq(dwarfx_scope_type(sc, "struct node"), node);
		ck_assert_ptr_eq(dwarfx_type_strip(dwarfx_scope_type(sc, "node_t")), node);
	}

	ck_assert_ptr_null(dwarfx_scope_find(sc, "nothere"));
	ck_assert_ptr_null(dwarfx_global(dx, "nothere"));
	dwarfx_scope_free(sc);
	free(d);
	dwarfx_free(dx);
}

START_TEST(test_globals_o0)
{
	check_globals(FX("vars_fx_O0"), LISTING("vars_fx_O0", "nm"),
		      LISTING("vars_fx_O0", "info"), true);
}
END_TEST

START_TEST(test_globals_o2)
{
	check_globals(FX("vars_fx_O2"), LISTING("vars_fx_O2", "nm"),
		      LISTING("vars_fx_O2", "info"), false);
}
END_TEST

/*
 * A bitfield's first bit, counted from bit 0 of the object: DWARF 5's
 * DW_AT_data_bit_offset, or DWARF 4's DW_AT_bit_offset, which counts from
 * the most significant bit of a storage unit of DW_AT_byte_size bytes.
 */
static long first_bit(const struct die *m)
{
	if (m->data_bit_offset >= 0)
		return m->data_bit_offset;
	ck_assert_msg(m->bit_offset >= 0 && m->byte_size > 0, "member %s: no bit offset",
		      m->name);
	return (m->member_location > 0 ? m->member_location : 0) * 8 + m->byte_size * 8 -
		m->bit_offset - m->bit_size;
}

/* Bitfields where readelf puts them, the anonymous union, the enum. */
static void check_bitfields_enum(const char *exe, const char *info, const char *nm)
{
	dwarfx *dx = open_fx(exe);
	size_t nd, i, seen = 0;
	struct die *d = dies_read(info, &nd);
	dwarfx_scope *sc = scope(dx, nm_addr(nm, "main", false));
	const dwarfx_var *v = dwarfx_scope_find(sc, "flagset");
	const dwarfx_type *t = dwarfx_type_strip(v->type), *u;
	int64_t val;
	const dwarfx_type *et;

	ck_assert_int_eq(t->kind, DWARFX_T_STRUCT);
	ck_assert_str_eq(t->name, "flags");
	for (i = 0; i < t->nmembers; i++) {
		const dwarfx_member *m = &t->members[i];
		const struct die *md;

		if (!m->name)
			continue;
		md = die_find(d, nd, "DW_TAG_member", m->name, 0);
		if (!m->bit_size) {
			ck_assert_int_eq((long)m->offset, md->member_location);
			continue;
		}
		ck_assert_int_eq((long)m->bit_size, md->bit_size);
		ck_assert_uint_lt(m->bit_offset, 8);
		ck_assert_int_eq((long)(m->offset * 8 + m->bit_offset), first_bit(md));
		seen++;
	}
	ck_assert_uint_eq(seen, 3);
	ck_assert(!t->members[2].type->is_signed == false);	/* int level : 5 */
	/* the anonymous union: no name, its members inside */
	ck_assert_ptr_null(t->members[3].name);
	u = dwarfx_type_strip(t->members[3].type);
	ck_assert_int_eq(u->kind, DWARFX_T_UNION);
	ck_assert_str_eq(u->members[0].name, "as_int");
	ck_assert_uint_eq(t->members[3].offset, 4);
	ck_assert(dwarfx_type_strip(t->members[4].type)->target->is_char);

	v = dwarfx_scope_find(sc, "paint");
	t = dwarfx_type_strip(v->type);
	ck_assert_int_eq(t->kind, DWARFX_T_ENUM);
	ck_assert_uint_eq(t->nenumerators, 3);
	ck_assert(t->is_signed);
	ck_assert(dwarfx_scope_enumerator(sc, "BLUE", &val, &et));
	ck_assert_int_eq(val, -2);
	ck_assert_ptr_eq(et, t);
	ck_assert(dwarfx_scope_enumerator(sc, "GREEN", &val, &et));
	ck_assert_int_eq(val, 5);
	ck_assert(!dwarfx_scope_enumerator(sc, "PURPLE", &val, &et));
	ck_assert_ptr_eq(dwarfx_scope_type(sc, "enum color"), t);
	dwarfx_scope_free(sc);
	free(d);
	dwarfx_free(dx);
}

START_TEST(test_struct_bitfields_enum)
{
	check_bitfields_enum(FX("vars_fx_O0"), LISTING("vars_fx_O0", "info"),
			     LISTING("vars_fx_O0", "nm"));
}
END_TEST

/* DWARF 2: member offsets are DW_OP_plus_uconst expressions. */
START_TEST(test_struct_bitfields_enum_dwarf2)
{
	check_bitfields_enum(FX("vars_fx_O0_dwarf2"), LISTING("vars_fx_O0_dwarf2", "info"),
			     LISTING("vars_fx_O0_dwarf2", "nm"));
}
END_TEST

START_TEST(test_struct_bitfields_enum_dwarf4)
{
	check_bitfields_enum(FX("vars_fx_O2_dwarf4"), LISTING("vars_fx_O2_dwarf4", "info"),
			     LISTING("vars_fx_O2_dwarf4", "nm"));
}
END_TEST

/* ---- -O2: location lists, registers, values, entry values ---- */

struct tally {
	size_t compared, reg, value, unsupported, optimized, pieces;
};

/*
 * "DW_OP_reg5 (x); DW_OP_piece: 8; DW_OP_reg4 (y); DW_OP_piece: 8"
 * against v's pieces: registers and sizes, an empty piece optimized out.
 * False when expr has a piece racegate's test does not parse.
 */
static bool compare_pieces(const char *expr, const dwarfx_var *v)
{
	char buf[512], *save = NULL, *op;
	size_t n = 0;
	int reg = -1;

	snprintf(buf, sizeof(buf), "%s", expr);
	ck_assert_int_eq(v->place.kind, DWARFX_PLACE_KNOWN);
	for (op = strtok_r(buf, ";", &save); op; op = strtok_r(NULL, ";", &save)) {
		int r;
		unsigned long size;

		while (*op == ' ')
			op++;
		if (sscanf(op, "DW_OP_reg%d", &r) == 1) {
			reg = r;
		} else if (sscanf(op, "DW_OP_piece: %lu", &size) == 1) {
			const dwarfx_piece *p;

			ck_assert_uint_lt(n, v->place.npieces);
			p = &v->place.pieces[n++];
			ck_assert_uint_eq(p->size, size);
			if (reg < 0) {
				ck_assert_int_eq(p->kind, DWARFX_PIECE_UNDEF);
			} else {
				ck_assert_int_eq(p->kind, DWARFX_PIECE_REG);
				ck_assert_int_eq(p->reg, reg);
			}
			reg = -1;
		} else {
			return false;
		}
	}
	ck_assert_uint_eq(n, v->place.npieces);
	return true;
}

/*
 * var (d, its entry) at addr: dwarfx's place against readelf's location
 * list entry for addr.
 */
static void compare_place(const char *loc, const struct die *d, const dwarfx_var *v,
			  uint64_t addr, struct tally *t)
{
	char expr[512];
	uint64_t regs[NREGS], got;
	unsigned long off;
	int n;

	choose_regs(regs);
	if (d->const_value[0]) {
		ck_assert_int_eq(v->place.kind, DWARFX_PLACE_KNOWN);
		ck_assert_int_eq(v->place.pieces[0].kind, DWARFX_PIECE_BYTES);
		ck_assert_int_eq(v->place.pieces[0].bytes[0], atoi(d->const_value) & 0xff);
		t->compared++;
		return;
	}
	if (!d->location[0]) {
		ck_assert_int_eq(v->place.kind, DWARFX_PLACE_OPTIMIZED_OUT);
		t->optimized++;
		t->compared++;
		return;
	}
	if (!strstr(d->location, "(location list)")) {
		/* "1 byte block: 55 \t(DW_OP_reg5 (x))": the part in parentheses */
		const char *p = strchr(d->location, '\t');

		ck_assert_msg(p && p[1] == '(', "'%s': %s", d->name, d->location);
		snprintf(expr, sizeof(expr), "%s", p + 2);
	} else if (off = strtoul(d->location, NULL, 16),
		   !loc_entry(loc, off, addr, expr, sizeof(expr))) {
		ck_assert_msg(v->place.kind == DWARFX_PLACE_OPTIMIZED_OUT,
			      "'%s' at %#" PRIx64 ": no list entry, yet a place", v->name, addr);
		t->optimized++;
		t->compared++;
		return;
	}
	if (strstr(expr, "entry_value") || strstr(expr, "implicit_pointer")) {
		ck_assert_int_eq(v->place.kind, DWARFX_PLACE_UNSUPPORTED);
		ck_assert_ptr_nonnull(v->place.why);
		t->unsupported++;
	} else if (strstr(expr, "DW_OP_piece")) {
		if (!compare_pieces(expr, v))
			return;
		t->pieces++;
	} else if (sscanf(expr, "DW_OP_reg%d (", &n) == 1) {
		ck_assert_int_eq(v->place.kind, DWARFX_PLACE_KNOWN);
		ck_assert_msg(v->place.pieces[0].kind == DWARFX_PIECE_REG, "%s at %#" PRIx64 ": %s",
			      v->name, addr, expr);
		ck_assert_int_eq(v->place.pieces[0].reg, n);
		t->reg++;
	} else if (strstr(expr, "DW_OP_stack_value") &&
		   (sscanf(expr, "DW_OP_breg%d", &n) == 1 || sscanf(expr, "DW_OP_lit%d;", &n) == 1)) {
		uint64_t want = !strncmp(expr, "DW_OP_lit", 9) ? (uint64_t)n :
			regs[n] + (uint64_t)atol(strstr(expr, "): ") + 3);

		if (strchr(expr, ';') != strrchr(expr, ';'))
			return;	/* longer than one operation and stack_value */
		ck_assert_int_eq(v->place.kind, DWARFX_PLACE_KNOWN);
		ck_assert_int_eq(v->place.pieces[0].kind, DWARFX_PIECE_VALUE);
		ck_assert(eval(v->place.pieces[0].ops, v->place.pieces[0].nops, regs, &got));
		ck_assert_uint_eq(got, want);
		t->value++;
	} else {
		return;
	}
	t->compared++;
}

/*
 * The entry of the j-th of the scope's variables v[0..nv): among those
 * of its name declared from line from to line, sorted innermost (latest)
 * first, the one its rank among the scope's same-named ones gives -- the
 * outermost when a block's copy is not in scope.
 */
static const struct die *declared(const struct die *d, size_t nd, const dwarfx_var **v,
				  size_t nv, size_t j, int from, int line)
{
	const struct die *cand[8];
	size_t nc = 0, i, m = 0, k = 0;

	for (i = 0; i < nd && nc < 8; i++)
		if ((!strcmp(d[i].tag, "DW_TAG_variable") ||
		     !strcmp(d[i].tag, "DW_TAG_formal_parameter")) &&
		    !strcmp(d[i].name, v[j]->name) && d[i].decl_line >= from &&
		    d[i].decl_line <= line)
			cand[nc++] = &d[i];
	for (i = 0; i < nv; i++)
		if (!strcmp(v[i]->name, v[j]->name)) {
			if (i < j)
				k++;
			m++;
		}
	/* latest declaration first */
	for (i = 1; i < nc; i++) {
		const struct die *x = cand[i];
		size_t p = i;

		while (p > 0 && cand[p - 1]->decl_line < x->decl_line) {
			cand[p] = cand[p - 1];
			p--;
		}
		cand[p] = x;
	}
	return m <= nc ? cand[nc - m + k] : NULL;
}

/*
 * Every statement row of walk() and spin(): every variable of the scope
 * whose entry readelf shows, compared.
 */
static void check_lists(const char *exe, const char *lines, const char *info,
			const char *loc)
{
	dwarfx *dx = open_fx(exe);
	size_t nd;
	struct die *d = dies_read(info, &nd);
	struct tally t = {0, 0, 0, 0, 0, 0};
	static const char *const fns[] = {"walk", "spin", "width"};
	int from = marker_line(SRC("vars.c"), "walk-start");
	int to = marker_line(SRC("vars.c"), "lists-end");
	int line;

	for (line = from; line <= to; line++) {
		uint64_t a[16];
		size_t na = line_addrs(lines, "vars.c", line, a, 16), k;

		for (k = 0; k < na; k++) {
			dwarfx_scope *sc = scope(dx, a[k]);
			const dwarfx_var *v[64];
			size_t nv = dwarfx_scope_locals(sc, v, 64), j;
			const char *fn = dwarfx_scope_function(sc);

			if (strncmp(fn, fns[0], 4) && strncmp(fn, fns[1], 4) &&
			    strncmp(fn, fns[2], 5)) {
				dwarfx_scope_free(sc);	/* an inlined callee */
				continue;
			}
			for (j = 0; j < nv && j < 64; j++) {
				const struct die *vd;

				if (v[j]->kind == DWARFX_VAR_STATIC)
					continue;
				vd = declared(d, nd, v, nv, j, from, line);
				if (!vd)
					continue;
				compare_place(loc, vd, v[j], a[k], &t);
			}
			dwarfx_scope_free(sc);
		}
	}
	/* every kind of answer was met and agreed */
	ck_assert_uint_gt(t.compared, 20);
	ck_assert_uint_gt(t.reg, 0);
	ck_assert_uint_gt(t.optimized, 0);
	ck_assert_uint_gt(t.pieces, 0);
	free(d);
	dwarfx_free(dx);
}

START_TEST(test_o2_location_lists)
{
	check_lists(FX("vars_fx_O2"), LISTING("vars_fx_O2", "lines"),
		    LISTING("vars_fx_O2", "info"), LISTING("vars_fx_O2", "loc"));
}
END_TEST

START_TEST(test_o2_dwarf4_location_lists)
{
	check_lists(FX("vars_fx_O2_dwarf4"), LISTING("vars_fx_O2_dwarf4", "lines"),
		    LISTING("vars_fx_O2_dwarf4", "info"), LISTING("vars_fx_O2_dwarf4", "loc"));
}
END_TEST

/* An inlined callee's scope: its own parameter and local, by their origins. */
START_TEST(test_o2_inlined_callee)
{
	dwarfx *dx = open_fx(FX("vars_fx_O2"));
	uint64_t a[16];
	size_t n = line_addrs(LISTING("vars_fx_O2", "lines"), "vars.c",
			      marker_line(SRC("vars.c"), "twice-body"), a, 16), k, in = 0;

	ck_assert_uint_gt(n, 0);
	for (k = 0; k < n; k++) {
		dwarfx_scope *sc = scope(dx, a[k]);
		const dwarfx_var *arg = dwarfx_scope_find(sc, "arg");

		if (strncmp(dwarfx_scope_function(sc), "twice", 5)) {
			dwarfx_scope_free(sc);
			continue;
		}
		in++;
		ck_assert_ptr_nonnull(arg);
		ck_assert_int_eq(arg->kind, DWARFX_VAR_PARAM);
		ck_assert_str_eq(dwarfx_type_strip(arg->type)->name, "int");
		ck_assert_int_eq(own(sc, "doubled", 0)->kind, DWARFX_VAR_LOCAL);
		/* the caller's names are not the callee's */
		ck_assert_ptr_null(dwarfx_scope_find(sc, "acc"));
		dwarfx_scope_free(sc);
	}
	ck_assert_uint_gt(in, 0);
	dwarfx_free(dx);
}
END_TEST

/*
 * A gate at the line of a call whose inlined copy starts at the same
 * address: resolved as FILE:LINE, its scope is the caller's (views), while
 * the address alone gives the innermost instance.
 */
START_TEST(test_o2_caller_line_at_inlined_entry)
{
	dwarfx *dx = open_fx(FX("vars_fx_O2"));
	rg_err err = RG_ERR_INIT;
	dwarfx_loc *locs = NULL;
	size_t n = 0, k, shared = 0;
	char where[64];

	snprintf(where, sizeof(where), "vars.c:%d", marker_line(SRC("vars.c"), "spin-return"));
	ck_assert_msg(dwarfx_resolve(dx, where, &locs, &n, NULL, &err) == DWARFX_OK, "%s",
		      err.msg);
	for (k = 0; k < n; k++) {
		dwarfx_scope *sc = NULL, *inner = NULL;
		const char *fn;

		ck_assert_int_eq(dwarfx_scope_at_loc(dx, &locs[k], &sc, &err), DWARFX_OK);
		/* the instance the resolver placed the breakpoint in */
		fn = dwarfx_scope_function(sc);
		ck_assert_msg(!strncmp(fn, locs[k].function, strlen(locs[k].function)) &&
			      fn[strlen(locs[k].function)] == ' ', "%s, resolved in %s", fn,
			      locs[k].function);
		if (strcmp(locs[k].function, "spin")) {
			dwarfx_scope_free(sc);
			continue;	/* code of the line inside the inlined copy */
		}
		ck_assert_int_eq(own(sc, "acc", 0)->kind, DWARFX_VAR_LOCAL);
		ck_assert_int_eq(own(sc, "n", 0)->kind, DWARFX_VAR_PARAM);
		ck_assert_ptr_null(dwarfx_scope_find(sc, "doubled"));
		ck_assert_int_eq(dwarfx_scope_at(dx, locs[k].addr, &inner, &err), DWARFX_OK);
		shared += !strncmp(dwarfx_scope_function(inner), "twice", 5);
		dwarfx_scope_free(inner);
		dwarfx_scope_free(sc);
	}
	/* gcc starts an inlined twice() at the first instruction of the call's line */
	ck_assert_uint_gt(shared, 0);
	free(locs);
	dwarfx_free(dx);
}
END_TEST

/* ---- C++ ---- */

static void check_cxx(const char *exe, const char *name, bool o0)
{
	char nm[512], lines[512], info[512], frames[512], loc[512], buf[128];
	const struct die *this_die;
	dwarfx *dx = open_fx(exe);
	uint64_t regs[NREGS], addr;
	dwarfx_scope *sc;
	const dwarfx_var *v, *self;
	const dwarfx_type *q;
	int64_t val;
	const dwarfx_type *et;
	size_t nd;
	struct die *d;

	snprintf(nm, sizeof(nm), "%s/%s.nm", VX_OUT_DIR, name);
	snprintf(lines, sizeof(lines), "%s/%s.lines", VX_OUT_DIR, name);
	snprintf(info, sizeof(info), "%s/%s.info", VX_OUT_DIR, name);
	snprintf(frames, sizeof(frames), "%s/%s.frames", VX_OUT_DIR, name);
	snprintf(loc, sizeof(loc), "%s/%s.loc", VX_OUT_DIR, name);
	d = dies_read(info, &nd);
	choose_regs(regs);
	addr = line_addr(lines, "vars.cpp", marker_line(SRC("vars.cpp"), "push-body"));
	sc = scope(dx, addr);
	ck_assert_ptr_nonnull(strstr(dwarfx_scope_function(sc), "ns::Queue::push"));

	self = dwarfx_scope_find(sc, "this");
	ck_assert_ptr_nonnull(self);
	ck_assert_int_eq(self->kind, DWARFX_VAR_PARAM);
	ck_assert_str_eq(dwarfx_type_spell(self->type, buf, sizeof(buf)), "ns::Queue *");
	q = dwarfx_type_strip(self->type->target);
	ck_assert_ptr_eq(dwarfx_scope_type(sc, "Queue"), q);
	ck_assert_ptr_eq(dwarfx_scope_type(sc, "ns::Queue"), q);
	ck_assert(q->members[0].is_base);
	ck_assert_str_eq(q->members[0].name, "ns::Base");
	this_die = fn_child(d, nd, nm_addr(nm, "_ZN2ns5Queue4pushERKi", false),
			    "DW_TAG_formal_parameter", "this");
	if (o0) {
		struct cfa c = cfa_at(frames, addr);

		ck_assert_uint_eq(mem_addr(self, regs),
				  regs[c.reg] + (uint64_t)c.off + (uint64_t)fbreg_of(this_die));
	} else {
		struct tally t = {0, 0, 0, 0, 0, 0};

		compare_place(loc, this_die, self, addr, &t);
		ck_assert_uint_eq(t.compared, 1);
	}

	v = dwarfx_scope_find(sc, "item");
	ck_assert_int_eq(v->type->kind, DWARFX_T_REFERENCE);

	/* a static member, by its plain name inside the class and qualified */
	v = dwarfx_scope_find(sc, "instances");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->kind, DWARFX_VAR_GLOBAL);
	ck_assert_str_eq(v->name, "ns::Queue::instances");
	ck_assert_uint_eq(mem_addr(v, regs), nm_addr(nm, "_ZN2ns5Queue9instancesE", false));
	ck_assert_ptr_eq(dwarfx_scope_find(sc, "Queue::instances"), v);
	ck_assert_ptr_eq(dwarfx_scope_find(sc, "ns::Queue::instances"), v);
	/* a namespace variable, plain from inside the namespace */
	v = dwarfx_scope_find(sc, "count");
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(v->name, "ns::count");
	ck_assert_uint_eq(mem_addr(v, regs), nm_addr(nm, "_ZN2ns5countE", false));
	ck_assert_ptr_eq(dwarfx_scope_find(sc, "ns::count"), v);
	ck_assert_ptr_null(dwarfx_scope_find(sc, "::count"));
	/* a scoped enum's enumerators are qualified */
	ck_assert(dwarfx_scope_enumerator(sc, "Mode::BUSY", &val, &et));
	ck_assert_int_eq(val, 4);
	ck_assert(dwarfx_scope_enumerator(sc, "ns::Mode::BUSY", &val, &et));
	ck_assert(!dwarfx_scope_enumerator(sc, "BUSY", &val, &et));
	dwarfx_scope_free(sc);

	/* from main, outside the namespace: only qualified names */
	sc = scope(dx, line_addr(lines, "vars.cpp", marker_line(SRC("vars.cpp"), "cxx-main")));
	ck_assert_ptr_null(dwarfx_scope_find(sc, "instances"));
	ck_assert_ptr_nonnull(dwarfx_scope_find(sc, "ns::Queue::instances"));
	ck_assert_ptr_nonnull(dwarfx_scope_find(sc, "Queue::instances"));
	ck_assert_ptr_eq(dwarfx_global(dx, "ns::count"), dwarfx_scope_find(sc, "ns::count"));
	if (o0) {
		v = dwarfx_scope_find(sc, "ref");
		ck_assert_int_eq(v->type->kind, DWARFX_T_REFERENCE);
		ck_assert_str_eq(dwarfx_type_spell(v->type, buf, sizeof(buf)), "int &");
	}
	dwarfx_scope_free(sc);
	free(d);
	dwarfx_free(dx);
}

START_TEST(test_cxx_o0)
{
	check_cxx(FX("vars_fx_cxx_O0"), "vars_fx_cxx_O0", true);
}
END_TEST

/* Types in type units: a class declared in the unit, defined by signature. */
START_TEST(test_cxx_o0_type_units)
{
	check_cxx(FX("vars_fx_cxx_O0_types"), "vars_fx_cxx_O0_types", true);
}
END_TEST

START_TEST(test_cxx_o2)
{
	check_cxx(FX("vars_fx_cxx_O2"), "vars_fx_cxx_O2", false);
}
END_TEST

/*
 * Another object's names (a condition naming a shared library's variable):
 * its global, and its file static when no other static has that name.
 */
START_TEST(test_library_globals)
{
	dwarfx *dx = open_fx(FX("vars_fx_lib"));
	uint64_t regs[NREGS];
	const dwarfx_var *v;

	choose_regs(regs);
	v = dwarfx_global(dx, "lib_level");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->kind, DWARFX_VAR_GLOBAL);
	ck_assert_uint_eq(mem_addr(v, regs), nm_addr(LISTING("vars_fx_lib", "nm"),
						     "lib_level", false));
	v = dwarfx_global(dx, "lib_hidden");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->kind, DWARFX_VAR_STATIC);
	ck_assert_uint_eq(mem_addr(v, regs), nm_addr(LISTING("vars_fx_lib", "nm"),
						     "lib_hidden", false));
	ck_assert_ptr_null(dwarfx_global(dx, "counter"));
	dwarfx_free(dx);
}
END_TEST

/* ---- what has no scope ---- */

START_TEST(test_no_scope)
{
	dwarfx *dx = open_fx(FX("vars_fx_O0"));
	dwarfx_scope *sc = (dwarfx_scope *)1;
	rg_err err = RG_ERR_INIT;

	/* the startup code has no DWARF function; 0 is nowhere */
	ck_assert_int_eq(dwarfx_scope_at(dx, dwarfx_entry(dx), &sc, &err), DWARFX_NO_ENTRY);
	ck_assert_ptr_null(sc);
	ck_assert_int_eq(dwarfx_scope_at(dx, 0, &sc, &err), DWARFX_NO_ENTRY);
	dwarfx_free(dx);
}
END_TEST

static Suite *vars_suite(void)
{
	Suite *s = suite_create("vars");
	TCase *tc = tcase_create("vars");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_o0_frame_offsets);
	tcase_add_test(tc, test_o0_frame_offsets_debug_frame);
#if VX_CLANG
	tcase_add_test(tc, test_o0_frame_offsets_clang);
#endif
	tcase_add_test(tc, test_o0_cfa_entry_and_body);
	tcase_add_test(tc, test_globals_o0);
	tcase_add_test(tc, test_globals_o2);
	tcase_add_test(tc, test_struct_bitfields_enum);
	tcase_add_test(tc, test_struct_bitfields_enum_dwarf4);
	tcase_add_test(tc, test_struct_bitfields_enum_dwarf2);
	tcase_add_test(tc, test_o2_location_lists);
	tcase_add_test(tc, test_o2_dwarf4_location_lists);
	tcase_add_test(tc, test_o2_inlined_callee);
	tcase_add_test(tc, test_o2_caller_line_at_inlined_entry);
	tcase_add_test(tc, test_cxx_o0);
	tcase_add_test(tc, test_cxx_o0_type_units);
	tcase_add_test(tc, test_cxx_o2);
	tcase_add_test(tc, test_library_globals);
	tcase_add_test(tc, test_no_scope);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(vars_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
