/*
 * What the gate engine's suite shares between its files (check_gates.c,
 * check_gates_filters.c): hand-built specs, the note recorder, the engine
 * under test and its fixture.  Defined in check_gates.c.
 *
 * Note lines:  arrive TID @GATE | open TID @GATE EVENT | hold TID @GATE TEXT
 *              release TID @GATE HELD_MS | timeout TID @GATE HELD_MS | bind TID ALIAS
 */
#ifndef CHECK_GATES_H
#define CHECK_GATES_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "gates.h"
#include "msg.h"

/* ---- hand-built specs ---- */

spec *tspec_new(size_t maxgates);
spec_gate *tgate(spec *s, const char *at);
void tlist(spec_strv *v, ...);
void tsel_alias(spec_selector *sel, const char *text);
void tsel_match(spec_selector *sel, const char *start, const char *name,
		long tid, int nth);
void talias(spec *s, const char *alias, const char *start, const char *name, int nth);

/* ---- the recorder and the engine under test ---- */

struct rec {
	rg_buf log;
	gate_engine *e;   /* to check the note hook may query the engine */
};

extern struct rec R;
extern spec *S;
extern gate_engine *E;

void rec_note(void *ctx, const gate_note *n);
void start_engine(void);
const char *take(void);
void teardown(void);
bool arrive1(pid_t tid, size_t gate, double t);
bool arrive2(pid_t tid, size_t g1, size_t g2, double t);

/* ---- the test groups of the other files ---- */

void gates_add_filters(Suite *s);  /* check_gates_filters.c: "filters", "barriers" */

#endif
