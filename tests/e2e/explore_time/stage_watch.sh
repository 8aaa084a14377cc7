#!/usr/bin/env bash
# stage_watch.sh RACEGATE PROGRAM OUT.yaml STRATEGY [ARG...]
#
# explore stage_watch between its two lines with STRATEGY (the program's
# ARGs: other lengths of its sleeps), then racegate run the file it wrote
# 20 times.  The program reads real time; the worker's sleeps are parked
# as they begin, however loaded the machine (a look at /proc could come
# after a 10 ms sleep had ended, and the search then found schedules
# whose failure needed no timeout choice).
set -u
rg=$1 prog=$2 out=$3 st=$4
shift 4
"$rg" explore --strategy "$st" --at stage_watch.c:22,stage_watch.c:34 \
	--schedules 300 -o "$out" -- "$prog" "$@" 2>&1
"$rg" run -q --repeat 20 "$out" 2>&1 | tail -n 1
