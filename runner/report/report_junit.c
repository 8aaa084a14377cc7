/*
 * report_junit: --junit FILE.xml, the JUnit XML that Jenkins and GitLab
 * read (tests/junit.xsd is the schema the tests validate against).
 *
 * One <testsuite> for the spec, one <testcase> per run: the spec file is
 * the class (class_name), "run N" the test case, as docs/report.md says.  A run whose outcome
 * is what was expected passes.  One that is not gets <failure> when the
 * program was judged and the expectation not met (NOT-REPRODUCED, FAILED,
 * or an outcome --expect-outcome did not list), and <error> when the run
 * could not be judged at all: the schedule was not enforced (deadlock,
 * unreached gate, timeout) or racegate could not trace it.
 * The program's stdout goes to <system-out>; its stderr and racegate's
 * report of the run (outcome, timeline) to <system-err>.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* XML 1.0 character data: escaped, invalid UTF-8 and control characters replaced. */
static void xml_textn(rg_buf *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (s && i < n) {
		unsigned cp;
		size_t l = utf8_seq(u + i, n - i, &cp);

		if (l == 0) {
			rg_buf_puts(b, "\xef\xbf\xbd");   /* U+FFFD */
			i++;
			continue;
		}
		switch (cp) {
		case '&': rg_buf_puts(b, "&amp;"); break;
		case '<': rg_buf_puts(b, "&lt;"); break;
		case '>': rg_buf_puts(b, "&gt;"); break;
		case '"': rg_buf_puts(b, "&quot;"); break;
		case '\'': rg_buf_puts(b, "&apos;"); break;
		case '\t': case '\n': case '\r':
			rg_buf_add(b, s + i, 1);
			break;
		default:
			if (cp < 0x20 || cp == 0xfffe || cp == 0xffff)
				rg_buf_puts(b, "\xef\xbf\xbd");
			else
				rg_buf_add(b, s + i, l);
		}
		i += l;
	}
}

static void xml_text(rg_buf *b, const char *s)
{
	xml_textn(b, s, s ? strlen(s) : 0);
}

/* An attribute value: as text, with newlines kept as character references. */
static void xml_attr(rg_buf *b, const char *name, const char *v)
{
	rg_buf b2 = RG_BUF_INIT;
	size_t i;

	xml_text(&b2, v ? v : "");
	rg_buf_printf(b, " %s=\"", name);
	for (i = 0; i < b2.len; i++) {
		if (b2.s[i] == '\n')
			rg_buf_puts(b, "&#10;");
		else if (b2.s[i] == '\t')
			rg_buf_puts(b, "&#9;");
		else if (b2.s[i] == '\r')
			rg_buf_puts(b, "&#13;");
		else
			rg_buf_add(b, b2.s + i, 1);
	}
	rg_buf_puts(b, "\"");
	rg_buf_release(&b2);
}

/*
 * The class of the runs, and the suite's name: the spec file, as a ctest
 * user names a test by its file.  Its path without ".yaml" (".yml"), made
 * relative to the current directory when the spec is in it or below, so
 * that a CI workspace's place does not change the name; a spec elsewhere
 * keeps its path as given.  "./gates.yaml" is "gates".
 */
static char *class_name(const spec *sp)
{
	const char *path = sp->path;
	char *cwd = getcwd(NULL, 0), *cls;
	size_t n, lc = cwd ? strlen(cwd) : 0;

	if (cwd && path[0] == '/' && lc > 1 && !strncmp(path, cwd, lc) &&
	    path[lc] == '/')
		path += lc + 1;
	while (path[0] == '.' && path[1] == '/')
		for (path += 2; *path == '/'; path++)
			;
	n = strlen(path);
	if (n > 5 && !strcmp(path + n - 5, ".yaml"))
		n -= 5;
	else if (n > 4 && !strcmp(path + n - 4, ".yml"))
		n -= 4;
	cls = xstrndup(path, n);
	free(cwd);
	return cls;
}

/* racegate's text report of one run, as the terminal would show it. */
static char *run_text(const spec *sp, const run_record *rec, long nruns)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f)
		return xstrdup("");
	report_run(f, sp, &rec->r, (int)rec->no, (int)nruns, false);
	fclose(f);
	return s ? s : xstrdup("");
}

