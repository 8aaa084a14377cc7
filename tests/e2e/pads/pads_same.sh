#!/usr/bin/env bash
# pads_same.sh [--loose] RACEGATE SPEC [RUN-ARGS...]: the run's verdict, its
# timeline, the program's output and the --verbose hit counts are the same
# with jump pads (the default) and with --no-fastpath (every hit traps).
# The timeline is compared as the set of (thread, location, gate) arrivals:
# times, thread ids, and whether an arrival found its event open already
# (passed) or waited for it (held, released) depend on timing in either
# mode.  --loose, for programs whose output or counts depend on timing: the
# verdict and the arrivals only.
set -u
loose=0
[ "$1" = --loose ] && { loose=1; shift; }
rg=$1 spec=$2
shift 2
normalise=$(dirname "$0")/../normalise.sh
# times, thread and process ids and addresses masked (normalise.sh), a
# timeline line cut to its thread, location and gate
norm() {
	grep -vE '^racegate: gate .* pad' |
	"$normalise" times tids pids addresses |
	sed -E -e 's/ +/ /g' -e 's/^ ?[+]T (.*tid N [^ ]+ [^ ]+) .*/\1/' |
	if [ $loose = 1 ]; then
		grep -E '^(racegate: |timeline:|.* tid N )' |
		grep -vE '^racegate: [0-9]+ breakpoint hits'
	else
		cat
	fi | sort -u
}
a=$(timeout -k 5 200 "$rg" run --verbose "$@" "$spec" 2>&1)
ra=$?
b=$(timeout -k 5 200 "$rg" run --verbose --no-fastpath "$@" "$spec" 2>&1)
rb=$?
pads=$(printf '%s\n' "$a" | grep -c ': pad$')
na=$(printf '%s\n' "$a" | norm)
nb=$(printf '%s\n' "$b" | norm)
# a run always says its outcome: nothing left means the normaliser failed
if [ -z "$na" ] || [ -z "$nb" ]; then
	echo "FAIL: nothing to compare after $normalise" >&2
	exit 1
fi
if [ "$ra" != "$rb" ] || [ "$na" != "$nb" ]; then
	echo "FAIL: pads and --no-fastpath differ (exit $ra vs $rb)" >&2
	diff <(printf '%s\n' "$na") <(printf '%s\n' "$nb") >&2
	exit 1
fi
echo "same outcome, timeline and counts (exit $ra; $pads gates with a pad)"
[ "$pads" -gt 0 ] || { echo "FAIL: no gate got a pad" >&2; exit 1; }
exit 0
