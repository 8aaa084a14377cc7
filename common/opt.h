/*
 * The shape of one command-line option: a row of an option table.
 *
 * A row says everything the command line knows of an option, so that the
 * parsing, `racegate CMD --help`, the man page check and the shell
 * completion all read the same row (runner/cli/options.c holds racegate's
 * table and is the one reader).  The type is here, below every module that
 * may own options, so that a module can hand its own rows up (explore's
 * strategies, say: runner/cli/options.c, "Tables") without knowing the
 * command line.
 *
 * A row is plain data: where its value goes is an offset into the struct
 * its table fills, or a setter when the value is more than a store.
 */
#ifndef RACEGATE_OPT_H
#define RACEGATE_OPT_H

#include <stddef.h>

#include "msg.h"

/* What an option takes: what it checks, says in --help and completes. */
enum rg_opt_kind {
	RG_OPT_FLAG,           /* no value; a bool (or int) set to 1, 0 by --no-NAME */
	RG_OPT_NUMBER,         /* a decimal number in [lo, hi]: a long (or int) */
	RG_OPT_DURATION,       /* 10s, 500ms, 2m: milliseconds > 0, a long */
	RG_OPT_ENUM,           /* one of words: an int (or bool), vals[i] or i */
	RG_OPT_FILE,           /* a file name, not empty: a const char * */
	RG_OPT_DIR,            /* a folder, not empty: a const char * */
	RG_OPT_LIST,           /* comma-separated items (of words, when given) */
	RG_OPT_REGEX,          /* a POSIX extended regex: a const char * */
	RG_OPT_TEXT,           /* anything not empty: a const char * */
};

/* rg_opt.flags */
#define RG_OPT_NEGATABLE 0x1u  /* a flag that --no-NAME turns off */
#define RG_OPT_OPTVAL    0x2u  /* the value only as --NAME=V; --NAME alone is dflt */
#define RG_OPT_HIDDEN    0x4u  /* taken, but in no help, list or completion */

typedef struct rg_opt rg_opt;

/*
 * What takes an option's value when a store is not enough: v as given
 * (for a flag "1", or "0" for --no-NAME); sets base's field and returns
 * 0, or -1 with the whole message in err ("--jobs takes ..., not 'x'").
 */
typedef int rg_opt_setter(void *base, const rg_opt *o, const char *v, rg_err *err);

struct rg_opt {
	const char *name;      /* the long name, without "--" */
	char short_name;       /* 'j' for -j, or 0 */
	enum rg_opt_kind kind;
	const char *metavar;   /* "N", "FILE.json"; NULL: from words, or none */
	unsigned cmds;         /* the commands that take it (the table's bits) */
	const char *help;      /* one sentence or two, for --help */
	size_t off, size;      /* its field in the table's struct (RG_OPT_AT) */
	rg_opt_setter *set;    /* instead of a store, when set */
	long lo, hi;           /* RG_OPT_NUMBER: the range */
	const char *const *words; /* ENUM, LIST: the words, NULL-terminated */
	const int *vals;       /* ENUM: each word's value; NULL: its index */
	const char *takes;     /* errors say "--NAME takes TAKES"; NULL: the kind's */
	const char *needs;     /* errors say "'--NAME' needs NEEDS"; NULL: the kind's */
	unsigned flags;        /* RG_OPT_* */
	const char *dflt;      /* RG_OPT_OPTVAL: the value of --NAME alone */
	const char *alias;     /* another long name for it, never shown */
	unsigned refuse;       /* commands that know it and refuse it, saying why */
	const char *refuse_why;
};

/* .off and .size of field m of the struct type t. */
#define RG_OPT_AT(t, m) .off = offsetof(t, m), .size = sizeof(((t *)0)->m)

#endif
