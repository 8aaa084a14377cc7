#!/usr/bin/env bash
# pads_text.sh RACEGATE PADS_TEXT SPECS MODE [OPTION]: the program's text
# is its file's once racegate has let it go (issue 15), checked by the
# program itself (pads_text.c: /proc/self/maps, /proc/self/mem and
# the files' bytes).  OPTION (--no-fastpath) goes to racegate.  MODE:
#   fork     racegate run: a child forked while the site is armed, not
#            followed, and a child that execs, each pass the site and find
#            their text intact
#   storm    racegate run: 30 children forked one after another while two
#            threads pass the site; each child passes it, finds its text
#            intact, exits 0
#   outlive  racegate run: main leaves a clone(CLONE_VM) child behind and
#            exits; once racegate has let it go, the child finds the memory
#            it kept intact and passes the site
#   attach   racegate attach --for 1s while two workers pass the site as
#            fast as they can: after it, the memory map is the one before
#            the attach (/proc/PID/maps), the text is intact and the
#            workers make 200,000 more passes
#   keep     racegate run --keep-stopped, a worker held at the site when
#            the run times out: the program is left stopped and detached;
#            continued, its text is intact and it goes on
#   kill9    racegate attach killed with SIGKILL (no detach): its
#            breakpoint stays in the program's text ("text differs at" the
#            site: memory cc), and the next pass over the site kills the
#            program with SIGTRAP; or, with pads, its jump does (memory
#            e9), and the workers, let pass for ever, run on through the
#            pad (racegate(1), BUGS)
#   runkill9 racegate run killed with SIGKILL: the program dies with it
#            (SIGKILL, PTRACE_O_EXITKILL) and sees nothing
set -u
rg=$1 prog=$2 specs=$3 mode=$4
shift 4
dir=$(mktemp -d)
pid= rgpid=
cleanup() {
	[ -n "$rgpid" ] && kill -9 "$rgpid" 2>/dev/null
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*"
	echo "---- racegate ----"; cat "$dir/rg" 2>/dev/null
	echo "---- program ----"; cat "$dir/prog" 2>/dev/null
	exit 1
}
# waits (60 s at most) for a line matching $2 in file $1
await() {
	for _ in $(seq 600); do
		grep -qE -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "no line matching '$2' in $1 within 60 s"
}
site_offset() {
	"$rg" check "$specs/pads_text_serve.yaml" -- "$prog" 2>/dev/null |
		awk '$1 ~ /^0x/ {print $1; exit}'
}
# sends a signal to the program and waits for its answer
ask() {
	kill -"$1" "$pid" || fail "the program is gone"
	[ -n "${2:-}" ] && await "$dir/prog" "$2"
	return 0
}
serve() {
	"$prog" serve >"$dir/prog" 2>&1 &
	pid=$!
	await "$dir/prog" "^serving"
}
finish_prog() {
	local st
	wait "$pid"
	st=$?
	pid=
	echo "program exit status $st"
	cat "$dir/prog"
	[ "$st" = "$1" ] || fail "the program's exit status is $st, not $1"
}

case $mode in
fork)
	(cd "$specs" && timeout -k 5 240 "$rg" run --verbose "$@" pads_text_fork.yaml -- "$prog" fork) >"$dir/rg" 2>&1 ||
		fail "racegate run failed"
	cat "$dir/rg"
	grep -q "^fork child: text intact" "$dir/rg" || fail "the forked child's text is not intact"
	grep -q "^exec child: text intact" "$dir/rg" || fail "the exec'd child's text is not intact"
	grep -q "^fork child: exit 0" "$dir/rg" || fail "the forked child did not exit 0"
	grep -q "^exec child: exit 0" "$dir/rg" || fail "the exec'd child did not exit 0"
	grep -q "PASSED" "$dir/rg" || fail "the run did not pass"
	;;
storm)
	(cd "$specs" && timeout -k 5 240 "$rg" run --verbose "$@" pads_text_storm.yaml -- "$prog" storm) >"$dir/rg" 2>&1 ||
		fail "racegate run failed"
	cat "$dir/rg"
	[ "$(grep -c "^storm child: text intact" "$dir/rg")" = 30 ] || fail "not every forked child found its text intact"
	grep -q "^storm children ok 30 of 30$" "$dir/rg" || fail "not every forked child exited 0"
	grep -q "PASSED" "$dir/rg" || fail "the run did not pass"
	;;
outlive)
	(cd "$specs" && timeout -k 5 240 "$rg" run --verbose "$@" pads_text_outlive.yaml -- \
		"$prog" outlive "$dir/child") >"$dir/rg" 2>&1 || fail "racegate run failed"
	cat "$dir/rg"
	await "$dir/child" "still traced"
	cat "$dir/child"
	grep -q "^outliving child: text intact" "$dir/child" || fail "the memory the child kept is not the file's"
	grep -q "^outliving child: passes 20000, still traced 0$" "$dir/child" || fail "the child did not pass the site untraced"
	;;
