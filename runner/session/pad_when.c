/*
 * `when:` conditions for the jump pads (pad_when.h).
 */
#include "pad_when.h"

#include <stdlib.h>

#include "conds.h"

size_t pad_when_gate(const plan *p, const plan_bp *bp)
{
	for (size_t k = 0; k < bp->ngates; k++) {
		const spec_gate *g = &p->sp->gates[bp->gates[k]];

		if (g->when && g->hit <= 0)
			return bp->gates[k];
	}
	return PAD_WHEN_NONE;
}

cond_op *pad_when_ops(const plan *p, const run_bias *bt, size_t gate,
		      const plan_bp *bp, size_t *n, const char **why)
{
	const expr_code *c = conds_code(p, gate, bp->site);
	cond_op *ops;

	*n = 0;
	if (!c) {
		*why = "it is not compiled there";
		return NULL;
	}
	*n = expr_code_ops(c, NULL, 0);
	ops = xcalloc(*n ? *n : 1, sizeof(*ops));
	expr_code_ops(c, ops, *n);
	for (size_t i = 0; i < *n; i++) {
		rg_site s;

		if (ops[i].code != O_BIAS)
			continue;
		/* the object's load bias, known now or never to the pad */
		s = conds_obj_site(bp->site, (int)ops[i].arg);
		if (!run_bias_mapped(bt, s)) {
			free(ops);
			*why = "it reads a variable of a library not loaded yet";
			return NULL;
		}
		ops[i] = (cond_op){ .code = O_CONST, .arg = (int64_t)run_bias_addr(bt, s) };
	}
	return ops;
}
