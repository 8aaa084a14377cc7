#!/usr/bin/env python3
"""ELF/DWARF fuzzing of the real racegate binary (issue 11, item 10).

Mutates the ELF and DWARF of small -g programs and of a shared object
(tests/fuzz/elf/corpus, built by elf.cmake): the contents of .debug_line,
.debug_info, .debug_abbrev, .debug_str, .debug_line_str, .debug_rnglists,
.debug_aranges, .symtab, .strtab, .dynsym and .eh_frame_hdr, symbol values
and unwind table function starts (a few bytes off, to land inside
instructions), line table rows (moved a byte), and the section headers
(.text's included).  Never the code, nor the program headers: the code that runs is
the original's, so objdump's listing of the original says where its
instructions start.

Each mutant goes through `racegate lines --vars` (a scope at every line's
address: types, location lists, the CFI), `racegate check` and `racegate
run` on a trivial spec (several gate forms, all optional), each with a time
budget.  A failure is: an exit status outside 0..3 (a crash, an abort,
rg_bug), a sanitizer report, a hang, or a breakpoint address in `check`'s
listing inside the original's code where it has no instruction start.  Mutant i is the same
for a given seed whatever the time budget, so `--only I` replays it; failing
mutants are kept in WORKDIR/failures with what went wrong.

regressions.txt (next to this file) lists mutations that once failed; they
run first, every time.
"""
import argparse
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SANITIZER = re.compile(rb'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|'
                       rb'runtime error:|racegate: BUG:')
LISTED = re.compile(r"^ {6}0x([0-9a-f]+)  (.*?)(?:  in '([^']+)' \(before load bias\))?$")
CONTENTS = ['.debug_line', '.debug_info', '.debug_abbrev', '.debug_str',
            '.debug_line_str', '.debug_rnglists', '.debug_aranges', '.symtab',
            '.strtab', '.dynsym', '.eh_frame_hdr',
            # `lines --vars` reads location lists and the CFI (issue 12)
            '.debug_loclists', '.debug_loc', '.eh_frame']
HEADERS = ['.text', '.symtab', '.strtab', '.debug_line', '.debug_info',
           '.debug_abbrev', '.debug_str', '.shstrtab']
SHF_EXECINSTR = 0x4
STT_FUNC = 2


def sections(data):
    """{name: (offset, size, flags, header offset, address)} of an ELF64 file."""
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    rows = []
    for i in range(shnum):
        h = shoff + i * shentsize
        name, _typ, flags, addr, off, size = struct.unpack_from('<IIQQQQ', data, h)
        rows.append((name, off, size, flags, h, addr))
    stroff = rows[shstrndx][1]
    out = {}
    for name, off, size, flags, h, addr in rows:
        end = data.index(b'\0', stroff + name)
        out[data[stroff + name:end].decode()] = (off, size, flags, h, addr)
    return out


def instruction_starts(objdump, path):
    """Addresses where objdump sees an instruction start in path."""
    text = subprocess.run([objdump, '-d', '--no-show-raw-insn', path],
                          capture_output=True, text=True, check=True).stdout
    return {int(m.group(1), 16) for m in re.finditer(r'^ *([0-9a-f]+):\t', text, re.M)}


def marker_line(src, tag):
    with open(src) as f:
        for n, line in enumerate(f, 1):
            if re.search('@' + re.escape(tag) + r'(?![\w-])', line):
                return n
    sys.exit('fuzz_elf: no marker @%s in %s' % (tag, src))


class Target:
    """One original ELF file, what may be mutated in it, and how it is run."""

    def __init__(self, kind, path, objdump):
        self.kind = kind              # 'exe' or 'so'
        self.path = path
        with open(path, 'rb') as f:
            self.data = f.read()
        self.secs = sections(self.data)
        self.starts = instruction_starts(objdump, path)
        code = [(o, o + s) for o, s, fl, _, _ in self.secs.values() if fl & SHF_EXECINSTR]
        # where objdump decodes: addresses elsewhere (padding between
        # sections) hold no instruction an int3 could corrupt
        self.code = [(a, a + s) for _, s, fl, _, a in self.secs.values()
                     if fl & SHF_EXECINSTR]
        self.regions = []             # (what, offset, size)
        for name in CONTENTS:
            if name in self.secs:
                o, s, _, _, _ = self.secs[name]
                if s and not any(o < hi and lo < o + s for lo, hi in code):
                    self.regions.append((name, o, s))
        for name in HEADERS:
            if name in self.secs:
                self.regions.append((name + ' header', self.secs[name][3], 64))
        self.funcs = []               # file offsets of st_value of function symbols
        for tab in ('.symtab', '.dynsym'):
            if tab in self.secs:
                o, s, _, _, _ = self.secs[tab]
                for e in range(o, o + s - 23, 24):
                    info = self.data[e + 4]
                    value, = struct.unpack_from('<Q', self.data, e + 8)
                    if info & 0xf == STT_FUNC and value:
                        self.funcs.append(e + 8)


