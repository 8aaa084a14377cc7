/*
 * check_tracer on the jump pads' code and analysis, on bytes: the pad
 * encoder, the instructions a pad moves and covers, punning, jumps into
 * the patched bytes.  Part of check_tracer, kept apart for the 1,500-line
 * limit.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracer_int.h"
#include "check_tracer.h"

/* ---- jump pads: the pad's code and the analysis, on bytes ---------- */

/* Decodes len bytes at addr one instruction after another: "mnemonic ops\n"... */
static char *disasm(arch *a, const uint8_t *code, size_t len, uint64_t addr,
		    uint64_t *targets, size_t *ntargets)
{
	rg_buf b = RG_BUF_INIT;
	struct arch_insn in;
	rg_err err = RG_ERR_INIT;

	*ntargets = 0;
	for (size_t off = 0; off < len; off += in.len) {
		ck_assert_msg(arch_decode(a, code + off, len - off, addr + off, &in, &err) == 0,
			      "%s", err.msg);
		rg_buf_printf(&b, "%s\n", in.text);
		if (in.flags & ARCH_INSN_RELBRANCH)
			targets[(*ntargets)++] = in.target;
		else if (in.flags & ARCH_INSN_RIPREL)
			targets[(*ntargets)++] = in.riprel_target;
	}
	return b.s;
}

/* The immediate of the first movabs $imm,%rcx in code[0..n). */
static uint64_t movabs_imm(const uint8_t *code, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i + 10 <= n; i++)
		if (code[i] == 0x48 && code[i + 1] == 0xb9) {
			memcpy(&v, code + i + 2, 8);
			return v;
		}
	ck_abort_msg("no movabs $imm,%%rcx in the pad");
	return 0;
}

/* The pad's bytes decode to the intended code, every displacement pointing
 * where it must: the table, its slots, the moved instructions' operand, the
 * way back, the trap's way on. */
START_TEST(test_pad_encode)
{
	/* mov 0x100(%rip),%rax; then a 3-byte and a 4-byte instruction */
	static const uint8_t site_code[] = { 0x48, 0x8b, 0x05, 0x00, 0x01, 0x00, 0x00 };
	const uint64_t site = 0x555555554000ULL, at = 0x555555560000ULL,
		       table = 0x555555570000ULL;
	struct arch_insn insn[PAD_INSNS_MAX];
	struct arch_pad ap = { .at = at, .site = site, .insn = insn, .table = table };
	uint8_t out[PAD_CODE_MAX];
	uint64_t tg[64];
	size_t n, ntg;
	rg_err err = RG_ERR_INIT;
	arch *a;
	char *text;

	ck_assert_int_eq(arch_new(&a, &err), 0);
	ck_assert_ptr_null(tracer_pad_cover(a, site, site_code, sizeof(site_code), false,
					    insn, &n));
	ck_assert_uint_eq(n, 1);
	ap.ninsn = n;
	ck_assert_int_eq(arch_pad_encode(&ap, out, &err), 0);
	text = disasm(a, out, ap.len, at, tg, &ntg);
	/* numbers masked: the targets are checked one by one below */
	for (char *p = text, *q; (q = strstr(p, "0x")); p = q + 1) {
		size_t k = strspn(q + 2, "0123456789abcdef");

		memmove(q + 1, q + 2 + k, strlen(q + 2 + k) + 1);
		*q = 'X';
	}
	ck_assert_str_eq(text,
		"lea rsp, [rsp - X]\n" "pushfq \n" "push rax\n" "push rcx\n" "push rdx\n"
		"cmp byte ptr [rip + X], 0\n" "jne X\n"
		"rdfsbase rax\n" "movabs rcx, X\n"
		"cmp byte ptr [rcx + X], 0\n" "je X\n"
		"cmp byte ptr [rcx + X], 1\n" "jne X\n"
		"cmp rax, qword ptr [rcx]\n" "je X\n"
		"add rcx, X\n" "jmp X\n"
		"cmp rsp, qword ptr [rcx + X]\n" "jb X\n"
		"cmp rsp, qword ptr [rcx + X]\n" "jae X\n"
		"cmp byte ptr [rcx + X], 0\n" "jne X\n"
		"mov rax, qword ptr [rcx + 8]\n"
		"test rax, rax\n" "je X\n" "lea rdx, [rax - 1]\n"
		"cmpxchg qword ptr [rcx + 8], rdx\n" "jne X\n"
		"pop rdx\n" "pop rcx\n" "pop rax\n" "popfq \n" "lea rsp, [rsp + X]\n"
		"mov rax, qword ptr [rip - X]\n" "jmp X\n"
		"pop rdx\n" "pop rcx\n" "pop rax\n" "popfq \n" "lea rsp, [rsp + X]\n"
		"int3 \n" "jmp X\n");
	ck_assert_uint_eq(ntg, 14);
	/* pad off: to the way through; the table's off byte */
	ck_assert_uint_eq(tg[0], table);
	ck_assert_uint_eq(tg[1], ap.reloc - 12);
	/* its first slot, an absolute address (slots may be another pad's) */
	ck_assert_uint_eq(movabs_imm(out, ap.len), table + PAD_SLOT0);
	/* end of the table, another stack (2), force, count 0: to the trap's restore */
	ck_assert_uint_eq(tg[2], ap.trap - 12);
	for (size_t k = 6; k <= 9; k++)
		ck_assert_uint_eq(tg[k], ap.trap - 12);
	/* the moved instruction reads what it read at the site, and goes back */
	ck_assert_uint_eq(tg[11], site + 7 + 0x100);
	ck_assert_uint_eq(tg[12], site + 7);
	/* the trap's way on is the moved instruction */
	ck_assert_uint_eq(tg[13], ap.reloc);
	ck_assert_uint_eq(out[ap.trap - at], 0xcc);
	free(text);
	/* a pad sharing another's slots reads those, wherever they are */
	ap.slots = 0x7f0000001000ULL;
	ck_assert_int_eq(arch_pad_encode(&ap, out, &err), 0);
	ck_assert_uint_eq(movabs_imm(out, ap.len), 0x7f0000001000ULL);
	ap.slots = 0;
	/* a table more than 2 GiB away cannot be reached */
	ap.table = at + (3ULL << 30);
	ck_assert_int_eq(arch_pad_encode(&ap, out, &err), -1);
	arch_free(a);
}
END_TEST

