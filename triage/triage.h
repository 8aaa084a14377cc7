/*
 * triage: data-race reports of ThreadSanitizer, Helgrind and DRD -> races.
 *
 * A report is the text a tool printed for one run of a program.  Each data
 * race in it becomes a triage_race: the two accesses (kind, size, stack of
 * frames, thread, locks held), the threads with their creation stacks, and
 * what the memory was.  Warnings naming one pair of places become one race
 * with a count (below).  Everything else the tools print (other kinds of
 * warnings, the program's own output, valgrind's banners) is left out;
 * warnings of another kind are listed (triage_skip) so the caller can say
 * so.  Nothing here looks at the program: mapping a frame to the normal
 * build (DWARF, offsets) is the caller's business.
 *
 * The module never prints.  Parsing returns TRIAGE_OK with a report (zero
 * races is fine), TRIAGE_NO_ENTRY when the text is not a report of that
 * tool at all (another tool's, say: the caller may try another), or
 * TRIAGE_ERROR when it is one but cannot be read: a warning cut short, a
 * line that breaks the format.  Both failures fill err with a message that
 * names the report and its line: "report.txt:57: a data race's second
 * access has no stack".
 *
 * Formats read (the tools' default text output; XML is refused):
 *
 * ThreadSanitizer (gcc 12's libtsan and clang's runtime, 14 and later).
 *   A warning runs from "WARNING: ThreadSanitizer: KIND (pid=N)" to its
 *   "SUMMARY: ThreadSanitizer: ..." line; "==================" lines
 *   around it are optional.  Only KIND "data race" (and "data race on
 *   vptr (ctor/dtor vs virtual call)") makes races; any other KIND
 *   (heap-use-after-free, lock-order-inversion, thread leak, ...) is a
 *   triage_skip.  In a data race:
 *     "[Atomic ]Read|Write of size N at 0xA by thread TK|main thread[ (mutexes: write M0, read M1)]:"
 *     "Previous [atomic ]read|write of size N at 0xA by ...:" -- the second
 *       access; its stack may be "[failed to restore the stack]"
 *     frames "#K FUNCTION FILE[:LINE[:COL]] (OBJECT+0xOFF)[ (BuildId: X)]",
 *       FUNCTION and FILE "<null>" when unknown, "(<unknown module>)"
 *     "As if synchronized via sleep:" + a stack (kept nowhere: a hint for
 *       a human, not an access)
 *     "Location is global 'NAME' of size N at 0xA (OBJECT+0xOFF)",
 *     "Location is heap block of size N at 0xA allocated by thread TK|main thread:" + stack,
 *     "Location is stack of thread TK|main thread.", "Location is TLS of thread TK|main thread.",
 *     "Location is file descriptor N ...", anything else after "Location is"
 *     kept as text (TRIAGE_LOC_OTHER)
 *     "Mutex MK (0xA) created at:" + stack, also "Mutex MK is already destroyed."
 *     "Thread TK ['NAME'] (tid=N, running|finished) created by thread TJ|main thread at:" + stack
 *     "Thread TK ... created at:" without a creator when TSan does not know it
 *   A thread's number is TSan's (T0 is the main thread).
 *   "[==PID==]FATAL: ThreadSanitizer..." and "[==PID==]ERROR: ThreadSanitizer
 *   failed ..." (TSan could not go on: "unexpected memory mapping", a CHECK,
 *   an mmap) are an error: there is no run to read.  "[==PID==]ERROR:
 *   ThreadSanitizer: ..." (the program crashed: SEGV) is a triage_skip.
 *   A frame's "(0xADDR)" without a module (JIT code) sets pc, not object.
 *
 * Helgrind (valgrind 3.x, --tool=helgrind).  Every line starts "==PID== ";
 *   lines without the prefix (the program's own output) are skipped.
 *     "Possible data race during read|write of size N at 0xA by thread #K"
 *     "Locks held: none" | "Locks held: N, at address[es] 0xA[ 0xB...]"
 *     frames "at|by 0xPC: FUNCTION (FILE:LINE)" | "(in OBJECT)" | "???"
 *     "This conflicts with a previous read|write of size N by thread #J" + locks + stack
 *     "This conflicts with a previous access by thread #J, after" + stack
 *       or "(the start of the thread)", "but before" + stack or "(the end of
 *       the thread)": the second access's kind and place are unknown, the
 *       two stacks bound it (--history-level=approx)
 *     no conflict line (--history-level=none): the second access is unknown
 *     "Address 0xA is N bytes inside data symbol "NAME"",
 *       "... inside a block of size N alloc'd" + stack + "Block was alloc'd by thread #K",
 *       "... is on thread #K's stack", anything else kept as text
 *     "Thread #K was created" + stack, "Thread #1 is the program's root thread"
 *     "Lock at 0xA was first observed" + stack
 *   Thread #1 is the main thread.  Any other error ("lock order violated",
 *   "unlocked a not-locked lock", ...) is a triage_skip.
 *
 * DRD (valgrind 3.x, --tool=drd).
 *     "Conflicting load|store by thread K at 0xA size N" + stack
 *     "Allocation context: BSS section of OBJECT" | "... data section ..." |
 *       "Address 0xA is at offset N from 0xB. Allocation context:" + stack |
 *       "Allocation context: unknown."
 *     "Other segment start (thread J)" + stack, "Other segment end (thread J)"
 *       + stack, either "(thread finished, call stack no longer available)"
 *   DRD shows one access; the other thread's access lies between its
 *   segment's start and end.  Two conflicts on one address whose threads
 *   each name the other as the other segment's are one race, with both
 *   accesses known.  DRD names no thread's creation; thread 1 is main.
 *   Any other error is a triage_skip.
 *
 * Both valgrind tools: frames of several lines for one PC (an inlined
 * call) are frames like the others; a report of several processes (PID
 * prefixes) keeps each process's threads apart (triage_thread.pid).
 *
 * Lines end at '\n', "\r\n" or a lone '\r'; ANSI colour sequences (TSan's
 * color=always) are removed; leading blanks are ignored.  A NUL byte is an
 * error (not text).  Inside a TSan warning a line at the margin (not
 * indented, not TSan's) is the program's output, printed meanwhile, and is
 * passed over, as valgrind's lines without the prefix are.
 * Not read: lines with a prefix of their own (a CI log's timestamps: a TSan
 * warning that does not start its line is an error, not a run without
 * races), XML, TSan's custom stack_trace_format, valgrind's --log-fd into
 * one stream with another tool's, a source path with a blank in a TSan
 * frame (the blank is taken for the one before the file).
 *
 * Places.  An access's *place* is the first frame of its stack that is
 * the program's own (triage_frame.system is false) and has a file, else
 * the first that is the program's own, else its first frame.  (A frame
 * without a file is passed over when a later one has one: clang builds
 * TSan's interceptors into the program, so "#0 free <null> (prog+0x501e4)"
 * is in the program's object but not its code.)  A frame is *system* when
 * it is in the tool's runtime or the C or C++ runtime, as far as its text
 * tells:
 *   its object's base name starts libtsan, libclang_rt, vgpreload_, libc.so,
 *     libc-, libpthread, libstdc++, libc++, libgcc_s, libm, ld-linux, ld64.so,
 *     libdl or librt;
 *   its file's path holds /libsanitizer/, compiler-rt/, /sanitizer_common/,
 *     /sysdeps/, /include/c++/ or /c++/v1/, or starts ../sysdeps/, csu/ or
 *     nptl/, or its base name is valgrind's (vg_replace_strmem.c,
 *     vg_replace_malloc.c, hg_intercepts.c, drd_pthread_intercepts.c) or
 *     glibc's clone.S, clone3.S;
 *   its function is glibc's thread start or entry (clone, clone3, __clone,
 *     __clone3, __clone_internal, start_thread, create_thread,
 *     __libc_start_main, __libc_start_call_main, _start, pthread_create*)
 *     or the C++ library's (std::..., "void std::...", __gnu_cxx::...).
 * So a program's own function named start_thread, or code of its own in
 * namespace std, is taken for the runtime's.
 *
 * One race per pair of places: the key of an access is its place's
 * FILE:LINE (the file as printed, the column left out), or, without a
 * file, FUNCTION and OBJECT+OFFSET, or "?" for an access not shown.  Two
 * warnings whose pairs of keys are equal, in either order, are one race:
 * the first warning's details are kept and count says how many there were.
 */
