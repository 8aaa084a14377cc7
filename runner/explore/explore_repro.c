/*
 * racegate explore's gates file (explore_int.h): written from the failing
 * run at the first level of detail whose replays all reproduce, with
 * --fewer-gates the gates replays say are not needed dropped, traced
 * (--trace) and shown in Markdown (--markdown).
 */
#include "explore_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interrupt.h"

/* The directory of path ("." when none), malloc'd. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/* Is dir the current directory? */
static bool is_cwd(const char *dir)
{
	char a[PATH_MAX], b[PATH_MAX];

	return realpath(dir, a) && realpath(".", b) && !strcmp(a, b);
}

/*
 * The trace (--trace) of a replay of the gates file that reproduced, as
 * `racegate run --trace` writes it; 0, or -1 said.
 */
static int write_trace(const struct xctx *c, const spec *sp, const plan *p,
		       const run_record *rec)
{
	report_ctx rc;
	rg_err err = RG_ERR_INIT;

	memset(&rc, 0, sizeof(rc));
	rc.sp = sp;
	rc.p = p;
	rc.runs = rec;
	rc.nruns = 1;
	rc.elapsed_ms = rec->r.elapsed_ms;
	if (report_trace_write(&rc, c->o->trace, &err) < 0) {
		rg_say("--trace: %s", err.msg);
		return -1;
	}
	return 0;
}

/*
 * One replay of the file's plan p with options base, within --time: 0
 * judged (res holds it), 1 cut short by a signal or --time (res released,
 * not judged).
 */
static int replay_once(struct xctx *c, plan *p, const run_opts *base, run_result *res)
{
	run_opts o = *base;
	long limit = explore_run_limit(c, base->timeout_ms);

	if (!limit) {
		c->out_of_time = true;
		return 1;
	}
	o.timeout_ms = limit;
	run_once(p, &o, res);
	if (res->outcome == OUT_INTERRUPTED || interrupt_signal() ||
	    explore_cut_by_time(c, base->timeout_ms, limit,
				res->elapsed_ms >= (double)limit)) {
		run_result_release(res);
		return 1;
	}
	return 0;
}

/* --jobs J: the replays of one file, J at a time (explore_jobs.c) */
struct vjobs {
	struct xctx *c;
	plan *p;
	const run_opts *o;
	long n, ok, ran;
};

static int vjob_run(void *ctx, long k, explore_run *r, explore_dev **devs, size_t *ndevs)
{
	struct vjobs *v = ctx;
	run_result res;
	int rc = replay_once(v->c, v->p, v->o, &res);

	(void)k;
	memset(r, 0, sizeof(*r));
	*devs = NULL;
	*ndevs = 0;
	if (!rc) {
		r->fail = res.outcome == OUT_REPRODUCED ? XF_EXPECTED : XF_NONE;
		run_result_release(&res);
	}
	return rc;
}

static bool vjob_take(void *ctx, long k, explore_run *r, explore_dev *devs, size_t ndevs)
{
	struct vjobs *v = ctx;

	(void)ndevs;
	v->ran++;
	v->ok += r->fail == XF_EXPECTED;
	explore_progress(v->c, XP_VERIFY, k + 1, v->n, 0);
	explore_run_release(r);
	free(devs);
	return false;
}

static bool vjob_more(void *ctx, long k)
{
	struct vjobs *v = ctx;

	return k < v->n && !explore_time_up(v->c);
}

/*
 * Replays yaml as `racegate run FILE --repeat n` would (the file's own
 * command, relative to dir), --jobs at a time, until --time or a signal;
 * how many runs were REPRODUCED, or -1; *ran how many were judged.  With
 * trace, when all n did, writes the trace of the first (--trace).
 */
