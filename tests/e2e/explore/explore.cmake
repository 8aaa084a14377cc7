# racegate explore (issue 14): each example's bug found from --at on its
# source file alone, the gates file it writes reproducing 20/20 under
# racegate run, the failing schedule replayed by its id; fixed variants
# explored without a failure; the command's errors.  See explore.sh.
set(EXPLORE ${CMAKE_CURRENT_LIST_DIR}/explore.sh)
set(XP ${EXPLORE} find ${RG} ${PROJECT_BINARY_DIR})

set(found_rest "wrote .*reproduced 20/20 under racegate run" "wrote .*the bug report"
  "explore exit 1" "markdown: mermaid" "markdown: [1-9][0-9]* switches" "thread: worker_[12], at: \"lost_update.c:([0-9]+|/[^\"]*/)(\\+[0-9]+)?\".*open:"
  "expect:" "exit: 1" "20 runs: 20 REPRODUCED" "run exit 0" "FAILED" "replay exit 1"
  "report: [0-9]+ schedules, exit status dev:")
set(found_lost "FAILED \\(exit status 1\\)" ${found_rest})
racegate_e2e(explore_lost_update_random 0 ${found_lost}
  -- ${XP} lost_update lost_update.c --strategy random --seed 3)
racegate_e2e(explore_lost_update_pct 0 ${found_lost}
  -- ${XP} lost_update lost_update.c --strategy pct --depth 2 --seed 5)
racegate_e2e(explore_lost_update_dfs 0 "FAILED \\(exit status 1\\) after [0-9]+ schedules .*dfs$"
  "failing schedule: dev:[^ ]+ \\(1 preemption," ${found_rest}
  -- ${XP} lost_update lost_update.c --strategy dfs --preemptions 1)
# --no-sync: only the source lines are points
racegate_e2e(explore_lost_update_no_sync 0 ${found_lost}
  -- ${XP} lost_update lost_update.c --no-sync)
# a lock-order inversion is found as a deadlock, and written as one
racegate_e2e(explore_abba_deadlock 0 "FAILED \\(deadlock\\)"
  "wrote .*reproduced 20/20" "explore exit 1" "deadlock: true"
  "20 runs: 20 REPRODUCED" "run exit 0" "replay exit 1" "report: .* deadlock dev:"
  -- ${XP} abba_deadlock abba_deadlock.c)
foreach(ex array_list shared_memory hoisted_count)
  racegate_e2e(explore_${ex} 0 "FAILED" "wrote .*reproduced 20/20" "explore exit 1"
    "20 runs: 20 REPRODUCED" "run exit 0" "replay exit 1"
    -- ${XP} ${ex} ${ex}.c)
endforeach()
# the race spans a library (the examples's sbuf.c): a failure with many
# preemptions shrinks to the two the bug needs
racegate_e2e(explore_string_buffer_shrinks 0 "FAILED \\(exit status 1\\)"
  "shrunk to dev:[^ ]+ \\(2 preemptions," "wrote .*reproduced 20/20" "explore exit 1"
  "20 runs: 20 REPRODUCED" "run exit 0" "replay exit 1"
  -- ${XP} string_buffer sbuf.c)
# the race is in a shared library's source: its lines are points too
racegate_e2e(explore_ledger_library 0 "FAILED \\(exit status 1\\)" "wrote .*reproduced 20/20"
  "explore exit 1" "at: \"ledger.c:([0-9]+|/[^\"]*/)(\\+[0-9]+)?\"" "20 runs: 20 REPRODUCED" "run exit 0" "replay exit 1"
  -- ${EXPLORE} findin ${RG} ${PROJECT_BINARY_DIR} ${EXAMPLES}/ledger bank ledger.c)
# the race inside one line: points at its instructions
racegate_e2e(explore_lost_count_instructions 0 "FAILED \\(exit status 1\\)"
  "wrote .*reproduced 20/20" "20 runs: 20 REPRODUCED" "run exit 0" "replay exit 1"
  -- ${XP} lost_count lost_count.c:19,lost_count.c:19+1,lost_count.c:19+2)
# a bare FUNCTION is every line of it (5), and the store to the global
# counter inside line 23 (its load is line 21's first instruction)
racegate_e2e(explore_function_points 0 "FAILED \\(exit status 1\\).*, 6 scheduling points,"
  "wrote .*reproduced 20/20" "explore exit 1" "at: \"lost_update.c:([0-9]+|/[^\"]*/)(\\+[0-9]+)?\"" "20 runs: 20 REPRODUCED" "replay exit 1"
  -- ${XP} lost_update counter_increment --no-sync)
