/*
 * A when: condition compiled into an x86-64 jump pad (arch_pad_encode,
 * arch.h): common/cond_ops.h's stack machine, as code.
 */
#include "emit.h"

#include <stdlib.h>

/*
 * The condition runs as a stack machine whose top is in %rax and the rest
 * on the thread's stack, below the registers the pad saved (%rdx at 0, %rcx
 * at 8, %rax at 16 from the pad's stack pointer, the flags at 24; the site's
 * stack pointer 160 above it) and below the slot pointer (%rcx) it pushes
 * first.  It may use %rax, %rcx, %rdx only: the pad puts them back.  Every
 * instruction's depth (words pushed) is recorded, so that the tracer can take
 * a thread out of the condition at any instruction (a load that faults, a
 * let-go) and put it on the trap path with its stack pointer back.
 */
#define COND_SAVED_RDX 0
#define COND_SAVED_RCX 8
#define COND_SAVED_RAX 16
#define COND_SITE_SP 160           /* the red zone and four saved words */
#define COND_FIX_MAX 256

struct cemit {
	struct emit *e;
	uint8_t *depth;            /* per byte from base */
	size_t base;
	size_t limit;              /* e->n may not pass it */
	unsigned words;            /* pushed below the saved registers now */
	int d;                     /* values on the evaluation stack */
	bool over;
	size_t falses[COND_FIX_MAX]; /* rel32s to the false exit (division by 0) */
	size_t nfalses;
	size_t jfix[COND_FIX_MAX]; /* rel32s of O_JZ/O_JNZ, to op jop[k] */
	size_t jop[COND_FIX_MAX];
	size_t njumps;
};

/* One instruction, its depth recorded. */
static void ci(struct cemit *c, const uint8_t *b, size_t n)
{
	if (c->over || c->e->n + n > c->limit) {
		c->over = true;
		return;
	}
	c->depth[c->e->n - c->base] = (uint8_t)c->words;
	put(c->e, b, n);
}

#define CI(c, ...) ci((c), (const uint8_t[]){ __VA_ARGS__ }, \
		      sizeof((const uint8_t[]){ __VA_ARGS__ }))

static void c_words(struct cemit *c)
{
	c->words = 1 + (unsigned)(c->d > 1 ? c->d - 1 : 0);
}

/* An instruction ending in a 32-bit immediate or displacement. */
static void ci32(struct cemit *c, const uint8_t *op, size_t n, int32_t v)
{
	uint8_t b[16];

	memcpy(b, op, n);
	memcpy(b + n, &v, 4);
	ci(c, b, n + 4);
}

static void c_mov_imm(struct cemit *c, int64_t v)
{
	uint8_t b[10] = { 0x48, 0xb8 };

	if (v == (int32_t)v) {
		ci32(c, (const uint8_t[]){ 0x48, 0xc7, 0xc0 }, 3, (int32_t)v);
		return;
	}
	memcpy(b + 2, &v, 8);
	ci(c, b, 10);                    /* movabs $v,%rax */
}

/* Room for one more value: the top goes to the stack. */
static void c_push(struct cemit *c)
{
	if (c->d >= 1)
		CI(c, 0x50);             /* push %rax */
	c->d++;
	c_words(c);
}

/* The second value to %rcx: the top stays in %rax. */
static void c_pop_rcx(struct cemit *c)
{
	CI(c, 0x59);                     /* pop %rcx */
	c->d--;
	c_words(c);
}

/* The top is dropped: the next one to %rax. */
static void c_drop(struct cemit *c)
{
	if (c->d >= 2)
		CI(c, 0x58);             /* pop %rax */
	c->d--;
	c_words(c);
}