static long verify_yaml(struct xctx *c, const char *yaml, const char *dir, long n,
			bool trace, long *ran)
{
	spec *sp = NULL;
	spec_diags d = SPEC_DIAGS_INIT;
	rg_err err = RG_ERR_INIT;
	plan p;
	run_opts o;
	run_record first;
	bool kept = false;
	long ok = 0;

	*ran = 0;
	memset(&p, 0, sizeof(p));
	memset(&first, 0, sizeof(first));
	if (spec_load_string(yaml, strlen(yaml), c->o->out ? c->o->out : "repro", dir,
			     &sp, &d) < 0)
		rg_bug("explore wrote a gates file that does not load: %s", d.v[0].msg);
	p.source_dir = c->o->source_dir;
	if (plan_build(&p, sp, NULL, &d, &err) < 0) {
		rg_say("cannot replay the gates file: %s", d.nerrors ? d.v[0].msg : err.msg);
		ok = -1;
		goto out;
	}
	o = c->ro;
	o.quiet_ms = c->o->quiet_ms;   /* as racegate run has it */
	o.timeout_ms = sp->timeout_ms;
	/* the file's stdin:, as racegate run gives it: what the file says */
	o.has_stdin = sp->has_stdin;
	o.stdin_data = sp->stdin_data;
	o.stdin_len = sp->stdin_len;
	o.on_deadlock = (int)sp->on_deadlock;
	if (c->o->jobs > 1 && n > 1 && !trace) {
		static const explore_jobs_ops ops = { vjob_run, vjob_take, vjob_more, NULL };
		struct vjobs v = { c, &p, &o, n, 0, 0 };

		explore_progress(c, XP_VERIFY, 0, n, 0);
		if (explore_jobs_run((int)c->o->jobs, &ops, &v) < 0)
			ok = -1;
		else
			ok = v.ok;
		*ran = v.ran;
		goto out;
	}
	for (long i = 0; i < n && !interrupt_signal() && !explore_time_up(c); i++) {
		run_result res;

		explore_progress(c, XP_VERIFY, i, n, 0);
		if (replay_once(c, &p, &o, &res))
			break;
		(*ran)++;
		ok += res.outcome == OUT_REPRODUCED;
		rg_trace("replay %ld of the gates file: %s%s%s", i + 1,
			 run_outcome_name(res.outcome), res.note ? ": " : "",
			 res.note ? res.note : "");
		if (trace && !kept && res.outcome == OUT_REPRODUCED) {
			first.no = 1;
			first.ok = true;
			first.r = res;
			kept = true;
			continue;
		}
		run_result_release(&res);
	}
	if (kept && ok == n && write_trace(c, sp, &p, &first) < 0)
		ok = -1;
out:
	explore_progress_clear(c);
	if (kept)
		run_result_release(&first.r);
	plan_release(&p);
	spec_diags_release(&d);
	spec_free(sp);
	return ok;
}

