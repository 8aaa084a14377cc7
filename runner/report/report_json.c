/*
 * report_json: --report FILE.json, one object for the session with one
 * object per run.  docs/report.md is the schema; REPORT_SCHEMA_VERSION
 * changes when a field changes meaning or goes away (adding one does not).
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gates.h"

#ifndef RACEGATE_VERSION
#define RACEGATE_VERSION "0.0.0"
#endif

size_t utf8_seq(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0], v;
	size_t len, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		v = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		v = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10ffff)) ||
	    (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

void json_strn(rg_buf *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	if (!s) {
		rg_buf_puts(b, "null");
		return;
	}
	rg_buf_add(b, "\"", 1);
	while (i < n) {
		unsigned cp;
		size_t l = utf8_seq(u + i, n - i, &cp);

		if (l == 0) {                      /* not UTF-8: U+FFFD */
			rg_buf_puts(b, "\\ufffd");
			i++;
			continue;
		}
		if (cp == '"' || cp == '\\') {
			rg_buf_add(b, "\\", 1);
			rg_buf_add(b, s + i, 1);
		} else if (cp == '\n') {
			rg_buf_puts(b, "\\n");
		} else if (cp == '\t') {
			rg_buf_puts(b, "\\t");
		} else if (cp == '\r') {
			rg_buf_puts(b, "\\r");
		} else if (cp < 0x20 || cp == 0x7f) {
			rg_buf_printf(b, "\\u%04x", cp);
		} else {
			rg_buf_add(b, s + i, l);
		}
		i += l;
	}
	rg_buf_add(b, "\"", 1);
}

void json_str(rg_buf *b, const char *s)
{
	json_strn(b, s, s ? strlen(s) : 0);
}

void json_num(rg_buf *b, double v)
{
	if (!isfinite(v))
		v = 0;
	rg_buf_printf(b, "%.3f", v);
}

const char *tl_kind_name(int kind)
{
	if (kind == TL_WHEN_FAULT)
		return "unreadable";
	switch ((enum gate_note_kind)kind) {
	case GATE_NOTE_ARRIVE: return "arrive";
	case GATE_NOTE_OPEN: return "open";
	case GATE_NOTE_HOLD: return "hold";
	case GATE_NOTE_RELEASE: return "release";
	case GATE_NOTE_TIMEOUT: return "timeout";
	case GATE_NOTE_BIND: return "bind";
	}
	return "other";
}

int report_check_path(const char *path, rg_err *err)
{
	int fd;

	if (!strcmp(path, "-"))
		return 0;
	/* a new file is taken out again; an old one is opened, not truncated */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0) {
		close(fd);
		unlink(path);
		return 0;
	}
	if (errno == EEXIST)
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == ENXIO)   /* a FIFO with no reader yet: one may come */
		return 0;
	return rg_error(err, "cannot write '%s': %s", path, strerror(errno));
}

int report_write_file(const char *path, const rg_buf *b, rg_err *err)
{
	FILE *f;
	bool ok;

	if (!strcmp(path, "-")) {
		fwrite(b->s ? b->s : "", 1, b->len, stdout);
		return fflush(stdout) == 0 ? 0 :
			rg_error(err, "cannot write to stdout: %s", strerror(errno));
	}
	f = fopen(path, "w");
	if (!f)
		return rg_error(err, "cannot write '%s': %s", path, strerror(errno));
	ok = fwrite(b->s ? b->s : "", 1, b->len, f) == b->len;
	if (fclose(f) != 0 || !ok)
		return rg_error(err, "cannot write '%s': %s", path, strerror(errno));
	return 0;
}

static void key(rg_buf *b, const char *k, bool *first)
{
	if (!*first)
		rg_buf_add(b, ",", 1);
	*first = false;
	json_str(b, k);
	rg_buf_add(b, ":", 1);
}

static void kv_str(rg_buf *b, const char *k, const char *v, bool *first)
{
	key(b, k, first);
	json_str(b, v);
}

static void kv_num(rg_buf *b, const char *k, double v, bool *first)
{
	key(b, k, first);
	json_num(b, v);
}

static void kv_int(rg_buf *b, const char *k, long long v, bool *first)
{
	key(b, k, first);
	rg_buf_printf(b, "%lld", v);
}

static void kv_bool(rg_buf *b, const char *k, bool v, bool *first)
{
	key(b, k, first);
	rg_buf_puts(b, v ? "true" : "false");
}

static void put_signal(rg_buf *b, int signo)
{
	const char *name = signo ? spec_signal_name(signo) : NULL;

	if (!signo)
		rg_buf_puts(b, "null");
	else if (name)
		json_str(b, name);
	else
		rg_buf_printf(b, "\"%d\"", signo);
}