/* The moved instructions of a pad, from the restore before them to the way back. */
static char *pad_moved(arch *a, const uint8_t *site_code, size_t n, uint64_t site,
		       struct arch_pad *ap, uint8_t *out, uint64_t *tg, size_t *ntg)
{
	static struct arch_insn insn[PAD_INSNS_MAX];
	size_t ni;
	rg_err err = RG_ERR_INIT;

	ck_assert_ptr_null(tracer_pad_cover(a, site, site_code, n, true, insn, &ni));
	ap->insn = insn;
	ap->ninsn = ni;
	ck_assert_int_eq(arch_pad_encode(ap, out, &err), 0);
	/* from the copy to the trap's restore (12 bytes before its int3) */
	return disasm(a, out + (ap->reloc - ap->at), ap->trap - 12 - ap->reloc, ap->reloc,
		      tg, ntg);
}

/* Jumps and calls the jump covers go where they went: a jcc and a jmp to
 * their targets with 32-bit displacements, a call as the push of the
 * site's return address and a jump, a call through a register as the jump
 * through it. */
START_TEST(test_pad_moves_flow)
{
	/* 0x...4000: call 0x...4100 (the site is the call) */
	static const uint8_t call[] = { 0xe8, 0xfb, 0x00, 0x00, 0x00 };
	/* test %eax,%eax; je +0x10 (to 0x...4014); jmp -0x7 (to 0x...3fff) */
	static const uint8_t jcc[] = { 0x85, 0xc0, 0x74, 0x10, 0xeb, 0xf9 };
	/* mov %rax,%rdi; call *%rax */
	static const uint8_t callind[] = { 0x48, 0x89, 0xc7, 0xff, 0xd0 };
	const uint64_t site = 0x555555554000ULL;
	struct arch_pad ap = { .at = 0x555555560000ULL, .site = site,
			       .table = 0x555555570000ULL };
	uint8_t out[PAD_CODE_MAX];
	uint64_t tg[16];
	size_t ntg;
	rg_err err = RG_ERR_INIT;
	arch *a;
	char *text;

	ck_assert_int_eq(arch_new(&a, &err), 0);
	text = pad_moved(a, call, sizeof(call), site, &ap, out, tg, &ntg);
	ck_assert_str_eq(text, "lea rsp, [rsp - 8]\n"
			       "mov dword ptr [rsp], 0x55554005\n"
			       "mov dword ptr [rsp + 4], 0x5555\n"
			       "jmp 0x555555554100\n" "jmp 0x555555554005\n");
	ck_assert_uint_eq(ap.reloc_off[0], 0);
	free(text);

	text = pad_moved(a, jcc, sizeof(jcc), site, &ap, out, tg, &ntg);
	ck_assert_str_eq(text, "test eax, eax\n" "je 0x555555554014\n"
			       "jmp 0x555555553fff\n" "jmp 0x555555554006\n");
	/* the jcc grew from 2 bytes to 6: the jmp is 2 + 6 into the copy */
	ck_assert_uint_eq(ap.reloc_off[1], 2);
	ck_assert_uint_eq(ap.reloc_off[2], 8);
	ck_assert_uint_eq(ntg, 3);
	free(text);

	text = pad_moved(a, callind, sizeof(callind), site, &ap, out, tg, &ntg);
	ck_assert_str_eq(text, "mov rdi, rax\n" "lea rsp, [rsp - 8]\n"
			       "mov dword ptr [rsp], 0x55554005\n"
			       "mov dword ptr [rsp + 4], 0x5555\n"
			       "jmp rax\n" "jmp 0x555555554005\n");
	free(text);
	arch_free(a);
}
END_TEST

