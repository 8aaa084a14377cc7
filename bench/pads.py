#!/usr/bin/env python3
"""Jump pads (issue 15): what a pass-through hit costs, and how many gate
sites get a pad.

    bench/pads.py --racegate build/racegate --dir build/bench --src bench [--quick]

hits: per pass-through hit at padloop.c's SITE (a 5-byte nop), in one run
  with the competitors alternating and medians over rounds: racegate
  (default: a pad where it can), racegate --no-fastpath, the one-trap
  ptrace floor (ptrace_floor onetrap), gdb's Python breakpoint whose stop()
  returns False; pinned (taskset -c CPU) and unpinned; with three gates
  that never act: a hit count not reached (hit: 10^9), a thread filter
  that can never pick the passing thread ("!me", me bound to it at main's
  entry), a `when:` that is false.  Per hit:
  (T(N) - T(0)) / N of the same competitor, N chosen per competitor so
  that a run takes about --budget seconds (a trap costs ~10 µs, a pad pass
  ~0.01 µs: one N for both would take minutes or measure nothing).
where: per pass at a site in a shared library built -O2 (padlib.c), under
  run, attach and in a followed fork child, timed by the program itself
  (padwhere.c), against --no-fastpath and gdb's Python breakpoint.
coverage: racegate --verbose says for each gate site "pad" or "no pad:
  REASON".  Counted over the examples' gates files, and over gates on every
  line `racegate lines` offers in test programs built -O0 and -O2.
Before pads exist the hit ratios are ~1 and coverage reports no pad lines.
"""
import argparse
import glob
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--racegate", required=True)
ap.add_argument("--dir", required=True, help="build/bench (padloop, ptrace_floor)")
ap.add_argument("--src", required=True, help="source bench/")
ap.add_argument("--rounds", type=int, default=5)
ap.add_argument("--budget", type=float, default=1.0, help="seconds per timed run")
ap.add_argument("--cpu", default="0", help="CPU for the pinned runs")
ap.add_argument("--quick", action="store_true", help="3 rounds, shorter runs, fewer programs")
ap.add_argument("--only", default="", help="comma list: hits,where,coverage")
ap.add_argument("--examples", default="", help="build/examples (default: DIR/../examples)")
ap.add_argument("--programs", default="", help="test programs' sources (default: SRC/../tests/e2e, each topic's folder)")
args = ap.parse_args()
if args.quick:
    args.rounds, args.budget = 3, 0.5

RG = os.path.abspath(args.racegate)
D = os.path.abspath(args.dir)
SRC = os.path.abspath(args.src)
WORK = os.path.join(D, "work-pads")
os.makedirs(WORK, exist_ok=True)
ONLY = set(filter(None, args.only.split(",")))
EXAMPLES = os.path.abspath(args.examples or os.path.join(D, "..", "examples"))
PROGRAMS = os.path.abspath(args.programs or os.path.join(SRC, "..", "tests", "e2e"))
report = []
# "pad", "pad; when: evaluated in the pad" (or "... by racegate: WHY"), "no pad: WHY"
# e2e specs whose gates are in shared objects (build/tests/e2e)
LIB_SPECS = ["pads_lib.yaml", "pads_lib_linked.yaml", "pads_lib_o2.yaml", "pads_lib_late.yaml",
             "plugin.yaml", "lockorder.yaml", "lockorder_in.yaml", "past_in_lib.yaml",
             "past_in_lib_seq.yaml", "when_plugin.yaml"]
PAD_RE = re.compile(r"^racegate: gate '(.*)' at (.*): (pad(?:; when: .*)?|no pad: (.*))$")


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


def run(cmd, pin=False, check=None, timeout=900):
    if pin:
        cmd = ["taskset", "-c", args.cpu] + cmd
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=WORK,
                       timeout=timeout)
    t = time.perf_counter() - t0
    text = p.stdout.decode(errors="replace")
    if check is not None and not re.search(check, text):
        sys.exit("benchmark command failed (%r not in output): %s\n%s"
                 % (check, " ".join(cmd), text[-3000:]))
    return t, text


def nm(binary, sym):
    o = subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout
    for l in o.splitlines():
        f = l.split()
        if len(f) == 3 and f[2] == sym:
            return f[0]
    sys.exit("no symbol %s in %s" % (sym, binary))


def x(r):
    return "%.2f×" % r if r < 10 else "%.0f×" % r


