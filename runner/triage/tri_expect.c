/*
 * tri_expect: what racegate triage's exit status says (tri.h).  Without
 * --expect-verdicts, 1 when some race is HARMFUL or OUTPUT-DIFFERS; with
 * it, 1 when some race's verdict is not the one listed for it, so that a
 * test keeps "this race stays benign" (racegate_add_test's TRIAGE form).
 */
#include "tri.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TRI_NVERDICTS (TRI_SINGLE_ORDER + 1)

int tri_expect_parse(const char *list, enum tri_verdict **v, size_t *n, rg_err *err)
{
	const char *p = list;

	*n = 0;
	if (v)
		*v = NULL;
	while (*p) {
		size_t len = strcspn(p, ", ");
		int k;

		for (k = 0; k < TRI_NVERDICTS; k++) {
			const char *name = tri_verdict_name((enum tri_verdict)k);

			if (strlen(name) == len && !strncasecmp(name, p, len))
				break;
		}
		if (k == TRI_NVERDICTS) {
			rg_error(err, "unknown verdict '%.*s' (verdicts: HARMFUL, OUTPUT-DIFFERS, "
				 "BENIGN, NOT-REACHED, SINGLE-ORDER)", (int)len, p);
			if (v) {
				free(*v);
				*v = NULL;
			}
			*n = 0;
			return -1;
		}
		if (v) {
			*v = xrealloc(*v, (*n + 1) * sizeof(**v));
			(*v)[*n] = (enum tri_verdict)k;
		}
		++*n;
		p += len;
		while (*p == ',' || *p == ' ')
			p++;
	}
	if (!*n)
		return rg_error(err, "no verdict listed");
	return 0;
}

int tri_expect_count(const tri_opts *o, size_t nraces, rg_err *err)
{
	size_t n;

	if (!o->expect_verdicts)
		return 0;
	if (tri_expect_parse(o->expect_verdicts, NULL, &n, err) < 0)
		return rg_error_prefix(err, "--expect-verdicts");
	if (n != nraces)
		return rg_error(err, "--expect-verdicts lists %zu verdict%s, '%s' has %zu "
				"race%s: one verdict a race, in the report's order", n,
				n == 1 ? "" : "s", o->tsan ? o->tsan : o->helgrind ? o->helgrind :
				o->drd, nraces,
				nraces == 1 ? "" : "s");
	return 0;
}

int tri_status(const tri_opts *o, const enum tri_verdict *got, const bool *untriaged,
	       size_t n, FILE *f)
{
	enum tri_verdict *want = NULL;
	size_t nwant = 0, bad = 0;
	rg_err err = RG_ERR_INIT;

	if (!o->expect_verdicts) {
		for (size_t i = 0; i < n; i++)
			if (!untriaged[i] && (got[i] == TRI_HARMFUL ||
					      got[i] == TRI_OUTPUT_DIFFERS))
				return RG_EXIT_UNMET;
		return RG_EXIT_OK;
	}
	/* checked on the command line, and against the report's races */
	if (tri_expect_parse(o->expect_verdicts, &want, &nwant, &err) < 0 || nwant != n) {
		free(want);
		return RG_EXIT_SETUP;
	}
	for (size_t i = 0; i < n; i++)
		if (untriaged[i]) {
			fprintf(f, "race %zu: not triaged, expected %s (--expect-verdicts)\n",
				i + 1, tri_verdict_name(want[i]));
			bad++;
		} else if (got[i] != want[i]) {
			fprintf(f, "race %zu: %s, expected %s (--expect-verdicts)\n", i + 1,
				tri_verdict_name(got[i]), tri_verdict_name(want[i]));
			bad++;
		}
	if (!bad)
		fprintf(f, "every race's verdict is the one expected (--expect-verdicts)\n");
	free(want);
	return bad ? RG_EXIT_UNMET : RG_EXIT_OK;
}
