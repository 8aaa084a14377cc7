#!/usr/bin/env bash
# Runs racegate and checks that the thread the timeline labels ALIAS is the
# one that printed the last line matching "by tid N": a pattern cannot say
# "the thread bound by as: is the one that logged last", since which worker
# that is changes from run to run.
#
#   last_logger.sh ALIAS -- COMMAND [ARGS...]
set -u
alias=$1; shift
[ "${1:-}" = "--" ] && shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timeout -k 5 240 "$@" >"$out" 2>&1
st=$?
want=$(grep -oE "^ +\+[0-9.]+ ms +$alias +tid [0-9]+" "$out" | head -1 | grep -oE "[0-9]+$")
got=$(grep -oE "by tid [0-9]+" "$out" | tail -1 | grep -oE "[0-9]+$")
if [ "$st" -ne 0 ] || [ -z "$want" ] || [ "$want" != "$got" ]; then
	echo "FAIL: exit $st; '$alias' is tid '${want}', the last logger tid '${got}'" >&2
	cat "$out" >&2
	exit 1
fi
echo "ok: '$alias' (tid $want) logged last"
