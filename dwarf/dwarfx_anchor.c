/*
 * dwarfx_anchor: a FILE:LINE location as an anchor a person would write
 * (dwarfx.h): FILE:/REGEX/ or FUNCTION:/REGEX/ on the line's own code, or
 * on its comment when the code is on other lines too, so
 * that a gates file a tool writes still finds its line once lines are
 * added or taken away above it (the fixed build of a program).
 */
#include "dwarfx.h"
#include "dwarfx_int.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Fewer characters of code than this say too little to anchor on ("}"). */
#define ANCHOR_MIN_CODE 4

struct text_walk {
	char *text;
};

static int take_text(const dwarfx_line_info *li, void *arg)
{
	struct text_walk *w = arg;

	if (li->text)
		w->text = xstrdup(li->text);
	return 1;
}

/* Where a source line's comment starts (not inside a string or a
 * character literal), or NULL. */
static const char *comment_start(const char *text)
{
	char quote = 0;

	for (const char *p = text; *p; p++) {
		if (quote) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == quote)
				quote = 0;
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (*p == '/' && (p[1] == '/' || p[1] == '*')) {
			return p;
		}
	}
	return NULL;
}

/* The code of a source line: no comment after it, no blanks around it. */
static char *code_of(const char *text)
{
	const char *e = comment_start(text);

	if (!e)
		e = text + strlen(text);
	while (*text && isspace((unsigned char)*text))
		text++;
	while (e > text && isspace((unsigned char)e[-1]))
		e--;
	return e > text ? xstrndup(text, (size_t)(e - text)) : NULL;
}

/* code as a POSIX extended regex matching it literally (blanks as they are). */
static char *literal(const char *code)
{
	rg_buf b = RG_BUF_INIT;

	for (const char *p = code; *p; p++) {
		if (strchr("\\^$.|?*+()[]{}", *p))
			rg_buf_printf(&b, "\\%c", *p);
		else
			rg_buf_add(&b, p, 1);
	}
	return rg_buf_detach(&b);
}

/* A byte of a word: ASCII letters, digits and '_', and every byte of a
 * UTF-8 sequence, so that a word is never cut inside a character
 * (ÜBER-TAG stays whole). */
