#!/usr/bin/env bash
# racegate explore tried from outside, on programs nobody wrote for it
# (trial_x_*).  Run by trial_explore.cmake:
#
#   trial_explore.sh CASE RACEGATE DIR [ARGS...]
#
# Prints what expect.sh then matches ("STEP exit N" for each command).
set -u
case_=$1 rg=$2 dir=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$dir" || exit 2

case $case_ in
replay_line)
	# ARGS: explore's arguments.  The replay line explore prints is run as
	# a user pastes it into a shell, with racegate's path in front.
	"$rg" explore "$@" | tee "$tmp/out"
	echo "explore exit ${PIPESTATUS[0]}"
	line=$(sed -n 's/^  replay: racegate //p' "$tmp/out")
	[ -n "$line" ] || { echo "no replay line"; exit 0; }
	eval "\"\$rg\" $line"
	echo "replay exit $?"
	;;
interrupt)
	# SIG ARGS: explore in the background (with job control, so SIGINT is
	# not ignored as it is for a script's background job); once the
	# program runs, SIG to racegate; then what became of the program
	sig=$1
	shift
	set -m
	"$rg" explore "$@" > "$tmp/out" 2>&1 &
	rgpid=$!
	prog=
	for _ in $(seq 300); do
		prog=$(pgrep -P "$rgpid" | head -1)
		[ -n "$prog" ] && break
		sleep 0.1
	done
	[ -n "$prog" ] || { echo "the program never started"; kill -KILL "$rgpid"; exit 0; }
	sleep 1
	kill "-$sig" "$rgpid"
	wait "$rgpid"
	echo "explore exit $?"
	cat "$tmp/out"
	# a killed program may stay a zombie a moment (its reaper is init)
	for _ in $(seq 50); do
		st=$(ps -o stat= -p "$prog" | cut -c1)
		[ -z "$st" ] || [ "$st" = Z ] && break
		sleep 0.1
	done
	case $st in
	''|Z) echo "program after: gone" ;;
	T|t) echo "program after: stopped" ;;
	*) echo "program after: still running ($st)"; kill -KILL "$prog" ;;
	esac
	;;
write_run)
	# ARGS: explore's arguments; explore writes a gates file, which is
	# shown and run 40 times
	"$rg" explore -o "$tmp/repro.yaml" "$@"
	echo "explore exit $?"
	[ -f "$tmp/repro.yaml" ] || { echo "no gates file"; exit 0; }
	cat "$tmp/repro.yaml"
	"$rg" run -q --repeat 40 "$tmp/repro.yaml"
	echo "run exit $?"
	;;
write)
	# ARGS: explore's arguments; explore writes a gates file, which is shown
	"$rg" explore -o "$tmp/repro.yaml" "$@"
	echo "explore exit $?"
	[ -f "$tmp/repro.yaml" ] && cat "$tmp/repro.yaml"
	;;
*)
	echo "trial_explore.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
exit 0
