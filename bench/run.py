#!/usr/bin/env python3
"""racegate benchmarks (issue 6): hit cost, ungated threads, startup, scale;
FUNCTION:return against recursion depth (issue 11); a false `when:`
condition against a pass-through hit (issue 12).

    cmake --build build --target bench          # builds everything, runs this
    bench/run.py --racegate build/racegate --dir build/bench --src bench [--quick]

Each benchmark runs its competitors in the same run, alternating, for several
rounds, and prints medians and ratios.  Per-hit costs are
(T(N hits) - T(0 hits)) / N for the same competitor, so start-up and
symbol loading cancel out.  "pinned" runs everything under `taskset -c CPU`
(tracer and program on one CPU); "unpinned" lets the scheduler choose.
The final markdown table is also written to DIR/results.md.
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--racegate", required=True)
ap.add_argument("--dir", required=True, help="build/bench")
ap.add_argument("--src", required=True, help="source bench/")
ap.add_argument("--rounds", type=int, default=5)
ap.add_argument("--hits", type=int, default=20000)
ap.add_argument("--cpu", default="1", help="CPU for the pinned runs")
ap.add_argument("--quick", action="store_true", help="fewer rounds and hits, no 1M-hit run")
ap.add_argument("--only", default="", help="comma list: hits,threads,startup,scale,returns,when")
ap.add_argument("--returns", type=int, default=80000,
                help="returns per run of the returns benchmark (= the deepest recursion)")
args = ap.parse_args()
if args.quick:
    args.rounds, args.hits, args.returns = 3, 5000, 20000

RG = os.path.abspath(args.racegate)
D = os.path.abspath(args.dir)
SRC = os.path.abspath(args.src)
WORK = os.path.join(D, "work")
os.makedirs(WORK, exist_ok=True)
ONLY = set(filter(None, args.only.split(",")))
report = []      # markdown lines


def out(line=""):
    print(line, flush=True)
    report.append(line)


def marker_line(path, marker):
    with open(path) as f:
        for i, l in enumerate(f, 1):
            if "/* %s */" % marker in l:
                return i
    sys.exit("no /* %s */ in %s" % (marker, path))


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def run(cmd, pin=False, check=None):
    """Runs cmd; returns (seconds, CompletedProcess-like, ru_maxrss KiB)."""
    if pin:
        cmd = ["taskset", "-c", args.cpu] + cmd
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=WORK)
    so, se = p.communicate()
    t = time.perf_counter() - t0
    # communicate() reaped it; the rusage of the finished child is in RUSAGE_CHILDREN's max
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    p.stdout_text, p.stderr_text = so.decode(errors="replace"), se.decode(errors="replace")
    if check is not None and not re.search(check, p.stdout_text + p.stderr_text):
        sys.exit("benchmark command failed (%r not in output): %s\n%s\n%s"
                 % (check, " ".join(cmd), p.stdout_text[-2000:], p.stderr_text[-2000:]))
    return t, p, rss


def run_rss(cmd, pin=False, check=None):
    """Like run, but the peak RSS of this one process (wait4), in KiB."""
    if pin:
        cmd = ["taskset", "-c", args.cpu] + cmd
    # Output to a file, not a pipe: nothing to drain while waiting.  The
    # peak RSS comes from GNU time's wait4: a child forked by this Python
    # process would carry Python's own RSS into its ru_maxrss across exec.
    with open(os.path.join(WORK, "out.txt"), "w+b") as o:
        t0 = time.perf_counter()
        p = subprocess.Popen(["/usr/bin/time", "-f", "RG-MAXRSS %M"] + cmd,
                             stdout=o, stderr=subprocess.STDOUT, cwd=WORK)
        p.wait()
        t = time.perf_counter() - t0
        o.seek(0)
        text = o.read().decode(errors="replace")
    m = re.findall(r"RG-MAXRSS (\d+)", text)
    ru = type("ru", (), {"ru_maxrss": int(m[-1]) if m else 0})
    if check is not None and not re.search(check, text):
        sys.exit("benchmark command failed (%r not in output): %s\n%s"
                 % (check, " ".join(cmd), text[-3000:]))
    return t, text, ru.ru_maxrss


def med(v):
    return statistics.median(v)


def fmt_us(s):
    return "%.1f µs" % (s * 1e6)


def nm(binary, sym):
    o = subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout
    for l in o.splitlines():
        f = l.split()
        if len(f) == 3 and f[2] == sym:
            return f[0]
    sys.exit("no symbol %s in %s" % (sym, binary))


# ---------------------------------------------------------------------------
def bench_hits():
    hl = os.path.join(D, "hitloop")
    site_line = marker_line(os.path.join(SRC, "hitloop.c"), "SITE")
    end_line = marker_line(os.path.join(SRC, "hitloop.c"), "END")
    site, slot = nm(hl, "bench_site"), nm(hl, "bench_slot")
    loc = "hitloop.c:%d" % site_line
    live = write("hit_live.yaml", """version: 1
