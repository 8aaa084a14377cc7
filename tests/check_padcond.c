/*
 * The jump pad's `when:` compiler (arch/x86_64/pad_cond.c) against expr_eval:
 * random stack-machine programs over registers, constants and loads are
 * compiled into a real pad in this process, which is called with the
 * registers set (a small trampoline), and must trap exactly when expr_eval
 * says the condition holds (a false one adds to the slot's false count).
 * Each program's value is compared bit by bit, so a wrong value shows.
 */
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <asm/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "expr_int.h"
#include "tracer_int.h"

/* padtest_call(fn, regs): fn called with the 16 general registers from
 * regs[] (DWARF order); regs[7] gets the stack pointer fn starts with. */
uint64_t padtest_call(uint64_t fn, uint64_t *regs);
__asm__(".text\n.globl padtest_call\n.type padtest_call,@function\npadtest_call:\n"
	"push %rbx\npush %rbp\npush %r12\npush %r13\npush %r14\npush %r15\n"
	"push %rsi\npush %rdi\n"
	"lea -8(%rsp),%rax\nmov %rax,56(%rsi)\n"
	"mov 0(%rsi),%rax\nmov 8(%rsi),%rdx\nmov 16(%rsi),%rcx\nmov 24(%rsi),%rbx\n"
	"mov 48(%rsi),%rbp\nmov 64(%rsi),%r8\nmov 72(%rsi),%r9\nmov 80(%rsi),%r10\n"
	"mov 88(%rsi),%r11\nmov 96(%rsi),%r12\nmov 104(%rsi),%r13\nmov 112(%rsi),%r14\n"
	"mov 120(%rsi),%r15\nmov 40(%rsi),%rdi\nmov 32(%rsi),%rsi\n"
	"call *(%rsp)\n"
	"add $16,%rsp\npop %r15\npop %r14\npop %r13\npop %r12\npop %rbp\npop %rbx\nret\n"
	".size padtest_call,.-padtest_call\n");

static volatile sig_atomic_t traps;
static uint8_t mem[64];

static void on_trap(int sig)
{
	(void)sig;
	traps++;
}

static size_t host_read(void *ctx, const expr_read *r, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n; i++)
		memcpy(r[i].buf, (const void *)(uintptr_t)r[i].addr, r[i].len);
	return n;
}

struct gen {
	cond_op ops[200];
	size_t n;
	int d;
};

static uint64_t rnd(void)
{
	return ((uint64_t)random() << 33) ^ ((uint64_t)random() << 11) ^ (uint64_t)random();
}

static int64_t some_value(void)
{
	static const int64_t pick[] = { 0, 1, -1, 2, 63, 64, 65, INT64_MIN, INT64_MAX, 255,
					-128, 0x7fffffff, 0x80000000LL };

	return random() % 3 ? pick[random() % 13] : (int64_t)rnd();
}

static void op(struct gen *g, int code, int64_t arg, uint32_t aux, uint8_t size, uint8_t sgn)
{
	g->ops[g->n++] = (cond_op){ .code = (uint8_t)code, .arg = arg, .aux = aux,
				    .size = size, .sgn = sgn };
}

