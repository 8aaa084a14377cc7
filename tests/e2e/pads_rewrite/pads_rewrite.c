/*
 * A program that rewrites its own code at a gated line: value() is
 * `mov $1,%eax; ret`, and after ten calls the program makes its page
 * writable and changes the instruction to `mov $2,%eax`.
 *
 *   pads_rewrite imm     writes the immediate only (4 bytes after the
 *                        opcode): over a pad's jump that is a jump to
 *                        garbage; under an int3, racegate's copy of the
 *                        old instruction runs (as under gdb)
 *   pads_rewrite whole   writes the whole instruction: racegate's int3 or
 *                        jump is gone, the gate no longer sees the line
 *
 * Natively it prints "sum 30" (ten 1s, then ten 2s).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noipa)) long value(void)
{
	return 1;                                       /* VALUE-LINE */
}

int main(int argc, char **argv)
{
	static const uint8_t mov2[5] = { 0xb8, 0x02, 0x00, 0x00, 0x00 };
	int whole = argc > 1 && !strcmp(argv[1], "whole");
	long sum = 0, page = sysconf(_SC_PAGESIZE);
	uint8_t *p = (uint8_t *)value;
	uint8_t *pg = (uint8_t *)((uintptr_t)p & ~(uintptr_t)(page - 1));

	if (memcmp(p, mov2, 1) != 0 && p[0] != 0xcc && p[0] != 0xe9)
		return 3;                               /* not the code expected */
	for (int i = 0; i < 10; i++)
		sum += value();
	if (mprotect(pg, 2 * (size_t)page, PROT_READ | PROT_WRITE | PROT_EXEC) < 0)
		return 2;
	if (whole)
		memcpy(p, mov2, 5);
	else
		memcpy(p + 1, mov2 + 1, 4);
	__builtin___clear_cache((char *)p, (char *)p + 5);
	for (int i = 0; i < 10; i++)
		sum += value();
	printf("sum %ld\n", sum);
	return 0;
}
