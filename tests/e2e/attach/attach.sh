#!/usr/bin/env bash
# attach.sh RACEGATE SERVER SPECS TOOLS MODE: racegate attach on a server
# started plainly (attach_server.c), which must go on exactly as it
# was once racegate has let it go: untraced, serving 1,000 more requests
# correctly, and running the very bytes of its files (tools/text_check.py:
# no int3 left, no scratch page).  MODE:
#   reproduce  the lost add, workers selected by {name:}: ENFORCED, total 1,
#              and so says the JSON report (docs/report.schema.json)
#   tid        the same with {tid:} selectors of the workers' thread ids
#   for        --for ends the attach before any gate acted: NOT-ENFORCED, 3
#   interrupt  SIGINT while worker-1 is held: INTERRUPTED, 130, the held
#              request answered
#   exits      the process exits (3) while worker-1 is held: judged by
#              expect: exit: 3
#   fork       the process forks while attached: the child, running gated
#              code, exits 0; SIGTERM then: 143
#   exec       the process runs exec (a server's upgrade in place): racegate
#              lets it go at once, NOT-ENFORCED, and the new image is clean
#   forkproc   a spec with a gate for a child process: attach follows no
#              fork, says so at the start, and the child forked while
#              attached runs untraced and clean; --for ends it: NOT-ENFORCED
#   eperm      a second racegate attach is refused, naming the first
#   zombie     attaching to a zombie is refused, saying so
#   otheruser  racegate run as another user (nobody, through setpriv: needs
#              root; skipped, status 77, without) is refused, saying why
#   kill9      racegate killed outright while attached leaves its int3s:
#              a later attach refuses, naming one
#   stopped    the server is stopped (SIGSTOP) when racegate attaches and
#              when it is interrupted: it is left stopped, clean, and serves
#              once continued
#   dlopen     a library the server opens after the attach gets its gate
#              (in:), and is left clean too
#   churn      SERVER is churn.c instead, which creates and ends threads
#              all the time: seized as they come and go, the threads born
#              after the attach known by their start, and churn goes on clean
# RG_ATTACH_OPTS (the environment): options for every attach (--no-fastpath).
set -u
rg=$1 server=$2 specs=$3 tools=$4 mode=$5
dir=$(mktemp -d)
srv= rgpid= bg=
cleanup() {
	[ -n "$rgpid" ] && kill -9 "$rgpid" 2>/dev/null
	[ -n "$srv" ] && kill -9 "$srv" 2>/dev/null
	[ -n "$bg" ] && kill -9 "$bg" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "---- racegate ----"; cat "$dir/out" 2>/dev/null; exit 1; }
client() { timeout 120 python3 "$tools/attach_client.py" "$dir/sock" "$@"; }
has() { grep -qE -- "$1" "$dir/out" || fail "no line matching '$1'"; }

start_server() {
	"$server" "$dir/sock" >"$dir/server.out" 2>&1 &
	srv=$!
	for _ in $(seq 300); do
		[ -S "$dir/sock" ] && [ "$(ls /proc/$srv/task | wc -l)" -ge 4 ] && break
		sleep 0.1
	done
	[ -S "$dir/sock" ] || fail "the server did not start"
	# the workers name themselves as they start
	for _ in $(seq 100); do
		grep -q worker-2 /proc/$srv/task/*/comm 2>/dev/null && break
		sleep 0.1
	done
	echo "server $srv: threads $(cat /proc/$srv/task/*/comm | tr '\n' ' ')"
}

tid_of() {
	for t in /proc/$srv/task/*; do
		[ "$(cat "$t/comm")" = "$1" ] && echo "${t##*/}"
	done
}

# racegate attach ARGS in the background, until its gates are armed; env:
# a background job of a script starts with SIGINT ignored, which racegate
# keeps as it found it
attach() {
	env --default-signal=INT,HUP,TERM "$rg" attach --verbose ${RG_ATTACH_OPTS:-} "$@" \
		>"$dir/out" 2>&1 &
	rgpid=$!
	for _ in $(seq 600); do
		grep -q "gates armed" "$dir/out" && return 0
		if ! kill -0 "$rgpid" 2>/dev/null; then
			# it may have armed and ended since the look above (--for)
			grep -q "gates armed" "$dir/out" && return 0
			fail "racegate ended before arming"
		fi
		sleep 0.1
	done
	fail "racegate did not arm within 60 s"
}

# waits for racegate, which must exit with status $1
finish() {
	local st
	wait "$rgpid"
	st=$?
	rgpid=
	cat "$dir/out"
	[ "$st" = "$1" ] || fail "racegate exit status $st, expected $1"
}

