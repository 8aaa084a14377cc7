#!/usr/bin/env bash
# explore's progress line: on a terminal (stderr a pseudo-terminal, by
# script(1)) one line for the search, the shrinking and the replays of the
# gates file, in that order, each with its counts; in a pipe or a file,
# none.  Run by explore.cmake:
#
#   explore_progress.sh RACEGATE DIR PROGRAM ARGS...
#
# Prints each redraw as "tty: LINE", then what expect.sh matches; exits 77
# without script(1).
set -u
rg=$1 dir=$2 prog=$3
shift 3
command -v script > /dev/null || { echo "no script(1)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$dir" || exit 2

# on a terminal: stdin, stdout and stderr the pseudo-terminal script makes
cmd=$(printf ' %q' "$rg" explore -o "$tmp/tty.yaml" "$@" -- "./$prog")
script -qec "$cmd" /dev/null < /dev/null > "$tmp/tty"
echo "explore on a terminal exit $?"
# each redraw starts with a carriage return and an erase to the line's end
tr '\r' '\n' < "$tmp/tty" | sed 's/\x1b\[K//g' | grep -E '^explore [a-z]+: ' |
	sed 's/^/tty: /'
echo "tty phases: $(tr '\r' '\n' < "$tmp/tty" |
	sed -n 's/^\x1b\[Kexplore \([a-z]*\): .*/\1/p' | uniq | tr '\n' ' ')"
# a line explore printed is not left behind a progress line
tr '\r' '\n' < "$tmp/tty" | sed 's/^\x1b\[K//' | grep -E '^  (shrunk to|wrote) ' |
	sed 's/^/tty line: /'

# in a pipe and a file: the same search, and nothing of the progress line
"$rg" explore -o "$tmp/pipe.yaml" "$@" -- "./$prog" 2> "$tmp/err" | cat > "$tmp/out"
echo "explore in a pipe exit ${PIPESTATUS[0]}"
echo "in a pipe: $(cat "$tmp/out" "$tmp/err" | grep -cE 'searching:|shrinking:|verifying:|'$'\r') progress lines"
grep -E '^  (shrunk to|wrote) ' "$tmp/out" | sed 's/^/pipe line: /'
exit 0
