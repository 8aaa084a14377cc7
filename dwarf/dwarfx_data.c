/*
 * Data symbols: the variable whose storage holds an address ("lock" for
 * &lock + 0, "ready_cv" for a field inside it), for diagnoses.  Read from
 * the file at each call rather than indexed at open: it is asked a handful
 * of times, at the end of a run, and most runs never ask.
 */
#include "dwarfx.h"

#include <fcntl.h>
#include <stdio.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

static bool scan(Elf *elf, Elf_Scn *scn, uint64_t addr, char *name, size_t len,
		 uint64_t *off)
{
	GElf_Shdr sh;
	Elf_Data *data;
	size_t n, i;
	bool found = false;
	uint64_t best = 0;

	if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
	    !(data = elf_getdata(scn, NULL)))
		return false;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *nm;

		if (!gelf_getsym(data, (int)i, &s) || s.st_shndx == SHN_UNDEF ||
		    (GELF_ST_TYPE(s.st_info) != STT_OBJECT &&
		     GELF_ST_TYPE(s.st_info) != STT_TLS))
			continue;
		if (addr < s.st_value || addr >= s.st_value + (s.st_size ? s.st_size : 1))
			continue;
		if (found && s.st_value <= best)
			continue;   /* keep the innermost (highest start) */
		if (!(nm = elf_strptr(elf, sh.sh_link, s.st_name)) || !*nm)
			continue;
		snprintf(name, len, "%s", nm);
		best = s.st_value;
		*off = addr - s.st_value;
		found = true;
	}
	return found;
}

bool dwarfx_data_symbol_at(dwarfx *dx, uint64_t addr, char *name, size_t len,
			   uint64_t *off)
{
	int fd = open(dwarfx_path(dx), O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn = NULL;
	bool found = false;

	if (fd < 0)
		return false;
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    !(elf = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		close(fd);
		return false;
	}
	/* .symtab first (statics such as 'lock'), then .dynsym */
	for (int pass = 0; pass < 2 && !found; pass++) {
		scn = NULL;
		while (!found && (scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;

			if (gelf_getshdr(scn, &sh) &&
			    sh.sh_type == (pass ? SHT_DYNSYM : SHT_SYMTAB))
				found = scan(elf, scn, addr, name, len, off);
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

/* Calls fn for each data symbol of scn whose name starts with prefix. */
static int scan_prefixed(Elf *elf, Elf_Scn *scn, const char *prefix,
			 dwarfx_name_fn fn, void *arg)
{
	GElf_Shdr sh;
	Elf_Data *data;
	size_t n, i, lp = strlen(prefix);
	int ret = 0;

	if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n && !ret; i++) {
		GElf_Sym s;
		const char *nm;

		if (!gelf_getsym(data, (int)i, &s) || s.st_shndx == SHN_UNDEF ||
		    GELF_ST_TYPE(s.st_info) != STT_OBJECT ||
		    !(nm = elf_strptr(elf, sh.sh_link, s.st_name)) || strncmp(nm, prefix, lp))
			continue;
		ret = fn(nm, arg);
	}
	return ret;
}

int dwarfx_data_symbols(dwarfx *dx, const char *prefix, dwarfx_name_fn fn, void *arg)
{
	int fd = open(dwarfx_path(dx), O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn = NULL;
	int ret = 0;

	if (fd < 0)
		return 0;
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    !(elf = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		close(fd);
		return 0;
	}
	while (!ret && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			ret = scan_prefixed(elf, scn, prefix, fn, arg);
	}
	elf_end(elf);
	close(fd);
	return ret;
}
