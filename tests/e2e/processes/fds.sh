#!/bin/sh
# fds.sh RACEGATE DIR: the fds the program starts with under racegate are
# the ones it starts with natively, with fd 7 added and stdin closed.
rg=$1
cd "$2" || exit 2
exec 7</dev/null 0<&-
./fds 2>native.fds || exit 2
"$rg" run -q fds.yaml 2>&1 | grep '^fd ' >traced.fds
if cmp -s native.fds traced.fds; then
	echo "fds same:" $(cat native.fds)
else
	echo "fds differ (native <, racegate >):"
	diff native.fds traced.fds
fi