/* Which instructions a pad's jump covers, and which sites it refuses. */
START_TEST(test_pad_cover)
{
	/* mov -0x18(%rbp),%rax (4 bytes); add $1,%rax (4) */
	static const uint8_t two[] = { 0x48, 0x8b, 0x45, 0xe8, 0x48, 0x83, 0xc0, 0x01 };
	static const uint8_t call[] = { 0xe8, 0x00, 0x00, 0x00, 0x00, 0x90 };
	/* mov %rax,%rdi; je +5: a short jump inside the covered bytes */
	static const uint8_t jcc[] = { 0x48, 0x89, 0xc7, 0x74, 0x05, 0x90, 0x90 };
	static const uint8_t sys[] = { 0x0f, 0x05, 0x90, 0x90, 0x90, 0x90 };
	/* mov %rax,%rdi; call *%rax */
	static const uint8_t callind[] = { 0x48, 0x89, 0xc7, 0xff, 0xd0, 0x90 };
	/* mov %rax,%rdi; pop %rbp; ret (a function's last line) */
	static const uint8_t leave[] = { 0x48, 0x89, 0xc7, 0x5d, 0xc3, 0x90 };
	/* jmp +2; then what a jump elsewhere reaches */
	static const uint8_t jmpfirst[] = { 0xeb, 0x02, 0x90, 0x90, 0x90, 0x90 };
	/* mov %rax,%rdi; call *8(%rsp): the push would move its operand */
	static const uint8_t callrsp[] = { 0x48, 0x89, 0xc7, 0xff, 0x54, 0x24, 0x08 };
	/* rep movsb; 4 nops */
	static const uint8_t rep[] = { 0xf3, 0xa4, 0x90, 0x90, 0x90, 0x90 };
	struct arch_insn insn[PAD_INSNS_MAX];
	size_t n;
	rg_err err = RG_ERR_INIT;
	arch *a;

	ck_assert_int_eq(arch_new(&a, &err), 0);
	ck_assert_str_eq(tracer_pad_cover(a, 0x1000, two, sizeof(two), false, insn, &n),
			 "its first instruction is shorter than 5 bytes");
	ck_assert_ptr_null(tracer_pad_cover(a, 0x1000, two, sizeof(two), true, insn, &n));
	ck_assert_uint_eq(n, 2);
	/* a call, a jcc that falls through to more, a call or return last: they move */
	ck_assert_ptr_null(tracer_pad_cover(a, 0x1000, call, sizeof(call), true, insn, &n));
	ck_assert_uint_eq(n, 1);
	ck_assert_ptr_null(tracer_pad_cover(a, 0x1000, jcc, sizeof(jcc), true, insn, &n));
	ck_assert_uint_eq(n, 2);
	ck_assert_ptr_null(tracer_pad_cover(a, 0x1000, callind, sizeof(callind), true, insn, &n));
	ck_assert_uint_eq(n, 2);
	ck_assert_ptr_null(tracer_pad_cover(a, 0x1000, leave, sizeof(leave), true, insn, &n));
	ck_assert_uint_eq(n, 3);
	/* one with bytes behind it that the jump covers: those are reached from elsewhere */
	ck_assert_str_eq(tracer_pad_cover(a, 0x1000, jmpfirst, sizeof(jmpfirst), true, insn, &n),
			 "a jump, call or return in its first 5 bytes is followed by more of them");
	ck_assert_str_eq(tracer_pad_cover(a, 0x1000, callrsp, sizeof(callrsp), true, insn, &n),
			 "an instruction in its first 5 bytes cannot run elsewhere "
			 "(system call, interrupt, loop, 16-bit jump)");
	ck_assert_ptr_nonnull(tracer_pad_cover(a, 0x1000, sys, sizeof(sys), true, insn, &n));
	/* a string instruction goes on to the next one: it may move */
	ck_assert_ptr_null(tracer_pad_cover(a, 0x1000, rep, sizeof(rep), true, insn, &n));
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(tracer_pad_cover(a, 0x1000, two, 3, true, insn, &n),
			 "its instructions cannot be decoded");
	arch_free(a);
}
END_TEST

