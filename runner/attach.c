/*
 * racegate attach PID GATES.yaml: the gates on a process that runs
 * already.  session.c attaches and lets the program go (run_opts.attach_pid);
 * this file is what differs around it: the program named by the process,
 * and the outcome of an attach (docs/gates.md, "Attaching to a running
 * process").
 *
 * An attach has no natural end: it ends when every gate that counts has
 * acted (ENFORCED), when --for runs out or racegate is interrupted first
 * (NOT-ENFORCED, INTERRUPTED), at a verdict of the gates, or when the
 * process ends by itself, which is judged by expect: as far as its exit
 * status allows (its output is not racegate's to see).
 */
#include "runner.h"
#include "attach.h"
#include "tracer.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int attach_parse_pid(const char *s, pid_t *pid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > INT_MAX)
		return -1;
	*pid = (pid_t)v;
	return 0;
}

char *attach_program_path(pid_t pid, rg_err *err)
{
	char link[64], path[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d", (int)pid);
	if (access(link, F_OK) < 0) {
		rg_error(err, "cannot attach to process %d: no such process", pid);
		return NULL;
	}
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0) {
		if (errno == EACCES || errno == EPERM)
			tracer_attach_explain(pid, err);   /* what ptrace will say */
		else if (errno == ENOENT)
			rg_error(err, "cannot attach to process %d: it has no program "
				 "file (a kernel thread, or a zombie)", pid);
		else
			rg_error(err, "cannot attach to process %d: cannot read '%s': %s",
				 pid, link, strerror(errno));
		return NULL;
	}
	path[n] = '\0';
	if (n > 10 && !strcmp(path + n - 10, " (deleted)"))  {
		rg_error(err, "cannot attach to process %d: its program '%.*s' was "
			 "deleted or replaced since it started, so its debug "
			 "information cannot be read", pid, (int)(n - 10), path);
		return NULL;
	}
	return xstrdup(path);
}

/*
 * The process ended while attached: judged by expect as a run is, but for
 * its output, which went where the process sends it: stdout: and stderr:
 * are left out, and the note says so.
 */
static void judge_ended(const spec *sp, run_result *r, const gates_verdict *v)
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

void attach_judge(const spec *sp, run_result *r, const session_end *end,
		  const gates_verdict *v, pid_t pid)
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