/* One expression pushing one value, depth at most h. */
static void gen(struct gen *g, int h)
{
	static const int bin[] = { O_ADD, O_SUB, O_MUL, O_DIVS, O_DIVU, O_MODS, O_MODU,
				   O_AND, O_OR, O_XOR, O_SHL, O_SHRS, O_SHRU, O_EQ, O_NE,
				   O_LTS, O_LES, O_GTS, O_GES, O_LTU, O_LEU, O_GTU, O_GEU };
	static const int un[] = { O_NEG, O_NOT, O_LNOT, O_BOOL };
	static const uint8_t sizes[] = { 1, 2, 4, 8 };
	int k = h <= 0 || g->n > 150 ? (int)(random() % 3) : (int)(random() % 10);

	switch (k) {
	case 0: op(g, O_CONST, some_value(), 0, 0, 0); break;
	case 1: op(g, O_REG, 0, (uint32_t)(random() % 17), 0, 0); break;
	case 2: {
		uint8_t sz = sizes[random() % 4];

		op(g, O_CONST, (int64_t)(uintptr_t)(mem + random() % (64 - sz + 1)), 0, 0, 0);
		op(g, O_LOAD, 0, 0, sz, (uint8_t)(random() % 2));
		break;
	}
	case 3: case 4:
		gen(g, h - 1);
		gen(g, h - 1);
		op(g, bin[random() % 23], 0, 0, 0, 0);
		break;
	case 5:
		gen(g, h - 1);
		op(g, un[random() % 4], 0, 0, 0, 0);
		if (random() % 2)
			op(g, O_PLUS_CONST, some_value(), 0, 0, 0);
		break;
	case 6:
		gen(g, h - 1);
		if (random() % 2)
			op(g, O_NORM, 0, 0, (uint8_t)(1 + random() % 8), (uint8_t)(random() % 2));
		else
			op(g, O_BITX, (int64_t)(random() % 70), (uint32_t)(random() % 70), 0,
			   (uint8_t)(random() % 2));
		break;
	case 7:                     /* a && b, a || b: forward jumps */
	{
		size_t j;

		gen(g, h - 1);
		j = g->n;
		op(g, random() % 2 ? O_JZ : O_JNZ, 0, 0, 0, 0);
		gen(g, h - 1);
		op(g, O_BOOL, 0, 0, 0, 0);
		g->ops[j].arg = (int64_t)g->n;
		break;
	}
	case 8:
		gen(g, h - 1);
		gen(g, h - 1);
		op(g, random() % 2 ? O_SWAP : O_OVER, 0, 0, 0, 0);
		if (g->ops[g->n - 1].code == O_OVER)
			op(g, bin[random() % 23], 0, 0, 0, 0);
		op(g, bin[random() % 23], 0, 0, 0, 0);
		break;
	default:
		gen(g, h - 1);
		op(g, O_DUP, 0, 0, 0, 0);
		op(g, random() % 2 ? O_DROP : O_ADD, 0, 0, 0, 0);
	}
}

struct rig {
	arch *a;
	uint8_t *page;              /* site, pad, table: a page each */
	struct arch_insn insn;
	uint64_t fs;
};

static void rig_init(struct rig *r)
{
	/* mov $42,%rax; ret */
	static const uint8_t site[] = { 0x48, 0xc7, 0xc0, 0x2a, 0x00, 0x00, 0x00, 0xc3 };
	rg_err err = RG_ERR_INIT;

	ck_assert_int_eq(arch_new(&r->a, &err), 0);
	r->page = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(r->page, MAP_FAILED);
	memcpy(r->page, site, sizeof(site));
	ck_assert_int_eq(arch_decode(r->a, site, sizeof(site), (uint64_t)(uintptr_t)r->page,
				     &r->insn, &err), 0);
	ck_assert_int_eq(syscall(SYS_arch_prctl, ARCH_GET_FS, &r->fs), 0);
	signal(SIGTRAP, on_trap);
}

/* Runs ops in the pad with regs: 1 trapped (true), 0 counted false. */
static int run_pad(struct rig *r, const cond_op *ops, size_t n, uint64_t *regs)
{
	uint8_t *site = r->page, *pad = r->page + 4096, *table = r->page + 8192;
	uint8_t *slot = table + PAD_SLOT0;
	struct arch_pad ap = { .at = (uint64_t)(uintptr_t)pad, .site = (uint64_t)(uintptr_t)site,
			       .insn = &r->insn, .ninsn = 1,
			       .table = (uint64_t)(uintptr_t)table, .cond = ops, .ncond = n };
	uint8_t code[PAD_CODE_MAX];
	rg_err err = RG_ERR_INIT;
	uint64_t hi = UINT64_MAX, falses;
	sig_atomic_t before = traps;

	ck_assert_int_eq(arch_pad_encode(&ap, code, &err), 0);
	ck_assert_msg(ap.cond_lo, "condition not compiled: %s", ap.cond_why);
	memcpy(pad, code, PAD_CODE_MAX);
	memset(table, 0, 4096);
	memcpy(slot + PAD_KEY_OFF, &r->fs, 8);
	memcpy(slot + PAD_HI_OFF, &hi, 8);
	slot[PAD_COND_OFF] = 1;
	slot[PAD_STATE_OFF] = 1;
	ck_assert_uint_eq(padtest_call(ap.at, regs), 42);
	memcpy(&falses, slot + PAD_FALSE_OFF, 8);
	ck_assert_uint_eq(falses + (uint64_t)(traps - before), 1);
	return traps != before;
}

