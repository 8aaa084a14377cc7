/*
 * racegate explore --merge (explore.h): the JSON reports of the N shards
 * of one search (--shard I/N --report FILE) read back, checked to be one
 * search's, and told as that search unsharded would tell it: the
 * schedules of all, their distinct interleavings, and the failure it
 * would have met first.  -o replays that failure through --replay.
 */
#include "explore_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

/* One shard's report, read. */
struct shard {
	const char *file;
	jv v;
	long i, n;
	const jv *fail;        /* its failure, or NULL */
};

/* A whole number >= 0 at key of o; false (err says) when not one. */
static bool get_count(const struct shard *s, const jv *o, const char *key, long *out,
		      rg_err *err)
{
	const jv *v = json_get(o, key);

	if (!v || v->t != J_NUM || v->num < 0 || v->num > 1e15 || v->num != (double)(long long)v->num) {
		rg_error(err, "'%s': \"%s\" is %s, not a count: not a report explore "
			 "--report wrote", s->file, key, v ? json_type_name(v->t) : "missing");
		return false;
	}
	*out = (long)v->num;
	return true;
}

static const char *get_str(const jv *o, const char *key)
{
	const jv *v = json_get(o, key);

	return v && v->t == J_STR ? v->s : NULL;
}

/* Reads and checks the shape of one report. */
static int read_shard(struct shard *s, rg_err *err)
{
	const jv *sh, *f;
	long n;

	if (json_read_file(s->file, &s->v, err) < 0)
		return -1;
	if (!get_str(&s->v, "command") || strcmp(get_str(&s->v, "command"), "explore"))
		return rg_error(err, "'%s' is not a report of racegate explore (no "
				"\"command\": \"explore\")", s->file);
	if (!get_str(&s->v, "strategy") || !strcmp(get_str(&s->v, "strategy"), "replay"))
		return rg_error(err, "'%s' is the report of a --replay, not of a search "
				"to merge", s->file);
	sh = json_get(&s->v, "shard");
	if (!sh || !json_get(&s->v, "search"))
		return rg_error(err, "'%s' has no \"shard\" or \"search\": a report of an "
				"explore older than --merge (run the shard again)", s->file);
	if (!get_count(s, sh, "i", &s->i, err) || !get_count(s, sh, "n", &s->n, err) ||
	    !get_count(s, &s->v, "schedules", &n, err) ||
	    !get_count(s, &s->v, "timeouts", &n, err) ||
	    !get_count(s, &s->v, "distinct", &n, err) ||
	    !get_count(s, &s->v, "points", &n, err))
		return -1;
	if (s->n < 1 || s->i >= s->n)
		return rg_error(err, "'%s': shard %ld/%ld is no shard", s->file, s->i, s->n);
	f = json_get(&s->v, "failures");
	if (!f || f->t != J_ARR)
		return rg_error(err, "'%s': \"failures\" is not a list", s->file);
	if (f->n) {
		const jv *o = json_get(&f->kids[0], "order");

		s->fail = &f->kids[0];
		if (!get_str(s->fail, "id") || !get_str(s->fail, "shrunk_id") ||
		    !get_str(s->fail, "kind") || !o || o->t != J_ARR || o->n != 2 ||
		    o->kids[0].t != J_NUM || o->kids[1].t != J_NUM)
			return rg_error(err, "'%s': its failure lacks \"id\", \"shrunk_id\", "
					"\"kind\" or \"order\"", s->file);
	}
	return 0;
}

static long num_of(const jv *o, const char *key)
{
	const jv *v = json_get(o, key);

	return v && v->t == J_NUM ? (long)v->num : 0;
}

