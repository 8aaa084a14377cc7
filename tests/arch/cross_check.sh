#!/usr/bin/env bash
# Proves that no file outside arch/ knows a fact of x86-64's: every C file
# of racegate but arch/x86_64/ is compiled (-fsyntax-only, -Werror) for
# another machine, aarch64, with that machine's C library and kernel
# headers, against arch/stub/ instead of arch/x86_64/.  There
# struct user_regs_struct has no rip, SYS_poll and PTRACE_GETREGS do not
# exist, EM_X86_64 is not the machine, and the contract's sizes differ:
# a file that names any of them, or assumes a size, does not compile.
# (docs/design.md, "The architecture behind one seam", says why a compile.)
#
#   tests/arch/cross_check.sh SOURCE_DIR [CC]
#
# Exit 77 (ctest: skipped) when the cross compiler or its C library is not
# installed (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross, which
# .ci/deps installs).
set -uo pipefail
src=$(cd "${1:?usage: cross_check.sh SOURCE_DIR [CC]}" && pwd)
cc=${2:-aarch64-linux-gnu-gcc}

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "skipped: no $cc (Debian: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
	exit 77
fi
if ! printf '#include <stdio.h>\n#include <sys/user.h>\n' |
	"$cc" -fsyntax-only -x c - >/dev/null 2>&1; then
	echo "skipped: $cc has no C library headers (Debian: libc6-dev-arm64-cross)"
	exit 77
fi

# The modules outside arch/, and arch/'s own files that are no machine's.
mods=(common tracer dwarf gates specs expr runner triage)
files=()
incs=(-I "$src/tests/arch/include" -I "$src/arch/stub" -I "$src/arch")
for m in "${mods[@]}"; do
	while IFS= read -r f; do files+=("$f"); done < <(find "$src/$m" -name '*.c' | sort)
	# every folder of the module that has a header (runner/'s subfolders too)
	while IFS= read -r d; do incs+=(-I "$d"); done < \
		<(find "$src/$m" -name '*.h' -printf '%h\n' | sort -u)
done
files+=("$src"/arch/*.c "$src"/arch/stub/*.c)
# libdwarf's header folder (Debian: /usr/include/libdwarf); the other
# libraries' headers are machine-neutral, in /usr/include, which the cross
# compiler searches after its own C library (never /usr/include/x86_64-linux-gnu)
for d in /usr/include/libdwarf /usr/local/include/libdwarf; do
	[ -f "$d/libdwarf.h" ] && incs+=(-I "$d")
done

echo "compiling ${#files[@]} files with $cc against arch/stub"
"$cc" -std=gnu11 -D_GNU_SOURCE -DRACEGATE_VERSION='"check"' -Wall -Wextra -Werror \
	-fsyntax-only "${incs[@]}" "${files[@]}"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAILED: a file outside arch/ does not compile for another machine (above);"
	echo "move the machine's fact behind arch/arch.h (docs/design.md)"
	exit 1
fi
echo "passed: ${#files[@]} files name no fact of x86-64's"
