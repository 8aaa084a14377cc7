#!/usr/bin/env bash
# stage_watch.sh RACEGATE PROGRAM OUT.yaml STRATEGY [AT]
#
# explore stage_watch between its two lines (or AT, for a program of its
# shape) with STRATEGY, then racegate run the file it wrote 20 times.
# The program reads real time; the worker's sleeps are parked as they
# begin, however loaded the machine (a look at /proc could come after a
# 10 ms sleep had ended, and the search then found schedules whose
# failure needed no timeout choice).
set -u
rg=$1 prog=$2 out=$3 st=$4 at=${5:-stage_watch.c:22,stage_watch.c:34}
"$rg" explore --strategy "$st" --at "$at" \
	--schedules 300 -o "$out" -- "$prog" 2>&1
"$rg" run -q --repeat 20 "$out" 2>&1 | tail -n 1
