/*
 * The `when:` condition a gate site's jump pad may evaluate in the thread
 * (tracer_pad_make): which gate's, and its ops with the objects' load
 * biases made constants.
 */
#ifndef RACEGATE_PAD_WHEN_H
#define RACEGATE_PAD_WHEN_H

#include "cond_ops.h"
#include "result.h"

/*
 * The gate at bp whose condition a pad there would run: the first with
 * when: and no hit: (NONE: none; every other gate's when: traps).
 */
#define PAD_WHEN_NONE ((size_t)-1)
size_t pad_when_gate(const plan *p, const plan_bp *bp);

/*
 * gate's condition compiled at bp's site as ops for the pad, O_BIAS
 * resolved through bt (the objects mapped now).  Returns the ops (free them)
 * and *n, or NULL and *why (a fixed string).
 */
cond_op *pad_when_ops(const plan *p, const run_bias *bt, size_t gate,
		      const plan_bp *bp, size_t *n, const char **why);

#endif