static void put_spec(rg_buf *b, const report_ctx *rc)
{
	const spec *sp = rc->sp;
	const spec_expect *x = &sp->expect;
	bool first = true, f2;
	size_t i;

	rg_buf_puts(b, "{");
	kv_str(b, "path", sp->path, &first);
	kv_str(b, "name", sp->name, &first);
	key(b, "command", &first);
	rg_buf_puts(b, "[");
	for (i = 0; rc->p->argv && rc->p->argv[i]; i++) {
		if (i)
			rg_buf_puts(b, ",");
		json_str(b, rc->p->argv[i]);
	}
	rg_buf_puts(b, "]");
	key(b, "gates", &first);
	rg_buf_puts(b, "[");
	for (i = 0; i < sp->ngates; i++) {
		f2 = true;
		rg_buf_puts(b, i ? ",{" : "{");
		kv_str(b, "name", sp->gates[i].name, &f2);
		kv_str(b, "at", sp->gates[i].at, &f2);
		kv_int(b, "line", sp->gates[i].pos.line, &f2);
		kv_bool(b, "optional", sp->gates[i].optional, &f2);
		rg_buf_puts(b, "}");
	}
	rg_buf_puts(b, "]");
	key(b, "expect", &first);
	f2 = true;
	rg_buf_puts(b, "{");
	if (!x->any || x->has_exit)
		kv_int(b, "exit", x->any ? x->exit_code : 0, &f2);
	if (x->has_signal) {
		key(b, "signal", &f2);
		put_signal(b, x->signo);
	}
	if (x->stdout_text) {
		kv_str(b, "stdout", x->stdout_text, &f2);
		kv_bool(b, "stdout_regex", x->stdout_regex, &f2);
	}
	if (x->stderr_text) {
		kv_str(b, "stderr", x->stderr_text, &f2);
		kv_bool(b, "stderr_regex", x->stderr_regex, &f2);
	}
	if (x->deadlock)
		kv_bool(b, "deadlock", true, &f2);
	if (x->multiline)
		kv_bool(b, "multiline", true, &f2);
	rg_buf_puts(b, "}}");
}

static void put_event(rg_buf *b, const tl_entry *e)
{
	bool first = true;

	rg_buf_puts(b, "{");
	kv_num(b, "t_ms", e->t_ms, &first);
	kv_int(b, "tid", e->tid, &first);
	if (e->pid)
		kv_int(b, "pid", e->pid, &first);
	kv_str(b, "thread", e->who, &first);
	kv_str(b, "kind", tl_kind_name(e->kind), &first);
	key(b, "gate_index", &first);
	if (e->gate_index >= 0)
		rg_buf_printf(b, "%d", e->gate_index);
	else
		rg_buf_puts(b, "null");
	kv_str(b, "gate", e->gate, &first);
	kv_str(b, "where", e->where, &first);
	kv_str(b, "event", e->event, &first);
	key(b, "held_ms", &first);
	if (e->kind == GATE_NOTE_RELEASE || e->kind == GATE_NOTE_TIMEOUT)
		json_num(b, e->held_ms);
	else
		rg_buf_puts(b, "null");
	kv_str(b, "text", e->what, &first);
	rg_buf_puts(b, "}");
}

/*
 * A gate's condition: how many arrivals it rejected, how many of those
 * because a read faulted, and the first such fault; null without when:.
 */
static void put_when(rg_buf *b, const spec *sp, const run_result *r, size_t i,
		     bool *first)
{
	bool f = true;

	key(b, "when", first);
	if (!sp->gates[i].when) {
		rg_buf_puts(b, "null");
		return;
	}
	rg_buf_puts(b, "{");
	kv_str(b, "condition", sp->gates[i].when, &f);
	kv_int(b, "false", r->when_false ? (long long)r->when_false[i] : 0, &f);
	kv_int(b, "unreadable", r->when_faults ? (long long)r->when_faults[i] : 0, &f);
	kv_str(b, "first_unreadable", r->when_fault ? r->when_fault[i] : NULL, &f);
	rg_buf_puts(b, "}");
}

