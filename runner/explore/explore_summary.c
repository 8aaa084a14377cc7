/*
 * racegate explore's words (explore_int.h): the summary a search ends
 * with, its JSON report (--report), and the command that replays a
 * schedule.
 */
#include "explore_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interrupt.h"

/* ---- the summary and the report ---- */

/* What the summary and the report call the search: its strategy, or a replay. */
static const char *strategy_name(const struct xctx *c)
{
	return c->o->replay ? "replay" : c->o->strategy->name;
}

static void say_failure(const explore_run *r)
{
	switch (r->fail) {
	case XF_EXIT:
		printf("exit status %d", r->exit_code);
		break;
	case XF_SIGNAL: {
		const char *n = spec_signal_name(r->signo);

		printf("killed by %s", n ? n : "a signal");
		break;
	}
	default:
		printf("%s", explore_fail_name(r->fail));
	}
}

/* The name of the signal that interrupted explore, or NULL. */
static const char *interrupted_by(void)
{
	const char *n = spec_signal_name(interrupt_signal());

	return interrupt_signal() ? n ? n : "a signal" : NULL;
}

int explore_progress_line(char *buf, size_t len, enum explore_phase ph, long n,
			  long total, size_t distinct, double elapsed_ms)
{
	static const char *const what[] = { "searching", "shrinking", "verifying" };
	static const char *const unit[] = { "schedules", "runs", "replays" };
	char of[32] = "";

	if (total >= 0)
		snprintf(of, sizeof(of), "/%ld", total);
	if (ph == XP_SEARCH)
		return snprintf(buf, len, "explore %s: %ld%s %s, %zu distinct, %.1f s",
				what[ph], n, of, unit[ph], distinct, elapsed_ms / 1e3);
	return snprintf(buf, len, "explore %s: %ld%s %s, %.1f s", what[ph], n, of,
			unit[ph], elapsed_ms / 1e3);
}

bool explore_progress_due(double *last_ms, double now_ms, bool phase_changed)
{
	if (!phase_changed && now_ms - *last_ms < EXPLORE_PROGRESS_MS)
		return false;
	*last_ms = now_ms;
	return true;
}

void explore_progress(struct xctx *c, enum explore_phase ph, long n, long total,
		      size_t distinct)
{
	char line[160];
	double now;

	if (!c->tty)
		c->tty = !c->o->quiet && !c->o->verbose && isatty(STDERR_FILENO) ? 1 : -1;
	if (c->tty < 0)
		return;
	now = explore_elapsed_ms(c);
	if (!explore_progress_due(&c->drawn_ms, now, c->phase != (int)ph + 1))
		return;
	c->phase = (int)ph + 1;
	explore_progress_line(line, sizeof(line), ph, n, total, distinct, now);
	fprintf(stderr, "\r\033[K%s", line);
	c->shown = true;
}

void explore_progress_clear(struct xctx *c)
{
	if (!c->shown)
		return;
	fputs("\r\033[K", stderr);
	c->shown = false;
}

/* n, or null when negative (none). */
static void put_count(rg_buf *b, long n)
{
	if (n < 0)
		rg_buf_puts(b, "null");
	else
		rg_buf_printf(b, "%ld", n);
}

/*
 * The failure's record.  Each field says which schedule it is of: id and
 * found_* the schedule as found; shrunk_id, preemptions, steps and
 * deviations the shrunk one (its run is fail_run, or found_run once the
 * file of the schedule as found was written instead, explore_write_found);
 * gates_of the schedule whose gates file reproduced, gates and
 * gates_unshrunk describe.
 */
