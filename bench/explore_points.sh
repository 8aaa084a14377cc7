#!/usr/bin/env bash
# What explore's scheduling points cost: the points and schedules per
# second of a search with line points only (--points lines) and with the
# instruction points that touch shared memory (the default), on fixed
# programs; and the schedules per second on a program that waits on a
# condition variable at every turn (bench/condping.c), next to an older
# racegate binary when one is given.
#
#   bench/explore_points.sh BUILD_DIR [OLD_RACEGATE] [SCHEDULES]
#
# Timing on a shared machine is noisy: run it twice, read both.
set -u
build=$(cd "${1:?usage: bench/explore_points.sh BUILD_DIR [OLD_RACEGATE] [SCHEDULES]}" && pwd) || exit 2
old=${2:-}
n=${3:-200}
rg=$build/racegate

# one search: "POINTS points, RATE schedules/s"
search() {
	local r=$1
	shift
	"$r" explore --schedules "$n" "$@" | sed -n \
		's/.* after \([0-9]*\) schedules .* in \([0-9.]*\) s, \([0-9]*\) scheduling points.*/\3 points, \1 \2/p' |
		awk '{printf "%s points, %.0f schedules/s\n", $1, $3 / ($4 > 0 ? $4 : 0.001)}'
}

for e in lost_update:lost_update.c string_buffer:sbuf.c; do
	name=${e%%:*} file=${e#*:}
	cd "$build/examples/$name" || exit 1
	for p in lines accesses; do
		echo "$name --points $p: $(search "$rg" --at "$file" --points "$p" -- "./$name-fixed")"
	done
done
cd "$build/bench" || exit 1
echo "condping: $(search "$rg" --at condping.c -- ./condping)"
[ -n "$old" ] && echo "condping, $old: $(search "$old" --at condping.c -- ./condping)"
exit 0