/* DWARF register r (x86-64 psABI numbering) to %rax. */
static const char *c_reg(struct cemit *c, uint32_t r, uint64_t site)
{
	/* DWARF 0-15 -> the x86 register number */
	static const uint8_t x86[16] = { 0, 2, 1, 3, 6, 7, 5, 4, 8, 9, 10, 11, 12, 13, 14, 15 };
	int32_t above = (int32_t)(8 * c->words);

	if (r == 16) {
		c_mov_imm(c, (int64_t)site);
		return NULL;
	}
	if (r > 16)
		return "it reads a register other than the general ones";
	switch (x86[r]) {
	case 0:
		ci32(c, (const uint8_t[]){ 0x48, 0x8b, 0x84, 0x24 }, 4, above + COND_SAVED_RAX);
		break;
	case 1:
		ci32(c, (const uint8_t[]){ 0x48, 0x8b, 0x84, 0x24 }, 4, above + COND_SAVED_RCX);
		break;
	case 2:
		ci32(c, (const uint8_t[]){ 0x48, 0x8b, 0x84, 0x24 }, 4, above + COND_SAVED_RDX);
		break;
	case 4:                          /* lea site_sp(%rsp),%rax */
		ci32(c, (const uint8_t[]){ 0x48, 0x8d, 0x84, 0x24 }, 4, above + COND_SITE_SP);
		break;
	default:                         /* mov %reg,%rax */
		CI(c, (uint8_t)(0x48 | (x86[r] >= 8 ? 0x04 : 0)), 0x89,
		   (uint8_t)(0xc0 | ((x86[r] & 7) << 3)));
	}
	return NULL;
}

static const char *c_load(struct cemit *c, unsigned size, bool sgn)
{
	switch (size) {
	case 1:
		if (sgn)
			CI(c, 0x48, 0x0f, 0xbe, 0x00);   /* movsbq (%rax),%rax */
		else
			CI(c, 0x0f, 0xb6, 0x00);         /* movzbl (%rax),%eax */
		return NULL;
	case 2:
		if (sgn)
			CI(c, 0x48, 0x0f, 0xbf, 0x00);
		else
			CI(c, 0x0f, 0xb7, 0x00);
		return NULL;
	case 4:
		if (sgn)
			CI(c, 0x48, 0x63, 0x00);         /* movslq (%rax),%rax */
		else
			CI(c, 0x8b, 0x00);               /* mov (%rax),%eax */
		return NULL;
	case 8:
		CI(c, 0x48, 0x8b, 0x00);
		return NULL;
	}
	return "it reads a value of an odd size";
}

/* top := top's low size bytes, sign- or zero-extended (O_NORM). */
static void c_norm(struct cemit *c, unsigned size, bool sgn)
{
	uint8_t n = (uint8_t)(64 - 8 * size);

	if (size >= 8)
		return;
	if (size == 0) {
		CI(c, 0x31, 0xc0);
		return;
	}
	CI(c, 0x48, 0xc1, 0xe0, n);              /* shl $n,%rax */
	if (sgn)
		CI(c, 0x48, 0xc1, 0xf8, n);      /* sar $n,%rax */
	else
		CI(c, 0x48, 0xc1, 0xe8, n);      /* shr $n,%rax */
}

static void c_bitx(struct cemit *c, int64_t first, uint32_t width, bool sgn)
{
	if (first >= 64 || width == 0) {
		CI(c, 0x31, 0xc0);               /* xor %eax,%eax */
		return;
	}
	if (first > 0)
		CI(c, 0x48, 0xc1, 0xe8, (uint8_t)first);
	if (width >= 64)
		return;
	CI(c, 0x48, 0xc1, 0xe0, (uint8_t)(64 - width));
	if (sgn)
		CI(c, 0x48, 0xc1, 0xf8, (uint8_t)(64 - width));
	else
		CI(c, 0x48, 0xc1, 0xe8, (uint8_t)(64 - width));
}

/* %rax := %rax (cc %rcx, %rax) as 0 or 1: a compare of a (in %rcx) with b. */
static void c_setcc(struct cemit *c, uint8_t cc, bool cmp)
{
	if (cmp)
		CI(c, 0x48, 0x39, 0xc1);         /* cmp %rax,%rcx: a - b */
	else
		CI(c, 0x48, 0x85, 0xc0);         /* test %rax,%rax */
	CI(c, 0x0f, cc, 0xc0);                   /* setcc %al */
	CI(c, 0x0f, 0xb6, 0xc0);                 /* movzbl %al,%eax */
}

