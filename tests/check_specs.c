/*
 * specs/: every message the loader can give, with its exact wording and
 * position, and good files covering every construct of version 1.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "spec.h"

/*
 * A gates file with most keys, each annotated: the example of racegate's
 * first design notes, kept verbatim (docs/gates.md opens with a shorter one).
 */
static const char design_example[] =
	"version: 1\n"
	"name: lost update in counter_add            # optional; used in reports\n"
	"command: [./counter, --threads, \"2\"]        # optional, relative to this file; `-- CMD ARGS` overrides\n"
	"timeout: 10s                                 # whole run; also per gate (`timeout:` on a gate)\n"
	"threads:                                     # optional names for threads\n"
	"  writer: {start: worker, nth: 1}            # 1st thread created whose start routine is worker()\n"
	"  reader: {start: worker, nth: 2}\n"
	"  flusher: {name: flusher}                   # thread name (pthread_setname_np / comm)\n"
	"gates:\n"
	"  - name: writer-loaded                      # optional, unique; default \"file:line\"\n"
	"    at: counter.c:12                         # where (see Locations)\n"
	"    thread: writer                           # which thread; default: any thread\n"
	"    wait: reader-stored                      # hold here until this event is open (or a list: all of them)\n"
	"  - at: counter.c:14\n"
	"    thread: reader\n"
	"    open: reader-stored                      # open this event when a thread gets here\n"
	"  - at: list.c:40\n"
	"    barrier: 2                               # hold until 2 threads are here, then release all\n"
	"expect:\n"
	"  exit: 1            # or: signal: SIGSEGV, stdout: \"value = 1\", stderr: /regex/, deadlock: true\n";

/* Loads text as "gates.yaml"; the caller releases d and frees the spec. */
static int load(const char *text, spec **s, spec_diags *d)
{
	return spec_load_string(text, strlen(text), "gates.yaml", "/specs", s, d);
}

static char *diag(const spec_diags *d, size_t i)
{
	return spec_diag_format(d, i);
}