static int run_eval(const cond_op *ops, size_t n, const uint64_t *regs)
{
	expr_op eops[256];
	expr_span span = { 0, 1 };
	expr_code c = { .ops = eops, .nops = n, .spans = &span, .nspans = 1 };
	expr_host h = { .regs = regs, .nregs = 17, .read = host_read };

	for (size_t i = 0; i < n; i++)
		eops[i] = (expr_op){ .code = ops[i].code, .size = ops[i].size, .sgn = ops[i].sgn,
				     .root = -1, .aux = ops[i].aux, .arg = ops[i].arg };
	return expr_eval(&c, &h, NULL);
}

START_TEST(test_pad_cond_random)
{
	const char *why;
	struct rig r;

	if (!arch_pad_supported(&why))
		return;                 /* no rdfsbase: no pads on this machine */
	rig_init(&r);
	srandom(15);
	for (int round = 0; round < 400; round++) {
		struct gen g = { .n = 0 };
		uint64_t regs[17], rr[17];

		for (size_t i = 0; i < 64; i++)
			mem[i] = (uint8_t)random();
		for (size_t i = 0; i < 17; i++)
			regs[i] = (uint64_t)some_value();
		regs[16] = (uint64_t)(uintptr_t)r.page;
		gen(&g, 5);
		/* each bit of the value, and the value itself as a condition */
		for (int bit = -1; bit < 64; bit += 9) {
			struct gen b = g;
			int want, got;

			if (bit >= 0) {
				op(&b, O_CONST, bit, 0, 0, 0);
				op(&b, O_SHRU, 0, 0, 0, 0);
				op(&b, O_CONST, 1, 0, 0, 0);
				op(&b, O_AND, 0, 0, 0, 0);
			}
			memcpy(rr, regs, sizeof(rr));
			got = run_pad(&r, b.ops, b.n, rr);   /* sets rr[7] */
			want = run_eval(b.ops, b.n, rr);
			ck_assert_msg(got == want, "round %d bit %d: pad %d, expr_eval %d (%zu ops)",
				      round, bit, got, want, b.n);
		}
	}
	arch_free(r.a);
}
END_TEST

/* Every binary op over edge values: INT64_MIN / -1, by zero, shifts by 64. */
START_TEST(test_pad_cond_edges)
{
	static const int64_t v[] = { 0, 1, -1, 2, 63, 64, INT64_MIN, INT64_MAX, -64 };
	const char *why;
	struct rig r;

	if (!arch_pad_supported(&why))
		return;
	rig_init(&r);
	for (int code = O_ADD; code <= O_GEU; code++) {
		if (code >= O_NEG && code <= O_BOOL)
			continue;
		for (size_t i = 0; i < 9; i++)
			for (size_t j = 0; j < 9; j++)
				for (int bit = -1; bit < 64; bit += 8) {
					struct gen g = { .n = 0 };
					uint64_t regs[17] = { 0 };
					int want, got;

					op(&g, O_CONST, v[i], 0, 0, 0);
					op(&g, O_CONST, v[j], 0, 0, 0);
					op(&g, code, 0, 0, 0, 0);
					if (bit >= 0) {
						op(&g, O_CONST, bit, 0, 0, 0);
						op(&g, O_SHRU, 0, 0, 0, 0);
						op(&g, O_CONST, 1, 0, 0, 0);
						op(&g, O_AND, 0, 0, 0, 0);
					}
					regs[16] = (uint64_t)(uintptr_t)r.page;
					got = run_pad(&r, g.ops, g.n, regs);
					want = run_eval(g.ops, g.n, regs);
					ck_assert_msg(got == want, "op %d of %lld, %lld bit %d: pad %d, "
						      "expr_eval %d", code, (long long)v[i],
						      (long long)v[j], bit, got, want);
				}
	}
	arch_free(r.a);
}
END_TEST

/*
 * Two pads for the sites of one gate (a line inlined twice) read one slot
 * table: a thread allowed n passes takes them at either site, and traps at
 * the (n+1)-th arrival wherever it comes, as the trap path counts a gate's
 * hits across all its sites.
 */
