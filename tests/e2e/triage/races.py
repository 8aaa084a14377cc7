#!/usr/bin/env python3
"""races.py FILE.json: one line per race of a racegate triage report.

  race N VERDICT FILE:LINE START[#NTH] FILE:LINE START[#NTH] gates=NAME[,NAME]

and fails (status 1) when the report breaks its shape: a race without a
verdict, a side without file, line, function or thread, gates neither a
name, a list of names nor null.
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


def main():
    with open(sys.argv[1]) as f:
        rep = json.load(f)
    for r in rep["races"]:
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


main()
