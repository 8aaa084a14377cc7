/*
 * A small JSON reader for tests (json_read.c): jparse reads one value and
 * returns where it ended, or NULL when the text is not JSON.
 */
#ifndef RACEGATE_TEST_JSON_READ_H
#define RACEGATE_TEST_JSON_READ_H

#include <stddef.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jv {
	enum jtype t;
	char *s;            /* J_STR */
	double num;         /* J_NUM, J_BOOL (1 true, 0 false) */
	struct jv *kids;    /* J_ARR, J_OBJ */
	char **keys;        /* J_OBJ: kids[i] is the value of keys[i] */
	size_t n;
} jv;

/* Reads one value at p (at most 32 levels deep) into v; jfree it even on NULL. */
const char *jparse(const char *p, jv *v, int depth);
/* p past JSON white space. */
const char *jspace(const char *p);
void jfree(jv *v);

#endif
