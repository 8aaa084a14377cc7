/*
 * triage's insides, shared by report.c (the report, its lines, threads and
 * races), tsan.c and valgrind.c (the parsers).  No other module includes it.
 */
#ifndef RACEGATE_TRIAGE_INT_H
#define RACEGATE_TRIAGE_INT_H

#include "intmap.h"
#include "triage.h"

/*
 * The report's text as lines: ANSI colour sequences removed,
 * leading blanks skipped.  For valgrind, the "==PID== " prefix is taken off
 * (pid says whose it was) and a line without one is the program's output
 * (vg false: the valgrind parsers skip it).
 */
typedef struct tr_line {
	char *s;       /* the text after the prefix and leading blanks */
	int indent;    /* blanks skipped (after a valgrind prefix, its own) */
	long pid;      /* valgrind: the prefix's pid; 0 */
	bool vg;       /* a "==PID==" line */
} tr_line;

struct triage_report {
	enum triage_tool tool;
	char *name;
	tr_line *lines;        /* freed once parsed */
	size_t nlines;
	triage_race *races;
	size_t nraces, races_cap;
	triage_thread *threads;
	size_t nthreads, threads_cap;
	rg_intmap thread_ix;   /* (pid, id) -> index + 1 */
	triage_skip *skips;
	size_t nskips, skips_cap;
	size_t nwarnings;
	rg_intmap race_ix;     /* hash of the pair of keys -> index + 1 (first of that hash) */
	rg_err *err;
};

/* Parsers: fill r from r->lines; 0, or -1 with r->err set (through tr_fail). */
int tr_parse_tsan(triage_report *r);
int tr_parse_valgrind(triage_report *r);   /* r->tool: HELGRIND or DRD */

/* Sets r->err to "NAME:LINE: ..." (line 1-based; 0: no line) and returns -1. */
int tr_fail(triage_report *r, size_t line, const char *fmt, ...) RG_PRINTF(3, 4);

/* The thread (pid, id), added (unknown creation, creator -1) when new. */
int tr_thread(triage_report *r, long pid, int id);

/*
 * Adds race (its contents are moved into r, or freed when it merges into an
 * earlier race with the same pair of places).  race->count must be set.
 */
void tr_add_race(triage_report *r, triage_race *race);
void tr_add_skip(triage_report *r, size_t line, const char *what);

/* Frames. */
void tr_stack_push(triage_stack *st, triage_frame *f);   /* moves f */
void tr_frame_release(triage_frame *f);
void tr_stack_release(triage_stack *st);
void tr_access_release(triage_access *a);
void tr_race_release(triage_race *race);
/* Sets f->system from its object, file and function (triage.h, Places). */
void tr_frame_classify(triage_frame *f);

/* Small scanners over a NUL-terminated line; each advances *p on success. */
bool tr_skip(const char **p, const char *lit);        /* literal prefix */
bool tr_uint(const char **p, unsigned long long *v);  /* decimal */
bool tr_hex(const char **p, unsigned long long *v);   /* 0x... */
bool tr_ends_with(const char *s, const char *lit);
char *tr_dup(const char *s, size_t n);
/* "FILE:LINE[:COL]" (the whole of s): file and line set, col when given. */
bool tr_file_line(const char *s, size_t n, triage_frame *f);

#endif
