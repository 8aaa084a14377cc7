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
ap.add_argument("--only", default="", help="comma list: hits,coverage")
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
def pad_lines(text):
    """{(gate, where): 'pad' or the reason} from racegate --verbose."""
    got = {}
    for l in text.splitlines():
        m = PAD_RE.match(l)
        if m:
            got[(m.group(1), m.group(2))] = "pad" if m.group(3).startswith("pad") else m.group(4)
    return got


def coverage_row(label, sites, extra=""):
    n = len(sites)
    padded = sum(1 for v in sites.values() if v == "pad")
    reasons = {}
    for v in sites.values():
        if v != "pad":
            reasons[v] = reasons.get(v, 0) + 1
    why = "; ".join("%s: %d" % (r, c) for r, c in sorted(reasons.items(), key=lambda x: -x[1]))
    out("| %s | %d | %d | %s | %s%s |" % (label, n, padded, "%.0f%%" % (100.0 * padded / n) if n else "-",
                                         why or "-", extra))
    return n, padded


def bench_coverage():
    out("### Coverage: gate sites that get a pad (from --verbose)")
    out()
    out("| programs | gate sites | with a pad | share | the others: reason: count |")
    out("|---|---|---|---|---|")
    # the examples, each with its own gates files
    sites = {}
    for spec in sorted(glob.glob(os.path.join(EXAMPLES, "*", "*.yaml"))):
        try:
            _, text = run([RG, "run", "--verbose", "--timeout", "30s", spec], timeout=120)
        except subprocess.TimeoutExpired:
            continue
        for k, v in pad_lines(text).items():
            sites[(spec,) + k] = v
    total = coverage_row("examples (their gates files)", sites)[0]
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
if not ONLY or "coverage" in ONLY:
    bench_coverage()
with open(os.path.join(D, "pads-results.md"), "w") as f:
    f.write("\n".join(report) + "\n")
