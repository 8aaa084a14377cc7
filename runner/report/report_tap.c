/*
 * report_tap: --tap, TAP version 13 on stdout, one test point per run in
 * the order the runs end ("ok 3 - run 5: REPRODUCED": the number counts
 * test points, the description names the run).  The plan comes last, as
 * TAP allows, because --stop-on-first may end the session early.
 *
 * The program's own stdout would corrupt the stream, so with --tap it is
 * always captured: it appears in the YAML block of the run's test point,
 * which runs whose outcome was not expected get (and every run, with
 * --verbose), as the human report shows output only for those runs.
 */
#include "report.h"

#include <string.h>

void report_tap_begin(FILE *f)
{
	fputs("TAP version 13\n", f);
}

/* A YAML block scalar, each line indented under the key. */
static void yaml_block(FILE *f, const char *k, const char *s, size_t n)
{
	size_t i = 0;

	fprintf(f, "  %s: |-\n", k);
	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t l = nl ? (size_t)(nl - (s + i)) : n - i;
		size_t j;

		fputs("    ", f);
		for (j = 0; j < l; j++) {
			unsigned char c = (unsigned char)s[i + j];

			/* YAML forbids most control characters in a block */
			fputc(c < 0x20 && c != '\t' ? '?' : c, f);
		}
		fputc('\n', f);
		i += l + 1;
	}
}

/* A YAML double-quoted scalar. */
static void yaml_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void report_tap_run(FILE *f, const run_record *rec, bool detail)
{
	static const char yaml_open[] = "  ---\n";
	const run_result *r = &rec->r;

	fprintf(f, "%s %ld - run %ld: %s\n", rec->ok ? "ok" : "not ok", rec->tap_point,
		rec->no, run_outcome_name(r->outcome));
	if (rec->ok && !detail)
		return;
	fputs(yaml_open, f);
	fprintf(f, "  outcome: %s\n", run_outcome_name(r->outcome));
	if (r->note) {
		fputs("  message: ", f);
		yaml_str(f, r->note);
		fputc('\n', f);
	}
	if (r->exited && !r->term_signal)
		fprintf(f, "  exit: %d\n", r->exit_code);
	if (r->term_signal) {
		const char *name = spec_signal_name(r->term_signal);

		if (name)
			fprintf(f, "  signal: %s\n", name);
		else
			fprintf(f, "  signal: %d\n", r->term_signal);
	}
	fprintf(f, "  duration_ms: %.3f\n", r->elapsed_ms);
	if (r->out.len)
		yaml_block(f, "stdout", r->out.s, r->out.len);
	if (r->err.len)
		yaml_block(f, "stderr", r->err.s, r->err.len);
	fputs("  ...\n", f);
}

void report_tap_end(FILE *f, long nruns, const char *stopped)
{
	if (stopped)
		fprintf(f, "# %s\n", stopped);
	fprintf(f, "1..%ld\n", nruns);
}