/* Loads text that must give no diagnostic at all. */
static spec *load_clean(const char *text)
{
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s = NULL;
	int rc = load(text, &s, &d);
	size_t i;

	for (i = 0; i < d.n; i++) {
		char *m = diag(&d, i);

		fprintf(stderr, "unexpected: %s\n", m);
		free(m);
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_ptr_nonnull(s);
	spec_diags_release(&d);
	return s;
}

/* ---- one bad spec per message ---- */

#define G "version: 1\ngates: [{at: a.c:1, barrier: 1}]\n"   /* a valid prefix */

static const struct bad {
	const char *yaml;
	int rc;               /* -1: an error; 0: a warning only */
	const char *msg;      /* the only diagnostic, formatted */
} bad[] = {
	/* YAML itself */
	{"version: 1\ngates: [a, b\n", -1,
	 "gates.yaml:3:1: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence at 2:8)"},
	{"version: 1\ngates:\n  - at: a.c:1\n    barrier: 1\n  - at: a.c:2\n\tbarrier: 1\n", -1,
	 "gates.yaml:6:1: error: invalid YAML: a tab character; YAML indents with spaces only"},
	{"version: 1\ngates:\n\t- at: a.c:1\n", -1,
	 "gates.yaml:3:1: error: invalid YAML: a tab character; YAML indents with spaces only"},
	{G "name: \"\xff\xfe\"\n", -1,
	 "gates.yaml:3:8: error: invalid YAML: invalid leading UTF-8 octet (byte 0xff)"},
	{G "name: \"a\x01" "b\"\n", -1,
	 "gates.yaml:3:9: error: invalid YAML: control characters are not allowed (byte 0x01)"},
	{"", -1, "gates.yaml:1:1: error: the file is empty (expected 'version: 1' and gates)"},
	{"# nothing but a comment\n", -1,
	 "gates.yaml:1:1: error: the file is empty (expected 'version: 1' and gates)"},
	{"- a\n- b\n", -1,
	 "gates.yaml:1:1: error: the top level must be a mapping with 'version: 1' and gates, not a list"},
	{G "---\nversion: 1\n", -1,
	 "gates.yaml:4:1: error: a second YAML document; a gates file holds one"},
	{G "? [a]\n: b\n", -1, "gates.yaml:3:3: error: a key must be a word, not a list"},

	/* version */
	{"gates: [{at: a.c:1, barrier: 1}]\n", -1,
	 "gates.yaml:1:1: error: the file has no 'version' (add 'version: 1')"},
	{"version: 2\ngates: [{at: a.c:1, barrier: 1}]\n", -1,
	 "gates.yaml:1:10: error: unsupported version 2 (this racegate reads version 1)"},
	{"version: one\n", -1, "gates.yaml:1:10: error: 'version' must be 1, not 'one'"},
	{"version:\n", -1, "gates.yaml:1:9: error: 'version' has no value"},

	/* unknown keys, in every mapping */
	{G "nmae: x\n", -1, "gates.yaml:3:1: error: unknown key 'nmae' (did you mean 'name'?)"},
	{G "exit: 1\n", -1, "gates.yaml:3:1: error: unknown key 'exit' (it belongs under 'expect')"},
	{G "wait: x\n", -1,
	 "gates.yaml:3:1: error: unknown key 'wait' (it belongs in a gate, under 'gates')"},
	{G "colour: red\n", -1, "gates.yaml:3:1: error: unknown key 'colour'"},
	{"version: 1\ngates:\n  - at: a.c:1\n    barrier: 1\n    wiat: x\n", -1,
	 "gates.yaml:5:5: error: unknown key 'wiat' (did you mean 'wait'?)"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, thread: {strat: w}}]\n", -1,
	 "gates.yaml:2:42: error: unknown key 'strat' (did you mean 'start'?)"},
	{"version: 1\nthreads: {w: {strat: x}}\ngates: [{at: a.c:1, barrier: 1}]\n", -1,
	 "gates.yaml:2:15: error: unknown key 'strat' (did you mean 'start'?)"},
	{G "expect: {exti: 1}\n", -1,
	 "gates.yaml:3:10: error: unknown key 'exti' (did you mean 'exit'?)"},
	{"version: 1\ngates: [{at: a.c:1, barrier: {count: 2, conut: 3}}]\n", -1,
	 "gates.yaml:2:41: error: unknown key 'conut' (did you mean 'count'?)"},
	{"version: 1\nsequence: [{at: a.c:1, thred: main}]\n", -1,
	 "gates.yaml:2:24: error: unknown key 'thred' (did you mean 'thread'?)"},

	/* duplicate keys and names */
	{"version: 1\nversion: 1\n", -1, "gates.yaml:2:1: error: duplicate key 'version' (first at 1:1)"},
	{"version: 1\ngates:\n  - at: a.c:1\n    open: e\n  - at: a.c:2\n    wait: e\n    wait: f\n", -1,
	 "gates.yaml:7:5: error: duplicate key 'wait' (first at 6:5)"},
	{"version: 1\ngates:\n  - {name: g, at: a.c:1, open: e}\n  - {name: g, at: a.c:2, wait: e}\n", -1,
	 "gates.yaml:4:12: error: duplicate gate name 'g' (first at 3:12)"},
	{"version: 1\ngates:\n  - {name: step 1, at: a.c:1, barrier: 1}\nsequence:\n  - {at: a.c:2}\n", -1,
	 "gates.yaml:5:5: error: duplicate gate name 'step 1' (first at 3:12)"},
	{"version: 1\nthreads:\n  w: main\ngates:\n  - {at: a.c:1, as: w}\n", -1,
	 "gates.yaml:5:21: error: duplicate thread alias 'w' (first defined at 3:3)"},
	{"version: 1\ngates:\n  - {at: a.c:2, as: v}\n  - {at: a.c:3, as: v}\n", -1,
	 "gates.yaml:4:21: error: duplicate thread alias 'v' (first defined at 3:21)"},

	/* missing and wrongly typed values */
	{"version: 1\ngates: [{barrier: 1}]\n", -1, "gates.yaml:2:9: error: gate has no 'at'"},
	{"version: 1\ngates: [{name: x, barrier: 1}]\n", -1,
	 "gates.yaml:2:9: error: gate 'x' has no 'at'"},
	{"version: 1\nsequence: [{thread: main}]\n", -1,
	 "gates.yaml:2:12: error: sequence step 1 has no 'at'"},
	{"version: 1\ngates: [{at: [a], barrier: 1}]\n", -1,
	 "gates.yaml:2:14: error: 'at' must be a string, not a list"},
	{"version: 1\ngates: [{at: \"a\\0b\", barrier: 1}]\n", -1,
	 "gates.yaml:2:14: error: 'at' contains a NUL character"},
	{G "name: \"\"\n", -1, "gates.yaml:3:7: error: 'name' is empty"},
	{"version: 1\ngates: {a: 1}\n", -1, "gates.yaml:2:8: error: 'gates' must be a list, not a mapping"},
	{"version: 1\ngates: [3]\n", -1,
	 "gates.yaml:2:9: error: a gate must be a mapping such as {at: file.c:12, wait: event}, not '3'"},
	{"version: 1\nsequence: [3]\n", -1,
	 "gates.yaml:2:12: error: a sequence step must be a mapping such as {thread: T, at: file.c:12}, not '3'"},
	{"version: 1\ngates:\n  - at: a.c:1\n    hit: two\n    barrier: 1\n", -1,
	 "gates.yaml:4:10: error: 'hit' must be a positive integer, not 'two'"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, hit: 0}]\n", -1,
	 "gates.yaml:2:38: error: 'hit' must be a positive integer, not '0'"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, hit: -3}]\n", -1,
	 "gates.yaml:2:38: error: 'hit' must be a positive integer, not '-3'"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, hit: 99999999999999999999}]\n", -1,
	 "gates.yaml:2:38: error: 'hit' must be a positive integer, not '99999999999999999999'"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, thread: {start: w, nth: 0}}]\n", -1,
	 "gates.yaml:2:57: error: 'nth' must be a positive integer, not '0'"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, thread: {tid: x}}]\n", -1,
	 "gates.yaml:2:47: error: 'tid' must be a positive integer, not 'x'"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 0}]\n", -1,
	 "gates.yaml:2:30: error: 'barrier' must be a positive integer, not '0'"},
	{"version: 1\ngates: [{at: a.c:1, barrier: [1]}]\n", -1,
	 "gates.yaml:2:30: error: 'barrier' must be a count or {name: NAME, count: N}, not a list"},
	{"version: 1\ngates: [{at: a.c:1, barrier: {name: copy}}]\n", -1,
	 "gates.yaml:2:30: error: barrier has no 'count'"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, once: yes}]\n", -1,
	 "gates.yaml:2:39: error: 'once' must be true or false, not 'yes'"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, optional: 1}]\n", -1,
	 "gates.yaml:2:43: error: 'optional' must be true or false, not '1'"},
	{"version: 1\ngates: [{at: a.c:1, wait: }]\n", -1,
	 "gates.yaml:2:27: error: 'wait' has no value"},
	{"version: 1\ngates: [{at: a.c:1, wait: []}]\n", -1,
	 "gates.yaml:2:27: error: 'wait' is an empty list"},
	{"version: 1\ngates: [{at: a.c:1, open: {a: 1}}]\n", -1,
	 "gates.yaml:2:27: error: 'open' must be an event name or a list of them, not a mapping"},
	{"version: 1\ngates: [{at: a.c:1, then_open: [[a]]}]\n", -1,
	 "gates.yaml:2:33: error: 'then_open' must list event names, not a list"},
	{"version: 1\ngates: [{at: a.c:1, open_when_blocked: {a: 1}}]\n", -1,
	 "gates.yaml:2:40: error: 'open_when_blocked' must be an event name or a list of them, not a mapping"},
	{"version: 1\nsequence: [{at: a.c:1, once: false}]\n", -1,
	 "gates.yaml:2:30: error: a sequence step always acts once; remove 'once: false'"},

	/* thread selectors and aliases */
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, thread: [a]}]\n", -1,
	 "gates.yaml:2:41: error: 'thread' must be main, any, a thread alias or a selector such as {start: worker}, not a list"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, thread: {}}]\n", -1,
	 "gates.yaml:2:41: error: empty thread selector (give start, runs, name, tid, nth or process)"},
	{"version: 1\nthreads: {w: foo}\ngates: [{at: a.c:1, barrier: 1}]\n", -1,
	 "gates.yaml:2:14: error: thread 'w' must be main or a selector such as {start: worker}, not 'foo'"},
	{"version: 1\nthreads: [w]\ngates: [{at: a.c:1, barrier: 1}]\n", -1,
	 "gates.yaml:2:10: error: 'threads' must be a mapping of alias: selector, not a list"},
	{"version: 1\nthreads: {main: {start: x}}\ngates: [{at: a.c:1, barrier: 1}]\n", -1,
	 "gates.yaml:2:11: error: 'main' cannot be a thread alias: it is a reserved word"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, as: any}]\n", -1,
	 "gates.yaml:2:37: error: 'any' cannot be a thread alias: it is a reserved word"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, as: '!x'}]\n", -1,
	 "gates.yaml:2:37: error: '!x' cannot be a thread alias: it starts with '!'"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, thread: !w1 }]\n", -1,
	 "gates.yaml:2:41: error: 'thread' has no value (YAML reads '!w1' as a tag; write \"!w1\")"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, thread: '!main'}]\n", -1,
	 "gates.yaml:2:41: error: 'main' cannot be a thread alias: it is a reserved word"},
	{"version: 1\ngates: [{at: a.c:1, thread: wrtier, barrier: 1}]\nthreads:\n  writer: main\n", -1,
	 "gates.yaml:2:29: error: unknown thread alias 'wrtier' (did you mean 'writer'?)"},
	{"version: 1\ngates:\n  - {at: a.c:1, thread: '!wrtier', barrier: 1}\n  - {at: a.c:1, as: writer}\n", -1,
	 "gates.yaml:3:25: error: unknown thread alias 'wrtier' (did you mean 'writer'?)"},
	{"version: 1\ngates: [{at: a.c:1, thread: nobody, barrier: 1}]\n", -1,
	 "gates.yaml:2:29: error: unknown thread alias 'nobody'"},
	{"version: 1\nthreads: {writer: main}\ngates: [{at: a.c:1, wait: 'started:wrtier'}]\n", -1,
	 "gates.yaml:3:27: error: unknown thread alias 'wrtier' in 'started:wrtier' (did you mean 'writer'?)"},
	{"version: 1\ngates: [{at: a.c:1, wait: 'exited:x'}]\n", -1,
	 "gates.yaml:2:27: error: unknown thread alias 'x' in 'exited:x'"},
	/* main needs no alias: the one message is about something else */
	{"version: 1\ngates: [{at: a.c:1, wait: ['exited:main', 'started:main', 'exited:mian']}]\n", -1,
	 "gates.yaml:2:59: error: unknown thread alias 'mian' in 'exited:mian'"},

	/* events */
	{"version: 1\ngates:\n  - {name: drain, at: a.c:1, wait: fill}\n  - {at: a.c:1, open: filler, as: f}\n  - {at: a.c:1, wait: filler}\n", -1,
	 "gates.yaml:3:36: error: gate 'drain' waits for 'fill', which no gate opens (did you mean 'filler'?)"},
	{"version: 1\ngates:\n  - {name: drain, at: a.c:1, wait: [a, fill]}\n  - {at: a.c:1, open: a}\n", -1,
	 "gates.yaml:3:40: error: gate 'drain' waits for 'fill', which no gate opens"},
	{"version: 1\ngates: [{name: fill, at: a.c:1, open: fill}]\n", 0,
	 "gates.yaml:2:39: warning: gate 'fill' opens 'fill', but no gate waits for it"},
	{"version: 1\ngates: [{at: a.c:1, open: 'started:x'}]\nthreads: {x: main}\n", -1,
	 "gates.yaml:2:27: error: 'started:x' is a built-in event; gates cannot open it"},
	{"version: 1\ngates: [{at: a.c:1, then_open: 'sequence:1'}]\nsequence: [{at: b.c:1}]\n", -1,
	 "gates.yaml:2:32: error: 'sequence:1' is reserved for sequence steps; gates cannot open it"},
	{"version: 1\ngates: [{at: a.c:1, wait: 'sequence:5'}]\n", -1,
	 "gates.yaml:2:27: error: 'sequence:5' names a sequence step, but the file has no 'sequence'"},
	{"version: 1\ngates:\n  - {name: drain, at: a.c:1, wait: slept}\n  - {at: a.c:1, open_when_blocked: sleeps}\n  - {at: a.c:1, wait: sleeps}\n", -1,
	 "gates.yaml:3:36: error: gate 'drain' waits for 'slept', which no gate opens (did you mean 'sleeps'?)"},
	{"version: 1\ngates: [{at: a.c:1, open_when_blocked: 'exited:main'}]\n", -1,
	 "gates.yaml:2:40: error: 'exited:main' is a built-in event; gates cannot open it"},
	{"version: 1\ngates: [{name: b, at: a.c:1, open_when_blocked: b}]\n", 0,
	 "gates.yaml:2:49: warning: gate 'b' opens 'b', but no gate waits for it"},
	{"version: 1\ngates: [{at: a.c:1, wait: 'sequence:5'}]\nsequence: [{at: b.c:1}]\n", -1,
	 "gates.yaml:2:27: error: 'sequence:5' names no sequence step (the sequence has 1)"},

	/* gates that cannot do what they say */
	{"version: 1\ngates:\n  - {at: a.c:1}\n", 0,
	 "gates.yaml:3:5: warning: gate 'a.c:1' does nothing (give it open, wait, barrier, then_open or as)"},
	{"version: 1\nthreads: {w: {start: worker, nth: 1}}\ngates:\n  - {at: a.c:1, thread: w, barrier: 2}\n", 0,
	 "gates.yaml:4:37: warning: barrier of gate 'a.c:1' waits for 2 threads, but at most 1 can reach it"},
	{"version: 1\ngates:\n  - {at: a.c:1, thread: main, barrier: {name: copy, count: 3}}\n  - {at: a.c:2, thread: {start: w, nth: 2}, barrier: {name: copy, count: 3}}\n", 0,
	 "gates.yaml:3:40: warning: barrier 'copy' waits for 3 threads, but at most 2 can reach it"},
	{"version: 1\ngates:\n  - {at: a.c:1, once: true, barrier: 2}\n", 0,
	 "gates.yaml:3:38: warning: barrier of gate 'a.c:1' waits for 2 threads, but at most 1 can reach it"},
	{"version: 1\ngates:\n  - {at: a.c:1, barrier: {name: copy, count: 2}}\n  - {at: a.c:2, barrier: {name: copy, count: 3}}\n", -1,
	 "gates.yaml:4:26: error: barrier 'copy' has count 3 here but 2 at 3:26"},
	{"version: 1\n", 0, "gates.yaml:1:1: warning: no gates: nothing will be held"},

	/* when: */
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, when: \"x ==\"}]\n", -1,
	 "gates.yaml:2:44: error: bad 'when' condition: expected a value at the end"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, when: x = 1}]\n", -1,
	 "gates.yaml:2:41: error: bad 'when' condition: '=' is assignment; compare with '=='"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, when: $foo > 1}]\n", -1,
	 "gates.yaml:2:39: error: bad 'when' condition: unknown variable '$foo' (there are $hit, $tid, $thread and $streq)"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, when: f(x)}]\n", -1,
	 "gates.yaml:2:40: error: bad 'when' condition: unexpected '('"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, when: '(a > 1'}]\n", -1,
	 "gates.yaml:2:46: error: bad 'when' condition: missing ')'"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, when: 1.5 < x}]\n", -1,
	 "gates.yaml:2:39: error: bad 'when' condition: only integers are supported, not floating point"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, when: 'p->'}]\n", -1,
	 "gates.yaml:2:43: error: bad 'when' condition: expected a member name"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, when: '\"s\" == x'}]\n", -1,
	 "gates.yaml:2:40: error: bad 'when' condition: strings are not supported"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, when: '  '}]\n", -1,
	 "gates.yaml:2:40: error: bad 'when' condition: the condition is empty"},

	/* top-level values */
	{G "timeout: 10\n", -1,
	 "gates.yaml:3:10: error: 'timeout' must be a duration such as '10s' or '250ms', not '10'"},
	{G "timeout: 0s\n", -1, "gates.yaml:3:10: error: 'timeout' must be longer than 0"},
	{"version: 1\ngates: [{at: a.c:1, barrier: 1, timeout: 5 s}]\n", -1,
	 "gates.yaml:2:42: error: 'timeout' must be a duration such as '10s' or '250ms', not '5 s'"},
	{G "on_deadlock: abort\n", -1,
	 "gates.yaml:3:14: error: 'on_deadlock' must be fail or release, not 'abort'"},

	/* stdin: text, or {file: PATH} beside the spec (dir /specs: none) */
	{G "stdin: [a]\n", -1,
	 "gates.yaml:3:8: error: 'stdin' must be a string or {file: PATH}, not a list"},
	{G "stdin:\n", -1,
	 "gates.yaml:3:7: error: 'stdin' has no value (write \"\" for an empty stdin)"},
	{G "stdin: {}\n", -1, "gates.yaml:3:8: error: 'stdin' as a mapping needs 'file: PATH'"},
	{G "stdin: {flie: in.txt}\n", -1,
	 "gates.yaml:3:9: error: unknown key 'flie' (did you mean 'file'?)"},
	{G "stdin: {file: [in.txt]}\n", -1,
	 "gates.yaml:3:15: error: 'file' must be a string, not a list"},
	{G "stdin: {file: ''}\n", -1, "gates.yaml:3:15: error: 'file' is empty"},
	{G "stdin: {file: in.txt}\n", -1,
	 "gates.yaml:3:15: error: cannot read the stdin file 'in.txt': No such file or directory"},
	{G "stdin: {file: /}\n", -1,
	 "gates.yaml:3:15: error: the stdin file '/' is not a regular file"},
	{G "command: []\n", -1, "gates.yaml:3:10: error: 'command' is empty"},
	{G "command: \"./a 'b c'\"\n", -1,
	 "gates.yaml:3:10: error: 'command' as a string is only split at spaces; write it as a list to use quotes or backslashes"},
	{G "command: {a: 1}\n", -1,
	 "gates.yaml:3:10: error: 'command' must be a list such as [./prog, arg], not a mapping"},
	{G "command: ['', a]\n", -1,
	 "gates.yaml:3:11: error: 'command' starts with an empty program name"},

	/* expect */
	{G "expect: [1]\n", -1,
	 "gates.yaml:3:9: error: 'expect' must be a mapping such as {exit: 1}, not a list"},
	{G "expect: {}\n", 0, "gates.yaml:3:9: warning: 'expect' is empty (the run is judged by exit 0)"},
	{G "expect: {stdout: DELETED, multiline: true}\n", 0,
	 "gates.yaml:3:27: warning: 'multiline' applies to /regex/ in 'stdout' or 'stderr', and there is none"},
	{G "expect: {stdout: /a.b/, multiline: yes}\n", -1,
	 "gates.yaml:3:36: error: 'multiline' must be true or false, not 'yes'"},
	{G "expect:\n  exit: 300\n", -1,
	 "gates.yaml:4:9: error: 'exit' must be an integer from 0 to 255, not '300'"},
	{G "expect:\n  signal: SIGSEV\n", -1,
	 "gates.yaml:4:11: error: unknown signal 'SIGSEV' (did you mean 'SIGSEGV'?)"},
	{G "expect:\n  signal: segf\n", -1,
	 "gates.yaml:4:11: error: unknown signal 'segf' (did you mean 'SIGSEGV'?)"},
	{G "expect:\n  signal: SIGNOPE\n", -1, "gates.yaml:4:11: error: unknown signal 'SIGNOPE'"},
	{G "expect:\n  signal: 99\n", -1, "gates.yaml:4:11: error: unknown signal number '99'"},
	{G "expect:\n  stdout: /(/\n", -1,
	 "gates.yaml:4:11: error: bad regex in 'stdout': unmatched ( or \\("},
	{G "expect:\n  stderr: //\n", -1, "gates.yaml:4:11: error: 'stderr' has an empty regex"},
	/* stacked and nested repetitions: glibc's regcomp is exponential in them */
	{G "expect:\n  stdout: /a++++++++++++++++++++/\n", -1,
	 "gates.yaml:4:11: error: the regex in 'stdout' repeats repetitions too deeply (such as 'a++' or '((a+)+)+'); simplify it"},
	{G "expect:\n  stderr: /((((((((((((((((a)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+/\n", -1,
	 "gates.yaml:4:11: error: the regex in 'stderr' repeats repetitions too deeply (such as 'a++' or '((a+)+)+'); simplify it"},
	{G "expect:\n  stdout: /(a{1,255}){1,255}/\n", -1,
	 "gates.yaml:4:11: error: the regex in 'stdout' repeats repetitions too deeply (such as 'a++' or '((a+)+)+'); simplify it"},
	{G "expect:\n  deadlock: maybe\n", -1,
	 "gates.yaml:4:13: error: 'deadlock' must be true or false, not 'maybe'"},
	{G "expect:\n  exit: 1\n  signal: SEGV\n", -1,
	 "gates.yaml:5:3: error: 'expect' cannot have both 'exit' and 'signal'"},
	{G "expect:\n  deadlock: true\n  exit: 0\n", -1,
	 "gates.yaml:4:3: error: 'expect' cannot have 'deadlock: true' with 'exit'"},
};

