/*
 * The ELF side of dwarfx: what kind of object this is, where it loads, and
 * its function symbols.  Everything here works without debug info, which is
 * what makes "pthread_create" resolvable in a stripped libc.
 */
#include "dwarfx_int.h"
#include "arch.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct symvec {
	struct dwarfx_sym *v;
	size_t n, cap;
};

static int corrupt(rg_err *err, const char *path, const char *what)
{
	return rg_error(err, "'%s' is a truncated or corrupt ELF file (%s: %s)",
			path, what, elf_errmsg(-1));
}

/* Does [off, off + size) lie inside a file of fsize bytes?  No overflow. */
static bool fits(uint64_t off, uint64_t size, uint64_t fsize)
{
	return size <= fsize && off <= fsize - size;
}

static int bind_rank(unsigned char bind)
{
	switch (bind) {
	case STB_GLOBAL:
		return 0;
	case STB_WEAK:
		return 1;
	case STB_LOCAL:
		return 2;
	default:
		return 3;
	}
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * Aliases share an address (malloc and __libc_malloc, two versions of
 * pthread_create): order them so that the name a person would write comes
 * first, which is the one dwarfx_symbol_at reports.
 */
static int sym_pref_cmp(const struct dwarfx_sym *a, const struct dwarfx_sym *b)
{
	size_t ua, ub, la, lb;

	if (a->ifunc != b->ifunc)
		return a->ifunc ? 1 : -1;
	if (bind_rank(a->bind) != bind_rank(b->bind))
		return bind_rank(a->bind) - bind_rank(b->bind);
	ua = underscores(a->name);
	ub = underscores(b->name);
	if (ua != ub)
		return ua < ub ? -1 : 1;
	la = strlen(a->name);
	lb = strlen(b->name);
	if (la != lb)
		return la < lb ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int sym_addr_cmp(const void *pa, const void *pb)
{
	const struct dwarfx_sym *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return sym_pref_cmp(a, b);
}

/* Sorting (name, address, index) triples keeps the comparison self-contained. */
struct byname_ent {
	const char *name;
	uint64_t addr;
	uint32_t idx;
};

static int byname_cmp(const void *pa, const void *pb)
{
	const struct byname_ent *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Is section ndx (a symbol's st_shndx) code? */
static bool in_code(Elf *elf, size_t ndx)
{
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (ndx == SHN_UNDEF || ndx >= SHN_LORESERVE || !(scn = elf_getscn(elf, ndx)) ||
	    !gelf_getshdr(scn, &sh))
		return false;
	return (sh.sh_flags & SHF_EXECINSTR) && (sh.sh_flags & SHF_ALLOC);
}

static int read_symtab(dwarfx *dx, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		       struct symvec *out, rg_err *err)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n, i;

	if (!data)
		return corrupt(err, dx->path, "symbol table");
	if (!sh->sh_entsize)
		return rg_error(err, "'%s' is a corrupt ELF file (symbol table "
				"with entries of size 0)", dx->path);
	n = sh->sh_size / sh->sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name, *at;
		int type;
		struct dwarfx_sym *s;

		if (!gelf_getsym(data, (int)i, &sym))
			return corrupt(err, dx->path, "symbol table");
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_FILE && (name = elf_strptr(elf, sh->sh_link, sym.st_name)) &&
		    *name) {
			/* kept even without -g: which sources were compiled in */
			RG_GROW(dx->srcsyms, dx->nsrcsyms + 1, dx->srcsyms_cap);
			dx->srcsyms[dx->nsrcsyms++] =
				dwarfx_pool_intern(&dx->strs, name, strlen(name));
			continue;
		}
		if (type != STT_SECTION && type != STT_TLS && in_code(elf, sym.st_shndx)) {
			RG_GROW(dx->labels, dx->nlabels + 1, dx->labels_cap);
			dx->labels[dx->nlabels++] = sym.st_value;
		}
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		if (sym.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		/* .symtab spells versioned definitions "name@VER"/"name@@VER" */
		at = strchr(name, '@');
		RG_GROW(out->v, out->n + 1, out->cap);
		s = &out->v[out->n++];
		s->addr = sym.st_value;
		s->size = sym.st_size;
		s->name = dwarfx_pool_intern(&dx->strs, name,
					     at ? (size_t)(at - name) : strlen(name));
		s->bind = GELF_ST_BIND(sym.st_info);
		s->ifunc = type == STT_GNU_IFUNC;
	}
	return 0;
}

static void index_symbols(dwarfx *dx, struct symvec *sv)
{
	struct byname_ent *ents;
	size_t i, n = 0;

	if (sv->n > 1)
		qsort(sv->v, sv->n, sizeof(*sv->v), sym_addr_cmp);
	/* .symtab and .dynsym list most symbols twice */
	for (i = 0; i < sv->n; i++) {
		if (n && sv->v[n - 1].addr == sv->v[i].addr &&
		    sv->v[n - 1].name == sv->v[i].name &&
		    sv->v[n - 1].ifunc == sv->v[i].ifunc)
			continue;
		sv->v[n++] = sv->v[i];
	}
	dx->syms = sv->v;
	dx->nsyms = n;

	ents = xcalloc(n, sizeof(*ents));
	for (i = 0; i < n; i++) {
		ents[i].name = dx->syms[i].name;
		ents[i].addr = dx->syms[i].addr;
		ents[i].idx = (uint32_t)i;
	}
	qsort(ents, n, sizeof(*ents), byname_cmp);
	dx->sym_byname = xcalloc(n, sizeof(*dx->sym_byname));
	for (i = 0; i < n; i++)
		dx->sym_byname[i] = ents[i].idx;
	free(ents);
}

/* What libelf could not open: a cut-off ELF header, or not ELF at all. */
static int not_elf(dwarfx *dx, int fd, rg_err *err)
{
	char magic[SELFMAG];

	if (pread(fd, magic, SELFMAG, 0) == SELFMAG && !memcmp(magic, ELFMAG, SELFMAG))
		return rg_error(err, "'%s' is truncated (the ELF header is "
				"incomplete)", dx->path);
	return rg_error(err, "'%s' is not an ELF file", dx->path);
}

static int check_header(dwarfx *dx, int fd, Elf *elf, GElf_Ehdr *eh, rg_err *err)
{
	int cls;

	if (elf_kind(elf) != ELF_K_ELF)
		return not_elf(dx, fd, err);
	cls = gelf_getclass(elf);
	if (cls == ELFCLASS32)
		return rg_error(err, "'%s' is a 32-bit ELF; racegate supports " ARCH_NAME,
				dx->path);
	if (cls != ELFCLASS64)
		return rg_error(err, "'%s' is not an ELF file (unknown ELF class)",
				dx->path);
	if (!gelf_getehdr(elf, eh))
		return corrupt(err, dx->path, "ELF header");
	if (eh->e_machine != ARCH_ELF_MACHINE)
		return rg_error(err, "'%s' is an ELF file for another machine "
				"(e_machine %u); racegate supports " ARCH_NAME,
				dx->path, (unsigned)eh->e_machine);
	switch (eh->e_type) {
	case ET_EXEC:
		dx->pie = false;
		break;
	case ET_DYN:
		dx->pie = true;
		break;
	case ET_REL:
		return rg_error(err, "'%s' is a relocatable object (.o); racegate "
				"needs a linked program or shared library", dx->path);
	case ET_CORE:
		return rg_error(err, "'%s' is a core dump, not a program", dx->path);
	default:
		return rg_error(err, "'%s' is an ELF file of unknown type %u",
				dx->path, (unsigned)eh->e_type);
	}
	dx->entry = eh->e_entry;
	return 0;
}

static int read_phdrs(dwarfx *dx, Elf *elf, const GElf_Ehdr *eh, uint64_t fsize,
		      rg_err *err)
{
	size_t n, i, cap = 0;
	uint64_t lowest = UINT64_MAX;

	/* libelf counts only the headers that fit in the file: ask the header */
	if (eh->e_phnum != PN_XNUM &&
	    !fits(eh->e_phoff, (uint64_t)eh->e_phnum * eh->e_phentsize, fsize))
		return rg_error(err, "'%s' is truncated (the program headers end "
				"past the end of the file)", dx->path);
	if (elf_getphdrnum(elf, &n))
		return corrupt(err, dx->path, "program headers");
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			return corrupt(err, dx->path, "program headers");
		if (ph.p_type == PT_GNU_EH_FRAME && fits(ph.p_offset, ph.p_filesz, fsize)) {
			dx->ehhdr.vaddr = ph.p_vaddr;
			dx->ehhdr.offset = ph.p_offset;
			dx->ehhdr.filesz = ph.p_filesz;
		}
		if (ph.p_type != PT_LOAD)
			continue;
		if (!fits(ph.p_offset, ph.p_filesz, fsize))
			return rg_error(err, "'%s' is truncated (a loadable segment "
					"ends past the end of the file)", dx->path);
		RG_GROW(dx->phdrs, dx->nphdrs + 1, cap);
		dx->phdrs[dx->nphdrs].vaddr = ph.p_vaddr;
		dx->phdrs[dx->nphdrs].memsz = ph.p_memsz;
		dx->phdrs[dx->nphdrs].offset = ph.p_offset;
		dx->phdrs[dx->nphdrs].filesz = ph.p_filesz;
		dx->phdrs[dx->nphdrs].exec = ph.p_flags & PF_X;
		dx->nphdrs++;
		if (ph.p_vaddr < lowest)
			lowest = ph.p_vaddr;
	}
	if (!dx->nphdrs)
		return rg_error(err, "'%s' has no loadable segments", dx->path);
	dx->load_base = lowest & ~(uint64_t)0xfff;
	return 0;
}

static uint64_t get_le(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * Checks the unit headers of .debug_rnglists / .debug_loclists.  libdwarf
 * 20210528 loads them eagerly with the first unit, and frees twice when a
 * unit length runs past the section: it must never see such a section.
 * Returns the offset of the first bad unit, or -1 when all are sound.
 */
static ptrdiff_t bad_list_unit(const unsigned char *p, size_t size)
{
	size_t off = 0;

	while (off < size) {
		size_t left = size - off, hdr = 4, offsz = 4;
		uint64_t len = left >= 4 ? get_le(p + off, 4) : 0;
		uint64_t nofs;

		if (left < 4)
			return (ptrdiff_t)off;
		if (len == 0xffffffff) {
			if (left < 12)
				return (ptrdiff_t)off;
			len = get_le(p + off + 4, 8);
			hdr = 12;
			offsz = 8;
		} else if (len >= 0xfffffff0) {
			return (ptrdiff_t)off;
		}
		/* version (2), address size, selector size, offset count (4) */
		if (len > left - hdr || len < 8)
			return (ptrdiff_t)off;
		nofs = get_le(p + off + hdr + 4, 4);
		if (get_le(p + off + hdr, 2) != 5 || p[off + hdr + 2] != 8 ||
		    p[off + hdr + 3] != 0 || nofs > (len - 8) / offsz)
			return (ptrdiff_t)off;
		off += hdr + len;
	}
	return -1;
}

static int check_list_section(dwarfx *dx, Elf_Scn *scn, const char *name,
			      rg_err *err)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	ptrdiff_t bad;

	if (!data)
		return corrupt(err, dx->path, name);
	if (!data->d_buf)
		return 0;
	bad = bad_list_unit(data->d_buf, data->d_size);
	if (bad >= 0)
		return rg_error(err, "cannot read the debug info of '%s': %s is "
				"corrupt (unit at offset %td)", dx->path, name, bad);
	return 0;
}

/*
 * A section's name.  libelf refuses names from a string table whose
 * section type is not SHT_STRTAB; libdwarf reads them all the same, so a
 * corrupt type must not hide a section from the checks above: the table's
 * raw bytes are read then.
 */
static const char *section_name(Elf *elf, size_t shstrndx, size_t off)
{
	const char *name = elf_strptr(elf, shstrndx, off);
	Elf_Scn *scn;
	Elf_Data *d;

	if (name)
		return name;
	if (!(scn = elf_getscn(elf, shstrndx)) || !(d = elf_rawdata(scn, NULL)) ||
	    !d->d_buf || off >= d->d_size ||
	    !memchr((const char *)d->d_buf + off, '\0', d->d_size - off))
		return NULL;
	return (const char *)d->d_buf + off;
}

/* Copies the sections the line program reader needs (dwarfx_line.c). */
static void keep_section(dwarfx *dx, Elf_Scn *scn, const char *name)
{
	struct dwarfx_bytes *b = !strcmp(name, ".debug_line") ? &dx->sec_line :
		!strcmp(name, ".debug_line_str") ? &dx->sec_line_str :
		!strcmp(name, ".debug_str") ? &dx->sec_str : NULL;
	Elf_Data *data;

	if (!b || b->p || !(data = elf_getdata(scn, NULL)) || !data->d_buf ||
	    !data->d_size)
		return;
	b->p = xmalloc(data->d_size);
	memcpy(b->p, data->d_buf, data->d_size);
	b->n = data->d_size;
}

static int read_sections(dwarfx *dx, Elf *elf, const GElf_Ehdr *eh, uint64_t fsize,
			 rg_err *err)
{
	struct symvec sv = {NULL, 0, 0};
	Elf_Scn *scn = NULL;
	size_t shnum, shstrndx;

	if (elf_getshdrnum(elf, &shnum))
		return corrupt(err, dx->path, "section headers");
	/* libelf quietly drops section headers cut off by the end of file */
	if (eh->e_shnum)
		shnum = eh->e_shnum;
	if (shnum && !fits(eh->e_shoff, (uint64_t)shnum * eh->e_shentsize, fsize))
		return rg_error(err, "'%s' is truncated (the section headers end "
				"past the end of the file)", dx->path);
	if (elf_getshdrstrndx(elf, &shstrndx))
		return corrupt(err, dx->path, "section names");
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh)) {
			free(sv.v);
			return corrupt(err, dx->path, "section headers");
		}
		if (sh.sh_type != SHT_NOBITS && !fits(sh.sh_offset, sh.sh_size, fsize)) {
			free(sv.v);
			return rg_error(err, "'%s' is truncated (section %zu ends past "
					"the end of the file)", dx->path, elf_ndxscn(scn));
		}
		if (sh.sh_type != SHT_NOBITS && !(sh.sh_flags & SHF_COMPRESSED)) {
			const char *name = section_name(elf, shstrndx, sh.sh_name);

			/* libdwarf reads these by name, whatever their type says */
			if (name && (!strcmp(name, ".debug_rnglists") ||
				     !strcmp(name, ".debug_loclists")) &&
			    check_list_section(dx, scn, name, err) < 0) {
				free(sv.v);
				return -1;
			}
			if (name && sh.sh_type == SHT_PROGBITS)
				keep_section(dx, scn, name);
		}
		if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR) &&
		    (sh.sh_flags & SHF_ALLOC) && !(sh.sh_flags & SHF_COMPRESSED)) {
			RG_GROW(dx->xsecs, dx->nxsecs + 1, dx->xsecs_cap);
			dx->xsecs[dx->nxsecs++] = (struct dwarfx_xsec){
				sh.sh_addr, sh.sh_offset, sh.sh_size };
		}
		if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM)
			continue;
		if (read_symtab(dx, elf, scn, &sh, &sv, err) < 0) {
			free(sv.v);
			return -1;
		}
	}
	index_symbols(dx, &sv);
	return 0;
}

int dwarfx_elf_read(dwarfx *dx, rg_err *err)
{
	struct stat st;
	GElf_Ehdr eh;
	Elf *elf;
	int fd, ret;

	fd = open(dx->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rg_error(err, "cannot open '%s': %s", dx->path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		ret = rg_error(err, "cannot stat '%s': %s", dx->path, strerror(errno));
		close(fd);
		return ret;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return rg_error(err, "'%s' is a directory, not an ELF file", dx->path);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return rg_error(err, "'%s' is not a regular file", dx->path);
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		close(fd);
		return rg_error(err, "cannot use libelf: %s", elf_errmsg(-1));
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		ret = not_elf(dx, fd, err);
		close(fd);
		return ret;
	}
	ret = check_header(dx, fd, elf, &eh, err);
	if (!ret)
		ret = read_phdrs(dx, elf, &eh, (uint64_t)st.st_size, err);
	if (!ret)
		ret = read_sections(dx, elf, &eh, (uint64_t)st.st_size, err);
	elf_end(elf);
	close(fd);
	return ret;
}
