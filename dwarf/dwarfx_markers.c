/*
 * Preprocessor line markers.  A source run through the preprocessor (or a
 * generator: yacc, m4) and then compiled carries `# N "file"` lines that
 * tell the compiler where each following line came from; the line table
 * then credits the code to those files, and the file that was compiled
 * has no rows of its own.  Its lines map through the markers: the line
 * after `# N "orig.c"` is orig.c:N.
 */
#include "dwarfx_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/*
 * Is text a line marker (`# 12 "f.c"`, `# 12 "f.c" 1 3`, `#line 12 "f.c"`)?
 * Then its line and file name (the name's extent in text).
 */
static bool marker(const char *text, long *n, const char **name, size_t *len)
{
	const char *p = text, *q;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '#')
		return false;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "line", 4))
		p += 4;
	if (!isdigit((unsigned char)*p) && *p != ' ' && *p != '\t')
		return false;
	*n = strtol(p, &end, 10);
	if (end == p || *n < 0)
		return false;
	for (p = end; *p == ' ' || *p == '\t'; p++)
		;
	if (*p != '"' || !(q = strchr(p + 1, '"')))
		return false;
	*name = p + 1;
	*len = (size_t)(q - p - 1);
	return true;
}

/* line 0: the file the last marker names, *credit_line 0. */
bool dwarfx_marker_map(dwarfx *dx, const char *path, long line,
		       const char **credit, long *credit_line)
{
	struct dwarfx_source src;
	const char *name = NULL, *self_name;
	size_t len = 0, self_len;
	long i, at = 0, n = 0, self_n;
	bool ok;

	if (line < 0 || dwarfx_source_read(dx, path, &src, NULL) < 0)
		return false;
	/* no line: the file the last marker names (after the #includes, the source) */
	if (!line)
		line = (long)src.nlines + 1;
	for (i = 1; i < line && i <= (long)src.nlines; i++) {
		const char *nm;
		size_t l;
		long v;

		if (marker(src.lines[i - 1], &v, &nm, &l) && l && nm[0] != '<') {
			at = i;
			n = v;
			name = nm;
			len = l;
		}
	}
	if (line == (long)src.nlines + 1) {
		if (name) {
			*credit = dwarfx_pool_intern(&dx->strs, name, len);
			*credit_line = 0;
		}
		dwarfx_source_release(&src);
		return name != NULL;
	}
	name = NULL;
	for (i = 1; i < line && i <= (long)src.nlines; i++) {
		const char *nm;
		size_t l;
		long v;

		if (marker(src.lines[i - 1], &v, &nm, &l)) {
			at = i;
			n = v;
			name = nm;
			len = l;
		}
	}
	/* the line itself a marker, or past the end: it maps to nothing */
	ok = name && len && line <= (long)src.nlines && name[0] != '<' &&
	     !marker(src.lines[line - 1], &self_n, &self_name, &self_len);
	if (ok) {
		*credit = dwarfx_pool_intern(&dx->strs, name, len);
		*credit_line = n + (line - at - 1);
	}
	dwarfx_source_release(&src);
	return ok;
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int dwarfx_no_rows(dwarfx *dx, const char *file, const char *path, long line,
		   dwarfx_hint *hint, rg_err *err)
{
	const char *credit;
	long at;

	/* a line no marker maps (or none given): where the file's code went */
	if (!line || !dwarfx_marker_map(dx, path, line, &credit, &at)) {
		if (!dwarfx_marker_map(dx, path, 0, &credit, &at))
			return rg_error(err, "'%s' has no code: the line table credits "
					"none to it", file);
		line = 0;
	}
	if (hint) {
		hint->credit_file = credit;
		hint->credit_line = (int)at;
	}
	if (!line)
		return rg_error(err, "'%s' has no code: the line table credits its "
				"code to '%s' (try '%s')", file, base_of(credit),
				base_of(credit));
	return rg_error(err, "%s:%ld has no code: the line table credits this "
			"code to '%s' (try '%s:%ld')", file, line, base_of(credit),
			base_of(credit), at);
}
