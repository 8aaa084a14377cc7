#!/usr/bin/env bash
# when: checks through the real racegate binary that need more than its
# output.  Run by when.cmake:
#
#   when.sh report RACEGATE SOURCE_DIR SPEC [RUNS JOBS]
#                                             the JSON report is valid and
#                                             says each condition's counts
#   when.sh trace RACEGATE SOURCE_DIR SPEC    the trace file shows the fault
#   when.sh types RACEGATE SOURCE_DIR TABLE BIN_DIR
#                                             racegate check refuses each
#                                             condition of TABLE with its
#                                             exact message and line:col
set -u
case_=$1 rg=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case $case_ in
report)
	# when.sh report RACEGATE SOURCE_DIR SPEC [RUNS JOBS]
	runs=${5:-1} jobs=${6:-1}
	"$rg" run -q --repeat "$runs" --jobs "$jobs" --report "$tmp/r.json" "$4"
	echo "racegate exit $?"
	python3 "$src/tests/e2e/tools/check_json.py" "$src/docs/report.schema.json" \
		"$tmp/r.json" --runs "$runs" || exit 1
	python3 - "$tmp/r.json" <<'PY'
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for g in run["gates"]:
        w = g.get("when")
        if w:
            print("%s: false %d, unreadable %d, first '%s'" %
                  (g["name"], w["false"], w["unreadable"], w["first_unreadable"]))
    kinds = [e["kind"] for e in run["events"]]
    print("unreadable events:", kinds.count("unreadable"))
PY
	;;
trace)
	# when.sh trace RACEGATE SOURCE_DIR SPEC: the trace file is valid and
	# has the condition's first unreadable read as an instant event
	"$rg" run -q --trace "$tmp/t.json" "$4" >/dev/null
	echo "racegate exit $?"
	python3 "$src/tests/e2e/tools/check_trace.py" "$tmp/t.json" || exit 1
	python3 - "$tmp/t.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
evs = d["traceEvents"] if isinstance(d, dict) else d
for e in evs:
    if e.get("cat") == "when":
        print("when event: %s (%s)" % (e["name"], e["ph"]))
PY
	;;
types)
	# when.sh types RACEGATE SOURCE_DIR TABLE BIN_DIR: one spec per program
	# with a gate per row, checked; every error line must be the row's
	python3 - "$rg" "$4" "$5" "$tmp" "$src/tests/e2e/normalise.sh" <<'PY'
import subprocess, sys
rg, table, bindir, tmp, normalise = sys.argv[1:6]
rows = [l.rstrip("\n").split("\t") for l in open(table)
        if l.strip() and not l.startswith("#")]
want, progs = {}, {}
for prog, loc, cond, off, msg in rows:
    progs.setdefault(prog, []).append((loc, cond, int(off), msg))
bad = 0
for prog, gates in progs.items():
    spec = "%s/%s.yaml" % (tmp, prog)
    with open(spec, "w") as f:
        f.write("version: 1\ncommand: [%s/%s]\ngates:\n" % (bindir, prog))
        for i, (loc, cond, off, msg) in enumerate(gates):
            head = "  - {name: t%d, at: %s, when: '" % (i, loc)
            f.write("%s%s', open: e}\n" % (head, cond))
            want["%s:%d:%d: error: %s" % (spec, i + 4, len(head) + 1 + off, msg)] = cond
        f.write("  - {name: w, at: %s, wait: e, optional: true}\n" % gates[0][0])
    p = subprocess.run([rg, "check", spec], capture_output=True, text=True)
    # the rows say 0xADDR where racegate prints an instance's address
    masked = subprocess.run([normalise, "addresses"], input=p.stderr, check=True,
                            capture_output=True, text=True).stdout
    got = [l for l in masked.splitlines() if ": error: " in l]
    for l in got:
        if l not in want:
            print("unexpected: " + l)
            bad += 1
    for l, cond in want.items():
        if l.startswith(spec + ":") and l not in got:
            print("missing for '%s': %s" % (cond, l))
            bad += 1
    print("%s: racegate check exit %d" % (prog, p.returncode))
print("%d rows, %d wrong" % (len(rows), bad))
sys.exit(1 if bad else 0)
PY
	;;
*)
	echo "when.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
