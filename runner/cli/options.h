/*
 * racegate's commands and their one option table (options.c).  Every
 * command's parsing, `racegate CMD --help`, `racegate --list-options CMD`
 * (what tests/e2e/help_man.sh compares with racegate(1)) and
 * `racegate completion bash` read the same rows (common/opt.h).
 */
#ifndef RACEGATE_CLI_OPTIONS_H
#define RACEGATE_CLI_OPTIONS_H

#include <stdio.h>

#include "opt.h"

struct cli;

/* The commands, a bit each: rg_opt.cmds and rg_opt.refuse. */
enum cli_cmd_bit {
	CLI_RUN = 1u << 0,
	CLI_CHECK = 1u << 1,
	CLI_ATTACH = 1u << 2,
	CLI_LINES = 1u << 3,
	CLI_EXPLORE = 1u << 4,
	CLI_TRIAGE = 1u << 5,
	CLI_COMPLETION = 1u << 6,
	CLI_HELP = 1u << 7,
};
#define CLI_EVERY 0xffu

/* One command: its name, bit and words. */
typedef struct cli_command {
	const char *name;
	unsigned bit;
	const char *usage;     /* its arguments, after "usage: racegate NAME " */
	const char *summary;   /* racegate --help's line for it */
	const char *about;     /* racegate CMD --help's paragraph (may be NULL) */
} cli_command;

/* The command named name, or NULL; every command, in order, with n. */
const cli_command *cli_command_find(const char *name);
const cli_command *cli_commands(size_t *n);

/*
 * Takes the option at argv[*i] for command cmd into c (its value from
 * argv[*i] itself or the next argument; *i is left at the last one taken).
 * 0, or -1 with err saying what is wrong, worded for the user: unknown
 * (with "did you mean" for a near miss), refused by cmd, no value, a bad
 * value.
 */
int cli_take_option(struct cli *c, const cli_command *cmd, int argc, char **argv,
		    int *i, rg_err *err);

/* racegate CMD --help: usage, about, and cmd's options, wrapped at 80 columns. */
void cli_print_help(FILE *f, const cli_command *cmd);
/* racegate --list-options CMD: every name cmd takes, one a line (--name,
 * --no-name, -x), in table order. */
void cli_print_option_names(FILE *f, const cli_command *cmd);
/* racegate completion bash: a bash completion script, from the table. */
void cli_print_completion_bash(FILE *f);

/*
 * The rows of every table: racegate's own, and (once modules hand up rows
 * of their own) theirs.  Row k of the whole, with the struct cli offset
 * its table's offsets count from in *base; NULL past the last.
 */
const rg_opt *cli_option_row(size_t k, size_t *base);

#endif
