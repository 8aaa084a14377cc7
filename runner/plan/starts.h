/*
 * runner/plan/starts.c: the start routine of a new thread, as {start:}
 * selectors name it.  Read at the thread library's pthread_create, before
 * the thread exists.
 */
#ifndef RACEGATE_STARTS_H
#define RACEGATE_STARTS_H

#include "plan.h"
#include "tracer.h"

/*
 * The name of what a thread created with pthread_create(..., routine, arg)
 * runs (run-time addresses; bt is the run's bias table):
 * routine's function name; for std::thread and std::jthread, whose routine
 * is the C++ library's own, the callable it was given:
 *   a function          its name ("worker", "ns::worker")
 *   a member function   its qualified name ("Account::run"; a virtual one
 *                       as the object's class overrides it)
 *   a lambda or other   its type as the demangler prints it
 *   function object     ("main::{lambda()#1}", "spawn(int)::{lambda()#2}",
 *                       "Worker")
 * NULL when unknown.  tr's thread tid, of process pid (the program's, or a
 * followed child's: its memory and maps are read), is stopped in
 * pthread_create.
 */
char *starts_name(plan *p, tracer *tr, const run_bias *bt, pid_t pid, pid_t tid,
		  uint64_t routine, uint64_t arg);

/*
 * Does the program start a std::thread with a callable whose type is called
 * start (in full or by a tail after "::"): a lambda or a function object,
 * which has no function of that name, and whose operator() the compiler
 * may have inlined?
 */
bool starts_callable_type(dwarfx *dx, const char *start);

/*
 * Is path (a mapped object) a thread library, where the program's
 * pthread_create lives?  glibc's libc.so.6 (libc-2.NN.so) and libpthread,
 * musl's libc.musl-ARCH.so.1 and ld-musl-ARCH.so.1 (one file, the C library
 * and the dynamic linker at once).
 */
bool starts_thread_library(const char *path);

/*
 * No pthread_create was found (why: the reason, or NULL when the program's
 * libraries simply have none): when a selector of p's spec names a start
 * routine, which can then never bind, adds a line saying so to warnings.
 */
void starts_none_found(const plan *p, const char *why, rg_buf *warnings);

/*
 * A thread started whose start routine is unknown (it did not come from
 * pthread_create: a raw clone; or starts_name could not name it): when a
 * selector of p's spec names a start routine, adds a line saying so to
 * warnings, once.
 */
void starts_unnamed(const plan *p, rg_buf *warnings);

#endif
