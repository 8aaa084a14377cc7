/*
 * Dynamic linking facts of an ELF file (libelf) and glibc ld.so's library
 * search, for dwarfx_dyn.h.
 */
#include "dwarfx_dyn.h"
#include "arch.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct dwarfx_ldpath {
	char *ld_library_path; /* or NULL */
	char *cache_path;
	char *cache;           /* ld.so.cache, or NULL */
	size_t cache_len;
	bool cache_read;
};

void dwarfx_dyn_release(dwarfx_dyn *d)
{
	size_t i;

	for (i = 0; i < d->nneeded; i++)
		free(d->needed[i]);
	free(d->needed);
	free(d->interp);
	free(d->rpath);
	free(d->runpath);
	memset(d, 0, sizeof(*d));
}

static bool machine_elf(Elf *elf)
{
	GElf_Ehdr eh;

	return elf_kind(elf) == ELF_K_ELF && gelf_getclass(elf) == ELFCLASS64 &&
	       gelf_getehdr(elf, &eh) && eh.e_machine == ARCH_ELF_MACHINE;
}

/* PT_INTERP and PT_DYNAMIC, from the program headers. */
static void read_phdrs(Elf *elf, dwarfx_dyn *d)
{
	size_t n = 0, i, fsize = 0;
	const char *raw = elf_rawfile(elf, &fsize);

	if (elf_getphdrnum(elf, &n) < 0)
		return;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_DYNAMIC && !d->dyn_vaddr)
			d->dyn_vaddr = ph.p_vaddr;
		if (ph.p_type == PT_INTERP && !d->interp && raw && ph.p_filesz &&
		    ph.p_filesz < PATH_MAX && ph.p_offset <= fsize &&
		    ph.p_filesz <= fsize - ph.p_offset)
			d->interp = xstrndup(raw + ph.p_offset, ph.p_filesz);
	}
}

static void add_entry(dwarfx_dyn *d, const GElf_Dyn *e, const char *s)
{
	if (e->d_tag == DT_NEEDED) {
		d->needed = xrealloc(d->needed, (d->nneeded + 1) * sizeof(char *));
		d->needed[d->nneeded++] = xstrdup(s);
	} else if (e->d_tag == DT_RPATH && !d->rpath) {
		d->rpath = xstrdup(s);
	} else if (e->d_tag == DT_RUNPATH && !d->runpath) {
		d->runpath = xstrdup(s);
	}
}

/* File offset of link-time address v, through the PT_LOAD holding it. */
static bool vaddr_offset(Elf *elf, uint64_t v, uint64_t *off)
{
	size_t n = 0, i;

	if (elf_getphdrnum(elf, &n) < 0)
		return false;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    v >= ph.p_vaddr && v - ph.p_vaddr < ph.p_filesz) {
			*off = v - ph.p_vaddr + ph.p_offset;
			return true;
		}
	}
	return false;
}

/*
 * No section headers (sstrip, or a corrupt table): what ld.so reads, the
 * PT_DYNAMIC segment, with DT_STRTAB found through the PT_LOAD holding it.
 */
static void read_dynamic_segment(Elf *elf, dwarfx_dyn *d)
{
	size_t n = 0, i, fsize = 0, ndyn = 0;
	const char *raw = elf_rawfile(elf, &fsize);
	const Elf64_Dyn *dyn = NULL;
	uint64_t strtab = 0, strsz = 0, off;

	if (!raw || elf_getphdrnum(elf, &n) < 0)
		return;
	for (i = 0; i < n && !dyn; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_DYNAMIC &&
		    ph.p_offset <= fsize && ph.p_filesz <= fsize - ph.p_offset &&
		    ph.p_offset % 8 == 0) {
			dyn = (const Elf64_Dyn *)(const void *)(raw + ph.p_offset);
			ndyn = ph.p_filesz / sizeof(*dyn);
		}
	}
	if (!dyn)
		return;
	for (i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = dyn[i].d_un.d_ptr;
		else if (dyn[i].d_tag == DT_STRSZ)
			strsz = dyn[i].d_un.d_val;
	}
	if (!strtab || !vaddr_offset(elf, strtab, &off) || off > fsize ||
	    strsz > fsize - off)
		return;
	for (i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		GElf_Dyn e;

		e.d_tag = dyn[i].d_tag;
		e.d_un.d_val = dyn[i].d_un.d_val;
		if ((e.d_tag == DT_NEEDED || e.d_tag == DT_RPATH ||
		     e.d_tag == DT_RUNPATH) && e.d_un.d_val < strsz &&
		    memchr(raw + off + e.d_un.d_val, '\0', strsz - e.d_un.d_val))
			add_entry(d, &e, raw + off + e.d_un.d_val);
	}
}

