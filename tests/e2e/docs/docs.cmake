# The documentation cannot drift from the code: racegate --help, racegate(1)
# and gates.yaml(5) name the same commands, options, outcomes and keys.
add_test(NAME e2e_help_matches_man_pages
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/help_man.sh ${RG}
          ${PROJECT_SOURCE_DIR}/docs/racegate.1 ${PROJECT_SOURCE_DIR}/docs/gates.yaml.5)
set_tests_properties(e2e_help_matches_man_pages PROPERTIES LABELS e2e TIMEOUT 60)

# The tutorials of README.md and docs/explore.md, run as written in a copy of
# the built examples: what each marked command prints is what the doc shows
# (doc_tutorials.py says how blocks are marked).
foreach(doc README docs/explore)
  string(REGEX REPLACE ".*/" "" name ${doc})
  string(TOLOWER ${name} name)
  add_test(NAME e2e_docs_tutorial_${name}
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/doc_tutorials.py ${RG}
            ${EXAMPLES} ${PROJECT_SOURCE_DIR}
            ${PROJECT_SOURCE_DIR}/${doc}.md)
  set_tests_properties(e2e_docs_tutorial_${name} PROPERTIES LABELS e2e TIMEOUT 300)
endforeach()
