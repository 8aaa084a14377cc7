/*
 * dwarfx_dyn: what an ELF file says about its dynamic linking, and where
 * the dynamic linker (glibc's ld.so) would find the libraries it needs.
 * Read with libelf, no DWARF; used to look for a gate's location in the
 * libraries a program is linked with before it runs (`racegate check`),
 * and to find the executable's dynamic section and interpreter in a run.
 *
 * The search follows ld.so(8): a name with a '/' is a path; else
 * DT_RPATH (when there is no DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH,
 * /etc/ld.so.cache, then the default directories; $ORIGIN is the
 * directory of the object that needs the library.  Only ELF64 objects
 * of racegate's machine (arch/) count as found, as ld.so skips the others.
 */
#ifndef RACEGATE_DWARFX_DYN_H
#define RACEGATE_DWARFX_DYN_H

#include <stddef.h>
#include <stdint.h>

#include "msg.h"

typedef struct dwarfx_dyn {
	uint64_t dyn_vaddr;    /* PT_DYNAMIC, link-time; 0 when static */
	char *interp;          /* PT_INTERP, or NULL */
	char **needed;         /* DT_NEEDED names, in order */
	size_t nneeded;
	char *rpath, *runpath; /* or NULL */
} dwarfx_dyn;
#define DWARFX_DYN_INIT {0, NULL, NULL, 0, NULL, NULL}

/*
 * Reads path's program headers and dynamic section into *out (which it
 * first clears).  A static executable succeeds with nothing in it; -1 when
 * path is no readable ELF file.  Release *out either way.
 */
int dwarfx_dyn_read(const char *path, dwarfx_dyn *out, rg_err *err);
void dwarfx_dyn_release(dwarfx_dyn *d);

/* The search state of one session: ld.so.cache is read once. */
typedef struct dwarfx_ldpath dwarfx_ldpath;

/*
 * ld_library_path: the value of LD_LIBRARY_PATH the program will get (or
 * NULL); cache: the ld.so.cache file (NULL: /etc/ld.so.cache).
 */
dwarfx_ldpath *dwarfx_ldpath_new(const char *ld_library_path, const char *cache);
void dwarfx_ldpath_free(dwarfx_ldpath *lp);

/*
 * The canonical path of library name as ld.so finds it for the object at
 * from_path (whose dynamic information is from), or NULL; malloc'd.
 */
char *dwarfx_ldpath_find(dwarfx_ldpath *lp, const char *name,
			 const dwarfx_dyn *from, const char *from_path);

/*
 * The libraries exe is linked with, and theirs, breadth first as ld.so
 * loads them, each once (canonical paths, exe itself left out), at most
 * max: *out is malloc'd, each path too.  Returns how many.
 */
size_t dwarfx_needed_closure(dwarfx_ldpath *lp, const char *exe, size_t max,
			     char ***out);

#endif
