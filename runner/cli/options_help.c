/*
 * What the option table (options.c) says to people: a command's --help,
 * and the list tests/e2e/help_man.sh compares with racegate(1).
 */
#include "options.h"

#include <stdbool.h>
#include <string.h>

#define HELP_WIDTH 80
#define HELP_COL 28            /* where an option's help starts */

/*
 * Prints text from column col on, wrapped at HELP_WIDTH, each further line
 * indented to indent; a gap of two spaces (after a sentence) is kept
 * within a line.  Ends with a newline.
 */
static void put_wrapped(FILE *f, const char *text, size_t col, size_t indent)
{
	const char *p = text;
	bool first = true;

	while (*p) {
		size_t gap = strspn(p, " "), len;

		p += gap;
		len = strcspn(p, " ");
		if (!len)
			break;
		if (first)
			gap = 0;
		else if (col + gap + len > HELP_WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
			gap = 0;
		}
		fprintf(f, "%*s%.*s", (int)gap, "", (int)len, p);
		col += gap + len;
		p += len;
		first = false;
	}
	fputc('\n', f);
}

/* "  -j, --jobs J", "      --color[=auto|always|never]", "      --sync, --no-sync" */
static void put_left(rg_buf *b, const rg_opt *o)
{
	if (o->short_name)
		rg_buf_printf(b, "  -%c, --%s", o->short_name, o->name);
	else
		rg_buf_printf(b, "      --%s", o->name);
	if (o->kind == RG_OPT_FLAG) {
		if (o->flags & RG_OPT_NEGATABLE)
			rg_buf_printf(b, ", --no-%s", o->name);
		return;
	}
	rg_buf_puts(b, o->flags & RG_OPT_OPTVAL ? "[=" : " ");
	if (o->metavar) {
		rg_buf_puts(b, o->metavar);
	} else {
		for (size_t i = 0; o->words && o->words[i]; i++)
			rg_buf_printf(b, "%s%s", i ? "|" : "", o->words[i]);
	}
	if (o->flags & RG_OPT_OPTVAL)
		rg_buf_puts(b, "]");
}

void cli_print_help(FILE *f, const cli_command *cmd)
{
	const rg_opt *o;
	size_t k, base;

	fprintf(f, "usage: racegate %s %s\n", cmd->name, cmd->usage);
	if (cmd->about) {
		fputc('\n', f);
		put_wrapped(f, cmd->about, 0, 0);
	}
	fputs("\nOptions:\n", f);
	for (k = 0; (o = cli_option_row(k, &base)); k++) {
		rg_buf b = RG_BUF_INIT;

		if (!(o->cmds & cmd->bit) || (o->flags & RG_OPT_HIDDEN))
			continue;
		put_left(&b, o);
		if (b.len + 2 > HELP_COL)
			fprintf(f, "%s\n%*s", b.s, HELP_COL, "");
		else
			fprintf(f, "%-*s", HELP_COL, b.s);
		put_wrapped(f, o->help, HELP_COL, HELP_COL);
		rg_buf_release(&b);
	}
}

void cli_print_option_names(FILE *f, const cli_command *cmd)
{
	const rg_opt *o;
	size_t k, base;

	for (k = 0; (o = cli_option_row(k, &base)); k++) {
		if (!(o->cmds & cmd->bit) || (o->flags & RG_OPT_HIDDEN))
			continue;
		if (o->short_name)
			fprintf(f, "-%c\n", o->short_name);
		fprintf(f, "--%s\n", o->name);
		if (o->flags & RG_OPT_NEGATABLE)
			fprintf(f, "--no-%s\n", o->name);
	}
}
