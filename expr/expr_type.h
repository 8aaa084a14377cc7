/* Types for expr's compiler (expr_type.c).  Internal to expr/. */
#ifndef RACEGATE_EXPR_TYPE_H
#define RACEGATE_EXPR_TYPE_H

#include "expr_int.h"

/* C's own types, as the compiler names them in casts and gives them to results. */
extern const dwarfx_type expr_t_int, expr_t_uint, expr_t_long, expr_t_ulong,
	expr_t_llong, expr_t_ullong, expr_t_short, expr_t_ushort, expr_t_char,
	expr_t_schar, expr_t_uchar, expr_t_bool, expr_t_void, expr_t_voidp, expr_t_double;

/* t without typedefs (NULL stays NULL). */
const dwarfx_type *expr_strip(const dwarfx_type *t);
/* t as C writes it, for messages ("struct queue *", "uint32_t", "int [4]"). */
const char *expr_spell(const dwarfx_type *t, char *buf, size_t len);

bool expr_is_int(const dwarfx_type *t);    /* integer, bool, char or enum */
bool expr_is_ptr(const dwarfx_type *t);
bool expr_is_scalar(const dwarfx_type *t);
/* How an integer, enum or pointer is held: bytes and signedness.  False for others. */
bool expr_int_repr(const dwarfx_type *t, uint64_t *size, bool *sgn);
/* C's integer promotion: int, unsigned int, long or unsigned long; NULL when wider than 64 bits. */
const dwarfx_type *expr_promote(const dwarfx_type *t);
/* The usual arithmetic conversions of two promoted types. */
const dwarfx_type *expr_usual(const dwarfx_type *a, const dwarfx_type *b);
/* May pointers of types a and b be compared (same pointee, or void *)? */
bool expr_ptr_compatible(const dwarfx_type *a, const dwarfx_type *b);
/* sizeof, 0 when unknown. */
uint64_t expr_size(const dwarfx_type *t);
/* Member name of struct/union t (anonymous members and bases searched): *off from t's start. */
const dwarfx_member *expr_member(const dwarfx_type *t, const char *name, uint64_t *off);
/* The member of t whose name is nearest to name, when near enough to be a typo; else NULL. */
const char *expr_nearest_member(const dwarfx_type *t, const char *name);

#endif