START_TEST(test_bad)
{
	const struct bad *b = &bad[_i];
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s = (spec *)1;
	int rc = load(b->yaml, &s, &d);
	size_t k;

	for (k = 0; k < d.n; k++) {
		char *m = diag(&d, k);

		if (d.n != 1 || strcmp(m, b->msg))
			fprintf(stderr, "case %d: %s\n", _i, m);
		free(m);
	}
	ck_assert_uint_eq(d.n, 1);
	{
		char *m = diag(&d, 0);

		ck_assert_str_eq(m, b->msg);
		free(m);
	}
	ck_assert_int_eq(rc, b->rc);
	if (rc)
		ck_assert_ptr_null(s);
	ck_assert_uint_eq(d.nerrors, b->rc ? 1 : 0);
	spec_free(s);
	spec_diags_release(&d);
}
END_TEST

/* ---- good specs ---- */

START_TEST(test_design_example)
{
	spec *s = load_clean(design_example);
	spec_gate *g;

	ck_assert_int_eq(s->version, 1);
	ck_assert_str_eq(s->name, "lost update in counter_add");
	ck_assert_str_eq(s->path, "gates.yaml");
	ck_assert_str_eq(s->dir, "/specs");
	ck_assert_uint_eq(s->ncommand, 3);
	ck_assert_str_eq(s->command[0], "./counter");
	ck_assert_str_eq(s->command[2], "2");
	ck_assert_ptr_null(s->command[3]);
	ck_assert_int_eq(s->command_pos.line, 3);
	ck_assert_int_eq(s->timeout_ms, 10000);
	ck_assert_int_eq(s->on_deadlock, SPEC_ON_DEADLOCK_FAIL);

	ck_assert_uint_eq(s->naliases, 3);
	ck_assert_str_eq(s->aliases[0].name, "writer");
	ck_assert_int_eq(s->aliases[0].sel.kind, SPEC_SEL_MATCH);
	ck_assert_str_eq(s->aliases[0].sel.start, "worker");
	ck_assert_int_eq(s->aliases[0].sel.nth, 1);
	ck_assert_int_eq(s->aliases[1].sel.nth, 2);
	ck_assert_str_eq(s->aliases[2].sel.name, "flusher");
	ck_assert_ptr_null(s->aliases[2].sel.start);
	ck_assert_int_eq(s->aliases[2].pos.line, 8);
	ck_assert_int_eq(s->aliases[2].pos.col, 3);

	ck_assert_uint_eq(s->ngates, 3);
	g = &s->gates[0];
	ck_assert_str_eq(g->name, "writer-loaded");
	ck_assert(g->name_given);
	ck_assert_int_eq(g->pos.line, 10);
	ck_assert_int_eq(g->pos.col, 5);
	ck_assert_str_eq(g->at, "counter.c:12");
	ck_assert_int_eq(g->at_pos.line, 11);
	ck_assert_int_eq(g->at_pos.col, 9);
	ck_assert_int_eq(g->thread.kind, SPEC_SEL_ALIAS);
	ck_assert_str_eq(g->thread.alias, "writer");
	ck_assert_uint_eq(g->wait.n, 1);
	ck_assert_str_eq(g->wait.v[0], "reader-stored");
	ck_assert_int_eq(g->wait.pos[0].line, 13);
	ck_assert_int_eq(g->wait.pos[0].col, 11);
	ck_assert(!g->once);

	g = &s->gates[1];
	ck_assert_str_eq(g->name, "counter.c:14");
	ck_assert(!g->name_given);
	ck_assert_str_eq(g->open.v[0], "reader-stored");

	g = &s->gates[2];
	ck_assert_int_eq(g->thread.kind, SPEC_SEL_ANY);
	ck_assert_int_eq(g->barrier, 2);
	ck_assert_ptr_null(g->barrier_name);
	ck_assert_int_eq(g->barrier_pos.line, 18);

	ck_assert(s->expect.any);
	ck_assert(s->expect.has_exit);
	ck_assert_int_eq(s->expect.exit_code, 1);
	ck_assert(!s->expect.has_signal);
	spec_free(s);
}
END_TEST

