#!/usr/bin/env python3
"""text_check.py PID: does process PID run exactly the code of its files?

Compares every executable file mapping of PID (the program and each shared
object) with the file's bytes, through /proc/PID/mem, and looks for
executable memory no file backs (racegate's scratch pages) other than the
kernel's [vdso] and [vsyscall].  Prints what differs; exit status 1 if
anything does.
"""
import sys


def main():
    pid = sys.argv[1]
    bad = 0
    checked = 0
    with open("/proc/%s/maps" % pid) as maps, open("/proc/%s/mem" % pid, "rb", 0) as mem:
        for line in maps:
            f = line.split(None, 5)
            lo, hi = (int(x, 16) for x in f[0].split("-"))
            perms, off = f[1], int(f[2], 16)
            path = f[5].strip() if len(f) > 5 else ""
            if "x" not in perms:
                continue
            if not path.startswith("/"):
                if path not in ("[vdso]", "[vsyscall]"):
                    print("executable memory no file backs: %s %s" % (f[0], path or "(anonymous)"))
                    bad += 1
                continue
            with open(path, "rb") as src:
                src.seek(off)
                want = src.read(hi - lo)
            mem.seek(lo)
            have = mem.read(len(want))
            checked += len(want)
            if have != want:
                diff = [i for i in range(len(want)) if have[i] != want[i]]
                print("%s: %d bytes differ, first at 0x%x (memory %02x, file %02x)"
                      % (path, len(diff), lo + diff[0], have[diff[0]], want[diff[0]]))
                bad += 1
    print("text check of %s: %d bytes compared, %s" % (pid, checked, "clean" if not bad else "NOT CLEAN"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
