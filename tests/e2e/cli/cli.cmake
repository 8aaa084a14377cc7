# The command line from its one option table (runner/cli/options.c): every
# command's --help, -h and `help CMD` print its usage and its own options
# and exit 0; an option of another command or a near miss is said so; bash
# completes from the same table (completion.sh).  (";" in a pattern is "."
# here: CMake splits arguments at it.)
set(cli_help_run "--repeat N" "-j, --jobs J" "--follow-fork, --no-follow-fork"
    "--color\\[=auto\\|always\\|never\\]" "-h, --help")
set(cli_help_check "--source-dir DIR" "-v, --verbose" "-h, --help")
set(cli_help_attach "--report FILE.json" "--for D" "--timeout D +the same as --for"
    "-h, --help")
set(cli_help_lines "--vars" "--source-dir DIR" "-h, --help")
set(cli_help_explore "--at LOC\\[,LOC...\\]" "--strategy random\\|pct\\|pct-fair\\|dfs"
    "--delays K" "-j, --jobs J" "-o, --output FILE.yaml" "-h, --help")
set(cli_help_triage "--tsan REPORT" "-o, --output DIR" "--report FILE.json" "--time D"
    "--source-dir DIR" "-h, --help")
set(cli_lacks_run "!--strategy" "!--for ")
set(cli_lacks_check "!--repeat" "!--quiet")
set(cli_lacks_attach "!--repeat" "!--keep-stopped" "!--follow-fork")
set(cli_lacks_lines "!--repeat" "!--verbose")
set(cli_lacks_explore "!--junit" "!--for ")
set(cli_lacks_triage "!--repeat" "!--strategy" "!--verbose")
foreach(c run check attach lines explore triage)
  racegate_e2e(help_${c} 0 "^usage: racegate ${c} " "^Options:" ${cli_help_${c}}
    ${cli_lacks_${c}} "!unknown option" -- ${RG} ${c} --help)
  racegate_e2e(help_${c}_h 0 "^usage: racegate ${c} " "^Options:" ${cli_help_${c}}
    -- ${RG} ${c} -h)
  racegate_e2e(help_cmd_${c} 0 "^usage: racegate ${c} " "^Options:" ${cli_help_${c}}
    -- ${RG} help ${c})
endforeach()
# --help wins over what is missing (no gates file, no program)
racegate_e2e(help_after_options 0 "^usage: racegate explore " "--strategy"
  -- ${RG} explore --strategy dfs --help)

# racegate --help is an overview: the commands a line each, where to read on
add_test(NAME e2e_help_overview_short COMMAND sh -c
  "n=$(\"$1\" --help | wc -l) && echo \"racegate --help: $n lines\" && [ \"$n\" -le 50 ]"
  sh ${RG})
set_tests_properties(e2e_help_overview_short PROPERTIES LABELS e2e TIMEOUT 60)
racegate_e2e(help_overview 0 "^usage: racegate run " "^Commands:" "^  explore +search"
  "racegate CMD --help" "^Exit status:" "!Gate keys:" -- ${RG} --help)
racegate_e2e(help_gates 0 "^Locations" "^A gates file" "^Top-level keys:" "^Gate keys:" "^expect:"
  -- ${RG} help gates)
racegate_e2e(help_unknown_topic 2 "racegate: no help on 'nosuch'" -- ${RG} help nosuch)

# what is wrong with an option, from the table
racegate_e2e(option_near_miss 2
  "^racegate: unknown option '--strateg' \\(did you mean '--strategy'\\?\\)$"
  "^usage: racegate explore " -- ${RG} explore --strateg dfs -- /bin/true)
racegate_e2e(option_of_another_command 2
  "^racegate: unknown option '--strategy' \\(an option of explore. see racegate run --help\\)$"
  -- ${RG} run --strategy dfs g.yaml)
racegate_e2e(option_unknown 2 "^racegate: unknown option '--bogus' \\(see racegate lines --help\\)$"
  -- ${RG} lines --bogus a.c -- /bin/true)
racegate_e2e(option_refused_by_attach 2
  "^racegate: --repeat does not apply to attach: a process is attached to once$"
  -- ${RG} attach --repeat 2 1 g.yaml)
racegate_e2e(command_near_miss 2 "^racegate: unknown command 'exlpore' \\(did you mean 'explore'\\?\\)$"
  -- ${RG} exlpore)

add_test(NAME e2e_completion_bash
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/completion.sh ${RG})
set_tests_properties(e2e_completion_bash PROPERTIES LABELS e2e TIMEOUT 60)
