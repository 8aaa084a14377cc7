#!/usr/bin/env bash
# help_man.sh RACEGATE MANPAGE [GATES_MANPAGE]: racegate's option table and
# help, and racegate(1), name the same commands, options and outcomes, and
# `racegate help gates` the same keys as gates.yaml(5), so that neither
# drifts alone.
#
#   - every command of --help's usage has a .B entry under COMMANDS, and
#     every COMMANDS entry is a command of --help;
#   - every command's options, as its option table gives them
#     (`racegate --list-options CMD`: --long, --no-long, -x), are the
#     options named by the man page's OPTIONS entries marked with that
#     command, and back: an entry's tag line names its options, the line
#     after it its commands ("(run, attach)", or "(every command)"); an
#     entry without that mark fails;
#   - `racegate CMD --help` prints each of them, and exits 0;
#   - every option of the man page's SYNOPSIS is some command's;
#   - every outcome --help lists has an entry under OUTCOMES, and back;
#   - the top-level, gate and expect: keys of `racegate help gates` are the
#     entries of gates.yaml(5)'s TOP-LEVEL KEYS, GATES and EXPECT, and back.
#
# The man page is read raw, with roff's \- as - and font escapes dropped.
set -u
rg=$1 man=$2 gates5=${3:-}
help=$("$rg" --help) || { echo "FAIL: '$rg --help' failed"; exit 1; }
unroff() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$1"; }
text=$(unroff "$man")
fail=0

# The lines of man page section NAME (from .SH NAME to the next .SH).
section() { printf '%s\n' "$text" | awk -v s="$1" '/^\.SH /{on = ($2 == s); next} on'; }
# Option tokens: --long-name, or -x alone (not -jJ, -O2, FROM-TO).
options() {
	grep -oE '(^|[^A-Za-z0-9_-])(--[A-Za-z][A-Za-z0-9-]*|-[A-Za-z])([^A-Za-z0-9]|$)' |
		sed -E 's/^[^-]*//; s/[^A-Za-z0-9]$//' | sort -u
}
# Outcome names: upper-case words, with hyphens (not signal names).
outcomes() { grep -oE '\b[A-Z][A-Z]+(-[A-Z]+)*\b' | grep -v '^SIG' | sort -u; }
# Is word $1 in list $2 (one a line)?
has() { printf '%s\n' "$2" | grep -qxF -- "$1"; }
missing() { echo "FAIL: $1"; fail=1; }

# The entries of a section: the first line after each .TP, macro dropped.
entries() { section "$1" | awk 'tp {sub(/^\.[A-Z]+ /, ""); print} {tp = ($1 == ".TP")}'; }

help_cmds=$(printf '%s\n' "$help" | awk '/^$/{exit} {print}' |
	grep -oE 'racegate [a-z]+' | awk '{print $2}' | sort -u)
man_cmds=$(entries COMMANDS | awk '{print $1}' | sort -u)
[ -n "$help_cmds" ] || missing "no command found in --help's usage"
for c in $help_cmds; do
	has "$c" "$man_cmds" || missing "command '$c' of --help has no entry under COMMANDS in $man"
done
for c in $man_cmds; do
	has "$c" "$help_cmds" || missing "command '$c' of $man is not in --help's usage"
done

