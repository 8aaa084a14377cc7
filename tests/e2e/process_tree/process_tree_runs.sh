#!/usr/bin/env bash
# process_tree_runs.sh RACEGATE DIR: every process of a run is gone before
# the next run starts.  prefork, a pre-fork server, binds a port on
# 127.0.0.1 without SO_REUSEADDR (the kernel's choice in the first run,
# kept in a file: the same port in every later run) and forks a worker
# whose threads are held for ever before their accept.  A worker of an
# earlier run left behind (stopped on its way out) would keep the port, and
# the next run could not bind it ("cannot bind", exit 3: NOT-ENFORCED).
#   verdict: each run ends at its SCHEDULE-DEADLOCK verdict;
#   timeout: each run ends at its timeout (the verdict put off).
# Prints "NAME: exit N" after each racegate, and "port: N".
set -u
rg=$1 dir=$2
cd "$dir" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$rg" run --repeat 10 --follow-fork --expect-outcome SCHEDULE-DEADLOCK \
	prefork.yaml -- ./prefork "$tmp/port" 2>&1
echo "verdict: exit $?"
echo "port: $(cat "$tmp/port" 2>/dev/null)"
"$rg" run --repeat 3 --follow-fork --expect-outcome TIMEOUT --timeout 1s \
	--quiet-period 120s prefork.yaml -- ./prefork "$tmp/port" 8 2>&1
echo "timeout: exit $?"