/* Are the shards of one search, each once?  -1 with err saying what is not. */
static int check_shards(struct shard *s, size_t n, rg_err *err)
{
	static const char *const same[] = { "strategy", "seed", "points", "search" };
	long N = s[0].n;

	for (size_t k = 1; k < n; k++) {
		if (s[k].n != N)
			return rg_error(err, "shards of different splits: '%s' is shard "
					"%ld/%ld, '%s' shard %ld/%ld", s[0].file, s[0].i, N,
					s[k].file, s[k].i, s[k].n);
		for (size_t j = 0; j < sizeof(same) / sizeof(same[0]); j++) {
			const jv *a = json_get(&s[0].v, same[j]), *b = json_get(&s[k].v, same[j]);
			const char *what = same[j];

			if (a && b && json_equal(a, b))
				continue;
			/* name the option that differs */
			for (size_t q = 0; a && b && a->t == J_OBJ && q < a->n; q++) {
				const jv *bq = json_get(b, a->keys[q]);

				if (!bq || !json_equal(&a->kids[q], bq)) {
					what = a->keys[q];
					break;
				}
			}
			if (!strcmp(what, "points"))
				return rg_error(err, "'%s' and '%s' are of different searches: "
						"their scheduling points differ (%ld and %ld: "
						"another program, or another --at)", s[0].file,
						s[k].file, num_of(&s[0].v, "points"),
						num_of(&s[k].v, "points"));
			return rg_error(err, "'%s' and '%s' are of different searches: they "
					"differ in %s\"%s\"", s[0].file, s[k].file,
					what == same[j] ? "" : "the search's ", what);
		}
	}
	for (size_t k = 0; k < n; k++)
		for (size_t j = k + 1; j < n; j++)
			if (s[k].i == s[j].i)
				return rg_error(err, "shard %ld/%ld is given twice: '%s' and '%s'",
						s[k].i, N, s[k].file, s[j].file);
	if ((long)n == N)
		return 0;
	{
		rg_buf b = RG_BUF_INIT;
		int r;

		for (long i = 0, m = 0; i < N; i++) {
			bool have = false;

			for (size_t k = 0; k < n; k++)
				have |= s[k].i == i;
			if (!have)
				rg_buf_printf(&b, "%s%ld/%ld", m++ ? ", " : "", i, N);
		}
		r = rg_error(err, "shard%s %s %s missing: %zu report%s given of %ld",
			     N - (long)n == 1 ? "" : "s", b.s, N - (long)n == 1 ? "is" : "are",
			     n, n == 1 ? "" : "s", N);
		rg_buf_release(&b);
		return r;
	}
}

/* The failure an unsharded search meets first: the lowest order, then id. */
static const struct shard *first_failure(const struct shard *s, size_t n)
{
	const struct shard *best = NULL;

	for (size_t k = 0; k < n; k++) {
		const jv *o, *b;

		if (!s[k].fail)
			continue;
		if (!best) {
			best = &s[k];
			continue;
		}
		o = json_get(s[k].fail, "order");
		b = json_get(best->fail, "order");
		if (o->kids[0].num < b->kids[0].num ||
		    (o->kids[0].num == b->kids[0].num && o->kids[1].num < b->kids[1].num))
			best = &s[k];
	}
	return best;
}

/* What the shards ran, together. */
struct merged {
	long tried, timeouts, flaky_timeouts, learning, diverged;
	size_t distinct;
	double elapsed_ms;     /* the longest shard's */
	bool exhausted;
	const char *interrupted; /* a shard's signal, or NULL */
	const struct shard *interrupted_shard;
	const struct shard *fail;
};

static void sum_shards(const struct shard *s, size_t n, struct merged *m)
{
	rg_intmap seen = RG_INTMAP_INIT;
	bool hashes = n > 1;

	memset(m, 0, sizeof(*m));
	m->exhausted = true;
	for (size_t k = 0; k < n; k++) {
		const jv *v = &s[k].v, *h = json_get(v, "interleavings"), *e;

		m->tried += (long)json_get(v, "schedules")->num;
		m->timeouts += (long)json_get(v, "timeouts")->num;
		m->distinct += (size_t)json_get(v, "distinct")->num;
		if ((e = json_get(v, "learning")) && e->t == J_NUM)
			m->learning += (long)e->num;
		if ((e = json_get(v, "flaky_timeouts")) && e->t == J_NUM)
			m->flaky_timeouts += (long)e->num;
		if ((e = json_get(v, "diverged")) && e->t == J_NUM)
			m->diverged += (long)e->num;
		if ((e = json_get(v, "elapsed_ms")) && e->t == J_NUM && e->num > m->elapsed_ms)
			m->elapsed_ms = e->num;
		e = json_get(v, "exhausted");
		m->exhausted &= e && e->t == J_BOOL && e->num;
		if (get_str(v, "interrupted") && !m->interrupted) {
			m->interrupted = get_str(v, "interrupted");
			m->interrupted_shard = &s[k];
		}
		if (!h || h->t != J_ARR)
			hashes = false;
		for (size_t i = 0; hashes && i < h->n; i++) {
			if (h->kids[i].t != J_STR) {
				hashes = false;
				break;
			}
			rg_intmap_ref(&seen, strtoull(h->kids[i].s, NULL, 16), 0);
		}
	}
	/* the union of the shards' interleavings, when each said them */
	if (hashes)
		m->distinct = seen.n;
	rg_intmap_release(&seen);
	m->fail = first_failure(s, n);
}

