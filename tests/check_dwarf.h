/*
 * What check_dwarf's files share (check_dwarf.c, check_dwarf_optimised.c,
 * check_dwarf_lines.c): where the fixtures are, what they say about
 * themselves, and dwarfx calls that must succeed or fail.  Defined in
 * check_dwarf.c.
 */
#ifndef CHECK_DWARF_H
#define CHECK_DWARF_H

#include "dwarfx.h"

#include <check.h>
#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SRC(f) FX_SRC_DIR "/" f
#define LISTING(t, ext) FX_OUT_DIR "/" t ext
#define INLINE_NM LISTING("dwarf_fx_inline", ".nm")

#define ck_assert_contains(s, sub) \
	ck_assert_msg(strstr((s), (sub)) != NULL, "'%s' lacks '%s'", (s), (sub))

/* ---- what the fixtures say about themselves ---- */

struct nm_sym {
	uint64_t addr, size;
	bool found;
};

int marker_line(const char *src, const char *tag);
struct nm_sym nm_lookup(const char *listing, const char *name);
bool in_sym(uint64_t addr, struct nm_sym s);
bool ends_with(const char *s, const char *suffix);
int find_libc(struct dl_phdr_info *info, size_t size, void *data);

/* ---- dwarfx helpers ---- */

dwarfx *open_ok(const char *path);
dwarfx_loc *resolve_ok(dwarfx *dx, const char *where, size_t *n);
const char *resolve_err(dwarfx *dx, const char *where);
const char *open_err(const char *path);
char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));

/* ---- the -O0 programs, PIE and not ---- */

struct prog {
	const char *path, *nm, *lines;
	bool pie;
};

extern const struct prog progs[2];

/* ---- the tests of the other files, added to the one test case ---- */

void dwarf_add_optimised(TCase *tc);  /* check_dwarf_optimised.c */
void dwarf_add_lines(TCase *tc);      /* check_dwarf_lines.c */

#endif
