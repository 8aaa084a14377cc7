# The command line from its one option table (runner/cli/options.c): what
# is wrong with an option is said from the table: a near miss with "did you
# mean", an option of another command with whose it is, one a command
# refuses with why.  (";" in a pattern is "." here: CMake splits arguments
# at it.)
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