#ifndef RACEGATE_TRIAGE_H
#define RACEGATE_TRIAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"

/* Results, in libdwarf's three-way style (as dwarfx.h). */
enum {
	TRIAGE_OK = 0,
	TRIAGE_ERROR = -1,
	TRIAGE_NO_ENTRY = -2,
};

enum triage_tool {
	TRIAGE_TSAN = 0,
	TRIAGE_HELGRIND,
	TRIAGE_DRD,
};

/* One frame of a stack, as the tool printed it. */
typedef struct triage_frame {
	char *function;    /* demangled as printed ("operator()", "main::$_0::operator()(char const*) const"); NULL: unknown */
	char *file;        /* as printed (relative, absolute, "../../src/x.c"); NULL: unknown */
	int line;          /* 1-based; 0: unknown */
	int column;        /* 0: not given (gcc's TSan, valgrind) */
	char *object;      /* TSan: the module as printed ("prog", "libtsan.so.2");
			      valgrind: the path after "in " when no file; NULL */
	uint64_t offset;   /* TSan: the 0xOFF of OBJECT+0xOFF: the address less the
			      start of the object's first mapping (for a PIE or a
			      shared object, its link-time address) */
	bool has_offset;
	uint64_t pc;       /* valgrind, and TSan's frames of no module: the run-time
			      address; 0 when not given */
	bool system;       /* in the tool's or the C/C++ runtime (see Places) */
} triage_frame;