/*
 * A jump over short instructions: which it takes, and which refuse (a first
 * instruction that never moves or is long, a call whose return address is
 * among the kept bytes, kept bytes that do not decode); where its pad may go.
 */
START_TEST(test_pad_pun)
{
	/* jmp +14; movabs $..,%rax: the jump alone, the movabs's bytes kept */
	static const uint8_t jmp[] = { 0xeb, 0x0e, 0x48, 0xb8, 0x90, 0x90, 0x90, 0x90,
				       0x90, 0x90, 0x90, 0x90 };
	/* pop %rbp; ret; push %rbp; mov %rsp,%rbp (the next function) */
	static const uint8_t brace[] = { 0x5d, 0xc3, 0x55, 0x48, 0x89, 0xe5 };
	/* nop; loop +0: the loop never moves, the nop alone */
	static const uint8_t nopnever[] = { 0x90, 0xe2, 0x00, 0x48, 0xb8, 0x90, 0x90, 0x90,
					    0x90, 0x90, 0x90, 0x90, 0x90 };
	/* call *%rax; nop...: it would return into the kept bytes */
	static const uint8_t callind[] = { 0xff, 0xd0, 0x90, 0x90, 0x90, 0x90 };
	/* nop; call *%rax; nop: the same, behind the covered nop */
	static const uint8_t callbehind[] = { 0x90, 0x90, 0xff, 0xd0, 0x90, 0x90 };
	/* syscall first; a 5-byte call first */
	static const uint8_t sys[] = { 0x0f, 0x05, 0x90, 0x90, 0x90, 0x90 };
	static const uint8_t call5[] = { 0xe8, 0x00, 0x00, 0x00, 0x00, 0x90 };
	struct arch_insn insn[PAD_INSNS_MAX];
	uint64_t lo, hi;
	size_t n;
	rg_err err = RG_ERR_INIT;
	arch *a;

	ck_assert_int_eq(arch_new(&a, &err), 0);
	ck_assert_ptr_null(tracer_pad_pun_cover(a, 0x1000, jmp, sizeof(jmp), true, insn, &n));
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(insn[0].len, 2);
	/* both, the return last; only the first without the function known */
	ck_assert_ptr_null(tracer_pad_pun_cover(a, 0x1000, brace, sizeof(brace), true, insn, &n));
	ck_assert_uint_eq(n, 2);
	ck_assert_ptr_null(tracer_pad_pun_cover(a, 0x1000, brace, sizeof(brace), false, insn, &n));
	ck_assert_uint_eq(n, 1);
	ck_assert_ptr_null(tracer_pad_pun_cover(a, 0x1000, nopnever, sizeof(nopnever), true,
						insn, &n));
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(tracer_pad_pun_cover(a, 0x1000, callind, sizeof(callind), true, insn, &n),
			 "a call in its first 5 bytes returns inside them");
	ck_assert_str_eq(tracer_pad_pun_cover(a, 0x1000, callbehind, sizeof(callbehind), true,
					      insn, &n),
			 "a call in its first 5 bytes returns inside them");
	ck_assert_str_eq(tracer_pad_pun_cover(a, 0x1000, sys, sizeof(sys), true, insn, &n),
			 "an instruction in its first 5 bytes cannot run elsewhere "
			 "(system call, interrupt, loop, 16-bit jump)");
	ck_assert_uint_eq(n, 0);
	ck_assert_str_eq(tracer_pad_pun_cover(a, 0x1000, call5, sizeof(call5), true, insn, &n),
			 "its first instruction is too long to jump over alone");
	ck_assert_str_eq(tracer_pad_pun_cover(a, 0x1000, jmp, 4, true, insn, &n),
			 "its first 5 bytes are not all code");
	/* a 2-byte jmp followed by "48 b8 90": rel32 = 0x90b848XX, backwards */
	ck_assert(arch_pad_pun_window(0x555555554000ULL, jmp, 2, &lo, &hi));
	ck_assert_uint_eq(lo, 0x555555554005ULL - (0x100000000ULL - 0x90b84800ULL));
	ck_assert_uint_eq(hi, lo + 0xff);
	/* pop; ret: "55 48 89" kept */
	ck_assert(arch_pad_pun_window(0x7f0000000000ULL, brace, 2, &lo, &hi));
	ck_assert_uint_eq(lo, 0x7f0000000005ULL - (0x100000000ULL - 0x89485500ULL));
	/* ...which from an executable linked at 0x401000 is below 0 */
	ck_assert(!arch_pad_pun_window(0x401000, brace, 2, &lo, &hi));
	/* one byte covered: the address is fixed; a positive displacement */
	static const uint8_t fwd[] = { 0x90, 0x01, 0x02, 0x03, 0x04 };
	ck_assert(arch_pad_pun_window(0x1000, fwd, 1, &lo, &hi));
	ck_assert_uint_eq(lo, 0x1005ULL + 0x04030201ULL);
	ck_assert_uint_eq(hi, lo);
	ck_assert(arch_pad_pun_window(0x1000, fwd, 4, &lo, &hi));
	ck_assert_uint_eq(lo, 0x1005ULL + 0x04000000ULL);
	ck_assert_uint_eq(hi, lo + 0xffffff);
	arch_free(a);
}
END_TEST