static bool word_byte(char c)
{
	return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

/*
 * The comment after a line's code, without its delimiters and blanks
 * (INCR-WRITE-BACK, of a line `lock(&l);  // INCR-WRITE-BACK`), or NULL.
 */
static char *comment_of(const char *text)
{
	const char *b = comment_start(text), *e;
	bool word = false;

	if (!b)
		return NULL;
	if (b[1] != '*' || !(e = strstr(b + 2, "*/")))
		e = b + strlen(b);
	b += 2;
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	/* punctuation alone ("/", "---") says nothing a person would anchor on */
	for (const char *p = b; p < e && !word; p++)
		word = word_byte(*p) && *p != '_';
	return word && e - b >= ANCHOR_MIN_CODE ? xstrndup(b, (size_t)(e - b)) : NULL;
}

/*
 * The regexes to try, in order: each word in text (a name of code, or in
 * a comment a word with dashes: of ANCHOR_MIN_NAME characters or more),
 * the longest first, as a person anchors on the call or variable that
 * makes a line what it is, or on a tag in its comment; then the whole
 * text.
 */
#define ANCHOR_MIN_NAME 5
static size_t candidates(const char *text, bool dashes, char ***out)
{
	char **v = NULL;
	size_t n = 0, cap = 0;

	for (const char *p = text; *p;) {
		size_t len = 0;

		if (word_byte(*p) && !isdigit((unsigned char)*p))
			while (word_byte(p[len]) || (dashes && p[len] == '-'))
				len++;
		if (len >= ANCHOR_MIN_NAME) {
			char *name = xstrndup(p, len);
			bool dup = false;

			for (size_t i = 0; i < n && !dup; i++)
				dup = !strcmp(v[i], name);
			if (dup) {
				free(name);
			} else {
				RG_GROW(v, n + 1, cap);
				v[n++] = name;
			}
		}
		p += len ? len : 1;
	}
	/* longest first; among equals, the first in the line */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strlen(v[j]) > strlen(v[j - 1]); j--) {
			char *t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	RG_GROW(v, n + 1, cap);
	v[n++] = literal(text);
	*out = v;
	return n;
}

static void free_all(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Does anchor resolve in dx to exactly the n addresses of want? */
static bool same_place(dwarfx *dx, const char *anchor, const dwarfx_loc *want, size_t n)
{
	dwarfx_loc *got = NULL;
	size_t ngot = 0;
	rg_err err = RG_ERR_INIT;
	bool same;

	if (dwarfx_resolve(dx, anchor, &got, &ngot, NULL, &err) != DWARFX_OK)
		return false;
	same = ngot == n;
	for (size_t i = 0; same && i < n; i++)
		same = got[i].addr == want[i].addr;
	free(got);
	return same;
}

/*
 * The first of the regexes re that anchors locs: in file first; where the
 * text is on several lines, in the function.
 */
static char *first_same(dwarfx *dx, const char *file, const dwarfx_loc *locs, size_t n,
			char **re, size_t nre, const char *plus)
{
	for (int scope = 0; scope < 2; scope++) {
		const char *in = scope ? locs[0].function : file;

		if (!in || (scope && locs[0].inlined))
			break;
		for (size_t i = 0; i < nre; i++) {
			char *anchor = xasprintf("%s:/%s/%s", in, re[i], plus);

			if (same_place(dx, anchor, locs, n))
				return anchor;
			free(anchor);
		}
	}
	return NULL;
}

/*
 * *FUNCTION+N: the line's one address as the N-th instruction from its
 * function's entry, which lines added or taken away above the function
 * leave where it is (a `}`, one `return NULL;` of several).
 */
static char *by_offset(dwarfx *dx, const dwarfx_loc *locs, size_t n)
{
	dwarfx_loc *entry = NULL;
	size_t ne = 0, count = 0;
	uint64_t at;
	rg_err err = RG_ERR_INIT;
	char *f, *anchor = NULL;

	if (n != 1 || !locs[0].function || locs[0].inlined)
		return NULL;
	f = xasprintf("*%s", locs[0].function);
	if (dwarfx_resolve(dx, f, &entry, &ne, NULL, &err) == DWARFX_OK && ne == 1 &&
	    entry[0].addr < locs[0].addr &&
	    dwarfx_insn_nth(dx, entry[0].addr, locs[0].addr, SIZE_MAX, &at, &count, &err) == 0) {
		anchor = xasprintf("%s+%zu", f, count);
		if (!same_place(dx, anchor, locs, n)) {
			free(anchor);
			anchor = NULL;
		}
	}
	free(entry);
	free(f);
	return anchor;
}

char *dwarfx_anchor(dwarfx *dx, const char *where)
{
	const char *colon = strrchr(where, ':'), *plus;
	struct text_walk w = { NULL };
	dwarfx_loc *locs = NULL;
	size_t n = 0;
	rg_err err = RG_ERR_INIT;
	char *file, *code = NULL, **re, *anchor = NULL, *end;
	size_t nre;
	long line;

	if (!colon || colon == where || !isdigit((unsigned char)colon[1]))
		return NULL;
	line = strtol(colon + 1, &end, 10);
	if (*end && *end != '+')
		return NULL;
	plus = *end ? end : "";
	file = xstrndup(where, (size_t)(colon - where));
	if (dwarfx_resolve(dx, where, &locs, &n, NULL, &err) != DWARFX_OK || !n ||
	    line > 1000000)
		goto out;
	/* a function's first line ("{" of worker): its entry, or after its prologue */
	for (int star = 1; star >= 0 && !*plus && locs[0].function && !locs[0].inlined;
	     star--) {
		anchor = xasprintf("%s%s", star ? "*" : "", locs[0].function);
		if (same_place(dx, anchor, locs, n))
			goto out;
		free(anchor);
		anchor = NULL;
	}
	if (dwarfx_lines(dx, file, (int)line, (int)line, take_text, &w, &err) < 0 ||
	    !w.text || !(code = code_of(w.text)) || strlen(code) < ANCHOR_MIN_CODE)
		goto place;
	/* the code; where no part of it is on this line alone, its comment;
	 * else (or with no text to say it) its place in its function */
	for (int part = 0; part < 2 && !anchor; part++) {
		char *text = part ? comment_of(w.text) : xstrdup(code);

		if (text) {
			nre = candidates(text, part, &re);
			anchor = first_same(dx, file, locs, n, re, nre, plus);
			free_all(re, nre);
			free(text);
		}
	}
place:
	if (!anchor)
		anchor = by_offset(dx, locs, n);
out:
	free(locs);
	free(file);
	free(w.text);
	free(code);
	return anchor;
}
