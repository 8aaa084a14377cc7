/*
 * Runs a compiled condition over a stopped thread.  The code only jumps
 * forward, so an evaluation takes at most as many steps as there are ops;
 * the stack's depth was bounded at compile time.
 *
 * Reads: the roots (loads whose address depends on registers and constants
 * only) are fetched first, in one host->read batch; a root in a branch that
 * && or || skips is fetched too, but its failure counts only when the code
 * reaches it.  Every other load is read when reached, through a small cache
 * so that "q->head != q->tail && q->head->next" reads q->head once.
 *
 * Division or remainder by zero ends the evaluation as false (0): C leaves
 * it undefined, and a condition that cannot be computed does not hold.
 */
#include <stdint.h>
#include <string.h>

#include "expr_int.h"
#include "msg.h"

#define CACHE_SLOTS 4

typedef struct cache {
	struct { uint64_t addr; uint8_t len; bool used; uint8_t b[8]; } slot[CACHE_SLOTS];
	unsigned next;
} cache;

typedef struct run {
	const expr_code *c;
	const expr_host *h;
	uint64_t root_addr[EXPR_MAX_ROOTS];
	uint8_t root_buf[EXPR_MAX_ROOTS][8];
	bool root_ok[EXPR_MAX_ROOTS];
	cache cache;
} run;

enum { STEP_OK, STEP_FALSE, STEP_FAULT };

static uint64_t from_bytes(const uint8_t *b, unsigned size, bool sgn)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)b[i] << (8 * i);
	if (sgn && size < 8 && (v >> (8 * size - 1)) & 1)
		v |= ~(uint64_t)0 << (8 * size);
	return v;
}

static uint64_t normalise(uint64_t v, unsigned size, bool sgn)
{
	if (size >= 8)
		return v;
	v &= ((uint64_t)1 << (8 * size)) - 1;
	if (sgn && (v >> (8 * size - 1)) & 1)
		v |= ~(uint64_t)0 << (8 * size);
	return v;
}

static bool host_read(const expr_host *h, uint64_t addr, void *buf, size_t len)
{
	expr_read r = {addr, buf, len};

	return h->read && h->read(h->ctx, &r, 1) == 1;
}

/* A load that was not prefetched: from the cache, or one read. */
static bool dependent_read(run *r, uint64_t addr, unsigned len, uint8_t *out)
{
	cache *c = &r->cache;
	unsigned i;

	for (i = 0; i < CACHE_SLOTS; i++) {
		if (c->slot[i].used && c->slot[i].addr == addr && c->slot[i].len == len) {
			memcpy(out, c->slot[i].b, len);
			return true;
		}
	}
	if (!host_read(r->h, addr, out, len))
		return false;
	i = c->next++ % CACHE_SLOTS;
	c->slot[i].used = true;
	c->slot[i].addr = addr;
	c->slot[i].len = (uint8_t)len;
	memcpy(c->slot[i].b, out, len);
	return true;
}

/* $streq: at most strlen(text)+1 bytes (limit: an array's size), no further. */
static int streq(run *r, uint64_t addr, const char *text, size_t len, uint64_t limit,
		 uint64_t *bad)
{
	uint8_t buf[EXPR_MAX_STR + 1];
	size_t n = len + 1, i;

	if (limit && limit < n)
		n = (size_t)limit;
	if (host_read(r->h, addr, buf, n))
		return !memcmp(buf, text, n) && (n == len + 1 || n == len);
	/* the string may end before an unreadable page: byte by byte */
	for (i = 0; i < n; i++) {
		if (!host_read(r->h, addr + i, buf + i, 1)) {
			*bad = addr + i;
			return -1;
		}
		if (buf[i] != (uint8_t)text[i])
			return 0;
		if (!buf[i])
			return 1;
	}
	return n == len;
}

