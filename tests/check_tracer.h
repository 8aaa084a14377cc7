/*
 * check_tracer's files (check_tracer.c, check_tracer_pads.c): the test
 * groups each adds to the suite.
 */
#ifndef CHECK_TRACER_H
#define CHECK_TRACER_H

#include <check.h>

void tracer_add_pads(Suite *s);  /* check_tracer_pads.c: "pads" */

#endif
