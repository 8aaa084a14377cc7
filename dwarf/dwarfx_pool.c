/*
 * Interned strings and a small integer map for the index.  A big binary has
 * hundreds of thousands of symbols and DIE names, many repeated (every
 * inlined copy of a function names it again): one copy each, carved from
 * large chunks, keeps opening fast and lets names compare by pointer.
 */
#include "dwarfx_int.h"

#include <stdlib.h>
#include <string.h>

#define POOL_CHUNK (64 * 1024)

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static char *pool_alloc(dwarfx_pool *p, size_t n)
{
	char *s;

	if (!p->nchunks || p->used + n > p->size) {
		size_t size = n > POOL_CHUNK ? n : POOL_CHUNK;

		RG_GROW(p->chunks, p->nchunks + 1, p->chunks_cap);
		p->chunks[p->nchunks++] = xmalloc(size);
		p->used = 0;
		p->size = size;
	}
	s = p->chunks[p->nchunks - 1] + p->used;
	p->used += n;
	return s;
}

static void pool_rehash(dwarfx_pool *p)
{
	size_t n = p->nslots ? p->nslots * 2 : 1024, i;
	const char **slots = xcalloc(n, sizeof(*slots));

	for (i = 0; i < p->nslots; i++) {
		const char *s = p->slots[i];
		size_t j;

		if (!s)
			continue;
		j = hash_bytes(s, strlen(s)) & (n - 1);
		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = s;
	}
	free(p->slots);
	p->slots = slots;
	p->nslots = n;
}

const char *dwarfx_pool_intern(dwarfx_pool *p, const char *s, size_t len)
{
	size_t j;
	char *copy;

	if ((p->count + 1) * 2 > p->nslots)
		pool_rehash(p);
	j = hash_bytes(s, len) & (p->nslots - 1);
	while (p->slots[j]) {
		const char *t = p->slots[j];

		if (!strncmp(t, s, len) && t[len] == '\0')
			return t;
		j = (j + 1) & (p->nslots - 1);
	}
	copy = pool_alloc(p, len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	p->slots[j] = copy;
	p->count++;
	return copy;
}

void dwarfx_pool_release(dwarfx_pool *p)
{
	size_t i;

	for (i = 0; i < p->nchunks; i++)
		free(p->chunks[i]);
	free(p->chunks);
	free(p->slots);
	memset(p, 0, sizeof(*p));
}

static void map_rehash(dwarfx_map *m)
{
	size_t n = m->nslots ? m->nslots * 2 : 256, i;
	uint64_t *keys = xcalloc(n, sizeof(*keys));
	uint32_t *vals = xcalloc(n, sizeof(*vals));
	unsigned char *used = xcalloc(n, 1);

	for (i = 0; i < m->nslots; i++) {
		size_t j;

		if (!m->used[i])
			continue;
		j = hash_u64(m->keys[i]) & (n - 1);
		while (used[j])
			j = (j + 1) & (n - 1);
		used[j] = 1;
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	free(m->used);
	m->keys = keys;
	m->vals = vals;
	m->used = used;
	m->nslots = n;
}

bool dwarfx_map_get(const dwarfx_map *m, uint64_t key, uint32_t *val)
{
	size_t j;

	if (!m->nslots)
		return false;
	j = hash_u64(key) & (m->nslots - 1);
	while (m->used[j]) {
		if (m->keys[j] == key) {
			*val = m->vals[j];
			return true;
		}
		j = (j + 1) & (m->nslots - 1);
	}
	return false;
}

void dwarfx_map_put(dwarfx_map *m, uint64_t key, uint32_t val)
{
	size_t j;

	if ((m->count + 1) * 2 > m->nslots)
		map_rehash(m);
	j = hash_u64(key) & (m->nslots - 1);
	while (m->used[j]) {
		if (m->keys[j] == key) {
			m->vals[j] = val;
			return;
		}
		j = (j + 1) & (m->nslots - 1);
	}
	m->used[j] = 1;
	m->keys[j] = key;
	m->vals[j] = val;
	m->count++;
}

void dwarfx_map_release(dwarfx_map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}