# The file explore writes names its places by anchors, so it runs against
# a build whose lines moved: lost_update with three lines added at its top
# (made here from the example's source).  Before anchors, its FILE:LINE+N
# gates stood three lines too high.
set(MOVED ${E2E_DIR}/lost_update_moved)
file(READ ${PROJECT_SOURCE_DIR}/examples/lost_update/lost_update.c LU_SRC)
file(WRITE ${MOVED}/lost_update.c "/* lost_update, with three lines\n * added above its code: a fix that\n * moved every line. */\n${LU_SRC}")
racegate_e2e_program(lost_update_moved SOURCES ${MOVED}/lost_update.c DIR ${MOVED}
  OUTPUT lost_update)
racegate_e2e(explore_file_runs_moved_lines 0 "at: \"lost_update.c:/[^\"]*/(\\+[0-9]+)?\""
  "^racegate: 20 runs: 20 REPRODUCED$"
  -- sh -c "cd ${EXAMPLES}/lost_update && ${RG} explore --at lost_update.c -o ${MOVED}/repro.yaml -- ./lost_update >/dev/null; grep 'at:' ${MOVED}/repro.yaml; ${RG} run -q --repeat 20 ${MOVED}/repro.yaml -- ${MOVED}/lost_update 2>&1 | tail -n 1")
# A line whose code is on other lines too is anchored on its comment: the
# one point, STEP-TWO-ÜBER, is written as explore_tagged.c:/STEP-TWO-ÜBER/
# (it was FILE:LINE; then /STEP-TWO-/ cut at the Ü), and that file
# reproduces on a build whose lines moved.
set(TAGGED ${E2E_DIR}/explore_tagged_moved)
file(READ ${CMAKE_CURRENT_LIST_DIR}/explore_tagged.c TAGGED_SRC)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_CURRENT_LIST_DIR}/explore_tagged.c
             ${PROJECT_SOURCE_DIR}/examples/lost_update/lost_update.c)
file(WRITE ${TAGGED}/explore_tagged.c "/* three lines\n * added above\n * the code */\n${TAGGED_SRC}")
racegate_e2e_program(explore_tagged SOURCES explore_tagged.c)
racegate_e2e_program(explore_tagged_moved SOURCES ${TAGGED}/explore_tagged.c DIR ${TAGGED}
  OUTPUT explore_tagged)
racegate_e2e(explore_file_anchors_comment 0 "FAILED \\(exit status 1\\)"
  "at: \"explore_tagged.c:/STEP-TWO-ÜBER/\"" "^racegate: 20 runs: 20 REPRODUCED$"
  -- sh -c "cd ${CMAKE_CURRENT_LIST_DIR} && line=$(grep -n STEP-TWO explore_tagged.c | cut -d: -f1) && ${RG} explore --no-sync --at explore_tagged.c:$line -o ${TAGGED}/repro.yaml -- ${E2E_DIR}/explore_tagged > ${TAGGED}/out; head -n 1 ${TAGGED}/out; grep 'at:' ${TAGGED}/repro.yaml; ${RG} run -q --repeat 20 ${TAGGED}/repro.yaml -- ${TAGGED}/explore_tagged 2>&1 | tail -n 1")
# a failure that needs no order (every run fails): found in the default
# order, and said to fail so in plain runs (not traced);
# hoisted_count's race, also found in the default order, fails only in
# that order, and gets no such line
racegate_e2e_program(explore_no_race SOURCES explore_no_race.c)
racegate_e2e(explore_no_race_alone 0 "FAILED \\(exit status 1\\)"
  "shrunk to dev: \\(0 preemptions,"
  "it fails this way in 5 of 5 plain runs too \\(not traced\\)"
  "^explore exit 1$" "^report fails_alone: 5$"
  "^It failed this way in 5 of 5 plain runs too \\(not traced\\)"
  -- sh -c "${RG} explore --at explore_no_race.c --report ${E2E_DIR}/no_race.json --markdown ${E2E_DIR}/no_race.md -- ${E2E_DIR}/explore_no_race; echo explore exit $?; python3 -c 'import json,sys; print(\"report fails_alone:\", json.load(open(sys.argv[1]))[\"failures\"][0][\"fails_alone\"])' ${E2E_DIR}/no_race.json; grep 'plain runs' ${E2E_DIR}/no_race.md")