START_TEST(test_sequence)
{
	/* sequence: before gates: in the file, but steps still come last */
	spec *s = load_clean(
		"version: 1\n"
		"sequence:\n"
		"  - {thread: writer, at: counter.c:12}\n"
		"  - {thread: reader, at: counter.c:14, name: store}\n"
		"  - {thread: writer, at: counter.c:13, hit: 2, open: extra}\n"
		"threads: {writer: {start: worker, nth: 1}, reader: {start: worker, nth: 2}}\n"
		"gates:\n"
		"  - {at: log.c:3, wait: 'sequence:2'}\n"
		"  - {at: log.c:4, wait: extra}\n");
	spec_gate *g;

	ck_assert_uint_eq(s->ngates, 5);
	ck_assert_str_eq(s->gates[0].at, "log.c:3");
	ck_assert_int_eq(s->gates[0].seq_step, 0);

	g = &s->gates[2];
	ck_assert_int_eq(g->seq_step, 1);
	ck_assert_str_eq(g->name, "step 1");
	ck_assert(!g->name_given);
	ck_assert(g->once);
	ck_assert_int_eq(g->pos.line, 3);
	ck_assert_int_eq(g->pos.col, 5);
	ck_assert_uint_eq(g->wait.n, 0);
	ck_assert_uint_eq(g->then_open.n, 1);
	ck_assert_str_eq(g->then_open.v[0], "sequence:1");

	g = &s->gates[3];
	ck_assert_int_eq(g->seq_step, 2);
	ck_assert_str_eq(g->name, "store");
	ck_assert(g->name_given);
	ck_assert_uint_eq(g->wait.n, 1);
	ck_assert_str_eq(g->wait.v[0], "sequence:1");
	ck_assert_int_eq(g->wait.pos[0].line, 4);
	ck_assert_str_eq(g->then_open.v[0], "sequence:2");

	g = &s->gates[4];
	ck_assert_int_eq(g->seq_step, 3);
	ck_assert_str_eq(g->name, "step 3");
	ck_assert_int_eq(g->hit, 2);
	ck_assert_str_eq(g->thread.alias, "writer");
	ck_assert_str_eq(g->wait.v[0], "sequence:2");
	ck_assert_str_eq(g->then_open.v[0], "sequence:3");
	ck_assert_str_eq(g->open.v[0], "extra");
	spec_free(s);
}
END_TEST

START_TEST(test_selectors)
{
	spec *s = load_clean(
		"version: 1\n"
		"threads:\n"
		"  boss: main\n"
		"  w2: {start: worker, nth: 2}\n"
		"  fl: {name: flusher}\n"
		"gates:\n"
		"  - {at: a.c:1, thread: main, open: a}\n"
		"  - {at: a.c:2, thread: any, wait: a}\n"
		"  - {at: a.c:3, open: b, as: first}\n"
		"  - {at: a.c:4, thread: '!first', wait: b}\n"
		"  - {at: a.c:5, thread: first, wait: [started:w2, exited:boss, 'started:fl']}\n"
		"  - {at: a.c:6, thread: {start: worker}, barrier: 3}\n"
		"  - {at: a.c:7, thread: {tid: 1234}, barrier: {name: x, count: 2}}\n"
		"  - {at: a.c:8, thread: {name: flusher, nth: 1}, barrier: {name: x, count: 2}}\n"
		"  - {at: a.c:9, thread: boss, barrier: 1}\n");
	spec_gate *g = s->gates;

	ck_assert_int_eq(s->aliases[0].sel.kind, SPEC_SEL_MAIN);
	ck_assert_int_eq(g[0].thread.kind, SPEC_SEL_MAIN);
	ck_assert_int_eq(g[1].thread.kind, SPEC_SEL_ANY);
	ck_assert_int_eq(g[2].thread.kind, SPEC_SEL_ANY);
	ck_assert_str_eq(g[2].as, "first");
	ck_assert_int_eq(g[2].as_pos.line, 9);
	ck_assert_int_eq(g[3].thread.kind, SPEC_SEL_NOT_ALIAS);
	ck_assert_str_eq(g[3].thread.alias, "first");
	ck_assert_int_eq(g[4].thread.kind, SPEC_SEL_ALIAS);
	ck_assert_uint_eq(g[4].wait.n, 3);
	ck_assert_int_eq(g[5].thread.kind, SPEC_SEL_MATCH);
	ck_assert_str_eq(g[5].thread.start, "worker");
	ck_assert_int_eq(g[5].thread.nth, 0);
	ck_assert_int_eq(g[6].thread.tid, 1234);
	ck_assert_str_eq(g[6].barrier_name, "x");
	ck_assert_int_eq(g[6].barrier, 2);
	ck_assert_str_eq(g[7].thread.name, "flusher");
	ck_assert_int_eq(g[7].thread.nth, 1);
	ck_assert_int_eq(g[7].thread.pos.line, 14);
	ck_assert_int_eq(g[7].thread.pos.col, 25);
	spec_free(s);
}
END_TEST

