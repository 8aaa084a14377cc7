/*
 * specs: gates.yaml (version 1) -> validated, plain structs.
 *
 * Every node keeps the line and column it came from, so any later stage
 * (location resolution, the runner) can point its errors into the file.
 * The loader never prints: it collects diagnostics (errors and warnings) in a
 * spec_diags list, formatted "FILE:LINE:COL: error|warning: text".
 *
 * The structs are plain values, read directly by gates/ and runner/.
 * docs/gates.md is the user's reference for the language; in brief:
 *
 *  - command: a list (one argv element per item) or a string, which is
 *    split at blanks and nothing else (quotes and backslashes are refused:
 *    write a list).  Kept as written; runner/ resolves it against dir.
 *  - durations need a unit: "250ms", "10s", "1.5s", "2m", "1h", "1m30s";
 *    a bare "10" is refused as ambiguous.  Rounded up to whole ms, at most
 *    INT_MAX ms, and a timeout of 0 is refused.
 *  - sequence: step k becomes an ordinary gate appended after the gates,
 *    with seq_step = k, name "step k" unless given, once = true,
 *    wait "sequence:(k-1)" (k > 1) put first in wait, and
 *    then_open "sequence:k" put last in then_open.  Those strv entries
 *    carry the step's position.  Users cannot open "sequence:N",
 *    "started:ALIAS" or "exited:ALIAS" (built-in), but may wait for them.
 *  - every gate the loader returns has a non-NULL name and at; names given
 *    with name: (and step names) are unique, default names need not be.
 */
#ifndef RACEGATE_SPEC_H
#define RACEGATE_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "msg.h"

typedef struct spec_pos {
	int line; /* 1-based; 0 when the node is synthesised (e.g. by sequence:) */
	int col;  /* 1-based */
} spec_pos;

enum spec_sel_kind {
	SPEC_SEL_ANY = 0,  /* `any`, or no thread: key at all */
	SPEC_SEL_MAIN,     /* `main`: the initial thread */
	SPEC_SEL_ALIAS,    /* an alias from threads: or bound with as: */
	SPEC_SEL_NOT_ALIAS,/* "!ALIAS": any thread but ALIAS's (any while unbound) */
	SPEC_SEL_MATCH,    /* inline {start:, runs:, name:, tid:, nth:} */
};

/*
 * process: which process of the program's tree a gate or a thread selector
 * is about (docs/gates.md, "Processes").  Not given: the main process,
 * unless a gate's thread selector names a process of its own.
 */
enum spec_proc_kind {
	SPEC_PROC_UNSET = 0, /* no process: key */
	SPEC_PROC_MAIN,      /* `main`: the process racegate started */
	SPEC_PROC_ANY,       /* `any`: every process of the tree */
	SPEC_PROC_EXE,       /* {exe: NAME}: the basename of the image it runs now */
	SPEC_PROC_NTH,       /* {nth: K}: the K-th child process, in creation order over the tree */
};

typedef struct spec_process {
	enum spec_proc_kind kind;
	char *exe;    /* SPEC_PROC_EXE */
	int nth;      /* SPEC_PROC_NTH: 1-based */
	spec_pos pos;
} spec_process;

typedef struct spec_selector {
	enum spec_sel_kind kind;
	char *alias;  /* SPEC_SEL_ALIAS / SPEC_SEL_NOT_ALIAS */
	char *start;  /* SPEC_SEL_MATCH: start routine name, or NULL */
	char *runs;   /* SPEC_SEL_MATCH: a function on the thread's stack when it
			 arrives (runner/ resolves it), or NULL */
	char *name;   /* SPEC_SEL_MATCH: thread name (comm), or NULL */
	long tid;     /* SPEC_SEL_MATCH: kernel tid, or 0 */
	int nth;      /* SPEC_SEL_MATCH: 1-based creation rank among matches, 0 = every match */
	spec_process process; /* SPEC_SEL_MATCH: the thread's process; alone (no start,
				 runs, name, tid, nth): that process's initial thread */
	spec_pos pos;
} spec_selector;

typedef struct spec_alias {  /* one entry of threads: */
	char *name;
	spec_selector sel;   /* always SPEC_SEL_MAIN or SPEC_SEL_MATCH */
	spec_pos pos;
} spec_alias;

typedef struct spec_strv {   /* a list of names, each with its position */
	char **v;
	spec_pos *pos;
	size_t n;
} spec_strv;

typedef struct spec_gate {
	char *name;          /* given, or "file:line" style default = the at: text */
	bool name_given;
	spec_pos name_pos;   /* of name:, or of the gate when not given */
	spec_pos pos;        /* of the gate's mapping */
	char *at;            /* location text, resolved by dwarf/ */
	spec_pos at_pos;
	spec_selector thread;/* SPEC_SEL_ANY when absent */
	long hit;            /* 0 = every arrival; N = only this thread's N-th arrival here */
	char *when;          /* condition text, or NULL (syntax checked here; evaluated by runner) */
	spec_pos when_pos;
	spec_pos when_text;  /* the condition's first character when its columns are
				exact (one line, no escapes), else line 0: spec_when_pos */
	spec_strv open;      /* opened on arrival */
	spec_strv wait;      /* hold until all are open */
	spec_strv then_open; /* opened once the released thread has got past the line */
	spec_strv open_when_blocked; /* opened once the thread, gone on from here,
				        next sleeps in a system call (or exits) */
	int barrier;         /* 0 = none; else count */
	char *barrier_name;  /* named barrier spanning gates, or NULL (anonymous, per gate) */
	spec_pos barrier_pos;
	bool once;           /* acts on its first matching arrival only */
	bool optional;       /* not reaching it does not make the run NOT-ENFORCED */
	long timeout_ms;     /* per-gate hold timeout, 0 = none */
	char *as;            /* bind this alias to the first thread that arrives, or NULL */
	spec_pos as_pos;
	char *in;            /* in: the object whose location this is (suffix of its file name), or NULL */
	spec_pos in_pos;
	int seq_step;        /* 1-based step number when made from sequence:, else 0 */
	spec_process process;/* process:, or SPEC_PROC_UNSET */
} spec_gate;

