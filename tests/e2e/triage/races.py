#!/usr/bin/env python3
"""races.py FILE.json: one line per race of a racegate triage report.

  race N VERDICT FILE:LINE START[#NTH] FILE:LINE START[#NTH] gates=NAME[,NAME]

or, for a race not triaged (verdict null, with a note),

  race N not triaged: NOTE

then, when it has them, "race N seen REPORT:LINE..." (the warnings of
each report that name it, by the report's file name) and "race N
inferred: TEXT".  Fails (status 1) when the report breaks its shape: a
race with neither a verdict nor a note, a side without file, line,
function or thread, gates neither a name, a list of names nor null, a
"report" neither a name nor a list of names.
"""
import json
import os
import sys

VERDICTS = {"HARMFUL", "OUTPUT-DIFFERS", "BENIGN", "NOT-REACHED", "SINGLE-ORDER"}


def side(s):
    for k in ("file", "line", "function", "thread"):
        if k not in s:
            sys.exit("a side without %s: %r" % (k, s))
    t = s["thread"]
    name = t.get("start") or "main"
    if "nth" in t:
        name += "#%d" % t["nth"]
    return "%s:%d %s" % (s["file"], s["line"], name)


def race(r):
    if r.get("verdict") is None and isinstance(r.get("note"), str):
        if r["gates"] is not None:
            sys.exit("a race not triaged with gates: %r" % r)
        print("race %d not triaged: %s" % (r["race"], r["note"]))
        return
    if r.get("verdict") not in VERDICTS:
        sys.exit("a race without a verdict: %r" % r)
    g = r["gates"]
    if g is None:
        gates = "-"
    elif isinstance(g, str):
        gates = os.path.basename(g)
    elif isinstance(g, list) and all(isinstance(x, str) for x in g):
        gates = ",".join(os.path.basename(x) for x in g)
    else:
        sys.exit("gates is neither a file, files nor null: %r" % g)
    print("race %d %s %s %s gates=%s" % (r["race"], r["verdict"], side(r["first"]),
                                         side(r["second"]), gates))


def main():
    with open(sys.argv[1]) as f:
        rep = json.load(f)
    names = rep["report"]
    if not (isinstance(names, str) or
            (isinstance(names, list) and len(names) > 1 and
             all(isinstance(x, str) for x in names))):
        sys.exit("report is neither a name nor a list of names: %r" % names)
    for r in rep["races"]:
        race(r)
        if r.get("seen"):
            print("race %d seen %s" % (r["race"],
                                       " ".join(os.path.basename(x) for x in r["seen"])))
        if r.get("inferred"):
            print("race %d inferred: %s" % (r["race"], r["inferred"]))


main()