/* DT_NEEDED, DT_RPATH, DT_RUNPATH, from the SHT_DYNAMIC section. */
static void read_dynamic(Elf *elf, dwarfx_dyn *d)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		n = data->d_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Dyn e;
			const char *s;

			if (!gelf_getdyn(data, (int)i, &e) || e.d_tag == DT_NULL)
				break;
			if (e.d_tag != DT_NEEDED && e.d_tag != DT_RPATH &&
			    e.d_tag != DT_RUNPATH)
				continue;
			if ((s = elf_strptr(elf, sh.sh_link, e.d_un.d_val)))
				add_entry(d, &e, s);
		}
		return;
	}
	read_dynamic_segment(elf, d);
}

int dwarfx_dyn_read(const char *path, dwarfx_dyn *out, rg_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	Elf *elf;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return rg_error(err, "cannot open '%s'", path);
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    !(elf = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		close(fd);
		return rg_error(err, "cannot read '%s': %s", path, elf_errmsg(-1));
	}
	if (machine_elf(elf)) {
		read_phdrs(elf, out);
		read_dynamic(elf, out);
	} else {
		ret = rg_error(err, "'%s' is not an " ARCH_ELF_NAME " ELF file", path);
	}
	elf_end(elf);
	close(fd);
	return ret;
}

/* ---- finding libraries as ld.so does ---- */