/* a (%rcx) shifted by b (%rax); 64 or more: 0, or the sign for sar. */
static void c_shift(struct cemit *c, int code)
{
	uint8_t ext = code == O_SHL ? 0xe0 : code == O_SHRU ? 0xe8 : 0xf8;

	CI(c, 0x48, 0x91);                       /* xchg %rax,%rcx */
	CI(c, 0x48, 0x83, 0xf9, 0x3f);           /* cmp $63,%rcx */
	CI(c, 0x77, 0x05);                       /* ja big */
	CI(c, 0x48, 0xd3, ext);                  /* shl/shr/sar %cl,%rax */
	CI(c, 0xeb, 0x04);                       /* jmp done */
	if (code == O_SHRS)                      /* big: */
		CI(c, 0x48, 0xc1, 0xf8, 0x3f);   /* sar $63,%rax */
	else
		CI(c, 0x48, 0x31, 0xc0, 0x90);   /* xor %rax,%rax; nop */
}

/* a (%rcx) divided by b (%rax) as expr_eval does. */
static void c_div(struct cemit *c, int code)
{
	bool sgn = code == O_DIVS || code == O_MODS, mod = code == O_MODS || code == O_MODU;
	unsigned w = c->words;

	CI(c, 0x48, 0x85, 0xc0);                 /* test %rax,%rax */
	CI(c, 0x75, 0x0d);                       /* jnz ok */
	/* by zero: the condition is false; the stack back to one word */
	ci32(c, (const uint8_t[]){ 0x48, 0x8d, 0xa4, 0x24 }, 4, (int32_t)(8 * (w - 1)));
	c->words = 1;
	ci32(c, (const uint8_t[]){ 0xe9 }, 1, 0);
	c->words = w;
	if (c->nfalses < COND_FIX_MAX)
		c->falses[c->nfalses++] = c->e->n - 4;
	else
		c->over = true;
	if (sgn) {
		/* by -1: no idiv (INT64_MIN / -1 raises #DE): -a, remainder 0 */
		CI(c, 0x48, 0x83, 0xf8, 0xff);   /* ok: cmp $-1,%rax */
		CI(c, 0x75, 0x08);               /* jne div */
		if (mod)
			CI(c, 0x31, 0xc0, 0x90, 0x90, 0x90, 0x90); /* xor %eax,%eax */
		else
			CI(c, 0x48, 0x89, 0xc8, 0x48, 0xf7, 0xd8); /* mov %rcx,%rax; neg %rax */
		CI(c, 0xeb, 0x0a);               /* jmp done */
		CI(c, 0x48, 0x91);               /* div: xchg %rax,%rcx */
		CI(c, 0x48, 0x99);               /* cqo */
		CI(c, 0x48, 0xf7, 0xf9);         /* idiv %rcx */
	} else {
		CI(c, 0x48, 0x91);
		CI(c, 0x31, 0xd2);               /* xor %edx,%edx */
		CI(c, 0x48, 0xf7, 0xf1);         /* div %rcx */
	}
	CI(c, 0x48, 0x89, mod ? 0xd0 : 0xc0);    /* mov %rdx,%rax (or %rax,%rax); done: */
}

static const char *c_binary(struct cemit *c, int code)
{
	static const uint8_t cc[] = {
		[O_EQ] = 0x94, [O_NE] = 0x95, [O_LTS] = 0x9c, [O_LES] = 0x9e,
		[O_GTS] = 0x9f, [O_GES] = 0x9d, [O_LTU] = 0x92, [O_LEU] = 0x96,
		[O_GTU] = 0x97, [O_GEU] = 0x93,
	};

	c_pop_rcx(c);
	switch (code) {
	case O_ADD: CI(c, 0x48, 0x01, 0xc8); break;
	case O_SUB: CI(c, 0x48, 0x29, 0xc1); CI(c, 0x48, 0x89, 0xc8); break;
	case O_MUL: CI(c, 0x48, 0x0f, 0xaf, 0xc1); break;
	case O_AND: CI(c, 0x48, 0x21, 0xc8); break;
	case O_OR: CI(c, 0x48, 0x09, 0xc8); break;
	case O_XOR: CI(c, 0x48, 0x31, 0xc8); break;
	case O_SHL: case O_SHRS: case O_SHRU: c_shift(c, code); break;
	case O_DIVS: case O_DIVU: case O_MODS: case O_MODU: c_div(c, code); break;
	case O_EQ: case O_NE: case O_LTS: case O_LES: case O_GTS: case O_GES:
	case O_LTU: case O_LEU: case O_GTU: case O_GEU:
		c_setcc(c, cc[code], true);
		break;
	default:
		return "it has an op racegate's pads do not run";
	}
	return NULL;
}

