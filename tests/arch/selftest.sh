#!/usr/bin/env bash
# The two checks of tests/arch/ have teeth: on a copy of the sources with
# one x86-64 fact planted outside arch/, each must fail.  cross_check.sh
# must refuse a system call number arm64 does not have (SYS_poll) and a
# register field (.rip); lint.sh a register named in a comment and a raw
# ptrace restart.
#
#   tests/arch/selftest.sh SOURCE_DIR [CC]
set -uo pipefail
src=$(cd "${1:?usage: selftest.sh SOURCE_DIR [CC]}" && pwd)
cc=${2:-aarch64-linux-gnu-gcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

copy() {
	rm -rf "$tmp/src"
	mkdir -p "$tmp/src"
	for d in common arch tracer dwarf gates specs expr runner triage tests/arch; do
		mkdir -p "$tmp/src/$(dirname "$d")"
		cp -r "$src/$d" "$tmp/src/$d"
	done
}
fail=0
expect_fail() {   # what, command...
	local what=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		echo "FAIL: $what was not caught"
		cat "$tmp/out"
		fail=1
	else
		echo "ok: $what caught"
	fi
}

copy
printf '\nstatic const long planted_nr = SYS_poll;\n' >> "$tmp/src/tracer/blocked.c"
printf '#include <sys/syscall.h>\n' | cat - "$tmp/src/tracer/blocked.c" > "$tmp/b.c"
mv "$tmp/b.c" "$tmp/src/tracer/blocked.c"
if command -v "$cc" >/dev/null 2>&1; then
	expect_fail "SYS_poll in tracer/blocked.c" "$tmp/src/tests/arch/cross_check.sh" "$tmp/src" "$cc"
	copy
	printf '\nunsigned long planted_pc(const arch_regs *r) { return r->r.rip; }\n' \
		>> "$tmp/src/tracer/range.c"
	expect_fail "a register field in tracer/range.c" \
		"$tmp/src/tests/arch/cross_check.sh" "$tmp/src" "$cc"
else
	echo "skipped the compile's half: no $cc"
fi

copy
printf '\n/* the PC is in rip */\n' >> "$tmp/src/runner/session/session.c"
expect_fail "rip in a comment of runner/session/session.c" "$tmp/src/tests/arch/lint.sh" "$tmp/src"
copy
printf '\nvoid planted(int t) { ptrace(PTRACE_CONT, t, 0L, 0L); }\n' >> "$tmp/src/tracer/step.c"
expect_fail "a raw PTRACE_CONT in tracer/step.c" "$tmp/src/tests/arch/lint.sh" "$tmp/src"

# and the sources as they are pass both
copy
"$tmp/src/tests/arch/lint.sh" "$tmp/src" >"$tmp/out" 2>&1 || { echo "FAIL: lint of the sources"; cat "$tmp/out"; fail=1; }
exit $fail
