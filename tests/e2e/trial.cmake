# Found by trying racegate as a user would, on programs written for it.
# (Patterns say ". " for the "; " of the chain: ';' splits a CMake list.)
foreach(prog trial_unpinned)
  add_executable(e2e_${prog} e2e/programs/${prog}.c)
  target_compile_options(e2e_${prog} PRIVATE -O0 -g)
  target_link_libraries(e2e_${prog} PRIVATE Threads::Threads)
  set_target_properties(e2e_${prog} PROPERTIES OUTPUT_NAME ${prog}
                        RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
endforeach()
foreach(s trial_unpinned trial_pinned)
  configure_file(e2e/specs/${s}.yaml ${E2E_DIR}/${s}.yaml COPYONLY)
endforeach()

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
add_executable(e2e_trial_cxxlock e2e/programs/trial_cxxlock.cpp)
target_compile_options(e2e_trial_cxxlock PRIVATE -O0 -g)
target_link_libraries(e2e_trial_cxxlock PRIVATE Threads::Threads)
set_target_properties(e2e_trial_cxxlock PROPERTIES OUTPUT_NAME trial_cxxlock
                      RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
configure_file(e2e/specs/trial_cxxlock.yaml ${E2E_DIR}/trial_cxxlock.yaml COPYONLY)
racegate_e2e(trial_cxx_mutex_named_as_in_source 3 "SCHEDULE-DEADLOCK"
  "rem +tid [0-9]+ +blocked: waits for mutex 'store::table_lock', held by ins"
  "on mutex 'store::table_lock' owned by ins" "!_ZN"
  -- ${RG} run ${E2E_DIR}/trial_cxxlock.yaml)

# racegate attach to a process whose gated order its own mutex forbids,
# beside an event loop: the note of SCHEDULE-DEADLOCK must not say every
# thread is stuck, and with on_deadlock: release the outcome is
# ORDER-INFEASIBLE (exit 0), not ENFORCED, also when a gate that counts is
# never reached (the attach ends at the verdict); the process goes on clean.
add_executable(e2e_trial_rounds e2e/programs/trial_rounds.c)
target_compile_options(e2e_trial_rounds PRIVATE -O0 -g)
target_link_libraries(e2e_trial_rounds PRIVATE Threads::Threads)
set_target_properties(e2e_trial_rounds PROPERTIES OUTPUT_NAME trial_rounds
                      RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
configure_file(e2e/specs/trial_rounds.yaml ${E2E_DIR}/trial_rounds.yaml COPYONLY)
configure_file(e2e/specs/trial_rounds_unreached.yaml ${E2E_DIR}/trial_rounds_unreached.yaml
               COPYONLY)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  foreach(mode fail release release_ends)
    add_test(NAME e2e_trial_attach_infeasible_${mode}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/e2e/trial_attach.sh
             ${RG} ${E2E_DIR}/trial_rounds ${E2E_DIR}
             ${CMAKE_CURRENT_SOURCE_DIR}/e2e/tools ${mode})
    set_tests_properties(e2e_trial_attach_infeasible_${mode} PROPERTIES
                         LABELS e2e TIMEOUT 300)
  endforeach()
endif()

# The only opener waits on a condition variable beside an event loop: no
# verdict can come, and the timeout's chain says why instead of "nothing
# else can open".
add_executable(e2e_trial_condpool e2e/programs/trial_condpool.c)
target_compile_options(e2e_trial_condpool PRIVATE -O0 -g)
target_link_libraries(e2e_trial_condpool PRIVATE Threads::Threads)
set_target_properties(e2e_trial_condpool PROPERTIES OUTPUT_NAME trial_condpool
                      RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
configure_file(e2e/specs/trial_condpool.yaml ${E2E_DIR}/trial_condpool.yaml COPYONLY)
racegate_e2e(trial_condvar_opener_says_why 3 "TIMEOUT"
  "wait-for chain: .*no deadlock verdict: w, which opens took at gate 'trial_condpool.c:/TOOK/', is blocked \\(waits on condition variable 'nonempty'\\), and event_loop#1 \\(tid [0-9]+\\) still moves"
  "!nothing else can open"
  -- ${RG} run ${E2E_DIR}/trial_condpool.yaml)

# A robust or priority-inheritance mutex keeps its owner in the futex word:
# the cycle through it is a SCHEDULE-DEADLOCK beside an event loop (it was
# a TIMEOUT, the wait taken for one anyone could end), and the remover's
# line names the mutex and its owner.
add_executable(e2e_trial_robust e2e/programs/trial_robust.c)
target_compile_options(e2e_trial_robust PRIVATE -O0 -g)
target_link_libraries(e2e_trial_robust PRIVATE Threads::Threads)
set_target_properties(e2e_trial_robust PROPERTIES OUTPUT_NAME trial_robust
                      RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
configure_file(e2e/specs/trial_robust.yaml ${E2E_DIR}/trial_robust.yaml COPYONLY)
foreach(kind robust pi)
  racegate_e2e(trial_${kind}_mutex_cycle_beside_loop 3 "SCHEDULE-DEADLOCK"
    "rem +tid [0-9]+ +blocked: waits for mutex 'table', held by ins"
    "!TIMEOUT"
    -- ${RG} run ${E2E_DIR}/trial_robust.yaml -- ${E2E_DIR}/trial_robust ${kind})
endforeach()

# A thread found in a system call racegate has no verdict for is named by
# the call ('in openat'), not by its number ('in syscall 257').
add_executable(e2e_trial_fifo e2e/programs/trial_fifo.c)
target_compile_options(e2e_trial_fifo PRIVATE -O0 -g)
target_link_libraries(e2e_trial_fifo PRIVATE Threads::Threads)
set_target_properties(e2e_trial_fifo PROPERTIES OUTPUT_NAME trial_fifo
                      RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
configure_file(e2e/specs/trial_fifo.yaml ${E2E_DIR}/trial_fifo.yaml COPYONLY)
racegate_e2e(trial_syscall_named 3 "TIMEOUT"
  "rd +tid [0-9]+ +in openat \\(may wake\\)" "!in syscall [0-9]"
  -- ${RG} run ${E2E_DIR}/trial_fifo.yaml
  -- ${E2E_DIR}/trial_fifo ${E2E_DIR}/trial_fifo.fifo)
