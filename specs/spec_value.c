/*
 * Small values of the gates file that need no YAML: durations, signal
 * names, the file stdin: names, and the diagnostics list with its message
 * helpers.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "spec_int.h"

/* ---- diagnostics ---- */

static void diags_vadd(spec_diags *d, enum spec_severity sev, spec_pos pos,
		       const char *fmt, va_list ap)
{
	rg_buf b = RG_BUF_INIT;
	spec_diag *g;

	rg_buf_vprintf(&b, fmt, ap);
	RG_GROW(d->v, d->n + 1, d->cap);
	g = &d->v[d->n++];
	g->severity = sev;
	g->pos = pos;
	g->msg = rg_buf_detach(&b);
	if (sev == SPEC_ERROR)
		d->nerrors++;
}

void spec_diags_add(spec_diags *d, enum spec_severity sev, spec_pos pos,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diags_vadd(d, sev, pos, fmt, ap);
	va_end(ap);
}

char *spec_diag_format(const spec_diags *d, size_t i)
{
	const spec_diag *g;
	const char *file = d->file ? d->file : "<spec>";
	const char *sev;

	if (i >= d->n)
		return xstrdup("");
	g = &d->v[i];
	sev = g->severity == SPEC_ERROR ? "error" : "warning";
	if (g->pos.line <= 0)
		return xasprintf("%s: %s: %s", file, sev, g->msg);
	return xasprintf("%s:%d:%d: %s: %s", file, g->pos.line, g->pos.col,
			 sev, g->msg);
}

void spec_diags_release(spec_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->v[i].msg);
	free(d->v);
	free(d->file);
	d->file = NULL;
	d->v = NULL;
	d->n = d->cap = d->nerrors = 0;
}

/*
 * The loader's own entry points count what they add, so a hostile file
 * cannot make an unbounded list: after SPEC_MAX_DIAGS the load unwinds.
 */
static void loader_vadd(spec_loader *ld, enum spec_severity sev, spec_pos pos,
			const char *fmt, va_list ap)
{
	/*
	 * A file with many warnings (events opened and never waited for) is
	 * still a valid file: past a few, warnings are counted, not kept.
	 */
	if (sev == SPEC_WARNING && ld->nwarnings >= SPEC_MAX_WARNINGS) {
		ld->warnings_dropped++;
		return;
	}
	if (ld->ndiags >= SPEC_MAX_DIAGS) {
		ld->stop = true;
		return;
	}
	if (sev == SPEC_WARNING)
		ld->nwarnings++;
	diags_vadd(ld->d, sev, pos, fmt, ap);
	if (++ld->ndiags == SPEC_MAX_DIAGS) {
		spec_diags_add(ld->d, SPEC_ERROR, pos,
			       "too many problems, stopping here");
		ld->stop = true;
	}
}

void spec_err(spec_loader *ld, spec_pos pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	loader_vadd(ld, SPEC_ERROR, pos, fmt, ap);
	va_end(ap);
}

void spec_warn(spec_loader *ld, spec_pos pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	loader_vadd(ld, SPEC_WARNING, pos, fmt, ap);
	va_end(ap);
}

/*
 * Messages quote what the user wrote.  A key can be a megabyte long or hold
 * a newline or escape sequence; the message must stay one short line.
 */
spec_shown spec_show(const char *text, size_t len)
{
	spec_shown r;
	size_t i, o = 0, max = sizeof(r.s) - 8;

	for (i = 0; i < len && o < max; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\n')
			o += (size_t)snprintf(r.s + o, sizeof(r.s) - o, "\\n");
		else if (c == '\t')
			o += (size_t)snprintf(r.s + o, sizeof(r.s) - o, "\\t");
		else if (c < 0x20 || c == 0x7f)
			o += (size_t)snprintf(r.s + o, sizeof(r.s) - o,
					      "\\x%02x", c);
		else
			r.s[o++] = (char)c;
	}
	if (i < len) {
		while (o > max)
			o--;
		memcpy(r.s + o, "...", 4);
	} else {
		r.s[o] = '\0';
	}
	return r;
}

