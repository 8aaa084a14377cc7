#!/usr/bin/env python3
"""Checks a Chrome trace-event file the way its consumers read it.

    check_trace.py TRACE.json [--min-slices N] [--min-flows N]
                   [--min-arrivals N] [--slice-name REGEX]

The rules are those of the Trace Event Format (the JSON object form that
Perfetto's and chrome://tracing's importers take): every event has a known
phase and the fields that phase needs; complete slices (X) on one thread
nest properly, since a track is a stack; every flow (s -> f) has one start
and one end with the same name and category, the start not after the end,
each bound to a slice enclosing it on its own thread (bp "e" for the end);
metadata (M) names processes and threads.  Prints a one-line summary and
exits 1 with the reasons when something is wrong.
"""
import argparse
import collections
import json
import re
import sys

PHASES = set("BEXiIsftMCbneNODPp")


def fail(errors):
    for e in errors[:20]:
        print("check_trace: " + e, file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--min-slices", type=int, default=0)
    ap.add_argument("--min-flows", type=int, default=0)
    ap.add_argument("--min-arrivals", type=int, default=0)
    ap.add_argument("--slice-name", default=None)
    a = ap.parse_args()

    with open(a.trace, encoding="utf-8") as f:
        doc = json.load(f)
    errors = []
    if isinstance(doc, dict):
        events = doc.get("traceEvents")
        if not isinstance(events, list):
            fail(["no traceEvents array"])
        unit = doc.get("displayTimeUnit", "ms")
        if unit not in ("ms", "ns"):
            errors.append("displayTimeUnit must be ms or ns, not %r" % unit)
    elif isinstance(doc, list):
        events = doc
    else:
        fail(["top level is neither an object nor an array"])

    slices = collections.defaultdict(list)    # (pid, tid) -> [(ts, end, name)]
    flows = collections.defaultdict(dict)     # id -> {ph: event}
    named_threads = set()
    named_procs = set()
    arrivals = 0
    for n, e in enumerate(events):
        where = "event %d" % n
        if not isinstance(e, dict):
            errors.append(where + ": not an object")
            continue
        ph = e.get("ph")
        if ph not in PHASES:
            errors.append(where + ": unknown phase %r" % ph)
            continue
        if not isinstance(e.get("name"), str):
            errors.append(where + ": no name")
        for k in ("pid", "tid"):
            if k in e and not isinstance(e[k], int):
                errors.append(where + ": %s is not an integer" % k)
        if ph == "M":
            args = e.get("args")
            if not isinstance(args, dict):
                errors.append(where + ": metadata without args")
            elif e["name"] == "thread_name":
                named_threads.add((e.get("pid"), e.get("tid")))
                if not isinstance(args.get("name"), str):
                    errors.append(where + ": thread_name without a name")
            elif e["name"] == "process_name":
                named_procs.add(e.get("pid"))
            continue
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or isinstance(ts, bool):
            errors.append(where + ": ts is not a number")
            continue
        if "pid" not in e or "tid" not in e:
            errors.append(where + ": no pid/tid")
            continue
        key = (e["pid"], e["tid"])
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                errors.append(where + ": X without a duration >= 0")
                continue
            slices[key].append((ts, ts + dur, e["name"]))
        elif ph in "iI":
            if e.get("s", "t") not in ("g", "p", "t"):
                errors.append(where + ": instant scope %r" % e.get("s"))
            if e.get("cat") == "arrival":
                arrivals += 1
        elif ph in "stf":
            if "id" not in e:
                errors.append(where + ": flow without id")
                continue
            if ph in flows[e["id"]]:
                errors.append(where + ": flow %r has two '%s' events" % (e["id"], ph))
            flows[e["id"]][ph] = e
            if ph == "f" and e.get("bp", "e") != "e" and "bp" in e:
                errors.append(where + ": bp must be 'e'")

    # a track is a stack: slices either nest or follow each other
    for key, ss in slices.items():
        ss.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for s in ss:
            # times have 3 decimals: compare with a tolerance below that,
            # as start + dur in binary floating point may not be exact
            while stack and stack[-1][1] <= s[0] + 1e-6 and stack[-1][0] != s[0]:
                stack.pop()
            if stack and s[1] > stack[-1][1] + 1e-6:
                errors.append("pid %d tid %d: slice %r [%g, %g] overlaps %r [%g, %g]"
                              % (key[0], key[1], s[2], s[0], s[1], stack[-1][2],
                                 stack[-1][0], stack[-1][1]))
            stack.append(s)
        if key not in named_threads:
            errors.append("pid %d tid %d: thread has no thread_name" % key)

    def enclosed(key, ts):
        return any(s[0] <= ts <= s[1] for s in slices.get(key, []))

    nflows = 0
    for fid, parts in flows.items():
        if set(parts) - {"t"} != {"s", "f"}:
            errors.append("flow %r: needs one 's' and one 'f', has %s" % (fid, sorted(parts)))
            continue
        s, f = parts["s"], parts["f"]
        if (s["name"], s.get("cat")) != (f["name"], f.get("cat")):
            errors.append("flow %r: start and end differ in name or cat" % fid)
        if s["ts"] > f["ts"]:
            errors.append("flow %r: ends before it starts" % fid)
        for p in (s, f):
            if not enclosed((p["pid"], p["tid"]), p["ts"]):
                errors.append("flow %r: its '%s' has no enclosing slice on its thread"
                              % (fid, p["ph"]))
        nflows += 1

    held = [s for ss in slices.values() for s in ss
            if a.slice_name is None or re.search(a.slice_name, s[2])]
    if len(held) < a.min_slices:
        errors.append("%d slices%s, expected at least %d" % (
            len(held), " named /%s/" % a.slice_name if a.slice_name else "", a.min_slices))
    if nflows < a.min_flows:
        errors.append("%d flows, expected at least %d" % (nflows, a.min_flows))
    if arrivals < a.min_arrivals:
        errors.append("%d arrivals, expected at least %d" % (arrivals, a.min_arrivals))
    if errors:
        fail(errors)
    print("trace ok: %d events, %d processes, %d threads, %d slices, %d flows, %d arrivals"
          % (len(events), len(named_procs), len(named_threads), len(held), nflows, arrivals))


if __name__ == "__main__":
    main()
