/*
 * FUNCTION:return: each time the function returns to its caller.
 *
 * A function may return from several places, and -O2 code may return by a
 * tail call, so racegate does not look for `ret` instructions.  It does what
 * gdb's `finish` does, for every call: an internal breakpoint at the exact
 * entry notes, per thread, the return address and the stack pointer the
 * caller will have back (tracer_entry_frame); a temporary breakpoint at the
 * return address reports the arrival.
 *
 * The same return address is shared by every frame called from that place:
 * by other threads running the same code, and by recursion (f calling f
 * returns into f).  A frame is matched by its thread and by the stack
 * pointer after the return, which the entry told.  Any other
 * thread, or a deeper frame of the same thread, passes the temporary
 * breakpoint silently.  A temporary breakpoint is taken out when no frame
 * needs it any more.
 *
 * A frame whose function never returns normally (longjmp, an exception
 * unwinding through it, thread exit) is forgotten when the thread shows up
 * above it on the stack, or exits.
 *
 * Each call and each return costs O(1), however deep the recursion: a
 * thread's frames are a stack ordered by stack pointer (a new entry first
 * pops the frames it has left behind, so the innermost frame is always on
 * top), threads and return addresses are found through hash maps, and each
 * temporary breakpoint counts the frames that need it.
 */
#include "objects.h"

#include <stdlib.h>
#include <string.h>

#include "intmap.h"

struct ret_entry {
	uint64_t addr;         /* run-time entry of the function */
	plan_bp bp;            /* the return gates: what a return arrives at */
};

struct ret_frame {
	uint64_t ret;          /* return address */
	uint64_t sp;           /* stack pointer once returned to ret */
	size_t entry;          /* index in entries */
};

/* One thread's frames, outermost first: sp strictly decreasing. */
struct ret_stack {
	pid_t tid;
	struct ret_frame *v;
	size_t n, cap;
};

struct ret_table {
	tracer *tr;
	const run_bias *bt;    /* the run's: sites -> run-time entries */
	run_locs_busy_fn busy; /* the run's other breakpoints */
	void *busy_ctx;
	struct ret_entry **entries; /* stable pointers: threads point at their bp */
	size_t nentries, capentries;
	rg_intmap entry_of;         /* entry address -> index in entries */
	struct ret_stack *stacks;   /* threads with frames, in no order */
	size_t nstacks, capstacks;
	rg_intmap stack_of;         /* tid -> index in stacks */
	rg_intmap temps;            /* return address with an int3 of ours ->
				       how many frames return there */
};

char *returns_function(const char *at)
{
	size_t n = strlen(at);
	static const char suffix[] = ":return";
	const size_t ns = sizeof(suffix) - 1;

	if (n <= ns || strcmp(at + n - ns, suffix) || at[n - ns - 1] == ':')
		return NULL;
	return xstrndup(at, n - ns);
}

int returns_check(dwarfx *dx, const char *where, const dwarfx_loc *locs,
		  size_t n, rg_err *err)
{
	rg_buf b = RG_BUF_INIT, c = RG_BUF_INIT;
	size_t i, j, ninl = 0;
	const char *fn;

	for (i = 0; i < n; i++) {
		const char *in;

		if (!locs[i].inlined)
			continue;
		ninl++;
		in = dwarfx_caller_at(dx, locs[i].addr);
		/* name each caller once */
		for (j = 0; in && j < i; j++)
			if (locs[j].inlined &&
			    dwarfx_caller_at(dx, locs[j].addr) == in)
				break;
		if (in && j == i)
			rg_buf_printf(&b, "%s%s", b.len ? ", " : "", in);
	}
	if (!ninl)
		return 0;
	fn = locs[0].function ? locs[0].function : "the function";
	if (ninl == n)
		rg_buf_printf(&c, "'%s' is inlined", fn);
	else
		rg_buf_printf(&c, "'%s' is inlined in %zu of its %zu copies", fn, ninl, n);
	rg_error(err, "cannot resolve '%s': %s%s%s%s, and an inlined copy has no "
		 "return to stop at (gate a line after the call, or mark '%s' "
		 "__attribute__((noinline)))", where, c.s, b.len ? " (into " : "",
		 b.len ? b.s : "", b.len ? ")" : "", fn);
	rg_buf_release(&c);
	rg_buf_release(&b);
	return -1;
}

