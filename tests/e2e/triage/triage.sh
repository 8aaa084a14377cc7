#!/usr/bin/env bash
# Triage of an example, as a user runs it.
#
#   triage.sh RACEGATE DIR PROG OUT [SOURCE...] [TRIAGE-OPTION...]
#
# Each SOURCE is a report for `racegate triage` (default: tsan); the
# arguments from the first that starts with "--" on are triage's options:
#   tsan, -     a ThreadSanitizer report of DIR/PROG-tsan (as the
#               triage_examples topic does: again without address
#               randomisation when TSan cannot map its shadow memory)
#   tsan=PATH   the same of the TSan build PATH (the report of another build)
#   helgrind, drd   valgrind --tool=helgrind (drd) of DIR/PROG itself
#   TOOL:FILE   the report FILE, given as --TOOL (tsan, helgrind, drd)
#   FILE        the ThreadSanitizer report FILE
# Runs `racegate triage` on DIR/PROG from DIR, writing into OUT; prints its
# table, then one line per race of its JSON report (and the reports that
# name it), then any Markdown report it wrote into OUT (--markdown
# OUT/NAME.md), then the last line of `racegate run --repeat 20` of each
# HARMFUL race's file.  Exits with triage's status.
set -u
rg=$1 dir=$2 prog=$3 out=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out" && mkdir -p "$out" || exit 2

# tsan_report BUILD FILE: BUILD's report into FILE, run from BUILD's folder;
# a run whose report has no warning (TSan could not start, a loaded
# machine) is run again, three times at most
tsan_report() {
	for _ in 1 2 3; do
		(cd "$(dirname "$1")" && "./$(basename "$1")" >/dev/null 2>"$2")
		if grep -q 'unexpected memory mapping' "$2"; then
			(cd "$(dirname "$1")" && setarch "$(uname -m)" -R "./$(basename "$1")" \
				>/dev/null 2>"$2")
		fi
		grep -q 'WARNING: ThreadSanitizer' "$2" && return
		cp "$2" "$2.no-warning"
	done
}

args=()
while [ $# -gt 0 ]; do
	src=$1
	case $src in
	--*) break ;;
	tsan | -)
		tsan_report "$dir/$prog-tsan" "$out/tsan.txt"
		args+=(--tsan "$out/tsan.txt") ;;
	tsan=*)
		tsan_report "${src#tsan=}" "$out/tsan.txt"
		args+=(--tsan "$out/tsan.txt") ;;
	helgrind | drd)
		(cd "$dir" && valgrind --tool="$src" "./$prog" >/dev/null 2>"$out/$src.txt")
		args+=("--$src" "$out/$src.txt") ;;
	tsan:* | helgrind:* | drd:*)
		args+=("--${src%%:*}" "${src#*:}") ;;
	*)
		args+=(--tsan "$src") ;;
	esac
	shift
done
if [ ${#args[@]} -eq 0 ]; then
	tsan_report "$dir/$prog-tsan" "$out/tsan.txt"
	args+=(--tsan "$out/tsan.txt")
fi
(cd "$dir" && "$rg" triage "${args[@]}" -o "$out/files" --report "$out/triage.json" \
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
