# when: conditions are parsed by expr/ when the spec loads: every bad one is
# reported, in the words expr's message table gives, at the column of the
# offending token, and nothing runs.
# (The patterns match a ";" with ".", from when racegate_e2e split a pattern
# at a ';'; it passes each whole now.)
racegate_e2e_specs(when_syntax.yaml)
racegate_e2e(when_syntax_errors 2
  "when_syntax.yaml:6:35: error: bad 'when' condition: '\\?:' is not supported. combine conditions with && and \\|\\|"
  "when_syntax.yaml:7:28: error: bad 'when' condition: '\\$thread' is only compared with a thread alias"
  "when_syntax.yaml:8:38: error: bad 'when' condition: \\$streq takes a char pointer and a string: \\$streq\\(p, \"text\"\\)"
  "when_syntax.yaml:9:35: error: bad 'when' condition: '\\+\\+' changes the program. conditions only read"
  "when_syntax.yaml:10:138: error: bad 'when' condition: the condition is nested too deeply"
  -- ${RG} check ${E2E_DIR}/when_syntax.yaml)

# The table of condition errors in docs/gates.md lists every message expr gives.
add_test(NAME e2e_expr_messages_documented
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/expr_msgs.sh
          ${PROJECT_SOURCE_DIR}/expr/expr_msg.h ${PROJECT_SOURCE_DIR}/docs/gates.md)
set_tests_properties(e2e_expr_messages_documented PROPERTIES LABELS e2e TIMEOUT 60)
