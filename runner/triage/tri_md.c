/*
 * tri_md: racegate triage's Markdown report (--markdown, tri_int.h): the
 * races in a table, then each HARMFUL race as a bug report a person can
 * paste into an issue: the two accesses and their source lines, the order
 * that fails drawn as a Mermaid sequence diagram, the command that
 * replays it and the gates file itself.
 */
#include "tri_int.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* Text in a Markdown table cell: a '|' would end the cell. */
static void put_cell(rg_buf *b, const char *s)
{
	for (; s && *s; s++)
		if (*s == '|')
			rg_buf_puts(b, "\\|");
		else if (*s == '\n')
			rg_buf_puts(b, " ");
		else
			rg_buf_add(b, s, 1);
}

/* Inline code: backquotes enough that none inside ends it. */
static void put_code(rg_buf *b, const char *s)
{
	const char *fence = strchr(s, '`') ? "`` " : "`";

	rg_buf_puts(b, fence);
	put_cell(b, s);
	rg_buf_puts(b, strchr(s, '`') ? " ``" : "`");
}

static void put_side_row(rg_buf *b, const char *which, const tri_side *s)
{
	char *at = tri_side_at(s);

	rg_buf_printf(b, "| %s | ", which);
	put_code(b, at);
	rg_buf_puts(b, " | ");
	put_cell(b, s->function ? s->function : "?");
	rg_buf_puts(b, " | ");
	put_cell(b, s->start ? s->start : "main");
	if (s->nth)
		rg_buf_printf(b, " (#%d)", s->nth);
	rg_buf_puts(b, " | ");
	if (s->text)
		put_code(b, s->text);
	rg_buf_puts(b, " |\n");
	free(at);
}

/* "stale_conn.c:50 `free(c);`" for a diagram's note. */
static void put_step(rg_buf *b, const tri_side *s)
{
	char *at = tri_side_at(s);

	explore_put_mermaid_text(b, at);
	if (s->text) {
		rg_buf_puts(b, " ");
		explore_put_mermaid_text(b, s->text);
	}
	free(at);
}

/* The failing order as the gates force it: f's access first, then o's. */
static void put_diagram(rg_buf *b, const tri_race *r)
{
	const tri_side *f = &r->s[r->which], *o = &r->s[!r->which];
	const tri_order *t = &r->o[r->which];

	rg_buf_printf(b, "```mermaid\nsequenceDiagram\n    participant %s\n"
		      "    participant %s\n", f->alias, o->alias);
	rg_buf_printf(b, "    Note over %s: waits at ", o->alias);
	put_step(b, o);
	rg_buf_printf(b, "\n    Note over %s: ", f->alias);
	put_step(b, f);
	rg_buf_printf(b, "\n    %s->>%s: %s-done\n    Note over %s: ", f->alias, o->alias,
		      f->alias, o->alias);
	put_step(b, o);
	rg_buf_printf(b, "\n    Note over %s,%s: ", f->alias, o->alias);
	explore_put_mermaid_text(b, t->failure ? t->failure : "failed");
	rg_buf_puts(b, "\n```\n\n");
}

/* The file at path, as a fenced block; nothing when it cannot be read. */
static void put_file(rg_buf *b, const char *path)
{
	FILE *fp = fopen(path, "r");
	char buf[4096];
	size_t n;

	if (!fp)
		return;
	rg_buf_puts(b, "```yaml\n");
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		rg_buf_add(b, buf, n);
	if (b->len && b->s[b->len - 1] != '\n')
		rg_buf_puts(b, "\n");
	rg_buf_puts(b, "```\n\n");
	fclose(fp);
}

static void put_harmful(rg_buf *b, const tri_opts *o, const tri_race *r)
{
	const char *file = r->files[0] ? r->files[0] : r->files[1];

	rg_buf_printf(b, "## Race %d: HARMFUL\n\n", r->no);
	put_cell(b, r->what);
	rg_buf_puts(b, "\n\n| access | place | function | thread (start) | source |\n"
		    "|---|---|---|---|---|\n");
	put_side_row(b, "first", &r->s[0]);
	put_side_row(b, "second", &r->s[1]);
	rg_buf_puts(b, "\n");
	if (r->searched)
		rg_buf_printf(b, "%s: the gates file below holds the order a search found, "
			      "with the races' places as its only scheduling points.\n\n",
			      r->o[0].failed || r->o[1].failed ?
			      "A forced order of the two accesses failed only sometimes" :
			      "No forced order of the two accesses alone fails");
	else
		put_diagram(b, r);
	if (!file)
		return;
	rg_buf_puts(b, "Replay it:\n\n```sh\nracegate run --repeat 20 ");
	rg_buf_puts(b, file);
	rg_buf_printf(b, "\n```\n\nIt reproduced %d of %ld replays. The gates file:\n\n",
		      r->verified, o->verify);
	put_file(b, file);
}

int tri_markdown(const tri_opts *o, const tri_race *rs, size_t n, rg_err *err)
{
	rg_buf b = RG_BUF_INIT;
	size_t harmful = 0;
	int rc;

	const char *reports[] = { o->tsan, o->helgrind, o->drd };
	size_t given = 0;

	rg_buf_puts(&b, "# racegate triage of ");
	for (size_t i = 0; i < 3; i++)
		if (reports[i]) {
			rg_buf_puts(&b, given++ ? " and " : "");
			put_code(&b, reports[i]);
		}
	rg_buf_puts(&b, "\n\nThe program: ");
	for (size_t i = 0; o->command[i]; i++) {
		rg_buf_puts(&b, i ? " " : "");
		put_code(&b, o->command[i]);
	}
	rg_buf_puts(&b, "\n\n| race | first | second | verdict | file |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		const tri_race *r = &rs[i];

		if (r->note) {
			rg_buf_printf(&b, "| %d | | | not triaged: ", r->no);
			put_cell(&b, r->note);
			rg_buf_puts(&b, " | |\n");
			continue;
		}
		rg_buf_printf(&b, "| %d | ", r->no);
		put_code(&b, r->place[0]);
		rg_buf_puts(&b, " | ");
		put_code(&b, r->place[1]);
		rg_buf_printf(&b, " | %s%s%s | ", r->v == TRI_HARMFUL ? "**" : "",
			      tri_verdict_name(r->v), r->v == TRI_HARMFUL ? "**" : "");
		for (int k = 0; k < 2; k++)
			if (r->files[k]) {
				rg_buf_puts(&b, k && r->files[0] ? " " : "");
				put_code(&b, r->files[k]);
			}
		rg_buf_puts(&b, " |\n");
		harmful += r->v == TRI_HARMFUL;
	}
	rg_buf_puts(&b, "\n");
	if (!harmful)
		rg_buf_puts(&b, "No race is HARMFUL.\n");
	for (size_t i = 0; i < n; i++)
		if (!rs[i].note && rs[i].v == TRI_HARMFUL)
			put_harmful(&b, o, &rs[i]);
	rc = report_write_file(o->markdown, &b, err);
	rg_buf_release(&b);
	return rc;
}