racegate_e2e(explore_race_not_alone 0 "FAILED" "shrunk to dev: \\(0 preemptions,"
  "^no-order lines: 0$" "^report fails_alone: 0 passed_before: False$"
  -- sh -c "cd ${EXAMPLES}/hoisted_count && ${RG} explore --at hoisted_count.c --report ${E2E_DIR}/race_not_alone.json -- ./hoisted_count > ${E2E_DIR}/race_not_alone.out; grep -E 'FAILED|shrunk' ${E2E_DIR}/race_not_alone.out; echo no-order lines: $(grep -c 'plain runs\\|earlier schedule' ${E2E_DIR}/race_not_alone.out); python3 -c 'import json,sys; f = json.load(open(sys.argv[1]))[\"failures\"][0]; print(\"report fails_alone:\", f[\"fails_alone\"], \"passed_before:\", f[\"passed_before\"])' ${E2E_DIR}/race_not_alone.json")
# a failure the order does not decide: the program fails every other run
# (a count in a file), so the second schedule, the same interleaving as
# the first, fails; the summary, the advice, the bug report and the JSON
# report say the interleaving had passed; hoisted_count's says it had not
racegate_e2e_program(explore_every_other SOURCES explore_every_other.c)
racegate_e2e(explore_passed_before 0 "FAILED \\(exit status 1\\) after 2 schedules \\(1 distinct"
  "^  its interleaving passed in an earlier schedule: the failure does not follow from the order at the points alone$"
  "^  no gates file written: "
  "^  to try: make fixed what the program decides by itself"
  "^explore exit 1$" "^report passed_before: True$"
  "^Its interleaving passed in an earlier schedule of the search"
  -- sh -c "rm -f ${E2E_DIR}/every_other.count; ${RG} explore --at worker --no-sync --points lines -o ${E2E_DIR}/every_other.yaml --report ${E2E_DIR}/every_other.json --markdown ${E2E_DIR}/every_other.md -- ${E2E_DIR}/explore_every_other ${E2E_DIR}/every_other.count; echo explore exit $?; python3 -c 'import json,sys; print(\"report passed_before:\", json.load(open(sys.argv[1]))[\"failures\"][0][\"passed_before\"])' ${E2E_DIR}/every_other.json; grep 'earlier schedule' ${E2E_DIR}/every_other.md")
# the same seed finds the same schedule
racegate_e2e(explore_same_seed 0 "same failing schedule: random:9:[0-9]+$"
  -- ${EXPLORE} seed ${RG} ${PROJECT_BINARY_DIR} lost_update lost_update.c 9)
# --time bounds the search of a fixed program
racegate_e2e(explore_time_limit 0 "no failure after [0-9]+ schedules \\([0-9]+ distinct"
  -- ${RG} explore --at lost_update.c --time 2s --schedules 100000000
     -- ${EXAMPLES}/lost_update/lost_update-fixed)

# --shard 1/2 runs the odd schedule indices only
racegate_e2e(explore_shard 0 "seed 1, shard 1/2$" "failing schedule: random:1:[0-9]*[13579] "
  "explore exit 1" -- ${XP} lost_update lost_update.c --shard 1/2)

# hostile programs: a spin-wait is no failure of the program; a deadlock
# behind a condition variable is found and written as one
foreach(prog explore_spin explore_condq explore_two_preemptions)
  racegate_e2e_program(${prog} SOURCES ${prog}.c)
endforeach()
foreach(s random dfs)
  racegate_e2e(explore_spin_${s} 0 "no failure after 10 schedules"
    -- ${RG} explore --at explore_spin.c --strategy ${s} --schedules 10
       -- ${E2E_DIR}/explore_spin)
endforeach()
racegate_e2e(explore_condvar_deadlock 0 "FAILED \\(deadlock\\)" "wrote .*reproduced 20/20"
  "explore exit 1" "deadlock: true" "20 runs: 20 REPRODUCED" "run exit 0" "replay exit 1"
  -- ${EXPLORE} findin ${RG} ${PROJECT_BINARY_DIR} ${E2E_DIR} explore_condq explore_condq.c)