/* Innermost frame first. */
typedef struct triage_stack {
	triage_frame *v;
	size_t n;
} triage_stack;

enum triage_kind {
	TRIAGE_ACCESS_UNKNOWN = 0,  /* not shown (Helgrind approx/none, DRD's other side) */
	TRIAGE_READ,
	TRIAGE_WRITE,
};

/* A lock held by an access: an index into its race's mutexes, and how. */
typedef struct triage_held {
	size_t mutex;
	bool write;        /* TSan "write M0" (exclusive); false for "read M1"; Helgrind: true */
} triage_held;

typedef struct triage_access {
	enum triage_kind kind;
	bool atomic;       /* TSan's "Atomic write" */
	int size;          /* bytes; 0 unknown */
	uint64_t addr;     /* run-time address in the reported run; 0 unknown */
	int thread;        /* index into the report's threads; -1 unknown */
	triage_held *locks;
	size_t nlocks;
	bool locks_known;  /* the tool said which locks were held (none included) */
	triage_stack stack;
	bool stack_lost;   /* TSan "[failed to restore the stack]", DRD's/Helgrind's
			      other segment of a finished thread */
	/* Helgrind approx, DRD: the access lies after seg_start and before seg_end
	   in its thread (empty: its thread's start, resp. end, or not shown). */
	triage_stack seg_start;
	triage_stack seg_end;
	int report_line;   /* the line of its header in the report; 0 when not shown */
} triage_access;

enum triage_loc_kind {
	TRIAGE_LOC_UNKNOWN = 0,  /* not said */
	TRIAGE_LOC_GLOBAL,       /* name, size, object+offset (TSan), offset into it (Helgrind) */
	TRIAGE_LOC_HEAP,         /* size of the block, offset into it, allocation stack and thread */
	TRIAGE_LOC_STACK,        /* on thread's stack */
	TRIAGE_LOC_TLS,          /* thread's thread-local storage */
	TRIAGE_LOC_OTHER,        /* text only (a file descriptor, DRD's BSS section, ...) */
};

typedef struct triage_location {
	enum triage_loc_kind kind;
	char *text;        /* the description as printed, one line, after "Location is " or
			      "Address 0xA is "; NULL when not said */
	char *name;        /* GLOBAL: the variable; NULL when not said */
	uint64_t size;     /* GLOBAL, HEAP: bytes; 0 unknown */
	uint64_t offset;   /* GLOBAL (Helgrind), HEAP: where the access falls in it */
	bool has_offset;
	char *object;      /* GLOBAL (TSan): module of object+0xOFF */
	uint64_t object_offset;
	int thread;        /* HEAP: the allocating thread; STACK, TLS: whose; -1 */
	triage_stack alloc;/* HEAP: where it was allocated */
} triage_location;

typedef struct triage_mutex {
	char *id;          /* TSan "M0", Helgrind the address as printed ("0x10C0A0") */
	uint64_t addr;     /* 0 unknown */
	triage_stack created;  /* TSan "created at", Helgrind "first observed"; may be empty */
	bool destroyed;    /* TSan "is already destroyed" */
} triage_mutex;

