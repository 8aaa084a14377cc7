/*
 * What a new thread runs, as {start:} selectors name it (starts.h).
 *
 * A pthread thread runs its start routine.  A std::thread (and a
 * std::jthread, which holds one) runs libstdc++'s own routine,
 * execute_native_thread_routine, whose argument is the thread's state: a
 * std::thread::_State_impl<_Invoker<tuple<F, Args...>>> whose first word
 * is its vtable pointer.  The vtable's symbol names F, the callable's type:
 *
 *   vtable for std::thread::_State_impl<std::thread::_Invoker<
 *       std::tuple<void (*)(int), int> > >
 *
 * A lambda or a function object is its type: that is the name.  A pointer
 * to a function or to a member function names no function: its value is
 * read from the tuple, where DWARF says the tuple's first element lies in
 * the class of the state's _M_run's `this` (_M_run is the vtable's third
 * slot).  Every value read is checked (a function must start where the
 * pointer points) before it names the thread; anything unexpected leaves
 * the start unknown rather than wrong.
 */
#include "starts.h"

#include <stdlib.h>
#include <string.h>

#define STATE_VTABLE "_ZTVNSt6thread11_State_impl"
#define VT_M_RUN 2             /* vtable slots: ~_State (complete, deleting), _M_run */

struct starts_ctx {
	plan *p;
	tracer *tr;
	const run_bias *bt;
	pid_t pid, tid;        /* the thread in pthread_create, and its process:
				  a followed child's memory is its own */
	tracer_map *maps;      /* read when first needed */
	size_t nmaps;
	bool maps_read;
};

/* An object of the program: where its link-time addresses are now. */
/* An object of the program and the link-time address asked about in it. */
struct obj_at {
	dwarfx *dx;
	uint64_t at;           /* the run-time address, as a link-time one of dx */
	const char *path;      /* NULL for the executable */
};

static bool locate(struct starts_ctx *c, uint64_t a, struct obj_at *o)
{
	rg_site site;

	if (!c->maps_read) {
		rg_err err = RG_ERR_INIT;

		c->maps_read = true;
		if (tracer_maps_of(c->tr, c->pid, &c->maps, &c->nmaps, &err) < 0) {
			c->maps = NULL;
			c->nmaps = 0;
		}
	}
	if (!run_site_at(c->p, c->maps, c->nmaps, c->bt->exe, false, a, &site))
		return false;
	o->dx = plan_site_dx(c->p, site);
	o->at = site.link_addr;
	o->path = site.obj == PLAN_EXE ? NULL : c->p->objs[site.obj].path;
	return o->dx != NULL;
}

/*
 * The name of the function holding a, or NULL; entry: only if it starts at
 * a; as a thread started there is named (with its parameter types), or as
 * its caller_at name.
 */
static char *function_at(struct starts_ctx *c, uint64_t a, bool entry, bool start)
{
	struct obj_at o;
	const char *fn;

	if (!locate(c, a, &o) ||
	    !(fn = start ? dwarfx_start_name_at(o.dx, o.at) : dwarfx_caller_at(o.dx, o.at)))
		return NULL;
	if (entry) {
		const char *sym = dwarfx_symbol_at(o.dx, o.at);
		uint64_t addrs[8];
		size_t n = sym ? dwarfx_symbol_addrs(o.dx, sym, addrs, 8) : 0, i;

		for (i = 0; i < n && i < 8 && addrs[i] != o.at; i++)
			;
		if (i == n || i == 8)
			return NULL;
	}
	return xstrdup(fn);
}

/* len bytes at a, in the memory of the creating thread's process. */
static bool read_mem(struct starts_ctx *c, uint64_t a, void *v, size_t len)
{
	return tracer_read_batch(c->tr, c->tid, &(tracer_read_req){
		.addr = a, .buf = v, .len = len }, 1) == 1;
}

static bool read_word(struct starts_ctx *c, uint64_t a, uint64_t *v)
{
	return read_mem(c, a, v, sizeof(*v));
}

/* The callable's type in a state's vtable symbol (malloc'd), or NULL. */
static char *state_callable(const char *vtable_sym, char **arg1)
{
	char *dem = dwarfx_demangle(vtable_sym), *args[2] = {NULL, NULL};
	size_t n = dem ? dwarfx_tuple_args(dem, args, 2) : 0;

	free(dem);
	if (arg1)
		*arg1 = n > 1 ? args[1] : NULL;
	else
		free(args[1]);
	return n ? args[0] : NULL;
}

