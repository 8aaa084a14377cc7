/*
 * The machine's instructions, for dwarf/: capstone in x86-64 mode.  The rest
 * of dwarf/ asks only "how long is the instruction here, and what is it"
 * (dwarfx_int.h), so a second architecture is one more file like this one.
 */
#include "dwarfx_int.h"

#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>

struct dwarfx_decoder {
	csh cs;
	cs_insn *insn;
};

dwarfx_decoder *dwarfx_decoder_new(void)
{
	dwarfx_decoder *d = xcalloc(1, sizeof(*d));

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->cs) != CS_ERR_OK) {
		free(d);
		return NULL;
	}
	d->insn = cs_malloc(d->cs);
	return d;
}

void dwarfx_decoder_free(dwarfx_decoder *d)
{
	if (!d)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->cs);
	free(d);
}

size_t dwarfx_decode(dwarfx_decoder *d, const uint8_t *code, size_t size,
		     uint64_t pc, char *text, size_t len)
{
	const uint8_t *p = code;
	size_t n = size;
	uint64_t at = pc;

	if (!size || !cs_disasm_iter(d->cs, &p, &n, &at, d->insn))
		return 0;
	if (text && len)
		snprintf(text, len, "%s%s%s", d->insn->mnemonic,
			 d->insn->op_str[0] ? " " : "", d->insn->op_str);
	return d->insn->size;
}
