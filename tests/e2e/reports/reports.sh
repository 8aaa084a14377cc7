#!/usr/bin/env bash
# Machine reports through the real racegate binary, each checked by what
# reads it: a JSON Schema, xmllint with the JUnit XSD, prove (TAP::Harness),
# and a checker of the trace-event format; and what a failing --repeat
# prints (flood).  Run by reports.cmake:
#
#   reports.sh CASE RACEGATE SOURCE_DIR BUILD_DIR
#
# Prints what expect.sh then matches; exits non-zero when a check fails.
set -u
case_=$1 rg=$2 src=$3 build=$4
ex=$build/examples
tools=$src/tests/e2e/tools
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case $case_ in
json)
	"$rg" run -q --repeat 4 --jobs 2 --report "$tmp/r.json" "$ex/lost_update/gates.yaml"
	echo "racegate exit $?"
	python3 "$tools/check_json.py" "$src/docs/report.schema.json" "$tmp/r.json" \
		--runs 4 --outcome REPRODUCED --kinds open,hold,open,release || exit 1
	# a run that could not be enforced: its note and gates say why
	"$rg" run -q --timeout 5s --report "$tmp/u.json" "$build/tests/e2e/unreached.yaml"
	echo "racegate exit $?"
	python3 "$tools/check_json.py" "$src/docs/report.schema.json" "$tmp/u.json" \
		--runs 1 --outcome NOT-ENFORCED || exit 1
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]
print("note:", r["note"]); print("unreached:", [g["name"] for g in r["gates"] if not g["reached"]])' "$tmp/u.json"
	;;
junit)
	# the spec file is the class (relative to where racegate runs), the run the case
	(cd "$ex" && "$rg" run -q --repeat 3 --jobs 2 --junit "$tmp/ok.xml" ./lost_update/gates.yaml)
	echo "racegate exit $?"
	xmllint --noout --schema "$src/tests/junit.xsd" "$tmp/ok.xml" || exit 1
	grep -c '<testcase ' "$tmp/ok.xml" | sed 's/^/testcases: /'
	grep -o '<testsuite name="[^"]*"' "$tmp/ok.xml"
	grep -o '<testcase name="[^"]*" classname="[^"]*"' "$tmp/ok.xml" | sort
	# unmet (failure) and not enforced (error) validate too
	"$rg" run -q --junit "$tmp/fail.xml" "$ex/string_buffer/gates.yaml" -- \
		"$ex/string_buffer/string_buffer-fixed"
	echo "racegate exit $?"
	xmllint --noout --schema "$src/tests/junit.xsd" "$tmp/fail.xml" || exit 1
	grep -o '<failure [^>]*type="[A-Z-]*"' "$tmp/fail.xml" | sed 's/.*type=/failure type=/'
	grep -o '<testcase name="[^"]*" classname="[^"]*"' "$tmp/fail.xml"
	"$rg" run -q --timeout 5s --junit "$tmp/err.xml" "$build/tests/e2e/unreached.yaml"
	echo "racegate exit $?"
	xmllint --noout --schema "$src/tests/junit.xsd" "$tmp/err.xml" || exit 1
	grep -o '<error [^>]*type="[A-Z-]*"' "$tmp/err.xml" | sed 's/.*type=/error type=/'
	;;