static int callable_is(const char *sym, void *arg)
{
	const char *want = arg;
	char *type = state_callable(sym, NULL);
	size_t lt, lw = strlen(want);
	int found = 0;

	if (type) {
		lt = strlen(type);
		found = !strcmp(type, want) ||
			(lt > lw + 2 && !strcmp(type + lt - lw, want) &&
			 !strncmp(type + lt - lw - 2, "::", 2));
	}
	free(type);
	return found;
}

bool starts_callable_type(dwarfx *dx, const char *start)
{
	return dwarfx_data_symbols(dx, STATE_VTABLE, callable_is, (void *)start) != 0;
}

/*
 * Where element k (0: the callable, 1: its first argument) of the state's
 * tuple lies in the state: _State_impl::_M_func (_Invoker) ::_M_t (tuple),
 * whose base _Tuple_impl<0, ...> holds element 0 in its base
 * _Head_base<0, ...> and the rest in its base _Tuple_impl<1, ...>.
 */
static bool element_at(struct starts_ctx *c, uint64_t vptr, int k, uint64_t *off)
{
	static const char *const path0[] = {"_M_func", "_M_t", "_Tuple_impl<0,",
					    "_Head_base<0,", "_M_head_impl"};
	static const char *const path1[] = {"_M_func", "_M_t", "_Tuple_impl<0,",
					    "_Tuple_impl<1,", "_Head_base<1,",
					    "_M_head_impl"};
	uint64_t run;
	struct obj_at o;
	char *name;
	size_t len;
	bool ok;

	if (!read_word(c, vptr + VT_M_RUN * 8, &run) ||
	    !(name = function_at(c, run, true, false)))
		return false;
	len = strlen(name);
	ok = len > 8 && !strcmp(name + len - 8, "::_M_run");
	free(name);
	if (!ok || !locate(c, run, &o))
		return false;
	return k ? dwarfx_this_member(o.dx, o.at, path1, 6, off) == 0 :
		dwarfx_this_member(o.dx, o.at, path0, 5, off) == 0;
}

/* The function a pointer stored at state + off points to. */
static char *function_pointer(struct starts_ctx *c, uint64_t state, uint64_t off)
{
	uint64_t fp;

	return read_word(c, state + off, &fp) ? function_at(c, fp, true, true) : NULL;
}

/*
 * The function a pointer to a member function stored at state + off
 * stands for (Itanium ABI: {ptr, adj}; ptr odd for a virtual one: 1 + its
 * offset in the vtable, looked up in the vtable of the object whose
 * address is at state + obj_off when obj_off is not UINT64_MAX).
 */
static char *member_pointer(struct starts_ctx *c, uint64_t state, uint64_t off,
			    uint64_t obj_off)
{
	uint64_t pm[2], obj, vt, fn;

	if (!read_mem(c, state + off, pm, sizeof(pm)))
		return NULL;
	fn = pm[0];
	if ((pm[0] & 1) &&
	    (obj_off == UINT64_MAX || !read_word(c, state + obj_off, &obj) ||
	     !read_word(c, obj + pm[1], &vt) || !read_word(c, vt + pm[0] - 1, &fn)))
		return NULL;
	return function_at(c, fn, true, true);
}