static bool binop(int code, uint64_t a, uint64_t b, uint64_t *out)
{
	int64_t sa = (int64_t)a, sb = (int64_t)b;

	switch (code) {
	case O_ADD: *out = a + b; break;
	case O_SUB: *out = a - b; break;
	case O_MUL: *out = a * b; break;
	case O_DIVS: case O_MODS:
		if (!b)
			return false;
		if (sa == INT64_MIN && sb == -1)
			*out = code == O_DIVS ? a : 0;
		else
			*out = (uint64_t)(code == O_DIVS ? sa / sb : sa % sb);
		break;
	case O_DIVU: case O_MODU:
		if (!b)
			return false;
		*out = code == O_DIVU ? a / b : a % b;
		break;
	case O_AND: *out = a & b; break;
	case O_OR: *out = a | b; break;
	case O_XOR: *out = a ^ b; break;
	case O_SHL: *out = b >= 64 ? 0 : a << b; break;
	case O_SHRU: *out = b >= 64 ? 0 : a >> b; break;
	case O_SHRS: *out = (uint64_t)(b >= 64 ? (sa < 0 ? -1 : 0) : sa >> b); break;
	case O_EQ: *out = a == b; break;
	case O_NE: *out = a != b; break;
	case O_LTS: *out = sa < sb; break;
	case O_LES: *out = sa <= sb; break;
	case O_GTS: *out = sa > sb; break;
	case O_GES: *out = sa >= sb; break;
	case O_LTU: *out = a < b; break;
	case O_LEU: *out = a <= b; break;
	case O_GTU: *out = a > b; break;
	case O_GEU: *out = a >= b; break;
	default:
		rg_bug("not a binary op: %d", code);
	}
	return true;
}

static void set_fault(const run *r, const expr_op *op, uint64_t addr, expr_fault *f)
{
	if (!f)
		return;
	f->off = r->c->spans[op->span].off;
	f->len = r->c->spans[op->span].len;
	f->addr = addr;
}

/*
 * Runs ops [from, to).  prefetch: computing a root's address (no loads in
 * the range; a failure only marks the root unknown).
 */
static int exec(run *r, size_t from, size_t to, uint64_t *st, int *spp, expr_fault *f)
{
	const expr_code *c = r->c;
	const expr_host *h = r->h;
	int sp = *spp;
	size_t pc;
	uint8_t buf[8];
	uint64_t v;
	int k;

	for (pc = from; pc < to; pc++) {
		const expr_op *op = &c->ops[pc];

		switch (op->code) {
		case O_CONST: st[sp++] = (uint64_t)op->arg; break;
		case O_REG:
			if (op->aux >= h->nregs || !h->regs) {
				set_fault(r, op, 0, f);
				return STEP_FAULT;
			}
			st[sp++] = h->regs[op->aux];
			break;
		case O_BIAS: st[sp++] = h->bias ? h->bias(h->ctx, (int)op->arg) : 0; break;
		case O_HIT: st[sp++] = h->hit; break;
		case O_TID: st[sp++] = (uint64_t)(int64_t)h->tid; break;
		case O_THREAD:
			v = h->thread_is && h->thread_is(h->ctx, c->strs[op->aux]);
			st[sp++] = op->sgn ? !v : v;
			break;
		case O_LOAD:
			v = st[sp - 1];
			if (op->root >= 0 && r->root_ok[op->root] && r->root_addr[op->root] == v) {
				memcpy(buf, r->root_buf[op->root], op->size);
			} else if (!dependent_read(r, v, op->size, buf)) {
				set_fault(r, op, v, f);
				return STEP_FAULT;
			}
			st[sp - 1] = from_bytes(buf, op->size, op->sgn);
			break;
		case O_STREQ: {
			uint64_t bad = 0;

			k = streq(r, st[sp - 1], c->strs[op->aux], c->strlens[op->aux],
				  (uint64_t)op->arg, &bad);
			if (k < 0) {
				set_fault(r, op, bad, f);
				return STEP_FAULT;
			}
			st[sp - 1] = (uint64_t)k;
			break;
		}
		case O_NEG: st[sp - 1] = -st[sp - 1]; break;
		case O_NOT: st[sp - 1] = ~st[sp - 1]; break;
		case O_LNOT: st[sp - 1] = !st[sp - 1]; break;
		case O_BOOL: st[sp - 1] = !!st[sp - 1]; break;
		case O_PLUS_CONST: st[sp - 1] += (uint64_t)op->arg; break;
		case O_NORM: st[sp - 1] = normalise(st[sp - 1], op->size, op->sgn); break;
		case O_BITX:
			v = op->arg >= 64 ? 0 : st[sp - 1] >> op->arg;
			if (op->aux < 64)
				v &= ((uint64_t)1 << op->aux) - 1;
			if (op->sgn && op->aux && op->aux < 64 && (v >> (op->aux - 1)) & 1)
				v |= ~(uint64_t)0 << op->aux;
			st[sp - 1] = v;
			break;
		case O_DUP: st[sp] = st[sp - 1]; sp++; break;
		case O_OVER: st[sp] = st[sp - 2]; sp++; break;
		case O_DROP: sp--; break;
		case O_SWAP: v = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = v; break;
		case O_JZ:
		case O_JNZ:
			v = st[--sp];
			if ((op->code == O_JZ) == !v) {
				st[sp++] = op->code == O_JNZ;
				pc = (size_t)op->arg - 1;
			}
			break;
		default:
			if (!binop(op->code, st[sp - 2], st[sp - 1], &v))
				return STEP_FALSE;
			st[sp - 2] = v;
			sp--;
		}
	}
	*spp = sp;
	return STEP_OK;
}

