/*
 * Source files, for regex anchors ("counter.c:/count\+\+/") and for
 * `racegate lines`.  DWARF records each file's path as the compiler saw it
 * (the compilation directory joined); a --source-dir says where the tree
 * is now, when the program was built elsewhere.
 */
#include "dwarfx_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Sources bigger than this are not C sources anyone gates. */
#define MAX_SOURCE (64 * 1024 * 1024)

/* Reads path whole and cuts it into lines; 0, or an errno value. */
static int read_lines(const char *path, struct dwarfx_source *src)
{
	struct stat st;
	size_t len = 0, cap, n, i;
	ssize_t got;
	char *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0)
		return errno;
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > MAX_SOURCE) {
		close(fd);
		return S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	}
	cap = (size_t)st.st_size + 1;
	src->buf = xmalloc(cap + 1);
	while ((got = read(fd, src->buf + len, cap - len)) > 0) {
		len += (size_t)got;
		if (len == cap) {
			cap *= 2;
			src->buf = xrealloc(src->buf, cap + 1);
		}
	}
	e = got < 0 ? errno : 0;
	close(fd);
	if (e) {
		free(src->buf);
		src->buf = NULL;
		return e;
	}
	src->buf[len] = '\0';
	for (n = 0, p = src->buf; p < src->buf + len; n++) {
		char *nl = memchr(p, '\n', (size_t)(src->buf + len - p));

		p = nl ? nl + 1 : src->buf + len;
	}
	src->lines = xcalloc(n ? n : 1, sizeof(*src->lines));
	for (i = 0, p = src->buf; i < n; i++) {
		char *nl = memchr(p, '\n', (size_t)(src->buf + len - p));
		char *end = nl ? nl : src->buf + len;

		if (end > p && end[-1] == '\r')
			end[-1] = '\0';
		*end = '\0';
		src->lines[i] = p;
		p = end + 1;
	}
	src->nlines = n;
	src->path = xstrdup(path);
	return 0;
}

int dwarfx_source_read(dwarfx *dx, const char *path, struct dwarfx_source *src,
		       rg_err *err)
{
	const char *tail;
	int e;

	memset(src, 0, sizeof(*src));
	if (!dx->source_dir) {
		e = read_lines(path, src);
		if (!e)
			return 0;
		return rg_error(err, "cannot read the source file '%s': %s (say "
				"where the sources are with --source-dir)", path,
				strerror(e));
	}
	/* DIR/a/b/c.c, then DIR/b/c.c, then DIR/c.c */
	for (tail = path; tail; tail = strchr(tail, '/')) {
		char *cand;

		while (*tail == '/')
			tail++;
		if (!*tail)
			break;
		cand = xasprintf("%s/%s", dx->source_dir, tail);
		e = read_lines(cand, src);
		free(cand);
		if (!e)
			return 0;
	}
	return rg_error(err, "cannot find the source file '%s' under '%s' (nor "
			"any of its folders' tails)", path, dx->source_dir);
}

void dwarfx_source_release(struct dwarfx_source *src)
{
	free(src->buf);
	free(src->lines);
	free(src->path);
	memset(src, 0, sizeof(*src));
}

/* Up to 60 characters of a source line, blanks around it trimmed. */
void dwarfx_source_excerpt(rg_buf *b, const char *text)
{
	size_t len;

	while (*text == ' ' || *text == '\t')
		text++;
	len = strlen(text);
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	if (len > 60)
		rg_buf_printf(b, "'%.57s...'", text);
	else
		rg_buf_printf(b, "'%.*s'", (int)len, text);
}

/*
 * Could this line have held code?  Blank lines, comments and lone braces
 * never do; anything else may be a statement an optimiser removed.
 */
bool dwarfx_source_may_be_code(const char *text)
{
	while (*text == ' ' || *text == '\t')
		text++;
	if (!*text || !strncmp(text, "//", 2) || !strncmp(text, "/*", 2) ||
	    *text == '*' || *text == '#')
		return false;
	return strspn(text, "{}; \t") != strlen(text);
}
