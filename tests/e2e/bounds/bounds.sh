#!/usr/bin/env bash
# A breakpoint inside an instruction corrupts the program (issue 11, item 2):
# lost_update's fixed program (a mutex around the increment) gated at its
# store by raw address.  The address is read from objdump, so the test holds
# for any compiler:
#   - inside the store (`mov [rip + disp], eax`, 6 bytes): `check` and `run`
#     exit 2 naming the instruction and the boundaries around the address;
#   - at the store itself: 20 runs out of 20 print the right count.
#
#   bounds.sh RACEGATE OBJDUMP FIXED_PROGRAM WORKDIR EXPECT_SH
set -eu
rg=$1 objdump=$2 prog=$(realpath "$3") dir=$4 expect=$5
mkdir -p "$dir"

# counter_increment's store to counter, and the instruction after it
read -r store next < <("$objdump" -d --no-show-raw-insn -M intel "$prog" |
	awk '/<counter_increment>:/ {f = 1; next} f && /^$/ {exit}
	     f && s && !n {sub(":", "", $1); n = $1; print s, n; exit}
	     f && /mov +DWORD PTR \[rip\+0x[0-9a-f]+\],eax/ && /<counter>/ {
		sub(":", "", $1); s = $1 }')
[ -n "${store:-}" ] && [ -n "${next:-}" ] || {
	echo "bounds.sh: no store to counter in counter_increment of $prog" >&2
	exit 1
}
len=$((0x$next - 0x$store))
inside=$(printf '%x' $((0x$store + 2)))

# the rendezvous of examples/lost_update/gates.yaml, by address; on the fixed
# program the order is infeasible and released, and the count must be right
spec() {
	cat <<YAML
version: 1
name: lost update, gated by address
command: [$prog]
timeout: 20s
on_deadlock: release
threads:
  w1: {start: worker, nth: 1}
  w2: {start: worker, nth: 2}
gates:
  - {name: w1-store, at: "*0x$1", thread: w1, open: w1-loaded, wait: w2-loaded}
  - {name: w2-store, at: "*0x$1", thread: w2, open: w2-loaded, wait: w1-loaded}
expect:
  exit: 0
  stdout: "counter = 2"
YAML
}
spec "$inside" >"$dir/inside.yaml"
spec "$store" >"$dir/boundary.yaml"

msg="error: cannot resolve '\\*0x$inside': 0x$inside is inside 'mov dword ptr \\[rip \\+ 0x[0-9a-f]+\\], eax' at 0x$store \\($len bytes\\); boundaries: 0x$store, 0x$next"
fail=0
"$expect" 2 "$msg" "!REPRODUCED|PASSED|ORDER-INFEASIBLE" -- "$rg" check "$dir/inside.yaml" || fail=1
"$expect" 2 "$msg" "!counter = " -- "$rg" run "$dir/inside.yaml" || fail=1

out=$dir/boundary.out
"$expect" 0 "20 runs: 20 ORDER-INFEASIBLE" "!counter = [^2]" \
	-- "$rg" run --repeat 20 --verbose "$dir/boundary.yaml" || fail=1
"$rg" run --repeat 20 --verbose "$dir/boundary.yaml" >"$out" 2>&1 || true
good=$(grep -c '^counter = 2$' "$out" || true)
if [ "$good" -ne 20 ]; then
	echo "FAIL: 'counter = 2' in $good runs of 20" >&2
	fail=1
fi
exit $fail