/* "exit status 1", "killed by SIGABRT", or the kind. */
static void say_kind(const jv *f)
{
	const char *kind = get_str(f, "kind");
	const jv *e = json_get(f, "exit"), *sg = json_get(f, "signal");

	if (!strcmp(kind, "exit status") && e && e->t == J_NUM)
		printf("exit status %d", (int)e->num);
	else if (!strcmp(kind, "fatal signal") && sg && sg->t == J_NUM &&
		 spec_signal_name((int)sg->num))
		printf("killed by %s", spec_signal_name((int)sg->num));
	else
		printf("%s", kind);
}


/* The merged summary, as the unsharded search's; its exit status. */
static int merge_summary(const struct shard *s, size_t n, const struct merged *m)
{
	const jv *v = &s[0].v, *f = m->fail ? m->fail->fail : NULL;
	const char *strategy = get_str(v, "strategy"), *bound = get_str(v, "bound");
	long points = num_of(v, "points");

	printf("racegate explore: ");
	if (f) {
		printf("FAILED (");
		say_kind(f);
		printf(")");
	} else if (m->interrupted) {
		printf("interrupted by %s", m->interrupted);
	} else if (m->tried && m->timeouts == m->tried) {
		printf("no schedule completed");
	} else {
		printf("no failure");
	}
	explore_say_counts(m->tried, m->distinct, m->elapsed_ms, (size_t)points, strategy);
	if (strcmp(strategy, "dfs"))
		printf(", seed %.0f", json_get(v, "seed")->num);
	printf(", %zu shard%s merged\n", n, n == 1 ? "" : "s");
	if (f) {
		printf("  failing schedule: %s (shard %ld/%ld, %ld preemption%s, %ld decisions)\n",
		       get_str(f, "id"), m->fail->i, m->fail->n,
		       num_of(f, "found_preemptions"),
		       num_of(f, "found_preemptions") == 1 ? "" : "s",
		       num_of(f, "found_steps"));
		printf("  shrunk to %s (%ld preemption%s, %ld decisions)\n",
		       get_str(f, "shrunk_id"), num_of(f, "preemptions"),
		       num_of(f, "preemptions") == 1 ? "" : "s", num_of(f, "steps"));
		if (get_str(f, "replay"))
			printf("  replay: %s\n", get_str(f, "replay"));
		return RG_EXIT_UNMET;
	}
	if (m->interrupted) {
		printf("  shard %ld/%ld ('%s') was interrupted by %s: the search is not "
		       "whole\n", m->interrupted_shard->i, m->interrupted_shard->n,
		       m->interrupted_shard->file, m->interrupted);
		return RG_EXIT_OK;
	}
	if (m->flaky_timeouts)
		explore_say_flaky_timeouts(m->flaky_timeouts);
	if (m->timeouts && m->timeouts == m->tried) {
		printf("  all %ld ended by --timeout before the program did: the search "
		       "saw no run to its end, so it found nothing (a longer --timeout?)\n",
		       m->tried);
		return RG_EXIT_ENFORCE;
	}
	if (m->timeouts)
		printf("  %ld of them ended by --timeout before the program did, and what "
		       "the program would have done past that point was not seen\n",
		       m->timeouts);
	if (m->exhausted && bound)
		printf("  every schedule %s was run (%zu shard%s)\n", bound, n,
		       n == 1 ? "" : "s");
	else if (bound)
		printf("  the search stopped before every schedule %s had run (a shard's "
		       "--schedules or --time)\n", bound);
	if (m->diverged)
		printf("  %ld run%s did not go the way %s given: the program decides "
		       "differently from run to run, and the schedules below %s not "
		       "searched\n", m->diverged, m->diverged == 1 ? "" : "s",
		       m->diverged == 1 ? "it was" : "they were",
		       m->diverged == 1 ? "that choice were" : "those choices were");
	return RG_EXIT_OK;
}

