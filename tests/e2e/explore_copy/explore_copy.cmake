# explore's fork server (issue 23, item 1; docs/explore.md, "The fork
# server"): each schedule runs in a copy of the program made once the
# dynamic linker has loaded its libraries, before any of its code runs.
# The copies must be the program as an exec'd run is (thread ids, parent,
# stdin, fork and exec, signals, robust mutexes: copy_checks.c; what a
# library's constructor did before main: copy_ctor.c; each exits 1 naming
# what is wrong), the search must find what a new exec per schedule finds,
# --jobs must use copies too, a program that cannot be copied runs anew
# (--verbose says why), and a racegate killed outright leaves nothing.
racegate_e2e_program(copy_checks SOURCES copy_checks.c)
racegate_e2e_program(copy_early SOURCES copy_early.c SHARED)
racegate_e2e_program(copy_ctor SOURCES copy_ctor.c LIBS e2e_copy_early)
racegate_e2e_program(copy_static SOURCES copy_ctor.c copy_early.c LINK_OPTIONS -static)
set(XC ${CMAKE_CURRENT_LIST_DIR}/explore_copy.sh)
set(XC_OUT ${CMAKE_CURRENT_BINARY_DIR}/explore_copy)
file(MAKE_DIRECTORY ${XC_OUT})

# every copy is the program as an exec'd run is, one at a time and two at once
racegate_e2e(explore_copy_checks 0 "no failure after 40 schedules" "!wrong:"
  "!runs the program anew"
  -- sh -c "cd ${E2E_DIR} && printf hello | ${RG} explore --verbose --at copy_checks.c --schedules 40 -- ./copy_checks hello")
racegate_e2e(explore_copy_checks_jobs 0 "no failure after 40 schedules" "!wrong:"
  "!runs the program anew"
  -- sh -c "cd ${E2E_DIR} && printf hello | ${RG} explore --verbose -j 2 --at copy_checks.c --schedules 40 -- ./copy_checks hello")
# ... and as checked here, without the fork server
racegate_e2e(explore_copy_checks_exec 0 "no failure after 40 schedules" "!wrong:"
  -- sh -c "cd ${E2E_DIR} && printf hello | ${RG} explore --no-fork-server --at copy_checks.c --schedules 40 -- ./copy_checks hello")

# the same search, failure, shrinking and file as a new exec per schedule
racegate_e2e(explore_copy_same_lost_update 0 "fork-server exit 1" "no-fork-server exit 1"
  "FAILED \\(exit status 1\\)" "shrunk to" "same summaries"
  -- ${XC} same ${RG} ${EXAMPLES}/lost_update --at lost_update.c --seed 5 -- ./lost_update)
racegate_e2e(explore_copy_same_abba_dfs 0 "FAILED \\(deadlock\\)" "same summaries"
  -- ${XC} same ${RG} ${EXAMPLES}/abba_deadlock --strategy dfs --at abba_deadlock.c
     -- ./abba_deadlock)
racegate_e2e(explore_copy_same_string_buffer_pct 0 "FAILED" "same summaries"
  -- ${XC} same ${RG} ${EXAMPLES}/string_buffer --strategy pct --seed 2 --at sbuf.c
     -- ./string_buffer)
racegate_e2e(explore_copy_same_fixed 0 "no failure after 100 schedules" "same summaries"
  -- ${XC} same ${RG} ${EXAMPLES}/lost_update --at lost_update.c --schedules 100
     -- ./lost_update-fixed)

# what a library's constructor did before main, each copy did itself:
# one template's copies all have its addresses (one per --jobs slot),
# where each exec'd run has its own
racegate_e2e(explore_copy_ctor 0 "no failure after 20 schedules" "!wrong:"
  "!runs the program anew" "^1 address$"
  -- sh -c "cd ${E2E_DIR} && rm -f ${XC_OUT}/a1 && printf abcdef | COPY_LOG=${XC_OUT}/a1 ${RG} explore --verbose --at worker --schedules 20 -- ./copy_ctor 2>&1 | grep -v '^racegate: explore: thread'; echo \"$(sort -u ${XC_OUT}/a1 | wc -l) address\"")
racegate_e2e(explore_copy_ctor_jobs 0 "no failure after 20 schedules" "!wrong:"
  "!runs the program anew" "^2 address$"
  -- sh -c "cd ${E2E_DIR} && rm -f ${XC_OUT}/a2 && printf abcdef | COPY_LOG=${XC_OUT}/a2 ${RG} explore --verbose -j 2 --at worker --schedules 20 -- ./copy_ctor 2>&1 | grep -v '^racegate: explore: thread'; echo \"$(sort -u ${XC_OUT}/a2 | wc -l) address\"")
racegate_e2e(explore_copy_ctor_exec 0 "no failure after 20 schedules" "!wrong:"
  "^20 address$"
  -- sh -c "cd ${E2E_DIR} && rm -f ${XC_OUT}/a3 && printf abcdef | COPY_LOG=${XC_OUT}/a3 ${RG} explore --no-fork-server --at worker --schedules 20 -- ./copy_ctor 2>&1; echo \"$(sort -u ${XC_OUT}/a3 | wc -l) address\"")

# not copied, and why: a static program; the search runs anew each time
racegate_e2e(explore_copy_static_anew 0
  "each schedule runs the program anew: the program cannot be copied: .*a static program"
  "no failure after 10 schedules" "!wrong:"
  -- sh -c "cd ${E2E_DIR} && printf abcdef | ${RG} explore --verbose --no-sync --at worker --schedules 10 -- ./copy_static 2>&1 | grep -v '^racegate: explore: thread'")

# racegate killed outright while copies run: no template, copy or fork left
racegate_e2e(explore_copy_killed 0 "children before: [2-9]" "program after: gone"
  -- ${XC} killed ${RG} ${EXAMPLES}/lost_update --at lost_update.c --schedules 100000
     -- ./lost_update-fixed)
racegate_e2e(explore_copy_killed_jobs 0 "children before: [2-9]" "program after: gone"
  -- ${XC} killed ${RG} ${EXAMPLES}/lost_update -j 2 --at lost_update.c --schedules 100000
     -- ./lost_update-fixed)
