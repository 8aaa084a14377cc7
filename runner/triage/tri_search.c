/*
 * tri_search: racegate triage's search between a race's accesses
 * (tri_int.h), as RaceFuzzer searches: explore with the race's places and
 * the sync operations as its only scheduling points.
 */
#include "tri_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The exit status the race's orders ended with (the first end), or 0. */
static int common_exit(const tri_race *r)
{
	int code = 0;

	for (int k = 0; k < 2; k++)
		if (r->o[k].nends) {
			sscanf(r->o[k].ends[0], "exit %d", &code);
			break;
		}
	return code;
}

static const char *fail_words(const explore_found *f, char *buf, size_t len)
{
	const char *sig = f->signo ? spec_signal_name(f->signo) : NULL;

	if (f->fail == XF_SIGNAL)
		snprintf(buf, len, "killed by %s", sig ? sig : "a signal");
	else if (f->fail == XF_EXIT)
		snprintf(buf, len, "ending with exit %d", f->exit_code);
	else
		snprintf(buf, len, "that failed (%s)", explore_fail_name(f->fail));
	return buf;
}

/*
 * One search between the places at (an --at list) into the race's file;
 * 0 with *f (release it), or -1 with err.
 */
static int search_at(const tri_opts *o, const tri_race *r, char *at, const char *path,
		     explore_found *f, rg_err *err)
{
	explore_opts x;
	int st;

	/* explore says what it found on stdout, where the table goes */
	printf("race %d: a search between %s:\n", r->no, at == r->points ? "its accesses" :
	       "the places of the races between the same two functions");
	fflush(stdout);
	explore_opts_init(&x);
	x.at = xcalloc(1, sizeof(*x.at));
	x.at[0] = at;
	x.nat = 1;
	/* few points: dfs tries the fewest delays first, and says when it has
	   tried every schedule within its bound */
	x.strategy = explore_strategy_named("dfs");
	/* sleeps in real time: a race between two accesses is often a poller
	   against a sleeper overtaking it, which dfs meets at its first delays
	   here, and only far down its list with each sleep a choice */
	x.virtual_time = false;
	x.schedules = o->search;
	x.out = path;
	x.verify = o->verify;
	x.quiet = true;
	x.source_dir = o->source_dir;
	x.command = o->abs_command;
	x.timeout_ms = tri_run_timeout(o);
	x.has_expect_exit = o->has_expect_exit || !o->judge->x.any;
	x.expect_exit = o->has_expect_exit ? o->expect_exit : common_exit(r);
	x.expect_stdout = o->expect_stdout;
	x.expect_file = o->expect_file;
	st = explore_search(&x, o->closed_std, NULL, 0, f);
	explore_opts_release(&x);
	if (st >= RG_EXIT_SIGNAL || st == RG_EXIT_SETUP) {
		explore_found_release(f);
		return rg_error(err, "race %d: the search between its accesses %s", r->no,
				st == RG_EXIT_SETUP ? "could not run (said above)" :
				"was interrupted");
	}
	return 0;
}

static bool same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/*
 * The places of every race between the same two functions as r (a check
 * and its use, a clear and a free, are often two races of one bug), as an
 * --at list; NULL when r is the only one.
 */
static char *related_points(const tri_opts *o, const tri_race *r)
{
	const char *f0 = r->s[0].function, *f1 = r->s[1].function;
	rg_buf b = RG_BUF_INIT;
	size_t n = 0;

	for (size_t i = 0; i < o->nraces; i++) {
		const tri_side *q = o->races[i].s;

		if (o->races[i].note || !((same(q[0].function, f0) && same(q[1].function, f1)) ||
		      (same(q[0].function, f1) && same(q[1].function, f0))))
			continue;
		rg_buf_printf(&b, "%s%s", n++ ? "," : "", o->races[i].points);
	}
	if (n < 2) {
		rg_buf_release(&b);
		return NULL;
	}
	return rg_buf_detach(&b);
}

/*
 * A short race-directed search, as RaceFuzzer does it: explore with the
 * two accesses' lines (and each shared access in them) and the sync
 * operations as its only points, judged by --expect's, else by the exit
 * status the orders ended with.  When neither order fails and both end
 * alike (BENIGN) or only one ran (SINGLE-ORDER), a failure whose file
 * reproduces makes the race HARMFUL.  When a failing order's file did not
 * reproduce every time, the search's file, which does, takes its place.
 * When the race's own places give no file, the places of the races
 * between the same two functions are searched (related_points).
 */
int tri_search(const tri_opts *o, tri_race *r, rg_err *err)
{
	explore_found f;
	char *path, words[64];
	bool weak_file = r->v == TRI_HARMFUL && r->verified < o->verify;
	char *wider = NULL;
	bool widened = false;
	int rc;

	/* OUTPUT-DIFFERS has its evidence, and no end to judge a run by */
	if (!o->search || (r->v != TRI_BENIGN && r->v != TRI_SINGLE_ORDER && !weak_file))
		return 0;
	path = tri_out_path(o, r->no, 0, true);
	if (search_at(o, r, r->points, path, &f, err) < 0) {
		free(path);
		return -1;
	}
	if (!f.wrote && (wider = related_points(o, r))) {
		explore_found_release(&f);
		widened = true;
		rc = search_at(o, r, wider, path, &f, err);
		free(wider);
		if (rc < 0) {
			free(path);
			return -1;
		}
	}
	if (f.failed && f.wrote) {
		char *why = weak_file ?
			xasprintf("%s, so a search", r->what) :
			xstrdup("neither order fails, but a search");

		r->v = TRI_HARMFUL;
		r->searched = true;
		/* the orders' files say what the search disproved */
		for (int k = 0; k < 2; k++) {
			if (r->files[k] && strcmp(r->files[k], path))
				unlink(r->files[k]);
			free(r->files[k]);
			r->files[k] = NULL;
		}
		r->files[0] = path;
		r->verified = (int)f.reproduced;
		r->search_note = xasprintf("%s with %s and the sync operations as the only "
					   "points found a run %s (schedule %s, after %ld)",
					   why, widened ? "the places of the races between the "
					   "same two functions" : "its accesses", fail_words(&f, words, sizeof(words)),
					   f.id, f.tried);
		free(why);
	} else {
		free(path);
		r->search_note = f.failed ?
			xasprintf("a search between %s found a run %s (schedule %s), but no "
				  "file reproduced it every time", widened ? "the races' places" :
				  "its accesses", fail_words(&f, words, sizeof(words)), f.id) :
			xasprintf("a search of %ld schedules between %s%s found no failure",
				  f.tried, widened ? "the places of the races between the "
				  "same two functions" : "its accesses",
				  f.exhausted ? " (all with up to 3 delays)" : "");
	}
	explore_found_release(&f);
	return 0;
}

/*
 * A race whose accesses are in library code called from the places (a
 * std::vector's push_back) was forced at the calls, whole: a verdict that
 * found no failure says so, and what it does not say.
 */
void tri_say_inside(tri_race *r)
{
	const char *in0 = r->s[0].inner, *in1 = r->s[1].inner;
	char *w;

	if (r->v == TRI_HARMFUL || (!in0 && !in1))
		return;
	w = xasprintf("%s; but the accesses are in library code (%s%s%s) called from "
		      "these lines: the orders held the calls whole (a search stops at "
		      "those lines of them only), so this says how the two calls end in "
		      "either order, not every way their insides interleave", r->what,
		      in0 ? in0 : "", in0 && in1 && strcmp(in0, in1) ? ", " : "",
		      in1 && (!in0 || strcmp(in0, in1)) ? in1 : "");
	free(r->what);
	r->what = w;
}

