/*
 * attach: `racegate attach PID GATES.yaml` around the session (attach.c).
 */
#ifndef RACEGATE_ATTACH_H
#define RACEGATE_ATTACH_H

#include "decide_gates.h"
#include "runner.h"
#include "session.h"

/* A process id as given on the command line; -1 when s is none. */
int attach_parse_pid(const char *s, pid_t *pid);

/*
 * The program process pid runs (/proc/PID/exe), malloc'd: what the plan is
 * built from.  NULL with a message when there is none to read (no such
 * process, a kernel thread, a program deleted since it started).
 */
char *attach_program_path(pid_t pid, rg_err *err);

/*
 * The outcome of an attach to pid (run.c, in place of its judging):
 * ENFORCED when every gate that counts acted and the process was let go;
 * NOT-ENFORCED when --for ran out first; INTERRUPTED; the gates' verdicts
 * as in runs; and a process that ended while attached judged by expect:
 * without stdout: and stderr:.
 */
void attach_judge(const spec *sp, run_result *r, const session_end *end,
		  const gates_verdict *v, pid_t pid);

#endif
