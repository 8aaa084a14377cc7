/*
 * Types for the compiler: C's own integer types, how a type is spelt in a
 * message, promotions and the usual arithmetic conversions, pointer
 * compatibility, and member lookup (anonymous members and C++ bases
 * searched) with the nearest name for "did you mean".
 *
 * expr keeps its own spelling and typedef stripping rather than calling
 * dwarf's, so it is unit-tested on hand-made types and links no DWARF.
 */
#include <stdio.h>
#include <string.h>

#include "expr_type.h"

/* Bounds on walks over types, which come from the program's DWARF. */
#define TYPE_MAX_CHAIN 32

#define INT_T(nm, sz, sg) { .kind = DWARFX_T_INT, .name = nm, .size = sz, .is_signed = sg }
const dwarfx_type expr_t_int = INT_T("int", 4, true);
const dwarfx_type expr_t_uint = INT_T("unsigned int", 4, false);
const dwarfx_type expr_t_long = INT_T("long", 8, true);
const dwarfx_type expr_t_ulong = INT_T("unsigned long", 8, false);
const dwarfx_type expr_t_llong = INT_T("long long", 8, true);
const dwarfx_type expr_t_ullong = INT_T("unsigned long long", 8, false);
const dwarfx_type expr_t_short = INT_T("short", 2, true);
const dwarfx_type expr_t_ushort = INT_T("unsigned short", 2, false);
const dwarfx_type expr_t_char = { .kind = DWARFX_T_INT, .name = "char", .size = 1,
				  .is_signed = true, .is_char = true };
const dwarfx_type expr_t_schar = { .kind = DWARFX_T_INT, .name = "signed char", .size = 1,
				   .is_signed = true, .is_char = true };
const dwarfx_type expr_t_uchar = { .kind = DWARFX_T_INT, .name = "unsigned char", .size = 1,
				   .is_char = true };
const dwarfx_type expr_t_bool = { .kind = DWARFX_T_INT, .name = "_Bool", .size = 1,
				  .is_bool = true };
const dwarfx_type expr_t_double = { .kind = DWARFX_T_FLOAT, .name = "double", .size = 8 };
const dwarfx_type expr_t_void = { .kind = DWARFX_T_VOID, .name = "void" };
const dwarfx_type expr_t_voidp = { .kind = DWARFX_T_POINTER, .size = 8,
				   .target = &expr_t_void };

const dwarfx_type *expr_strip(const dwarfx_type *t)
{
	int i;

	for (i = 0; t && t->kind == DWARFX_T_TYPEDEF && i < TYPE_MAX_CHAIN; i++)
		t = t->target;
	return t;
}

static void cat(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n + 1 < len)
		snprintf(buf + n, len - n, "%s", s);
}

static void spell(const dwarfx_type *t, char *buf, size_t len, int depth)
{
	char tmp[32];

	if (!t) {
		cat(buf, len, "void");
		return;
	}
	if (depth > TYPE_MAX_CHAIN) {
		cat(buf, len, "...");
		return;
	}
	switch (t->kind) {
	case DWARFX_T_STRUCT:
	case DWARFX_T_UNION:
	case DWARFX_T_ENUM:
		cat(buf, len, t->kind == DWARFX_T_STRUCT ? "struct " :
			      t->kind == DWARFX_T_UNION ? "union " : "enum ");
		cat(buf, len, t->name ? t->name : "<anonymous>");
		break;
	case DWARFX_T_POINTER:
	case DWARFX_T_REFERENCE:
		if (t->target && expr_strip(t->target) &&
		    expr_strip(t->target)->kind == DWARFX_T_FUNC && !t->target->name) {
			cat(buf, len, "function pointer");
			break;
		}
		spell(t->target, buf, len, depth + 1);
		if (strlen(buf) && buf[strlen(buf) - 1] != '*' && buf[strlen(buf) - 1] != '&')
			cat(buf, len, " ");
		cat(buf, len, t->kind == DWARFX_T_POINTER ? "*" : "&");
		break;
	case DWARFX_T_ARRAY:
		spell(t->target, buf, len, depth + 1);
		if (t->count)
			snprintf(tmp, sizeof(tmp), " [%llu]", (unsigned long long)t->count);
		else
			snprintf(tmp, sizeof(tmp), " []");
		cat(buf, len, tmp);
		break;
	case DWARFX_T_FUNC:
		cat(buf, len, t->name ? t->name : "function");
		break;
	case DWARFX_T_VOID:
		cat(buf, len, "void");
		break;
	default:
		cat(buf, len, t->name ? t->name : "?");
	}
}

const char *expr_spell(const dwarfx_type *t, char *buf, size_t len)
{
	buf[0] = '\0';
	spell(t, buf, len, 0);
	return buf;
}

bool expr_is_int(const dwarfx_type *t)
{
	t = expr_strip(t);
	return t && (t->kind == DWARFX_T_INT || t->kind == DWARFX_T_ENUM);
}

bool expr_is_ptr(const dwarfx_type *t)
{
	t = expr_strip(t);
	return t && t->kind == DWARFX_T_POINTER;
}

bool expr_is_scalar(const dwarfx_type *t)
{
	return expr_is_int(t) || expr_is_ptr(t);
}

/* Size and signedness an enum is read with. */
static void enum_repr(const dwarfx_type *t, uint64_t *size, bool *sgn)
{
	const dwarfx_type *u = expr_strip(t->target);

	if (u && u->kind == DWARFX_T_INT) {
		*size = u->size;
		*sgn = u->is_signed;
	} else {
		*size = t->size ? t->size : 4;
		*sgn = t->is_signed;
	}
}