# a bug that needs two preemptions: found within two (dfs runs every
# schedule with fewer first: that none of those fails, and that the search
# says so, explore_example_busy_flag_bound_1 checks), written as two
# wait/open pairs
racegate_e2e(explore_dfs_bound_2 0 "FAILED \\(exit status 1\\).*dfs$"
  "failing schedule: dev:[^ ]+ \\(2 preemptions," "wrote .*reproduced 20/20"
  "explore exit 1" "writer_1-1, thread: writer_1, .*wait: \\[exited:reader_._1\\]"
  "writer_1-3, thread: writer_1, .*wait: \\[exited:reader_._1\\]"
  "20 runs: 20 REPRODUCED" "run exit 0" "replay exit 1"
  -- ${EXPLORE} findin ${RG} ${PROJECT_BINARY_DIR} ${E2E_DIR} explore_two_preemptions
     explore_two_preemptions.c --strategy dfs --preemptions 2 --points lines)

# fixed variants (nothing found, exit 0, no gates file): every example's,
# in explore_examples

# errors: exit 2 and a message that says what is wrong
set(LU ${EXAMPLES}/lost_update/lost_update)
racegate_e2e(explore_bad_replay 2 "--replay: bad schedule id 'dev:1.2'"
  -- ${RG} explore --replay dev:1.2 -- ${LU})
racegate_e2e(explore_bad_shard 2 "--shard takes I/N with 0 <= I < N, not '2/2'"
  -- ${RG} explore --shard 2/2 -- ${LU})
racegate_e2e(explore_two_bounds 2 "--delays and --preemptions are two bounds of dfs: give one"
  -- ${RG} explore --strategy dfs --delays 2 --preemptions 1 -- ${LU})
racegate_e2e(explore_bad_delays 2 "--delays takes a number from 0 to 64, not 'two'"
  -- ${RG} explore --strategy dfs --delays two -- ${LU})
racegate_e2e(explore_bound_not_dfs 2
  "--delays and --preemptions bound a dfs search. --strategy random takes neither"
  -- ${RG} explore --delays 2 -- ${LU})
# a search cut short by --schedules says it did not run everything
racegate_e2e(explore_dfs_stopped 0 "no failure after 5 schedules .*dfs$"
  "the search stopped before every schedule with at most 3 delays had run \\(--schedules 5\\)"
  "!^  every schedule with at most"
  -- ${RG} explore --strategy dfs --schedules 5 --at lost_update.c -- ${LU}-fixed)
# no delay: the default order alone, and the search says it ran everything
racegate_e2e(explore_dfs_delays_0 0 "no failure after 1 schedule .*dfs$"
  "every schedule with at most 0 delays was run"
  -- ${RG} explore --strategy dfs --delays 0 --at lost_update.c -- ${LU})
# dfs shards split the tree (explore_search.cmake checks they add up)
racegate_e2e(explore_dfs_shard 0 "dfs, shard 0/2$"
  "every schedule of shard 0/2 with at most 3 delays was run"
  -- ${RG} explore --strategy dfs --shard 0/2 -- ${LU})
racegate_e2e(explore_no_program 2 "explore needs the program to run after '--'"
  -- ${RG} explore --at lost_update.c)
racegate_e2e(explore_unknown_file 2 "--at 'nosuch.c'"
  -- ${RG} explore --at nosuch.c -- ${LU})
racegate_e2e(explore_bad_line 2 "lost_update.c:1"
  -- ${RG} explore --at lost_update.c:1 -- ${LU})

# The progress line: on a terminal, one line redrawn for the search, the
# shrinking and the replays of the gates file, in that order, with counts,
# taken off before each line explore prints; in a pipe or a file, none
racegate_e2e(explore_progress_tty 0 "explore on a terminal exit 1"
  "^tty: explore searching: [0-9]+/1000 schedules, [0-9]+ distinct, [0-9.]+ s$"
  "^tty: explore shrinking: [0-9]+ runs, [0-9.]+ s$"
  "^tty: explore verifying: [0-9]+/20 replays, [0-9.]+ s$"
  "^tty phases: searching shrinking verifying $"
  "^tty line:   shrunk to dev:" "^tty line:   wrote .*reproduced 20/20"
  "explore in a pipe exit 1" "^in a pipe: 0 progress lines$"
  "^pipe line:   shrunk to dev:" "^pipe line:   wrote .*reproduced 20/20"
  -- ${CMAKE_CURRENT_LIST_DIR}/explore_progress.sh ${RG} ${EXAMPLES}/lost_update
     lost_update --at lost_update.c)