static void put_failure(rg_buf *b, const struct xctx *c, const struct search *se,
			const char *shrunk_id)
{
	const explore_run *sr = se->wrote_found ? &se->found_run : &se->fail_run;
	const char *file_id = se->found_file ? se->fail_id :
			      shrunk_id ? shrunk_id : se->fail_id;

	rg_buf_puts(b, "{\"kind\": ");
	json_str(b, explore_fail_name(sr->fail));
	rg_buf_puts(b, ", \"id\": ");
	json_str(b, se->fail_id);
	rg_buf_puts(b, ", \"shrunk_id\": ");
	json_str(b, shrunk_id ? shrunk_id : se->fail_id);
	rg_buf_printf(b, ", \"preemptions\": %zu, \"steps\": %zu, \"exit\": %d, "
		      "\"signal\": %d", sr->npreempt, sr->nsteps, sr->exit_code, sr->signo);
	rg_buf_printf(b, ", \"found_preemptions\": %zu, \"found_steps\": %zu, "
		      "\"deviations\": %zu, \"shrink_runs\": %zu",
		      se->found_preempt, se->found_steps, se->ndevs, se->shrink_runs);
	if (se->reproduced >= 0)
		rg_buf_printf(b, ", \"reproduced\": %ld, \"replays\": %ld",
			      se->reproduced, c->o->verify);
	else
		rg_buf_puts(b, ", \"reproduced\": null, \"replays\": 0");
	rg_buf_puts(b, ", \"gates_of\": ");
	json_str(b, se->reproduced >= 0 ? file_id : NULL);
	rg_buf_printf(b, ", \"gates\": %zu, \"gates_unshrunk\": %zu",
		      se->gates_after, se->gates_before);
	rg_buf_puts(b, ", \"gates_file\": ");
	json_str(b, se->wrote ? c->o->out : NULL);
	rg_buf_puts(b, ", \"trace\": ");
	json_str(b, se->traced ? c->o->trace : NULL);
	rg_buf_puts(b, ", \"replay\": ");
	json_str(b, se->replay_cmd);
	rg_buf_printf(b, ", \"order\": [%" PRIu64 ", %" PRIu64 "], \"fails_alone\": %d, "
		      "\"passed_before\": %s", se->fail_rank[0], se->fail_rank[1],
		      se->fails_alone, se->passed_before ? "true" : "false");
	rg_buf_puts(b, ", \"no_gates_file\": ");
	if (!se->no_file) {
		rg_buf_puts(b, "null}");
		return;
	}
	rg_buf_puts(b, "{\"why\": ");
	json_str(b, se->no_file);
	rg_buf_puts(b, ", \"shrunk_reproduced\": ");
	put_count(b, se->repro_shrunk);
	rg_buf_puts(b, ", \"found_reproduced\": ");
	put_count(b, se->repro_found);
	rg_buf_printf(b, ", \"replays\": %ld, \"try\": ", c->o->verify);
	json_str(b, se->no_file_try);
	rg_buf_puts(b, "}}");
}

/* A JSON array of the strings v[0..n). */
static void put_strs(rg_buf *b, char *const *v, size_t n)
{
	rg_buf_puts(b, "[");
	for (size_t i = 0; i < n; i++) {
		rg_buf_puts(b, i ? ", " : "");
		json_str(b, v[i]);
	}
	rg_buf_puts(b, "]");
}

/*
 * What explore --merge needs of a shard's report: which shard, the points
 * and options that make the search what it is (shards of one search have
 * them all alike; a replay needs them), the bound an exhausted search ran
 * every schedule of, and, for a shard, its interleavings' hashes (the
 * distinct ones of all the shards are their union).
 */
