#!/usr/bin/env bash
# process_tree.sh RACEGATE DIR: a followed child never outlives racegate's
# run, and keeps no int3.
#   orphan: the parent exits while its child is held at a gate: the child is
#           killed with the program, and the run ends as the program did;
#   sigint: SIGINT to racegate while a child is held and its parent waits
#           for it: INTERRUPTED, and both are gone.
# Prints "orphan: exit N", "sigint: exit N", and "LEFT RUNNING: PID" for a
# process that outlived its run.
set -u
rg=$1 dir=$2
cd "$dir" || exit 1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# alive PID: there and not a zombie (kill -0 says yes to a zombie)
alive() { [ -r "/proc/$1/stat" ] && ! grep -q ') Z ' "/proc/$1/stat" 2>/dev/null; }
# the tid of the first thread labelled $1 in the timeline of $out
tid_of() { sed -n "s/.* $1 *\\(pid [0-9]* *\\)\\{0,1\\}tid \\([0-9]*\\).*/\\2/p" "$out" | head -1; }
settle() { for _ in $(seq 50); do alive "$1" || return; sleep 0.1; done; }

"$rg" run proctree_orphan.yaml >"$out" 2>&1
echo "orphan: exit $?"
cat "$out"
kid=$(tid_of 'process#1')
[ -n "$kid" ] && settle "$kid" && alive "$kid" && echo "LEFT RUNNING: $kid"

# setsid, and SIGINT back to its default: a background job of a script
# starts with SIGINT ignored, which racegate keeps as it found it; the
# parent waits for the held child, which is a deadlock racegate sees: a
# long quiet period keeps the verdict from coming before the SIGINT
setsid env --default-signal=INT "$rg" run --quiet-period 600s proctree_hang.yaml >"$out" 2>&1 &
rgpid=$!
# the timeline comes at the end: the child held at its gate is found in /proc
kid= parent=
for _ in $(seq 100); do
	# racegate's own descendants: other tests may run proctree too
	parent=$(pgrep -P "$rgpid" | head -1)
	kid=${parent:+$(pgrep -P "$parent" | head -1)}
	[ -n "$kid" ] && grep -q ') t ' "/proc/$kid/stat" 2>/dev/null && break
	sleep 0.1
done
kill -INT "$rgpid"
wait "$rgpid"
echo "sigint: exit $?"
cat "$out"
for p in $kid $parent; do settle "$p"; alive "$p" && echo "LEFT RUNNING: $p"; done
echo done