START_TEST(test_pad_shared_slots)
{
	uint8_t *code2;
	uint8_t code[PAD_CODE_MAX];
	struct rig r;
	const char *why;
	rg_err err = RG_ERR_INIT;
	uint64_t hi = UINT64_MAX, left = 5, regs[17] = { 0 };
	uint8_t *site = NULL, *table, *slot;
	struct arch_pad a, b;
	int arrivals = 0;
	sig_atomic_t before;

	if (!arch_pad_supported(&why))
		return;
	rig_init(&r);
	site = r.page;
	table = r.page + 8192;
	slot = table + PAD_SLOT0;
	/* the second pad in a page of its own, its own table's slots unused */
	code2 = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(code2, MAP_FAILED);
	a = (struct arch_pad){ .at = (uint64_t)(uintptr_t)r.page + 4096,
			       .site = (uint64_t)(uintptr_t)site, .insn = &r.insn, .ninsn = 1,
			       .table = (uint64_t)(uintptr_t)table };
	b = (struct arch_pad){ .at = (uint64_t)(uintptr_t)code2,
			       .site = (uint64_t)(uintptr_t)site, .insn = &r.insn, .ninsn = 1,
			       .table = (uint64_t)(uintptr_t)code2 + 4096,
			       .slots = (uint64_t)(uintptr_t)slot };
	ck_assert_int_eq(arch_pad_encode(&a, code, &err), 0);
	memcpy(r.page + 4096, code, PAD_CODE_MAX);
	ck_assert_int_eq(arch_pad_encode(&b, code, &err), 0);
	memcpy(code2, code, PAD_CODE_MAX);
	memset(table, 0, 4096);
	memset(code2 + 4096, 0, 4096);
	memcpy(slot + PAD_KEY_OFF, &r.fs, 8);
	memcpy(slot + PAD_LEFT_OFF, &left, 8);
	memcpy(slot + PAD_HI_OFF, &hi, 8);
	slot[PAD_STATE_OFF] = 1;
	/* a, b, a, b, ...: five passes in all, then every arrival traps */
	before = traps;
	for (int i = 0; i < 9; i++) {
		regs[16] = (uint64_t)(uintptr_t)site;
		ck_assert_uint_eq(padtest_call(i % 2 ? b.at : a.at, regs), 42);
		if (traps != before && !arrivals)
			arrivals = i + 1;
	}
	ck_assert_int_eq(arrivals, 6);
	ck_assert_int_eq(traps - before, 4);
	memcpy(&left, slot + PAD_LEFT_OFF, 8);
	ck_assert_uint_eq(left, 0);
	munmap(code2, 2 * 4096);
	arch_free(r.a);
}
END_TEST

/* What the pad does not run is refused with a reason, not compiled. */
START_TEST(test_pad_cond_refused)
{
	static const cond_op hit[] = { { .code = O_HIT } };
	static const cond_op deep[PAD_COND_WORDS + 2];
	struct rig r;
	const char *why;
	uint8_t code[PAD_CODE_MAX];
	rg_err err = RG_ERR_INIT;
	struct arch_pad ap;

	if (!arch_pad_supported(&why))
		return;
	rig_init(&r);
	ap = (struct arch_pad){ .at = (uint64_t)(uintptr_t)r.page + 4096,
				.site = (uint64_t)(uintptr_t)r.page, .insn = &r.insn,
				.ninsn = 1, .table = (uint64_t)(uintptr_t)r.page + 8192,
				.cond = hit, .ncond = 1 };
	ck_assert_int_eq(arch_pad_encode(&ap, code, &err), 0);
	ck_assert_uint_eq(ap.cond_lo, 0);
	ck_assert_str_eq(ap.cond_why, "it uses $hit");
	/* O_CONST 0 pushed PAD_COND_WORDS + 2 times */
	ap.cond = deep;
	ap.ncond = PAD_COND_WORDS + 2;
	ck_assert_int_eq(arch_pad_encode(&ap, code, &err), 0);
	ck_assert_uint_eq(ap.cond_lo, 0);
	ck_assert_str_eq(ap.cond_why, "it needs more stack than a pad allows");
	arch_free(r.a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("padcond");
	TCase *tc = tcase_create("compile");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_pad_cond_random);
	tcase_add_test(tc, test_pad_cond_edges);
	tcase_add_test(tc, test_pad_cond_refused);
	tcase_add_test(tc, test_pad_shared_slots);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