name: pass-through gate in a hot loop
command: [%s]
gates:
  # the filter never matches (hit 10^9): the gate stays live, every pass traps
  - {name: pass, at: '%s', hit: 1000000000, open: never, optional: true}
""" % (hl, loc))
    once = write("hit_once.yaml", """version: 1
name: one-shot gate in a hot loop
command: [%s]
gates:
  # acts on the first pass only; then no gate there can act: disarmed
  - {name: first, at: '%s', once: true, open: seen, optional: true}
""" % (hl, loc))
    pyf = write("hit_pass.py", """import gdb
class Pass(gdb.Breakpoint):
    def stop(self):
        return False
Pass("%s")
gdb.execute("run")
""" % loc)
    cmdf = write("hit_cont.gdb", "break %s\ncommands\nsilent\ncontinue\nend\nrun\n" % loc)

    def prog(n):
        return [hl, str(n)]
    comps = [
        ("ptrace floor: bare stop+continue", lambda n: [os.path.join(D, "ptrace_floor"), "bare", site, slot, "--"] + prog(n)),
        ("ptrace floor: one trap, out of line", lambda n: [os.path.join(D, "ptrace_floor"), "onetrap", site, slot, "--"] + prog(n)),
        ("ptrace floor: naive two-trap step", lambda n: [os.path.join(D, "ptrace_floor"), "twotrap", site, slot, "--"] + prog(n)),
        ("racegate: live pass-through gate", lambda n: [RG, "run", live, "--"] + prog(n)),
        ("racegate: once gate (disarmed after 1st)", lambda n: [RG, "run", once, "--"] + prog(n)),
        ("gdb: Python stop() returns False", lambda n: ["gdb", "-batch", "-nx", "-x", pyf, "--args"] + prog(n)),
        ("gdb: commands / silent / continue", lambda n: ["gdb", "-batch", "-nx", "-x", cmdf, "--args"] + prog(n)),
    ]
    N = args.hits
    res = {}
    for pin in (True, False):
        for r in range(args.rounds):
            order = comps[r % len(comps):] + comps[:r % len(comps)]
            for name, mk in order:
                t0, _, _ = run(mk(0), pin, check=r"sum 0\b")
                t1, _, _ = run(mk(N), pin, check=r"sum %d\b" % (N * (N - 1) // 2))
                res.setdefault((name, pin), []).append((t1 - t0) / N)
            print("  hit cost: %s round %d done" % ("pinned" if pin else "unpinned", r + 1), file=sys.stderr)
    out("### 1. Hit cost (per breakpoint hit, median of %d rounds, N = %d hits)" % (args.rounds, N))
    out()
    out("| competitor | pinned (1 CPU) | × one-trap floor | unpinned | × one-trap floor |")
    out("|---|---|---|---|---|")
    floor = {pin: med(res[("ptrace floor: one trap, out of line", pin)]) for pin in (True, False)}
    for name, _ in comps:
        cells = []
        for pin in (True, False):
            m = med(res[(name, pin)])
            cells += [fmt_us(m), "%.2f×" % (m / floor[pin])]
        out("| %s | %s |" % (name, " | ".join(cells)))
    out()
    for pin in (True, False):
        rg = med(res[("racegate: live pass-through gate", pin)])
        gp = med(res[("gdb: Python stop() returns False", pin)])
        gc = med(res[("gdb: commands / silent / continue", pin)])
        out("- %s: racegate pass-through = %.2f× the one-trap floor (target ≤ 1.5×); "
            "gdb Python / racegate = %.1f× (target ≥ 10×); gdb commands / racegate = %.1f×"
            % ("pinned" if pin else "unpinned", rg / floor[pin], gp / rg, gc / rg))
    out()


# ---------------------------------------------------------------------------
def bench_threads():
    ct = os.path.join(D, "cputhreads")
    mark = marker_line(os.path.join(SRC, "cputhreads.c"), "MARK")
    spec = write("threads.yaml", """version: 1
name: one gated thread among CPU-bound ones
command: [%s]
gates:
  - {name: mark, at: 'cputhreads.c:%d', once: true, open: marked}
