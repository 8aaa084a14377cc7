#!/usr/bin/env bash
# How steady racegate triage's verdicts are: each triage example's TSan
# report (taken once, from its -tsan build), triaged N times (default 20),
# the verdicts of each race counted; then each HARMFUL race's file of the
# first triage replayed R times (default 100) by racegate run.
#
#   bench/triage_verdicts.sh BUILD [N] [R]
#
# BUILD is a build folder with the examples' -tsan variants
# (RACEGATE_TSAN_EXAMPLES, on by default).  Prints one line per race:
#   example race: VERDICT xN [OTHER xM ...]   file: K/R REPRODUCED
# Not a test: it takes minutes (a triage runs each order five times, and a
# search where no order fails), and the machine's load shows in it.
set -u
build=$(cd "${1:?usage: triage_verdicts.sh BUILD [N] [R]}" && pwd)
n=${2:-20} r=${3:-100}
rg=$build/racegate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for ex in stale_conn tally retry_flag spin_handoff cxx_stock lost_count; do
	dir=$build/examples/$ex
	[ -x "$dir/$ex-tsan" ] || { echo "$ex: no $ex-tsan in $dir (skipped)"; continue; }
	(cd "$dir" && "./$ex-tsan" >/dev/null 2>"$work/$ex.txt")
	if grep -q 'unexpected memory mapping' "$work/$ex.txt"; then
		(cd "$dir" && setarch "$(uname -m)" -R "./$ex-tsan" >/dev/null 2>"$work/$ex.txt")
	fi
	for i in $(seq "$n"); do
		(cd "$dir" && "$rg" triage --tsan "$work/$ex.txt" -o "$work/$ex-$i" \
			--report "$work/$ex-$i.json" -- "./$ex" >/dev/null 2>&1)
	done
	python3 - "$work" "$ex" "$n" <<'EOF' >"$work/$ex.verdicts"
import collections, json, os, sys
work, ex, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
seen = collections.defaultdict(collections.Counter)
for i in range(1, n + 1):
    path = os.path.join(work, "%s-%d.json" % (ex, i))
    if not os.path.exists(path):
        seen[0]["no report"] += 1
        continue
    for race in json.load(open(path))["races"]:
        seen[race["race"]][race["verdict"] or "not triaged"] += 1
for race in sorted(seen):
    counts = " ".join("%s x%d" % kv for kv in seen[race].most_common())
    print("%d %s" % (race, counts))
EOF
	while read -r race counts; do
		file=$work/$ex-1/race-$race.yaml
		rep=
		if [ -e "$file" ]; then
			rep=$( (cd / && "$rg" run -q --repeat "$r" "$file" 2>&1) | tail -n 1 |
				sed 's/^racegate: //')
			rep="   file: $rep"
		fi
		echo "$ex race $race: $counts$rep"
	done <"$work/$ex.verdicts"
done