flood)
	# a --repeat whose every run fails: the first in full, five in a line,
	# the rest counted; the reports still hold all 100
	"$rg" run --repeat 100 --jobs 2 --junit "$tmp/f.xml" --report "$tmp/f.json" \
		"$ex/string_buffer/gates.yaml" -- "$ex/string_buffer/string_buffer-fixed" \
		>"$tmp/out" 2>&1
	echo "racegate exit $?"
	cat "$tmp/out"
	n=$(wc -l <"$tmp/out")
	[ "$n" -le 40 ] && echo "$n lines: at most 40" || echo "$n lines: more than 40"
	echo "timelines: $(grep -c '^timeline:' "$tmp/out")"
	echo "outputs: $(grep -c '^--- stdout ---$' "$tmp/out")"
	echo "run lines: $(grep -c ': run [0-9]*/100: NOT-REPRODUCED' "$tmp/out")"
	echo "junit testcases: $(grep -c '<testcase ' "$tmp/f.xml")"
	python3 "$tools/check_json.py" "$src/docs/report.schema.json" "$tmp/f.json" \
		--runs 100 --outcome NOT-REPRODUCED || exit 1
	# -q: the tally alone
	"$rg" run -q --repeat 100 --jobs 2 "$ex/string_buffer/gates.yaml" -- \
		"$ex/string_buffer/string_buffer-fixed" >"$tmp/q" 2>&1
	echo "quiet exit $?"
	echo "quiet lines: $(wc -l <"$tmp/q")"
	sed 's/^/quiet: /' "$tmp/q"
	;;
tap)
	"$rg" run -q --tap --repeat 3 --jobs 2 "$ex/lost_update/gates.yaml" >"$tmp/ok.tap" 2>"$tmp/err"
	echo "racegate exit $?"
	cat "$tmp/ok.tap"
	# the program's stdout is not in the stream: prove reads it as TAP
	prove -e cat "$tmp/ok.tap" >"$tmp/prove" 2>&1; echo "prove exit $?"
	tail -1 "$tmp/prove"
	"$rg" run -q --tap "$ex/string_buffer/gates.yaml" -- \
		"$ex/string_buffer/string_buffer-fixed" >"$tmp/fail.tap" 2>/dev/null
	echo "racegate exit $?"
	cat "$tmp/fail.tap"
	prove -e cat "$tmp/fail.tap" >"$tmp/prove" 2>&1; echo "prove exit $?"
	;;
trace)
	"$rg" run -q --repeat 3 --jobs 2 --trace "$tmp/t.json" "$ex/lost_update/gates.yaml"
	echo "racegate exit $?"
	# per run: one thread held at its store until the other opens its load
	python3 "$tools/check_trace.py" "$tmp/t.json" --min-slices 3 \
		--slice-name '^w[12]-store$' --min-flows 3 --min-arrivals 6 || exit 1
	"$rg" run -q --trace "$tmp/b.json" "$ex/array_list/gates.yaml"
	echo "racegate exit $?"
	python3 "$tools/check_trace.py" "$tmp/b.json" --min-slices 1 \
		--slice-name 'copied-not-counted' || exit 1
	;;
schema)
	for f in "$src"/examples/*/gates.yaml "$src"/tests/e2e/basics/hits.yaml; do
		python3 "$tools/check_json.py" --yaml "$src/docs/gates.schema.json" "$f" || exit 1
	done
	python3 "$tools/check_json.py" --yaml --invalid "$src/docs/gates.schema.json" \
		"$src/tests/e2e/errors/bad_key.yaml" || exit 1
	;;
tty)
	# a progress line and colour on a terminal; no colour with NO_COLOR
	script -qec "'$rg' run --repeat 3 '$ex/lost_update/gates.yaml'" /dev/null |
		tr '\r' '\n' >"$tmp/tty"
	grep -a 'runs:' "$tmp/tty"
	script -qec "'$rg' run '$ex/lost_update/gates.yaml'" /dev/null >"$tmp/color"
	grep -qa $'\033\\[1;32mREPRODUCED' "$tmp/color" && echo "tty: coloured"
	NO_COLOR=1 script -qec "'$rg' run '$ex/lost_update/gates.yaml'" /dev/null >"$tmp/nocolor"
	grep -qa $'\033\\[' "$tmp/nocolor" || echo "NO_COLOR: plain"
	"$rg" run --color=always "$ex/lost_update/gates.yaml" 2>&1 | grep -qa $'\033\\[1;32m' &&
		echo "--color=always: coloured"
	"$rg" run "$ex/lost_update/gates.yaml" 2>&1 | grep -qa $'\033\\[' || echo "pipe: plain"
	;;
*)
	echo "reports.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
exit 0
