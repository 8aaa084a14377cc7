#!/usr/bin/env bash
# attach_hostile.sh RACEGATE PROGRAM SPECS TOOLS MODE: racegate attach on
# attach_spin.c, whose four spinners never stop arriving at a gate
# and whose gated instructions run from their second byte die of SIGILL.
# After racegate the process must go on untraced, spinning, with the very
# bytes of its files (tools/text_check.py), or, where racegate(1) says so,
# die of SIGTRAP; never of SIGILL or SIGSEGV.  MODE:
#   signal1   SIGTERM while spin-1 is held and the others trap: INTERRUPTED,
#             143, the process let go clean
#   signal2   SIGTERM twice, the second as soon as racegate has taken the
#             first (a few microseconds: while it lets the process go): it
#             must not end racegate before the process is let go; 143
#   signal3   SIGINT, SIGTERM, SIGHUP back to back: racegate ends by the
#             one it took first once the process is let go (129, 130 or
#             143), and says it got each of the others
#   pipe      racegate's output into a pipe whose reader has gone (`racegate
#             attach ... 2>&1 | head -1`), then SIGTERM twice: saying so
#             must not end racegate (SIGPIPE) before the process is let go
#   handler   spin-3 naps in a signal handler (SIGUSR1, taken between its
#             trap at SPIN and the instruction racegate runs for it out of
#             line) when racegate lets the process go (SIGTERM): the handler
#             must return to the program's code, not into racegate's page
#   timeout   `timeout 6 racegate attach` (GNU timeout sends SIGTERM to
#             racegate, then to its process group: twice)
#   kill9     racegate killed with SIGKILL while spin-1 is held at the one
#             gate: the int3 stays, and spin-1 runs on from its registers:
#             at the int3, so the process dies of SIGTRAP, never of the
#             SIGILL of an instruction run from its middle
#   kill9_dead  racegate killed with SIGKILL once a gate can no longer act,
#             though no thread has come to its line since (its int3 must be
#             out already): the next thread there runs on, the process lives
#   rtsig_one eight attaches (--for 0.3s) while another process sends
#             ~20,000 SIGRTMIN a second, sigqueue'd and numbered, to the
#             main thread alone: every one delivered once, in order
#   rtsig_any the same, every thread taking them: every one delivered once
set -u
rg=$1 prog=$2 specs=$3 tools=$4 mode=$5
dir=$(mktemp -d)
# the program's status file on tmpfs: its reporter thread must never sit
# in a disk write (uninterruptible) when racegate stops every thread
shm=$(mktemp -d /dev/shm/attach_hostile.XXXXXX 2>/dev/null || mktemp -d)
pid= rgpid= sender=
cleanup() {
	[ -n "$rgpid" ] && kill -9 "$rgpid" 2>/dev/null
	[ -n "$sender" ] && kill -9 "$sender" 2>/dev/null
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	rm -rf "$dir" "$shm"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "---- racegate ----"; cat "$dir/out" 2>/dev/null; exit 1; }
has() { grep -qE -- "$1" "$dir/out" || fail "no line matching '$1'"; }
# a number of the program's status line: got, bad or spins
field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' "$shm/status"; }

start() {
	"$prog" "$shm/status" "$@" &
	pid=$!
	for _ in $(seq 300); do
		[ -s "$shm/status" ] && [ "$(field spins)" -gt 0 ] &&
			grep -q spin-4 /proc/$pid/task/*/comm 2>/dev/null && break
		sleep 0.1
	done
	grep -q spin-4 /proc/$pid/task/*/comm 2>/dev/null || fail "the program did not start"
}

# racegate attach ARGS in the background, until its gates are armed; env:
# a background job of a script starts with SIGINT ignored, which racegate
# keeps as it found it
attach() {
	env --default-signal=INT,HUP,TERM "$@" >"$dir/out" 2>&1 &
	rgpid=$!
	for _ in $(seq 600); do
		grep -q "gates armed" "$dir/out" && return 0
		kill -0 "$rgpid" 2>/dev/null || fail "racegate ended before arming"
		sleep 0.1
	done
	fail "racegate did not arm within 60 s"
}