# the server as it was: untraced, serving, its code its files'
unharmed() {
	local tracer before after
	tracer=$(sed -n 's/^TracerPid:[[:space:]]*//p' /proc/$srv/status)
	[ "$tracer" = 0 ] || fail "the server is still traced (by $tracer)"
	before=$(client send get) || fail "the server does not answer"
	client many 1000 >"$dir/many" || fail "the server stopped serving"
	cat "$dir/many"
	after=$(sed -n 's/^total //p' "$dir/many")
	grep -q "^bad replies 0$" "$dir/many" || fail "wrong replies"
	[ "$after" = $((before + 1000)) ] || fail "total $after after $before + 1000 adds"
	python3 "$tools/text_check.py" "$srv" || fail "the server's code is not its files'"
	client send quit >/dev/null 2>&1
	wait "$srv"
	srv=
}

# worker-1 is in a tracing stop, held, for a while
held() {
	local t n=0
	t=$(tid_of worker-1)
	for _ in $(seq 600); do
		if [ "$(sed 's/.*) \(.\).*/\1/' /proc/$srv/task/$t/stat)" = t ]; then
			n=$((n + 1))
			[ $n -ge 5 ] && return 0
		else
			n=0
		fi
		sleep 0.1
	done
	fail "worker-1 was not held"
}

if [ "$mode" = churn ]; then
	"$server" "$dir/count" &
	srv=$!
	sleep 0.5
	attach "$srv" "$specs/attach_churn.yaml"
	finish 0
	has "ENFORCED: every gate acted; racegate let process $srv go on"
	has "churner#[0-9]+ .* third +opened third-done"
	has "churner#[0-9]+ .* fifth +passed"
	tracer=$(sed -n 's/^TracerPid:[[:space:]]*//p' /proc/$srv/status)
	[ "$tracer" = 0 ] || fail "churn is still traced (by $tracer)"
	rm -f "$dir/count"
	for _ in $(seq 600); do [ -s "$dir/count" ] && break; sleep 0.1; done
	[ -s "$dir/count" ] || fail "churn stopped churning"
	python3 "$tools/text_check.py" "$srv" || fail "churn's code is not its files'"
	echo "ok: $mode"
	exit 0
fi
start_server
case $mode in
reproduce|tid)
	spec=$specs/attach_race.yaml
	if [ "$mode" = tid ]; then
		spec=$dir/attach_race_tid.yaml
		sed -e "s/@TID1@/$(tid_of worker-1)/" -e "s/@TID2@/$(tid_of worker-2)/" \
			"$specs/attach_race_tid.yaml" >"$spec"
	fi
	attach --report "$dir/r.json" "$srv" "$spec"
	client race >"$dir/race" || fail "the racing requests failed"
	finish 0
	python3 "$tools/check_json.py" "$tools/../../../docs/report.schema.json" \
		"$dir/r.json" --runs 1 --outcome ENFORCED || fail "the JSON report"
	cat "$dir/race"
	has "ENFORCED: every gate acted; racegate let process $srv go on"
	has "w1 .*w1-loaded +held: waiting for w2-stored"
	has "w2 .*w2-stores +opened w2-stored"
	has "w1 .*w1-loaded +released after"
	grep -q "^total 1$" "$dir/race" || fail "the race did not show: $(cat "$dir/race")"
	# the gates' lines had jump pads (unless RG_ATTACH_OPTS says
	# --no-fastpath; the STORE line's jump over short instructions has
	# no free page in some runs, the LOAD line's pad is a plain one);
	# unharmed: no page of racegate's is left (the server's own map
	# changes as it serves: pads_text.sh compares maps)
	case " ${RG_ATTACH_OPTS:-} " in
	*" --no-fastpath "*) has "gate 'w2-loads' at .*: no pad: --no-fastpath" ;;
	*) has "gate 'w2-loads' at .*: pad$" ;;
	esac
	unharmed
	;;
for)
	attach --for 1s "$srv" "$specs/attach_race.yaml"
	finish 3
	has "NOT-ENFORCED: the order did not take hold: 'w1-loaded' .* was never reached.* before --for ran out; racegate let process $srv go on"
	unharmed
	;;
interrupt)
	attach "$srv" "$specs/attach_hold.yaml"
	client send add >"$dir/held_reply" &
	bg=$!
	held
	kill -INT "$rgpid"
	finish 130
	has "INTERRUPTED: racegate got SIGINT: it let process $srv go on"
	has "tid [0-9]+ .* held +held: waiting for go"
	wait "$bg" || fail "the held request failed"
	bg=
	[ "$(cat "$dir/held_reply")" = ok ] || fail "the held request was answered '$(cat "$dir/held_reply")'"
	unharmed
	;;
exits)
	attach "$srv" "$specs/attach_hold.yaml"
	client send add >/dev/null 2>&1 &
	bg=$!
	held
	client send exit3 >/dev/null 2>&1
	wait "$srv"
	st=$?
	srv=
	[ "$st" = 3 ] || fail "the server's exit status is $st, not 3"
	finish 0
	has "REPRODUCED: .*exit 3.*the process ended while racegate was attached"
	;;