/* The callable of the std::thread whose state is at state, or NULL. */
static char *std_thread_callable(struct starts_ctx *c, uint64_t state)
{
	char sym[1024], *args[2] = {NULL, NULL}, *name = NULL;
	uint64_t vptr, off;
	struct obj_at o;

	if (!read_word(c, state, &vptr) || !locate(c, vptr, &o) ||
	    !dwarfx_data_symbol_at(o.dx, o.at, sym, sizeof(sym), &off) ||
	    strncmp(sym, STATE_VTABLE, strlen(STATE_VTABLE)))
		return NULL;
	if (!(args[0] = state_callable(sym, &args[1]))) {
		rg_trace("std::thread state at 0x%llx: no callable in '%s'",
			 (unsigned long long)state, sym);
		return NULL;
	}
	if (!strstr(args[0], "(*)") && !strstr(args[0], "::*)")) {
		name = args[0];      /* a lambda, a function object: its type */
		args[0] = NULL;
	} else if (element_at(c, vptr, 0, &off)) {
		bool by_ptr = args[1] && *args[1] &&
			(args[1][strlen(args[1]) - 1] == '*' ||
			 !strncmp(args[1], "std::reference_wrapper<", 23));
		uint64_t obj_off;

		if (!strstr(args[0], "::*)"))
			name = function_pointer(c, state, off);
		else if (by_ptr && element_at(c, vptr, 1, &obj_off))
			name = member_pointer(c, state, off, obj_off);
		else
			name = member_pointer(c, state, off, UINT64_MAX);
	}
	if (!name)
		rg_trace("std::thread state at 0x%llx: cannot tell which '%s' it runs",
			 (unsigned long long)state, args[0]);
	free(args[0]);
	free(args[1]);
	return name;
}

/* Does the thread start in the C++ library's routine, not the program's? */
static bool cxx_routine(struct starts_ctx *c, uint64_t routine, const char *name)
{
	struct obj_at o;
	const char *base;

	if (name)
		return !strncmp(name, "execute_native_thread_routine", 29);
	if (!locate(c, routine, &o) || !o.path)
		return false;
	base = strrchr(o.path, '/');
	return !strncmp(base ? base + 1 : o.path, "libstdc++", 9);
}

char *starts_name(plan *p, tracer *tr, const run_bias *bt, pid_t pid, pid_t tid,
		  uint64_t routine, uint64_t arg)
{
	struct starts_ctx c = {p, tr, bt, pid, tid, NULL, 0, false};
	const char *own = dwarfx_start_name_at(p->dx, run_bias_exe_site(bt, routine).link_addr);
	char *name, *callable;

	/* most threads start in the program's own code: no need for the maps */
	if (own && strncmp(own, "execute_native_thread_routine", 29))
		return xstrdup(own);
	name = function_at(&c, routine, false, true);
	if (cxx_routine(&c, routine, name) && (callable = std_thread_callable(&c, arg))) {
		free(name);
		name = callable;
	}
	if (c.maps_read)
		tracer_maps_free(c.maps, c.nmaps);
	return name;
}

bool starts_thread_library(const char *path)
{
	static const char *const names[] = {
		"libc.so", "libc-", "libpthread",   /* glibc */
		"libc.musl-", "ld-musl-",           /* musl */
	};
	const char *b = strrchr(path, '/');
	size_t i;

	b = b ? b + 1 : path;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(b, names[i], strlen(names[i])))
			return true;
	return false;
}

/* The routine the first {start:} selector of sp names, or NULL. */
static const char *first_start(const spec *sp)
{
	size_t i;

	for (i = 0; i < sp->naliases; i++)
		if (sp->aliases[i].sel.kind == SPEC_SEL_MATCH && sp->aliases[i].sel.start)
			return sp->aliases[i].sel.start;
	for (i = 0; i < sp->ngates; i++)
		if (sp->gates[i].thread.kind == SPEC_SEL_MATCH && sp->gates[i].thread.start)
			return sp->gates[i].thread.start;
	return NULL;
}

void starts_none_found(const plan *p, const char *why, rg_buf *warnings)
{
	const char *start = first_start(p->sp);

	if (!start)
		return;   /* nothing needs it: a program may well have no threads */
	if (why)
		rg_buf_printf(warnings, "cannot look for pthread_create in '%s' or its "
			      "libraries (%s): {start: %s} selectors cannot match\n",
			      p->exe, why, start);
	else
		rg_buf_printf(warnings, "no pthread_create found in '%s' or its "
			      "libraries: {start: %s} selectors cannot match\n",
			      p->exe, start);
}

void starts_unnamed(const plan *p, rg_buf *warnings)
{
	const char *start = first_start(p->sp);
	char *line;

	if (!start)
		return;
	line = xasprintf("a thread of '%s' started without pthread_create, or with "
			 "a start routine racegate cannot name: {start: %s} "
			 "selectors cannot match it\n", p->exe, start);
	if (!warnings->s || !strstr(warnings->s, line))
		rg_buf_puts(warnings, line);
	free(line);
}
