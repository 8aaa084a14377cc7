#!/usr/bin/env bash
# Takes a ThreadSanitizer report from a program and reads it back.
#
#   tsan_report.sh TRIAGE_DUMP PROGRAM [ARGS...]
#
# Runs PROGRAM (a -fsanitize=thread build), keeps what it wrote on stderr
# as the report, and prints what triage_dump reads in it (one line per
# race), then the report itself.  TSan maps its shadow memory at fixed
# addresses: on a kernel that spreads mappings wider than it expects it
# stops with "unexpected memory mapping", and the program runs again
# without address randomisation (setarch -R).  Exits with triage_dump's
# status.
set -u
dump=$1; shift
report=$(mktemp)
trap 'rm -f "$report"' EXIT
"$@" >/dev/null 2>"$report"
if grep -q 'unexpected memory mapping' "$report"; then
	setarch "$(uname -m)" -R "$@" >/dev/null 2>"$report"
fi
"$dump" --tsan "$report"
rc=$?
echo "---- the report ----"
cat "$report"
exit $rc