int explore_save(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	bool ok = f && fputs(text, f) >= 0;

	if (f && fclose(f) != 0)
		ok = false;
	if (!ok) {
		rg_say("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* How many gates a gates file that explore wrote has. */
static size_t count_gates(const char *yaml)
{
	size_t n = 0;

	for (const char *p = yaml; (p = strstr(p, "\n  - {name: ")); p++)
		n++;
	return n;
}

/* Does the file at path hold exactly the n bytes at data? */
static bool holds(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "re");
	char buf[65536];
	size_t got, at = 0;
	bool same = f != NULL;

	while (same && (got = fread(buf, 1, sizeof(buf), f)) > 0) {
		same = at + got <= n && !memcmp(buf, data + at, got);
		at += got;
	}
	if (f)
		fclose(f);
	return same && at == n;
}

/*
 * Puts the n bytes at data in a new file at path; 1 made, 0 a file there
 * holds them already (left as it is), -1 error (errno; EEXIST: a file
 * there holds other bytes, which is not explore's to overwrite).
 */
static int put_bytes(const char *path, const char *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0 && errno == EEXIST)
		return holds(path, data, n) ? 0 : (errno = EEXIST, -1);
	if (fd < 0)
		return -1;
	while (n) {
		ssize_t w = write(fd, data, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w ? errno : ENOSPC;

			close(fd);
			unlink(path);
			errno = e;
			return -1;
		}
		data += w;
		n -= (size_t)w;
	}
	if (close(fd) < 0) {
		unlink(path);
		return -1;
	}
	return 1;
}

/*
 * The file's stdin: when explore read one (explore_write_in.stdin_yaml):
 * the bytes as text, or, when they are not UTF-8 text or are long,
 * {file: NAME} with the bytes in NAME beside the gates file (repro.stdin
 * for repro.yaml; repro-2.stdin ... when a file of other bytes has that
 * name), or a temporary file without -o.  *side: the file explore made,
 * to remove unless the gates file is written.  *value NULL: no stdin.
 * 0, or -1 said.
 */
static int stdin_value(const struct xctx *c, const char *dir, char **value, char **side)
{
	const char *out = c->o->out, *tmp = getenv("TMPDIR");
	const char *base = out && strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
	char *path = NULL, *name;
	size_t n = base ? strlen(base) : 0;
	int made = -1, fd;

	*value = *side = NULL;
	if (!c->ro.has_stdin ||
	    (*value = explore_stdin_yaml(c->ro.stdin_data, c->ro.stdin_len)))
		return 0;
	n -= n > 5 && !strcmp(base + n - 5, ".yaml") ? 5 :
	     n > 4 && !strcmp(base + n - 4, ".yml") ? 4 : 0;
	for (int k = 1; out && k < 10 && made < 0; k++) {
		name = k == 1 ? xasprintf("%.*s.stdin", (int)n, base) :
		       xasprintf("%.*s-%d.stdin", (int)n, base, k);
		free(path);
		path = base == out ? xstrdup(name) : xasprintf("%s/%s", dir, name);
		free(name);
		made = put_bytes(path, c->ro.stdin_data, c->ro.stdin_len);
		if (made < 0 && errno != EEXIST)
			break;
	}
	if (!out) {
		path = xasprintf("%s/racegate-stdin-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		fd = mkstemp(path);
		if (fd >= 0) {
			close(fd);
			unlink(path);
			made = put_bytes(path, c->ro.stdin_data, c->ro.stdin_len);
		}
	}
	if (made < 0) {
		rg_say("cannot write the program's stdin to '%s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	/* the file names it relative to itself */
	name = path + (out && base != out ? strlen(dir) + 1 : 0);
	if (!(*value = explore_stdin_yaml(name, strlen(name)))) {
		rg_say("cannot name '%s' in the gates file: its name is not UTF-8 text", path);
		if (made)
			unlink(path);
		free(path);
		return -1;
	}
	name = xasprintf("{file: %s}", *value);
	free(*value);
	*value = name;
	if (made)
		*side = path;
	else
		free(path);
	return 0;
}

/* Replays of a gates file that --trace may take before it gives up. */
#define TRACE_TRIES 3

/* --trace: a replay of yaml that reproduced, written; 0, 1 none did, -1 error. */
static int trace_replay(struct xctx *c, const char *yaml, const char *dir)
{
	char *why;
	long ran;

	for (int i = 0; i < TRACE_TRIES && !interrupt_signal() && !explore_time_up(c); i++) {
		long ok = verify_yaml(c, yaml, dir, 1, true, &ran);

		if (ok != 0)
			return ok < 0 ? -1 : 0;
	}
	if ((why = explore_stop_reason(c))) {
		printf("  no trace written: %s\n", why);
		free(why);
		return 1;
	}
	printf("  no trace written: %d replays of the gates file did not reproduce\n",
	       TRACE_TRIES);
	return 1;
}

/* Replays a candidate with fewer gates gets before the full --verify. */
#define SCREEN_RUNS 5

/*
 * yaml (written from in at level, and verified) with the gates the failure
 * does not need left out: each gate in turn, last first, is dropped when
 * the file without it still reproduces on every one of --verify replays
 * (SCREEN_RUNS first, so that most candidates cost few).  A gate that
 * made the order certain can look unneeded when the program's own timing
 * mostly gives that order: so the result must pass --verify again, with
 * fresh runs, else yaml stays.  Returns the file to write (yaml, or a new
 * one and yaml freed).
 */
static char *fewer_gates(struct xctx *c, struct search *se, const explore_write_in *in,
			 enum explore_write_level level, const char *dir, char *yaml)
{
	size_t n = explore_write_ngates(in, level), runs = 0;
	long ran;
	/* a hang costs its whole timeout per replay: fewer gates are not worth it */
	bool hangs = in->r->fail == XF_TIMEOUT ||
		     (in->expect && in->expect->timeout);
	bool *drop = xcalloc(n ? n : 1, sizeof(bool));
	long screen = c->o->verify < SCREEN_RUNS ? c->o->verify : SCREEN_RUNS;
	explore_write_in less = *in;
	char *cur = xstrdup(yaml);

	less.drop = drop;
	less.ndrop = n;
	for (size_t i = n; i-- > 0 && n > 1 && !hangs && !interrupt_signal() &&
	     !explore_time_up(c);) {
		rg_err err = RG_ERR_INIT;
		char *cand;

		drop[i] = true;
		cand = explore_write_yaml(&less, level, &err);
		if (cand && !strcmp(cand, cur)) {   /* it went with another */
			free(cand);
			continue;
		}
		/* a few replays turn most candidates down; the rest get them all */
		if (cand && (runs += (size_t)screen,
			     verify_yaml(c, cand, dir, screen, false, &ran) == screen) &&
		    (runs += (size_t)(c->o->verify - screen),
		     verify_yaml(c, cand, dir, c->o->verify - screen, false, &ran) ==
		     c->o->verify - screen)) {
			free(cur);
			cur = cand;
			continue;
		}
		drop[i] = false;
		free(cand);
	}
	se->gates_before = count_gates(yaml);
	if (strcmp(cur, yaml) && !interrupt_signal()) {
		runs += (size_t)c->o->verify;
		if (verify_yaml(c, cur, dir, c->o->verify, false, &ran) == c->o->verify) {
			free(yaml);
			yaml = cur;
			cur = NULL;
		}
	}
	se->gates_after = count_gates(yaml);
	if (hangs)
		printf("  gates: %zu, all kept (each replay of a hang lasts its "
		       "timeout)\n", se->gates_after);
	else
		printf("  gates: %zu for the schedule's switches, %zu the failure needs "
		       "(%zu replays to tell)\n", se->gates_before, se->gates_after, runs);
	free(cur);
	free(drop);
	return yaml;
}

/* The best file a level made so far: the most replays that reproduced. */
struct kept {
	char *yaml;
	long ok, ran;
};

/* Were the replays cut short (a signal, --time)? */
static bool stopped(const struct xctx *c)
{
	return interrupt_signal() || explore_time_up(c);
}

/*
 * The replays were cut short (a signal, --time) before a file reproduced
 * every --verify one: the best file so far is written all the same,
 * marked unverified in its header with its tally.  0 written, 1 not
 * (they were not cut short), -1 error.
 */
static int write_unverified(struct xctx *c, struct search *se, const struct kept *k,
			    char **written)
{
	char *why = explore_stop_reason(c), *text;

	if (!why)
		return 1;
	se->unverified = k->ran ?
		xasprintf("reproduced %ld of %ld replay%s before %s", k->ok, k->ran,
			  k->ran == 1 ? "" : "s", why) :
		xasprintf("not replayed before %s", why);
	free(why);
	text = xasprintf("# unverified: %s\n%s", se->unverified, k->yaml);
	if (explore_save(c->o->out, text) < 0) {
		free(text);
		return -1;
	}
	printf("  wrote %s, unverified: %s (--verify %ld)\n", c->o->out, se->unverified,
	       c->o->verify);
	*written = text;
	return 0;
}

int explore_write_repro(struct xctx *c, struct search *se, const char *id, char **written)
{
	char *dir = c->o->out ? dir_of(c->o->out) : xstrdup(".");
	char *exe_abs = NULL;
	char **cmd = c->o->command;
	char *save0 = cmd[0];
	char *in_stdin, *side;
	long best = -1, ran;
	int r = 1, traced = 1;
	bool no_runs = false;
	struct kept k = { NULL, -1, 0 };

	if (stdin_value(c, dir, &in_stdin, &side) < 0) {
		free(dir);
		return -1;
	}
	/* the file names its program relative to itself */
	if (!is_cwd(dir)) {
		exe_abs = realpath(c->p.exe, NULL);
		if (exe_abs)
			cmd[0] = exe_abs;
	}
	/* cut short (a signal, --time): the best file so far, when there is one */
	for (int lvl = 0; lvl < XW_NLEVELS && r == 1 && !(k.yaml && stopped(c)); lvl++) {
		/* the run's timeout is the search's: a failing run may be slow */
		explore_write_in in = { &se->fail_run, explore_file_points(c), cmd, id,
					"found by racegate explore",
					se->fail_run.fail == XF_EXPECTED ?
					&c->xspec->expect : NULL, NULL, 0, c->o->timeout_ms,
					in_stdin, no_runs };
		rg_err err = RG_ERR_INIT;
		char *yaml = explore_write_yaml(&in, (enum explore_write_level)lvl, &err);
		long ok;

		if (!yaml) {
			/* the next level may have what this one lacks */
			if (lvl + 1 == XW_NLEVELS && best < 0 && !se->nofile_err)
				se->nofile_err = xstrdup(err.msg);
			continue;
		}
		rg_trace("replaying this gates file %ld times:\n%s", c->o->verify, yaml);
		ok = verify_yaml(c, yaml, dir, c->o->verify, false, &ran);
		se->gates_before = se->gates_after = count_gates(yaml);
		if (ok >= 0 && ok > k.ok) {
			free(k.yaml);
			k = (struct kept){ xstrdup(yaml), ok, ran };
		}
		if (ok == c->o->verify && c->o->fewer_gates)
			yaml = fewer_gates(c, se, &in, (enum explore_write_level)lvl, dir, yaml);
		if (ok == c->o->verify) {
			traced = c->o->trace ? trace_replay(c, yaml, dir) : 1;
			if (traced < 0)
				ok = -1;
		}
		if (ok < 0) {
			r = -1;
		} else if (ok == c->o->verify && !c->o->out) {
			printf("  its gates file reproduced %ld/%ld under racegate run "
			       "(-o FILE.yaml writes it)\n", ok, c->o->verify);
			*written = yaml;
			yaml = NULL;
			r = 0;
		} else if (ok == c->o->verify) {
			r = explore_save(c->o->out, yaml) < 0 ? -1 : 0;
			if (!r) {
				printf("  wrote %s: reproduced %ld/%ld under racegate run\n",
				       c->o->out, ok, c->o->verify);
				*written = yaml;
				yaml = NULL;
			}
		}
		if (ok > best)
			best = ok;
		/* a thread named by what it runs that did not run it where the
		 * file needed it: the level again, by start routine and rank */
		if (r == 1 && ok >= 0 && !no_runs && yaml && strstr(yaml, "{runs: ")) {
			no_runs = true;
			lvl--;
		}
		free(yaml);
	}
	if (r == 1 && k.yaml && c->o->out)
		r = write_unverified(c, se, &k, written);
	free(k.yaml);
	if (r == 0 && traced == 0)
		printf("  wrote %s: the trace of a replay of the gates file (Perfetto)\n",
		       c->o->trace);
	se->reproduced = best > k.ok ? best : k.ok;
	*(se->found_file ? &se->repro_found : &se->repro_shrunk) = best;
	se->wrote = r == 0 && c->o->out;
	se->traced = r == 0 && traced == 0;
	if (side && !se->wrote)    /* nothing refers to it */
		unlink(side);
	else if (side)
		printf("  wrote %s: the program's stdin, which the gates file names\n", side);
	else if (se->wrote && c->ro.has_stdin && !strncmp(in_stdin, "{file:", 6))
		printf("  the gates file names the program's stdin in a file that holds it "
		       "already: %s\n", in_stdin);
	free(side);
	free(in_stdin);
	cmd[0] = save0;
	free(exe_abs);
	free(dir);
	return r;
}

/* The longest source line the report quotes; a longer one is cut, with "...". */
#define SRC_TEXT_MAX 80

/* The source files read for the report, each once: their lines. */
struct src_file {
	char *path;
	char **lines;          /* NULL: not readable */
	size_t nlines;
};

/* A source line as a report shows it: trimmed, runs of blanks as one, cut. */
static char *src_trim(char *line, size_t len)
{
	char *s = line, *e = line + len;

	while (*s == ' ' || *s == '\t')
		s++;
	while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
		e--;
	/* runs of blanks as one: a line, not its layout */
	for (char *q = s, *w = s; q <= e; q++) {
		if (q == e) {
			e = w;
			break;
		}
		if ((*q == ' ' || *q == '\t') && w > s && w[-1] == ' ')
			continue;
		*w++ = *q == '\t' ? ' ' : *q;
	}
	return e - s > SRC_TEXT_MAX ? xasprintf("%.*s...", SRC_TEXT_MAX - 3, s) :
	       xstrndup(s, (size_t)(e - s));
}

char *explore_source_text(const char *path, int line)
{
	FILE *fp = path ? fopen(path, "r") : NULL;
	char *buf = NULL, *text = NULL;
	size_t cap = 0;
	ssize_t len = -1;

	if (!fp)
		return NULL;
	for (int i = 0; i < line && (len = getline(&buf, &cap, fp)) >= 0; i++)
		;
	if (line > 0 && len >= 0)
		text = src_trim(buf, (size_t)len);
	free(buf);
	fclose(fp);
	return text;
}

static struct src_file *src_read(struct src_file **v, size_t *n, const char *path)
{
	struct src_file *f;
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].path, path))
			return &(*v)[i];
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	f = &(*v)[(*n)++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	fp = fopen(path, "r");
	if (!fp)
		return f;
	while ((len = getline(&line, &cap, fp)) >= 0) {
		f->lines = xrealloc(f->lines, (f->nlines + 1) * sizeof(*f->lines));
		f->lines[f->nlines++] = src_trim(line, (size_t)len);
	}
	free(line);
	fclose(fp);
	return f;
}

/*
 * Per point: its file, line, function and source line, from the
 * executable's debug information (a library's point has none); the files
 * read go into *files, which the caller frees.
 */
static explore_point_src *point_srcs(const struct xctx *c, struct src_file **files,
				     size_t *nfiles)
{
	explore_point_src *src = xcalloc(c->npoints ? c->npoints : 1, sizeof(*src));

	for (size_t b = 0; b < c->p.nbps; b++) {
		const plan_bp *bp = &c->p.bps[b];
		dwarfx_loc loc;

		if (dwarfx_symbolize(c->p.dx, bp->site.link_addr, &loc) < 0 || !loc.file ||
		    !loc.line)
			continue;
		for (size_t k = 0; k < bp->ngates; k++) {
			explore_point_src *p;
			struct src_file *f;

			if (bp->gates[k] >= c->npoints)
				continue;
			p = &src[bp->gates[k]];
			p->file = rg_base_name(loc.file);
			p->line = loc.line;
			p->function = bp->function;
			f = src_read(files, nfiles, loc.file);
			if (loc.line <= (int)f->nlines && *f->lines[loc.line - 1])
				p->text = f->lines[loc.line - 1];
		}
	}
	return src;
}

int explore_markdown_file(struct xctx *c, const struct search *se, const char *id,
			  const char *yaml)
{
	/* the threads named as the file names them */
	explore_write_in in = { &se->fail_run, (const char *const *)c->at,
				c->o->command, id, NULL, NULL, NULL, 0, 0, NULL,
				!yaml || !strstr(yaml, "{runs: ") };
	struct src_file *files = NULL;
	size_t nfiles = 0;
	char *cmd = explore_replay_cmdline(c, id);
	char *typed = explore_typed_cmdline(c);
	explore_md_in md = { yaml, c->o->out, typed, cmd, se->no_file, se->no_file_try,
			     point_srcs(c, &files, &nfiles), se->fails_alone,
			     se->passed_before };
	char *text = explore_write_markdown(&in, &md);
	int r = explore_save(c->o->markdown, text);

	if (!r)
		printf("  wrote %s: the bug report, with the interleaving as a diagram\n",
		       c->o->markdown);
	free(text);
	free(cmd);
	free(typed);
	free((void *)md.src);
	for (size_t i = 0; i < nfiles; i++) {
		for (size_t j = 0; j < files[i].nlines; j++)
			free(files[i].lines[j]);
		free(files[i].lines);
		free(files[i].path);
	}
	free(files);
	return r;
}

/*
 * The shrunk schedule's gates file did not reproduce: write the one of the
 * schedule as found.  Shrinking keeps the fewest preemptions, and the
 * fewest can leave the failure to a race no gate can pin (job_queue: one
 * worker takes the job and then waits on the condition itself, and the
 * signal must come after it is inside the wait, which a gate at its call
 * cannot say); the schedule as found has more switches, each of them
 * written.  On success it becomes the failure reported (*id its id).
 * 0 written, 1 not, -1 error.
 */
int explore_write_found(struct xctx *c, struct search *se, const char **id, char **yaml)
{
	explore_run shrunk;
	int r;

	if (!se->found_run.nsteps || !se->fail_id)
		return 1;
	if (se->repro_shrunk >= 0)
		printf("  the shrunk schedule's gates file reproduced %ld/%ld under "
		       "racegate run; ", se->repro_shrunk, c->o->verify);
	else
		printf("  ");
	printf("the schedule as found, %s (%zu preemption%s), instead:\n", se->fail_id,
	       se->found_run.npreempt, se->found_run.npreempt == 1 ? "" : "s");
	shrunk = se->fail_run;
	se->fail_run = se->found_run;
	se->found_run = shrunk;
	se->found_file = true;
	r = explore_write_repro(c, se, se->fail_id, yaml);
	if (r == 0) {
		*id = se->fail_id;
		se->wrote_found = true;
		return 0;
	}
	se->found_run = se->fail_run;
	se->fail_run = shrunk;
	return r;
}

/*
 * What to try when replays of the files reproduced the failure only
 * sometimes or never: optimised code moves and merges a line's code, so a
 * gate at a line may hold before or after what the failure needs;
 * instruction points pin an order between two accesses where lines
 * cannot; fewer points leave fewer orders for a file to pin.
 */
static const char no_file_try_insns[] =
	"rebuild the program at -O0 if it was optimised (its lines' code moves "
	"and merges), or a narrower --at (the files or functions of the race)";
static const char no_file_try_lines[] =
	"rebuild the program at -O0 if it was optimised (its lines' code moves "
	"and merges), --points accesses (a point before each instruction that "
	"touches shared memory), or a narrower --at (the files or functions of "
	"the race)";

/* When the failing interleaving had passed before: what else decides. */
static const char no_file_try_same[] =
	"make fixed what the program decides by itself (the clock, random "
	"numbers, its input), or --at the code where its threads meet that "
	"no point covers";

void explore_no_file(const struct xctx *c, struct search *se)
{
	const long n = c->o->verify;
	char *why = explore_stop_reason(c);

	se->no_file_try = NULL;
	if (why) {
		se->no_file = xasprintf("its replays were cut short: %s", why);
		if (!interrupt_signal())
			se->no_file_try = "a longer --time, or --jobs J (J replays at once)";
		free(why);
	} else if (se->repro_shrunk < 0 && se->repro_found < 0) {
		se->no_file = xstrdup(se->nofile_err ? se->nofile_err :
				      "no gates file could be made of the schedule");
		if (se->passed_before)
			se->no_file_try = no_file_try_same;
	} else {
		rg_buf b = RG_BUF_INIT;

		rg_buf_puts(&b, "under racegate run ");
		if (se->repro_shrunk >= 0 && se->repro_found >= 0)
			rg_buf_printf(&b, "the shrunk schedule's gates file reproduced the "
				      "failure in %ld/%ld replays and the schedule as "
				      "found's in %ld/%ld", se->repro_shrunk, n,
				      se->repro_found, n);
		else
			rg_buf_printf(&b, "its gates file reproduced the failure in %ld/%ld "
				      "replays", se->repro_shrunk >= 0 ? se->repro_shrunk :
				      se->repro_found, n);
		rg_buf_puts(&b, ", and a file must in every one");
		se->no_file = rg_buf_detach(&b);
		se->no_file_try = se->passed_before ? no_file_try_same :
				  c->o->lines_only ? no_file_try_lines : no_file_try_insns;
	}
	printf("  no gates file written: %s\n", se->no_file);
	if (se->no_file_try)
		printf("  to try: %s\n", se->no_file_try);
	if (c->o->trace)
		printf("  no trace written: it is a replay of the gates file, and none "
		       "was written\n");
}
