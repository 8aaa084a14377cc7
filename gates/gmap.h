/*
 * String maps private to gates/.  The engine indexes events, aliases and
 * selector classes by name (and threads by tid, with common/intmap.h), so
 * that 1,000 threads and 10,000 gates keep every call proportional to what
 * it touches, never to the size of the run.
 *
 * Open addressing with linear probing, power-of-two tables kept at most half
 * full.  Nothing is ever deleted (the engine overwrites values instead), so
 * probing needs no tombstones.
 */
#ifndef RACEGATE_GMAP_H
#define RACEGATE_GMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct gate_strmap {
	const char **keys;  /* borrowed: the caller keeps each key alive as long as the map */
	size_t *vals;
	size_t n, cap;
} gate_strmap;
#define GATE_STRMAP_INIT {NULL, NULL, 0, 0}

/* The value stored under key, or NULL. */
size_t *gate_strmap_get(const gate_strmap *m, const char *key);
/* Stores val under key (the key pointer is kept, not copied). */
void gate_strmap_put(gate_strmap *m, const char *key, size_t val);
void gate_strmap_release(gate_strmap *m);

#endif
