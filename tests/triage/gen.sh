#!/usr/bin/env bash
# Regenerates the real reports under tests/triage/ that check_triage reads:
# each triage example built with gcc and clang -fsanitize=thread (-O0, -O1)
# and run once, and its -O0 build run under valgrind's helgrind and drd.
# Run from anywhere; it builds in a temporary folder.  Source paths are
# recorded relative to the repository (-fdebug-prefix-map), so the reports
# name examples/NAME/NAME.c as a CI machine's checkout would.
#
# The reports differ from run to run in pids, tids and addresses, and TSan
# may order or pair the accesses of a race differently; check_triage asserts
# what every run has (the races' places, kinds, threads), not the bytes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"

# TSan maps its shadow memory at fixed addresses; a kernel that spreads
# mappings wider than it expects makes it stop with "unexpected memory
# mapping".  Run it without address randomisation then.
run_tsan() {
	"$@" 2>"$tmp/err" >/dev/null || true
	if grep -q 'unexpected memory mapping' "$tmp/err"; then
		setarch "$(uname -m)" -R "$@" 2>"$tmp/err" >/dev/null || true
	fi
	cat "$tmp/err"
}

# The temporary folder's name would differ in every report: it becomes
# /build, as if the programs were built there.
keep() {
	sed "s|$tmp|/build|g" >"$1"
}

for ex in stale_conn tally retry_flag spin_handoff cxx_stock mixed other; do
	src=examples/$ex/$ex.c std= gcc=gcc clang=clang
	case $ex in
	cxx_stock) src=examples/$ex/$ex.cpp std=-std=c++17 gcc=g++ clang=clang++ ;;
	mixed | other) src=tests/triage/$ex.c ;;
	esac
	for comp in gcc clang; do
		for o in O0 O1; do
			${!comp} $std -$o -g -fsanitize=thread \
				-fdebug-prefix-map="$root"=. -o "$tmp/$ex" "$src" -lpthread
			(cd "$tmp" && run_tsan "./$ex") | keep "$here/tsan-$comp-$o-$ex.txt"
		done
	done
	# helgrind and drd on the -O0 gcc build
	$gcc $std -O0 -g -fdebug-prefix-map="$root"=. -o "$tmp/$ex" "$src" -lpthread
	for tool in helgrind drd; do
		(cd "$tmp" && valgrind --tool=$tool "./$ex" 2>&1 >/dev/null || true) |
			keep "$here/$tool-$ex.txt"
	done
done

# TSan's colours (TSAN_OPTIONS=color=always, as some CI setups have it).
gcc -O1 -g -fsanitize=thread -fdebug-prefix-map="$root"=. -o "$tmp/tally" \
	examples/tally/tally.c -lpthread
(cd "$tmp" && TSAN_OPTIONS=color=always run_tsan ./tally) | keep "$here/tsan-gcc-O1-tally-color.txt"
# Helgrind with less history: the other access's kind and place unknown.
gcc -O0 -g -fdebug-prefix-map="$root"=. -o "$tmp/tally" examples/tally/tally.c -lpthread
for h in approx none; do
	(cd "$tmp" && valgrind --tool=helgrind --history-level=$h ./tally 2>&1 >/dev/null || true) |
		keep "$here/helgrind-$h-tally.txt"
done

# Bad reports, cut by hand from the real ones (check_triage names the line
# each error must name): a second access cut before its stack, a warning
# cut before its SUMMARY, a frame taken out, an access that does not read,
# Helgrind and DRD cut inside a race.
mkdir -p "$here/bad"
head -n 6 "$here/tsan-gcc-O1-stale_conn.txt" >"$here/bad/tsan-no-previous-stack.txt"
head -n 17 "$here/tsan-gcc-O1-stale_conn.txt" >"$here/bad/tsan-cut.txt"
sed '5d' "$here/tsan-gcc-O1-mixed.txt" >"$here/bad/tsan-frame-gap.txt"
sed '3s/Write of size 8/Write of size eight/' "$here/tsan-gcc-O1-stale_conn.txt" >"$here/bad/tsan-access.txt"
head -n 36 "$here/helgrind-stale_conn.txt" >"$here/bad/helgrind-cut.txt"
head -n 14 "$here/drd-stale_conn.txt" >"$here/bad/drd-cut.txt"
# what TSan says when it cannot map its shadow memory (no run to read)
echo 'FATAL: ThreadSanitizer: unexpected memory mapping 0x5565d83c1000-0x5565d83c2000' \
	>"$here/bad/tsan-fatal.txt"
