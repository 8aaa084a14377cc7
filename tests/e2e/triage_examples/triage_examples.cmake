# The triage examples (issue 24: a race of each kind racegate triage tells
# apart), as the other examples are tested: the buggy program under its
# gates 100 runs of 100, the fixed one under the same gates, one run's
# timeline in order.
set(EX ${EXAMPLES})
foreach(ex stale_conn cxx_stock)
  racegate_e2e(${ex}_reproduces_100_of_100 0 "100 runs: 100 REPRODUCED$"
    -- ${RG} run --repeat 100 ${EX}/${ex}/gates.yaml)
endforeach()
# tally and retry_flag end with exit 0: a spec expecting exit 0 is PASSED
# when met; tally's expects the lost share in the output
racegate_e2e(tally_output_differs_100_of_100 0 "100 runs: 100 PASSED$"
  -- ${RG} run --repeat 100 ${EX}/tally/gates.yaml)
racegate_e2e(retry_flag_benign_100_of_100 0 "100 runs: 100 PASSED$"
  -- ${RG} run --repeat 100 ${EX}/retry_flag/gates.yaml)

# One run each: the causal order of the timeline.  The sender is always
# held (closed needs checked, which it opens on the same arrival).
racegate_e2e(stale_conn_timeline 0 "REPRODUCED: killed by SIGSEGV"
  "sender .*stale_conn.c:35 +sender-checked +held: waiting for closed"
  "closer .*stale_conn.c:49 +close +opened closed"
  "sender .*stale_conn.c:35 +sender-checked +released after"
  -- ${RG} run ${EX}/stale_conn/gates.yaml)
racegate_e2e(tally_timeline 0 "^total = 4$" "PASSED: exit 0"
  "c1 .*tally.c:32 +c1-store +opened c1-stored"
  "c2 .*tally.c:32 +c2-store +released after"
  -- ${RG} run ${EX}/tally/gates.yaml)
racegate_e2e(retry_flag_timeline 0 "^note: some requests needed a retry$" "PASSED: exit 0"
  "w2 .*retry_flag.c:36 +w2-store +opened w2-stored"
  "w1 .*retry_flag.c:36 +w1-store +(released after|passed)"
  -- ${RG} run ${EX}/retry_flag/gates.yaml)
racegate_e2e(cxx_stock_timeline 0 "REPRODUCED: killed by SIGABRT"
  "(alice|bob) .*cxx_stock.cpp:27 +(alice|bob)-take +held: waiting for (alice|bob)-checked"
  "(alice|bob) .*cxx_stock.cpp:27 +(alice|bob)-take +opened (alice|bob)-checked"
  -- ${RG} run ${EX}/cxx_stock/gates.yaml)
# The read of data cannot come before the write: the consumer spins on
# ready (running, never blocked: no deadlock verdict), the gate's timeout
# lets the producer go, and the program ends normally.
foreach(v spin_handoff spin_handoff-fixed)
  racegate_e2e(${v}_order_impossible 3 "^data = 42$"
    "NOT-ENFORCED: the order did not take hold: 'write-after-read' let a thread go by its timeout"
    "producer .*spin_handoff.c:29 +write-after-read +held: waiting for consumer-read"
    "write-after-read +released by its timeout"
    "consumer .*spin_handoff.c:42 +read +opened consumer-read"
    "!REPRODUCED" -- ${RG} run ${EX}/spin_handoff/gates.yaml -- ${EX}/spin_handoff/${v})
endforeach()

# The fixes: a lock makes the gated order impossible (the held thread owns
# the lock the other waits for), or the atomic flag changes nothing.  With
# --on-deadlock release, tally's fix ends with the right total, which the
# spec (it expects the lost share) calls FAILED.
racegate_e2e(stale_conn_fixed_order_impossible 3 "SCHEDULE-DEADLOCK"
  "wait-for chain: .*sender holds mutex 'conn_lock' \\(stale_conn.c:35\\) and is held at gate sender-checked waiting for closed. closer waits for mutex 'conn_lock'"
  "!REPRODUCED" -- ${RG} run ${EX}/stale_conn/gates.yaml -- ${EX}/stale_conn/stale_conn-fixed)