""" % (ct, mark))
    rounds = "100000000" if not args.quick else "30000000"
    res = {"plain": [], "racegate": []}
    for r in range(args.rounds + 2):
        comps = [("plain", [ct, "2", rounds]), ("racegate", [RG, "run", spec, "--", ct, "2", rounds])]
        if r % 2:
            comps.reverse()
        for name, cmd in comps:
            t, _, _ = run(cmd, check=r"marks 1\b")
            res[name].append(t)
    p, g = med(res["plain"]), med(res["racegate"])
    spread = (max(res["plain"]) - min(res["plain"])) / p
    out("### 2. Ungated threads (2 CPU-bound threads, one gate hit once; wall time, median of %d)" % len(res["plain"]))
    out()
    out("| run | median | min | max |")
    out("|---|---|---|---|")
    for k in ("plain", "racegate"):
        out("| %s | %.3f s | %.3f s | %.3f s |" % (k, med(res[k]), min(res[k]), max(res[k])))
    out()
    out("- racegate / plain = %.3f× (plain runs alone spread ±%.0f%%: the noise)" % (g / p, spread * 50))
    out()


# ---------------------------------------------------------------------------
def bench_startup():
    big = os.path.join(D, "big", "big")
    spec = os.path.join(D, "big", "startup.yaml")
    gdbf = os.path.join(D, "big", "startup.gdb")
    size = os.path.getsize(big)
    comps = [
        ("racegate check (300 gates resolved)", [RG, "check", spec, "--", big], r"300 gates"),
        ("gdb -batch: load only", ["gdb", "-batch", "-nx", big], None),
        ("gdb -batch: load + the same 300 breakpoints", ["gdb", "-batch", "-nx", "-x", gdbf, big], r"Breakpoint 300 at"),
    ]
    res = {}
    for r in range(args.rounds):
        order = comps[r % 3:] + comps[:r % 3]
        for name, cmd, chk in order:
            t, _, rss = run_rss(cmd, check=chk)
            res.setdefault(name, []).append((t, rss))
    out("### 3. Startup (a generated %.1f MB -g program, %d functions in 9 files; median of %d)"
        % (size / 1e6, 20000, args.rounds))
    out()
    out("| competitor | time | peak RSS |")
    out("|---|---|---|")
    for name, _, _ in comps:
        out("| %s | %.3f s | %.0f MB |" % (name, med([x[0] for x in res[name]]),
                                           med([x[1] for x in res[name]]) / 1024))
    rg = med([x[0] for x in res[comps[0][0]]])
    out()
    out("- gdb load only / racegate check = %.1f×; gdb with the breakpoints / racegate check = %.1f×"
        % (med([x[0] for x in res[comps[1][0]]]) / rg, med([x[0] for x in res[comps[2][0]]]) / rg))
    out()


# ---------------------------------------------------------------------------
def verbose_counts(text):
    m = re.search(r"racegate: (\d+) breakpoint hits at gates, (\d+) arrivals, (\d+) breakpoints disarmed", text)
    return tuple(int(x) for x in m.groups()) if m else None


def bench_scale():
    rows = []
    # threads
    mt = os.path.join(D, "manythreads")
    pas = marker_line(os.path.join(SRC, "manythreads.c"), "PASS")
    for T in (100, 1000):
        spec = write("threads%d.yaml" % T, """version: 1
name: %d threads pass one gate
command: [%s]
timeout: 600s
gates:
  # every thread is held until all %d have arrived: a lost arrival never ends
  - {name: all, at: 'manythreads.c:%d', barrier: %d}
""" % (T, mt, T, pas, T))
        tp, _, rssp = run_rss([mt, str(T)], check=r"passed %d\b" % T)
        t, text, rss = run_rss([RG, "run", "--verbose", spec, "--", mt, str(T)], check=r"passed %d\b" % T)
        c = verbose_counts(text)
        ok = c and c[0] == T and c[1] == T and "PASSED" in text
        rows.append(("%d threads × 1 barrier arrival" % T, t, tp, rss, rssp, c, ok, T))
    # breakpoints
    big = os.path.join(D, "big", "big")
    tp, _, rssp = run_rss([big], check=r"total")
    for B in (1000, 10000):
        spec = os.path.join(D, "big", "bps%d.yaml" % B)
        t, text, rss = run_rss([RG, "run", "--verbose", spec, "--", big], check=r"total")
        c = verbose_counts(text)
        ok = c and c[0] == B and c[1] == B and c[2] == B and "PASSED" in text
        rows.append(("%d armed breakpoints, each hit once" % B, t, tp, rss, rssp, c, ok, B))
    # hits in one run (pinned: the per-hit cost is lowest there)
    hl = os.path.join(D, "hitloop")
    site_line = marker_line(os.path.join(SRC, "hitloop.c"), "SITE")
    end_line = marker_line(os.path.join(SRC, "hitloop.c"), "END")
    for H in ((100000,) if args.quick else (100000, 1000000)):
        spec = write("hits%d.yaml" % H, """version: 1
