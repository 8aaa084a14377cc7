# Verdicts from the wait-for graph: threads that wait only on each other are
# stuck whatever the other threads (an event loop, a napping housekeeper)
# do.  Outcomes and diagnosis lines are asserted, never durations; each
# spec's timeout is far longer than a verdict takes, so TIMEOUT means the
# graph missed it.
foreach(prog abba_poll)
  add_executable(e2e_${prog} e2e/programs/${prog}.c)
  target_compile_options(e2e_${prog} PRIVATE -O0 -g)
  target_link_libraries(e2e_${prog} PRIVATE Threads::Threads)
  set_target_properties(e2e_${prog} PROPERTIES OUTPUT_NAME ${prog}
                        RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
  configure_file(e2e/specs/${prog}.yaml ${E2E_DIR}/${prog}.yaml COPYONLY)
endforeach()

# (Patterns say ". " for the "; " of the chain: ';' splits a CMake list.)
# Two mutexes taken in opposite orders, no gate holding, a poller and a
# napper running: DEADLOCK (as the spec expects), not TIMEOUT.
racegate_e2e(waitfor_mutex_cycle_beside_poller 0
  "REPRODUCED: the program deadlocked, as expected"
  "poller#1 +tid [0-9]+ +sleeping in poll"
  "forward +tid [0-9]+ +blocked: waits for mutex 'lock_b', held by backward"
  "backward +tid [0-9]+ +blocked: waits for mutex 'lock_a', held by forward"
  "wait-for chain: forward \\(tid [0-9]+\\) is blocked in pthread_mutex_lock on mutex 'lock_b' owned by backward \\(tid [0-9]+\\). backward is blocked in pthread_mutex_lock on mutex 'lock_a' owned by forward. main \\(tid [0-9]+\\) is blocked in pthread_join waiting for forward to exit"
  "!TIMEOUT"
  -- ${RG} run ${E2E_DIR}/abba_poll.yaml)
