/*
 * Reading the dynamic linker's rendezvous (linkmap.h).  The layouts are
 * glibc's for LP64:
 *   struct r_debug { int r_version; struct link_map *r_map;
 *                    ElfW(Addr) r_brk; enum r_state; ElfW(Addr) r_ldbase; }
 *     r_map at 8, r_brk at 16, r_state at 24
 *   struct link_map { ElfW(Addr) l_addr; char *l_name; ElfW(Dyn) *l_ld;
 *                     struct link_map *l_next, *l_prev; }
 */
#include "linkmap.h"

#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define R_MAP_OFF 8
#define R_BRK_OFF 16
#define R_STATE_OFF 24
#define RT_CONSISTENT 0
#define MAX_DYN 1024       /* dynamic entries looked at for DT_DEBUG */

uint64_t linkmap_r_debug(tracer *tr, uint64_t dyn)
{
	size_t i;

	if (!dyn)
		return 0;
	for (i = 0; i < MAX_DYN; i++, dyn += sizeof(Elf64_Dyn)) {
		Elf64_Dyn d;
		rg_err err = RG_ERR_INIT;

		if (tracer_read_mem(tr, dyn, &d, sizeof(d), &err) < 0 ||
		    d.d_tag == DT_NULL)
			return 0;
		if (d.d_tag == DT_DEBUG)
			return d.d_un.d_ptr;
	}
	return 0;
}

int linkmap_brk(tracer *tr, uint64_t r_debug, uint64_t *brk, rg_err *err)
{
	if (tracer_read_mem(tr, r_debug + R_BRK_OFF, brk, sizeof(*brk), err) < 0)
		return rg_error_prefix(err, "cannot read the dynamic linker's r_debug");
	return 0;
}

int linkmap_consistent(tracer *tr, uint64_t r_debug, bool *yes, rg_err *err)
{
	int32_t state;

	if (tracer_read_mem(tr, r_debug + R_STATE_OFF, &state, sizeof(state), err) < 0)
		return rg_error_prefix(err, "cannot read the dynamic linker's r_debug");
	*yes = state == RT_CONSISTENT;
	return 0;
}

/* A string in the program's memory; NULL when unreadable. */
static char *read_str(tracer *tr, uint64_t addr)
{
	rg_buf b = RG_BUF_INIT;
	rg_err err = RG_ERR_INIT;
	char chunk[64];

	while (b.len < PATH_MAX) {
		size_t n;

		if (tracer_read_mem(tr, addr, chunk, sizeof(chunk), &err) == 0) {
			n = strnlen(chunk, sizeof(chunk));
			rg_buf_add(&b, chunk, n);
			if (n < sizeof(chunk))
				return rg_buf_detach(&b);
			addr += n;
			continue;
		}
		/* near the end of a mapping: a byte at a time */
		if (tracer_read_mem(tr, addr, chunk, 1, &err) < 0)
			break;
		if (!chunk[0])
			return rg_buf_detach(&b);
		rg_buf_add(&b, chunk, 1);
		addr++;
	}
	rg_buf_release(&b);
	return NULL;
}

/* l_name made absolute and canonical: a relative name is the program's cwd's. */
/*
 * The files absolute names are, each found once per racegate process and
 * kept while the name leads to the same file (its device and inode): the
 * link map is read at every change to it, in every run of an explore
 * search, and realpath reads each component's link where one stat does.
 * (A fork of racegate starts with what was found before it.)  A relative
 * name depends on the program's working directory: looked up each time.
 */
#define REALPATH_MEMO 256
static struct realpath_memo {
	char *name, *real;
	dev_t dev;
	ino_t ino;
} realpaths[REALPATH_MEMO];
static size_t nrealpaths;

static const char *memo_find(const char *name, const struct stat *st)
{
	for (size_t i = 0; i < nrealpaths; i++)
		if (realpaths[i].dev == st->st_dev && realpaths[i].ino == st->st_ino &&
		    !strcmp(realpaths[i].name, name))
			return realpaths[i].real;
	return NULL;
}

static char *object_path(tracer *tr, uint64_t name_addr)
{
	char *name = read_str(tr, name_addr), *full, *path = NULL;
	const char *known;
	char real[PATH_MAX];
	struct stat st;
	bool memo;

	/* the executable has no name; "linux-vdso.so.1" is no file */
	if (!name || !*name) {
		free(name);
		return NULL;
	}
	memo = name[0] == '/' && stat(name, &st) == 0;
	if (memo && (known = memo_find(name, &st))) {
		free(name);
		return xstrdup(known);
	}
	full = name[0] == '/' ? xstrdup(name) :
	       xasprintf("/proc/%d/cwd/%s", (int)tracer_pid(tr), name);
	if (realpath(full, real)) {
		path = xstrdup(real);
		if (memo && nrealpaths < REALPATH_MEMO) {
			realpaths[nrealpaths++] = (struct realpath_memo){ name, xstrdup(real),
									 st.st_dev, st.st_ino };
			name = NULL;
		}
	}
	free(full);
	free(name);
	return path;
}

int linkmap_read(tracer *tr, uint64_t r_debug, size_t max, linkmap_obj **out,
		 size_t *n, rg_err *err)
{
	linkmap_obj *v = NULL;
	size_t nv = 0, cap = 0, i;
	uint64_t lm;

	*out = NULL;
	*n = 0;
	if (tracer_read_mem(tr, r_debug + R_MAP_OFF, &lm, sizeof(lm), err) < 0)
		return rg_error_prefix(err, "cannot read the dynamic linker's r_debug");
	for (i = 0; lm && i < max; i++) {
		uint64_t f[4];   /* l_addr, l_name, l_ld, l_next */
		char *path;

		if (tracer_read_mem(tr, lm, f, sizeof(f), err) < 0) {
			linkmap_free(v, nv);
			return rg_error_prefix(err, "cannot read the dynamic linker's "
					       "link map");
		}
		lm = f[3];
		if (!(path = object_path(tr, f[1])))
			continue;
		RG_GROW(v, nv + 1, cap);
		v[nv].path = path;
		v[nv].bias = f[0];
		nv++;
	}
	*out = v;
	*n = nv;
	return 0;
}

void linkmap_free(linkmap_obj *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}