static void put_run(rg_buf *b, const report_ctx *rc, const run_record *rec)
{
	const run_result *r = &rec->r;
	bool first = true, f2;
	size_t i, j;

	rg_buf_puts(b, "{");
	kv_int(b, "run", rec->no, &first);
	kv_str(b, "outcome", run_outcome_name(r->outcome), &first);
	kv_bool(b, "ok", rec->ok, &first);
	kv_int(b, "exit_status", run_outcome_exit(r->outcome), &first);
	kv_bool(b, "exited", r->exited, &first);
	key(b, "exit_code", &first);
	if (r->exited && !r->term_signal && r->exit_code >= 0)
		rg_buf_printf(b, "%d", r->exit_code);
	else
		rg_buf_puts(b, "null");
	key(b, "signal", &first);
	put_signal(b, r->term_signal);
	kv_bool(b, "core_dumped", r->core_dumped, &first);
	kv_num(b, "start_ms", rec->start_ms, &first);
	kv_num(b, "elapsed_ms", r->elapsed_ms, &first);
	kv_str(b, "note", r->note, &first);
	key(b, "gates", &first);
	rg_buf_puts(b, "[");
	for (i = 0; i < r->ngates && i < rc->sp->ngates; i++) {
		f2 = true;
		rg_buf_puts(b, i ? ",{" : "{");
		kv_str(b, "name", rc->sp->gates[i].name, &f2);
		kv_bool(b, "reached", r->gate_reached && r->gate_reached[i], &f2);
		kv_bool(b, "timed_out", r->gate_timed_out && r->gate_timed_out[i], &f2);
		put_when(b, rc->sp, r, i, &f2);
		rg_buf_puts(b, "}");
	}
	rg_buf_puts(b, "]");
	key(b, "unbound_aliases", &first);
	rg_buf_puts(b, "[");
	for (i = 0; i < r->nunbound; i++) {
		if (i)
			rg_buf_puts(b, ",");
		json_str(b, r->unbound[i]);
	}
	rg_buf_puts(b, "]");
	kv_int(b, "arrivals", (long long)r->arrivals, &first);
	kv_int(b, "breakpoint_hits", (long long)r->bp_hits, &first);
	key(b, "events", &first);
	rg_buf_puts(b, "[");
	for (i = 0; i < r->ntl; i++) {
		if (i)
			rg_buf_puts(b, ",");
		put_event(b, &r->tl[i]);
	}
	rg_buf_puts(b, "]");
	kv_int(b, "events_dropped", (long long)r->tl_dropped, &first);
	key(b, "diagnosis", &first);
	if (!r->ndiag && !r->chain) {
		rg_buf_puts(b, "null");
	} else {
		f2 = true;
		rg_buf_puts(b, "{");
		kv_str(b, "chain", r->chain, &f2);
		key(b, "threads", &f2);
		rg_buf_puts(b, "[");
		for (i = 0; i < r->ndiag; i++) {
			const diag_thread *d = &r->diag[i];
			bool f3 = true;

			rg_buf_puts(b, i ? ",{" : "{");
			kv_int(b, "tid", d->tid, &f3);
			if (d->pid)
				kv_int(b, "pid", d->pid, &f3);
			kv_str(b, "thread", d->label, &f3);
			kv_str(b, "state", d->state, &f3);
			kv_str(b, "where", d->where, &f3);
			key(b, "backtrace", &f3);
			rg_buf_puts(b, "[");
			for (j = 0; j < d->nbacktrace; j++) {
				if (j)
					rg_buf_puts(b, ",");
				json_str(b, d->backtrace[j]);
			}
			rg_buf_puts(b, "]}");
		}
		rg_buf_puts(b, "]}");
	}
	key(b, "stdout", &first);
	json_strn(b, r->out.s ? r->out.s : "", r->out.len);
	key(b, "stderr", &first);
	json_strn(b, r->err.s ? r->err.s : "", r->err.len);
	rg_buf_puts(b, "}");
}

int report_json_write(const report_ctx *rc, const char *path, rg_err *err)
{
	rg_buf b = RG_BUF_INIT;
	size_t counts[OUT_ERROR + 1] = { 0 };
	bool first = true, f2 = true;
	size_t i;
	int k, ret;

	for (i = 0; i < rc->nruns; i++)
		counts[rc->runs[i].r.outcome]++;
	rg_buf_puts(&b, "{");
	kv_str(&b, "schema", "racegate-report", &first);
	kv_int(&b, "version", REPORT_SCHEMA_VERSION, &first);
	kv_str(&b, "racegate", RACEGATE_VERSION, &first);
	kv_int(&b, "started_unix_ms", rc->started_unix_ms, &first);
	kv_num(&b, "elapsed_ms", rc->elapsed_ms, &first);
	key(&b, "spec", &first);
	put_spec(&b, rc);
	key(&b, "summary", &first);
	rg_buf_puts(&b, "{");
	kv_int(&b, "requested", rc->repeat, &f2);
	kv_int(&b, "runs", (long long)rc->nruns, &f2);
	kv_int(&b, "jobs", rc->jobs, &f2);
	kv_int(&b, "exit_status", rc->status, &f2);
	kv_str(&b, "stopped", rc->stopped, &f2);
	key(&b, "outcomes", &f2);
	rg_buf_puts(&b, "{");
	f2 = true;
	for (k = 0; k <= OUT_ERROR; k++)
		if (counts[k])
			kv_int(&b, run_outcome_name((enum run_outcome)k),
			       (long long)counts[k], &f2);
	rg_buf_puts(&b, "}}");
	key(&b, "runs", &first);
	rg_buf_puts(&b, "[");
	for (i = 0; i < rc->nruns; i++) {
		if (i)
			rg_buf_puts(&b, ",\n");
		put_run(&b, rc, &rc->runs[i]);
	}
	rg_buf_puts(&b, "]}\n");
	ret = report_write_file(path, &b, err);
	rg_buf_release(&b);
	return ret;
}