name: %d hits in one run
command: [%s]
timeout: 900s
gates:
  # reached only on the %d-th pass: one lost hit and 'end' waits for ever
  - {name: last, at: 'hitloop.c:%d', hit: %d, open: all-seen}
  - {name: end, at: 'hitloop.c:%d', wait: all-seen}
""" % (H, hl, H, site_line, H, end_line))
        tp, _, rssp = run_rss([hl, str(H)], pin=True, check=r"sum")
        t, text, rss = run_rss([RG, "run", "--verbose", spec, "--", hl, str(H)], pin=True,
                               check=r"sum %d\b" % (H * (H - 1) // 2))
        c = verbose_counts(text)
        ok = c and c[0] == H + 1 and "PASSED" in text
        rows.append(("%d hits in one run (pinned)" % H, t, tp, rss, rssp, c, ok, H))
    out("### 4. Scale (one run each; peak RSS of the racegate process (wait4, via GNU time), which includes the program it reaps)")
    out()
    out("| run | racegate time | plain program | per unit | racegate peak RSS | plain peak RSS | hits / arrivals / disarmed | nothing lost |")
    out("|---|---|---|---|---|---|---|---|")
    for name, t, tp, rss, rssp, c, ok, unit in rows:
        out("| %s | %.3f s | %.3f s | %.1f µs | %.1f MB | %.1f MB | %s | %s |"
            % (name, t, tp, (t - tp) / unit * 1e6, rss / 1024, rssp / 1024,
               "/".join(map(str, c)) if c else "?", "yes" if ok else "NO"))
    out()

# ---------------------------------------------------------------------------
def run_cpu(cmd, check):
    """Runs cmd; returns (wall seconds, CPU seconds: user + system of cmd and
    what it reaped, i.e. racegate and the program it traces)."""
    with open(os.path.join(WORK, "out.txt"), "w+b") as o:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=o, stderr=subprocess.STDOUT, cwd=WORK)
        _, status, ru = os.wait4(p.pid, 0)
        t = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        o.seek(0)
        text = o.read().decode(errors="replace")
    if not re.search(check, text):
        sys.exit("benchmark command failed (%r not in output): %s\n%s"
                 % (check, " ".join(cmd), text[-3000:]))
    return t, ru.ru_utime + ru.ru_stime


def bench_returns():
    """The same number of returns, N, at every depth D (N / D recursions D
    deep): the cost per return at depth N against that at depth 1,000 is 1.0
    when a call and a return cost O(1)."""
    rc = os.path.join(D, "recurse")
    end_line = marker_line(os.path.join(SRC, "recurse.c"), "END")
    N = args.returns
    depths = [d for d in (1000, 10000, 20000, 40000, 80000) if d < N] + [N]
    specs = {}
    for d in depths:
        specs[d] = write("returns%d.yaml" % d, """version: 1
name: %d returns, %d deep
command: [%s]
timeout: 900s
gates:
  # the N-th return opens 'all': one return lost and 'end' waits for ever
  - {name: last, at: 'rec:return', hit: %d, open: all}
  - {name: extra, at: 'rec:return', hit: %d, optional: true, open: extra}
  - {name: end, at: 'recurse.c:%d', wait: all}
""" % (N, d, rc, N, N + 1, end_line))
    # the same gates, but nothing waits: a run with no recursion passes
    base = write("returns0.yaml", """version: 1
name: no returns
command: [%s]
gates:
  - {name: last, at: 'rec:return', hit: %d, optional: true, open: all}
