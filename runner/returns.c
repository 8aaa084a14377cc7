/*
 * FUNCTION:return: each time the function returns to its caller.
 *
 * A function may return from several places, and -O2 code may return by a
 * tail call, so racegate does not look for `ret` instructions.  It does what
 * gdb's `finish` does, for every call: an internal breakpoint at the exact
 * entry notes, per thread, the return address ([RSP] at entry) and the stack
 * pointer; a temporary breakpoint at the return address reports the arrival.
 *
 * The same return address is shared by every frame called from that place:
 * by other threads running the same code, and by recursion (f calling f
 * returns into f).  A frame is matched by its thread and by RSP after the
 * return, which is the entry RSP + 8 (the return address popped).  Any other
 * thread, or a deeper frame of the same thread, passes the temporary
 * breakpoint silently.  A temporary breakpoint is taken out when no frame
 * needs it any more.
 *
 * A frame whose function never returns normally (longjmp, an exception
 * unwinding through it, thread exit) is forgotten when the thread shows up
 * above it on the stack, or exits.
 */
#include "objects.h"

#include <stdlib.h>
#include <string.h>

struct ret_entry {
	uint64_t addr;         /* run-time entry of the function */
	plan_bp bp;            /* the return gates: what a return arrives at */
};

struct ret_frame {
	pid_t tid;
	uint64_t ret;          /* return address */
	uint64_t sp;           /* RSP at the entry: [sp] is ret */
	size_t entry;          /* index in entries */
};

struct ret_table {
	tracer *tr;
	run_locs_busy_fn busy; /* the run's other breakpoints */
	void *busy_ctx;
	struct ret_entry **entries; /* stable pointers: threads point at their bp */
	size_t nentries, capentries;
	struct ret_frame *frames;   /* in the order they were entered */
	size_t nframes, capframes;
	uint64_t *temps;            /* return addresses with an int3 of ours */
	size_t ntemps, captemps;
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
		in = dwarfx_symbol_at(dx, locs[i].addr);
		/* name each caller once */
		for (j = 0; in && j < i; j++)
			if (locs[j].inlined &&
			    dwarfx_symbol_at(dx, locs[j].addr) == in)
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

ret_table *returns_new(tracer *tr, run_locs_busy_fn busy, void *busy_ctx)
{
	ret_table *t = xcalloc(1, sizeof(*t));

	t->tr = tr;
	t->busy = busy;
	t->busy_ctx = busy_ctx;
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
	free(t->frames);
	free(t->temps);
	free(t);
}

static struct ret_entry *entry_at(const ret_table *t, uint64_t addr, size_t *idx)
{
	size_t i;

