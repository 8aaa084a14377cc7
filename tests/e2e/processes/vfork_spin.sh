#!/bin/sh
# vfork_spin.sh RACEGATE DIR: after a TIMEOUT (and after SIGTERM to
# racegate), no vfork_spin process is left running.
rg=$1
cd "$2" || exit 2
left() {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		ps -eo stat=,comm= | awk '$2 == "vfork_spin" && $1 !~ /^Z/ { n++ } END { exit n ? 0 : 1 }' || return 1
		sleep 0.5
	done
	return 0
}
"$rg" run -q vfork_spin.yaml
echo "timeout: exit $?"
if left; then echo "LEFT RUNNING after timeout"; pkill -9 -x vfork_spin; fi
"$rg" run -q vfork_spin.yaml &
sleep 1
kill -TERM $!
wait $!
echo "sigterm: exit $?"
if left; then echo "LEFT RUNNING after SIGTERM"; pkill -9 -x vfork_spin; fi
echo done