/* O_JZ / O_JNZ: forward only, to an op reached with the same depth. */
static const char *c_jump(struct cemit *c, const cond_op *op, size_t i, size_t n,
			  int *expect)
{
	size_t to = (size_t)op->arg;

	if (op->arg <= (int64_t)i || to > n || c->njumps == COND_FIX_MAX)
		return "it jumps backwards or too often";
	if (expect[to] >= 0 && expect[to] != c->d)
		return "its stack depth differs between paths";
	expect[to] = c->d;
	CI(c, 0x48, 0x85, 0xc0);                 /* test %rax,%rax */
	if (op->code == O_JZ) {
		ci32(c, (const uint8_t[]){ 0x0f, 0x84 }, 2, 0);  /* jz to (with 0) */
	} else {
		CI(c, 0x74, 0x0a);               /* jz on */
		CI(c, 0xb8, 0x01, 0x00, 0x00, 0x00); /* mov $1,%eax */
		ci32(c, (const uint8_t[]){ 0xe9 }, 1, 0);
	}
	c->jfix[c->njumps] = c->e->n - 4;
	c->jop[c->njumps++] = to;
	c_drop(c);                               /* on: */
	return NULL;
}

static const char *c_op(struct cemit *c, const cond_op *op, uint64_t site)
{
	static const int need[] = {
		[O_LOAD] = 1, [O_NEG] = 1, [O_NOT] = 1, [O_LNOT] = 1, [O_BOOL] = 1,
		[O_PLUS_CONST] = 1, [O_NORM] = 1, [O_BITX] = 1, [O_DUP] = 1,
		[O_DROP] = 1, [O_SWAP] = 2, [O_OVER] = 2, [O_JZ] = 1, [O_JNZ] = 1,
	};
	int k = op->code < sizeof(need) / sizeof(need[0]) ? need[op->code] : 0;

	if (op->code >= O_ADD && op->code <= O_GEU && op->code != O_NEG &&
	    op->code != O_NOT && op->code != O_LNOT && op->code != O_BOOL)
		k = 2;
	if (c->d < k)
		return "its stack underflows";
	if (c->d >= PAD_COND_WORDS)
		return "it needs more stack than a pad allows";
	switch (op->code) {
	case O_CONST: c_push(c); c_mov_imm(c, op->arg); return NULL;
	case O_REG: c_push(c); return c_reg(c, op->aux, site);
	case O_LOAD: return c_load(c, op->size, op->sgn);
	case O_NEG: CI(c, 0x48, 0xf7, 0xd8); return NULL;
	case O_NOT: CI(c, 0x48, 0xf7, 0xd0); return NULL;
	case O_LNOT: c_setcc(c, 0x94, false); return NULL;
	case O_BOOL: c_setcc(c, 0x95, false); return NULL;
	case O_PLUS_CONST:
		if (op->arg == (int32_t)op->arg) {
			ci32(c, (const uint8_t[]){ 0x48, 0x05 }, 2, (int32_t)op->arg);
		} else {
			uint8_t b[10] = { 0x48, 0xb9 };

			memcpy(b + 2, &op->arg, 8);
			ci(c, b, 10);            /* movabs $arg,%rcx */
			CI(c, 0x48, 0x01, 0xc8);
		}
		return NULL;
	case O_NORM: c_norm(c, op->size, op->sgn); return NULL;
	case O_BITX:
		if (op->arg < 0)
			return "it extracts bits before the first";
		c_bitx(c, op->arg, op->aux, op->sgn);
		return NULL;
	case O_DUP: CI(c, 0x50); c->d++; c_words(c); return NULL;
	case O_DROP: c_drop(c); return NULL;
	case O_SWAP: CI(c, 0x48, 0x87, 0x04, 0x24); return NULL;   /* xchg %rax,(%rsp) */
	case O_OVER:
		CI(c, 0x50);
		c->d++;
		c_words(c);
		CI(c, 0x48, 0x8b, 0x44, 0x24, 0x08);             /* mov 8(%rsp),%rax */
		return NULL;
	case O_BIAS: return "it names a variable of another object";
	case O_HIT: return "it uses $hit";
	case O_TID: return "it uses $tid";
	case O_THREAD: return "it uses $thread";
	case O_STREQ: return "it uses $streq";
	}
	return c_binary(c, op->code);
}