/* A function's jumps: into the covered bytes past the site refuses, to the
 * site itself does not; a jump table (indirect jump) refuses. */
START_TEST(test_pad_jumps_into)
{
	/* 0x1000: mov -0x18(%rbp),%rax; 0x1004: add $1,%rax; 0x1008: jmp 0x1004 */
	static const uint8_t into[] = { 0x48, 0x8b, 0x45, 0xe8, 0x48, 0x83, 0xc0, 0x01,
					0xeb, 0xfa };
	/* ...; 0x1008: jmp 0x1000 (the loop's head is the site: fine) */
	static const uint8_t head[] = { 0x48, 0x8b, 0x45, 0xe8, 0x48, 0x83, 0xc0, 0x01,
					0xeb, 0xf6 };
	static const uint8_t table[] = { 0x48, 0x8b, 0x45, 0xe8, 0xff, 0xe0 };
	/* a call into the covered bytes: a target too */
	static const uint8_t callin[] = { 0x48, 0x8b, 0x45, 0xe8, 0x48, 0x83, 0xc0, 0x01,
					  0xe8, 0xf7, 0xff, 0xff, 0xff };
	rg_err err = RG_ERR_INIT;
	arch *a;

	ck_assert_int_eq(arch_new(&a, &err), 0);
	ck_assert_str_eq(tracer_pad_jumps_into(a, 0x1000, into, sizeof(into), 0x1000, 8),
			 "the line's first 5 bytes hold a jump target");
	ck_assert_ptr_null(tracer_pad_jumps_into(a, 0x1000, head, sizeof(head), 0x1000, 8));
	ck_assert_str_eq(tracer_pad_jumps_into(a, 0x1000, table, sizeof(table), 0x1000, 8),
			 "its function has a jump whose target cannot be told (a jump table)");
	ck_assert_str_eq(tracer_pad_jumps_into(a, 0x1000, callin, sizeof(callin), 0x1000, 8),
			 "the line's first 5 bytes hold a jump target");
	/* the same jump outside what is covered */
	ck_assert_ptr_null(tracer_pad_jumps_into(a, 0x1000, into, sizeof(into), 0x1004, 4));
	arch_free(a);
}
END_TEST

/* The "pads" group, in check_tracer's order. */
void tracer_add_pads(Suite *s)
{
	TCase *tc = tcase_create("pads");

	tcase_add_test(tc, test_pad_encode);
	tcase_add_test(tc, test_pad_cover);
	tcase_add_test(tc, test_pad_pun);
	tcase_add_test(tc, test_pad_moves_flow);
	tcase_add_test(tc, test_pad_jumps_into);
	suite_add_tcase(s, tc);
}
