/*
 * Sites and biases: a gate's place is (object, link-time address), kept
 * that way from resolution to the timeline; a run's bias table is the one
 * place where it becomes an address in the traced process.  Before this,
 * one field held a link-time address of the executable for some gates and
 * a run-time address of a library for others, and what was looked up about
 * a library's gate was looked up in the executable.
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "tracer.h"

static void grow(run_bias *b, size_t obj)
{
	size_t n = b->n, i;

	if (obj < n)
		return;
	b->n = obj + 1;
	b->obj = xrealloc(b->obj, b->n * sizeof(*b->obj));
	b->mapped = xrealloc(b->mapped, b->n * sizeof(*b->mapped));
	for (i = n; i < b->n; i++) {
		b->obj[i] = 0;
		b->mapped[i] = false;
	}
}

void run_bias_map(run_bias *b, size_t obj, uint64_t bias)
{
	RG_ASSERT(obj != PLAN_EXE);
	grow(b, obj);
	b->obj[obj] = bias;
	b->mapped[obj] = true;
}

void run_bias_unmap(run_bias *b, size_t obj)
{
	if (obj < b->n)
		b->mapped[obj] = false;
}

bool run_bias_mapped(const run_bias *b, rg_site s)
{
	return s.obj == PLAN_EXE || (s.obj < b->n && b->mapped[s.obj]);
}

uint64_t run_bias_addr(const run_bias *b, rg_site s)
{
	if (s.obj == PLAN_EXE)
		return s.link_addr + b->exe;
	if (!run_bias_mapped(b, s))
		rg_bug("a site in object %zu, which is not mapped, was asked for "
		       "its run-time address", s.obj);
	return s.link_addr + b->obj[s.obj];
}

rg_site run_bias_exe_site(const run_bias *b, uint64_t addr)
{
	rg_site s = {PLAN_EXE, addr - b->exe};

	return s;
}

void run_bias_release(run_bias *b)
{
	free(b->obj);
	free(b->mapped);
	memset(b, 0, sizeof(*b));
}

dwarfx *plan_site_dx(const plan *p, rg_site s)
{
	if (s.obj == PLAN_EXE)
		return p->dx;
	return s.obj < p->nobjs ? p->objs[s.obj].dx : NULL;
}

char *plan_site_str(const plan *p, rg_site s)
{
	const char *path, *base;

	if (s.obj == PLAN_EXE || s.obj >= p->nobjs)
		return xasprintf("0x%llx", (unsigned long long)s.link_addr);
	path = p->objs[s.obj].path;
	base = strrchr(path, '/');
	return xasprintf("%s+0x%llx", base ? base + 1 : path,
			 (unsigned long long)s.link_addr);
}

/* The mapping of path at file offset 0: where the object's first page is. */
static const tracer_map *first_mapping(const tracer_map *maps, size_t n, const char *path)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (maps[j].path && maps[j].offset == 0 && !strcmp(maps[j].path, path))
			return &maps[j];
	return NULL;
}

/* a in the file mapped at maps[i] (first: its first page), as an object of p. */
static bool object_site(plan *p, const tracer_map *maps, size_t i,
			const tracer_map *first, uint64_t a, rg_site *out)
{
	size_t o = plan_object_index(p, maps[i].path);

	if (!p->objs[o].dx)
		return false;
	out->obj = o;
	out->link_addr = a - (first->start - dwarfx_load_base(p->objs[o].dx));
	return true;
}

/* The mapping of a file that holds a, or n. */
static size_t file_at(const tracer_map *maps, size_t n, uint64_t a)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (maps[i].path && a >= maps[i].start && a < maps[i].end)
			break;
	return i;
}

bool run_site_at(plan *p, const tracer_map *maps, size_t n, uint64_t exe_bias,
		 bool anon_is_exe, uint64_t a, rg_site *out)
{
	const tracer_map *first = NULL;
	size_t i = file_at(maps, n, a);

	if (i == n && !anon_is_exe)
		return false;
	if (i < n && !(first = first_mapping(maps, n, maps[i].path)))
		return false;
	if (i == n || first->start - dwarfx_load_base(p->dx) == exe_bias) {
		out->obj = PLAN_EXE;
		out->link_addr = a - exe_bias;
		return true;
	}
	return object_site(p, maps, i, first, a, out);
}

bool run_site_in_files(plan *p, const tracer_map *maps, size_t n, uint64_t a,
		       rg_site *out)
{
	const tracer_map *first;
	size_t i = file_at(maps, n, a);

	if (i == n || !(first = first_mapping(maps, n, maps[i].path)))
		return false;
	return object_site(p, maps, i, first, a, out);
}