bool expr_int_repr(const dwarfx_type *t, uint64_t *size, bool *sgn)
{
	t = expr_strip(t);
	if (!t)
		return false;
	if (t->kind == DWARFX_T_ENUM) {
		enum_repr(t, size, sgn);
	} else if (t->kind == DWARFX_T_INT) {
		*size = t->size;
		*sgn = t->is_signed && !t->is_bool;
	} else if (t->kind == DWARFX_T_POINTER) {
		*size = t->size ? t->size : 8;
		*sgn = false;
	} else {
		return false;
	}
	return true;
}

const dwarfx_type *expr_promote(const dwarfx_type *t)
{
	uint64_t size;
	bool sgn;

	if (!expr_int_repr(t, &size, &sgn) || size > 8)
		return NULL;
	if (size < 4)
		return &expr_t_int;
	if (size == 4)
		return sgn ? &expr_t_int : &expr_t_uint;
	return sgn ? &expr_t_long : &expr_t_ulong;
}

/* C11 6.3.1.8 for promoted operands of int, unsigned int, long, unsigned long. */
const dwarfx_type *expr_usual(const dwarfx_type *a, const dwarfx_type *b)
{
	if (a->size == b->size) {
		if (a->is_signed && b->is_signed)
			return a;
		return a->size == 8 ? &expr_t_ulong : &expr_t_uint;
	}
	/* a wider signed type holds every value of a narrower unsigned one */
	return a->size > b->size ? a : b;
}

static bool same_type(const dwarfx_type *a, const dwarfx_type *b, int depth)
{
	a = expr_strip(a);
	b = expr_strip(b);
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind || depth > TYPE_MAX_CHAIN)
		return false;
	switch (a->kind) {
	case DWARFX_T_INT:
		return a->size == b->size && a->is_signed == b->is_signed &&
		       a->is_bool == b->is_bool;
	case DWARFX_T_STRUCT:
	case DWARFX_T_UNION:
	case DWARFX_T_ENUM:
		return a->name && b->name && !strcmp(a->name, b->name);
	case DWARFX_T_POINTER:
	case DWARFX_T_REFERENCE:
	case DWARFX_T_ARRAY:
		return same_type(a->target, b->target, depth + 1);
	case DWARFX_T_VOID:
	case DWARFX_T_FUNC:
		return true;
	default:
		return false;
	}
}

bool expr_ptr_compatible(const dwarfx_type *a, const dwarfx_type *b)
{
	const dwarfx_type *ta = expr_strip(expr_strip(a)->target);
	const dwarfx_type *tb = expr_strip(expr_strip(b)->target);

	if (!ta || !tb || ta->kind == DWARFX_T_VOID || tb->kind == DWARFX_T_VOID)
		return true;
	return same_type(ta, tb, 0);
}

uint64_t expr_size(const dwarfx_type *t)
{
	int i;
	uint64_t n = 1;

	for (i = 0; i < TYPE_MAX_CHAIN; i++) {
		t = expr_strip(t);
		if (!t)
			return 0;
		if (t->size || t->kind != DWARFX_T_ARRAY)
			return t->size * n;
		if (!t->count)
			return 0;
		n *= t->count;
		t = t->target;
	}
	return 0;
}

static const dwarfx_member *find(const dwarfx_type *t, const char *name,
				 uint64_t *off, int depth)
{
	const dwarfx_member *m, *r;
	uint64_t sub;
	size_t i;

	t = expr_strip(t);
	if (!t || depth > TYPE_MAX_CHAIN ||
	    (t->kind != DWARFX_T_STRUCT && t->kind != DWARFX_T_UNION))
		return NULL;
	for (i = 0; i < t->nmembers; i++) {
		m = &t->members[i];
		if (m->name && !m->is_base && !strcmp(m->name, name)) {
			*off = m->offset;
			return m;
		}
	}
	/* then inside anonymous members and bases, in declaration order */
	for (i = 0; i < t->nmembers; i++) {
		m = &t->members[i];
		if (m->name && !m->is_base)
			continue;
		sub = 0;
		if ((r = find(m->type, name, &sub, depth + 1))) {
			*off = m->offset + sub;
			return r;
		}
	}
	return NULL;
}

const dwarfx_member *expr_member(const dwarfx_type *t, const char *name, uint64_t *off)
{
	*off = 0;
	return find(t, name, off, 0);
}

/* Optimal string alignment distance (a swap of two neighbours costs 1), names cut at 63. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strnlen(a, 63), lb = strnlen(b, 63), i, j, c, v;
	size_t d[64][64];

	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			c = a[i - 1] != b[j - 1];
			v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + c < v)
				v = d[i - 1][j - 1] + c;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

static void nearest(const dwarfx_type *t, const char *name, const char **best,
		    size_t *bestd, int depth)
{
	const dwarfx_member *m;
	size_t i, d;

	t = expr_strip(t);
	if (!t || depth > TYPE_MAX_CHAIN ||
	    (t->kind != DWARFX_T_STRUCT && t->kind != DWARFX_T_UNION))
		return;
	for (i = 0; i < t->nmembers; i++) {
		m = &t->members[i];
		if (!m->name || m->is_base) {
			nearest(m->type, name, best, bestd, depth + 1);
			continue;
		}
		d = distance(name, m->name);
		if (d < *bestd) {
			*bestd = d;
			*best = m->name;
		}
	}
}

const char *expr_nearest_member(const dwarfx_type *t, const char *name)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1, len = strlen(name);

	nearest(t, name, &best, &bestd, 0);
	/* near enough to be a typo: a third of the name, at least one edit */
	if (best && bestd <= (len + 2) / 3)
		return best;
	return NULL;
}
