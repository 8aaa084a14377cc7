#!/usr/bin/env bash
# when: checks through the real racegate binary that need more than its
# output.  Run by tests/e2e/when.cmake:
#
#   when.sh report RACEGATE SOURCE_DIR SPEC   the JSON report is valid and
#                                             says each condition's counts
set -u
case_=$1 rg=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case $case_ in
report)
	"$rg" run -q --report "$tmp/r.json" "$4"
	echo "racegate exit $?"
	python3 "$src/tests/e2e/tools/check_json.py" "$src/docs/report.schema.json" \
		"$tmp/r.json" --runs 1 || exit 1
	python3 - "$tmp/r.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
for g in run["gates"]:
    w = g.get("when")
    if w:
        print("%s: false %d, unreadable %d, first '%s'" %
              (g["name"], w["false"], w["unreadable"], w["first_unreadable"]))
kinds = [e["kind"] for e in run["events"]]
print("unreadable events:", kinds.count("unreadable"))
PY
	;;
*)
	echo "when.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
