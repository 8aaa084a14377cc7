# The documentation cannot drift from the code: racegate --help, racegate(1)
# and gates.yaml(5) name the same commands, options, outcomes and keys.
add_test(NAME e2e_help_matches_man_pages
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/help_man.sh ${RG}
          ${PROJECT_SOURCE_DIR}/docs/racegate.1 ${PROJECT_SOURCE_DIR}/docs/gates.yaml.5)
set_tests_properties(e2e_help_matches_man_pages PROPERTIES LABELS e2e TIMEOUT 60)
