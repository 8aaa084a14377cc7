/*
 * judge: one outcome per run.
 *
 * Two kinds of expectation exist.  A repro spec expects the bug (exit 1,
 * a signal, some output): meeting it is REPRODUCED, missing it is
 * NOT-REPRODUCED.  A regression spec expects a clean exit (exit 0, or no
 * expect: at all): meeting it is PASSED, missing it is FAILED.
 *
 * Whether the gates took hold matters as much: a regression spec whose gates
 * stopped firing must not pass silently, so an unreached gate (or one that
 * let its thread go by its timeout) makes the run NOT-ENFORCED, unless the
 * expected bug happened anyway.
 */
#include "report.h"

#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

const char *run_outcome_name(enum run_outcome o)
{
	switch (o) {
	case OUT_REPRODUCED: return "REPRODUCED";
	case OUT_PASSED: return "PASSED";
	case OUT_NOT_REPRODUCED: return "NOT-REPRODUCED";
	case OUT_FAILED: return "FAILED";
	case OUT_DEADLOCK: return "DEADLOCK";
	case OUT_SCHEDULE_DEADLOCK: return "SCHEDULE-DEADLOCK";
	case OUT_ORDER_INFEASIBLE: return "ORDER-INFEASIBLE";
	case OUT_NOT_ENFORCED: return "NOT-ENFORCED";
	case OUT_TIMEOUT: return "TIMEOUT";
	case OUT_INTERRUPTED: return "INTERRUPTED";
	case OUT_ENFORCED: return "ENFORCED";
	case OUT_ERROR: return "ERROR";
	}
	return "?";
}

int run_outcome_exit(enum run_outcome o)
{
	switch (o) {
	case OUT_REPRODUCED:
	case OUT_PASSED:
	case OUT_ORDER_INFEASIBLE:
	case OUT_ENFORCED:
		return RG_EXIT_OK;
	case OUT_NOT_REPRODUCED:
	case OUT_FAILED:
		return RG_EXIT_UNMET;
	case OUT_DEADLOCK:
	case OUT_SCHEDULE_DEADLOCK:
	case OUT_NOT_ENFORCED:
	case OUT_TIMEOUT:
	case OUT_INTERRUPTED:   /* the session's status says by what (batch.c) */
		return RG_EXIT_ENFORCE;
	case OUT_ERROR:
		return RG_EXIT_SETUP;
	}
	return RG_EXIT_SETUP;
}

bool judge_needs_output(const spec *sp)
{
	return sp->expect.stdout_text || sp->expect.stderr_text;
}

/* The expectation is "the program is fine" rather than "the bug shows". */
static bool expects_success(const spec_expect *x)
{
	if (!x->any)
		return true;
	return x->has_exit && x->exit_code == 0 && !x->has_signal && !x->deadlock &&
	       !x->timeout;
}

bool judge_expects_bug(const spec_expect *x)
{
	return !expects_success(x);
}

/*
 * A substring, or a POSIX ERE: line by line (REG_NEWLINE: '^' and '$' at
 * each line, '.' never a newline), or over the whole output as one string
 * with multiline (expect: multiline: true).
 */
