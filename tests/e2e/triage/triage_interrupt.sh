#!/usr/bin/env bash
# triage_interrupt.sh RACEGATE DIR REPORT HOW SIGNAL: racegate triage
# interrupted while it holds a thread of the program.
#
# Triages spin_handoff (DIR) from its kept TSan REPORT, in a session of its
# own, with --time 60s and --search 0 (a search holds threads too): race 1
# (BENIGN) ends within a second, race 2's
# first order holds the producer at its line, waiting for a consumer that
# cannot come.  Once race 1's files are written and a thread of the
# program is in a tracing stop, sends SIGNAL:
#   HOW=leader  to racegate alone (kill PID)
#   HOW=group   to its process group, as ^C in a terminal does
#   HOW=search  to racegate alone, without --search 0, once race 1's search
#               (explore, within triage) holds a thread: race 1 is then
#               not triaged either, and its files go
# and checks: exit status 128+N; the table of race 1 and a line saying
# race 2 was not triaged; race 1's files and no file of race 2; a JSON
# report that says the same; no process of the session left (the program
# neither running nor in a tracing stop).
set -u
rg=$1 dir=$2 report=$3 how=$4 sig=$5
out=$(mktemp -d)
leader=
cleanup() {
	# never leave anything behind, whatever failed
	[ -n "$leader" ] && kill -9 -- -"$leader" 2>/dev/null
	rm -rf "$out"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "---- racegate's output ----"; cat "$out/out"; exit 1; }

# every process of session $sid still there, one "pid state comm" a line
session_left() {
	for st in /proc/[0-9]*/stat; do
		{ read -r line <"$st"; } 2>/dev/null || continue
		rest=${line##*) }
		set -- $rest
		[ "${4:-}" = "$sid" ] && echo "${st//[!0-9]/} $1 ${line#*(}"
	done
}

# is a thread of a spin_handoff of the session in a tracing stop?
held() {
	for p in $(session_left | awk '$3 == "spin_handoff)" {print $1}'); do
		cat /proc/"$p"/task/*/stat 2>/dev/null | grep -q ') t ' && return 0
	done
	return 1
}

# setsid: racegate's own session and process group, which also keeps the
# signal sent to the group away from this script; env: a background job of
# a script starts with SIGINT ignored, which racegate keeps as it found it
cd "$dir" || exit 2
search=0 first=race-1-order-2.yaml
[ "$how" = search ] && search=100 first=
setsid env --default-signal=INT,HUP,TERM "$rg" triage --tsan "$report" -o "$out/files" \
	--report "$out/triage.json" --time 60s --search $search -- ./spin_handoff >"$out/out" 2>&1 &
leader=$!
sid=$leader
for _ in $(seq 600); do
	if [ -n "$first" ]; then
		[ -e "$out/files/$first" ] && held && break
	else
		grep -q "^race 1: a search between" "$out/out" && held && break
	fi
	kill -0 "$leader" 2>/dev/null || fail "racegate ended before race 2 held a thread"
	sleep 0.1
done
held || fail "race 2 held no thread within 60 s"
echo "racegate $leader holds a thread of race 2"

case $how in
leader|search) kill -"$sig" "$leader" ;;
group) kill -"$sig" -- -"$leader" ;;
*) fail "unknown HOW '$how'" ;;
esac
ended() { [ ! -e "/proc/$leader" ] || [ "$(sed 's/.*) \(.\).*/\1/' "/proc/$leader/stat" 2>/dev/null)" = Z ]; }
for _ in $(seq 600); do
	ended && break
	sleep 0.1
done
ended || fail "racegate did not end within 60 s of the signal"
wait "$leader"
st=$?
echo "racegate exit $st"

left=
for _ in $(seq 200); do
	left=$(session_left)
	[ -z "$left" ] && break
	sleep 0.1
done
[ -z "$left" ] || fail "processes left after racegate ended (pid state comm):
$left"
leader=
echo "no program left"

signo=$(kill -l "$sig")
[ "$st" -eq $((128 + signo)) ] || fail "exit status $st, expected $((128 + signo)) (128 + SIG$sig)"
if [ "$how" = search ]; then
	grep -qE "^racegate: interrupted by SIG$sig in race 1 of 2: it and the races after it were not triaged$" "$out/out" ||
		fail "no line saying races 1 and 2 were not triaged"
	grep -q "^1 " "$out/out" && fail "race 1 in the table"
	[ -n "$(ls "$out/files")" ] && fail "files left: $(ls "$out/files")"
	echo "ok"
	exit 0
fi
grep -qE "^1 +spin_handoff.c:31 \(producer\) +spin_handoff.c:39 \(consumer\) +BENIGN " "$out/out" ||
	fail "no table of race 1"
grep -qE "^racegate: interrupted by SIG$sig in race 2 of 2: it was not triaged$" "$out/out" ||
	fail "no line saying race 2 was not triaged"
grep -q "^2 " "$out/out" && fail "race 2 in the table"
ls "$out/files"
[ -e "$out/files/race-1-order-1.yaml" ] || fail "race 1's files are gone"
ls "$out/files" | grep -q '^race-2' && fail "a file of race 2 was left"
python3 - "$out/triage.json" "$signo" <<'EOF' || fail "JSON report"
import json, sys
r = json.load(open(sys.argv[1]))
print("report: status", r["status"], "races", [x["verdict"] for x in r["races"]],
      "not_triaged", r["not_triaged"], "interrupted", r["interrupted"])
assert r["status"] == 128 + int(sys.argv[2])
assert [x["verdict"] for x in r["races"]] == ["BENIGN"]
assert r["not_triaged"] == [2]
EOF
echo "ok"