int report_junit_write(const report_ctx *rc, const char *path, rg_err *err)
{
	rg_buf b = RG_BUF_INIT;
	char *cls = class_name(rc->sp);
	size_t i, nfail = 0, nerr = 0;
	char stamp[32], host[256];
	time_t t = (time_t)(rc->started_unix_ms / 1000);
	struct tm tm;
	int ret;

	for (i = 0; i < rc->nruns; i++) {
		const run_record *rec = &rc->runs[i];

		if (rec->ok)
			continue;
		if (run_outcome_exit(rec->r.outcome) == RG_EXIT_ENFORCE ||
		    rec->r.outcome == OUT_ERROR)
			nerr++;
		else
			nfail++;
	}
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	if (gethostname(host, sizeof(host)) < 0 || !*host)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';

	rg_buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	xml_attr(&b, "name", "racegate");
	rg_buf_printf(&b, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n",
		      rc->nruns, nfail, nerr, rc->elapsed_ms / 1e3);
	rg_buf_puts(&b, "  <testsuite");
	xml_attr(&b, "name", cls);
	rg_buf_printf(&b, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\""
		      " time=\"%.3f\"", rc->nruns, nfail, nerr, rc->elapsed_ms / 1e3);
	xml_attr(&b, "timestamp", stamp);
	xml_attr(&b, "hostname", host);
	rg_buf_puts(&b, " id=\"0\" package=\"racegate\">\n    <properties>\n");
	rg_buf_puts(&b, "      <property name=\"spec\"");
	xml_attr(&b, "value", rc->sp->path);
	rg_buf_puts(&b, "/>\n");
	if (rc->sp->name) {
		rg_buf_puts(&b, "      <property name=\"name\"");
		xml_attr(&b, "value", rc->sp->name);
		rg_buf_puts(&b, "/>\n");
	}
	rg_buf_puts(&b, "      <property name=\"program\"");
	xml_attr(&b, "value", rc->p->exe);
	rg_buf_puts(&b, "/>\n");
	rg_buf_printf(&b, "      <property name=\"requested\" value=\"%ld\"/>\n",
		      rc->repeat);
	if (rc->stopped) {
		rg_buf_puts(&b, "      <property name=\"stopped\"");
		xml_attr(&b, "value", rc->stopped);
		rg_buf_puts(&b, "/>\n");
	}
	rg_buf_puts(&b, "    </properties>\n");

	for (i = 0; i < rc->nruns; i++) {
		const run_record *rec = &rc->runs[i];
		const run_result *r = &rec->r;
		const char *oname = run_outcome_name(r->outcome);
		char *name = xasprintf("run %ld", rec->no);
		char *text = run_text(rc->sp, rec, rc->repeat);

		rg_buf_puts(&b, "    <testcase");
		xml_attr(&b, "name", name);
		xml_attr(&b, "classname", cls);
		rg_buf_printf(&b, " time=\"%.3f\">\n", r->elapsed_ms / 1e3);
		if (!rec->ok) {
			const char *tag = run_outcome_exit(r->outcome) == RG_EXIT_ENFORCE ||
					  r->outcome == OUT_ERROR ? "error" : "failure";

			rg_buf_printf(&b, "      <%s", tag);
			xml_attr(&b, "message", r->note ? r->note : oname);
			xml_attr(&b, "type", oname);
			rg_buf_puts(&b, ">");
			xml_text(&b, text);
			rg_buf_printf(&b, "</%s>\n", tag);
		}
		rg_buf_puts(&b, "      <system-out>");
		xml_textn(&b, r->out.s, r->out.len);
		rg_buf_puts(&b, "</system-out>\n      <system-err>");
		xml_textn(&b, r->err.s, r->err.len);
		xml_text(&b, text);
		rg_buf_puts(&b, "</system-err>\n    </testcase>\n");
		free(name);
		free(text);
	}
	rg_buf_puts(&b, "    <system-out></system-out>\n    <system-err>");
	if (rc->stopped)
		xml_text(&b, rc->stopped);
	rg_buf_puts(&b, "</system-err>\n  </testsuite>\n</testsuites>\n");
	ret = report_write_file(path, &b, err);
	rg_buf_release(&b);
	free(cls);
	return ret;
}