enum spec_on_deadlock { SPEC_ON_DEADLOCK_FAIL = 0, SPEC_ON_DEADLOCK_RELEASE };

typedef struct spec_expect {
	bool any;            /* false: no expect: block (the run is judged by exit 0) */
	bool has_exit;
	int exit_code;
	bool has_signal;
	int signo;           /* e.g. SIGSEGV */
	char *stdout_text;   /* substring, or regex when stdout_regex */
	bool stdout_regex;
	char *stderr_text;
	bool stderr_regex;
	bool deadlock;
	bool timeout;        /* the run is expected to hit the whole-run timeout (a hang) */
	bool multiline;      /* /regex/ patterns see the whole output as one string
				(no REG_NEWLINE): '.' and [^x] match newlines */
	spec_pos pos;
} spec_expect;

typedef struct spec {
	char *path;          /* as given to the loader */
	char *dir;           /* directory of path: command: and relative paths resolve here */
	int version;
	char *name;          /* or NULL */
	char **command;      /* NULL-terminated argv, or NULL when absent */
	size_t ncommand;
	spec_pos command_pos;
	long timeout_ms;     /* whole run; 0 = not given */
	enum spec_on_deadlock on_deadlock;
	/* stdin: the bytes the program reads on its standard input (a string,
	 * or {file: PATH} read at load time, PATH relative to dir); may hold
	 * NUL bytes.  has_stdin false: the program gets racegate's stdin. */
	bool has_stdin;
	char *stdin_data;    /* NUL-terminated beyond stdin_len; never NULL when has_stdin */
	size_t stdin_len;
	char *stdin_file;    /* {file: PATH}: PATH as written, else NULL */
	spec_pos stdin_pos;
	spec_alias *aliases;
	size_t naliases;
	spec_gate *gates;    /* in file order; sequence: steps appended as ordinary gates */
	size_t ngates;
	spec_expect expect;
} spec;

enum spec_severity { SPEC_ERROR, SPEC_WARNING };

typedef struct spec_diag {
	enum spec_severity severity;
	spec_pos pos;
	char *msg;           /* lowercase, subject quoted, no position, no severity */
} spec_diag;

typedef struct spec_diags {
	char *file;          /* file name used in formatted messages */
	spec_diag *v;
	size_t n, cap;
	size_t nerrors;
} spec_diags;
#define SPEC_DIAGS_INIT {NULL, NULL, 0, 0, 0}

/*
 * Loads and validates the spec at path.  Returns 0 and sets *out when there
 * is no error (warnings may still be in d); returns -1 with at least one
 * error in d otherwise, and *out is NULL.  Never prints.  Sets d->file to
 * path; diagnostics of one load are in file order.  Any input is safe: no
 * crash, leak or hang, with at most about a hundred diagnostics.
 */
int spec_load_file(const char *path, spec **out, spec_diags *d);

/*
 * Same, from memory; name is used in messages and dir for relative paths
 * (NULL: ".").  text need not be NUL-terminated and may hold NUL bytes.
 */
int spec_load_string(const char *text, size_t len, const char *name,
		     const char *dir, spec **out, spec_diags *d);

void spec_free(spec *s);

/* Does a gate or a thread selector of s name a process (process:)?  Then
 * racegate follows the program's forks by default (--follow-fork). */
bool spec_names_process(const spec *s);

/* Formats diagnostic i as "FILE:LINE:COL: error: text"; caller frees. */
char *spec_diag_format(const spec_diags *d, size_t i);
void spec_diags_release(spec_diags *d);

/*
 * Where byte off of gate g's `when:` text is in the file: exact when the
 * condition is on one line as written (plain, or quoted without escapes),
 * else the condition's own position.
 */
spec_pos spec_when_pos(const spec_gate *g, size_t off);

/* Adds a diagnostic; used by later stages (location resolution) too. */
void spec_diags_add(spec_diags *d, enum spec_severity sev, spec_pos pos,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The most bytes stdin: may give the program (a string or a file). */
#define SPEC_MAX_STDIN (16u << 20)

/*
 * Parses "10s", "250ms", "2m", "1.5s", "1h", "1m30s" into milliseconds,
 * rounded up; -1 when invalid (no unit, over INT_MAX ms).  "0s" gives 0.
 */
long spec_parse_duration(const char *text);

/*
 * Signal name ("SIGSEGV", "SEGV", "segv", "11") to number; 0 when unknown.
 * Numbers are accepted only when the signal has a name (not real-time
 * signals), so spec_signal_name() is never NULL for a loaded spec's signo.
 */
int spec_signal_number(const char *name);
/* "SIGSEGV" for SIGSEGV; NULL for numbers without a standard name. */
const char *spec_signal_name(int signo);

/*
 * Appends s to b as a YAML double-quoted scalar that a spec reads back as
 * s (for those who write gates files: explore, triage).
 */
void spec_put_quoted(rg_buf *b, const char *s);

#endif
