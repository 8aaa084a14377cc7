# racegate explore within its --time and cut short (issue 23, items 5 and
# 7): --time bounds the search, shrinking and the replays of the file
# together, and the best file is written, marked unverified with its tally,
# when the time runs out or a signal comes; a thread the failing schedule
# kept held until the failure (main gone into its return while a checker
# asserts) is held by the file too.  See explore_budget.sh.
set(XB ${CMAKE_CURRENT_LIST_DIR}/explore_budget.sh)
racegate_e2e_program(explore_mainret SOURCES explore_mainret.c)

# main returns while the checker is about to assert: the shrunk schedule's
# file holds main where the schedule left it until the failure, so it
# reproduces every time (it let main go on, and exit() won: 1/10, or none
# written)
racegate_e2e(explore_main_returns_held 0 "FAILED \\(killed by SIGABRT\\)"
  "shrunk to dev:" "wrote .*r.yaml: reproduced 20/20" "explore exit 1"
  "name: main-.*wait: .*exited:" "20 runs: 20 REPRODUCED" "run exit 0"
  "!the schedule as found" "!no gates file"
  -- ${XB} write ${RG} ${E2E_DIR} --at explore_mainret.c -- ./explore_mainret)

# each run lasts 250 ms: the search finds the failure, shrinking is cut for
# the replays' share, the replays stop at --time, and the file is written
# marked unverified with its tally; it reproduces
racegate_e2e(explore_time_bounds_all 0 "FAILED \\(killed by SIGABRT\\)"
  "shrunk to dev:.*cut short for the time left \\(--time\\)"
  "wrote .*r.yaml, unverified: reproduced [0-9]+ of [0-9]+ replays? before the time \\(--time\\) ran out"
  "explore exit 1" "^# unverified: reproduced [0-9]+ of [0-9]+ replays? before the time"
  "^# Written by racegate explore" "20 runs: 20 REPRODUCED" "run exit 0"
  -- ${XB} write ${RG} ${E2E_DIR} --strategy dfs --time 10s --at explore_mainret.c
     -- ./explore_mainret 250)

# SIGINT while the file is replayed: the file so far, marked unverified
racegate_e2e(explore_sigint_in_verify 0 "explore exit 130" "FAILED \\(killed by SIGABRT\\)"
  "replay: "
  "wrote .*r.yaml, unverified: reproduced [0-9]+ of [0-9]+ replays? before racegate was interrupted \\(SIGINT\\)"
  "interrupted by SIGINT after the failure above was found.*written is unverified"
  "^# unverified: reproduced [0-9]+ of [0-9]+ replays? before racegate was interrupted"
  "5 runs: 5 REPRODUCED" "run exit 0"
  -- ${XB} sigint ${RG} ${E2E_DIR} --strategy dfs --verify 1000 --at explore_mainret.c
     -- ./explore_mainret 100)

# shrinking with --jobs: each round's candidates run at once, taken in
# order, so the shrunk id and the count of runs are those of --jobs 1; the
# file (from the shrunk schedule run again in racegate) reproduces
racegate_e2e(explore_shrink_jobs_alike 0 "^jobs 2: +shrunk to dev:[0-9x.,]+ \\([0-9]+ preemptions?, [0-9]+ decisions\\) in [0-9]+ runs$"
  "^same shrink$" "wrote .*jobs2.yaml: reproduced 20/20"
  -- sh -c "cd ${EXAMPLES}/string_buffer && a=$(${RG} explore --at sbuf.c --seed 3 -o ${CMAKE_CURRENT_BINARY_DIR}/jobs1.yaml -- ./string_buffer | grep 'shrunk to') && b=$(${RG} explore --at sbuf.c --seed 3 -j 2 -o ${CMAKE_CURRENT_BINARY_DIR}/jobs2.yaml -- ./string_buffer | tee /dev/stderr | grep 'shrunk to') && echo \"jobs 2: $b\" && test \"$a\" = \"$b\" && echo same shrink")