/* A JSON value as it was read (numbers as whole numbers when they are). */
static void put_jv(rg_buf *b, const jv *v)
{
	switch (v->t) {
	case J_NULL:
		rg_buf_puts(b, "null");
		return;
	case J_BOOL:
		rg_buf_puts(b, v->num ? "true" : "false");
		return;
	case J_NUM:
		if (v->num > -1e15 && v->num < 1e15 && v->num == (double)(long long)v->num)
			rg_buf_printf(b, "%.0f", v->num);
		else
			rg_buf_printf(b, "%.17g", v->num);
		return;
	case J_STR:
		json_str(b, v->s);
		return;
	case J_ARR:
	case J_OBJ:
		rg_buf_puts(b, v->t == J_ARR ? "[" : "{");
		for (size_t i = 0; i < v->n; i++) {
			rg_buf_puts(b, i ? ", " : "");
			if (v->t == J_OBJ) {
				json_str(b, v->keys[i]);
				rg_buf_puts(b, ": ");
			}
			put_jv(b, &v->kids[i]);
		}
		rg_buf_puts(b, v->t == J_ARR ? "]" : "}");
	}
}

/*
 * The merged --report: the fields of an unsharded search's report, the
 * failure with the shard that found it, and each shard's file and counts.
 */
static int merge_report(const char *path, const struct shard *s, size_t n,
			const struct merged *m)
{
	const jv *v = &s[0].v;
	rg_buf b = RG_BUF_INIT;
	int r;

	rg_buf_puts(&b, "{\"command\": \"explore\", \"strategy\": ");
	json_str(&b, get_str(v, "strategy"));
	rg_buf_puts(&b, ", \"seed\": ");
	put_jv(&b, json_get(v, "seed"));
	rg_buf_printf(&b, ", \"schedules\": %ld, \"distinct\": %zu, \"timeouts\": %ld, "
		      "\"flaky_timeouts\": %ld, \"elapsed_ms\": %.3f, \"exhausted\": %s, "
		      "\"interrupted\": ",
		      m->tried, m->distinct, m->timeouts, m->flaky_timeouts, m->elapsed_ms,
		      m->exhausted ? "true" : "false");
	json_str(&b, m->interrupted);
	rg_buf_puts(&b, ", \"stdin_bytes\": ");
	put_jv(&b, json_get(v, "stdin_bytes") ? json_get(v, "stdin_bytes") : &(jv){ 0 });
	rg_buf_puts(&b, ", \"failures\": [");
	if (m->fail) {
		put_jv(&b, m->fail->fail);
		b.len--;       /* the failure's "}", to add its shard */
		rg_buf_printf(&b, ", \"shard\": %ld}", m->fail->i);
	}
	rg_buf_printf(&b, "], \"shard\": {\"i\": 0, \"n\": 1}, \"points\": %ld, \"bound\": ",
		      num_of(v, "points"));
	json_str(&b, get_str(v, "bound"));
	rg_buf_printf(&b, ", \"learning\": %ld, \"diverged\": %ld, \"search\": ",
		      m->learning, m->diverged);
	put_jv(&b, json_get(v, "search"));
	rg_buf_puts(&b, ", \"merged\": [");
	for (size_t k = 0; k < n; k++) {
		rg_buf_printf(&b, "%s{\"file\": ", k ? ", " : "");
		json_str(&b, s[k].file);
		rg_buf_printf(&b, ", \"shard\": %ld, \"schedules\": %ld, \"failed\": %s}",
			      s[k].i, num_of(&s[k].v, "schedules"), s[k].fail ? "true" : "false");
	}
	rg_buf_puts(&b, "]}\n");
	r = explore_save(path, b.s);
	rg_buf_release(&b);
	return r;
}