/* Computes each root's address and reads them all in one batch (more only after a failure). */
static void prefetch(run *r)
{
	const expr_code *c = r->c;
	expr_read reqs[EXPR_MAX_ROOTS];
	uint64_t st[EXPR_MAX_STACK];
	size_t i, j, n = 0, idx[EXPR_MAX_ROOTS], same[EXPR_MAX_ROOTS], done, got;
	int sp;

	for (i = 0; i < c->nroots; i++) {
		same[i] = SIZE_MAX;
		sp = 0;
		if (exec(r, c->root_start[i], c->root_load[i], st, &sp, NULL) != STEP_OK || sp != 1)
			continue;
		r->root_addr[i] = st[0];
		/* the same variable named twice is read once */
		for (j = 0; j < n; j++)
			if (reqs[j].addr == st[0] && reqs[j].len == c->ops[c->root_load[i]].size)
				break;
		if (j < n) {
			same[i] = idx[j];
			continue;
		}
		reqs[n] = (expr_read){st[0], r->root_buf[i], c->ops[c->root_load[i]].size};
		idx[n++] = i;
	}
	if (!r->h->read)
		return;
	for (done = 0; done < n; done += got + 1) {
		got = r->h->read(r->h->ctx, reqs + done, n - done);
		if (got > n - done)
			got = n - done;
		for (i = done; i < done + got; i++)
			r->root_ok[idx[i]] = true;
	}
	for (i = 0; i < c->nroots; i++) {
		if (same[i] != SIZE_MAX && r->root_ok[same[i]]) {
			memcpy(r->root_buf[i], r->root_buf[same[i]], 8);
			r->root_ok[i] = true;
		}
	}
}

int expr_eval(const expr_code *c, const expr_host *h, expr_fault *fault)
{
	uint64_t st[EXPR_MAX_STACK];
	int sp = 0, rc;
	run *r, one;

	r = &one;
	/* only what is read before written: the root flags and the cache */
	memset(r->root_ok, 0, sizeof(r->root_ok));
	memset(&r->cache, 0, sizeof(r->cache));
	r->c = c;
	r->h = h;
	if (c->nroots)
		prefetch(r);
	rc = exec(r, 0, c->nops, st, &sp, fault);
	if (rc == STEP_FAULT)
		return -1;
	if (rc == STEP_FALSE)
		return 0;
	if (sp != 1)
		rg_bug("a condition left %d values", sp);
	return st[0] != 0;
}

size_t expr_code_ops(const expr_code *c, cond_op *out, size_t max)
{
	for (size_t i = 0; i < c->nops && i < max; i++)
		out[i] = (cond_op){ .code = c->ops[i].code, .size = c->ops[i].size,
				    .sgn = c->ops[i].sgn, .aux = c->ops[i].aux,
				    .arg = c->ops[i].arg };
	return c->nops;
}
