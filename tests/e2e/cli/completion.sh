#!/usr/bin/env bash
# completion.sh RACEGATE: `racegate completion bash` loads into bash and
# completes as a user would press TAB: commands, a command's own options
# (not another's), the words, files and folders an option's value takes,
# the gates file, and nothing of racegate's after `--`.
#
# Each case sets COMP_WORDS/COMP_CWORD as bash does (a word split at '='
# too) and calls the completion function, as `complete -F` would.
set -u
rg=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
script=$("$rg" completion bash) || { echo "FAIL: '$rg completion bash' failed"; exit 1; }
# shellcheck disable=SC1090
source <(printf '%s\n' "$script")
complete -p racegate >/dev/null || { echo "FAIL: no completion for racegate"; exit 1; }
cd "$dir" || exit 1
mkdir sub && touch gates.yaml other.yml notes.txt report.json
fail=0

# comp WORD... : the completions of the last word, sorted, space-separated
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_racegate racegate "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//'
}
# want "WORDS..." EXPECTED: the completions must be exactly EXPECTED
want() {
	local got
	got=$(eval comp "$1")
	if [ "$got" = "$2" ]; then
		echo "ok: racegate ${1#racegate } -> $got"
	else
		echo "FAIL: racegate ${1#racegate }: got '$got', want '$2'"
		fail=1
	fi
}
# has "WORDS..." WORD: WORD must be among the completions; lacks: must not
has() {
	local got
	got=" $(eval comp "$1") "
	case $got in *" $2 "*) echo "ok: racegate ${1#racegate } has $2" ;;
	*) echo "FAIL: racegate ${1#racegate }: '$2' not in '$got'"; fail=1 ;; esac
}
lacks() {
	local got
	got=" $(eval comp "$1") "
	case $got in *" $2 "*) echo "FAIL: racegate ${1#racegate }: '$2' in '$got'"; fail=1 ;;
	*) echo "ok: racegate ${1#racegate } lacks $2" ;; esac
}

want "racegate ex" "explore"
want "racegate explore --str" "--strategy"
want "racegate explore --strategy ''" "dfs pct pct-fair random"
want "racegate explore --strategy = ''" "dfs pct pct-fair random"
want "racegate run --on-deadlock r" "release"
want "racegate run --color = a" "always auto"
want "racegate run --expect-outcome REPRODUCED,PA" "REPRODUCED,PASSED"
want "racegate run --no-f" "--no-fastpath --no-follow-fork"
want "racegate run --str" ""                          # explore's, not run's
want "racegate run ''" "gates.yaml other.yml sub"     # the gates file
want "racegate run --repeat 3 ''" "gates.yaml other.yml sub"
want "racegate run --repeat ''" ""                    # a number
want "racegate run --report r" "report.json"
want "racegate run --source-dir ''" "sub"
want "racegate run gates.yaml -- ./prog --str" ""    # the program's own
want "racegate attach 1234 ''" "gates.yaml other.yml sub"
want "racegate check -" "--help --source-dir --verbose -h -v"
want "racegate lines --v" "--vars"
want "racegate help ex" "explore"
want "racegate completion ''" "bash"
has "racegate explore -- ''" "ls"
has "racegate ''" "completion"
lacks "racegate explore --" "--repeat"
has "racegate explore --" "--fewer-gates"
exit "$fail"