/* The options of the shards' search, from their report, for a replay. */
static int replay_opts(const explore_opts *o, const jv *search, const char *id,
		       explore_opts *x, rg_err *err)
{
	const jv *at = json_get(search, "at"), *e;

	explore_opts_init(x);
	if (!at || at->t != J_ARR)
		return rg_error(err, "the report's search has no \"at\"");
	x->at = xcalloc(at->n + 1, sizeof(*x->at));
	for (size_t i = 0; i < at->n; i++)
		if (at->kids[i].t == J_STR)
			x->at[x->nat++] = at->kids[i].s;   /* o's until the merge ends */
	x->sync = (e = json_get(search, "sync")) && e->t == J_BOOL ? e->num : true;
	x->virtual_time = (e = json_get(search, "virtual_time")) && e->t == J_BOOL && e->num;
	x->follow_fork = (e = json_get(search, "follow_fork")) && e->t == J_BOOL && e->num;
	x->lines_only = get_str(search, "points") && !strcmp(get_str(search, "points"), "lines");
	x->timeout_ms = num_of(search, "timeout_ms") ? num_of(search, "timeout_ms") : 10000;
	x->quiet_ms = num_of(search, "quiet_ms");
	x->expect_exit = (int)num_of(search, "expect_exit");
	x->has_expect_exit = x->expect_exit != 0;
	x->expect_stdout = get_str(search, "expect_stdout");
	x->expect_file = get_str(search, "expect");
	x->source_dir = o->source_dir ? o->source_dir : get_str(search, "source_dir");
	x->replay = id;
	x->out = o->out;
	x->trace = o->trace;
	x->markdown = o->markdown;
	x->verify = o->verify;
	x->fewer_gates = o->fewer_gates;
	x->quiet = o->quiet;
	x->verbose = o->verbose;
	x->command = o->command;
	return 0;
}

int explore_merge(const explore_opts *o, char *const *files, size_t nfiles,
		  unsigned closed_std, const bool *inherit, int ninherit)
{
	struct shard *s = xcalloc(nfiles ? nfiles : 1, sizeof(*s));
	struct merged m;
	rg_err err = RG_ERR_INIT;
	int status = RG_EXIT_SETUP;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t k = 0; k < nfiles; k++) {
		s[k].file = files[k];
		if (read_shard(&s[k], &err) < 0)
			goto out;
	}
	if (!nfiles) {
		rg_error(&err, "--merge needs the shards' reports (FILE.json ...)");
		goto out;
	}
	if (check_shards(s, nfiles, &err) < 0)
		goto out;
	if (o->report && report_check_path(o->report, &err) < 0)
		goto out;
	sum_shards(s, nfiles, &m);
	status = merge_summary(s, nfiles, &m);
	if (o->report && merge_report(o->report, s, nfiles, &m) < 0)
		status = RG_EXIT_SETUP;
	if (m.fail && (o->out || o->trace || o->markdown)) {
		explore_opts x;
		const char *id = get_str(m.fail->fail, "shrunk_id");
		int r;

		if (replay_opts(o, json_get(&m.fail->v, "search"), id, &x, &err) < 0) {
			explore_opts_release(&x);
			goto out;
		}
		printf("  replaying %s (of shard %ld/%ld) to write the files:\n", id,
		       m.fail->i, m.fail->n);
		r = explore_search(&x, closed_std, inherit, ninherit, NULL);
		x.command = NULL;
		explore_opts_release(&x);
		if (r != RG_EXIT_UNMET)
			status = r == RG_EXIT_OK ? RG_EXIT_SETUP : r;
		if (r == RG_EXIT_OK)
			rg_say("the replay of %s did not fail: no file written (the program "
			       "or its input is not the shards')", id);
	}
out:
	if (err.msg[0] && status == RG_EXIT_SETUP)
		rg_say("--merge: %s", err.msg);
	for (size_t k = 0; k < nfiles; k++)
		jfree(&s[k].v);
	free(s);
	return status;
}