static void put_search(rg_buf *b, const struct xctx *c, const struct search *se)
{
	const explore_opts *o = c->o;
	size_t n;

	rg_buf_printf(b, ", \"shard\": {\"i\": %ld, \"n\": %ld}, \"points\": %zu, "
		      "\"bound\": ", o->replay ? 0 : o->shard_i, o->replay ? 1 : o->shard_n,
		      c->npoints);
	json_str(b, se->bound);
	rg_buf_printf(b, ", \"learning\": %ld, \"diverged\": %ld, \"search\": {\"at\": ",
		      se->learning, se->diverged);
	put_strs(b, o->at, o->nat);
	rg_buf_printf(b, ", \"sync\": %s, \"virtual_time\": %s, \"follow_fork\": %s, "
		      "\"points\": \"%s\", "
		      "\"depth\": %d, "
		      "\"pct_steps\": %ld, \"bound\": %d, \"bound_kind\": \"%s\", "
		      "\"schedules\": %ld, \"time_ms\": %ld, \"timeout_ms\": %ld, "
		      "\"quiet_ms\": %ld, \"expect_exit\": %d, \"expect_stdout\": ",
		      o->sync ? "true" : "false", o->virtual_time ? "true" : "false",
		      o->follow_fork ? "true" : "false", o->lines_only ? "lines" : "accesses",
		      o->depth, o->est_steps, o->bound,
		      o->bound_kind == EXPLORE_PREEMPTIONS ? "preemptions" : "delays",
		      o->schedules, o->time_ms, o->timeout_ms, o->quiet_ms,
		      o->has_expect_exit ? o->expect_exit : 0);
	json_str(b, o->expect_stdout);
	rg_buf_puts(b, ", \"expect\": ");
	json_str(b, o->expect_file);
	rg_buf_puts(b, ", \"source_dir\": ");
	json_str(b, o->source_dir);
	rg_buf_puts(b, ", \"program\": ");
	for (n = 0; o->command && o->command[n]; n++)
		;
	put_strs(b, o->command, n);
	rg_buf_puts(b, "}");
	if (o->shard_n <= 1 || o->replay)
		return;
	rg_buf_puts(b, ", \"interleavings\": [");
	n = 0;
	for (size_t i = 0; i < se->seen.cap; i++)
		if (se->seen.used[i])
			rg_buf_printf(b, "%s\"%016" PRIx64 "\"", n++ ? ", " : "",
				      se->seen.keys[i]);
	rg_buf_puts(b, "]");
}

int explore_write_report(const struct xctx *c, const struct search *se,
			 const char *shrunk_id)
{
	rg_buf b = RG_BUF_INIT;
	int r;

	rg_buf_printf(&b, "{\"command\": \"explore\", \"strategy\": \"%s\", "
		      "\"seed\": %" PRIu64 ", \"schedules\": %ld, \"distinct\": %zu, "
		      "\"timeouts\": %ld, \"flaky_timeouts\": %ld, \"elapsed_ms\": %.3f, "
		      "\"exhausted\": %s, \"interrupted\": ",
		      strategy_name(c), c->o->seed,
		      se->tried, se->distinct, se->timeouts, se->flaky_timeouts,
		      explore_elapsed_ms(c),
		      se->exhausted ? "true" : "false");
	json_str(&b, interrupted_by());
	rg_buf_puts(&b, ", \"stdin_bytes\": ");
	if (c->ro.has_stdin)
		rg_buf_printf(&b, "%zu", c->ro.stdin_len);
	else
		rg_buf_puts(&b, "null");
	rg_buf_puts(&b, ", \"failures\": [");
	if (se->failed)
		put_failure(&b, c, se, shrunk_id);
	rg_buf_puts(&b, "]");
	put_search(&b, c, se);
	rg_buf_puts(&b, "}\n");
	r = explore_save(c->o->report, b.s);
	rg_buf_release(&b);
	return r;
}

/* The first line: what the search found, in how much. */
static void headline(const struct xctx *c, const struct search *se)
{
	printf("racegate explore: ");
	if (se->failed) {
		printf("FAILED (");
		say_failure(&se->fail_run);
		printf(")");
	} else if (interrupted_by()) {
		printf("interrupted by %s", interrupted_by());
	} else if (se->tried && se->timeouts == se->tried) {
		printf("no schedule completed");
	} else {
		printf("no failure");
	}
	explore_say_counts(se->tried, se->distinct, explore_elapsed_ms(c), c->npoints,
			   strategy_name(c));
	if (!c->o->replay && c->o->strategy->seeded)
		printf(", seed %" PRIu64, c->o->seed);
	if (c->o->shard_n > 1 && !c->o->replay)
		printf(", shard %ld/%ld", c->o->shard_i, c->o->shard_n);
	printf("\n");
}

