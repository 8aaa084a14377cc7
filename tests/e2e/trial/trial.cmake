# Found by trying racegate as a user would, on programs written for it.
# (Patterns say ". " for the "; " of the chain, from when racegate_e2e split
# a pattern at a ';'; it passes each whole now.)
racegate_e2e_program(trial_unpinned SOURCES trial_unpinned.c
  SPECS trial_unpinned.yaml trial_pinned.yaml)

# A gate that opens the awaited event with no thread: any thread that moves
# (the event loop) might reach it, so the run can only time out; the chain
# must say that, and how to get a verdict, not "nothing else can open".
racegate_e2e(trial_unpinned_opener_says_why 3 "TIMEOUT"
  "wait-for chain: .*no deadlock verdict: gate 'trial_unpinned.c:/REMOVED/', which opens removed, does not name one thread, and event_loop#1 \\(tid [0-9]+\\) still moves"
  "!nothing else can open"
  -- ${RG} run ${E2E_DIR}/trial_unpinned.yaml)
# Pinned, the same order is a schedule deadlock beside the event loop.
racegate_e2e(trial_pinned_opener_deadlock 3 "SCHEDULE-DEADLOCK"
  "rem +tid [0-9]+ +blocked: waits for mutex 'table', held by ins"
  "!TIMEOUT" -- ${RG} run ${E2E_DIR}/trial_pinned.yaml)

# A std::mutex in a namespace is named 'store::table_lock' in the thread
# lines and the chain, not by its mangled symbol (_ZN5store10table_lockE).
racegate_e2e_program(trial_cxxlock SOURCES trial_cxxlock.cpp
  SPECS trial_cxxlock.yaml)
racegate_e2e(trial_cxx_mutex_named_as_in_source 3 "SCHEDULE-DEADLOCK"
  "rem +tid [0-9]+ +blocked: waits for mutex 'store::table_lock', held by ins"
  "on mutex 'store::table_lock' owned by ins" "!_ZN"
  -- ${RG} run ${E2E_DIR}/trial_cxxlock.yaml)

# racegate attach to a process whose gated order its own mutex forbids,
# beside an event loop: the note of SCHEDULE-DEADLOCK must not say every
# thread is stuck, and with on_deadlock: release the outcome is
# ORDER-INFEASIBLE (exit 0), not ENFORCED, also when a gate that counts is
# never reached (the attach ends at the verdict); the process goes on clean.
racegate_e2e_program(trial_rounds SOURCES trial_rounds.c
  SPECS trial_rounds.yaml trial_rounds_unreached.yaml)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  foreach(mode fail release release_ends)
    add_test(NAME e2e_trial_attach_infeasible_${mode}
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/trial_attach.sh
             ${RG} ${E2E_DIR}/trial_rounds ${E2E_DIR}
             ${E2E_SRC}/tools ${mode})
    set_tests_properties(e2e_trial_attach_infeasible_${mode} PROPERTIES
                         LABELS e2e TIMEOUT 300)
  endforeach()
endif()

# The only opener waits on a condition variable beside an event loop: no
# verdict can come, and the timeout's chain says why instead of "nothing
# else can open".
racegate_e2e_program(trial_condpool SOURCES trial_condpool.c
  SPECS trial_condpool.yaml)
racegate_e2e(trial_condvar_opener_says_why 3 "TIMEOUT"
  "wait-for chain: .*no deadlock verdict: w, which opens took at gate 'trial_condpool.c:/TOOK/', is blocked \\(waits on condition variable 'nonempty'\\), and event_loop#1 \\(tid [0-9]+\\) still moves"
  "!nothing else can open"
  -- ${RG} run ${E2E_DIR}/trial_condpool.yaml)

# A robust or priority-inheritance mutex keeps its owner in the futex word:
# the cycle through it is a SCHEDULE-DEADLOCK beside an event loop (it was
# a TIMEOUT, the wait taken for one anyone could end), and the remover's
# line names the mutex and its owner.
racegate_e2e_program(trial_robust SOURCES trial_robust.c
  SPECS trial_robust.yaml)
foreach(kind robust pi)
  racegate_e2e(trial_${kind}_mutex_cycle_beside_loop 3 "SCHEDULE-DEADLOCK"
    "rem +tid [0-9]+ +blocked: waits for mutex 'table', held by ins"
    "!TIMEOUT"
    -- ${RG} run ${E2E_DIR}/trial_robust.yaml -- ${E2E_DIR}/trial_robust ${kind})
endforeach()

# A thread found in a system call racegate has no verdict for is named by
# the call ('in openat'), not by its number ('in syscall 257').
racegate_e2e_program(trial_fifo SOURCES trial_fifo.c SPECS trial_fifo.yaml)
racegate_e2e(trial_syscall_named 3 "TIMEOUT"
  "rd +tid [0-9]+ +in openat \\(may wake\\)" "!in syscall [0-9]"
  -- ${RG} run ${E2E_DIR}/trial_fifo.yaml
  -- ${E2E_DIR}/trial_fifo ${E2E_DIR}/trial_fifo.fifo)
