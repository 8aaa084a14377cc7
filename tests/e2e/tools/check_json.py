#!/usr/bin/env python3
"""Validates a file against a JSON Schema, and a few facts about a report.

    check_json.py SCHEMA FILE [--yaml] [--invalid]
                  [--runs N] [--outcome O] [--kinds K1,K2,...]

--yaml reads FILE as YAML (a gates file); --invalid expects validation to
fail (and prints the first error).  For a racegate report: --runs is the
number of runs, --outcome the outcome of every run, --kinds event kinds
that must appear in this order (as a subsequence) in every run.
"""
import argparse
import json
import sys

import jsonschema

ap = argparse.ArgumentParser()
ap.add_argument("schema")
ap.add_argument("file")
ap.add_argument("--yaml", action="store_true")
ap.add_argument("--invalid", action="store_true")
ap.add_argument("--runs", type=int)
ap.add_argument("--outcome")
ap.add_argument("--kinds")
a = ap.parse_args()

with open(a.schema, encoding="utf-8") as f:
    schema = json.load(f)
jsonschema.Draft7Validator.check_schema(schema)
with open(a.file, encoding="utf-8") as f:
    if a.yaml:
        import yaml
        doc = yaml.safe_load(f)
    else:
        doc = json.load(f)
errs = sorted(jsonschema.Draft7Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
if a.invalid:
    if not errs:
        sys.exit("check_json: %s is valid, expected it not to be" % a.file)
    print("invalid as expected: %s" % errs[0].message)
    sys.exit(0)
if errs:
    for e in errs[:10]:
        print("check_json: %s: %s: %s" % (a.file, "/".join(map(str, e.path)), e.message),
              file=sys.stderr)
    sys.exit(1)
bad = []
if a.runs is not None and len(doc["runs"]) != a.runs:
    bad.append("%d runs, expected %d" % (len(doc["runs"]), a.runs))
for r in doc.get("runs", []) if isinstance(doc, dict) else []:
    if [x["run"] for x in doc["runs"]] != sorted(x["run"] for x in doc["runs"]):
        bad.append("runs are not in run order")
        break
for r in doc.get("runs", []) if isinstance(doc, dict) else []:
    if a.outcome and r["outcome"] != a.outcome:
        bad.append("run %d: %s, expected %s" % (r["run"], r["outcome"], a.outcome))
    if a.kinds:
        want = a.kinds.split(",")
        got = [e["kind"] for e in r["events"]]
        it = iter(got)
        if not all(k in it for k in want):
            bad.append("run %d: event kinds %s do not contain %s in order" % (r["run"], got, want))
if bad:
    for b in bad:
        print("check_json: " + b, file=sys.stderr)
    sys.exit(1)
print("%s: valid" % a.file)
