/*
 * What the option table (options.c) says to people and shells: a
 * command's --help, the list tests/e2e/help_man.sh compares with
 * racegate(1), and a bash completion script.
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

/* ---- bash completion ---- */

/* "-j|--jobs", "--report": o's names as a case pattern. */
static void put_pattern(FILE *f, const rg_opt *o)
{
	if (o->short_name)
		fprintf(f, "-%c|", o->short_name);
	fprintf(f, "--%s", o->name);
}

static void put_words_arg(FILE *f, const char *const *w)
{
	fputc('\'', f);
	for (size_t i = 0; w[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", w[i]);
	fputc('\'', f);
}

/* What is known of one command: which of its options take a separate value
 * ($valued) and its options ($opts). */
static void put_command_names(FILE *f, const cli_command *cmd)
{
	const rg_opt *o;
	size_t k, base;
	bool any = false;

	fprintf(f, "\t%s)\n\t\tvalued='", cmd->name);
	for (k = 0; (o = cli_option_row(k, &base)); k++)
		if ((o->cmds & cmd->bit) && o->kind != RG_OPT_FLAG &&
		    !(o->flags & (RG_OPT_OPTVAL | RG_OPT_HIDDEN))) {
			fputs(any ? "|" : "", f);
			put_pattern(f, o);
			any = true;
		}
	fputs("'\n\t\topts='", f);
	any = false;
	for (k = 0; (o = cli_option_row(k, &base)); k++) {
		if (!(o->cmds & cmd->bit) || (o->flags & RG_OPT_HIDDEN))
			continue;
		if (o->short_name)
			fprintf(f, "%s-%c", any ? " " : "", o->short_name);
		fprintf(f, "%s--%s", any || o->short_name ? " " : "", o->name);
		if (o->flags & RG_OPT_NEGATABLE)
			fprintf(f, " --no-%s", o->name);
		any = true;
	}
	fputs("' ;;\n", f);
}

/* What completes the value of each of cmd's options (after it: $prev). */
static void put_command_values(FILE *f, const cli_command *cmd)
{
	const rg_opt *o;
	size_t k, base;

	fprintf(f, "\t%s)\n\t\tcase $prev in\n", cmd->name);
	for (k = 0; (o = cli_option_row(k, &base)); k++) {
		if (!(o->cmds & cmd->bit) || (o->flags & RG_OPT_HIDDEN) ||
		    o->kind == RG_OPT_FLAG)
			continue;
		fputs("\t\t", f);
		put_pattern(f, o);
		/* --color=WHEN only: --color alone is no value */
		fputs(o->flags & RG_OPT_OPTVAL ? ") [[ -n $eq ]] && { " : ") ", f);
		if (o->words) {
			fputs(o->kind == RG_OPT_LIST ? "_racegate_list " : "_racegate_words ", f);
			put_words_arg(f, o->words);
		} else if (o->kind == RG_OPT_FILE || o->kind == RG_OPT_LIST) {
			fputs("_racegate_files", f);      /* --at FILE */
		} else if (o->kind == RG_OPT_DIR) {
			fputs("_racegate_dirs", f);
		} else {
			fputs("COMPREPLY=()", f);         /* a number, a word */
		}
		fputs(o->flags & RG_OPT_OPTVAL ? "; return; } ;;\n" : "; return ;;\n", f);
	}
	fputs("\t\tesac ;;\n", f);
}

static const char completion_head[] =
"# bash completion for racegate, made by `racegate completion bash` from its\n"
"# option table.  Load it with: source <(racegate completion bash)\n"
"\n"
"_racegate_words() { COMPREPLY=($(compgen -W \"$1\" -- \"$cur\")); }\n"
"# The last item of a comma-separated list\n"
"_racegate_list() {\n"
"\tlocal pre=\n"
"\t[[ $cur == *,* ]] && pre=${cur%,*},\n"
"\tCOMPREPLY=($(compgen -P \"$pre\" -W \"$1\" -- \"${cur##*,}\"))\n"
"\tcompopt -o nospace 2>/dev/null\n"
"}\n"
"_racegate_dirs() {\n"
"\tlocal IFS=$'\\n'\n"
"\tcompopt -o filenames 2>/dev/null\n"
"\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n"
"}\n"
"# Files; with a pattern, folders and the files it matches\n"
"_racegate_files() {\n"
"\tlocal IFS=$'\\n'\n"
"\tcompopt -o filenames 2>/dev/null\n"
"\tif [[ -n ${1-} ]]; then\n"
"\t\tCOMPREPLY=($(compgen -d -- \"$cur\") $(compgen -f -X \"!$1\" -- \"$cur\"))\n"
"\telse\n"
"\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
"\tfi\n"
"}\n"
"\n"
"_racegate() {\n"
"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= eq= cmd valued opts i npos=0\n"
"\t((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
"\t# --name=VALUE: bash splits the word at '='\n"
"\tif [[ $cur == = ]]; then\n"
"\t\tcur= eq=1\n"
"\telif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
"\t\tprev=${COMP_WORDS[COMP_CWORD-2]} eq=1\n"
"\tfi\n"
"\tif ((COMP_CWORD == 1)); then\n";

static const char completion_scan[] =
"\t*) return ;;\n"
"\tesac\n"
"\t# the words before: after '--' the program; count the arguments\n"
"\tfor ((i = 2; i < COMP_CWORD; i++)); do\n"
"\t\tcase ${COMP_WORDS[i]} in\n"
"\t\t--)\n"
"\t\t\tif ((i == COMP_CWORD - 1)); then\n"
"\t\t\t\tCOMPREPLY=($(compgen -c -- \"$cur\"))\n"
"\t\t\telse\n"
"\t\t\t\t_racegate_files\n"
"\t\t\tfi\n"
"\t\t\treturn ;;\n"
"\t\t=) ((i++)) ;;\n"
"\t\t-*) [[ \"|$valued|\" == *\"|${COMP_WORDS[i]}|\"* && ${COMP_WORDS[i+1]-} != = ]] &&\n"
"\t\t\t((i++)) ;;\n"
"\t\t*) ((npos++)) ;;\n"
"\t\tesac\n"
"\tdone\n"
"\t# the value of the option before\n"
"\tcase $cmd in\n";

static const char completion_tail[] =
"\tesac\n"
"\tif [[ $cur == -* && -z $eq ]]; then\n"
"\t\t_racegate_words \"$opts\"\n"
"\t\treturn\n"
"\tfi\n"
"\t# an argument\n"
"\tcase $cmd:$npos in\n"
"\trun:0 | check:0 | attach:1) _racegate_files '*.y*ml' ;;\n"
"\tattach:0) _racegate_words \"$(command ps -o pid= -u \"$(id -u)\" 2>/dev/null)\" ;;\n"
"\tlines:0) _racegate_files ;;\n"
"\tcompletion:0) _racegate_words bash ;;\n"
"\thelp:0) _racegate_words \"$commands gates\" ;;\n"
"\texplore:*) _racegate_words \"$opts\" ;;\n"
"\tesac\n"
"}\n"
"complete -F _racegate racegate\n";

void cli_print_completion_bash(FILE *f)
{
	size_t n, i;
	const cli_command *cmds = cli_commands(&n);

	fputs(completion_head, f);
	fputs("\t\t_racegate_words \"", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s ", cmds[i].name);
	fputs("--help --version\"\n\t\treturn\n\tfi\n", f);
	fputs("\tlocal commands='", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", cmds[i].name);
	fputs("'\n\tcmd=${COMP_WORDS[1]}\n\tcase $cmd in\n", f);
	for (i = 0; i < n; i++)
		put_command_names(f, &cmds[i]);
	fputs(completion_scan, f);
	for (i = 0; i < n; i++)
		put_command_values(f, &cmds[i]);
	fputs(completion_tail, f);
}