def us(s):
    return "%.3f µs" % (s * 1e6) if s < 1e-6 else "%.2f µs" % (s * 1e6)


# ---------------------------------------------------------------------------
def bench_hits():
    pl = os.path.join(D, "padloop")
    loc = "padloop.c:%d" % marker_line(os.path.join(SRC, "padloop.c"), "SITE")
    site, slot = nm(pl, "bench_site"), nm(pl, "bench_slot")
    gates = {
        "hit count": "{name: pass, at: '%s', hit: 1000000000, open: never, optional: true}" % loc,
        # 'me' is bound to main at its entry: "!me" can never pick the
        # thread that passes (a gate for worker 2, passed by worker 1)
        "thread filter": "{name: bind, at: main, as: me}\n  - {name: pass, at: '%s', thread: '!me', open: never, optional: true}" % loc,
        "false when:": "{name: pass, at: '%s', when: 'i < 0', open: never, optional: true}" % loc,
    }
    specs = {}
    for k, (v, g) in enumerate(gates.items()):
        specs[v] = write("pads%d.yaml" % k, "version: 1\nname: pass-through (%s)\ncommand: [%s]\n"
                         "gates:\n  - %s\n" % (v, pl, g))
    pyf = write("pads_pass.py", "import gdb\nclass Pass(gdb.Breakpoint):\n    def stop(self):\n"
                "        return False\nPass(%r)\ngdb.execute('run')\n" % loc)
    comps = [("plain program (no tracer)", lambda n: [pl, str(n)])]
    for v in gates:
        comps.append(("racegate, pads: %s" % v, lambda n, v=v: [RG, "run", specs[v], "--", pl, str(n)]))
        comps.append(("racegate --no-fastpath: %s" % v,
                      lambda n, v=v: [RG, "run", "--no-fastpath", specs[v], "--", pl, str(n)]))
    comps.append(("ptrace floor: one trap, out of line",
                  lambda n: [os.path.join(D, "ptrace_floor"), "onetrap", site, slot, "--", pl, str(n)]))
    if shutil.which("gdb"):
        comps.append(("gdb: Python stop() returns False",
                      lambda n: ["gdb", "-batch", "-nx", "-x", pyf, "--args", pl, str(n)]))
    # what each racegate variant did with the site
    for v in gates:
        _, text = run([RG, "run", "--verbose", specs[v], "--", pl, "1000"], check=r"sum 499500")
        said = [m.group(3) for m in map(PAD_RE.match, text.splitlines()) if m]
        out("- %s: racegate --verbose says the site got: %s" % (v, ", ".join(said) or
                                                               "(no pad line: no fast path in this build)"))
    out()

    def chk(n):
        return r"sum %d\b" % (n * (n - 1) // 2)
    res = {}
    for pin in (True, False):
        # N per competitor: a calibration run of 2,000 hits
        ns = {}
        for name, mk in comps:
            t0, _ = run(mk(0), pin, chk(0))
            t1, _ = run(mk(5000), pin, chk(5000))
            per = max((t1 - t0) / 5000, 1e-9)
            ns[name] = int(min(max(args.budget / per, 3000), 5e7))
        for r in range(args.rounds):
            order = comps[r % len(comps):] + comps[:r % len(comps)]
            for name, mk in order:
                n = ns[name]
                t0, _ = run(mk(0), pin, chk(0))
                t1, _ = run(mk(n), pin, chk(n))
                res.setdefault((name, pin), []).append((t1 - t0) / n)
            print("  pads hits: %s round %d done" % ("pinned" if pin else "unpinned", r + 1),
                  file=sys.stderr)
        res[("N", pin)] = ns
    med = {k: statistics.median(v) for k, v in res.items() if k[0] != "N"}
    out("### Pass-through hit cost (median of %d rounds; N per competitor in brackets)" % args.rounds)
    out()
    out("| competitor | pinned (CPU %s) | × one-trap floor | unpinned | × one-trap floor |" % args.cpu)
    out("|---|---|---|---|---|")
    floor = {pin: med[("ptrace floor: one trap, out of line", pin)] for pin in (True, False)}
    for name, _ in comps:
        cells = []
        for pin in (True, False):
            m = med[(name, pin)]
            cells += ["%s [%d]" % (us(m), res[("N", pin)][name]), "%.3f×" % (m / floor[pin])]
        out("| %s | %s |" % (name, " | ".join(cells)))
    out()
    plain = {pin: med[("plain program (no tracer)", pin)] for pin in (True, False)}
    for pin in (True, False):
        for v in gates:
            pads = med[("racegate, pads: %s" % v, pin)]
            trap = med[("racegate --no-fastpath: %s" % v, pin)]
            add = max(pads - plain[pin], 1e-12)
            line = ("- %s, %s: pads %s per hit (%s over the plain loop); --no-fastpath / pads = %s; "
                    "floor / pads = %s (target ≥ 100×)"
                    % ("pinned" if pin else "unpinned", v, us(pads), us(add), x(trap / pads),
                       x(floor[pin] / pads)))
            g = med.get(("gdb: Python stop() returns False", pin))
            if g:
                line += "; gdb Python / pads = %s (target ≥ 1000×)" % x(g / pads)
            out(line + ("; ≤ 0.1 µs: %s" % ("met" if pads <= 1e-7 else "not met") if pin else ""))
    out()


# ---------------------------------------------------------------------------
def bench_where():
    """Per pass at a site in a shared library built -O2 (padlib.c), the gate
    live and never acting (hit: 10^9): under run, attach and in a followed
    fork child, each timed by the program itself (padwhere.c: ns/hit), less
    the plain loop's time in the same mode; against --no-fastpath and gdb's
    Python breakpoint whose stop() returns False (attached: gdb -p; the
    child: follow-fork-mode child)."""
    pw = os.path.join(D, "padwhere")
    loc = "padlib.c:%d" % marker_line(os.path.join(SRC, "padlib.c"), "SITE")
    # the gate at the end keeps an attach on until the loop is over
    gate = ("{name: pass, at: '%s', in: libbenchpad.so, %shit: 1000000000, open: never, "
            "optional: true}\n  - {name: end, at: 'padwhere.c:/END/', %sopen: ended}")
    specs = {}
    for m in ("run", "attach", "fork"):
        anyp = "process: any, " if m == "fork" else ""
        specs[m] = write("where_%s.yaml" % m, "version: 1\nname: pass-through in a library (%s)\n"
                         "command: [%s]\ngates:\n  - %s\n" % (m, pw, gate % (loc, anyp, anyp)))
    armed = os.path.join(WORK, "gdb-armed")

    def gdb_script(mode):
        pre = {"run": "", "fork": "gdb.execute('set follow-fork-mode child')\n",
               "attach": "gdb.execute('handle SIGUSR1 nostop noprint pass')\n"}[mode]
        go = "continue" if mode == "attach" else "run"
        return write("where_%s.py" % mode, "import gdb\ngdb.execute('set breakpoint pending on')\n"
                     "%sclass Pass(gdb.Breakpoint):\n    def stop(self):\n        return False\n"
                     "Pass(%r)\nopen(%r, 'w').write('1')\ngdb.execute(%r)\n"
                     % (pre, loc, armed, go))

    def per_hit(text, cmd):
        m = re.search(r"^ns/hit ([0-9.]+)$", text, re.M)
        if not m:
            sys.exit("benchmark command failed: %s\n%s" % (" ".join(cmd), text[-3000:]))
        return float(m.group(1)) * 1e-9

    def attached(tracer, n):
        """padwhere wait N, TRACER attached (a list, PID appended or
        substituted), ARMED said when it may go."""
        prog = subprocess.Popen([pw, "wait", str(n)], stdout=subprocess.PIPE, cwd=WORK)
        assert prog.stdout.readline().strip() == b"ready"
        tr = None
        if tracer:
            if os.path.exists(armed):
                os.unlink(armed)
            log = open(os.path.join(WORK, "where-attach.log"), "w")
            tr = subprocess.Popen([a.replace("PID", str(prog.pid)) for a in tracer],
                                  stdout=log, stderr=subprocess.STDOUT, cwd=WORK)
            deadline = time.time() + 60
            while time.time() < deadline:
                if "racegate" in tracer[0]:
                    if "gates armed" in open(log.name).read():
                        break
                elif os.path.exists(armed):
                    time.sleep(0.3)     # gdb's continue after the file
                    break
                time.sleep(0.02)
            else:
                sys.exit("the tracer did not arm: %s" % open(log.name).read()[-2000:])
        os.kill(prog.pid, signal.SIGUSR1)
        text = prog.stdout.read().decode()
        prog.wait()
        if tr:
            tr.wait(timeout=300)
        return per_hit(text, tracer or [pw])

    def comp(mode, who, n):
        if mode == "attach":
            tracer = {"plain": None,
                      "pads": [RG, "attach", "--verbose", "PID", specs["attach"]],
                      "traps": [RG, "attach", "--verbose", "--no-fastpath", "PID", specs["attach"]],
                      "gdb": ["gdb", "-batch", "-nx", "-p", "PID", "-x", gdb_script("attach")]}[who]
            return attached(tracer, n)
        args = [pw, mode, str(n)]
        cmd = {"plain": args,
               "pads": [RG, "run", specs[mode], "--"] + args,
               "traps": [RG, "run", "--no-fastpath", specs[mode], "--"] + args,
               "gdb": ["gdb", "-batch", "-nx", "-x", gdb_script(mode), "--args"] + args}[who]
        _, text = run(cmd, check=r"sum %d\b" % (n * (n - 1) // 2))
        return per_hit(text, cmd)

    whos = ["plain", "pads", "traps"] + (["gdb"] if shutil.which("gdb") else [])
    ns = {"plain": 5000000, "pads": 5000000, "traps": 20000, "gdb": 3000}
    if args.quick:
        ns = {k: v // 4 for k, v in ns.items()}
    res = {}
    for r in range(args.rounds):
        for mode in ("run", "attach", "fork"):
            for who in whos[r % len(whos):] + whos[:r % len(whos)]:
                res.setdefault((mode, who), []).append(comp(mode, who, ns[who]))
        print("  pads where: round %d done" % (r + 1), file=sys.stderr)
    med = {k: statistics.median(v) for k, v in res.items()}
    _, text = run([RG, "run", "--verbose", specs["run"], "--", pw, "run", "1000"], check=r"sum 499500")
    said = [m.group(3) for m in map(PAD_RE.match, text.splitlines()) if m]
    out("### A library's site, -O2: run, attached, in a followed child (median of %d rounds)"
        % args.rounds)
    out()
    out("racegate --verbose says the library's site got: %s" % (", ".join(said) or "(no pad line)"))
    out()
    out("| mode | plain loop | racegate, pads: per pass | --no-fastpath | gdb Python | gdb / pads |")
    out("|---|---|---|---|---|---|")
    for mode in ("run", "attach", "fork"):
        plain = med[(mode, "plain")]
        pads = max(med[(mode, "pads")] - plain, 1e-12)
        trap = med[(mode, "traps")] - plain
        g = med.get((mode, "gdb"))
        out("| %s | %s | **%s** | %s | %s | %s |" % (
            mode, us(plain), us(pads), us(trap), us(g - plain) if g else "-",
            x((g - plain) / pads) if g else "-"))
    out()
    for mode in ("run", "attach", "fork"):
        plain = med[(mode, "plain")]
        pads = max(med[(mode, "pads")] - plain, 1e-12)
        g = med.get((mode, "gdb"))
        out("- %s: pads %s per pass (target ≤ 0.2 µs: %s)%s" % (
            mode, us(pads), "met" if pads <= 2e-7 else "not met",
            "; gdb Python / pads = %s (target ≥ 1000×: %s)" % (
                x((g - plain) / pads), "met" if (g - plain) / pads >= 1000 else "not met")
            if g else ""))
    out()


# ---------------------------------------------------------------------------
def pad_lines(text):
    """{(gate, where): 'pad' or the reason} from racegate --verbose."""
    got = {}
    for l in text.splitlines():
        m = PAD_RE.match(l)
        if m:
            got[(m.group(1), m.group(2))] = "pad" if m.group(3).startswith("pad") else m.group(4)
    return got


def lib_gates(spec):
    """The gates of spec whose breakpoints are in a shared object (racegate
    check says "in 'PATH'" of a .so)."""
    text = subprocess.run([RG, "check", spec], capture_output=True, text=True,
                          cwd=os.path.dirname(spec)).stdout
    libs, gate = set(), None
    for l in text.splitlines():
        m = re.match(r"^  (\S.*?)  +at ", l)
        if m:
            gate = m.group(1)
        elif gate and re.search(r" in '[^']*\.so[^']*'$", l):
            libs.add(gate)
    return libs


def coverage_row(label, sites, libs=None):
    """sites: {(spec, gate, where): 'pad' or the reason}; libs: the keys
    that are a library's (None: not counted)."""
    n = len(sites)
    padded = sum(1 for v in sites.values() if v == "pad")
    reasons = {}
    for v in sites.values():
        if v != "pad":
            reasons[v] = reasons.get(v, 0) + 1
    why = "; ".join("%s: %d" % (r, c) for r, c in sorted(reasons.items(), key=lambda x: -x[1]))
    lib = "-"
    if libs is not None:
        nl = sum(1 for k in sites if k in libs)
        pl = sum(1 for k, v in sites.items() if k in libs and v == "pad")
        lib = "%d of %d" % (pl, nl)
    out("| %s | %d | %d | %s | %s | %s |" % (label, n, padded, "%.0f%%" % (100.0 * padded / n) if n else "-",
                                           lib, why or "-"))
    return n, padded


def bench_coverage():
    out("### Coverage: gate sites that get a pad (from --verbose)")
    out()
    out("| programs | gate sites | with a pad | share | of them a library's: with a pad | the others: reason: count |")
    out("|---|---|---|---|---|---|")
    # the examples, each with its own gates files; then the e2e specs whose
    # gates are in libraries (the project's own, -O0 and -O2, a dlopen'd
    # module, libc by its symbols)
    total = 0
    e2e = os.path.abspath(os.path.join(D, "..", "tests", "e2e"))
    for label, specs in (("examples (their gates files)",
                          sorted(glob.glob(os.path.join(EXAMPLES, "*", "*.yaml")))),
                         ("e2e specs gating libraries",
                          [os.path.join(e2e, f) for f in LIB_SPECS
                           if os.path.exists(os.path.join(e2e, f))])):
        sites, libs = {}, set()
        for spec in specs:
            try:
                _, text = run([RG, "run", "--verbose", "--timeout", "30s", spec], timeout=120)
            except subprocess.TimeoutExpired:
                continue
            lg = lib_gates(spec)
            for k, v in pad_lines(text).items():
                sites[(spec,) + k] = v
                if k[0] in lg:
                    libs.add((spec,) + k)
        total += coverage_row(label, sites, libs)[0]
    # every line racegate offers in test programs, -O0 and -O2
    # the e2e programs sit in their topics' folders: tests/e2e/TOPIC/*.c
    srcs = sorted(glob.glob(os.path.join(PROGRAMS, "*.c")) +
                  glob.glob(os.path.join(PROGRAMS, "*", "*.c")), key=os.path.basename)
    if args.quick:
        srcs = [s for s in srcs if os.path.basename(s).startswith(("pads_", "hits", "signals"))]
    for opt in ("-O0", "-O2"):
        sites, nprog = {}, 0
        for src in srcs:
            base = os.path.splitext(os.path.basename(src))[0]
            exe = os.path.join(WORK, "%s%s" % (base, opt))
            if subprocess.run(["cc", opt, "-g", "-w", "-o", exe, src, "-pthread", "-ldl"],
                              capture_output=True).returncode:
                continue
            lines = subprocess.run([RG, "lines", src, "--", exe], capture_output=True,
                                   text=True).stdout
            nums = [l.split()[0] for l in lines.splitlines()[2:] if l.split() and l.split()[0].isdigit()]
            if not nums:
                continue
            spec = write("cov_%s%s.yaml" % (base, opt), "version: 1\ncommand: [%s]\ngates:\n" % exe + "".join(
                "  - {at: '%s.c:%s', hit: 1000000000, open: never, optional: true}\n" % (base, n)
                for n in nums))
            try:
                _, text = run([RG, "run", "--verbose", "--timeout", "5s", spec], timeout=60)
            except subprocess.TimeoutExpired:
                continue
            got = pad_lines(text)
            nprog += 1
            for k, v in got.items():
                sites[(base,) + k] = v
        total += coverage_row("%d test programs %s, a gate on every line" % (nprog, opt), sites)[0]
    out()
    if not total:
        out("- no gate site in any row: this racegate prints no pad lines (it has no fast path)")
        out()


if not ONLY or "hits" in ONLY:
    bench_hits()
if not ONLY or "where" in ONLY:
    bench_where()
if not ONLY or "coverage" in ONLY:
    bench_coverage()
with open(os.path.join(D, "pads-results.md"), "w") as f:
    f.write("\n".join(report) + "\n")