	for (i = 0; i < t->nentries; i++)
		if (t->entries[i]->addr == addr) {
			if (idx)
				*idx = i;
			return t->entries[i];
		}
	return NULL;
}

static ssize_t temp_index(const ret_table *t, uint64_t addr)
{
	size_t i;

	for (i = 0; i < t->ntemps; i++)
		if (t->temps[i] == addr)
			return (ssize_t)i;
	return -1;
}

bool returns_busy(const ret_table *t, uint64_t addr)
{
	return t && (entry_at(t, addr, NULL) || temp_index(t, addr) >= 0);
}

int returns_add(ret_table *t, uint64_t entry, size_t gate, const char *where,
		const char *function, rg_err *err)
{
	struct ret_entry *e = entry_at(t, entry, NULL);
	size_t k;

	if (!e) {
		if (tracer_insert_bp(t->tr, entry, err) < 0)
			return -1;
		e = xcalloc(1, sizeof(*e));
		e->addr = entry;
		e->bp.addr = entry;
		e->bp.where = (char *)where;
		e->bp.function = (char *)function;
		RG_GROW(t->entries, t->nentries + 1, t->capentries);
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

static bool frame_needs(const ret_table *t, uint64_t ret)
{
	size_t i;

	for (i = 0; i < t->nframes; i++)
		if (t->frames[i].ret == ret)
			return true;
	return false;
}

/* Takes out temporaries no frame needs, unless something else breaks there. */
static void drop_unneeded_temps(ret_table *t)
{
	size_t i = 0;

	while (i < t->ntemps) {
		uint64_t a = t->temps[i];
		rg_err err = RG_ERR_INIT;

		if (frame_needs(t, a)) {
			i++;
			continue;
		}
		t->temps[i] = t->temps[--t->ntemps];
		if (entry_at(t, a, NULL) || (t->busy && t->busy(t->busy_ctx, a)))
			continue;
		/* an error means the code is gone (dlclose): nothing to undo */
		tracer_remove_bp(t->tr, a, &err);
	}
}

static void frame_remove(ret_table *t, size_t i)
{
	memmove(&t->frames[i], &t->frames[i + 1],
		(t->nframes - i - 1) * sizeof(*t->frames));
	t->nframes--;
}

void returns_thread_exited(ret_table *t, pid_t tid)
{
	size_t i = 0;

	if (!t)
		return;
	while (i < t->nframes)
		if (t->frames[i].tid == tid)
			frame_remove(t, i);
		else
			i++;
	drop_unneeded_temps(t);
}

/* tid is at a return address with RSP sp: its frame, if it returns through one. */
static int match_return(ret_table *t, pid_t tid, uint64_t addr, uint64_t sp,
			const plan_bp **arrive)
{
	size_t i = t->nframes;
	bool found = false;

	while (i-- > 0) {
		struct ret_frame *f = &t->frames[i];

		if (f->tid != tid)
			continue;
		if (f->sp + 8 == sp && f->ret == addr && !found) {
			*arrive = &t->entries[f->entry]->bp;
			frame_remove(t, i);
			found = true;
		} else if (f->sp + 8 < sp) {
			/* the stack is above this frame: it was unwound, not returned from */
			frame_remove(t, i);
		}
	}
	drop_unneeded_temps(t);
	return 0;
}

static int note_entry(ret_table *t, pid_t tid, size_t entry, uint64_t sp,
		      rg_err *err)
{
	struct ret_frame *f;
	uint64_t ret;
	size_t i = 0;

	if (tracer_read_mem(t->tr, sp, &ret, sizeof(ret), err) < 0)
		return rg_error_prefix(err, "cannot read the return address of "
				       "thread %d", (int)tid);
	/* a frame of this thread at or below sp is gone (longjmp, unwinding) */
	while (i < t->nframes)
		if (t->frames[i].tid == tid && t->frames[i].sp <= sp)
			frame_remove(t, i);
		else
			i++;
	if (temp_index(t, ret) < 0) {
		if (tracer_insert_bp(t->tr, ret, err) < 0)
			return rg_error_prefix(err, "'%s'", t->entries[entry]->bp.where);
		RG_GROW(t->temps, t->ntemps + 1, t->captemps);
		t->temps[t->ntemps++] = ret;
	}
	RG_GROW(t->frames, t->nframes + 1, t->capframes);
	f = &t->frames[t->nframes++];
	f->tid = tid;
	f->ret = ret;
	f->sp = sp;
	f->entry = entry;
	drop_unneeded_temps(t);
	return 0;
}

int returns_on_breakpoint(ret_table *t, pid_t tid, uint64_t addr,
			  const plan_bp **arrive, rg_err *err)
{
	struct user_regs_struct regs;
	size_t entry;
	bool is_temp, is_entry;

	*arrive = NULL;
	if (!t)
		return 0;
	is_temp = temp_index(t, addr) >= 0;
	is_entry = entry_at(t, addr, &entry) != NULL;
	if (!is_temp && !is_entry)
		return 0;
	if (tracer_get_regs(t->tr, tid, &regs, err) < 0)
		return -1;
	/* a return first: the same place may also be an entry (a call in a tail position) */
	if (is_temp && match_return(t, tid, addr, regs.rsp, arrive) < 0)
		return -1;
	if (is_entry && note_entry(t, tid, entry, regs.rsp, err) < 0)
		return -1;
	return 1;
}
