/*
 * result: a run's record freed (result.h).
 */
#include "result.h"

#include <stdlib.h>
#include <string.h>

void run_result_release(run_result *res)
{
	size_t i;

	for (i = 0; i < res->ntl; i++) {
		free(res->tl[i].who);
		free(res->tl[i].what);
		free(res->tl[i].event);
	}
	free(res->tl);
	for (i = 0; i < res->ndiag; i++) {
		diag_thread *d = &res->diag[i];

		free(d->label);
		free(d->state);
		free(d->where);
		for (size_t j = 0; j < d->nbacktrace; j++)
			free(d->backtrace[j]);
		free(d->backtrace);
	}
	free(res->diag);
	free(res->chain);
	rg_buf_release(&res->out);
	rg_buf_release(&res->err);
	rg_buf_release(&res->warnings);
	free(res->note);
	free(res->gate_reached);
	free(res->gate_timed_out);
	for (i = 0; res->gate_unarmed && i < res->ngates; i++)
		free(res->gate_unarmed[i]);
	free(res->gate_unarmed);
	for (i = 0; res->when_fault && i < res->ngates; i++)
		free(res->when_fault[i]);
	free(res->when_fault);
	free(res->when_false);
	free(res->when_faults);
	for (i = 0; i < res->nunbound; i++)
		free(res->unbound[i]);
	free(res->unbound);
	memset(res, 0, sizeof(*res));
}
