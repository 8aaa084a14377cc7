# racegate explore's Markdown bug report (issue 25): it names the thread
# that crashed or hung, its file:line, function and source line, the
# program's stderr (its last lines, said when cut) and the command that
# found it, and its Mermaid diagram stays short (a thread's stretch is one
# note) and parses.  See explore_report.sh.
set(XR ${CMAKE_CURRENT_LIST_DIR}/explore_report.sh)
set(XR_TOOLS ${PROJECT_SOURCE_DIR}/tests/tools ${PROJECT_BINARY_DIR}/tests/mermaid)

racegate_e2e_program(explore_report_throw SOURCES explore_report_throw.cpp
  OPTIONS -O0 -g -std=c++17)
# a crash: std::terminate's abort in main, after map::at threw
racegate_e2e(explore_report_crash 0 "explore exit 1"
  "^# racegate explore: killed by SIGABRT"
  "^Found by `racegate explore --at explore_report_throw.cpp --strategy pct --seed 1 --schedules 1000 --markdown [^ ]+/report.md -- ./explore_report_throw`$"
  "^## Where it failed"
  "^`main` was running when the program was killed by SIGABRT. the last point it passed: `explore_report_throw.cpp:26` in `main`: `std::printf\\(\"%s.n\", shelf.at\\(count\\).c_str\\(\\)\\).`"
  "^## stderr" "^Its last 20 lines of 27:" "^stock line 8$" "^stock line 25$"
  "^terminate called after throwing an instance of 'std::out_of_range'"
  "what\\(\\): +map::at" "^## Replay" "^`racegate explore --at 'explore_report_throw.cpp' --replay"
  "^```mermaid" "Note over bump_[12]: [0-9]+ steps, explore_report_throw.cpp:1[2-4]-1[3-5]<br/>last explore_report_throw.cpp:1[3-5] in bump: "
  "!stock line 7$" "mermaid lines ([5-9]|1[0-9])$" "mermaid exit (0|77)$"
  -- ${XR} ${RG} ${E2E_DIR} explore_report_throw explore_report_throw.cpp ${XR_TOOLS})
# a hang: each thread of the lock-order inversion where it stopped
racegate_e2e(explore_report_hang 0 "explore exit 1"
  "^# racegate explore: deadlock"
  "^Found by `racegate explore --at abba_deadlock.c --strategy pct"
  "^No thread could go on"
  "^- `transfer_1`.* at `abba_deadlock.c:20` in `transfer`: `pthread_mutex_lock\\(&lock_b\\). .* stopped at `.pthread_mutex_lock`"
  "^- `refund_1`.* at `abba_deadlock.c:32` in `refund`: `pthread_mutex_lock\\(&lock_a\\). .* stopped at `.pthread_mutex_lock`"
  "^The program wrote nothing on stderr" "^```mermaid"
  "Note over transfer_1: [0-9]+ steps, abba_deadlock.c:1[0-9]-20.*<br/>last abba_deadlock.c:20 in transfer: pthread_mutex_lock\\(&lock_b\\)#59;"
  "mermaid lines ([5-9]|1[0-9])$" "mermaid exit (0|77)$"
  -- ${XR} ${RG} ${EXAMPLES}/abba_deadlock abba_deadlock abba_deadlock.c ${XR_TOOLS})
