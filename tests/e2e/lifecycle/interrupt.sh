#!/usr/bin/env bash
# interrupt.sh RACEGATE SPEC PROGRAM HOW SIGNAL FAST HELD [OPTION...]:
# racegate killed or interrupted while it holds a thread for ever.
#
# Runs `racegate run --report R.json OPTIONs SPEC -- PROGRAM DIR FAST` in a
# session of its own (holder.c: runs 1..FAST end at once, later ones are
# held for ever), waits until HELD runs are held, then sends SIGNAL:
#   HOW=leader  to racegate alone (kill PID)
#   HOW=group   to its process group, as ^C in a terminal does
# and checks: exit status 128+N, an INTERRUPTED outcome with the timeline
# so far, reports (JSON, JUnit, trace events) with the FAST finished runs
# and the HELD interrupted ones, each program gone, and nothing left of the session (workers,
# programs, anything in a tracing stop).
#   HOW=kill9   SIGKILL to racegate (SIGNAL is ignored): its workers and
# their programs must be gone all the same, within a generous bound.
set -u
rg=$1 spec=$2 prog=$3 how=$4 sig=$5 fast=$6 held=$7
shift 7
dir=$(mktemp -d)
leader=
cleanup() {
	# never leave anything behind, whatever failed
	[ -n "$leader" ] && kill -9 "$leader" 2>/dev/null
	for p in $(cat "$dir/pids" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "---- racegate's output ----"; cat "$dir/out"; exit 1; }

# every process of session $1 still there, one "pid state comm" a line
session_left() {
	for st in /proc/[0-9]*/stat; do
		{ read -r line <"$st"; } 2>/dev/null || continue
		rest=${line##*) }
		set -- $rest
		# fields after the name: state ppid pgrp session
		[ "${4:-}" = "$sid" ] && echo "${st//[!0-9]/} $1 ${line#*(}"
	done
}

# setsid: a session (and process group) of racegate's own, which also keeps
# the signal sent to the group away from this script; env: a background job
# of a script starts with SIGINT ignored, which racegate keeps as it found it
setsid env --default-signal=INT,HUP,TERM "$rg" run --report "$dir/r.json" \
	--junit "$dir/r.xml" --trace "$dir/t.json" "$@" "$spec" -- "$prog" "$dir" "$fast" \
	>"$dir/out" 2>&1 &
leader=$!
sid=$leader
for _ in $(seq 600); do
	n=$(cat "$dir/held" 2>/dev/null | wc -l)
	[ "$n" -ge "$held" ] && break
	kill -0 "$leader" 2>/dev/null || fail "racegate ended before $held runs were held"
	sleep 0.1
done
[ "$n" -ge "$held" ] || fail "$held runs were not held within 60 s"
workers=$(pgrep -P "$leader" | tr '\n' ' ')
echo "racegate $leader, workers: ${workers:-none}, programs: $(tr '\n' ' ' <"$dir/pids")"

case $how in
leader) kill -"$sig" "$leader" ;;
group) kill -"$sig" -- -"$leader" ;;
kill9) kill -KILL "$leader" ;;
*) fail "unknown HOW '$how'" ;;
esac
# a hang is a failure, not a stuck test (bash reaps it, and keeps its status)
ended() { [ ! -e "/proc/$leader" ] || [ "$(sed 's/.*) \(.\).*/\1/' "/proc/$leader/stat" 2>/dev/null)" = Z ]; }
for _ in $(seq 600); do
	ended && break
	sleep 0.1
done
ended || fail "racegate did not end within 60 s of the signal"
wait "$leader"
st=$?
leader=
echo "racegate exit $st"

# nothing of the session may stay: workers, programs, tracing stops
left=
for _ in $(seq 200); do
	left=$(session_left)
	[ -z "$left" ] && break
	sleep 0.1
done
[ -z "$left" ] || fail "processes left after racegate ended (pid state comm):
$left"
for p in $(cat "$dir/pids"); do
	[ -e "/proc/$p" ] && fail "program $p is still there: $(cat /proc/$p/stat)"
done
echo "no worker, no program left"

if [ "$how" = kill9 ]; then
	[ "$st" -eq 137 ] || fail "exit status $st after SIGKILL"
	exit 0
fi
signo=$(kill -l "$sig")
[ "$st" -eq $((128 + signo)) ] || fail "exit status $st, expected $((128 + signo)) (128 + SIG$sig)"
grep -qE "INTERRUPTED: racegate got SIG$sig" "$dir/out" || fail "no INTERRUPTED outcome line"
grep -qE "^ +\+[0-9.]+ ms +waiter +tid [0-9]+ +holder.c:[0-9]+ +hold +held: waiting for go" \
	"$dir/out" || fail "no timeline with the held waiter"
grep -qE "^racegate: interrupted by SIG$sig after" "$dir/out" ||
	fail "no line saying the session was interrupted"
[ -s "$dir/r.json" ] || fail "no report written"
python3 "$(dirname "$0")/../tools/check_json.py" "$(dirname "$0")/../../../docs/report.schema.json" \
	"$dir/r.json" || fail "the report does not follow its schema"
python3 - "$dir/r.json" "$fast" "$held" "$signo" <<'EOF' || fail "report"
import json, sys
r = json.load(open(sys.argv[1]))
fast, held, signo = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
outs = [x["outcome"] for x in r["runs"]]
print("report runs:", outs, "summary:", r["summary"])
assert outs.count("PASSED") == fast, "finished runs"
assert outs.count("INTERRUPTED") == held, "interrupted runs"
assert len(outs) == fast + held, "no other run"
assert r["summary"]["exit_status"] == 128 + signo
assert r["summary"]["stopped"].startswith("interrupted by SIG")
for x in r["runs"]:
    if x["outcome"] == "INTERRUPTED":
        kinds = [e["kind"] for e in x["events"]]
        assert "hold" in kinds, "interrupted run's timeline: %s" % kinds
EOF
t=$(dirname "$0")/..
xmllint --noout --schema "$t/../junit.xsd" "$dir/r.xml" || fail "JUnit report"
n=$(grep -c '<error [^>]*type="INTERRUPTED"' "$dir/r.xml")
[ "$n" -eq "$held" ] || fail "JUnit report: $n INTERRUPTED test cases, expected $held"
[ "$(grep -c '<testcase ' "$dir/r.xml")" -eq $((fast + held)) ] || fail "JUnit test cases"
python3 "$t/tools/check_trace.py" "$dir/t.json" --min-slices "$held" \
	--slice-name '^hold$' || fail "trace events"
echo "ok"
