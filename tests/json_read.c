/*
 * A small JSON reader for tests that check what racegate writes: it
 * accepts only JSON (RFC 8259, \u escapes of the BMP decoded to UTF-8)
 * and builds a tree to look into.  json_read.h.
 */
#include "json_read.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"

static const char *jlist(const char *p, jv *v, int depth, char close);

const char *jspace(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *jstring(const char *p, char **out)
{
	rg_buf b = RG_BUF_INIT;

	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20) {
			rg_buf_release(&b);
			return NULL;    /* raw control characters are not JSON */
		}
		if (c != '\\') {
			rg_buf_add(&b, p++, 1);
			continue;
		}
		p++;
		switch (*p) {
		case '"': case '\\': case '/': rg_buf_add(&b, p, 1); break;
		case 'n': rg_buf_puts(&b, "\n"); break;
		case 't': rg_buf_puts(&b, "\t"); break;
		case 'r': rg_buf_puts(&b, "\r"); break;
		case 'b': rg_buf_puts(&b, "\b"); break;
		case 'f': rg_buf_puts(&b, "\f"); break;
		case 'u': {
			unsigned cp;
			char utf[4];

			if (sscanf(p + 1, "%4x", &cp) != 1 || !isxdigit((unsigned char)p[4])) {
				rg_buf_release(&b);
				return NULL;
			}
			if (cp < 0x80) {
				utf[0] = (char)cp;
				rg_buf_add(&b, utf, 1);
			} else if (cp < 0x800) {
				utf[0] = (char)(0xc0 | cp >> 6);
				utf[1] = (char)(0x80 | (cp & 0x3f));
				rg_buf_add(&b, utf, 2);
			} else {
				utf[0] = (char)(0xe0 | cp >> 12);
				utf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
				utf[2] = (char)(0x80 | (cp & 0x3f));
				rg_buf_add(&b, utf, 3);
			}
			p += 4;
			break;
		}
		default:
			rg_buf_release(&b);
			return NULL;
		}
		p++;
	}
	*out = rg_buf_detach(&b);
	return p + 1;
}

static const char *jlist(const char *p, jv *v, int depth, char close)
{
	p = jspace(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		jv kid;
		char *k = NULL;

		if (v->t == J_OBJ) {
			if (!(p = jstring(p, &k)))
				return NULL;
			p = jspace(p);
			if (*p++ != ':') {
				free(k);
				return NULL;
			}
		}
		/* kept even when it fails, so that jfree(v) frees what it holds */
		v->kids = xrealloc(v->kids, (v->n + 1) * sizeof(*v->kids));
		v->keys = k ? xrealloc(v->keys, (v->n + 1) * sizeof(*v->keys)) : v->keys;
		if (k)
			v->keys[v->n] = k;
		p = jparse(p, &kid, depth + 1);
		v->kids[v->n++] = kid;
		if (!p)
			return NULL;
		p = jspace(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
		p = jspace(p);
	}
}

const char *jparse(const char *p, jv *v, int depth)
{
	char *end;

	memset(v, 0, sizeof(*v));
	if (depth > 32)
		return NULL;
	p = jspace(p);
	if (*p == '{' || *p == '[') {
		v->t = *p == '{' ? J_OBJ : J_ARR;
		return jlist(p, v, depth, *p == '{' ? '}' : ']');
	}
	if (*p == '"') {
		v->t = J_STR;
		return jstring(p, &v->s);
	}
	if (!strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
		v->t = J_BOOL;
		v->num = *p == 't';
		return p + (*p == 't' ? 4 : 5);
	}
	if (*p != '-' && !isdigit((unsigned char)*p))
		return NULL;
	v->t = J_NUM;
	v->num = strtod(p, &end);
	return end > p ? end : NULL;
}

void jfree(jv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		jfree(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->s);
}

