/*
 * A hash map from integers (thread ids, packed pairs) to size_t values, so
 * that 1,000 threads keep each look-up proportional to what it touches,
 * never to the size of the run.  Used by tracer/ (threads by tid), runner/
 * and gates/.
 *
 * Open addressing with linear probing, power-of-two tables kept at most half
 * full.  Deletion moves back the entries that follow (no tombstones), so a
 * map whose keys come and go (threads that exit) stays as small as its live
 * keys.
 */
#ifndef RACEGATE_INTMAP_H
#define RACEGATE_INTMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rg_intmap {
	uint64_t *keys;
	size_t *vals;
	unsigned char *used;
	size_t n, cap;
} rg_intmap;
#define RG_INTMAP_INIT {NULL, NULL, NULL, 0, 0}

/* The value stored under key, or NULL.  Valid until the next ref or del. */
size_t *rg_intmap_get(const rg_intmap *m, uint64_t key);
/* The value under key, inserted as def first when absent. */
size_t *rg_intmap_ref(rg_intmap *m, uint64_t key, size_t def);
/* Removes key; false when it was not there. */
bool rg_intmap_del(rg_intmap *m, uint64_t key);
void rg_intmap_release(rg_intmap *m);

#endif
