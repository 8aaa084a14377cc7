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

/* Tids and (thread, gate) pairs are dense small numbers: mix them first. */
static uint64_t hash_int(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
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

size_t *gate_intmap_get(const gate_intmap *m, uint64_t key)
{
	size_t mask, i;

	if (!m->cap)
		return NULL;
	mask = m->cap - 1;
	for (i = hash_int(key) & mask; m->used[i]; i = (i + 1) & mask)
		if (m->keys[i] == key)
			return &m->vals[i];
	return NULL;
}

static size_t *intmap_insert(gate_intmap *m, uint64_t key, size_t val)
{
	size_t mask = m->cap - 1, i;

	for (i = hash_int(key) & mask; m->used[i]; i = (i + 1) & mask)
		;
	m->used[i] = 1;
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
	return &m->vals[i];
}

size_t *gate_intmap_ref(gate_intmap *m, uint64_t key, size_t def)
{
	size_t *v = gate_intmap_get(m, key);

	if (v)
		return v;
	if (2 * (m->n + 1) > m->cap) {
		gate_intmap old = *m;
		size_t i;

		m->cap = old.cap ? old.cap * 2 : 16;
		m->n = 0;
		m->keys = xcalloc(m->cap, sizeof(*m->keys));
		m->vals = xcalloc(m->cap, sizeof(*m->vals));
		m->used = xcalloc(m->cap, 1);
		for (i = 0; i < old.cap; i++)
			if (old.used[i])
				intmap_insert(m, old.keys[i], old.vals[i]);
		free(old.keys);
		free(old.vals);
		free(old.used);
	}
	return intmap_insert(m, key, def);
}

void gate_intmap_release(gate_intmap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	m->keys = NULL;
	m->vals = NULL;
	m->used = NULL;
	m->n = m->cap = 0;
}
