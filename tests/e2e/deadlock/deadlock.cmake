# Stuck runs: every live thread held at a gate or blocked for ever.
# Outcomes and diagnosis lines are asserted, never durations.
racegate_e2e_program(sleeper SOURCES sleeper.c
  SPECS sleeper.yaml opener_exited.yaml)
set(ABBA ${EXAMPLES}/abba_deadlock)

# (1) The gates force the lock-order deadlock, then the program deadlocks by
# itself: DEADLOCK, which the spec expects (REPRODUCED, exit 0).
racegate_e2e(abba_deadlock_reproduced 0
  "REPRODUCED: the program deadlocked, as expected"
  "^threads:"
  "main +tid [0-9]+ +blocked: waits for transfer \\(tid [0-9]+\\) to exit \\(pthread_join\\) +at abba_deadlock.c:[0-9]+ in main"
  "transfer +tid [0-9]+ +blocked: waits for mutex 'lock_b', held by refund \\(tid [0-9]+\\) +at abba_deadlock.c:20 in transfer"
  "refund +tid [0-9]+ +blocked: waits for mutex 'lock_a', held by transfer \\(tid [0-9]+\\) +at abba_deadlock.c:32 in refund"
  "wait-for chain: main waits for transfer to exit .*. transfer holds mutex 'lock_a' and waits for mutex 'lock_b' in transfer \\(abba_deadlock.c:20\\). refund holds mutex 'lock_b' and waits for mutex 'lock_a' in refund \\(abba_deadlock.c:32\\)"
  "backtrace of transfer"
  "#[0-9]+ 0x[0-9a-f]+ in .*pthread_mutex_lock"
  "#[0-9]+ 0x[0-9a-f]+ in transfer at abba_deadlock.c:20"
  "(transfer|refund)-second-lock +released after"
  -- ${RG} run ${ABBA}/gates.yaml)
# Without expect: {deadlock: true} the same run is DEADLOCK, exit 3.
file(WRITE ${E2E_DIR}/abba_no_expect.yaml
  "version: 1\ncommand: [${ABBA}/abba_deadlock]\nthreads:\n  transfer: {start: transfer}\n  refund: {start: refund}\ngates:\n  - {at: abba_deadlock.c:20, thread: transfer, open: a, wait: b}\n  - {at: abba_deadlock.c:32, thread: refund, open: b, wait: a}\n")
racegate_e2e(abba_deadlock_unexpected 3 "DEADLOCK: the program deadlocked by itself"
  "transfer +tid [0-9]+ +blocked: waits for mutex 'lock_b'" -- ${RG} run ${E2E_DIR}/abba_no_expect.yaml)
# The fixed program takes the locks in one order: the gated order cannot
# happen.  The chain says who holds what.
# Either thread may take lock_a first: the one that does is held at its
# gate, the other one blocks on lock_a before reaching its own.
racegate_e2e(abba_fixed_schedule_deadlock 3 "SCHEDULE-DEADLOCK"
  "(transfer|refund) +tid [0-9]+ +(held at gate '(transfer|refund)-second-lock': waiting for|blocked: waits for mutex 'lock_a', held by)"
  "wait-for chain: .*(transfer|refund) holds mutex 'lock_a' \\(abba_deadlock.c:(20|32)\\) and is held at gate (transfer|refund)-second-lock waiting for [a-z]+-has-[ab].* nothing else can open [a-z]+-has-[ab]"
  -- ${RG} run ${ABBA}/gates.yaml -- ${ABBA}/abba_deadlock-fixed)
racegate_e2e(abba_fixed_order_infeasible 0 "a = 95, b = 5" "ORDER-INFEASIBLE"
  -- ${RG} run --on-deadlock release ${ABBA}/gates.yaml -- ${ABBA}/abba_deadlock-fixed)

# (2) lost_update's spec on the fixed, locked counter.
racegate_e2e(lost_update_fixed_order_infeasible 0
  "counter = 2"
  "ORDER-INFEASIBLE: the gated order could not happen"
  "w[12]-store +held: waiting for w[12]-loaded"
  "w[12]-store +released after"
  -- ${RG} run --on-deadlock release ${EXAMPLES}/lost_update/gates.yaml
     -- ${EXAMPLES}/lost_update/lost_update-fixed)

# (3) The only thread that opens the event exits without opening it.
racegate_e2e(opener_exited 3 "SCHEDULE-DEADLOCK"
  "main +tid [0-9]+ +blocked: waits for waiter \\(tid [0-9]+\\) to exit"
  "waiter +tid [0-9]+ +held at gate 'wait-for-nap': waiting for napped-twice"
  "wait-for chain: .*only napper \\(tid [0-9]+\\), at gate 'second-nap' can open napped-twice, and it has exited"
  -- ${RG} run ${E2E_DIR}/opener_exited.yaml)

# (4) A thread asleep with a timeout is not a deadlock: the run waits.
racegate_e2e(sleep_is_not_deadlock 0 "waited=1 napped=1" "PASSED"
  "!DEADLOCK" "wait-for-nap +released after"
  -- ${RG} run ${E2E_DIR}/sleeper.yaml)

# --quiet-period is checked like --timeout.
racegate_e2e(quiet_period_usage 2 "--quiet-period takes a duration"
  -- ${RG} run --quiet-period 10 ${E2E_DIR}/sleeper.yaml)

# --keep-stopped: stopped, detached, no breakpoint left (it can go on).
add_test(NAME e2e_keep_stopped COMMAND ${CMAKE_CURRENT_LIST_DIR}/keep_stopped.sh
  ${RG} ${E2E_DIR}/opener_exited.yaml 3 ${E2E_DIR}/sleeper 0 @DONE@)
set_tests_properties(e2e_keep_stopped PROPERTIES LABELS e2e TIMEOUT 90)

# --keep-stopped while a thread keeps trapping on a gate's breakpoint (the
# run ends by its timeout): racegate returns, the spinner is stopped at the
# gate's own instruction, and it spins on untrapped once continued.
racegate_e2e_program(spinner SOURCES spinner.c SPECS spin_stopped.yaml)
add_test(NAME e2e_keep_stopped_spinning COMMAND ${CMAKE_CURRENT_LIST_DIR}/keep_stopped.sh
  ${RG} ${E2E_DIR}/spin_stopped.yaml 3 ${E2E_DIR}/spinner @DONE@)
set_tests_properties(e2e_keep_stopped_spinning PROPERTIES LABELS e2e TIMEOUT 90)