attach)
	serve
	cat /proc/$pid/maps >"$dir/maps.before"
	timeout -k 5 120 "$rg" attach --verbose "$@" --for 1s "$pid" "$specs/pads_text_serve.yaml" >"$dir/rg" 2>&1
	st=$?
	cat "$dir/rg"
	# the memory map after the let-go is the one before the attach
	diff "$dir/maps.before" /proc/$pid/maps ||
		fail "the memory map differs from the one before the attach"
	# 'unreached' is never reached: --for ends the attach
	[ "$st" = 3 ] || fail "racegate attach exited $st, not 3 (NOT-ENFORCED)"
	# the workers' passes during the second count, pads' too (read at
	# the let-go): tens of thousands in the second, not the ones up to
	# the arrival at the 1,000th
	hits=$(sed -n 's/^racegate: \([0-9]*\) breakpoint hits at gates.*/\1/p' "$dir/rg")
	[ "${hits:-0}" -ge 5000 ] || fail "only ${hits:-0} hits counted while attached"
	grep -qE "reached +opened reached" "$dir/rg" || fail "the site was not reached while attached"
	tracer=$(sed -n 's/^TracerPid:[[:space:]]*//p' /proc/$pid/status)
	[ "$tracer" = 0 ] || fail "the program is still traced (by $tracer)"
	ask USR1 "^paused"
	ask USR2
	finish_prog 0
	grep -q "^serve: text intact" "$dir/prog" || fail "the text is not the file's"
	grep -q "^passes after the check 200000$" "$dir/prog" || fail "the workers did not go on"
	;;
keep)
	(cd "$specs" && timeout --foreground -k 5 60 "$rg" run --verbose --keep-stopped "$@" \
		pads_text_keep.yaml -- "$prog" serve) >"$dir/rg" 2>&1
	st=$?
	cat "$dir/rg"
	[ "$st" = 3 ] || fail "racegate exited $st, not 3 (TIMEOUT)"
	pid=$(sed -n 's/.*gdb -p \([0-9]*\).*/\1/p' "$dir/rg" | head -1)
	[ -n "$pid" ] || fail "no 'gdb -p PID' in racegate's output"
	tracer=$(sed -n 's/^TracerPid:[[:space:]]*//p' /proc/$pid/status)
	[ "$tracer" = 0 ] || fail "the program is still traced (by $tracer)"
	# its output went to racegate, which is gone: the same comparison
	# runs from outside (tools/text_check.py), by pid
	kill -CONT "$pid"
	sleep 0.5
	kill -0 "$pid" 2>/dev/null || fail "the program died once continued"
	grep -q "^State:.*[RS]" /proc/$pid/status || fail "the program is not running once continued"
	python3 "$(dirname "$0")/../tools/text_check.py" "$pid" >"$dir/prog" 2>&1
	tc=$?
	cat "$dir/prog"
	kill -TERM "$pid"
	for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$pid" 2>/dev/null && fail "the program did not end on SIGTERM"
	pid=
	grep -q "bytes differ" "$dir/prog" && fail "the text is not the file's"
	[ "$tc" = 0 ] || echo "note: text_check.py also found memory no file backs (see above)"
	;;
kill9)
	serve
	env --default-signal=INT,HUP,TERM "$rg" attach --verbose "$@" "$pid" "$specs/pads_text_serve.yaml" >"$dir/rg" 2>&1 &
	rgpid=$!
	await "$dir/rg" "reached +opened reached|gates armed"
	await "$dir/rg" "gates armed"
	ask USR1 "^paused"
	kill -9 "$rgpid"
	wait "$rgpid" 2>/dev/null
	rgpid=
	cat "$dir/rg"
	for _ in $(seq 100); do
		[ "$(sed -n 's/^TracerPid:[[:space:]]*//p' /proc/$pid/status)" = 0 ] && break
		sleep 0.1
	done
	ask USR2
	off=$(site_offset)
	case " $* " in
	*" --no-fastpath "*)
		# the int3: the next pass dies of SIGTRAP
		finish_prog 133
		grep -qE "^text differs at 0x[0-9a-f]+ \(.*pads_text[^ ]*\+$off: memory cc" "$dir/prog" ||
			fail "the program did not find racegate's int3 at the site ($off)"
		;;
	*)
		# the jump to the pad, whose workers were let pass for ever:
		# they run on through it (the program says the text differs)
		finish_prog 1
		grep -qE "^text differs at 0x[0-9a-f]+ \(.*pads_text[^ ]*\+$off: memory e9" "$dir/prog" ||
			fail "the program did not find racegate's jump at the site ($off)"
		grep -q "^passes after the check 200000" "$dir/prog" ||
			fail "the workers did not run on through the pad"
		;;
	esac
	;;
runkill9)
	"$(dirname "$0")/runkill9.sh" "$rg" "$specs" 3 "" -- --verbose "$@" \
		pads_text_serve.yaml -- "$prog" serve || exit 1
	;;
*)
	fail "unknown mode $mode"
	;;
esac
echo "ok: $mode $*"
