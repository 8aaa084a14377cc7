/*
 * A made-up scope and stopped thread for expr's tests and fuzzer: a few
 * variables in memory, registers, a computed value, an optimized-out and a
 * thread-local one, a struct queue with a bitfield, an enum, an anonymous
 * union, a C++-like class with a base reached through `this`, and a small
 * memory map.  See expr_fake.c for the values.
 */
#ifndef RACEGATE_EXPR_FAKE_H
#define RACEGATE_EXPR_FAKE_H

#include "expr.h"

typedef struct fake_host {
	expr_host h;
	uint64_t regs[17];
	size_t calls;          /* host->read calls */
	size_t first_batch;    /* requests in the first call */
	size_t reqs;           /* requests in all calls */
} fake_host;

/* The scope at "queue.c:40". */
extern const expr_env fake_env;

/* A stopped thread: tid 4242, $hit 3, $thread is w1. */
void fake_host_init(fake_host *fh);

#endif