def mutate(t, rng):
    """A mutant of t: (bytes, a recipe in words)."""
    data = bytearray(t.data)
    recipe = []
    for _ in range(rng.choice([1, 1, 2, 3, 4])):
        if t.funcs and rng.random() < 0.25:
            at = rng.choice(t.funcs)
            value, = struct.unpack_from('<Q', data, at)
            delta = rng.choice([-3, -2, -1, 1, 2, 3, 4, 5, 7])
            struct.pack_into('<Q', data, at, (value + delta) & (2**64 - 1))
            recipe.append('symbol value at file offset 0x%x %+d' % (at, delta))
            continue
        if '.eh_frame_hdr' in t.secs and rng.random() < 0.15:
            # a function start in the unwind tables' search table moved
            o, size = t.secs['.eh_frame_hdr'][:2]
            if size >= 20:
                at = o + 12 + 8 * rng.randrange((size - 12) // 8)
                value, = struct.unpack_from('<i', data, at)
                delta = rng.choice([-3, -2, -1, 1, 2, 3, 5])
                struct.pack_into('<i', data, at, value + delta)
                recipe.append('.eh_frame_hdr: function start at file offset 0x%x %+d'
                              % (at, delta))
                continue
        if '.debug_line' in t.secs and rng.random() < 0.3:
            # a special opcode (>= opcode_base, 13 for gcc) moved by
            # line_range (14 for gcc) moves its row, and those after it in
            # the sequence, one byte: rows inside instructions
            o, size = t.secs['.debug_line'][:2]
            at = o + rng.randrange(size)
            old = data[at]
            if old >= 13 + 14 and (old + 14 > 255 or rng.random() < 0.5):
                data[at] = old - 14
            elif old >= 13 and old + 14 <= 255:
                data[at] = old + 14
            recipe.append('.debug_line: byte 0x%x (file offset 0x%x) 0x%02x -> 0x%02x'
                          % (at - o, at, old, data[at]))
            continue
        what, off, size = rng.choice(t.regions)
        at = off + rng.randrange(size)
        old = data[at]
        op = rng.randrange(5)
        if op == 0:
            data[at] = rng.randrange(256)
        elif op == 1:
            data[at] ^= 1 << rng.randrange(8)
        elif op == 2:
            data[at] = rng.choice([0, 0xff, 0x7f, 0x80, 1])
        elif op == 3:
            data[at] = (old + rng.choice([-2, -1, 1, 2, 16])) & 0xff
        else:
            src = off + rng.randrange(size)
            n = min(rng.choice([2, 4, 8]), off + size - at, off + size - src)
            data[at:at + n] = data[src:src + n]
        recipe.append('%s: byte 0x%x (file offset 0x%x) 0x%02x -> 0x%02x'
                      % (what, at - off, at, old, data[at]))
    return bytes(data), '; '.join(recipe)


def apply_recipe(t, recipe):
    """A regressions.txt recipe applied to t's bytes: steps separated by
    ';', each "symbol NAME DELTA" (.symtab's NAME moved DELTA bytes) or
    "hide SECTION" (its name's '.' made 'X', so that nothing finds it).  By
    name, not by offset, so that a recipe means the same with any compiler."""
    data = bytearray(t.data)
    for step in recipe.split(';'):
        w = step.split()
        if w[0] == 'symbol':
            o, size, _, _, _ = t.secs['.symtab']
            s_o = t.secs['.strtab'][0]
            for e in range(o, o + size - 23, 24):
                name_off, = struct.unpack_from('<I', data, e)
                end = data.index(b'\0', s_o + name_off)
                if data[s_o + name_off:end].decode() == w[1]:
                    value, = struct.unpack_from('<Q', data, e + 8)
                    struct.pack_into('<Q', data, e + 8, value + int(w[2]))
                    break
            else:
                sys.exit('fuzz_elf: no symbol %s in %s' % (w[1], t.path))
        elif w[0] == 'hide':
            shoff, = struct.unpack_from('<Q', data, 0x28)
            shstrndx, = struct.unpack_from('<H', data, 0x3e)
            stroff, = struct.unpack_from('<Q', data, shoff + shstrndx * 64 + 24)
            name_off, = struct.unpack_from('<I', data, t.secs[w[1]][3])
            data[stroff + name_off] = ord('X')
        else:
            sys.exit('fuzz_elf: bad recipe step %r' % step)
    return bytes(data), 'regression: ' + recipe.strip()


def specs(src_dir, workdir):
    """Trivial specs, each a few gate forms, all optional; name -> path."""
    main_c = os.path.join(src_dir, 'fz_main.c')
    lib_c = os.path.join(src_dir, 'fz_lib.c')
    forms = {
        'line': ['fz_main.c:%d' % marker_line(main_c, 'worker-add'),
                 'fz_main.c:%d' % marker_line(main_c, 'main-print')],
        'function': ['worker', 'square', 'main'],
        'address': ['*worker+2', '*square', '*main+1'],
        'return': ['square:return'],
        'library': ['fz_lib.c:%d' % marker_line(lib_c, 'lib-load'), '*fz_lib_add+3'],
    }
    out = {}
    for name, ats in forms.items():
        path = os.path.join(workdir, name + '.yaml')
        with open(path, 'w') as f:
            f.write('version: 1\ntimeout: 10s\ngates:\n')
            for i, at in enumerate(ats):
                f.write('  - {at: "%s", optional: true, open: e%d}\n' % (at, i))
            f.write('expect: {exit: 0}\n')
        out[name] = path
    return out


def run(cmd, budget, env):
    """(status, output, hung) of cmd."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=budget, env=env)
        return p.returncode, p.stdout, False
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or b'', True


def check_listing(out, t, targets):
    """Breakpoints `check` lists where the original has no instruction start."""
    bad = []
    for line in out.decode(errors='replace').splitlines():
        m = LISTED.match(line)
        if not m:
            continue
        addr, obj = int(m.group(1), 16), m.group(3)
        if obj is None:
            orig = t if t.kind == 'exe' else targets['host']
        elif os.path.basename(obj) == os.path.basename(targets['so'].path):
            orig = targets['so']
        else:
            continue              # a library of the system, not mutated
        if addr not in orig.starts and any(lo <= addr < hi for lo, hi in orig.code):
            bad.append('breakpoint 0x%x (%s) is not where an instruction starts'
                       % (addr, line.strip()))
    return bad


def spec_names(t):
    return ['library'] if t.kind == 'so' else ['line', 'function', 'address',
                                               'return', 'library']


def one(i, t, data, recipe, a, targets, spec, env0, stats):
    """Runs mutant i with spec; returns a list of failures (empty: fine)."""
    mdir = os.path.join(a.workdir, 'm')
    os.makedirs(mdir, exist_ok=True)
    env = dict(env0)
    if t.kind == 'so':
        mpath = os.path.join(mdir, os.path.basename(t.path))
        prog = targets['host'].path
        env['LD_LIBRARY_PATH'] = mdir
        lines_args = ['lines', 'fz_lib.c', '--vars', '--', mpath]
    else:
        mpath = os.path.join(mdir, 'fz_mutant')
        prog = mpath
        env['LD_LIBRARY_PATH'] = os.path.dirname(targets['so'].path)
        lines_args = ['lines', 'fz_main.c', '--vars', '--', mpath]
    with open(mpath, 'wb') as f:
        f.write(data)
    os.chmod(mpath, 0o755)
    fails = []
    for args in (lines_args, ['check', spec, '--', prog],
                 ['run', '--timeout', '10s', spec, '--', prog]):
        status, out, hung = run([a.racegate] + args, a.per_input, env)
        what = 'racegate ' + ' '.join(args[:1])
        key = '%s %s' % (args[0], 'hang' if hung else status)
        stats[key] = stats.get(key, 0) + 1
        if hung:
            fails.append('%s: no answer in %d s' % (what, a.per_input))
        elif status < 0 or status > 3:
            fails.append('%s: exit status %d' % (what, status))
        if SANITIZER.search(out):
            fails.append('%s: sanitizer report or BUG' % what)
        if args[0] == 'check' and status == 0:
            fails += check_listing(out, t, targets)
        if fails:
            fails.append('output:\n' + out.decode(errors='replace')[-4000:])
            break
    if fails:
        keep = os.path.join(a.workdir, 'failures')
        os.makedirs(keep, exist_ok=True)
        base = os.path.join(keep, 'mutant-%d-%s-%s' % (i, t.kind,
                            os.path.basename(spec)[:-5]))
        shutil.copy(mpath, base)
        with open(base + '.txt', 'w') as f:
            f.write('seed %d, mutant %d of %s\n%s\nspec %s\n%s\n'
                    % (a.seed, i, t.path, recipe, spec, '\n'.join(fails)))
    return fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--racegate', required=True)
    ap.add_argument('--objdump', default='objdump')
    ap.add_argument('--exe', action='append', required=True, help='a -g program (repeatable)')
    ap.add_argument('--so', required=True, help='the shared object the programs link')
    ap.add_argument('--src-dir', default=os.path.join(HERE, 'corpus'))
    ap.add_argument('--workdir', required=True)
    ap.add_argument('--seconds', type=float, default=60)
    ap.add_argument('--per-input', type=int, default=60, help='seconds per racegate command')
    ap.add_argument('--seed', type=int, default=11)
    ap.add_argument('--only', type=int, help='run mutant ONLY alone')
    a = ap.parse_args()

    os.makedirs(a.workdir, exist_ok=True)
    shutil.rmtree(os.path.join(a.workdir, 'failures'), ignore_errors=True)
    targets = {'so': Target('so', a.so, a.objdump),
               'host': Target('exe', a.exe[0], a.objdump)}
    pool = [Target('exe', p, a.objdump) for p in a.exe] + [targets['so']]
    spec_paths = specs(a.src_dir, a.workdir)
    env0 = dict(os.environ)
    # libdwarf's own leaks on corrupt input (lsan.supp says which, and why)
    supp = 'suppressions=' + os.path.join(HERE, 'lsan.supp')
    env0['LSAN_OPTIONS'] = (env0['LSAN_OPTIONS'] + ':' + supp
                            if env0.get('LSAN_OPTIONS') else supp)
    # suppressions match frames: unwind libdwarf's, which has no frame pointers
    slow = 'fast_unwind_on_malloc=0'
    env0['ASAN_OPTIONS'] = (env0['ASAN_OPTIONS'] + ':' + slow
                            if env0.get('ASAN_OPTIONS') else slow)
    failed = ran = 0
    stats = {}
    t0 = time.monotonic()

    reg = os.path.join(HERE, 'regressions.txt')
    if a.only is None and os.path.exists(reg):
        with open(reg) as f:
            for n, line in enumerate(f):
                if not line.strip() or line.startswith('#'):
                    continue
                t = next(x for x in pool if os.path.basename(x.path) == line.split()[0])
                data, recipe = apply_recipe(t, line.split(None, 1)[1])
                ran += 1
                for name in spec_names(t):
                    fails = one(-1 - n, t, data, recipe, a, targets,
                                spec_paths[name], env0, stats)
                    if fails:
                        failed += 1
                        print('FAIL %s, %s\n  %s' % (recipe, name, '\n  '.join(fails)))

    i = 0 if a.only is None else a.only
    while True:
        if a.only is None and time.monotonic() - t0 >= a.seconds:
            break
        rng = random.Random(a.seed * 1000003 + i)
        t = pool[i % len(pool)]
        data, recipe = mutate(t, rng)
        ran += 1
        names = spec_names(t)
        fails = one(i, t, data, recipe, a, targets, spec_paths[names[i // len(pool) % len(names)]],
                    env0, stats)
        if fails:
            failed += 1
            print('FAIL mutant %d of %s: %s\n  %s' % (i, os.path.basename(t.path), recipe,
                                                     '\n  '.join(fails)))
        if a.only is not None:
            break
        i += 1
    print('fuzz_elf: exit statuses: ' + ', '.join('%s: %d' % kv for kv in sorted(stats.items())))
    print('fuzz_elf: %d mutants (seed %d) in %.0f s, %d failed%s'
          % (ran, a.seed, time.monotonic() - t0, failed,
             ' (kept in %s)' % os.path.join(a.workdir, 'failures') if failed else ''))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