/*
 * The ops from the pad's push of %rcx on; on success the value is in %rax
 * with one word (the slot pointer) pushed.  NULL, or why not.
 */
static const char *cond_body(struct cemit *c, const cond_op *ops, size_t n, uint64_t site)
{
	int expect[PAD_COND_OPS + 1];
	size_t opoff[PAD_COND_OPS + 1];
	const char *why;

	if (n > PAD_COND_OPS)
		return "its code is over a pad's budget";
	for (size_t i = 0; i <= n; i++)
		expect[i] = -1;
	for (size_t i = 0; i < n; i++) {
		if (expect[i] >= 0 && expect[i] != c->d)
			return "its stack depth differs between paths";
		opoff[i] = c->e->n;
		if (ops[i].code == O_JZ || ops[i].code == O_JNZ)
			why = c->d < 1 ? "its stack underflows" : c_jump(c, &ops[i], i, n, expect);
		else
			why = c_op(c, &ops[i], site);
		if (why)
			return why;
		if (c->over)
			return "its code is over a pad's budget";
	}
	opoff[n] = c->e->n;
	if ((expect[n] >= 0 && expect[n] != c->d) || c->d != 1)
		return "its stack depth differs between paths";
	for (size_t k = 0; k < c->njumps; k++)
		fix_j32(c->e, c->jfix[k], opoff[c->jop[k]]);
	return NULL;
}

/* The condition's block (emit.h, arch_pad_encode). */
const char *arch_x86_pad_cond(struct arch_pad *p, struct emit *e, size_t pass, size_t trap)
{
	struct cemit *c = xcalloc(1, sizeof(*c));
	size_t start = e->n, j_off, j_true, tail, cfalse;
	const char *why;

	memset(p->depth, PAD_DEPTH_NONE, sizeof(p->depth));
	c->e = e;
	c->depth = p->depth;
	c->base = start;
	c->limit = PAD_CODE_MAX;
	CI(c, 0x80, 0x79, PAD_COND_OFF, 0x00);   /* cmpb $0,cond(%rcx) */
	ci32(c, (const uint8_t[]){ 0x0f, 0x84 }, 2, 0);
	j_off = e->n - 4;
	CI(c, 0x51);                              /* push %rcx */
	c->words = 1;
	why = cond_body(c, p->cond, p->ncond, p->site);
	if (!why) {
		CI(c, 0x59);                      /* pop %rcx */
		c->words = 0;
		CI(c, 0x48, 0x85, 0xc0);          /* test %rax,%rax */
		ci32(c, (const uint8_t[]){ 0x0f, 0x85 }, 2, 0);
		j_true = e->n - 4;
		tail = e->n;                      /* lock incq false(%rcx) */
		CI(c, 0xf0, 0x48, 0xff, 0x41, PAD_FALSE_OFF);
		ci32(c, (const uint8_t[]){ 0xe9 }, 1, 0);
		if (!c->over)
			fix_j32(e, e->n - 4, pass);
		cfalse = e->n;
		c->words = 1;
		CI(c, 0x59);
		c->words = 0;
		ci32(c, (const uint8_t[]){ 0xe9 }, 1, 0);
		if (c->over) {
			why = "its code is over a pad's budget";
		} else {
			fix_j32(e, e->n - 4, tail);
			fix_j32(e, j_off, trap);
			fix_j32(e, j_true, trap);
			for (size_t k = 0; k < c->nfalses; k++)
				fix_j32(e, c->falses[k], cfalse);
		}
	}
	free(c);
	if (why) {
		memset(e->out + start, 0xcc, PAD_CODE_MAX - start);
		memset(p->depth, PAD_DEPTH_NONE, sizeof(p->depth));
		e->n = start;
		return why;
	}
	p->cond_lo = p->at + start;
	p->cond_hi = p->at + e->n;
	p->cond_exit = p->at + trap;
	return NULL;
}
