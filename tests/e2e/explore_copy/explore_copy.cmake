# explore's fork server (issue 23, item 1; docs/explore.md, "The fork
# server"): each schedule runs in a copy of the program made at its entry
# point.  The copies must be the program as an exec'd run is (thread ids,
# parent, stdin, fork and exec, signals: copy_checks.c exits 1 naming what
# is wrong), the search must find what a new exec per schedule finds, a
# program that cannot be copied faithfully runs anew (copy_refused.c, and
# --verbose says why), and a racegate killed outright leaves nothing.
racegate_e2e_program(copy_checks SOURCES copy_checks.c)
racegate_e2e_program(copy_early SOURCES copy_early.c SHARED)
racegate_e2e_program(copy_refused SOURCES copy_refused.c LIBS e2e_copy_early)
set(XC ${CMAKE_CURRENT_LIST_DIR}/explore_copy.sh)

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
racegate_e2e(explore_copy_same_fixed 0 "no failure after 200 schedules" "same summaries"
  -- ${XC} same ${RG} ${EXAMPLES}/lost_update --at lost_update.c --schedules 200
     -- ./lost_update-fixed)

# not copied, and why; the search runs anew each time all the same
racegate_e2e(explore_copy_refused_fd 0
  "each schedule runs the program anew: the program cannot be copied at its entry point: it opened descriptor [0-9]+ before main"
  "no failure after 20 schedules"
  -- sh -c "cd ${E2E_DIR} && COPY_REFUSED=fd ${RG} explore --verbose --at worker --schedules 20 -- ./copy_refused 2>&1 | grep -v '^racegate: explore: thread'")
# pthread_create is a point (--sync) ...
racegate_e2e(explore_copy_refused_point 0
  "each schedule runs the program anew: .*a point was reached before main"
  "no failure after 20 schedules"
  -- sh -c "cd ${E2E_DIR} && COPY_REFUSED=thread ${RG} explore --verbose --at worker --schedules 20 -- ./copy_refused 2>&1 | grep -v '^racegate: explore: thread'")
# ... or not, and the thread is seen
racegate_e2e(explore_copy_refused_thread 0
  "each schedule runs the program anew: .*a thread was started before main"
  "no failure after 20 schedules"
  -- sh -c "cd ${E2E_DIR} && COPY_REFUSED=thread ${RG} explore --verbose --no-sync --at worker --schedules 20 -- ./copy_refused 2>&1 | grep -v '^racegate: explore: thread'")
# a plain copy says nothing of the kind
racegate_e2e(explore_copy_used 0 "no failure after 20 schedules" "!runs the program anew"
  -- sh -c "cd ${E2E_DIR} && ${RG} explore --verbose --at worker --schedules 20 -- ./copy_refused 2>&1 | grep -v '^racegate: explore: thread'")

# racegate killed outright while copies run: no template, copy or fork left
racegate_e2e(explore_copy_killed 0 "children before: [2-9]" "program after: gone"
  -- ${XC} killed ${RG} ${EXAMPLES}/lost_update --at lost_update.c --schedules 100000
     -- ./lost_update-fixed)