static bool is_machine_file(const char *path)
{
	struct stat st;
	bool ok = false;
	Elf *elf;
	int fd;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	if (elf_version(EV_CURRENT) != EV_NONE &&
	    (elf = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		ok = machine_elf(elf);
		elf_end(elf);
	}
	close(fd);
	return ok;
}

static char *canonical(const char *path)
{
	char real[PATH_MAX];

	return realpath(path, real) ? xstrdup(real) : NULL;
}

/* One directory of a search list, $ORIGIN expanded, joined with name. */
static char *candidate(const char *dir, size_t len, const char *origin,
		       const char *name)
{
	if (len >= 7 && !strncmp(dir, "$ORIGIN", 7))
		return xasprintf("%s%.*s/%s", origin, (int)(len - 7), dir + 7, name);
	if (len >= 9 && !strncmp(dir, "${ORIGIN}", 9))
		return xasprintf("%s%.*s/%s", origin, (int)(len - 9), dir + 9, name);
	return len ? xasprintf("%.*s/%s", (int)len, dir, name) : NULL;
}

/* Looks for name in each directory of a ':'-separated list. */
static char *search_dirs(const char *list, const char *origin, const char *name)
{
	const char *p, *end;

	if (!list)
		return NULL;
	for (p = list; *p; p = *end ? end + 1 : end) {
		char *cand, *c = NULL;

		end = p + strcspn(p, ":");
		cand = candidate(p, (size_t)(end - p), origin, name);
		if (cand && is_machine_file(cand))
			c = canonical(cand);
		free(cand);
		if (c)
			return c;
	}
	return NULL;
}

static void cache_load(dwarfx_ldpath *lp)
{
	int fd = open(lp->cache_path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	lp->cache_read = true;
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && st.st_size > 0 && st.st_size < (64 << 20)) {
		lp->cache = xmalloc((size_t)st.st_size + 1);
		lp->cache_len = (size_t)st.st_size;
		if (pread(fd, lp->cache, lp->cache_len, 0) != (ssize_t)lp->cache_len) {
			free(lp->cache);
			lp->cache = NULL;
			lp->cache_len = 0;
		} else {
			lp->cache[lp->cache_len] = '\0';
		}
	}
	close(fd);
}

/*
 * ld.so.cache, the format glibc writes since 2.32 (and before it, after
 * the old one): "glibc-ld.so.cache1.1", nlibs, strings size, ..., then
 * nlibs entries of {int32 flags; uint32 key, value; uint32; uint64} whose
 * key and value are offsets from the start of the file.
 */
static char *cache_lookup(dwarfx_ldpath *lp, const char *name)
{
	static const char magic[] = "glibc-ld.so.cache1.1";
	const size_t hdr = 48, ent = 24;
	uint32_t nlibs, i;
	const char *c;

	if (!lp->cache_read)
		cache_load(lp);
	c = lp->cache;
	if (!c || lp->cache_len < hdr || memcmp(c, magic, sizeof(magic) - 1))
		return NULL;
	memcpy(&nlibs, c + 20, sizeof(nlibs));
	if (nlibs > (lp->cache_len - hdr) / ent)
		return NULL;
	for (i = 0; i < nlibs; i++) {
		int32_t flags;
		uint32_t key, value;
		const char *e = c + hdr + (size_t)i * ent;

		memcpy(&flags, e, 4);
		memcpy(&key, e + 4, 4);
		memcpy(&value, e + 8, 4);
		/* glibc's FLAG_ELF_LIBC6 and the machine's (arch_defs.h) */
		if ((flags & 0xffff) != ARCH_LDCACHE_FLAGS)
			continue;
		if (key >= lp->cache_len || value >= lp->cache_len ||
		    strcmp(c + key, name))
			continue;
		if (is_machine_file(c + value))
			return canonical(c + value);
	}
	return NULL;
}

dwarfx_ldpath *dwarfx_ldpath_new(const char *ld_library_path, const char *cache)
{
	dwarfx_ldpath *lp = xcalloc(1, sizeof(*lp));

	lp->ld_library_path = ld_library_path ? xstrdup(ld_library_path) : NULL;
	lp->cache_path = xstrdup(cache ? cache : "/etc/ld.so.cache");
	return lp;
}

void dwarfx_ldpath_free(dwarfx_ldpath *lp)
{
	if (!lp)
		return;
	free(lp->ld_library_path);
	free(lp->cache_path);
	free(lp->cache);
	free(lp);
}

char *dwarfx_ldpath_find(dwarfx_ldpath *lp, const char *name,
			 const dwarfx_dyn *from, const char *from_path)
{
	static const char defaults[] = ARCH_LIB_DIRS;
	char *origin, *slash, *r = NULL;

	if (strchr(name, '/'))
		return is_machine_file(name) ? canonical(name) : NULL;
	origin = xstrdup(from_path);
	if ((slash = strrchr(origin, '/')))
		*slash = '\0';
	else
		strcpy(origin, ".");
	if (!from->runpath)
		r = search_dirs(from->rpath, origin, name);
	if (!r)
		r = search_dirs(lp->ld_library_path, origin, name);
	if (!r)
		r = search_dirs(from->runpath, origin, name);
	if (!r)
		r = cache_lookup(lp, name);
	if (!r)
		r = search_dirs(defaults, origin, name);
	free(origin);
	return r;
}

static bool listed(char **v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

size_t dwarfx_needed_closure(dwarfx_ldpath *lp, const char *exe, size_t max,
			     char ***out)
{
	char **libs = NULL, *self = canonical(exe);
	size_t n = 0, i, j;

	/* breadth first, as ld.so loads them: libs[i - 1] is read when reached */
	for (i = 0; i <= n && n < max; i++) {
		const char *from = i ? libs[i - 1] : exe;
		dwarfx_dyn d;
		rg_err err = RG_ERR_INIT;

		if (dwarfx_dyn_read(from, &d, &err) < 0) {
			dwarfx_dyn_release(&d);
			continue;
		}
		for (j = 0; j < d.nneeded && n < max; j++) {
			char *path = dwarfx_ldpath_find(lp, d.needed[j], &d, from);

			if (!path || listed(libs, n, path) || (self && !strcmp(self, path))) {
				free(path);
				continue;
			}
			libs = xrealloc(libs, (n + 1) * sizeof(char *));
			libs[n++] = path;
		}
		dwarfx_dyn_release(&d);
	}
	free(self);
	*out = libs;
	return n;
}