/* when: accepts the whole condition language of expr/ (expr_syntax.h), not a subset. */
START_TEST(test_when_language)
{
	static const char *const conds[] = {
		"'$streq(q->name, \"work\")'", "'(struct queue *)p != NULL'",
		"'$thread == w1 || $thread != w2'", "'sizeof(struct node) > 8u && ns::count < ::g'",
		"'(unsigned long)p % 8 == 0 && ~flags & 0x4'", "'this->state == Color::RED'",
	};
	char text[512];
	size_t i;
	spec *s;

	for (i = 0; i < sizeof(conds) / sizeof(conds[0]); i++) {
		snprintf(text, sizeof(text),
			 "version: 1\nthreads: {w1: {start: a}, w2: {start: b}}\n"
			 "gates: [{at: a.c:1, barrier: 1, when: %s}]\n", conds[i]);
		s = load_clean(text);
		spec_free(s);
	}
}
END_TEST

START_TEST(test_gate_keys)
{
	spec *s = load_clean(
		"version: 1\n"
		"on_deadlock: release\n"
		"command: ./prog  --threads 2\n"
		"gates:\n"
		"  - name: first\n"
		"    at: '*worker'\n"
		"    hit: 3\n"
		"    when: \"p->n[2] == 3 && !(*q & 0x10) || $hit >= 2 || c == '\\\\n'\"\n"
		"    open: [a, b]\n"
		"    then_open: c\n"
		"    open_when_blocked: [d]\n"
		"    once: true\n"
		"    optional: True\n"
		"    timeout: 1.5s\n"
		"  - {at: worker:return, wait: [a, b, c, d]}\n");
	spec_gate *g = &s->gates[0];

	ck_assert_int_eq(s->on_deadlock, SPEC_ON_DEADLOCK_RELEASE);
	ck_assert_uint_eq(s->ncommand, 3);
	ck_assert_str_eq(s->command[0], "./prog");
	ck_assert_str_eq(s->command[1], "--threads");
	ck_assert_str_eq(s->command[2], "2");
	ck_assert_ptr_null(s->command[3]);
	ck_assert_str_eq(g->at, "*worker");
	ck_assert_int_eq(g->hit, 3);
	ck_assert_str_eq(g->when, "p->n[2] == 3 && !(*q & 0x10) || $hit >= 2 || c == '\\n'");
	ck_assert_int_eq(g->when_pos.line, 8);
	ck_assert_uint_eq(g->open.n, 2);
	ck_assert_str_eq(g->open.v[1], "b");
	ck_assert_int_eq(g->open.pos[1].col, 15);
	ck_assert_str_eq(g->then_open.v[0], "c");
	ck_assert_uint_eq(g->open_when_blocked.n, 1);
	ck_assert_str_eq(g->open_when_blocked.v[0], "d");
	ck_assert(g->once);
	ck_assert(g->optional);
	ck_assert_int_eq(g->timeout_ms, 1500);
	ck_assert_int_eq(s->timeout_ms, 0);
	ck_assert(!s->expect.any);
	spec_free(s);
}
END_TEST

START_TEST(test_expect_variants)
{
	static const struct {
		const char *expect;
		int signo;
		const char *out, *err;
		bool out_re, err_re, deadlock;
	} v[] = {
		{"{signal: SIGSEGV}", SIGSEGV, NULL, NULL, false, false, false},
		{"{signal: SEGV}", SIGSEGV, NULL, NULL, false, false, false},
		{"{signal: sigabrt}", SIGABRT, NULL, NULL, false, false, false},
		{"{signal: 6}", SIGABRT, NULL, NULL, false, false, false},
		{"{stdout: 'value = 1'}", 0, "value = 1", NULL, false, false, false},
		{"{stdout: '/value = [0-9]+/'}", 0, "value = [0-9]+", NULL, true, false, false},
		{"{stderr: /^x|y$/, stdout: ''}", 0, "", "^x|y$", false, true, false},
		{"{stderr: /}", 0, NULL, "/", false, false, false},
		{"{deadlock: true, stdout: done}", 0, "done", NULL, false, false, true},
		{"{stdout: /DELETED.*VALUE/, multiline: true}", 0, "DELETED.*VALUE", NULL,
		 true, false, false},
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char *text = xasprintf(G "expect: %s\n", v[i].expect);
		spec *s = load_clean(text);
		spec_expect *e = &s->expect;

		ck_assert(e->any);
		ck_assert(!e->has_exit);
		ck_assert_int_eq(e->has_signal, v[i].signo != 0);
		ck_assert_int_eq(e->signo, v[i].signo);
		if (v[i].out)
			ck_assert_str_eq(e->stdout_text, v[i].out);
		else
			ck_assert_ptr_null(e->stdout_text);
		if (v[i].err)
			ck_assert_str_eq(e->stderr_text, v[i].err);
		else
			ck_assert_ptr_null(e->stderr_text);
		ck_assert_int_eq(e->stdout_regex, v[i].out_re);
		ck_assert_int_eq(e->stderr_regex, v[i].err_re);
		ck_assert_int_eq(e->deadlock, v[i].deadlock);
		ck_assert_int_eq(e->multiline, strstr(v[i].expect, "multiline") != NULL);
		ck_assert_int_eq(e->pos.line, 3);
		spec_free(s);
		free(text);
	}
}
END_TEST

START_TEST(test_durations)
{
	static const struct {
		const char *text;
		long ms;
	} v[] = {
		{"10s", 10000}, {"250ms", 250}, {"2m", 120000}, {"1.5s", 1500},
		{"1h", 3600000}, {"1m30s", 90000}, {"0.5ms", 1}, {"0.0001s", 1},
		{".25s", 250}, {"0s", 0}, {"2147483647ms", 2147483647L},
		{"10", -1}, {"", -1}, {"s", -1}, {"-1s", -1}, {"1e3s", -1},
		{"5 s", -1}, {"1.5", -1}, {"10sec", -1}, {"1d", -1},
		{"2147483648ms", -1}, {"999999999999999999999h", -1}, {"1.2.3s", -1},
		{"25d", -1},
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		long ms = spec_parse_duration(v[i].text);

		if (ms != v[i].ms)
			fprintf(stderr, "duration '%s' -> %ld\n", v[i].text, ms);
		ck_assert_int_eq(ms, v[i].ms);
	}
	ck_assert_int_eq(spec_parse_duration(NULL), -1);
}
END_TEST

START_TEST(test_signals)
{
	ck_assert_int_eq(spec_signal_number("SIGSEGV"), SIGSEGV);
	ck_assert_int_eq(spec_signal_number("SEGV"), SIGSEGV);
	ck_assert_int_eq(spec_signal_number("segv"), SIGSEGV);
	ck_assert_int_eq(spec_signal_number("11"), 11);
	ck_assert_int_eq(spec_signal_number("SIGIOT"), SIGABRT);
	ck_assert_int_eq(spec_signal_number("0"), 0);
	ck_assert_int_eq(spec_signal_number("65"), 0);
	ck_assert_int_eq(spec_signal_number("40"), 0);   /* real-time: no name */
	ck_assert_int_eq(spec_signal_number("31"), SIGSYS);
	for (int n = 1; n < 32; n++)
		ck_assert_ptr_nonnull(spec_signal_name(n));
	ck_assert_int_eq(spec_signal_number("11x"), 0);
	ck_assert_int_eq(spec_signal_number("SIG"), 0);
	ck_assert_int_eq(spec_signal_number(""), 0);
	ck_assert_str_eq(spec_signal_name(SIGSEGV), "SIGSEGV");
	ck_assert_str_eq(spec_signal_name(SIGABRT), "SIGABRT");
	ck_assert_ptr_null(spec_signal_name(0));
}
END_TEST

/* Two unnamed gates may share a location: their default names repeat. */
START_TEST(test_default_names_may_repeat)
{
	spec *s = load_clean("version: 1\n"
			     "gates:\n"
			     "  - {at: a.c:1, open: x}\n"
			     "  - {at: a.c:1, wait: x}\n"
			     "  - {name: a.c:1, at: a.c:2, barrier: 1}\n");

	ck_assert_str_eq(s->gates[0].name, "a.c:1");
	ck_assert_str_eq(s->gates[1].name, "a.c:1");
	spec_free(s);
}
END_TEST

START_TEST(test_anchors)
{
	spec *s = load_clean("version: 1\n"
			     "threads: {w: &sel {start: worker, nth: 1}}\n"
			     "gates:\n"
			     "  - &g {at: a.c:1, thread: *sel, open: [x, y], barrier: 1}\n"
			     "  - {at: a.c:2, wait: [x, y]}\n");

	ck_assert_int_eq(s->gates[0].thread.kind, SPEC_SEL_MATCH);
	ck_assert_int_eq(s->gates[0].thread.nth, 1);
	spec_free(s);
}
END_TEST

