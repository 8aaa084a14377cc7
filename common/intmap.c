#include "intmap.h"

#include <stdlib.h>

#include "msg.h"

/* Tids and packed pairs are dense small numbers: mix them first. */
static uint64_t hash_int(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

size_t *rg_intmap_get(const rg_intmap *m, uint64_t key)
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

static size_t *intmap_insert(rg_intmap *m, uint64_t key, size_t val)
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

size_t *rg_intmap_ref(rg_intmap *m, uint64_t key, size_t def)
{
	size_t *v = rg_intmap_get(m, key);

	if (v)
		return v;
	if (2 * (m->n + 1) > m->cap) {
		rg_intmap old = *m;
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

/*
 * Backward-shift deletion: after emptying slot i, every entry of the same
 * probe run that could live at i (its home slot is not cyclically within
 * (i, j]) moves there, and the hole moves on to where it came from.
 */
bool rg_intmap_del(rg_intmap *m, uint64_t key)
{
	size_t *v = rg_intmap_get(m, key);
	size_t mask, i, j;

	if (!v)
		return false;
	mask = m->cap - 1;
	i = (size_t)(v - m->vals);
	m->used[i] = 0;
	m->n--;
	for (j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
		size_t home = hash_int(m->keys[j]) & mask;

		if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
			continue;
		m->keys[i] = m->keys[j];
		m->vals[i] = m->vals[j];
		m->used[i] = 1;
		m->used[j] = 0;
		i = j;
	}
	return true;
}

void rg_intmap_release(rg_intmap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	m->keys = NULL;
	m->vals = NULL;
	m->used = NULL;
	m->n = m->cap = 0;
}
