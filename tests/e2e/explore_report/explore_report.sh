#!/usr/bin/env bash
# explore_report.sh RACEGATE DIR PROGRAM AT TOOLS NODE-DIR: explores
# DIR/PROGRAM at AT with --markdown, prints the report, how many lines
# its Mermaid block has, and whether Mermaid's own parser takes it
# ("mermaid exit 77": node is absent).  Each step's status as "CMD exit N".
set -u
rg=$1 dir=$2 prog=$3 at=$4 tools=$5 nodedir=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$dir" || exit 2
"$rg" explore --at "$at" --strategy pct --seed 1 --schedules 1000 \
	--markdown "$tmp/report.md" -- "./$prog" > /dev/null 2>&1
echo "explore exit $?"
[ -f "$tmp/report.md" ] || { echo "no report"; exit 0; }
cat "$tmp/report.md"
echo "mermaid lines $(sed -n '/^```mermaid$/,/^```$/p' "$tmp/report.md" | wc -l)"
"$tools/mermaid_check.sh" "$nodedir" "$tmp/report.md" > "$tmp/mermaid.log" 2>&1
st=$?
[ $st -eq 0 ] || [ $st -eq 77 ] || cat "$tmp/mermaid.log"
echo "mermaid exit $st"