void explore_say_counts(long tried, size_t distinct, double ms, size_t points,
			const char *strategy)
{
	printf(" after %ld schedule%s (%zu distinct interleaving%s) in %.1f s, "
	       "%zu scheduling point%s, %s", tried, tried == 1 ? "" : "s", distinct,
	       distinct == 1 ? "" : "s", ms / 1e3, points, points == 1 ? "" : "s",
	       strategy);
}

void explore_say_flaky_timeouts(long n)
{
	printf("  %ld schedule%s ended by --timeout but not when replayed: no failure "
	       "(the machine was slow, or the program waits on something outside it)\n",
	       n, n == 1 ? "" : "s");
}

/* Schedules that ended by --timeout: a search that saw no run end found nothing. */
static void say_timeouts(const struct xctx *c, const struct search *se)
{
	long t = c->o->timeout_ms;

	if (se->flaky_timeouts)
		explore_say_flaky_timeouts(se->flaky_timeouts);
	if (!se->timeouts || se->failed)
		return;
	if (se->timeouts == se->tried && se->tried > 1)
		printf("  all %ld ended by --timeout", se->tried);
	else if (se->timeouts == se->tried)
		printf("  it ended by --timeout");
	else
		printf("  %ld of them ended by --timeout", se->timeouts);
	printf(t % 1000 ? " (%ld ms)" : " (%ld s)", t % 1000 ? t : t / 1000);
	if (se->timeouts == se->tried)
		printf(" before the program did: the search saw no run to its end, "
		       "so it found nothing (a longer --timeout?)\n");
	else
		printf(" before the program did, and what the program would have "
		       "done past that point was not seen\n");
}

void explore_summary(const struct xctx *c, const struct search *se)
{
	bool all_timed_out = se->tried && se->timeouts == se->tried;

	headline(c, se);
	if (se->failed)
		printf("  failing schedule: %s (%zu preemption%s, %zu decisions)\n",
		       se->fail_id, se->fail_run.npreempt,
		       se->fail_run.npreempt == 1 ? "" : "s", se->fail_run.nsteps);
	say_timeouts(c, se);
	if (se->failed || interrupted_by() || all_timed_out)
		;      /* nothing was searched to its end */
	else if (se->exhausted && se->bound && c->o->shard_n > 1)
		printf("  every schedule of shard %ld/%ld %s "
		       "was run (and %ld of other shards, to find where the tree "
		       "branches)\n", c->o->shard_i, c->o->shard_n, se->bound, se->learning);
	else if (se->exhausted && se->bound)
		printf("  every schedule %s was run\n", se->bound);
	else if (!c->o->replay && se->tried > 1 && se->distinct == 1)
		/* many schedules, one order: the points gave no choice */
		printf("  every schedule ran the same interleaving: no point offered a "
		       "choice of thread%s\n", se->forked ? "" :
		       c->o->nat ? "; add points with --at" :
		       "; name the code to search with --at FILE");
	if (se->forked && !interrupted_by())
		printf("  the program forked a child process that ran untraced: "
		       "--follow-fork schedules the threads of its children too\n");
	if (se->bound && !c->o->replay && !se->failed && !se->exhausted && !interrupted_by())
		printf("  the search stopped before every schedule %s "
		       "had run (--schedules %ld%s)\n", se->bound, c->o->schedules,
		       c->o->time_ms ? ", or --time" : "");
	if (se->diverged)
		printf("  %ld run%s did not go the way %s given: the program decides "
		       "differently from run to run, and the schedules below %s not "
		       "searched\n", se->diverged, se->diverged == 1 ? "" : "s",
		       se->diverged == 1 ? "it was" : "they were",
		       se->diverged == 1 ? "that choice were" : "those choices were");
	/* past what dfs keeps of its earlier passes (strategy_dfs.c) */
	if (se->learning && c->o->shard_n <= 1)
		printf("  (and %ld runs again of schedules of earlier passes, to find "
		       "where the tree branches)\n", se->learning);
	if (c->ro.has_stdin && c->ro.stdin_len)
		printf("  every run got the same %zu byte%s on stdin\n", c->ro.stdin_len,
		       c->ro.stdin_len == 1 ? "" : "s");
}

