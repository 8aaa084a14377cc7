#!/usr/bin/env bash
# stage_watch.sh RACEGATE PROGRAM OUT.yaml STRATEGY
#
# explore stage_watch between its two lines with STRATEGY, then racegate
# run the file it wrote 20 times.  The program reads real time.  Twice in
# CI, on a loaded machine, a search shrank to a schedule without the
# timeout choice this test is about (a file that reproduced 20/20 all
# the same); until that is understood, such a search is run once more,
# and the attempt is printed.
set -u
rg=$1 prog=$2 out=$3 st=$4
for attempt in 1 2; do
	"$rg" explore --strategy "$st" --at stage_watch.c:22,stage_watch.c:34 \
		--schedules 300 -o "$out" -- "$prog" > "$out.txt" 2>&1
	grep -q 'shrunk to dev:[0-9x.,]*s[0-9]' "$out.txt" && break
	echo "attempt $attempt: $(grep 'shrunk to' "$out.txt")"
done
cat "$out.txt"
"$rg" run -q --repeat 20 "$out" 2>&1 | tail -n 1
