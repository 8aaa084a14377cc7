#!/usr/bin/env bash
# racegate explore tried from outside, on programs nobody wrote for it
# (tests/e2e/programs/trial_x_*).  Run by tests/e2e/trial_explore.cmake:
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
*)
	echo "trial_explore.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
exit 0