# OPTIONS entries as "COMMANDS<tab>TAG": the tag line after .TP, and the
# commands of the line after it, "(run, attach)" with its macro dropped.
opt_entries=$(section OPTIONS | awk '
	/^\.TP/ { want = 1; next }
	want == 1 { tag = $0; sub(/^\.[A-Z]+ /, "", tag); want = 2; next }
	want == 2 {
		m = $0; sub(/^\.[A-Z]+ /, "", m); gsub(/"/, "", m)
		if (m !~ /^\(/) m = "NONE"
		printf "%s\t%s\n", m, tag; want = 0
	}')
while IFS=$'\t' read -r mark tag; do
	[ "$mark" = NONE ] && missing "option entry '$tag' of $man says no command (a '(run, attach)' line after it)"
done <<<"$opt_entries"

all_opts=
for c in $help_cmds; do
	table=$("$rg" --list-options "$c" | sort -u) ||
		{ missing "'$rg --list-options $c' failed"; continue; }
	all_opts=$(printf '%s\n%s\n' "$all_opts" "$table")
	man_c=$(printf '%s\n' "$opt_entries" | awk -F '\t' -v c="$c" '
		{ n = split($1, w, /[^a-z]+/); for (i = 1; i <= n; i++)
			if (w[i] == c || w[i] == "every") { print $2; break } }' | options)
	[ -n "$table" ] || missing "no option of '$c' in the table"
	for o in $table; do
		has "$o" "$man_c" || missing "option '$o' of $c is not under OPTIONS (marked $c) in $man"
	done
	for o in $man_c; do
		has "$o" "$table" || missing "option '$o' of $man (marked $c) is not an option of $c"
	done
	chelp=$("$rg" "$c" --help) || missing "'$rg $c --help' did not exit 0"
	for o in $table; do
		printf '%s\n' "$chelp" | options | grep -qxF -- "$o" ||
			missing "option '$o' of $c is not in '$rg $c --help'"
	done
done
for o in $(section SYNOPSIS | options); do
	case $o in --help | --version) continue ;; esac
	has "$o" "$all_opts" || missing "option '$o' of $man's SYNOPSIS is no command's"
done

help_outs=$(printf '%s\n' "$help" | awk '/^Outcomes:/{on = 1} on && /^$/{exit} on' |
	sed 's/^Outcomes://' | outcomes)
man_outs=$(entries OUTCOMES | outcomes)
[ -n "$help_outs" ] || missing "no outcome found in --help"
for o in $help_outs; do
	has "$o" "$man_outs" || missing "outcome '$o' of --help has no entry under OUTCOMES in $man"
done
for o in $man_outs; do
	has "$o" "$help_outs" || missing "outcome '$o' of $man is not in --help's Outcomes"
done

# Two lists of names agree: what of $1 ($2) is missing from $3 ($4), and back.
agree() {
	local a
	for a in $2; do has "$a" "$4" || missing "$1 '$a' of help gates is not under $3 in $gates5"; done
	for a in $4; do has "$a" "$2" || missing "$1 '$a' under $3 in $gates5 is not in help gates"; done
	[ -n "$2" ] || missing "no $1 found in help gates"
}
if [ -n "$gates5" ]; then
	gh=$("$rg" help gates) || missing "'$rg help gates' failed"
	text=$(unroff "$gates5")
	keys() { grep -oE '[a-z_]+' | sort -u; }
	# "Top-level keys: version: 1 (required), name: TEXT, ..."
	help_top=$(printf '%s\n' "$gh" | awk '/^Top-level keys:/{on = 1} on && /^$/{exit} on' |
		sed 's/^Top-level keys://' | grep -oE '[a-z_]+:' | tr -d : | sort -u)
	help_gate=$(printf '%s\n' "$gh" | awk '/^Gate keys:/{on = 1; next} /^[^ ]/{on = 0} on' |
		grep -oE '^  [a-z_]+:' | tr -d ' :' | sort -u)
	help_expect=$(printf '%s\n' "$gh" | awk '/^expect:/{on = 1} on && /^$/{exit} on' |
		sed 's/^expect://' | grep -oE '[a-z]+:' | tr -d : | sort -u)
	agree "top-level key" "$help_top" "TOP-LEVEL KEYS" "$(entries TOP-LEVEL | keys)"
	agree "gate key" "$help_gate" "GATES" "$(entries GATES | keys)"
	agree "expect: key" "$help_expect" "EXPECT" "$(entries EXPECT | keys)"
fi

[ "$fail" -eq 0 ] && echo "option table, --help, $man ${gates5:+and $gates5 }agree: commands:" \
	$help_cmds "; options:" $(printf '%s\n' "$all_opts" | sort -u) "; outcomes:" $help_outs
exit "$fail"