/* "wiat" for "wait": one slip of the fingers, though Levenshtein says 2. */
static bool is_transposition(const char *a, const char *b)
{
	size_t i, len = strlen(a);

	if (len != strlen(b))
		return false;
	for (i = 0; i < len && a[i] == b[i]; i++)
		;
	return i + 1 < len && a[i] == b[i + 1] && a[i + 1] == b[i] &&
	       !strcmp(a + i + 2, b + i + 2);
}

static size_t len_diff(const char *a, const char *b)
{
	size_t x = strlen(a), y = strlen(b);

	return x > y ? x - y : y - x;
}

const char *spec_nearest(const char *word, const char *const *cand, size_t n)
{
	size_t wlen = strlen(word), i, best_d = (size_t)-1;
	const char *best = NULL;

	/* Long words are not typos of short names, and cost a lot to compare. */
	if (wlen == 0 || wlen > 64)
		return NULL;
	for (i = 0; i < n; i++) {
		size_t dist;

		if (!cand[i] || strlen(cand[i]) > 64)
			continue;
		dist = is_transposition(word, cand[i]) ? 1 :
		       rg_edit_distance(word, cand[i]);
		/* on a tie, the candidate of the closer length */
		if (dist < best_d || (dist == best_d && best &&
				      len_diff(word, cand[i]) < len_diff(word, best))) {
			best_d = dist;
			best = cand[i];
		}
	}
	/*
	 * "wiat" -> "wait" and "fill" -> "filled" are slips; "x" -> "as" and
	 * "nope" -> "pipe" are different words: two edits only in long words.
	 */
	if (best && best_d > 0 && best_d <= 2 && best_d < wlen &&
	    best_d * 3 <= (wlen > strlen(best) ? wlen : strlen(best)))
		return best;
	return NULL;
}

bool spec_alias_name_ok(const char *name, const char **why)
{
	if (!*name)
		*why = "it is empty";
	else if (!strcmp(name, "main") || !strcmp(name, "any"))
		*why = "it is a reserved word";
	else if (name[0] == '!')
		*why = "it starts with '!'";
	else if (strpbrk(name, " \t\n\r"))
		*why = "it contains a space";
	else
		return true;
	return false;
}

/* ---- durations ---- */

/*
 * "10s", "250ms", "2m", "1.5s", "1h", "1m30s".  A unit is required: a bare
 * "10" could be read as seconds or milliseconds, so racegate asks.  The
 * result is rounded up to a whole millisecond and may not exceed INT_MAX ms
 * (about 24 days), so it always fits poll()'s timeout.
 */
long spec_parse_duration(const char *text)
{
	const char *p = text;
	long long total_us = 0;

	if (!p || !*p)
		return -1;
	while (*p) {
		long long whole = 0, frac = 0, fscale = 1, unit_ms, part;
		int ndig = 0;

		while (*p >= '0' && *p <= '9') {
			whole = whole * 10 + (*p++ - '0');
			if (whole > INT_MAX)
				return -1;
			ndig++;
		}
		if (*p == '.') {
			p++;
			while (*p >= '0' && *p <= '9') {
				/* digits past microseconds do not matter */
				if (fscale < 1000000) {
					frac = frac * 10 + (*p - '0');
					fscale *= 10;
				}
				p++;
				ndig++;
			}
		}
		if (!ndig)
			return -1;
		if (!strncmp(p, "ms", 2)) {
			unit_ms = 1;
			p += 2;
		} else if (*p == 's') {
			unit_ms = 1000;
			p++;
		} else if (*p == 'm') {
			unit_ms = 60 * 1000;
			p++;
		} else if (*p == 'h') {
			unit_ms = 60 * 60 * 1000;
			p++;
		} else {
			return -1;
		}
		part = whole * unit_ms * 1000 + frac * unit_ms * 1000 / fscale;
		total_us += part;
		if (total_us > (long long)INT_MAX * 1000)
			return -1;
	}
	return (long)((total_us + 999) / 1000);
}

/* ---- signals ---- */

