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
#include "cli.h"
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

