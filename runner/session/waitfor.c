/*
 * The wait-for graph's verdict (waitfor.h).
 *
 * A greatest fixpoint: start with every thread that is not running as
 * stuck, and take out, round after round, each one that something outside
 * the set could still move on; what is left waits only on itself.  Taking
 * a thread out only ever lets others out, so the rounds end.
 */
#include "waitfor.h"

#include <stdlib.h>

#include "intmap.h"
#include "msg.h"

#define NOIX ((size_t)-1)

struct solve {
	wf_node *v;
	size_t n;
	rg_intmap ix;          /* tid -> index in v */
	size_t nfree;          /* threads not (or no longer) in the stuck set */
};

static size_t index_of(const struct solve *s, pid_t tid)
{
	size_t *i = rg_intmap_get(&s->ix, (uint64_t)(uint32_t)tid);

	return i ? *i : NOIX;
}

/* Anyone but self outside the stuck set? */
static bool someone_free(const struct solve *s, size_t self)
{
	return s->nfree > (s->v[self].stuck ? 0 : 1);
}

/* Can need k of node i be met from outside the stuck set?  *via: a stuck
 * thread that could have met it. */
static bool need_met(const struct solve *s, size_t i, const wf_need *nd, size_t *via)
{
	size_t j;

	if (nd->anyone && someone_free(s, i))
		return true;
	for (j = 0; j < nd->nby; j++) {
		size_t k = index_of(s, nd->by[j]);

		if (k == NOIX)
			continue;          /* gone, or not the program's any more */
		if (!s->v[k].stuck)
			return true;
		if (*via == NOIX)
			*via = k;
	}
	return false;
}

/* Could node i move on, the stuck set being what it is? */
static bool can_move(struct solve *s, size_t i)
{
	wf_node *t = &s->v[i];
	size_t k, via;

	t->blocked_need = -1;
	t->next = NOIX;
	switch (t->kind) {
	case WF_RUNS:
		return true;
	case WF_ON_THREAD:
		k = index_of(s, t->on);
		t->next = k;
		return k != NOIX && !s->v[k].stuck;
	case WF_HELD:
		for (k = 0; k < t->nneeds; k++) {
			via = NOIX;
			if (!need_met(s, i, &t->needs[k], &via)) {
				t->blocked_need = (int)k;
				t->next = via;
				return false;
			}
		}
		/* nothing known it needs: anyone might help */
		return t->nneeds ? true : someone_free(s, i);
	case WF_ON_ANYONE:
		return someone_free(s, i);
	case WF_ON_ANY_OF: {
		bool any = false;

		for (k = 0; k < t->nons; k++) {
			size_t j = index_of(s, t->ons[k]);

			if (j == NOIX)
				continue;  /* gone */
			any = true;
			if (!s->v[j].stuck)
				return true;
			if (t->next == NOIX)
				t->next = j;
		}
		return !any;
	}
	}
	rg_bug("wait-for node of kind %d", (int)t->kind);
	return true;
}

size_t wf_solve(wf_node *v, size_t n)
{
	struct solve s = { .v = v, .n = n, .ix = RG_INTMAP_INIT };
	size_t i, nstuck = 0;
	bool changed = true;

	for (i = 0; i < n; i++) {
		*rg_intmap_ref(&s.ix, (uint64_t)(uint32_t)v[i].tid, i) = i;
		v[i].stuck = v[i].kind != WF_RUNS;
		v[i].blocked_need = -1;
		v[i].next = NOIX;
		if (!v[i].stuck)
			s.nfree++;
	}
	while (changed) {
		changed = false;
		for (i = 0; i < n; i++)
			if (v[i].stuck && can_move(&s, i)) {
				v[i].stuck = false;
				s.nfree++;
				changed = true;
			}
	}
	/* the last round left blocked_need and next as the final set has them */
	for (i = 0; i < n; i++) {
		if (!v[i].stuck) {
			v[i].blocked_need = -1;
			v[i].next = NOIX;
		} else {
			nstuck++;
		}
	}
	rg_intmap_release(&s.ix);
	return nstuck;
}

void wf_needs_free(wf_need *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].by);
	free(v);
}