racegate_e2e(tally_fixed_order_impossible 3 "SCHEDULE-DEADLOCK"
  "wait-for chain: .*c[12] holds mutex 'total_lock' \\(tally.c:32\\) and is held at gate c[12]-store"
  "!PASSED" -- ${RG} run ${EX}/tally/gates.yaml -- ${EX}/tally/tally-fixed)
racegate_e2e(tally_fixed_released_total_7 1 "^total = 7$"
  "FAILED: the gated order could not happen.*stdout does not contain 'total = 4'"
  -- ${RG} run --on-deadlock release ${EX}/tally/gates.yaml -- ${EX}/tally/tally-fixed)
racegate_e2e(retry_flag_fixed_passes 0 "PASSED" "w2-store +opened w2-stored"
  -- ${RG} run ${EX}/retry_flag/gates.yaml -- ${EX}/retry_flag/retry_flag-fixed)
racegate_e2e(cxx_stock_fixed_order_impossible 3 "SCHEDULE-DEADLOCK"
  "wait-for chain: .*(alice|bob) holds mutex at 0x[0-9a-f]+ \\(cxx_stock.cpp:27\\) and is held at gate"
  "!REPRODUCED" -- ${RG} run ${EX}/cxx_stock/gates.yaml -- ${EX}/cxx_stock/cxx_stock-fixed)

# Their ThreadSanitizer builds, run in the test: the report names the
# example's racing lines (read back by triage/, through triage_dump), and
# each fix makes TSan quiet.
if(RACEGATE_HAVE_TSAN)
  set(TSAN_REPORT ${CMAKE_CURRENT_LIST_DIR}/tsan_report.sh $<TARGET_FILE:triage_dump>)
  function(racegate_tsan_e2e name)
    add_test(NAME e2e_${name} COMMAND ${EXPECT} ${ARGN})
    set_tests_properties(e2e_${name} PROPERTIES LABELS e2e TIMEOUT 300)
  endfunction()
  racegate_tsan_e2e(tsan_report_stale_conn 0
    "^race [0-9] x1: write .*stale_conn.c:49 in closer .* ~ read .*stale_conn.c:33 in sender .*@ global 'conn'$"
    "^2 races from 2 warnings$" "WARNING: ThreadSanitizer: data race"
    -- ${TSAN_REPORT} ${EX}/stale_conn/stale_conn-tsan)
  racegate_tsan_e2e(tsan_report_tally 0
    "^race 1 x1: (read|write) .*tally.c:(30|32) in counter .* ~ write .*tally.c:32 in counter .*@ global 'total'$"
    "^1 races from 1 warnings$" -- ${TSAN_REPORT} ${EX}/tally/tally-tsan)
  racegate_tsan_e2e(tsan_report_retry_flag 0
    "^race 1 x1: write .*retry_flag.c:36 in worker .* ~ write .*retry_flag.c:36 in worker .*@ global 'saw_retry'$"
    "^1 races from 1 warnings$" -- ${TSAN_REPORT} ${EX}/retry_flag/retry_flag-tsan)
  racegate_tsan_e2e(tsan_report_spin_handoff 0
    "^race [12] x1: read .*spin_handoff.c:42 in consumer .* ~ write .*spin_handoff.c:29 in producer .*@ global 'data'$"
    "^2 races from 2 warnings$" -- ${TSAN_REPORT} ${EX}/spin_handoff/spin_handoff-tsan)
  set(tsan_examples stale_conn tally retry_flag spin_handoff)
  if(RACEGATE_CXX_TSAN)
    racegate_tsan_e2e(tsan_report_cxx_stock 0
      "^race 1 x1: read .*cxx_stock.cpp:26 in operator\\(\\) .* ~ write .*cxx_stock.cpp:27 in operator\\(\\) .*@ stack of main thread$"
      "^1 races from 1 warnings$" -- ${TSAN_REPORT} ${EX}/cxx_stock/cxx_stock-tsan)
    list(APPEND tsan_examples cxx_stock)
  endif()
  foreach(ex ${tsan_examples})
    racegate_tsan_e2e(tsan_report_${ex}_fixed_quiet 0 "^0 races from 0 warnings$"
      "!ThreadSanitizer" -- ${TSAN_REPORT} ${EX}/${ex}/${ex}-fixed-tsan)
  endforeach()
endif()
