/*
 * One run of the program under the gates: a session (session.h) with the
 * gate engine deciding (decide_gates.h), then the judge.  Other drivers
 * (explore, attach) plug their own decider into the same session.
 */
#include "run.h"

#include <stdlib.h>
#include <string.h>

#include "decide_gates.h"
#include "interrupt.h"
#include "session.h"

static void interrupted_note(run_result *res, int sig)
{
	const char *name = spec_signal_name(sig);
	char *n = xasprintf("racegate got %s: the program was killed%s%s",
			    name ? name : strsignal(sig),
			    res->note ? "; " : "", res->note ? res->note : "");

	res->outcome = OUT_INTERRUPTED;
	free(res->note);
	res->note = n;
}

void run_once(plan *p, const run_opts *o, run_result *res)
{
	session *s;
	gates_decider *g;
	session_end end;
	judge_verdict v;

	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	res->ngates = p->sp->ngates;
	s = session_new(p, o, res);
	g = gates_decider_new(s, o);
	session_run(s, &gates_decider_ops, g, &end);
	if (!end.started) {
		res->outcome = OUT_ERROR;
		goto out;
	}
	gates_decider_finish(g, res, &v);
	if (o->attach_pid) {
		judge_attach(p->sp, res, &end, &v, o->attach_pid);
		gates_decider_note_unbound(g, res);
		goto out;
	}
	/* ^C in a terminal reaches the program too, and may kill it first */
	if (!end.interrupted && interrupt_signal() &&
	    res->term_signal == interrupt_signal())
		end.interrupted = interrupt_signal();
	if (end.failed)
		res->outcome = OUT_ERROR;
	else if (end.interrupted)
		interrupted_note(res, end.interrupted);
	else if (v.deadlock)
		res->outcome = OUT_DEADLOCK;
	judge_run(p->sp, res, v.stuck, v.infeasible, end.timed_out);
	gates_decider_explain(g, res);
	if (v.stuck && !res->note)
		res->note = xstrdup("the held threads wait only on threads that wait "
				    "on them: the gated order cannot happen");
	if (end.kept || end.timed_out) {
		char *what = end.kept ? xasprintf("the program is left stopped: gdb -p %d",
						  (int)end.kept_pid) :
			     xstrdup("the program was killed");
		char *n = xasprintf("%s%s%s", res->note ? res->note : "",
				    res->note ? "; " : "", what);

		free(what);
		free(res->note);
		res->note = n;
	}
	gates_decider_note_unbound(g, res);
out:
	gates_decider_free(g);
	session_free(s);
}