ret_table *returns_new(tracer *tr, const run_bias *bt, run_locs_busy_fn busy,
		       void *busy_ctx)
{
	ret_table *t = xcalloc(1, sizeof(*t));
	rg_intmap empty = RG_INTMAP_INIT;

	t->tr = tr;
	t->bt = bt;
	t->busy = busy;
	t->busy_ctx = busy_ctx;
	t->entry_of = t->stack_of = t->temps = empty;
	return t;
}

void returns_free(ret_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nentries; i++) {
		free(t->entries[i]->bp.gates);
		free(t->entries[i]);
	}
	free(t->entries);
	for (i = 0; i < t->nstacks; i++)
		free(t->stacks[i].v);
	free(t->stacks);
	rg_intmap_release(&t->entry_of);
	rg_intmap_release(&t->stack_of);
	rg_intmap_release(&t->temps);
	free(t);
}

static struct ret_entry *entry_at(const ret_table *t, uint64_t addr, size_t *idx)
{
	size_t *i = rg_intmap_get(&t->entry_of, addr);

	if (!i)
		return NULL;
	if (idx)
		*idx = *i;
	return t->entries[*i];
}

bool returns_busy(const ret_table *t, uint64_t addr)
{
	return t && (entry_at(t, addr, NULL) || rg_intmap_get(&t->temps, addr));
}

int returns_add(ret_table *t, rg_site site, size_t gate, const char *where,
		const char *function, rg_err *err)
{
	uint64_t entry = run_bias_addr(t->bt, site);
	struct ret_entry *e = entry_at(t, entry, NULL);
	size_t k;

	if (!e) {
		if (tracer_insert_bp(t->tr, entry, err) < 0)
			return -1;
		e = xcalloc(1, sizeof(*e));
		e->addr = entry;
		e->bp.site = site;
		e->bp.where = (char *)where;
		e->bp.function = (char *)function;
		RG_GROW(t->entries, t->nentries + 1, t->capentries);
		*rg_intmap_ref(&t->entry_of, entry, 0) = t->nentries;
		t->entries[t->nentries++] = e;
	}
	/* gates ascending, each once: the engine merges them in file order */
	for (k = 0; k < e->bp.ngates && e->bp.gates[k] < gate; k++)
		;
	if (k < e->bp.ngates && e->bp.gates[k] == gate)
		return 0;
	e->bp.gates = xrealloc(e->bp.gates, (e->bp.ngates + 1) * sizeof(size_t));
	memmove(&e->bp.gates[k + 1], &e->bp.gates[k],
		(e->bp.ngates - k) * sizeof(size_t));
	e->bp.gates[k] = gate;
	e->bp.ngates++;
	return 0;
}

/* One more frame returns to ret: its temporary breakpoint is put in first. */
static int temp_ref(ret_table *t, uint64_t ret, rg_err *err)
{
	size_t *n = rg_intmap_get(&t->temps, ret);

	if (n) {
		++*n;
		return 0;
	}
	if (tracer_insert_bp(t->tr, ret, err) < 0)
		return -1;
	*rg_intmap_ref(&t->temps, ret, 0) = 1;
	return 0;
}

/* One frame fewer returns to ret: the last takes the temporary out, unless
 * something else breaks there. */
static void temp_unref(ret_table *t, uint64_t ret)
{
	size_t *n = rg_intmap_get(&t->temps, ret);
	rg_err err = RG_ERR_INIT;

	if (!n)
		rg_bug("return address 0x%llx has a frame but no breakpoint",
		       (unsigned long long)ret);
	if (--*n)
		return;
	rg_intmap_del(&t->temps, ret);
	if (entry_at(t, ret, NULL) || (t->busy && t->busy(t->busy_ctx, ret)))
		return;
	/* an error means the code is gone (dlclose): nothing to undo */
	tracer_remove_bp(t->tr, ret, &err);
}

