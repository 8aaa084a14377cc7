#include "gmap.h"

#include <stdlib.h>
#include <string.h>

#include "msg.h"

/* FNV-1a: short keys, good enough spread, no state. */
static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

size_t *gate_strmap_get(const gate_strmap *m, const char *key)
{
	size_t mask, i;

	if (!m->cap)
		return NULL;
	mask = m->cap - 1;
	for (i = hash_str(key) & mask; m->keys[i]; i = (i + 1) & mask)
		if (!strcmp(m->keys[i], key))
			return &m->vals[i];
	return NULL;
}

static void strmap_insert(gate_strmap *m, const char *key, size_t val)
{
	size_t mask = m->cap - 1, i;

	for (i = hash_str(key) & mask; m->keys[i]; i = (i + 1) & mask)
		;
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
}

void gate_strmap_put(gate_strmap *m, const char *key, size_t val)
{
	size_t *v = gate_strmap_get(m, key);

	if (v) {
		*v = val;
		return;
	}
	if (2 * (m->n + 1) > m->cap) {
		gate_strmap old = *m;
		size_t i;

		m->cap = old.cap ? old.cap * 2 : 16;
		m->n = 0;
		m->keys = xcalloc(m->cap, sizeof(*m->keys));
		m->vals = xcalloc(m->cap, sizeof(*m->vals));
		for (i = 0; i < old.cap; i++)
			if (old.keys[i])
				strmap_insert(m, old.keys[i], old.vals[i]);
		free(old.keys);
		free(old.vals);
	}
	strmap_insert(m, key, val);
}

void gate_strmap_release(gate_strmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->n = m->cap = 0;
}
