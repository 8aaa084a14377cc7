/*
 * specs/ internals: the loader state shared by the YAML walker (spec.c),
 * the whole-spec checks (spec_check.c), the value parsers (spec_value.c),
 * the regex cost check (spec_regex.c)
 * and the 'when:' syntax check (spec_when.c).  Not for other modules.
 */
#ifndef RACEGATE_SPEC_INT_H
#define RACEGATE_SPEC_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "msg.h"
#include "spec.h"

/*
 * Bounds that keep hostile input cheap.  A YAML alias is a reference, not a
 * copy, so a few bytes of '*a' can make the walker visit a big node many
 * times: every visit costs one unit of work and the load stops at the cap.
 * After SPEC_MAX_DIAGS messages nobody reads on, so we stop there too.
 */
#define SPEC_MAX_WORK   1000000
/*
 * libyaml's scanner costs O(nesting depth) per token (it rechecks a possible
 * simple key per open flow collection), so 500 KB of '[' cost a minute; its
 * document loader allocates ~170 bytes a node, and compares every anchor
 * with every earlier one and every alias with the anchors (100,000 anchors:
 * 30 s).  All three are checked by a pass over libyaml's events that stops
 * at the first node past a limit, before any document is built.  A gates
 * file needs 4 levels and a few anchors; 10,000 gates are ~70,000 nodes.
 * docs/gates.md states the limits.
 */
#define SPEC_MAX_DEPTH   64
#define SPEC_MAX_NODES   1000000
#define SPEC_MAX_ANCHORS 100
#define SPEC_MAX_DIAGS  100
/* Warnings shown at most; the rest are counted, and never stop the load. */
#define SPEC_MAX_WARNINGS 50

/* Event name prefixes that racegate owns; see spec.h and docs/gates.md. */
#define SPEC_EV_STARTED  "started:"
#define SPEC_EV_EXITED   "exited:"
#define SPEC_EV_SEQUENCE "sequence:"

typedef struct spec_loader {
	spec *s;
	spec_diags *d;
	size_t first_diag;   /* diagnostics before this one are not ours */
	size_t ndiags;       /* added by this load */
	size_t nwarnings;    /* warnings added by this load */
	size_t warnings_dropped; /* warnings past SPEC_MAX_WARNINGS, not kept */
	size_t gates_cap;
	size_t aliases_cap;
	size_t nsteps;       /* sequence: steps (appended after the gates) */
	spec_pos root_pos;
	size_t work;
	bool stop;           /* too much work or too many messages: unwind */
} spec_loader;

/* User text made safe and short for a message: "'%s'" with this inside. */
typedef struct spec_shown {
	char s[100];
} spec_shown;
spec_shown spec_show(const char *text, size_t len);
#define SHOW(str) (spec_show((str), strlen(str)).s)

void spec_err(spec_loader *ld, spec_pos pos, const char *fmt, ...) RG_PRINTF(3, 4);
void spec_warn(spec_loader *ld, spec_pos pos, const char *fmt, ...) RG_PRINTF(3, 4);

/*
 * The candidate nearest to word, when it is close enough to be the word the
 * user meant; NULL otherwise.  Candidates may repeat or be NULL.
 */
const char *spec_nearest(const char *word, const char *const *cand, size_t n);

/*
 * stdin: {file: PATH}: reads PATH (relative to the spec's dir) into the
 * spec's stdin; 0, or -1 with the error added at pos.
 */
int spec_stdin_file(spec_loader *ld, const char *path, spec_pos pos);

/* Is name usable as a thread alias?  Sets *why when not. */
bool spec_alias_name_ok(const char *name, const char **why);

/* Canonical signal names in table order, NULL past the end (suggestions). */
const char *spec_signal_name_at(size_t i);

/* Whole-spec checks, after every node was read (spec_check.c). */
void spec_check_all(spec_loader *ld);

/* spec_regex.c: whether regcomp can build regex re in reasonable time and
 * memory (stacked repetitions blow it up exponentially). */
bool spec_regex_cheap(const char *re);

/*
 * Syntax of a when: condition (spec_when.c).  Returns 0 when expr is a
 * condition racegate can read; -1 with the byte offset of the problem in
 * *off and the reason in why otherwise.
 */
int spec_when_check(const char *expr, size_t *off, char *why, size_t whylen);

#endif
