/*
 * tri_int: what tri_run.c (the runs, the verdicts, the files) and
 * tri_md.c (the Markdown report) share of racegate triage.
 */
#ifndef RACEGATE_TRI_INT_H
#define RACEGATE_TRI_INT_H

#include "tri.h"

typedef struct tri_race {
	int no;                  /* 1-based, the report's order */
	tri_side s[2];
	tri_order o[2];
	enum tri_verdict v;
	int which;
	char *place[2];          /* each side as the table shows it: "f.c:9+2 (closer)" */
	char *files[2];          /* written, or NULL */
	char *points;            /* the search's --at: both lines and their accesses */
	bool searched;           /* HARMFUL by the search: files[0] is its file */
	char *search_note;       /* what the search found, in words, or NULL */
	int verified;            /* HARMFUL: replays that reproduced, of verify */
	char *what;              /* the evidence in words */
	char *note;              /* not triaged: why (then no verdict) */
	const tri_item *item;    /* where it comes from (tri_reports.c) */
} tri_race;

/* The runs' timeout: four times --time, 10s at least. */
long tri_run_timeout(const tri_opts *o);

/* Where race's file goes: race-N.yaml (one), or race-N-order-K.yaml. */
char *tri_out_path(const tri_opts *o, int race, int order, bool one);

/*
 * tri_search.c: the search between race r's accesses when no forced
 * order fails (BENIGN, SINGLE-ORDER) or a failing order's file did not
 * reproduce every time; a file it writes makes r HARMFUL (r->searched),
 * what it found is r->search_note.  0, or -1 with err (interrupted, or
 * the search could not run).
 */
int tri_search(const tri_opts *o, tri_race *r, rg_err *err);

/* r->what, of a race in library code called from its places, says what it covers. */
void tri_say_inside(tri_race *r);

/*
 * --markdown FILE.md: the races in a table, and for each HARMFUL one its
 * two accesses with their source lines, the order that fails (a Mermaid
 * sequence diagram), the replay command and its gates file.  0, or -1
 * with err.
 */
int tri_markdown(const tri_opts *o, const tri_race *rs, size_t n, rg_err *err);

#endif
