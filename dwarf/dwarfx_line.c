/*
 * A unit's line program, decoded straight from the bytes of .debug_line.
 *
 * libdwarf's dwarf_srclines_b allocates an object per row and hands each
 * field out through a call; for a 10 MB program (half a million rows) that
 * was most of dwarfx_open.  The line program is a small state machine over a
 * flat byte array, so this reads it directly, row by row, into the index.
 *
 * Anything this reader does not know (a version other than 2 to 5, VLIW
 * operation indexes, a string form it cannot reach, a header that does not
 * add up) makes it decline with 1 before any row is delivered: the caller
 * then asks libdwarf, which either reads it or says what is wrong.
 */
#include "dwarfx_int.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

/* Corrupt headers can claim anything; real ones stay far below. */
#define MAX_ENTRIES 100000

struct cursor {
	const unsigned char *p, *end;
	bool bad;                /* read past the end: the values are 0 */
};

static uint64_t get_u(struct cursor *c, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if ((size_t)(c->end - c->p) < n) {
		c->bad = true;
		c->p = c->end;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static uint64_t get_uleb(struct cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (c->p < c->end) {
		unsigned char b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	c->bad = true;
	return 0;
}

static int64_t get_sleb(struct cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (c->p < c->end) {
		unsigned char b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return (int64_t)v;
		}
	}
	c->bad = true;
	return 0;
}

/* A NUL-terminated string in the data, or NULL when it runs off the end. */
static const char *get_str(struct cursor *c)
{
	const unsigned char *nul = memchr(c->p, '\0', (size_t)(c->end - c->p));
	const char *s = (const char *)c->p;

	if (!nul) {
		c->bad = true;
		c->p = c->end;
		return NULL;
	}
	c->p = nul + 1;
	return s;
}

/* The string at off in a string section, or NULL. */
static const char *sec_str(const struct dwarfx_bytes *sec, uint64_t off)
{
	if (!sec->p || off >= sec->n || !memchr(sec->p + off, '\0', sec->n - off))
		return NULL;
	return (const char *)sec->p + off;
}

struct header {
	unsigned version, offset_size, addr_size;
	unsigned min_inst, line_range, opcode_base;
	int line_base;
	bool default_stmt;
	const unsigned char *std_lengths;   /* opcode_base - 1 of them */
	const char **dirs;
	size_t ndirs;
};

/*
 * DWARF 5 directory or file entries: a format (content type, form pairs),
 * then the entries.  Keeps each entry's path and directory index.
 * Returns false on anything unknown.
 */
static bool read_entries(const dwarfx *dx, struct cursor *c, const struct header *h,
			 const char ***paths, uint64_t **dirs, size_t *n)
{
	uint64_t types[16], forms[16], count, i;
	unsigned nfmt = (unsigned)get_u(c, 1), k;

	if (nfmt > 16)
		return false;
	for (k = 0; k < nfmt; k++) {
		types[k] = get_uleb(c);
		forms[k] = get_uleb(c);
	}
	count = get_uleb(c);
	if (c->bad || count > MAX_ENTRIES)
		return false;
	*paths = xcalloc(count ? count : 1, sizeof(**paths));
	if (dirs)
		*dirs = xcalloc(count ? count : 1, sizeof(**dirs));
	*n = count;
	for (i = 0; i < count; i++) {
		for (k = 0; k < nfmt; k++) {
			const char *s = NULL;
			uint64_t v = 0;

			switch (forms[k]) {
			case DW_FORM_string:
				s = get_str(c);
				break;
			case DW_FORM_line_strp:
				s = sec_str(&dx->sec_line_str, get_u(c, h->offset_size));
				if (!s)
					return false;
				break;
			case DW_FORM_strp:
				s = sec_str(&dx->sec_str, get_u(c, h->offset_size));
				if (!s)
					return false;
				break;
			case DW_FORM_udata:
				v = get_uleb(c);
				break;
			case DW_FORM_data1:
				v = get_u(c, 1);
				break;
			case DW_FORM_data2:
				v = get_u(c, 2);
				break;
			case DW_FORM_data4:
				v = get_u(c, 4);
				break;
			case DW_FORM_data8:
				v = get_u(c, 8);
				break;
			case DW_FORM_data16:
				get_u(c, 8);
				get_u(c, 8);
				break;
			case DW_FORM_block:
				v = get_uleb(c);
				if (v > (uint64_t)(c->end - c->p))
					return false;
				c->p += v;
				break;
			default:
				return false;	/* strx needs the unit's offsets: libdwarf */
			}
			if (c->bad)
				return false;
			if (types[k] == DW_LNCT_path)
				(*paths)[i] = s;
			else if (types[k] == DW_LNCT_directory_index && dirs)
				(*dirs)[i] = v;
		}
	}
	return true;
}

/*
 * The path of file entry name in directory dir, as libdwarf's
 * dwarf_linesrc gives it: the directory joined unless the name is
 * absolute.  A relative result is joined to the comp dir by the caller.
 */
static const char *join(rg_buf *b, const char *dir, const char *name)
{
	if (!name)
		return "<unknown>";
	if (name[0] == '/' || !dir || !*dir)
		return name;
	b->len = 0;
	rg_buf_puts(b, dir);
	rg_buf_puts(b, "/");
	rg_buf_puts(b, name);
	return b->s;
}

/* The file table of the header at c: names[i] for file register value i. */
static bool read_files(const dwarfx *dx, struct cursor *c, struct header *h,
		       rg_buf *paths, size_t **starts, size_t *nfiles)
{
	const char **names = NULL;
	uint64_t *dirs = NULL;
	size_t n = 0, i, ncap = 0, dcap = 0;
	rg_buf tmp = RG_BUF_INIT;

	if (h->version >= 5) {
		const char **dnames = NULL;
		size_t nd = 0;

		if (!read_entries(dx, c, h, &dnames, NULL, &nd)) {
			free(dnames);
			return false;
		}
		h->dirs = dnames;
		h->ndirs = nd;
		if (!read_entries(dx, c, h, &names, &dirs, &n)) {
			free(names);
			free(dirs);
			return false;
		}
	} else {
		/* include_directories, then file_names: each list ends with "" */
		const char *s;
		size_t hcap = 0;

		RG_GROW(h->dirs, 1, hcap);
		h->dirs[0] = NULL;	/* directory 0: the comp dir */
		h->ndirs = 1;
		while ((s = get_str(c)) && *s && h->ndirs < MAX_ENTRIES) {
			RG_GROW(h->dirs, h->ndirs + 1, hcap);
			h->dirs[h->ndirs++] = s;
		}
		if (!s || *s)
			return false;
		/* file register 1 is the first entry: slot 0 stays empty */
		RG_GROW(names, 1, ncap);
		RG_GROW(dirs, 1, dcap);
		names[0] = NULL;
		dirs[0] = 0;
		n = 1;
		while ((s = get_str(c)) && *s && n < MAX_ENTRIES) {
			RG_GROW(names, n + 1, ncap);
			RG_GROW(dirs, n + 1, dcap);
			names[n] = s;
			dirs[n] = get_uleb(c);
			get_uleb(c);	/* mtime */
			get_uleb(c);	/* length */
			n++;
		}
		if (!s || *s || c->bad) {
			free(names);
			free(dirs);
			return false;
		}
	}
	/* every path, NUL-separated in one buffer */
	*starts = xcalloc(n ? n : 1, sizeof(**starts));
	for (i = 0; i < n; i++) {
		const char *dir = dirs[i] < h->ndirs ? h->dirs[dirs[i]] : NULL;
		const char *p;

		if (h->version < 5 && i == 0) {
			(*starts)[i] = SIZE_MAX;	/* no such file */
			continue;
		}
		if (dirs[i] >= h->ndirs && names[i] && names[i][0] != '/') {
			(*starts)[i] = SIZE_MAX;
			continue;
		}
		p = join(&tmp, dir, names[i]);
		(*starts)[i] = paths->len;
		rg_buf_puts(paths, p);
		rg_buf_add(paths, "", 1);
	}
	*nfiles = n;
	rg_buf_release(&tmp);
	free(names);
	free(dirs);
	return true;
}

/*
 * The unit header at off, up to its file tables: fills h, leaves c at the
 * tables and prog over the line number program.  False when the unit is
 * one this reader does not take (libdwarf reads it instead).
 */
static bool read_header(const dwarfx *dx, uint64_t off, struct header *h,
			struct cursor *c, struct cursor *prog)
{
	uint64_t len, hlen;

	if (!dx->sec_line.p || off >= dx->sec_line.n)
		return false;
	c->p = dx->sec_line.p + off;
	c->end = dx->sec_line.p + dx->sec_line.n;
	c->bad = false;
	len = get_u(c, 4);
	h->offset_size = 4;
	if (len == 0xffffffff) {
		len = get_u(c, 8);
		h->offset_size = 8;
	} else if (len >= 0xfffffff0) {
		return false;
	}
	if (c->bad || len > (uint64_t)(c->end - c->p))
		return false;
	c->end = c->p + len;
	h->version = (unsigned)get_u(c, 2);
	if (h->version < 2 || h->version > 5)
		return false;
	h->addr_size = 8;
	if (h->version >= 5) {
		h->addr_size = (unsigned)get_u(c, 1);
		if (get_u(c, 1) != 0)	/* segment selector size */
			return false;
	}
	hlen = get_u(c, h->offset_size);
	if (c->bad || hlen > (uint64_t)(c->end - c->p))
		return false;
	prog->p = c->p + hlen;
	prog->end = c->end;
	prog->bad = false;
	h->min_inst = (unsigned)get_u(c, 1);
	if (h->version >= 4 && get_u(c, 1) != 1)
		return false;	/* VLIW: several operations per instruction */
	h->default_stmt = get_u(c, 1) != 0;
	h->line_base = (int8_t)get_u(c, 1);
	h->line_range = (unsigned)get_u(c, 1);
	h->opcode_base = (unsigned)get_u(c, 1);
	if (c->bad || !h->line_range || !h->opcode_base || h->addr_size != 8 ||
	    (size_t)(c->end - c->p) < h->opcode_base - 1)
		return false;
	h->std_lengths = c->p;
	c->p += h->opcode_base - 1;
	return true;
}

/* The unit's file names, as read_files kept them. */
struct files {
	rg_buf paths;
	size_t *starts;
	size_t n;
};

static const char *file_path(const struct files *f, uint64_t file)
{
	return file < f->n && f->starts[file] != SIZE_MAX ? f->paths.s + f->starts[file] : NULL;
}

/* The state machine of the line number program: every row to cb. */
static int run_program(const struct header *h, struct cursor *prog,
		       const struct files *f, dwarfx_row_cb cb, void *arg)
{
	uint64_t addr = 0, file = 1, line = 1;
	bool stmt = h->default_stmt;
	int ret = 0;

	while (prog->p < prog->end && !prog->bad && !ret) {
		unsigned op = *prog->p++;

		if (op >= h->opcode_base) {
			unsigned adj = op - h->opcode_base;

			addr += (uint64_t)(adj / h->line_range) * h->min_inst;
			line += (uint64_t)(int64_t)(h->line_base + (int)(adj % h->line_range));
		} else if (op == 0) {
			uint64_t elen = get_uleb(prog);
			const unsigned char *next;
			unsigned sub;

			if (prog->bad || !elen || elen > (uint64_t)(prog->end - prog->p))
				return -1;
			next = prog->p + elen;
			sub = *prog->p++;
			if (sub == DW_LNE_end_sequence) {
				ret = cb(arg, addr, file, file_path(f, file), line, stmt, true);
				addr = 0;
				file = line = 1;
				stmt = h->default_stmt;
			} else if (sub == DW_LNE_set_address) {
				if (elen != 9)
					return -1;
				addr = get_u(prog, 8);
			} else if (sub == DW_LNE_define_file) {
				return -1;	/* rare: libdwarf knows it */
			}
			prog->p = next;
			continue;
		} else {
			switch (op) {
			case DW_LNS_copy:
				break;
			case DW_LNS_advance_pc:
				addr += get_uleb(prog) * h->min_inst;
				continue;
			case DW_LNS_advance_line:
				line += (uint64_t)get_sleb(prog);
				continue;
			case DW_LNS_set_file:
				file = get_uleb(prog);
				continue;
			case DW_LNS_negate_stmt:
				stmt = !stmt;
				continue;
			case DW_LNS_const_add_pc:
				addr += (uint64_t)((255 - h->opcode_base) / h->line_range) *
					h->min_inst;
				continue;
			case DW_LNS_fixed_advance_pc:
				addr += get_u(prog, 2);
				continue;
			default: {
				/* set_column, basic_block, prologue_end, ...: operands only */
				unsigned k, nargs = h->std_lengths[op - 1];

				for (k = 0; k < nargs; k++)
					get_uleb(prog);
				continue;
			}
			}
		}
		/* a row: special opcodes and DW_LNS_copy */
		ret = cb(arg, addr, file, file_path(f, file), line, stmt, false);
	}
	if (prog->bad && !ret)
		ret = -1;
	return ret;
}

int dwarfx_line_program(const dwarfx *dx, uint64_t off, dwarfx_row_cb cb, void *arg)
{
	struct cursor c, prog;
	struct header h;
	struct files f = {RG_BUF_INIT, NULL, 0};
	int ret = 1;

	memset(&h, 0, sizeof(h));
	if (!read_header(dx, off, &h, &c, &prog))
		return 1;
	if (read_files(dx, &c, &h, &f.paths, &f.starts, &f.n) && !c.bad && c.p <= prog.p)
		ret = run_program(&h, &prog, &f, cb, arg);
	free(h.dirs);
	free(f.starts);
	rg_buf_release(&f.paths);
	return ret;
}
