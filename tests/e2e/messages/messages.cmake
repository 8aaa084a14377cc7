# Setup steps that fail say so (common/msg.h: rg_warn), once a session.

# A static program with no pthread_create: {start:} selectors cannot match.
racegate_e2e_program(nothreads SOURCES nothreads.c LINK_OPTIONS -static NO_THREADS
  SPECS nothreads.yaml)

racegate_e2e(no_thread_library_warns 3
  "^racegate: warning: no pthread_create found in '.*nothreads' or its libraries: \\{start: worker\\} selectors cannot match$"
  "NOT-ENFORCED"
  -- ${RG} run ${E2E_DIR}/nothreads.yaml)
# Once a session, whether the runs happen here or in worker processes.
add_test(NAME e2e_no_thread_library_warns_once
  COMMAND sh -c "n=$(\"$1\" run --repeat 4 -j2 \"$2\" 2>&1 | grep -c 'warning: no pthread_create'); echo \"$n warnings\"; [ \"$n\" -eq 1 ]"
          sh ${RG} ${E2E_DIR}/nothreads.yaml)
set_tests_properties(e2e_no_thread_library_warns_once PROPERTIES LABELS e2e TIMEOUT 300)
# A program that uses threads has nothing to be warned about.
racegate_e2e(thread_library_no_warning 0 "PASSED" "!warning: no pthread_create"
  -- ${RG} run ${E2E_DIR}/hits.yaml)

# A thread made by clone(2) itself, in a program that has pthread_create.
racegate_e2e_program(rawclone SOURCES rawclone.c NO_THREADS SPECS rawclone.yaml)
racegate_e2e(raw_clone_thread_warns 3 "counter = 1"
  "^racegate: warning: a thread of '.*rawclone' started without pthread_create, or with a start routine racegate cannot name: \\{start: worker\\} selectors cannot match it$"
  "NOT-ENFORCED"
  -- ${RG} run ${E2E_DIR}/rawclone.yaml)