static const struct {
	const char *name;
	int signo;
} signals[] = {
	{"SIGHUP", SIGHUP}, {"SIGINT", SIGINT}, {"SIGQUIT", SIGQUIT},
	{"SIGILL", SIGILL}, {"SIGTRAP", SIGTRAP}, {"SIGABRT", SIGABRT},
	{"SIGBUS", SIGBUS}, {"SIGFPE", SIGFPE}, {"SIGKILL", SIGKILL},
	{"SIGUSR1", SIGUSR1}, {"SIGSEGV", SIGSEGV}, {"SIGUSR2", SIGUSR2},
	{"SIGPIPE", SIGPIPE}, {"SIGALRM", SIGALRM}, {"SIGTERM", SIGTERM},
#ifdef SIGSTKFLT
	{"SIGSTKFLT", SIGSTKFLT},
#endif
	{"SIGCHLD", SIGCHLD}, {"SIGCONT", SIGCONT}, {"SIGSTOP", SIGSTOP},
	{"SIGTSTP", SIGTSTP}, {"SIGTTIN", SIGTTIN}, {"SIGTTOU", SIGTTOU},
	{"SIGURG", SIGURG}, {"SIGXCPU", SIGXCPU}, {"SIGXFSZ", SIGXFSZ},
	{"SIGVTALRM", SIGVTALRM}, {"SIGPROF", SIGPROF},
	{"SIGWINCH", SIGWINCH}, {"SIGIO", SIGIO},
#ifdef SIGPWR
	{"SIGPWR", SIGPWR},
#endif
	{"SIGSYS", SIGSYS},
	/* other names for the same numbers; spec_signal_name never picks these */
	{"SIGIOT", SIGABRT}, {"SIGPOLL", SIGIO}, {"SIGCLD", SIGCHLD},
};

int spec_signal_number(const char *name)
{
	size_t i;
	char *end;
	long n;

	if (!name || !*name)
		return 0;
	if (name[0] >= '0' && name[0] <= '9') {
		if (strlen(name) > 3)
			return 0;
		n = strtol(name, &end, 10);
		/* only numbers with a name, so reports can always print one */
		if (*end || n < 1 || n > 64 || !spec_signal_name((int)n))
			return 0;
		return (int)n;
	}
	if (!strncasecmp(name, "SIG", 3))
		name += 3;
	for (i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (!strcasecmp(name, signals[i].name + 3))
			return signals[i].signo;
	return 0;
}

const char *spec_signal_name(int signo)
{
	size_t i;

	for (i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (signals[i].signo == signo)
			return signals[i].name;
	return NULL;
}

/* For "did you mean": the canonical names, in table order. */
const char *spec_signal_name_at(size_t i)
{
	return i < sizeof(signals) / sizeof(signals[0]) ? signals[i].name : NULL;
}

/* ---- stdin: {file: PATH} ---- */

int spec_stdin_file(spec_loader *ld, const char *path, spec_pos pos)
{
	spec *s = ld->s;
	char *full = path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", s->dir, path);
	rg_buf b = RG_BUF_INIT;
	char chunk[65536];
	struct stat st;
	FILE *f = NULL;
	size_t n;
	int rc = -1;

	/* a FIFO or a terminal would hold the load up: a file's bytes only */
	if (stat(full, &st) == 0 && !S_ISREG(st.st_mode)) {
		spec_err(ld, pos, "the stdin file '%s' is not a regular file", SHOW(path));
		goto out;
	}
	f = fopen(full, "re");
	if (!f) {
		spec_err(ld, pos, "cannot read the stdin file '%s': %s", SHOW(path),
			 strerror(errno));
		goto out;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (b.len + n > SPEC_MAX_STDIN) {
			spec_err(ld, pos, "the stdin file '%s' is too large (over %u MiB)",
				 SHOW(path), SPEC_MAX_STDIN >> 20);
			goto out;
		}
		rg_buf_add(&b, chunk, n);
	}
	if (ferror(f)) {
		spec_err(ld, pos, "cannot read the stdin file '%s': %s", SHOW(path),
			 strerror(errno));
		goto out;
	}
	s->stdin_len = b.len;
	s->stdin_data = rg_buf_detach(&b);
	s->has_stdin = true;
	rc = 0;
out:
	if (f)
		fclose(f);
	rg_buf_release(&b);
	free(full);
	return rc;
}

void spec_put_quoted(rg_buf *b, const char *s)
{
	rg_buf_puts(b, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			rg_buf_printf(b, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			rg_buf_printf(b, "\\x%02x", (unsigned char)*s);
		else
			rg_buf_printf(b, "%c", *s);
	}
	rg_buf_puts(b, "\"");
}
