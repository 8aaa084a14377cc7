#!/usr/bin/env bash
# Every message of expr/expr_msg.h is in docs/gates.md's table of condition
# errors: each fixed part of the format (between its %s, %d, ... fields)
# must appear in the document.
#   expr_msgs.sh EXPR_MSG_H GATES_MD
set -u
msgs=$1 doc=$2
text=$(sed 's/\\|/|/g' "$doc")    # a '|' inside a Markdown table is written '\|'
fail=0 n=0
while IFS= read -r fmt; do
	n=$((n + 1))
	# the C literal's text: \" is ", \\ is \ (enough for these messages)
	fmt=$(printf '%s' "$fmt" | sed -e 's/\\"/"/g' -e 's/\\\\/\\/g')
	while IFS= read -r part; do
		[ ${#part} -ge 4 ] || continue
		if ! printf '%s\n' "$text" | grep -qF -- "$part"; then
			echo "FAIL: '$part' (of \"$fmt\") is not in $doc"
			fail=1
		fi
	done < <(printf '%s\n' "$fmt" | sed -E 's/%(llu|zu|[sdc])/\n/g')
done < <(sed -nE 's/^#define EM_[A-Z_]+ +"(([^"\\]|\\.)*)".*/\1/p' "$msgs")
[ "$n" -gt 40 ] || { echo "FAIL: only $n messages found in $msgs"; fail=1; }
exit $fail