""" % (rc, N))
    res = {}
    for r in range(args.rounds):
        order = depths[r % len(depths):] + depths[:r % len(depths)]
        for d in order:
            # the start-up (loading, resolving, arming) cancels out: 0 recursions
            w0, c0 = run_cpu([RG, "run", base, "--", rc, str(d), "0"],
                             check=r"returns 0\b[\s\S]*PASSED")
            w1, c1 = run_cpu([RG, "run", specs[d], "--", rc, str(d), str(N // d)],
                             check=r"returns %d\b[\s\S]*PASSED" % N)
            res.setdefault(d, []).append(((w1 - w0) / N, (c1 - c0) / N))
        print("  returns: round %d done" % (r + 1), file=sys.stderr)
    out("### 5. FUNCTION:return against recursion depth (%d returns per run, median of %d rounds)"
        % (N, args.rounds))
    out()
    out("| depth × recursions | wall per return | CPU per return | CPU × depth %d |" % depths[0])
    out("|---|---|---|---|")
    ref = med([x[1] for x in res[depths[0]]])
    for d in depths:
        w, c = med([x[0] for x in res[d]]), med([x[1] for x in res[d]])
        out("| %d × %d | %s | %s | %.2f× |" % (d, N // d, fmt_us(w), fmt_us(c), c / ref))
    out()
    out("- CPU is user + system time of racegate and the program it traces (both")
    out("  run at every trap); a call and a return are two traps. O(1) per return:")
    out("  the last column stays near 1.0 at every depth")
    out()


# ---------------------------------------------------------------------------
def bench_when():
    """A gate whose when: is false at every arrival (registers read, one
    batched memory read, evaluated, passed) against the pass-through hit of
    a gate that never holds (hit: 10^9), same program, same rounds.  Wall
    time per arrival, pinned and unpinned as for hit cost, and CPU time
    (user + system of racegate and the program, from wait4), which other
    load on the machine disturbs far less."""
    hl = os.path.join(D, "hitloop")
    loc = "hitloop.c:%d" % marker_line(os.path.join(SRC, "hitloop.c"), "SITE")
    plain = write("when_plain.yaml", """version: 1
name: pass-through gate in a hot loop
command: [%s]
gates:
  - {name: pass, at: '%s', hit: 1000000000, open: never, optional: true}
""" % (hl, loc))
    cond = write("when_false.yaml", """version: 1
name: a false condition in a hot loop
command: [%s]
gates:
  # i is a register (the parameter), counter a global read from memory
  - {name: cond, at: '%s', when: "i < 0 || counter < 0", open: never, optional: true}
""" % (hl, loc))
    comps = [("pass-through hit (hit: 10^9)", plain), ("when: false (register + memory)", cond)]
    N = args.hits
    res = {}
    for pin in (True, False):
        for r in range(args.rounds):
            order = comps if r % 2 == 0 else comps[::-1]
            for name, spec in order:
                pre = ["taskset", "-c", args.cpu] if pin else []
                w0, c0 = run_cpu(pre + [RG, "run", spec, "--", hl, "0"], check=r"sum 0\b")
                w1, c1 = run_cpu(pre + [RG, "run", spec, "--", hl, str(N)],
                                 check=r"sum %d\b" % (N * (N - 1) // 2))
                res.setdefault((name, pin), []).append(((w1 - w0) / N, (c1 - c0) / N))
            print("  when: %s round %d done" % ("pinned" if pin else "unpinned", r + 1), file=sys.stderr)

    def m(name, pin, k):
        return med([x[k] for x in res[(name, pin)]])
    out("### 6. A false `when:` condition (per arrival, median of %d rounds, N = %d hits)" % (args.rounds, N))
    out()
    out("| gate | wall, pinned (1 CPU) | wall, unpinned | CPU, pinned | CPU, unpinned |")
    out("|---|---|---|---|---|")
    for name, _ in comps:
        out("| %s | %s | %s | %s | %s |" % (name, fmt_us(m(name, True, 0)), fmt_us(m(name, False, 0)),
                                         fmt_us(m(name, True, 1)), fmt_us(m(name, False, 1))))
    out()
    for k, what in ((0, "wall"), (1, "CPU")):
        out("- %s: when false / pass-through = %.2f× pinned, %.2f× unpinned (target ≤ 1.5×)"
            % (what, m(comps[1][0], True, k) / m(comps[0][0], True, k),
               m(comps[1][0], False, k) / m(comps[0][0], False, k)))
    out()


# ---------------------------------------------------------------------------
out("## racegate benchmarks")
out()
out("`%s` on %s, %d CPUs; %s" % (" ".join(sys.argv[1:]) and "bench/run.py " + " ".join(
    a if not a.startswith("/") else os.path.relpath(a) for a in sys.argv[1:]),
    os.uname().release, os.cpu_count(), time.strftime("%Y-%m-%d %H:%M")))
out()
for name, fn in (("hits", bench_hits), ("threads", bench_threads),
                 ("startup", bench_startup), ("scale", bench_scale),
                 ("returns", bench_returns), ("when", bench_when)):
    if ONLY and name not in ONLY:
        continue
    print("== %s" % name, file=sys.stderr, flush=True)
    fn()
with open(os.path.join(D, "results.md"), "w") as f:
    f.write("\n".join(report) + "\n")
print("(written to %s)" % os.path.join(D, "results.md"), file=sys.stderr)
