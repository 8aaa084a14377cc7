#!/usr/bin/env bash
# What the compile against arch/stub (cross_check.sh) cannot see, because
# the other machine's headers have it too (struct user_regs_struct,
# EM_X86_64) or because it is only text (a register's name in a comment,
# x86-64's library folder): no file outside arch/ names x86-64, its
# registers, its register-set calls or its ELF machine, includes capstone,
# or restarts a thread with a ptrace call of its own (every restart goes
# through tracer/tracer.c: STYLE.md).
#
#   tests/arch/lint.sh SOURCE_DIR
#
# tests/arch/lint_allow.txt lists the lines that may stay (comments that
# explain, nothing else): "path: the line, trimmed".
set -uo pipefail
src=$(cd "${1:?usage: lint.sh SOURCE_DIR}" && pwd)
allow="$src/tests/arch/lint_allow.txt"

mods=(common tracer dwarf gates specs expr runner triage)
regs='rip|eip|rsp|esp|rbp|ebp|rax|rbx|rcx|rdx|rsi|rdi|r8|r9|r1[0-5]|eax|ebx|ecx|edx|fs_base|gs_base|orig_rax|eflags'
rules=(
	"x86-64 by name|[xX]86"
	"an x86-64 register|\\b($regs)\\b"
	"the x86-64 register set|user_regs_struct|sys/user\\.h"
	"a register call other than PTRACE_GETREGSET|PTRACE_(GET|SET)(FP)?REGS\\b"
	"x86-64's ELF machine|EM_X86_64"
	"the disassembler (arch/ owns it)|#include *<capstone"
	"a raw ptrace restart (tracer_restart)|ptrace *\\( *PTRACE_(CONT|SYSCALL|SINGLESTEP|DETACH|LISTEN)"
)
files=()
for m in "${mods[@]}"; do
	while IFS= read -r f; do files+=("${f#"$src"/}"); done < \
		<(find "$src/$m" \( -name '*.c' -o -name '*.h' \) | sort)
done
cd "$src" || exit 1
bad=0
for rule in "${rules[@]}"; do
	what=${rule%%|*}
	re=${rule#*|}
	while IFS= read -r hit; do
		rel=${hit%%:*}
		rest=${hit#*:}
		text=$(printf '%s' "${rest#*:}" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
		if [ -f "$allow" ] && grep -qxF "$rel: $text" "$allow"; then
			continue
		fi
		echo "$rel:${rest%%:*}: $what outside arch/: $text"
		bad=$((bad + 1))
	done < <(grep -nHE "$re" "${files[@]}")
done
checked=${#files[@]}
if [ $bad -ne 0 ]; then
	echo "FAILED: $bad line(s) above; move the fact behind arch/arch.h (docs/design.md)"
	exit 1
fi
echo "passed: $checked files outside arch/ name no fact of x86-64's"
