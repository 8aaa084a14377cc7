#!/usr/bin/env bash
# racegate explore must not report what did not happen: the program's
# stdin given to every run, a failure kept of its kind and detail, runs cut
# by --timeout counted, a report that speaks of one schedule, a summary
# whatever signal comes.  Run by explore_honest.cmake:
#
#   explore_honest.sh CASE RACEGATE DIR [ARGS...]
#
# DIR holds the programs.  Prints what expect.sh then matches ("STEP exit N"
# for each command); exits non-zero when a step cannot even be tried.
set -u
case_=$1 rg=$2 dir=$3
shift 3
src=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$dir" || exit 2

# The replay line explore printed (in $1), run as a user pastes it into a
# shell, with racegate's path in place of its name, from a stdin of none.
replay() {
	local line
	line=$(sed -n 's/^  replay: //p' "$1")
	[ -n "$line" ] || { echo "no replay line"; return; }
	line=${line/racegate explore/\"\$rg\" explore}
	eval "$line" < /dev/null
	echo "replay exit $?"
}

case $case_ in
stdin)
	# INPUT ARGS...: explore reads INPUT (printf's format) on its stdin
	input=$1
	shift
	printf "$input" | "$rg" explore -o "$tmp/r.yaml" --report "$tmp/r.json" "$@" |
		tee "$tmp/out"
	echo "explore exit ${PIPESTATUS[1]}"
	[ -f "$tmp/r.yaml" ] || { echo "no gates file"; exit 0; }
	cat "$tmp/r.yaml"
	if [ -f "$tmp/r.stdin" ]; then
		printf "$input" | cmp -s - "$tmp/r.stdin" && echo "r.stdin: the same bytes"
	fi
	# racegate run gives the program the file's stdin, whatever its own
	"$rg" run -q --repeat 20 "$tmp/r.yaml" < /dev/null
	echo "run exit $?"
	"$rg" run -q --repeat 5 "$tmp/r.yaml" <&-
	echo "run, stdin closed, exit $?"
	replay "$tmp/out"
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); f=r["failures"][0]
print("report: stdin", r["stdin_bytes"], "bytes,", f["kind"], "exit", f["exit"])' "$tmp/r.json"
	# both files as their schemas say
	python3 "$src/tests/e2e/tools/check_json.py" --yaml "$src/docs/gates.schema.json" \
		"$tmp/r.yaml"
	python3 "$src/tests/e2e/tools/check_json.py" "$src/docs/report.schema.json" "$tmp/r.json"
	;;
run_stdin)
	# racegate run honours stdin:, as text and as a file beside the spec,
	# whatever stdin racegate itself has
	printf 'hello\n' > "$tmp/in.txt"
	for s in '"hello\n"' '{file: in.txt}'; do
		printf 'version: 1\ncommand: [%s/explore_stdin]\nstdin: %s\n' "$PWD" "$s" \
			> "$tmp/s.yaml"
		printf 'expect:\n  stdout: "read '\''hello'\''"\n' >> "$tmp/s.yaml"
		"$rg" run -q --repeat 3 "$tmp/s.yaml" < /dev/null
		echo "stdin: $s: run exit $?"
		"$rg" run -q "$tmp/s.yaml" <&-
		echo "stdin: $s, racegate's closed: run exit $?"
	done
	;;
write_replay)
	# ARGS...: explore writes a file; it is shown, and the replay line run
	"$rg" explore -o "$tmp/r.yaml" "$@" | tee "$tmp/out"
	echo "explore exit ${PIPESTATUS[0]}"
	[ -f "$tmp/r.yaml" ] && cat "$tmp/r.yaml"
	replay "$tmp/out"
	;;
report)
	# ARGS...: explore with --report; the report's counts
	"$rg" explore --report "$tmp/r.json" "$@"
	echo "explore exit $?"
	python3 "$src/tests/e2e/tools/check_json.py" "$src/docs/report.schema.json" "$tmp/r.json"
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
print("report:", r["schedules"], "schedules,", r["timeouts"], "timeouts, interrupted",
      r["interrupted"], ",", len(r["failures"]), "failures")' "$tmp/r.json"
	;;
fallback)
	# HIDE ARGS...: explore_fallback hides its failure from the first HIDE
	# replays of a gates file, so explore writes the file of the schedule
	# as found; every field of the report is of the schedule it names
	hide=$1
	shift
	"$rg" explore -o "$tmp/r.yaml" --report "$tmp/r.json" "$@" \
		-- ./explore_fallback "$tmp/count" "$hide" | tee "$tmp/out"
	echo "explore exit ${PIPESTATUS[0]}"
	python3 "$src/tests/e2e/tools/check_json.py" "$src/docs/report.schema.json" "$tmp/r.json"
	python3 - "$tmp/out" "$tmp/r.json" "$tmp/r.yaml" <<'PY'
