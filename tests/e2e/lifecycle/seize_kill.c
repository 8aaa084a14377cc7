/*
 * Preloaded into racegate (seize_kill.sh): racegate dies of SIGKILL at the
 * worst moment of a start, when it has forked the program's child and not
 * yet seized it nor told it to go on.  The child's pid goes to the file
 * $RG_SEIZE_KILL_PIDFILE first, so that the driver can see what becomes
 * of it.  Any other ptrace request goes to libc's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/types.h>

long ptrace(enum __ptrace_request req, ...)
{
	long (*real)(enum __ptrace_request, ...);
	va_list ap;
	pid_t pid;
	void *addr, *data;

	va_start(ap, req);
	pid = va_arg(ap, pid_t);
	addr = va_arg(ap, void *);
	data = va_arg(ap, void *);
	va_end(ap);
	if (req == PTRACE_SEIZE) {
		const char *path = getenv("RG_SEIZE_KILL_PIDFILE");
		FILE *f = path ? fopen(path, "w") : NULL;

		if (f) {
			fprintf(f, "%d\n", (int)pid);
			fclose(f);
		}
		raise(SIGKILL);
	}
	*(void **)&real = dlsym(RTLD_NEXT, "ptrace");
	return real(req, pid, addr, data);
}
