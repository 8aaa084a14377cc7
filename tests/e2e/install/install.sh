#!/usr/bin/env bash
# What a user gets from an installed racegate, tested against the install,
# not the build tree.  Run by install.cmake:
#
#   install.sh CASE SOURCE_DIR BUILD_DIR
#
#   prefix    cmake --install into BUILD_DIR/test-install (the fixture)
#   layout    the files are where GNUInstallDirs puts them; racegate runs;
#             the bash completion loads
#   man       the man pages render with man -l, without warnings
#   docs      every guide (NAME.md) that --help, a command's help or a man
#             page names is installed in share/doc/racegate, where they
#             say it is
#   consumer  examples/cmake-consumer, configured against the prefix, builds
#             and its racegate tests pass under ctest
#   triage_consumer  tests/e2e/install/triage_consumer (racegate_add_test's
#             TRIAGE form), configured against the prefix: its tests pass
#             and fail as each says, labelled; each bad call stops the
#             configure with its error
#   deb       cpack -G DEB; the package unpacks (dpkg-deb -x) and runs
set -u
case_=$1 src=$2 build=$3
prefix=$build/test-install

case $case_ in
prefix)
	rm -rf "$prefix"
	cmake --install "$build" --prefix "$prefix" >/dev/null || exit 1
	echo "installed into $prefix"
	;;
layout)
	for f in bin/racegate share/man/man1/racegate.1 share/man/man5/gates.yaml.5 \
		share/racegate/gates.schema.json share/racegate/report.schema.json \
		share/cmake/racegate/racegateConfig.cmake \
		share/cmake/racegate/racegateConfigVersion.cmake \
		share/cmake/racegate/racegateFunctions.cmake share/doc/racegate/README.md \
		share/bash-completion/completions/racegate; do
		[ -e "$prefix/$f" ] && echo "installed: $f" || echo "MISSING: $f"
	done
	"$prefix/bin/racegate" --version
	"$prefix/bin/racegate" run -q "$build/examples/lost_update/gates.yaml"
	# the completion installed is the one the binary makes, and loads
	cmp -s "$prefix/share/bash-completion/completions/racegate" \
		<("$prefix/bin/racegate" completion bash) &&
		bash -c 'source "$1" && complete -p racegate' sh \
			"$prefix/share/bash-completion/completions/racegate"
	;;
man)
	for p in man1/racegate.1 man5/gates.yaml.5; do
		out=$(MANWIDTH=80 MANPAGER=cat man --warnings -l "$prefix/share/man/$p" 2>"$build/man.err") || exit 1
		if [ -s "$build/man.err" ]; then
			echo "warnings rendering $p:"; cat "$build/man.err"; exit 1
		fi
		echo "$out" | head -1
		echo "$out" | grep -E '^(NAME|SYNOPSIS|DESCRIPTION|EXIT STATUS|EXPECT)$'
	done
	;;
docs)
	rg=$prefix/bin/racegate
	doc=$prefix/share/doc/racegate
	cmds=$("$rg" --help | awk '/^$/{exit} {print}' | grep -oE 'racegate [a-z]+' |
		awk '{print $2}' | sort -u)
	{
		"$rg" --help
		"$rg" help gates
		for c in $cmds; do "$rg" help "$c"; done
	} >"$build/install-help.txt" 2>&1
	names=$(cat "$build/install-help.txt" "$prefix"/share/man/man*/* |
		grep -oE '\b([a-z][a-z_-]*|README)\.md' | sort -u)
	[ -n "$names" ] || { echo "MISSING: no guide named"; exit 1; }
	for n in $names; do
		[ -s "$doc/$n" ] && echo "installed: share/doc/racegate/$n" ||
			echo "MISSING: share/doc/racegate/$n"
	done
	for f in "$src"/docs/*.md; do
		[ -s "$doc/${f##*/}" ] || echo "MISSING: share/doc/racegate/${f##*/}"
	done
	grep -q 'share/doc/racegate' "$build/install-help.txt" &&
		echo "--help: says share/doc/racegate"
	grep -q 'share/doc/racegate' "$prefix/share/man/man1/racegate.1" &&
		echo "racegate(1): says share/doc/racegate"
	# no help or man page sends the reader to the source's docs/
	grep -n 'docs/[a-z]*\.md' "$build/install-help.txt" "$prefix"/share/man/man*/* |
		sed 's/^/MISSING: a pointer to share\/doc: /'
	;;
consumer)
	b=$build/test-consumer
	rm -rf "$b"
	cmake -S "$src/examples/cmake-consumer" -B "$b" -DCMAKE_PREFIX_PATH="$prefix" \
		-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF \
		|| exit 1
	cmake --build "$b" || exit 1
	ctest --test-dir "$b" --output-on-failure
	;;
triage_consumer)
	b=$build/test-triage-consumer
	here=$(cd "$(dirname "$0")" && pwd)
	conf() {
		cmake -S "$here/triage_consumer" -B "$b" -DCMAKE_PREFIX_PATH="$prefix" \
			-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
			-DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF \
			-DACCOUNT_DIR="$src/examples/cmake-consumer" "$@"
	}
	rm -rf "$b"
	conf >/dev/null || exit 1
	cmake --build "$b" >/dev/null || exit 1
	# one test at a time, each with its output, in the order they were added
	ctest --test-dir "$b" --output-on-failure
	ctest --test-dir "$b" -N -L triage | grep -E '^Total Tests'
	ctest --test-dir "$b" -N -L kept | grep -E 'Test +#'
	ls "$b/racegate/benign_passes"
	for bad in no_report missing_report bad_tool bad_verdict no_verdict spec_and_triage \
		repeat_and_triage report_without_triage no_command; do
		if conf -DBAD=$bad >"$b/bad.log" 2>&1; then
			echo "BAD $bad: configured"
		else
			echo "BAD $bad: $(grep -A3 'CMake Error' "$b/bad.log" | grep -m1 'racegate_add_test' | sed 's/^ *//')"
		fi
	done
	;;
deb)
	d=$build/test-deb
	rm -rf "$d"
	mkdir -p "$d"
	(cd "$d" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$d") >"$d/cpack.log" 2>&1 ||
		{ cat "$d/cpack.log"; exit 1; }
	deb=$(ls "$d"/*.deb | head -1)
	[ -n "$deb" ] || { echo "no .deb made"; cat "$d/cpack.log"; exit 1; }
	echo "package: $(basename "$deb")"
	dpkg-deb -f "$deb" Package Version Architecture Depends
	dpkg-deb -c "$deb" | awk '{print $6}' | grep -E 'bin/racegate$|man1/racegate.1|man5/gates.yaml.5|gates.schema.json|racegateConfig.cmake'
	dpkg-deb -x "$deb" "$d/root" || exit 1
	"$d/root/usr/bin/racegate" --version
	"$d/root/usr/bin/racegate" run -q "$build/examples/lost_update/gates.yaml"
	;;
*)
	echo "install.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
