#!/usr/bin/env bash
# The done-when of racegate explore over every example, through the real
# binary.  Run by explore_examples.cmake:
#
#   explore_examples.sh find RACEGATE DIR PROGRAM AT STRATEGY [OPTION... --] [PROGRAM-ARGS...]
#       explore from `--at AT` alone (and the racegate OPTIONs before a
#       `--`, if any), seed 1, at most 1,000 schedules, write the gates
#       file, then `racegate run --repeat 100` it
#   explore_examples.sh fixed RACEGATE DIR PROGRAM AT EXPLORE-ARGS...
#       explore the fixed variant PROGRAM-fixed within a bound: no failure,
#       no gates file
#   explore_examples.sh mermaid RACEGATE EXAMPLES TOOLS NODE-DIR DOC.md EX...
#       the Markdown reports of a few examples (EX = DIR:PROGRAM:AT) and
#       DOC.md: every mermaid block parses with Mermaid's own parser
#
# Prints what expect.sh matches, each command's status as "CMD exit N".
set -u
case_=$1 rg=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case $case_ in
find)
	dir=$1 prog=$2 at=$3 strategy=$4
	shift 4
	opts=()
	for a in "$@"; do
		[ "$a" = -- ] || continue
		while [ "$1" != -- ]; do opts+=("$1"); shift; done
		shift
		break
	done
	cd "$dir" || exit 2
	# kv_server's driver needs more than the default 10 s under explore
	"$rg" explore --at "$at" --strategy "$strategy" --seed 1 --schedules 1000 \
		--timeout 30s "${opts[@]}" -o "$tmp/repro.yaml" -- "./$prog" "$@"
	echo "explore exit $?"
	[ -f "$tmp/repro.yaml" ] || { echo "no gates file"; exit 0; }
	cat "$tmp/repro.yaml"
	"$rg" run -q --repeat 100 "$tmp/repro.yaml"
	echo "run exit $?"
	;;
fixed)
	dir=$1 prog=$2 at=$3
	shift 3
	cd "$dir" || exit 2
	"$rg" explore --at "$at" -o "$tmp/none.yaml" "$@" -- "./$prog-fixed"
	echo "explore exit $?"
	[ -e "$tmp/none.yaml" ] && echo "a gates file was written"
	;;
mermaid)
	# judges itself (ctest runs it directly, to see 77 as a skip)
	ex=$1 tools=$2 nodedir=$3 doc=$4
	shift 4
	mds=("$doc") bad=0
	for e in "$@"; do
		IFS=: read -r d prog at <<< "$e"
		# the diagram is what is checked: a short shrink and verify
		(cd "$ex/$d" && "$rg" explore --at "$at" --seed 1 --schedules 1000 \
			--shrink-runs 30 --verify 2 \
			--markdown "$tmp/$d.md" -- "./$prog" > /dev/null)
		st=$?
		echo "$d: explore exit $st"
		[ $st -eq 1 ] && [ -f "$tmp/$d.md" ] || { echo "FAIL: $d: no report"; bad=1; }
		mds+=("$tmp/$d.md")
	done
	"$tools/mermaid_check.sh" "$nodedir" "${mds[@]}"
	st=$?
	[ $st -eq 77 ] && exit 77
	echo "mermaid exit $st"
	[ $st -eq 0 ] && [ $bad -eq 0 ] || exit 1
	;;
*)
	echo "explore_examples.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
exit 0