START_TEST(test_many_errors)
{
	/* every problem is reported, in file order */
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s;
	char *m;

	ck_assert_int_eq(load("version: 1\n"
			      "gates:\n"
			      "  - {at: a.c:1, wiat: x, hit: 0}\n"
			      "  - {at: a.c:2, wait: nothing}\n"
			      "timeout: forever\n", &s, &d), -1);
	ck_assert_ptr_null(s);
	ck_assert_uint_eq(d.n, 4);
	ck_assert_uint_eq(d.nerrors, 4);
	m = diag(&d, 0);
	ck_assert_str_eq(m, "gates.yaml:3:17: error: unknown key 'wiat' (did you mean 'wait'?)");
	free(m);
	m = diag(&d, 1);
	ck_assert_str_eq(m, "gates.yaml:3:31: error: 'hit' must be a positive integer, not '0'");
	free(m);
	m = diag(&d, 2);
	ck_assert_str_eq(m, "gates.yaml:4:23: error: gate 'a.c:2' waits for 'nothing', which no gate opens");
	free(m);
	m = diag(&d, 3);
	ck_assert_str_eq(m, "gates.yaml:5:10: error: 'timeout' must be a duration such as '10s' or '250ms', not 'forever'");
	free(m);
	spec_diags_release(&d);
}
END_TEST

START_TEST(test_hostile_input)
{
	static const char *const texts[] = {
		"version: 1\ngates: &a [{at: x, wait: *a, open: *a, thread: *a, barrier: *a}, *a]\n",
		"version: 1\nthreads: &t {w: *t}\n",
		"version: 1\ngates: [{at: a.c:1, barrier: 1, when: '((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x'}]\n",
		"version: 1\ngates: [{at: a.c:1, barrier: 1, when: '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!x'}]\n",
		"version: !!int 1\n? !!null\n: 3\n",
		"&a version: *a\n",
		"version: 1\ngates: [{at: a.c:1, barrier: 99999999999999999999999999999999999999}]\n",
		"\xef\xbb\xbfversion: 1\n",
		"%YAML 1.1\n---\nversion: 1\n...\n",
		"version: 1\ngates: [{at: a.c:1, wait: 'started:'}, {at: a.c:1, wait: 'sequence:', as: ''}]\n",
	};
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		spec_diags d = SPEC_DIAGS_INIT;
		spec *s;
		int rc = load(texts[i], &s, &d);

		ck_assert(rc == 0 || d.nerrors > 0);
		ck_assert(rc == 0 || s == NULL);
		spec_free(s);
		spec_diags_release(&d);
	}
}
END_TEST

/* The first error of loading text (which must fail), formatted. */
static char *first_error(const char *text, size_t len)
{
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s;
	char *m;

	ck_assert_int_eq(spec_load_string(text, len, "gates.yaml", NULL, &s, &d), -1);
	ck_assert_uint_ge(d.nerrors, 1);
	m = diag(&d, 0);
	spec_diags_release(&d);
	return m;
}

/*
 * libyaml's scanner is quadratic in the nesting depth (50,000 '[' took 15 s)
 * and its loader costs ~170 bytes a node: the limits stop both at the first
 * node past them, with its position.
 */
START_TEST(test_deep_nesting)
{
	static const struct {
		const char *head, *open, *close;
		int levels;
		const char *want;
	} t[] = {
		/* the top mapping is level 1: the 64th '[' is level 65 */
		{"version: 1\ngates: ", "[", "]", 50000, "gates.yaml:2:71: error: "
		 "nesting deeper than 64 levels (the limit for a gates file)"},
		{"version: 1\ngates: ", "[", "", 500000, "gates.yaml:2:71: error: "
		 "nesting deeper than 64 levels (the limit for a gates file)"},
		{"version: 1\ngates: ", "{a: ", "}", 100000, "gates.yaml:2:260: error: "
		 "nesting deeper than 64 levels (the limit for a gates file)"},
		{"version: 1\ngates:\n  - ", "- ", "", 100000, "gates.yaml:3:129: error: "
		 "nesting deeper than 64 levels (the limit for a gates file)"},
		{"version: 1\ngates:\n  - ", "{at: [", "", 50000, "gates.yaml:3:191: error: "
		 "nesting deeper than 64 levels (the limit for a gates file)"},
		/* 64 levels are fine (the schema says no) */
		{"version: 1\ngates: ", "[", "]", 63, "gates.yaml:2:9: error: "
		 "a gate must be a mapping such as {at: file.c:12, wait: event}, not a list"},
	};
	size_t k;
	int i;

	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		rg_buf b = RG_BUF_INIT;
		char *m;

		rg_buf_puts(&b, t[k].head);
		for (i = 0; i < t[k].levels; i++)
			rg_buf_puts(&b, t[k].open);
		for (i = 0; i < t[k].levels; i++)
			rg_buf_puts(&b, t[k].close);
		m = first_error(b.s, b.len);
		ck_assert_str_eq(m, t[k].want);
		free(m);
		rg_buf_release(&b);
	}
}
END_TEST

START_TEST(test_many_nodes)
{
	rg_buf b = RG_BUF_INIT;
	spec *s;
	char *m;
	int i;

	/* 10,000 gates (~70,000 nodes) load */
	rg_buf_puts(&b, "version: 1\ngates:\n");
	for (i = 0; i < 10000; i++)
		rg_buf_printf(&b, "  - {at: f%d, as: a%d, optional: true}\n", i, i);
	s = load_clean(b.s);
	ck_assert_uint_eq(s->ngates, 10000);
	spec_free(s);
	rg_buf_release(&b);

	/* the top mapping, version, 1, gates, the list: the 1,000,001st
	 * node is the 999,996th item, at column 8 + 2 * 999,995 */
	rg_buf_puts(&b, "version: 1\ngates: [");
	for (i = 0; i < 1000000; i++)
		rg_buf_puts(&b, "1,");
	rg_buf_puts(&b, "1]\n");
	m = first_error(b.s, b.len);
	ck_assert_str_eq(m, "gates.yaml:2:1999999: error: "
			 "more than 1000000 YAML nodes (the limit for a gates file)");
	free(m);
	rg_buf_release(&b);
}
END_TEST

/* libyaml compares each anchor with every earlier one: 100,000 took 30 s. */
START_TEST(test_many_anchors)
{
	rg_buf b = RG_BUF_INIT;
	spec *s;
	char *m;
	int i;

	rg_buf_puts(&b, "version: 1\ngates:\n");
	for (i = 0; i < 100; i++)
		rg_buf_printf(&b, "  - {at: f%d, open: &e%d e%d, wait: *e%d}\n", i, i, i, i);
	s = load_clean(b.s);
	ck_assert_uint_eq(s->ngates, 100);
	spec_free(s);
	rg_buf_puts(&b, "  - {at: g, open: &x x, wait: *x}\n");
	for (i = 0; i < 100000; i++)
		rg_buf_printf(&b, "  - {at: h, open: &y%d y, wait: *y%d}\n", i, i);
	m = first_error(b.s, b.len);
	ck_assert_str_eq(m, "gates.yaml:103:19: error: "
			 "more than 100 YAML anchors (the limit for a gates file)");
	free(m);
	rg_buf_release(&b);
}
END_TEST

/* Aliases are references: a small file can name a million nodes. */
START_TEST(test_alias_bomb)
{
	rg_buf b = RG_BUF_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s;
	char *m;
	int i;

	rg_buf_puts(&b, "version: 1\nx: &w [ev");
	for (i = 0; i < 1000; i++)
		rg_buf_puts(&b, ", ev");
	rg_buf_puts(&b, "]\ngates: &g\n");
	for (i = 0; i < 2000; i++)
		rg_buf_printf(&b, "  - {at: a.c:%d, wait: *w, open: *w}\n", i);
	rg_buf_puts(&b, "sequence: *g\n");
	ck_assert_int_eq(spec_load_string(b.s, b.len, "gates.yaml", NULL, &s, &d), -1);
	m = diag(&d, 0);
	ck_assert_str_eq(m, "gates.yaml:1:1: error: the file expands to too many nodes (aliases referring to aliases?)");
	free(m);
	spec_diags_release(&d);
	rg_buf_release(&b);
}
END_TEST

START_TEST(test_too_many_problems)
{
	rg_buf b = RG_BUF_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s;
	char *m;
	int i;

	rg_buf_puts(&b, "version: 1\ngates:\n");
	for (i = 0; i < 500; i++)
		rg_buf_puts(&b, "  - {at: a.c:1, hit: 0, barrier: 1}\n");
	ck_assert_int_eq(spec_load_string(b.s, b.len, "gates.yaml", NULL, &s, &d), -1);
	ck_assert_uint_eq(d.n, 101);
	m = diag(&d, 100);
	ck_assert_str_eq(m, "gates.yaml:102:22: error: too many problems, stopping here");
	free(m);
	spec_diags_release(&d);
	rg_buf_release(&b);
}
END_TEST

