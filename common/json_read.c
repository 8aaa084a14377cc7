/*
 * A small JSON reader (json_read.h): it accepts only JSON (RFC 8259, \u
 * escapes of the BMP decoded to UTF-8), builds a tree to look into, and
 * says where and why text is not JSON.
 */
#include "json_read.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One read: where it went wrong first, and why (the first error wins). */
struct jrd {
	const char *at;
	const char *why;
};

static const char *jfail(struct jrd *r, const char *at, const char *why)
{
	if (!r->why) {
		r->at = at;
		r->why = why;
	}
	return NULL;
}

static const char *jvalue(struct jrd *r, const char *p, jv *v, int depth);

const char *jspace(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

/* \uXXXX at p (at the u) into b; where it ends, or NULL. */
static const char *junicode(struct jrd *r, const char *p, rg_buf *b)
{
	unsigned cp = 0;
	char utf[3];

	for (int i = 1; i <= 4; i++) {
		if (!isxdigit((unsigned char)p[i]))
			return jfail(r, p - 1, "a \\u escape needs four hex digits");
		cp = cp * 16 + (unsigned)(isdigit((unsigned char)p[i]) ? p[i] - '0' :
					  (tolower((unsigned char)p[i]) - 'a' + 10));
	}
	if (cp < 0x80) {
		utf[0] = (char)cp;
		rg_buf_add(b, utf, 1);
	} else if (cp < 0x800) {
		utf[0] = (char)(0xc0 | cp >> 6);
		utf[1] = (char)(0x80 | (cp & 0x3f));
		rg_buf_add(b, utf, 2);
	} else {
		utf[0] = (char)(0xe0 | cp >> 12);
		utf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		utf[2] = (char)(0x80 | (cp & 0x3f));
		rg_buf_add(b, utf, 3);
	}
	return p + 4;
}

static const char *jstring(struct jrd *r, const char *p, char **out)
{
	rg_buf b = RG_BUF_INIT;
	const char *start = p;

	if (*p++ != '"')
		return jfail(r, start, "a string expected");
	while (*p != '"') {
		unsigned char c = (unsigned char)*p;

		if (!c) {
			rg_buf_release(&b);
			return jfail(r, start, "a string not closed");
		}
		if (c < 0x20) {
			rg_buf_release(&b);
			return jfail(r, p, "a control character in a string");
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
		case 'u':
			if (!(p = junicode(r, p, &b))) {
				rg_buf_release(&b);
				return NULL;
			}
			break;
		default:
			rg_buf_release(&b);
			return jfail(r, p - 1, "an unknown escape in a string");
		}
		p++;
	}
	*out = rg_buf_detach(&b);
	if (!*out)
		*out = xstrdup("");
	return p + 1;
}

static const char *jlist(struct jrd *r, const char *p, jv *v, int depth, char close)
{
	p = jspace(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		jv kid;
		char *k = NULL;

		if (v->t == J_OBJ) {
			if (*p != '"')
				return jfail(r, p, "a key (a string) expected");
			if (!(p = jstring(r, p, &k)))
				return NULL;
			p = jspace(p);
			if (*p++ != ':') {
				free(k);
				return jfail(r, p - 1, "':' expected after a key");
			}
		}
		/* kept even when it fails, so that jfree(v) frees what it holds */
		v->kids = xrealloc(v->kids, (v->n + 1) * sizeof(*v->kids));
		v->keys = k ? xrealloc(v->keys, (v->n + 1) * sizeof(*v->keys)) : v->keys;
		if (k)
			v->keys[v->n] = k;
		p = jvalue(r, p, &kid, depth + 1);
		v->kids[v->n++] = kid;
		if (!p)
			return NULL;
		p = jspace(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return jfail(r, p - 1, close == '}' ? "',' or '}' expected" :
						  "',' or ']' expected");
		p = jspace(p);
	}
}

/* A number as RFC 8259 has it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static const char *jnumber(struct jrd *r, const char *p, jv *v)
{
	const char *q = p;

	if (*q == '-')
		q++;
	if (*q == '0')
		q++;
	else if (isdigit((unsigned char)*q))
		while (isdigit((unsigned char)*q))
			q++;
	else
		return jfail(r, p, "a value expected");
	if (*q == '.') {
		if (!isdigit((unsigned char)*++q))
			return jfail(r, q, "a digit expected after '.'");
		while (isdigit((unsigned char)*q))
			q++;
	}
	if (*q == 'e' || *q == 'E') {
		q++;
		if (*q == '+' || *q == '-')
			q++;
		if (!isdigit((unsigned char)*q))
			return jfail(r, q, "a digit expected in an exponent");
		while (isdigit((unsigned char)*q))
			q++;
	}
	v->t = J_NUM;
	v->num = strtod(p, NULL);
	return q;
}

static const char *jvalue(struct jrd *r, const char *p, jv *v, int depth)
{
	memset(v, 0, sizeof(*v));
	p = jspace(p);
	if (*p == '{' || *p == '[') {
		if (depth >= JSON_MAX_DEPTH)
			return jfail(r, p, "nested too deep");
		v->t = *p == '{' ? J_OBJ : J_ARR;
		return jlist(r, p, v, depth, *p == '{' ? '}' : ']');
	}
	if (*p == '"') {
		v->t = J_STR;
		return jstring(r, p, &v->s);
	}
	if (!strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
		v->t = J_BOOL;
		v->num = *p == 't';
		return p + (*p == 't' ? 4 : 5);
	}
	if (!*p)
		return jfail(r, p, "the text ends where a value was expected");
	return jnumber(r, p, v);
}

const char *jparse(const char *p, jv *v, int depth)
{
	struct jrd r = { NULL, NULL };

	return jvalue(&r, p, v, depth);
}

int json_read_text(const char *text, size_t len, const char *name, jv *v, rg_err *err)
{
	struct jrd r = { NULL, NULL };
	const char *end;
	int line = 1, col = 1;

	if (strlen(text) != len) {
		memset(v, 0, sizeof(*v));
		jfail(&r, text + strlen(text), "a NUL byte in the text");
	} else if ((end = jvalue(&r, text, v, 0)) && *jspace(end))
		jfail(&r, jspace(end), "text after the JSON value");
	else if (end)
		return 0;
	jfree(v);
	for (const char *p = text; p < r.at; p++) {
		col = *p == '\n' ? 1 : col + 1;
		line += *p == '\n';
	}
	return rg_error(err, "'%s':%d:%d: not JSON: %s", name, line, col, r.why);
}

int json_read_file(const char *path, jv *v, rg_err *err)
{
	FILE *f = fopen(path, "rb");
	rg_buf b = RG_BUF_INIT;
	char chunk[8192];
	size_t n;
	int rc;

	memset(v, 0, sizeof(*v));
	if (!f)
		return rg_error(err, "cannot read '%s': %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		rg_buf_add(&b, chunk, n);
	if (ferror(f)) {
		rc = rg_error(err, "cannot read '%s': %s", path, strerror(errno));
		fclose(f);
		rg_buf_release(&b);
		return rc;
	}
	fclose(f);
	if (!b.len)
		rc = rg_error(err, "'%s' is empty, not a JSON report", path);
	else
		rc = json_read_text(b.s, b.len, path, v, err);
	rg_buf_release(&b);
	return rc;
}

const jv *json_get(const jv *o, const char *key)
{
	if (!o || o->t != J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return &o->kids[i];
	return NULL;
}

bool json_equal(const jv *a, const jv *b)
{
	if (a->t != b->t || a->n != b->n)
		return false;
	switch (a->t) {
	case J_NULL:
		return true;
	case J_BOOL:
	case J_NUM:
		return a->num == b->num;
	case J_STR:
		return !strcmp(a->s, b->s);
	case J_ARR:
		for (size_t i = 0; i < a->n; i++)
			if (!json_equal(&a->kids[i], &b->kids[i]))
				return false;
		return true;
	case J_OBJ:
		for (size_t i = 0; i < a->n; i++) {
			const jv *o = json_get(b, a->keys[i]);

			if (!o || !json_equal(&a->kids[i], o))
				return false;
		}
		return true;
	}
	return false;
}

const char *json_type_name(enum jtype t)
{
	static const char *const names[] = {
		[J_NULL] = "null", [J_BOOL] = "a boolean", [J_NUM] = "a number",
		[J_STR] = "a string", [J_ARR] = "an array", [J_OBJ] = "an object",
	};

	return names[t];
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
	memset(v, 0, sizeof(*v));
}
