#!/usr/bin/env bash
# Triage of an example, as a user runs it.
#
#   triage.sh RACEGATE DIR PROG OUT [REPORT | helgrind | -] [TRIAGE-OPTION...]
#
# Takes a ThreadSanitizer report from DIR/PROG-tsan (as the triage_examples
# topic does: again without address randomisation when TSan cannot map its
# shadow memory; also with "-"), or uses REPORT, or with "helgrind" takes a Helgrind
# report of DIR/PROG itself (valgrind --tool=helgrind); runs `racegate triage` on DIR/PROG from
# DIR, writing into OUT; prints its table, then one line per race of its
# JSON report, then any Markdown report it wrote into OUT (--markdown
# OUT/NAME.md), then the last line of `racegate run --repeat 20` of each
# HARMFUL race's file.  Exits with triage's status.
set -u
rg=$1 dir=$2 prog=$3 out=$4 report=${5:-}
shift 4; shift $(($# > 0))
[ "$report" = - ] && report=
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out" && mkdir -p "$out" || exit 2
tool=--tsan
if [ "$report" = helgrind ]; then
	tool=--helgrind report=$out/helgrind.txt
	(cd "$dir" && valgrind --tool=helgrind "./$prog" >/dev/null 2>"$report")
elif [ -z "$report" ]; then
	report=$out/tsan.txt
	(cd "$dir" && "./$prog-tsan" >/dev/null 2>"$report")
	if grep -q 'unexpected memory mapping' "$report"; then
		(cd "$dir" && setarch "$(uname -m)" -R "./$prog-tsan" >/dev/null 2>"$report")
	fi
fi
(cd "$dir" && "$rg" triage "$tool" "$report" -o "$out/files" --report "$out/triage.json" \
	"$@" -- "./$prog")
status=$?
[ -e "$out/triage.json" ] && python3 "$here/races.py" "$out/triage.json"
for md in "$out"/*.md; do [ -e "$md" ] && cat "$md"; done
for f in "$out"/files/race-[0-9]*.yaml; do
	case $f in *-order-*|*'*'*) continue ;; esac
	echo "replay $(basename "$f"):"
	(cd / && "$rg" run -q --repeat 20 "$f" 2>&1 | tail -n 1)
done
exit $status
