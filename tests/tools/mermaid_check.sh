#!/usr/bin/env bash
# mermaid_check.sh DIR FILE.md...: installs the mermaid package pinned by
# package-lock.json into DIR (once: `npm ci`, kept while the lock file is
# the same) and checks that every ```mermaid block of the files parses
# (mermaid_check.mjs).  Exits 77, which ctest reads as a skip, when node
# or npm is absent; a failed install is a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: mermaid_check.sh DIR FILE.md...}
shift
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "mermaid_check: node and npm are needed to parse Mermaid: skipped"
	exit 77
fi
mkdir -p "$dir" || exit 2
# tests that run at once share DIR: one installs, the others wait for it
exec 9>"$dir/.lock" && flock 9 || exit 2
if ! cmp -s "$here/package-lock.json" "$dir/package-lock.json" ||
   [ ! -d "$dir/node_modules/mermaid" ]; then
	cp "$here/package.json" "$here/package-lock.json" "$dir/" || exit 2
	# quiet unless it fails
	if ! (cd "$dir" && npm ci --no-audit --no-fund >npm.log 2>&1); then
		cat "$dir/npm.log"
		rm -f "$dir/package-lock.json"   # try again next time
		echo "mermaid_check: npm ci failed"
		exit 2
	fi
fi
# node resolves `import 'mermaid'` from the script's folder
cp "$here/mermaid_check.mjs" "$dir/" || exit 2
exec 9>&-
exec node "$dir/mermaid_check.mjs" "$@"
