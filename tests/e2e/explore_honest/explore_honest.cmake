# racegate explore must not report what did not happen (issue 21, items
# 10-13): the program's stdin is part of the test, a failure is kept of its
# kind and detail, runs cut by --timeout are counted, the JSON report
# speaks of one schedule per field, and the summary is printed whatever
# moment a signal comes.  See explore_honest.sh.
set(XH ${CMAKE_CURRENT_LIST_DIR}/explore_honest.sh)
foreach(prog explore_stdin explore_twoexits)
  racegate_e2e_program(${prog} SOURCES ${prog}.c)
endforeach()
racegate_e2e_program(explore_fallback SOURCES explore_fallback.c
  explore_fallback_canary.c explore_fallback_twin.c)

# The word on stdin is read once and every run gets it: the schedules, the
# shrinking (which read nothing before, exited 3 and took that for the
# failure), the replays of the file, racegate run of it (with its own stdin
# empty or closed) and the printed replay line
racegate_e2e(explore_stdin_every_run 0 "FAILED \\(exit status 1\\)"
  "every run got the same 6 bytes on stdin" "shrunk to dev:[^ ]+ \\(1 preemption"
  "replay: printf 'hello.n' \\| racegate explore " "wrote .*reproduced 20/20"
  "explore exit 1" "^stdin: \"hello\\\\n\"$" "^  exit: 1$" "20 runs: 20 REPRODUCED"
  "^run exit 0$" "5 runs: 5 REPRODUCED" "run, stdin closed, exit 0"
  "FAILED \\(exit status 1\\) after 1 schedule .*replay$" "replay exit 1"
  "report: stdin 6 bytes, exit status exit 1" "r.yaml: valid" "r.json: valid"
  "!exit: 3" "!no input"
  -- ${XH} stdin ${RG} ${E2E_DIR} "hello\\n" --at explore_stdin.c -- ./explore_stdin)
# bytes that are not UTF-8 (an 0xff, with a NUL) go to a file beside the
# gates file, which names it
racegate_e2e(explore_stdin_binary_file 0 "FAILED \\(exit status 1\\)"
  "wrote .*reproduced 20/20" "wrote .*r.stdin: the program's stdin" "explore exit 1"
  "^stdin: \\{file: \"r.stdin\"\\}$" "r.stdin: the same bytes" "20 runs: 20 REPRODUCED"
  "run, stdin closed, exit 0" "replay exit 1" "report: stdin 7 bytes"
  -- ${XH} stdin ${RG} ${E2E_DIR} "h\\000\\377llo\\n" --at explore_stdin.c
     -- ./explore_stdin)
# racegate run honours stdin: too, as text and as {file: PATH}
racegate_e2e(run_stdin_key 0 "stdin: \"hello.n\": run exit 0$"
  "stdin: \"hello.n\", racegate's closed: run exit 0"
  "stdin: \\{file: in.txt\\}: run exit 0" "stdin: \\{file: in.txt\\}, racegate's closed: run exit 0"
  -- ${XH} run_stdin ${RG} ${E2E_DIR})

# A failure is matched by kind and detail: the lost update (exit 1) is
# shrunk to a lost update, not to "worker 2 first" (exit 2), which the
# file then expected while the summary said exit 1
racegate_e2e(explore_shrink_keeps_exit_status 0 "FAILED \\(exit status 1\\)"
  "wrote .*reproduced 20/20" "explore exit 1" "^  exit: 1$"
  "FAILED \\(exit status 1\\) after 1 schedule .*replay$" "replay exit 1"
  "!^  exit: 2$" "!FAILED \\(exit status 2\\)"
  -- ${XH} write_replay ${RG} ${E2E_DIR} --at explore_twoexits.c -- ./explore_twoexits)

# Runs that --timeout ended are counted: when every one did, no schedule
# completed, and the search found nothing (exit 3, not "no failure")
set(EXIT1 ${CMAKE_CURRENT_LIST_DIR}/explore_expect_exit1.yaml)
racegate_e2e(explore_no_schedule_completed 0
  "^racegate explore: no schedule completed after 2 schedules"
  "all 2 ended by --timeout \\(1 s\\) before the program did" "explore exit 3"
  "r.json: valid" "report: 2 schedules, 2 timeouts, interrupted None , 0 failures"
  "!no failure"
  -- ${XH} report ${RG} ${E2E_DIR} --at trial_x_server.c --expect ${EXIT1}
     --timeout 1s --schedules 2 -- ./trial_x_server)