# spin-1 is in a tracing stop, held, for a while
held() {
	local t n=0
	for t in /proc/$pid/task/*; do
		[ "$(cat "$t/comm")" = spin-1 ] && t=${t##*/} && break
	done
	for _ in $(seq 600); do
		if [ "$(sed 's/.*) \(.\).*/\1/' /proc/$pid/task/$t/stat)" = t ]; then
			n=$((n + 1))
			[ $n -ge 3 ] && return 0
		else
			n=0
		fi
		sleep 0.1
	done
	fail "spin-1 was not held"
}

# racegate must end, in bounded time, with status $1 (any: in $st)
finish() {
	for _ in $(seq 600); do
		kill -0 "$rgpid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$rgpid" 2>/dev/null && fail "racegate did not end within 60 s"
	wait "$rgpid"
	st=$?
	rgpid=
	cat "$dir/out"
	[ "$1" = any ] || [ "$st" = "$1" ] || fail "racegate exit status $st, expected $1"
}

# the process as it was: alive, untraced, its code its files', spinning
unharmed() {
	local tracer before
	kill -0 "$pid" 2>/dev/null || { wait "$pid"; fail "the process died (status $?)"; }
	tracer=$(sed -n 's/^TracerPid:[[:space:]]*//p' /proc/$pid/status)
	[ "$tracer" = 0 ] || fail "the process is still traced (by $tracer)"
	python3 "$tools/text_check.py" "$pid" || fail "the process's code is not its files'"
	before=$(field spins)
	sleep 0.5
	[ "$(field spins)" -gt "$before" ] || fail "the spinners stopped (spins $before)"
	kill -0 "$pid" 2>/dev/null || { wait "$pid"; fail "the process died (status $?)"; }
}

# Is signal $1 pending for racegate (sent, its handler not run yet)?
pending() {
	local k v
	while read -r k v; do
		[ "$k" = ShdPnd: ] && [ $(((0x$v >> ($1 - 1)) & 1)) = 1 ] && return 0
	done <"/proc/$rgpid/status" 2>/dev/null
	return 1
}

# SIGNAL... to racegate, each as soon as racegate has taken the one before
# (two of one kind pending at once would be one).  A signal sent once
# racegate had let the process go (a loaded machine lets the shell fall
# behind) finds nothing left to finish: it goes into $late, and nothing
# is said of it.
late=
signals() {
	local n i
	for s in "$@"; do
		case $s in HUP) n=1 ;; INT) n=2 ;; TERM) n=15 ;; esac
		grep -q "^racegate: detached from process" "$dir/out" && late+=" SIG$s"
		kill -"$s" "$rgpid" 2>/dev/null || return 0
		for ((i = 0; i < 100000; i++)); do pending $n || break; done
	done
}

case $mode in
signal1|signal2|signal3)
	# 100 idle threads besides: letting them all go takes a while
	start one 100
	attach "$rg" attach --verbose "$pid" "$specs/attach_spin_hold.yaml"
	held
	case $mode in
	signal1) signals TERM ;;
	signal2) signals TERM TERM ;;
	# three kinds, back to back: none merges with another, and the
	# two after the first come while the let-go runs, however loaded
	# the machine (waiting for each to be taken could let it finish)
	signal3) kill -INT "$rgpid"; kill -TERM "$rgpid"; kill -HUP "$rgpid" ;;
	esac
	finish any
	unharmed
	has "held +held: waiting for go"
	first=$(sed -n 's/.*INTERRUPTED: racegate got \(SIG[A-Z]*\): it let process .* go on.*/\1/p' "$dir/out")
	case $first in
	SIGHUP) want=129 ;;
	SIGINT) want=130 ;;
	SIGTERM) want=143 ;;
	*) fail "no INTERRUPTED line naming the signal" ;;
	esac
	[ "$st" = $want ] || fail "racegate exit status $st, not $want ($first)"
	has "INTERRUPTED: racegate got $first: it let process $pid go on"
	if [ $mode = signal3 ]; then
		for s in SIGHUP SIGINT SIGTERM; do
			[ $s = "$first" ] || [[ "$late" == *" $s"* ]] ||
				has "^racegate: got $s: letting process $pid go first \\(racegate's breakpoints must not stay in it\\)$"
		done
	fi
	;;
pipe)
	start one 100
	mkfifo "$dir/fifo"
	# the reader keeps the lines up to the armed one and goes: a closed pipe
	sed -n '/gates armed/{p;q}' <"$dir/fifo" >"$dir/out" &
	reader=$!
	env --default-signal=INT,HUP,TERM "$rg" attach --verbose "$pid" \
		"$specs/attach_spin_hold.yaml" >"$dir/fifo" 2>&1 &
	rgpid=$!
	wait $reader
	grep -q "gates armed" "$dir/out" || fail "racegate did not say it armed"
	held
	signals TERM TERM
	finish any
	unharmed
	;;