/*
 * " WORD" as one word to a POSIX shell: bare when it holds only characters
 * no shell treats specially (and quoting is not asked for), else in single
 * quotes with each ' as '\''.
 */
static void put_shell_word(rg_buf *b, const char *w, bool quote)
{
	rg_buf_add(b, " ", 1);
	if (!quote && *w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				      "0123456789_-+=./:,@%") == strlen(w)) {
		rg_buf_puts(b, w);
		return;
	}
	rg_buf_add(b, "'", 1);
	for (; *w; w++)
		if (*w == '\'')
			rg_buf_puts(b, "'\\''");
		else
			rg_buf_add(b, w, 1);
	rg_buf_add(b, "'", 1);
}

/*
 * The command that replays schedule id, as a shell would take it: the
 * points, and what judges a run (a replay that judged otherwise would not
 * fail the same way), each word quoted as it needs.
 */
char *explore_replay_cmdline(const struct xctx *c, const char *id)
{
	const explore_opts *o = c->o;
	rg_buf b = RG_BUF_INIT;

	/* the program's input is part of the schedule: the same bytes */
	if (c->ro.has_stdin && c->ro.stdin_len)
		explore_stdin_printf(&b, c->ro.stdin_data, c->ro.stdin_len);
	rg_buf_puts(&b, "racegate explore");
	for (size_t i = 0; i < o->nat; i++) {
		rg_buf_puts(&b, " --at");
		put_shell_word(&b, o->at[i], true);
	}
	if (!o->sync)
		rg_buf_puts(&b, " --no-sync");
	if (o->lines_only)
		rg_buf_puts(&b, " --points lines");
	if (!o->virtual_time)
		rg_buf_puts(&b, " --no-virtual-time");
	if (o->follow_fork)
		rg_buf_puts(&b, " --follow-fork");
	if (o->source_dir) {
		rg_buf_puts(&b, " --source-dir");
		put_shell_word(&b, o->source_dir, false);
	}
	if (o->expect_file) {
		rg_buf_puts(&b, " --expect");
		put_shell_word(&b, o->expect_file, false);
	}
	if (o->has_expect_exit && o->expect_exit)
		rg_buf_printf(&b, " --expect-exit %d", o->expect_exit);
	if (o->expect_stdout) {
		rg_buf_puts(&b, " --expect-stdout");
		put_shell_word(&b, o->expect_stdout, false);
	}
	if (o->timeout_ms != 10000)
		rg_buf_printf(&b, o->timeout_ms % 1000 ? " --timeout %ldms" : " --timeout %lds",
			      o->timeout_ms % 1000 ? o->timeout_ms : o->timeout_ms / 1000);
	if (o->quiet_ms)
		rg_buf_printf(&b, " --quiet-period %ldms", o->quiet_ms);
	rg_buf_puts(&b, " --replay");
	put_shell_word(&b, id, false);
	rg_buf_puts(&b, " --");
	for (char **a = o->command; *a; a++)
		put_shell_word(&b, *a, false);
	if (c->ro.has_stdin && !c->ro.stdin_len)
		rg_buf_puts(&b, " </dev/null");
	return rg_buf_detach(&b);
}

char *explore_typed_cmdline(const struct xctx *c)
{
	rg_buf b = RG_BUF_INIT;

	if (!c->o->argv)
		return NULL;
	rg_buf_puts(&b, "racegate");
	for (int i = 0; i < c->o->argc; i++)
		put_shell_word(&b, c->o->argv[i], false);
	return rg_buf_detach(&b);
}