# some did: the summary says how many (one at a time and in workers alike)
foreach(j 1 2)
  racegate_e2e(explore_timeouts_counted_jobs${j} 0 "no failure after 8 schedules"
    "  [1-7] of them ended by --timeout \\(2 s\\) before the program did"
    "explore exit 0" "report: 8 schedules, [1-7] timeouts"
    -- ${XH} report ${RG} ${E2E_DIR} --at explore_hang.c --expect ${EXIT1} --timeout 2s
       --schedules 8 --jobs ${j} -- ./explore_hang)
endforeach()

# After the schedule as found was written instead of the shrunk one, every
# field of the report is of the schedule it names: preemptions and steps of
# the shrunk one, found_* of the one found, gates of the file written
racegate_e2e(explore_report_one_schedule_per_field 0
  "the schedule as found, random:1:0 \\([0-9]+ preemptions\\), instead:"
  "wrote .*reproduced 3/3" "explore exit 1" "r.json: valid"
  "report id: .* \\(as said\\)" "report found_preemptions: .* \\(as said\\)"
  "report shrunk_id: .* \\(as said\\)" "report preemptions: .* \\(as said\\)"
  "report steps: .* \\(as said\\)" "report gates_of: .* \\(as said\\)"
  "report gates: .* \\(as said\\)" "!\\(said "
  -- ${XH} fallback ${RG} ${E2E_DIR} 6 --at explore_fallback.c,explore_fallback_canary.c
     --verify 3)

# Neither the shrunk schedule's gates files nor those of the schedule as
# found reproduce: explore says once that it wrote none, how many replays
# of each reproduced, and what to try; the Markdown and JSON reports too
racegate_e2e(explore_no_file_said_once 0 "explore exit 1"
  "the shrunk schedule's gates file reproduced 0/3 under racegate run. the schedule as found, random:1:0"
  "^  no gates file written: under racegate run the shrunk schedule's gates file reproduced the failure in 0/3 replays and the schedule as found's in 0/3, and a file must in every one$"
  "^  to try: rebuild the program at -O0 if it was optimised .*, or a narrower --at"
  "said no gates file written: 1 times"
  "^md: No gates file was written: under racegate run the shrunk .* 0/3 replays .* 0/3, and"
  "^md: To try: rebuild the program at -O0" "r.json: valid"
  "report: gates_file None shrunk 0 found 0 of 3"
  "report why: under racegate run the shrunk schedule's gates file reproduced"
  "report try: rebuild the program at -O0" "!a gates file was written"
  -- ${XH} nofile ${RG} ${E2E_DIR} 1000 --at explore_fallback.c,explore_fallback_canary.c
     --verify 3)
# with points at lines only, instruction points are among what to try
racegate_e2e(explore_no_file_try_accesses 0 "explore exit 1"
  "^  no gates file written: under racegate run .* 0/2 replays"
  "^  to try: rebuild the program at -O0 .*, --points accesses .*, or a narrower --at"
  "said no gates file written: 1 times" "^md: To try: .*--points accesses"
  "report try: .*--points accesses" "!a gates file was written"
  -- ${XH} nofile ${RG} ${E2E_DIR} 1000 --at explore_fallback.c,explore_fallback_canary.c
     --verify 2 --points lines)

# SIGTERM at ten moments, from the set-up of a C++ program (seconds under
# the sanitizers) through the search, the shrinking and the replays: the
# summary is printed every time (4 of 30 had none), and no program is left
racegate_e2e(explore_sigterm_summary 0 "summaries: 10 of 10"
  "!no summary" "!program left running"
  -- ${XH} sigterm ${RG} ${E2E_DIR} ${E2E_DIR}/trial_x_seats --at trial_x_seats.cpp
     --verify 100)
set_tests_properties(e2e_explore_sigterm_summary PROPERTIES TIMEOUT 900
                     ENVIRONMENT EXPECT_TIMEOUT=840)
