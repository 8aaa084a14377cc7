/*
 * Instructions, decoded from the ELF file's bytes with capstone, for
 * locations inside a line or a function ("counter.c:12+2", "*worker+5"):
 * a race inside one line such as count++ is a load, an add and a store.
 */
#include "dwarfx_int.h"

#include <capstone/capstone.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A line or function longer than this is cut here (counted, not gated). */
#define MAX_CODE (1024 * 1024)

int dwarfx_insn_nth(dwarfx *dx, uint64_t lo, uint64_t hi, size_t n,
		    uint64_t *addr, size_t *count, rg_err *err)
{
	const struct dwarfx_phdr *ph = NULL;
	const uint8_t *code;
	uint8_t *buf;
	size_t i, size;
	uint64_t pc;
	ssize_t got;
	csh cs;
	cs_insn *insn;
	int fd;

	*count = 0;
	for (i = 0; i < dx->nphdrs && !ph; i++)
		if (dx->phdrs[i].exec && lo >= dx->phdrs[i].vaddr &&
		    lo - dx->phdrs[i].vaddr < dx->phdrs[i].filesz)
			ph = &dx->phdrs[i];
	if (!ph)
		return rg_error(err, "0x%llx is not code in '%s'",
				(unsigned long long)lo, dx->path);
	if (hi > ph->vaddr + ph->filesz)
		hi = ph->vaddr + ph->filesz;
	if (hi <= lo)
		return 0;
	size = hi - lo > MAX_CODE ? MAX_CODE : (size_t)(hi - lo);
	fd = open(dx->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rg_error(err, "cannot open '%s': %s", dx->path, strerror(errno));
	buf = xmalloc(size);
	got = pread(fd, buf, size, (off_t)(ph->offset + (lo - ph->vaddr)));
	close(fd);
	if (got != (ssize_t)size) {
		free(buf);
		return rg_error(err, "cannot read the code of '%s' at 0x%llx",
				dx->path, (unsigned long long)lo);
	}
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		free(buf);
		return rg_error(err, "cannot start the capstone disassembler");
	}
	insn = cs_malloc(cs);
	code = buf;
	pc = lo;
	/* decoding stops at bytes that are no instruction */
	while (cs_disasm_iter(cs, &code, &size, &pc, insn)) {
		if (*count == n)
			*addr = insn->address;
		(*count)++;
	}
	cs_free(insn, 1);
	cs_close(&cs);
	free(buf);
	return 0;
}