static bool text_matches(const char *pattern, bool is_regex, bool multiline,
			 const char *text)
{
	regex_t re;
	bool ok;

	if (!is_regex)
		return strstr(text, pattern) != NULL;
	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB | (multiline ? 0 : REG_NEWLINE)))
		rg_bug("expect regex '%s' does not compile: specs/ checks it "
		       "with the same flags", pattern);
	ok = regexec(&re, text, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

bool judge_stdout_met(const spec_expect *x, const char *out)
{
	return !x->stdout_text ||
	       text_matches(x->stdout_text, x->stdout_regex, x->multiline, out ? out : "");
}

static void describe_status(rg_buf *b, const run_result *r)
{
	/* the name expect: signal: takes, then the words */
	if (r->term_signal) {
		const char *name = spec_signal_name(r->term_signal);

		if (name)
			rg_buf_printf(b, "killed by %s (%s)", name,
				      strsignal(r->term_signal));
		else
			rg_buf_printf(b, "killed by signal %d (%s)", r->term_signal,
				      strsignal(r->term_signal));
		if (r->core_dumped)
			rg_buf_puts(b, ", core dumped");
	}
	else
		rg_buf_printf(b, "exit %d", r->exit_code);
}

/*
 * Checks every expectation; returns true when all hold.  Writes what did not
 * hold (or, when all held, what was seen) to why.
 */
static bool expectation_met(const spec *sp, const run_result *r, rg_buf *why,
			    bool timed_out)
{
	const spec_expect *x = &sp->expect;
	bool ok = true;
	const char *out = r->out.s ? r->out.s : "";
	const char *err = r->err.s ? r->err.s : "";

	if (!x->any || x->has_exit) {
		int want = x->any ? x->exit_code : 0;

		if (r->term_signal || r->exit_code != want) {
			rg_buf_printf(why, "%sexpected exit %d, got ", ok ? "" : "; ", want);
			describe_status(why, r);
			ok = false;
		}
	}
	if (x->has_signal && r->term_signal != x->signo) {
		rg_buf_printf(why, "%sexpected %s, got ", ok ? "" : "; ",
			      spec_signal_name(x->signo));
		describe_status(why, r);
		ok = false;
	}
	if (x->stdout_text && !text_matches(x->stdout_text, x->stdout_regex, x->multiline, out)) {
		rg_buf_printf(why, "%sstdout does not %s '%s'", ok ? "" : "; ",
			      x->stdout_regex ? "match" : "contain", x->stdout_text);
		ok = false;
	}
	if (x->stderr_text && !text_matches(x->stderr_text, x->stderr_regex, x->multiline, err)) {
		rg_buf_printf(why, "%sstderr does not %s '%s'", ok ? "" : "; ",
			      x->stderr_regex ? "match" : "contain", x->stderr_text);
		ok = false;
	}
	if (x->deadlock) {
		rg_buf_printf(why, "%sexpected a deadlock, got ", ok ? "" : "; ");
		describe_status(why, r);
		ok = false;
	}
	if (x->timeout && !timed_out) {
		rg_buf_printf(why, "%sexpected the run to time out, got ", ok ? "" : "; ");
		describe_status(why, r);
		ok = false;
	}
	if (ok)
		describe_status(why, r);
	return ok;
}

/*
 * Is a gate that counts (not optional) never armed: its location never got
 * a breakpoint (a library that never loaded)?  Such a gate cannot have
 * enforced anything, so the run is not REPRODUCED, whatever it showed.
 */
static bool key_gate_unarmed(const spec *sp, const run_result *r)
{
	size_t i;

	for (i = 0; r->gate_unarmed && i < sp->ngates; i++)
		if (!sp->gates[i].optional && !r->gate_reached[i] && r->gate_unarmed[i])
			return true;
	return false;
}

char *judge_unenforced(const spec *sp, const run_result *r)
{
	rg_buf b = RG_BUF_INIT;
	size_t i, n = 0;

	for (i = 0; i < sp->ngates; i++) {
		const spec_gate *g = &sp->gates[i];

		if (g->optional)
			continue;
		if (!r->gate_reached[i] && r->gate_unarmed && r->gate_unarmed[i])
			rg_buf_printf(&b, "%s'%s' (%s) %s", n++ ? ", " : "", g->name,
				      g->at, r->gate_unarmed[i]);
		else if (!r->gate_reached[i])
			rg_buf_printf(&b, "%s'%s' (%s) was never reached",
				      n++ ? ", " : "", g->name, g->at);
		else if (r->gate_timed_out[i])
			rg_buf_printf(&b, "%s'%s' let a thread go by its timeout",
				      n++ ? ", " : "", g->name);
	}
	return n ? rg_buf_detach(&b) : NULL;
}

void judge_add_note(run_result *r, char *text)
{
	if (r->note) {
		char *both = xasprintf("%s; %s", r->note, text);

		free(r->note);
		free(text);
		r->note = both;
	} else {
		r->note = text;
	}
}

void judge_run(const spec *sp, run_result *r, bool stuck, bool infeasible,
	       bool timed_out)
{
	rg_buf why = RG_BUF_INIT;
	bool success = expects_success(&sp->expect);
	bool met;
	char *gaps;

	if (r->outcome == OUT_ERROR || r->outcome == OUT_INTERRUPTED)
		return;   /* the session said why */
	if (timed_out && sp->expect.timeout) {
		/* expect: {timeout: true}: the hang is the bug (and its output, if said) */
		met = expectation_met(sp, r, &why, true);
		r->outcome = met ? OUT_REPRODUCED : OUT_NOT_REPRODUCED;
		judge_add_note(r, met ? xstrdup("the run did not end within its "
						"timeout, as expected") :
			       rg_buf_detach(&why));
		rg_buf_release(&why);
		return;
	}
	if (timed_out) {
		r->outcome = OUT_TIMEOUT;
		/* the session says what became of the program: killed, or left stopped */
		judge_add_note(r, xasprintf("the run did not end within its timeout"));
		return;
	}
	if (stuck) {
		r->outcome = OUT_SCHEDULE_DEADLOCK;
		return;
	}
	if (r->outcome == OUT_DEADLOCK) {
		/* the session: threads blocked on each other, none by a gate */
		if (sp->expect.deadlock && key_gate_unarmed(sp, r)) {
			gaps = judge_unenforced(sp, r);
			r->outcome = OUT_NOT_ENFORCED;
			judge_add_note(r, xasprintf("the order did not take hold: %s; the "
					      "program deadlocked, as expected, but "
					      "not in the gated order", gaps));
			free(gaps);
		} else if (sp->expect.deadlock) {
			r->outcome = OUT_REPRODUCED;
			judge_add_note(r, xstrdup("the program deadlocked, as expected"));
		} else {
			judge_add_note(r, xstrdup("the program deadlocked by itself: its "
					    "blocked threads wait only on each other"));
		}
		return;
	}

	met = expectation_met(sp, r, &why, false);
	gaps = judge_unenforced(sp, r);
	if (met && !success && key_gate_unarmed(sp, r)) {
		r->outcome = OUT_NOT_ENFORCED;
		judge_add_note(r, xasprintf("the order did not take hold: %s; what was "
				      "expected happened (%s), but not in the gated "
				      "order", gaps, why.s));
		free(gaps);
		rg_buf_release(&why);
		return;
	} else if (met && !success) {
		r->outcome = OUT_REPRODUCED;
		if (gaps)
			judge_add_note(r, xasprintf("reproduced although %s", gaps));
	} else if (infeasible) {
		r->outcome = met ? OUT_ORDER_INFEASIBLE : success ? OUT_FAILED :
			     OUT_ORDER_INFEASIBLE;
		judge_add_note(r, xasprintf("the gated order could not happen: the held "
				      "threads waited only on threads that waited on "
				      "them, so they were released "
				      "(on_deadlock: release); the program then ended "
				      "with %s", why.s));
		rg_buf_release(&why);
		free(gaps);
		return;
	} else if (gaps && r->term_signal) {
		/* the crash is said too: it may be why a gate was never reached */
		rg_buf status = RG_BUF_INIT;

		describe_status(&status, r);
		r->outcome = OUT_NOT_ENFORCED;
		judge_add_note(r, xasprintf("the order did not take hold: %s; the program "
				      "was %s", gaps, status.s));
		rg_buf_release(&status);
	} else if (gaps) {
		r->outcome = OUT_NOT_ENFORCED;
		judge_add_note(r, xasprintf("the order did not take hold: %s", gaps));
	} else if (met) {
		r->outcome = OUT_PASSED;
	} else {
		r->outcome = success ? OUT_FAILED : OUT_NOT_REPRODUCED;
	}
	if (r->outcome != OUT_NOT_ENFORCED)
		judge_add_note(r, rg_buf_detach(&why));
	free(gaps);
	rg_buf_release(&why);
}

/*
 * The process ended while attached: judged by expect as a run is, but for
 * its output, which went where the process sends it: stdout: and stderr:
 * are left out, and the note says so.
 */
static void judge_ended(const spec *sp, run_result *r, const judge_verdict *v)
{
	spec copy = *sp;
	bool had_text = sp->expect.stdout_text || sp->expect.stderr_text;

	copy.expect.stdout_text = NULL;
	copy.expect.stderr_text = NULL;
	if (had_text && !copy.expect.has_exit && !copy.expect.has_signal &&
	    !copy.expect.deadlock)
		copy.expect.any = false;
	judge_run(&copy, r, v->stuck, v->infeasible, false);
	judge_add_note(r, xasprintf("the process ended while racegate was attached%s",
			      had_text ? " (its output is not racegate's: expect's "
			      "stdout: and stderr: were not checked)" : ""));
}

void judge_attach(const spec *sp, run_result *r, const session_end *end,
		  const judge_verdict *v, pid_t pid)
{
	char *gaps;

	if (end->failed) {
		r->outcome = OUT_ERROR;
		return;
	}
	if (end->interrupted) {
		const char *name = spec_signal_name(end->interrupted);

		r->outcome = OUT_INTERRUPTED;
		judge_add_note(r, xasprintf("racegate got %s: it let process %d go on",
				      name ? name : strsignal(end->interrupted),
				      (int)pid));
		return;
	}
	if (!end->detached) {
		if (v->deadlock)
			r->outcome = OUT_DEADLOCK;
		judge_ended(sp, r, v);
		return;
	}
	if (v->stuck || v->deadlock) {
		if (v->deadlock)
			r->outcome = OUT_DEADLOCK;
		judge_run(sp, r, v->stuck, false, false);
		if (v->stuck && !r->note)
			r->note = xstrdup("the held threads wait only on threads that wait "
					  "on them: the gated order cannot happen");
		judge_add_note(r, xasprintf("racegate let process %d go on", (int)pid));
		return;
	}
	if (v->infeasible) {
		/* released by on_deadlock: release, whatever the gates did after */
		r->outcome = OUT_ORDER_INFEASIBLE;
		judge_add_note(r, xasprintf("the gated order could not happen: the held threads "
				      "waited only on threads that waited on them, so "
				      "they were released (on_deadlock: release); "
				      "racegate let process %d go on", (int)pid));
		return;
	}
	gaps = judge_unenforced(sp, r);
	if (end->completed && !gaps) {
		r->outcome = OUT_ENFORCED;
		judge_add_note(r, xasprintf("every gate acted; racegate let process %d go on",
				      (int)pid));
		return;
	}
	r->outcome = OUT_NOT_ENFORCED;
	if (end->execed[0])
		judge_add_note(r, xasprintf("the order did not take hold: %s before process "
				      "%d ran exec ('%s'), which took the gated code "
				      "away; racegate let it go on", gaps ? gaps :
				      "the gates did not act", (int)pid, end->execed));
	else
		judge_add_note(r, xasprintf("the order did not take hold: %s%s; racegate let "
				      "process %d go on", gaps ? gaps : "the gates did not act",
				      end->timed_out ? " before --for ran out" : "", (int)pid));
	free(gaps);
}