static struct ret_stack *stack_find(ret_table *t, pid_t tid, bool create)
{
	size_t *i = rg_intmap_get(&t->stack_of, (uint64_t)tid);
	struct ret_stack *s;

	if (i)
		return &t->stacks[*i];
	if (!create)
		return NULL;
	RG_GROW(t->stacks, t->nstacks + 1, t->capstacks);
	*rg_intmap_ref(&t->stack_of, (uint64_t)tid, 0) = t->nstacks;
	s = &t->stacks[t->nstacks++];
	memset(s, 0, sizeof(*s));
	s->tid = tid;
	return s;
}

static void frame_pop(ret_table *t, struct ret_stack *s)
{
	temp_unref(t, s->v[--s->n].ret);
}

void returns_thread_exited(ret_table *t, pid_t tid)
{
	struct ret_stack *s;
	size_t i;

	if (!t || !(s = stack_find(t, tid, false)))
		return;
	while (s->n)
		frame_pop(t, s);
	free(s->v);
	i = (size_t)(s - t->stacks);
	rg_intmap_del(&t->stack_of, (uint64_t)tid);
	if (i != --t->nstacks) {
		t->stacks[i] = t->stacks[t->nstacks];
		*rg_intmap_get(&t->stack_of, (uint64_t)t->stacks[i].tid) = i;
	}
}

/* tid is at a return address with stack pointer sp: its frame, if it
 * returns through one. */
static void match_return(ret_table *t, pid_t tid, uint64_t addr, uint64_t sp,
			 const plan_bp **arrive)
{
	struct ret_stack *s = stack_find(t, tid, false);
	struct ret_frame *f;

	if (!s)
		return;
	/* frames below sp were unwound (longjmp, an exception), not returned from */
	while (s->n && s->v[s->n - 1].sp < sp)
		frame_pop(t, s);
	if (!s->n)
		return;
	f = &s->v[s->n - 1];
	/* a deeper frame of ours (recursion) has its sp below: it passes */
	if (f->sp == sp && f->ret == addr) {
		*arrive = &t->entries[f->entry]->bp;
		frame_pop(t, s);
	}
}

static int note_entry(ret_table *t, pid_t tid, size_t entry, rg_err *err)
{
	struct ret_stack *s;
	struct ret_frame *f;
	uint64_t ret, sp;

	if (tracer_entry_frame(t->tr, tid, &ret, &sp, err) < 0)
		return -1;
	if (temp_ref(t, ret, err) < 0)
		return rg_error_prefix(err, "'%s'", t->entries[entry]->bp.where);
	s = stack_find(t, tid, true);
	/* a frame at or below this one's place is gone (longjmp, unwinding) */
	while (s->n && s->v[s->n - 1].sp <= sp)
		frame_pop(t, s);
	RG_GROW(s->v, s->n + 1, s->cap);
	f = &s->v[s->n++];
	f->ret = ret;
	f->sp = sp;
	f->entry = entry;
	return 0;
}

int returns_on_breakpoint(ret_table *t, pid_t tid, uint64_t addr,
			  const plan_bp **arrive, rg_err *err)
{
	size_t entry;
	bool is_temp, is_entry;
	uint64_t sp;

	*arrive = NULL;
	if (!t)
		return 0;
	is_temp = rg_intmap_get(&t->temps, addr) != NULL;
	is_entry = entry_at(t, addr, &entry) != NULL;
	if (!is_temp && !is_entry)
		return 0;
	/* a return first: the same place may also be an entry (a call in a tail position) */
	if (is_temp) {
		if (tracer_get_sp(t->tr, tid, &sp, err) < 0)
			return -1;
		match_return(t, tid, addr, sp, arrive);
	}
	if (is_entry && note_entry(t, tid, entry, err) < 0)
		return -1;
	return 1;
}