fork)
	attach "$srv" "$specs/attach_fork.yaml"
	[ "$(client send fork)" = "child status 0" ] || fail "the forked child did not exit 0"
	kill -TERM "$rgpid"
	finish 143
	has "INTERRUPTED: racegate got SIGTERM: it let process $srv go on"
	unharmed
	;;
exec)
	attach "$srv" "$specs/attach_race.yaml"
	[ "$(client send exec)" = ok ] || fail "the exec request was not answered"
	finish 3
	has "NOT-ENFORCED: the order did not take hold: 'w1-loaded' .* was never reached before process $srv ran exec \\('.*attach_server'\\), which took the gated code away; racegate let it go on"
	for _ in $(seq 100); do
		client send get >/dev/null 2>&1 && break
		sleep 0.1
	done
	unharmed
	;;
forkproc)
	attach --for 4s "$srv" "$specs/attach_fork_process.yaml"
	[ "$(client send fork)" = "child status 0" ] || fail "the forked child did not exit 0"
	finish 3
	has "^racegate: warning: '.*attach_fork_process.yaml' names processes, but attach follows no fork: only gates of process $srv can act$"
	has "NOT-ENFORCED: the order did not take hold: 'child-load' .* was never reached"
	unharmed
	;;
eperm)
	attach "$srv" "$specs/attach_race.yaml"
	first=$rgpid
	"$rg" attach "$srv" "$specs/attach_race.yaml" >"$dir/second" 2>&1
	st=$?
	cat "$dir/second"
	[ "$st" = 2 ] || fail "the second attach exited $st, not 2"
	grep -q "cannot attach to process $srv (attach_server): it is already traced by process $first (racegate); only one tracer at a time" "$dir/second" ||
		fail "the refusal does not name the first racegate"
	kill -TERM "$rgpid"
	finish 143
	unharmed
	;;
zombie)
	( sleep 0.1 & echo $! >"$dir/zpid"; exec sleep 30 ) &
	parent=$!
	sleep 1
	z=$(cat "$dir/zpid")
	"$rg" attach "$z" "$specs/attach_race.yaml" >"$dir/out" 2>&1
	st=$?
	kill "$parent"
	cat "$dir/out"
	[ "$st" = 2 ] || fail "exit status $st, not 2"
	has "^racegate: cannot attach to process $z: it is a zombie"
	client send quit >/dev/null 2>&1
	;;
stopped)
	kill -STOP "$srv"
	attach "$srv" "$specs/attach_hold.yaml"
	kill -INT "$rgpid"
	finish 130
	has "INTERRUPTED: racegate got SIGINT: it let process $srv go on"
	for t in /proc/$srv/task/*; do
		st=$(sed 's/.*) \(.\).*/\1/' "$t/stat")
		[ "$st" = T ] || fail "thread ${t##*/} is in state $st, not stopped"
	done
	python3 "$tools/text_check.py" "$srv" || fail "the server's code is not its files'"
	kill -CONT "$srv"
	unharmed
	;;
dlopen)
	attach "$srv" "$specs/attach_dlopen.yaml"
	[ "$(client send plugin)" = "plugin 1" ] || fail "the plugin did not answer 1"
	finish 0
	has "ENFORCED: every gate acted; racegate let process $srv go on"
	has "tid [0-9]+ +plugin.c:7 +plugin-write +passed"
	grep -q libe2e_plugin.so /proc/$srv/maps || fail "the plugin is not mapped"
	unharmed
	;;
otheruser)
	if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
		echo "skipped: needs root and setpriv"
		exit 77
	fi
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$rg" attach "$srv" "$specs/attach_race.yaml" >"$dir/out" 2>&1
	st=$?
	cat "$dir/out"
	[ "$st" = 2 ] || fail "exit status $st, not 2"
	has "^racegate: cannot attach to process $srv \(attach_server\): it belongs to user 0 and racegate runs as user 65534; run racegate as that user, or with CAP_SYS_PTRACE$"
	unharmed
	;;
kill9)
	attach "$srv" "$specs/attach_hold.yaml"
	kill -9 "$rgpid"
	wait "$rgpid" 2>/dev/null
	rgpid=
	for _ in $(seq 100); do
		[ "$(sed -n 's/^TracerPid:[[:space:]]*//p' /proc/$srv/status)" = 0 ] && break
		sleep 0.1
	done
	"$rg" attach "$srv" "$specs/attach_race.yaml" >"$dir/out" 2>&1
	st=$?
	cat "$dir/out"
	[ "$st" = 2 ] || fail "the attach to a process with racegate's int3s exited $st, not 2"
	has "process $srv has racegate's code \\(a breakpoint instruction, or a jump to a pad\\) at 0x[0-9a-f]+ in '.*attach_server' that the file does not have: a racegate or debugger killed while attached left it"
	[ "$(sed -n 's/^TracerPid:[[:space:]]*//p' /proc/$srv/status)" = 0 ] ||
		fail "the refused attach left the process traced"
	;;
*)
	fail "unknown mode $mode"
	;;
esac
echo "ok: $mode"
