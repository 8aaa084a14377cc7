/*
 * linkmap: the dynamic linker's list of loaded objects, read from a traced
 * process as debuggers do (glibc's <link.h>, the "rendezvous").  ld.so
 * keeps a struct r_debug whose address it stores in the executable's
 * DT_DEBUG entry; r_map heads the link_map chain (each object's name and
 * load bias, l_addr), r_brk is a function ld.so calls before and after
 * every change, and r_state says whether the chain is consistent.
 *
 * Only memory reads, through tracer_read_mem: the caller decides where to
 * break and when to look.
 */
#ifndef RACEGATE_LINKMAP_H
#define RACEGATE_LINKMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"
#include "tracer.h"

/* One loaded object with a file. */
typedef struct linkmap_obj {
	char *path;            /* canonical (relative names resolved in the program's cwd) */
	uint64_t bias;         /* l_addr: run-time minus link-time addresses */
} linkmap_obj;

/*
 * The run-time address of r_debug, read from DT_DEBUG in the dynamic
 * section at run-time address dyn; 0 when ld.so has not set it yet (or
 * the section is unreadable).
 */
uint64_t linkmap_r_debug(tracer *tr, uint64_t dyn);

/* r_brk of the r_debug at r_debug (run-time), into *brk. */
int linkmap_brk(tracer *tr, uint64_t r_debug, uint64_t *brk, rg_err *err);

/* Is the chain consistent (r_state == RT_CONSISTENT)?  Into *yes. */
int linkmap_consistent(tracer *tr, uint64_t r_debug, bool *yes, rg_err *err);

/*
 * Walks the chain (at most max entries): each object that has a file (not
 * the executable, whose name is empty, nor the vDSO), in chain order.
 * *out is malloc'd; free with linkmap_free.
 */
int linkmap_read(tracer *tr, uint64_t r_debug, size_t max, linkmap_obj **out,
		 size_t *n, rg_err *err);
void linkmap_free(linkmap_obj *v, size_t n);

#endif