/* Warnings alone never refuse a file, however many: past 50 they are counted. */
START_TEST(test_many_warnings)
{
	rg_buf b = RG_BUF_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s = NULL;
	char *m;
	int i;

	rg_buf_puts(&b, "version: 1\ngates:\n");
	for (i = 0; i < 200; i++)
		rg_buf_printf(&b, "  - {at: a.c:%d, open: ev%d}\n", i + 1, i);
	ck_assert_int_eq(spec_load_string(b.s, b.len, "gates.yaml", NULL, &s, &d), 0);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->ngates, 200);
	ck_assert_uint_eq(d.nerrors, 0);
	ck_assert_uint_eq(d.n, 51);
	m = diag(&d, 50);
	ck_assert_str_eq(m, "gates.yaml:1:1: warning: 150 more warnings like those above not shown");
	free(m);
	spec_free(s);
	spec_diags_release(&d);
	rg_buf_release(&b);
}
END_TEST

/* Embedded NULs in the input buffer, and input that is not NUL-terminated. */
START_TEST(test_embedded_nul)
{
	static const char text[] = "version: 1\ngates: [{at: a\0b, barrier: 1}]\n";
	char *copy = xmalloc(sizeof(G) - 1);
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s;

	ck_assert_int_eq(spec_load_string(text, sizeof(text) - 1, "gates.yaml", NULL, &s, &d), -1);
	ck_assert_uint_ge(d.nerrors, 1);
	spec_diags_release(&d);

	memcpy(copy, G, sizeof(G) - 1);   /* no terminating NUL */
	ck_assert_int_eq(spec_load_string(copy, sizeof(G) - 1, "gates.yaml", NULL, &s, &d), 0);
	ck_assert_str_eq(s->dir, ".");
	spec_free(s);
	spec_diags_release(&d);
	free(copy);
}
END_TEST

/*
 * A small mutation fuzzer over the design example: whatever the bytes, a
 * load ends with a spec or with errors, never a crash (the sanitizer build
 * also checks for leaks and bad reads).
 */
START_TEST(test_mutations)
{
	size_t len = sizeof(design_example) - 1;
	char *buf = xmalloc(len);
	unsigned int seed = 12345;
	static const char alphabet[] = "[]{}:,-!&*'\"#|>\n \t0123456789abz\\%@`?~";
	int round;

	for (round = 0; round < 3000; round++) {
		spec_diags d = SPEC_DIAGS_INIT;
		spec *s;
		int k, n, rc;

		memcpy(buf, design_example, len);
		n = 1 + rand_r(&seed) % 8;
		for (k = 0; k < n; k++) {
			size_t at = (size_t)rand_r(&seed) % len;

			if (rand_r(&seed) % 4 == 0)
				buf[at] = (char)(rand_r(&seed) % 256);
			else
				buf[at] = alphabet[(size_t)rand_r(&seed) % (sizeof(alphabet) - 1)];
		}
		rc = spec_load_string(buf, (size_t)rand_r(&seed) % (len + 1), "gates.yaml",
				      NULL, &s, &d);
		ck_assert(rc == 0 ? s != NULL : (s == NULL && d.nerrors > 0));
		spec_free(s);
		spec_diags_release(&d);
	}
	free(buf);
}
END_TEST

