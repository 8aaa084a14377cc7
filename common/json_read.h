/*
 * json_read: a small JSON reader (RFC 8259; \u escapes of the BMP decoded
 * to UTF-8) that builds a tree to look into.  racegate reads back the
 * reports it wrote with it (explore --merge), and the Check suites the
 * reports they check.  It never prints: an error is a message in an
 * rg_err saying where (line and column) and what.
 */
#ifndef RACEGATE_JSON_READ_H
#define RACEGATE_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "msg.h"

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jv {
	enum jtype t;
	char *s;            /* J_STR */
	double num;         /* J_NUM, J_BOOL (1 true, 0 false) */
	struct jv *kids;    /* J_ARR, J_OBJ */
	char **keys;        /* J_OBJ: kids[i] is the value of keys[i] */
	size_t n;
} jv;

/* Values nest at most this deep. */
#define JSON_MAX_DEPTH 32

/*
 * Reads one value at p (at most JSON_MAX_DEPTH - depth levels deep) into
 * v and returns where it ended, or NULL when the text there is not JSON.
 * jfree v even on NULL.
 */
const char *jparse(const char *p, jv *v, int depth);
/* p past JSON white space. */
const char *jspace(const char *p);
void jfree(jv *v);

/*
 * text as one JSON value and nothing after it into v; -1 with err saying
 * "NAME:LINE:COL: what is wrong" (v then holds nothing).
 */
int json_read_text(const char *text, size_t len, const char *name, jv *v, rg_err *err);
/* The file at path, as json_read_text; err names the file (and why it could not be read). */
int json_read_file(const char *path, jv *v, rg_err *err);

/* The value of key in object o, or NULL (o not an object, or no such key). */
const jv *json_get(const jv *o, const char *key);
/* Are a and b the same value (objects: the same keys, in any order)? */
bool json_equal(const jv *a, const jv *b);
/* A JSON type's name for a message: "a string", "an object", ... */
const char *json_type_name(enum jtype t);

#endif