import json, re, sys
out = open(sys.argv[1]).read()
r = json.load(open(sys.argv[2]))
f = r["failures"][0]
found = re.search(r"failing schedule: (\S+) \((\d+) preemptions?, (\d+) decisions", out)
shrunk = re.search(r"shrunk to (\S+) \((\d+) preemptions?, (\d+) decisions", out)
gates = len(re.findall(r"^  - \{name: ", open(sys.argv[3]).read(), re.M))
want = {"id": found.group(1), "found_preemptions": int(found.group(2)),
        "found_steps": int(found.group(3)), "shrunk_id": shrunk.group(1),
        "preemptions": int(shrunk.group(2)), "steps": int(shrunk.group(3)),
        "gates_of": found.group(1), "gates": gates}
for k, v in want.items():
    print("report %s: %s (%s)" % (k, f.get(k), "as said" if f.get(k) == v else "said %s" % v))
PY
	;;
nofile)
	# HIDE ARGS...: explore_fallback hides its failure from more replays
	# than explore makes, so no gates file is written: explore says so
	# once, why and what to try, and so do the Markdown and JSON reports
	hide=$1
	shift
	"$rg" explore -o "$tmp/r.yaml" --report "$tmp/r.json" --markdown "$tmp/r.md" "$@" \
		-- ./explore_fallback "$tmp/count" "$hide" > "$tmp/out" 2>&1
	echo "explore exit $?"
	cat "$tmp/out"
	echo "said no gates file written: $(grep -c 'no gates file written' "$tmp/out") times"
	[ -f "$tmp/r.yaml" ] && echo "a gates file was written"
	sed -n '/^## No gates file/,/^## /s/^/md: /p' "$tmp/r.md"
	python3 "$src/tests/e2e/tools/check_json.py" "$src/docs/report.schema.json" "$tmp/r.json"
	python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["failures"][0]
n=f["no_gates_file"] or {}
print("report: gates_file", f["gates_file"], "shrunk", n.get("shrunk_reproduced"), "found",
      n.get("found_reproduced"), "of", n.get("replays"))
print("report why:", n.get("why")); print("report try:", n.get("try"))' "$tmp/r.json"
	;;
sigterm)
	# PROGRAM ARGS...: explore, and a SIGTERM at ten moments: four from
	# when racegate has the program open (its set-up: seconds for a C++
	# program under the sanitizers), six from when the first schedule's
	# program runs (the search, the shrinking, the replays of the file).
	# Each time the summary is printed, explore ends by the signal (or had
	# ended before it came), and no program of it is left.
	prog=$1
	shift
	cp "$prog" "$tmp/prog" || exit 2
	n=0
	for m in open:0 open:0.05 open:0.2 open:0.5 run:0 run:0.02 run:0.1 run:0.3 run:0.6 \
		 run:1; do
		"$rg" explore -o "$tmp/r.yaml" --report "$tmp/r.json" "$@" -- "$tmp/prog" \
			> "$tmp/out" 2>&1 &
		pid=$!
		for _ in $(seq 1200); do
			kill -0 "$pid" 2>/dev/null || break
			if [ "${m%:*}" = open ]; then
				ls -l "/proc/$pid/fd" 2>/dev/null | grep -q "$tmp/prog" && break
			else
				pgrep -P "$pid" > /dev/null && break
			fi
			sleep 0.05
		done
		sleep "${m#*:}"
		kill -TERM "$pid" 2>/dev/null
		wait "$pid"
		rc=$?
		sum=$(grep -E '^racegate explore: (interrupted|FAILED|no failure)' "$tmp/out")
		left=$(pgrep -f "$tmp/prog" | while read -r p; do
			st=$(ps -o stat= -p "$p" | cut -c1)
			[ -n "$st" ] && [ "$st" != Z ] && echo "$p"; done)
		echo "$m: exit $rc: ${sum:-no summary}"
		[ -n "$left" ] && echo "$m: program left running: $left"
		[ -n "$sum" ] && { [ "$rc" = 143 ] || [ "$rc" = 1 ]; } && n=$((n + 1))
		[ "$rc" = 143 ] && [ -f "$tmp/r.json" ] &&
			grep -q '"interrupted": "SIGTERM"' "$tmp/r.json" &&
			echo "$m: the report says SIGTERM"
		rm -f "$tmp/r.json" "$tmp/r.yaml"
	done
	echo "summaries: $n of 10"
	;;
*)
	echo "explore_honest.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
exit 0
