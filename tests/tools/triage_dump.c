/*
 * triage_dump --tsan|--helgrind|--drd REPORT: the races triage/ reads in
 * REPORT, one line each, for tests that take a report in the test itself
 * (tests/e2e/triage_examples/triage_examples.cmake) and for a person looking at a report:
 *
 *   race 1 x2: write stale_conn.c:49 in closer [thread 2, start closer] ~ read stale_conn.c:33 in sender [thread 1, start sender] @ global 'conn'
 *
 * Each access: its kind, its place (FILE:LINE, or ? when not shown), its
 * function, its thread's number as the tool gives it and the outermost
 * frame of the program's own in its stack.  Exit 0, or 2 with the error.
 */
#include <stdio.h>
#include <string.h>

#include "triage.h"

static const char *kinds[] = {"?", "read", "write"};

static void access_line(const triage_report *r, const triage_access *a)
{
	char key[1024];
	int p = triage_place(a), s = triage_start_frame(a);
	const triage_frame *f = p >= 0 ? &a->stack.v[p] : NULL;

	printf("%s%s %s", a->atomic ? "atomic " : "", kinds[a->kind],
	       triage_place_key(a, key, sizeof(key)));
	if (f && f->function)
		printf(" in %s", f->function);
	if (a->thread >= 0) {
		const triage_thread *t = triage_thread_at(r, (size_t)a->thread);
		printf(" [thread %d%s", t->id, t->main ? " main" : "");
		if (s >= 0 && a->stack.v[s].function)
			printf(", start %s", a->stack.v[s].function);
		if (triage_created_at(t) >= 0) {
			const triage_frame *c = &t->created.v[triage_created_at(t)];
			printf(", created %s:%d", c->file ? c->file : "?", c->line);
		}
		printf("]");
	}
	if (a->nlocks)
		printf(" {%zu lock%s}", a->nlocks, a->nlocks == 1 ? "" : "s");
}

int main(int argc, char **argv)
{
	enum triage_tool tool;
	triage_report *r;
	rg_err err = RG_ERR_INIT;

	if (argc != 3)
		goto usage;
	if (!strcmp(argv[1], "--tsan"))
		tool = TRIAGE_TSAN;
	else if (!strcmp(argv[1], "--helgrind"))
		tool = TRIAGE_HELGRIND;
	else if (!strcmp(argv[1], "--drd"))
		tool = TRIAGE_DRD;
	else
		goto usage;
	if (triage_load(tool, argv[2], &r, &err) != TRIAGE_OK) {
		fprintf(stderr, "triage_dump: %s\n", err.msg);
		return 2;
	}
	for (size_t i = 0; i < triage_nraces(r); i++) {
		const triage_race *race = triage_race_at(r, i);
		printf("race %zu x%u: ", i + 1, race->count);
		access_line(r, &race->a);
		printf(" ~ ");
		access_line(r, &race->b);
		if (race->loc.name)
			printf(" @ %s '%s'", race->loc.kind == 1 ? "global" : "?", race->loc.name);
		else if (race->loc.text)
			printf(" @ %s", race->loc.text);
		printf("\n");
	}
	for (size_t i = 0; i < triage_nskipped(r); i++)
		printf("skipped line %d: %s\n", triage_skipped_at(r, i)->report_line,
		       triage_skipped_at(r, i)->what);
	printf("%zu races from %zu warnings\n", triage_nraces(r), triage_nwarnings(r));
	triage_free(r);
	return 0;
usage:
	fprintf(stderr, "usage: triage_dump --tsan|--helgrind|--drd REPORT\n");
	return 2;
}