handler)
	start
	attach "$rg" attach --verbose "$pid" "$specs/attach_spin_hold.yaml"
	held
	kill -USR1 "$pid"
	sleep 0.1
	signals TERM
	finish 143
	# the nap ends: spin-3 returns from its handler
	for _ in $(seq 100); do [ "$(field naps)" -ge 1 ] && break; sleep 0.1; done
	[ "$(field naps)" -ge 1 ] || { kill -0 "$pid" 2>/dev/null || { wait "$pid"; fail "the process died (status $?)"; }; fail "spin-3 did not end its nap"; }
	unharmed
	;;
timeout)
	start one 100
	attach timeout 6 "$rg" attach --verbose "$pid" "$specs/attach_spin_hold.yaml"
	finish 124
	unharmed
	has "INTERRUPTED: racegate got SIGTERM: it let process $pid go on"
	;;
kill9)
	start
	attach "$rg" attach --verbose "$pid" "$specs/attach_spin_lone.yaml"
	held
	kill -9 "$rgpid"
	wait "$rgpid" 2>/dev/null
	rgpid=
	for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$pid" 2>/dev/null; then
		# still alive: then nothing of racegate's may be left in it
		unharmed
	else
		wait "$pid"
		st=$?
		pid=
		[ "$st" = $((128 + 5)) ] ||
			fail "the process died with status $st, not of SIGTRAP (133): a thread ran on from the middle of an instruction"
		echo "the process died of SIGTRAP, as racegate(1) says"
	fi
	;;
kill9_dead)
	start one
	attach "$rg" attach --verbose "$pid" "$specs/attach_spin_dead.yaml"
	kill -s RTMIN "$pid"
	for _ in $(seq 600); do [ "$(field got)" -ge 1 ] && break; sleep 0.1; done
	[ "$(field got)" -ge 1 ] || fail "main did not take the signal"
	# main got past its gate: caught can no longer act
	sleep 0.5
	kill -9 "$rgpid"
	wait "$rgpid" 2>/dev/null
	rgpid=
	for _ in $(seq 100); do
		[ "$(sed -n 's/^TracerPid:[[:space:]]*//p' /proc/$pid/status)" = 0 ] && break
		sleep 0.1
	done
	kill -s RTMIN "$pid"
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		[ "$(field got)" -ge 2 ] && break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null || { wait "$pid"; fail "the process died (status $?) at the line of a gate that could no longer act"; }
	[ "$(field got)" -ge 2 ] || fail "main did not take the second signal"
	echo "the second signal went through the dead gate's line"
	;;
rtsig_one|rtsig_any)
	start "${mode#rtsig_}"
	"$prog" send "$pid" 1000 >"$dir/sent" &
	sender=$!
	sleep 0.3
	for i in 1 2 3 4 5 6 7 8; do
		"$rg" attach --for 0.3s "$pid" "$specs/attach_spin_hold.yaml" >"$dir/out" 2>&1
		st=$?
		[ $st = 3 ] || fail "attach $i exited $st, not 3 (NOT-ENFORCED at --for)"
	done
	cat "$dir/out"
	kill -TERM "$sender"
	wait "$sender"
	sender=
	sent=$(sed -n 's/^sent //p' "$dir/sent")
	[ -n "$sent" ] && [ "$sent" -gt 0 ] || fail "the sender sent nothing"
	# the queue drains: until every signal came, or none for 3 s
	prev=-1 still=0
	while [ "$(field got)" -lt "$sent" ] && [ $still -lt 30 ]; do
		[ "$(field got)" = "$prev" ] && still=$((still + 1)) || still=0
		prev=$(field got)
		sleep 0.1
	done
	got=$(field got) bad=$(field bad)
	echo "sent $sent, delivered $got, out of order or repeated $bad"
	[ "$got" = "$sent" ] || fail "$((sent - got)) of $sent signals were lost"
	[ "$bad" = 0 ] || fail "$bad signals came out of order, twice, or without their value"
	unharmed
	;;
*)
	fail "unknown mode $mode"
	;;
esac
echo "ok: $mode"