typedef struct triage_thread {
	long pid;          /* the process it belongs to, as the report names it; 0 unknown */
	int id;            /* the tool's number: TSan T<id> (main 0), Helgrind #id, DRD id (main 1) */
	bool main;         /* the process's initial thread */
	char *name;        /* TSan: its name ('worker-a'), or NULL */
	long tid;          /* TSan: the kernel's tid; 0 unknown */
	int creator;       /* index into the report's threads; -1 unknown or main */
	triage_stack created;  /* where it was created, innermost first (pthread_create
				  and the tool's frames on top); empty when not said */
	bool created_known;
} triage_thread;

typedef struct triage_race {
	triage_access a;   /* the access the warning is about (TSan's current one,
			      Helgrind's "during", DRD's conflicting load or store) */
	triage_access b;   /* the other one (TSan "Previous", Helgrind "conflicts with") */
	triage_location loc;
	triage_mutex *mutexes;
	size_t nmutexes;
	unsigned count;    /* warnings that named this pair of places (>= 1) */
	int report_line;   /* the line of its first warning */
	char *summary;     /* TSan's SUMMARY text after "data race ", or NULL */
} triage_race;

/* A warning left out: not a data race. */
typedef struct triage_skip {
	int report_line;
	char *what;        /* as the tool named it: "lock-order-inversion (potential deadlock)" */
} triage_skip;

typedef struct triage_report triage_report;

/*
 * Parses text (len bytes, need not be NUL-terminated) as tool's report.
 * name is what errors call the report ("report.txt"); it is copied.
 * TRIAGE_OK: *out is a new report (free with triage_free), perhaps with no
 * races: a run without any (TSan prints nothing at all: an empty text is
 * such a run; valgrind prints its banner and "ERROR SUMMARY: 0 errors").
 * TRIAGE_NO_ENTRY: the text is no report of tool's: none of its lines
 * (say, another tool's, or text with no "ThreadSanitizer" line in it);
 * err says what it looks like when it can tell ("a Helgrind report, not
 * DRD's").  TRIAGE_ERROR: bad or cut short, err names the line.  *out is
 * NULL after either failure.
 */
int triage_parse(enum triage_tool tool, const char *name, const char *text, size_t len,
		 triage_report **out, rg_err *err);

/* triage_parse on a file's contents; a file that cannot be read is TRIAGE_ERROR. */
int triage_load(enum triage_tool tool, const char *path, triage_report **out, rg_err *err);

/*
 * Which tool's report text looks like, from its markers, or -1 when none:
 * for a caller that wants to say "this is a Helgrind report" when given
 * the wrong one.
 */
int triage_detect(const char *text, size_t len);

/* "ThreadSanitizer", "Helgrind", "DRD". */
const char *triage_tool_name(enum triage_tool tool);

void triage_free(triage_report *r);

enum triage_tool triage_report_tool(const triage_report *r);
const char *triage_report_name(const triage_report *r);

/* The races in the order of their first warning; valid until triage_free. */
size_t triage_nraces(const triage_report *r);
const triage_race *triage_race_at(const triage_report *r, size_t i);

/* Every thread any race, location or creator names, in order of first mention. */
size_t triage_nthreads(const triage_report *r);
const triage_thread *triage_thread_at(const triage_report *r, size_t i);

size_t triage_nskipped(const triage_report *r);
const triage_skip *triage_skipped_at(const triage_report *r, size_t i);

/* How many warnings of each were read: data races (before merging) and all. */
size_t triage_nwarnings(const triage_report *r);

/* The access's place (Places): an index into its stack; -1 when it is empty. */
int triage_place(const triage_access *a);

/*
 * The outermost frame of the access's stack that is the program's own: in a
 * thread's stack, its start routine as far as the report shows it (for a
 * std::thread, the callable's operator()); -1 when none is.
 */
int triage_start_frame(const triage_access *a);

/*
 * Where the thread was created, in the program: the first frame of its
 * creation stack that is not system; -1 when none (main, or not said).
 */
int triage_created_at(const triage_thread *t);

/*
 * The access's key (Places): "FILE:LINE", "FUNCTION@OBJECT+0xOFF" or "?".
 * Written into buf (NUL-terminated, cut to size); returns buf.
 */
const char *triage_place_key(const triage_access *a, char *buf, size_t size);

/*
 * Whether two races name the same pair of places, in either order: for a
 * caller that merges races from reports of several tools.  Files are equal
 * when one is a tail of the other at a '/' (valgrind prints base names,
 * TSan the path in the debug info, clang's with a leading "./").
 */
bool triage_same_places(const triage_race *x, const triage_race *y);

#endif