START_TEST(test_load_file)
{
	char path[] = "/tmp/check_specs_XXXXXX";
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s;
	char *m, *want;
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(design_example, f);
	fclose(f);
	ck_assert_int_eq(spec_load_file(path, &s, &d), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_str_eq(s->path, path);
	ck_assert_str_eq(s->dir, "/tmp");
	ck_assert_uint_eq(s->ngates, 3);
	spec_free(s);
	spec_diags_release(&d);

	unlink(path);
	ck_assert_int_eq(spec_load_file(path, &s, &d), -1);
	ck_assert_ptr_null(s);
	ck_assert_uint_eq(d.nerrors, 1);
	m = diag(&d, 0);
	want = xasprintf("%s: error: cannot open '%s': No such file or directory", path, path);
	ck_assert_str_eq(m, want);
	free(want);
	free(m);
	spec_diags_release(&d);

	ck_assert_int_eq(spec_load_file("/tmp", &s, &d), -1);
	m = diag(&d, 0);
	ck_assert_str_eq(m, "/tmp: error: cannot read '/tmp': it is a directory");
	free(m);
	spec_diags_release(&d);
}
END_TEST

/* stdin: the bytes the program reads, as text (NUL bytes too) or a file's */
START_TEST(test_stdin)
{
	static const char bytes[] = "h\0\xff\n";
	char dir[] = "/tmp/check_specs_XXXXXX", *path, *text, *m;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s;
	FILE *f;

	s = load_clean("version: 1\ngates: [{at: a.c:1, barrier: 1}]\nstdin: \"a\\0b\\n\"\n");
	ck_assert(s->has_stdin);
	ck_assert_uint_eq(s->stdin_len, 4);
	ck_assert_mem_eq(s->stdin_data, "a\0b\n", 4);
	ck_assert_ptr_null(s->stdin_file);
	ck_assert_int_eq(s->stdin_pos.line, 3);
	spec_free(s);
	s = load_clean("version: 1\ngates: [{at: a.c:1, barrier: 1}]\nstdin: \"\"\n");
	ck_assert(s->has_stdin);
	ck_assert_uint_eq(s->stdin_len, 0);
	ck_assert_str_eq(s->stdin_data, "");
	spec_free(s);
	s = load_clean("version: 1\ngates: [{at: a.c:1, barrier: 1}]\n");
	ck_assert(!s->has_stdin);
	ck_assert_ptr_null(s->stdin_data);
	spec_free(s);

	/* a file, relative to the spec's directory, read whole at load time */
	ck_assert_ptr_nonnull(mkdtemp(dir));
	path = xasprintf("%s/in.bin", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fwrite(bytes, 1, sizeof(bytes) - 1, f);
	fclose(f);
	text = xstrdup("version: 1\ngates: [{at: a.c:1, barrier: 1}]\nstdin: {file: in.bin}\n");
	ck_assert_int_eq(spec_load_string(text, strlen(text), "g.yaml", dir, &s, &d), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert(s->has_stdin);
	ck_assert_uint_eq(s->stdin_len, sizeof(bytes) - 1);
	ck_assert_mem_eq(s->stdin_data, bytes, sizeof(bytes) - 1);
	ck_assert_str_eq(s->stdin_file, "in.bin");
	spec_free(s);
	spec_diags_release(&d);

	/* past the limit: refused, not read into memory */
	f = fopen(path, "w");
	ck_assert_int_eq(ftruncate(fileno(f), (off_t)SPEC_MAX_STDIN + 1), 0);
	fclose(f);
	ck_assert_int_eq(spec_load_string(text, strlen(text), "g.yaml", dir, &s, &d), -1);
	ck_assert_ptr_null(s);
	m = diag(&d, 0);
	ck_assert_str_eq(m, "g.yaml:3:15: error: the stdin file 'in.bin' is too large "
			 "(over 16 MiB)");
	free(m);
	spec_diags_release(&d);
	unlink(path);
	rmdir(dir);
	free(path);
	free(text);
}
END_TEST

START_TEST(test_diags_api)
{
	spec_diags d = SPEC_DIAGS_INIT;
	char *m;

	d.file = xstrdup("g.yaml");
	spec_diags_add(&d, SPEC_ERROR, (spec_pos){14, 7},
		       "gate '%s' waits for '%s', which no gate opens", "drain", "fill");
	spec_diags_add(&d, SPEC_WARNING, (spec_pos){0, 0}, "no code at '%s'", "x.c:1");
	ck_assert_uint_eq(d.nerrors, 1);
	m = spec_diag_format(&d, 0);
	ck_assert_str_eq(m, "g.yaml:14:7: error: gate 'drain' waits for 'fill', which no gate opens");
	free(m);
	m = spec_diag_format(&d, 1);
	ck_assert_str_eq(m, "g.yaml: warning: no code at 'x.c:1'");
	free(m);
	spec_diags_release(&d);
	ck_assert_uint_eq(d.n, 0);
}
END_TEST

/* Long or odd user text stays one short line in a message. */
START_TEST(test_quoting)
{
	rg_buf b = RG_BUF_INIT;
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s;
	char *m;
	int i;

	rg_buf_puts(&b, G "\"");
	for (i = 0; i < 500; i++)
		rg_buf_puts(&b, "k");
	rg_buf_puts(&b, "\\n\": 1\n");
	ck_assert_int_eq(spec_load_string(b.s, b.len, "gates.yaml", NULL, &s, &d), -1);
	m = diag(&d, 0);
	ck_assert_ptr_null(strchr(m, '\n'));
	ck_assert_uint_lt(strlen(m), 160);
	ck_assert_ptr_nonnull(strstr(m, "kkk...'"));
	free(m);
	spec_diags_release(&d);
	rg_buf_release(&b);

	ck_assert_int_eq(load(G "\"a\\tb\": 1\n", &s, &d), -1);
	m = diag(&d, 0);
	ck_assert_str_eq(m, "gates.yaml:3:1: error: unknown key 'a\\tb'");
	free(m);
	spec_diags_release(&d);
}
END_TEST

/* in: names the shared object a location is in (runner/plan/objects.c). */
START_TEST(test_in)
{
	static const struct {
		const char *yaml, *msg;
	} bad[] = {
		{"version: 1\ngates: [{at: free, in: [libc.so], barrier: 1}]\n",
		 "gates.yaml:2:24: error: 'in' must be a string, not a list"},
		{"version: 1\ngates: [{at: free, in: '', barrier: 1}]\n",
		 "gates.yaml:2:24: error: 'in' is empty"},
		{"version: 1\ngates: [{at: free, in: 'lib c.so', barrier: 1}]\n",
		 "gates.yaml:2:24: error: 'in' must be a shared object's file name "
		 "such as libfoo.so, not 'lib c.so'"},
		{"version: 1\ngates: [{at: free, in: lib/, barrier: 1}]\n",
		 "gates.yaml:2:24: error: 'in' must be a shared object's file name "
		 "such as libfoo.so, not 'lib/'"},
		{"version: 1\nin: libc.so\n",
		 "gates.yaml:2:1: error: unknown key 'in' (it belongs in a gate, under 'gates')"},
	};
	spec *s = load_clean(
		"version: 1\n"
		"gates:\n"
		"  - {at: pthread_mutex_lock, in: libc.so.6, barrier: 2}\n"
		"  - {at: plugin.c:7, barrier: 2}\n"
		"sequence:\n"
		"  - {at: 'worker:return', in: lib/libw.so}\n");
	size_t i;

	ck_assert_str_eq(s->gates[0].in, "libc.so.6");
	ck_assert_int_eq(s->gates[0].in_pos.line, 3);
	ck_assert_int_eq(s->gates[0].in_pos.col, 34);
	ck_assert_ptr_null(s->gates[1].in);
	ck_assert_str_eq(s->gates[2].in, "lib/libw.so");
	spec_free(s);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		spec_diags d = SPEC_DIAGS_INIT;
		char *m;

		s = NULL;
		ck_assert_int_eq(load(bad[i].yaml, &s, &d), -1);
		ck_assert_ptr_null(s);
		ck_assert_uint_ge(d.n, 1);
		m = diag(&d, 0);
		if (strcmp(m, bad[i].msg))
			fprintf(stderr, "in case %zu: %s\n", i, m);
		ck_assert_str_eq(m, bad[i].msg);
		free(m);
		spec_diags_release(&d);
	}
}
END_TEST

/* process: on gates and thread selectors, and the errors it can have. */
START_TEST(test_process)
{
	static const struct {
		const char *body, *want;
	} bad[] = {
		{"  - {at: a.c:1, open: x, process: child}\n",
		 "gates.yaml:3:35: error: 'process' must be main, any, {exe: NAME} or {nth: K}, not 'child'"},
		{"  - {at: a.c:1, open: x, process: {nth: 0}}\n",
		 "gates.yaml:3:41: error: 'nth' must be a positive integer, not '0'"},
		{"  - {at: a.c:1, open: x, process: {exe: bin/helper}}\n",
		 "gates.yaml:3:41: error: 'exe' is the file name of the program a process runs, without a directory, not 'bin/helper'"},
		{"  - {at: a.c:1, open: x, process: {exe: h, nth: 1}}\n",
		 "gates.yaml:3:35: error: 'process' takes exe or nth, not both"},
		{"  - {at: a.c:1, open: x, process: {ex: h}}\n",
		 "gates.yaml:3:36: error: unknown key 'ex' (did you mean 'exe'?)"},
		{"  - {at: a.c:1, open: x, process: {}}\n",
		 "gates.yaml:3:35: error: empty process selector (give exe or nth)"},
		{"  - {at: a.c:1, open: x, thread: main, process: {nth: 1}}\n",
		 "gates.yaml:3:49: error: gate 'a.c:1' is for another process than its thread 'main', the main process's initial thread"},
		{"  - {at: a.c:1, open: x, thread: {process: {nth: 2}}, process: {nth: 1}}\n",
		 "gates.yaml:3:64: error: gate 'a.c:1' is for another process than the one its thread is in"},
		{"  - {at: a.c:1, open: x, procss: main}\n",
		 "gates.yaml:3:26: error: unknown key 'procss' (did you mean 'process'?)"},
	};
	spec *s = load_clean(
		"version: 1\n"
		"threads:\n"
		"  kid: {process: {nth: 1}}\n"
		"  kw: {start: worker, process: {exe: helper}}\n"
		"gates:\n"
		"  - {at: a.c:1, open: a, process: {nth: 2}}\n"
		"  - {at: a.c:2, wait: a, process: any}\n"
		"  - {at: a.c:3, thread: kid, wait: exited:kw}\n"
		"  - {at: a.c:4, thread: main, open: b, process: main}\n"
		"  - {at: a.c:5, wait: b}\n");
	char text[512];
	size_t i;

	ck_assert_int_eq(s->aliases[0].sel.kind, SPEC_SEL_MATCH);
	ck_assert_int_eq(s->aliases[0].sel.process.kind, SPEC_PROC_NTH);
	ck_assert_int_eq(s->aliases[0].sel.process.nth, 1);
	ck_assert_int_eq(s->aliases[1].sel.process.kind, SPEC_PROC_EXE);
	ck_assert_str_eq(s->aliases[1].sel.process.exe, "helper");
	ck_assert_str_eq(s->aliases[1].sel.start, "worker");
	ck_assert_int_eq(s->gates[0].process.kind, SPEC_PROC_NTH);
	ck_assert_int_eq(s->gates[0].process.nth, 2);
	ck_assert_int_eq(s->gates[0].process.pos.line, 6);
	ck_assert_int_eq(s->gates[1].process.kind, SPEC_PROC_ANY);
	ck_assert_int_eq(s->gates[2].process.kind, SPEC_PROC_UNSET);
	ck_assert_int_eq(s->gates[3].process.kind, SPEC_PROC_MAIN);
	ck_assert(spec_names_process(s));
	spec_free(s);
	s = load_clean("version: 1\ngates:\n  - {at: a.c:1, open: a}\n  - {at: a.c:2, wait: a}\n");
	ck_assert(!spec_names_process(s));
	spec_free(s);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *m;

		snprintf(text, sizeof(text), "version: 1\ngates:\n%s  - {at: a.c:2, wait: x}\n",
			 bad[i].body);
		m = first_error(text, strlen(text));
		ck_assert_str_eq(m, bad[i].want);
		free(m);
	}
}
END_TEST

static Suite *specs_suite(void)
{
	Suite *su = suite_create("specs");
	TCase *tc = tcase_create("messages");

	tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_many_errors);
	tcase_add_test(tc, test_diags_api);
	tcase_add_test(tc, test_quoting);
	suite_add_tcase(su, tc);

	tc = tcase_create("good");
	tcase_add_test(tc, test_design_example);
	tcase_add_test(tc, test_sequence);
	tcase_add_test(tc, test_selectors);
	tcase_add_test(tc, test_process);
	tcase_add_test(tc, test_gate_keys);
	tcase_add_test(tc, test_when_language);
	tcase_add_test(tc, test_expect_variants);
	tcase_add_test(tc, test_durations);
	tcase_add_test(tc, test_signals);
	tcase_add_test(tc, test_default_names_may_repeat);
	tcase_add_test(tc, test_anchors);
	tcase_add_test(tc, test_in);
	tcase_add_test(tc, test_load_file);
	tcase_add_test(tc, test_stdin);
	suite_add_tcase(su, tc);

	tc = tcase_create("robust");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hostile_input);
	tcase_add_test(tc, test_deep_nesting);
	tcase_add_test(tc, test_many_nodes);
	tcase_add_test(tc, test_many_anchors);
	tcase_add_test(tc, test_alias_bomb);
	tcase_add_test(tc, test_too_many_problems);
	tcase_add_test(tc, test_many_warnings);
	tcase_add_test(tc, test_embedded_nul);
	tcase_add_test(tc, test_mutations);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(specs_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
