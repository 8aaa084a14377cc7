# racegate explore's scheduling points and its knowledge of who can run
# (issue 14): instruction points from a bare FILE, the thread library's
# rwlocks, barriers, spin locks and timed waits.  See explore_points.sh.
set(XPTS ${CMAKE_CURRENT_LIST_DIR}/explore_points.sh)
set(LOST_COUNT_DIR ${PROJECT_BINARY_DIR}/examples/lost_count)

# a race inside one line (count++) is found from --at FILE alone, with each
# strategy, and the gates file it writes reproduces 100/100
foreach(s random pct dfs)
  racegate_e2e(explore_points_lost_count_${s} 0 "FAILED \\(exit status 1\\) after [0-9]+ schedules"
    "explore exit 1" "at: \"lost_count.c:(/[^\"]*/|[0-9]+)\\+[0-9]+\"" "100 runs: 100 REPRODUCED" "run exit 0"
    -- ${XPTS} repro100 ${RG} ${LOST_COUNT_DIR} lost_count --at lost_count.c --strategy ${s}
       --schedules 1000)
endforeach()
# --points lines: the line points alone cannot split count++
racegate_e2e(explore_points_lines_only 0 "no failure after 300 schedules" "explore exit 0"
  -- ${XPTS} repro100 ${RG} ${LOST_COUNT_DIR} lost_count --at lost_count.c --points lines
     --schedules 300)
racegate_e2e(explore_points_bad_value 2 "--points takes lines or accesses, not 'all'"
  -- ${RG} explore --at x.c --points all -- /bin/true)

# the thread library's other waits as points, and who can run at them
foreach(prog xp_rwlock xp_barrier xp_spin xp_timed)
  racegate_e2e_program(${prog} SOURCES ${prog}.c)
endforeach()
# a reader/writer inversion: each writer is known not to run while the
# other thread reads, so the deadlock is found and written as one
racegate_e2e(explore_points_rwlock_deadlock 0 "FAILED \\(deadlock\\)"
  "wrote .*reproduced 20/20" "explore exit 1"
  "->>.*: cannot go on at \\*pthread_rwlock_wrlock" "deadlock: true"
  "20 runs: 20 REPRODUCED" "run exit 0"
  -- ${XPTS} report ${RG} ${E2E_DIR} xp_rwlock --at xp_rwlock.c --schedules 1000)
# dfs finds it too (its shrunk schedule's gates file is the writer's
# business: the preempting thread ends where it cannot go on)
racegate_e2e(explore_points_rwlock_deadlock_dfs 0 "FAILED \\(deadlock\\)" "explore exit 1"
  "->>.*: preempted at \\*pthread_rwlock_wrlock"
  -- ${XPTS} report ${RG} ${E2E_DIR} xp_rwlock --at xp_rwlock.c --strategy dfs
     --schedules 1000)
# with no --at, the rwlock calls are the only points inside the threads
racegate_e2e(explore_points_rwlock_sync_only 0 "FAILED \\(deadlock\\)" "explore exit 1"
  "add_(user|group)_1->>add_(user|group)_1: preempted at \\*pthread_rwlock_wrlock"
  -- ${XPTS} report ${RG} ${E2E_DIR} xp_rwlock --schedules 1000)
# a worker at a barrier the other has not reached cannot go on; the one
# that goes into the barrier's wait first gives way at once (blocked)
racegate_e2e(explore_points_barrier 0 "FAILED \\(exit status 1\\)"
  "wrote .*reproduced 20/20" "explore exit 1"
  "->>.*: cannot go on at \\*pthread_barrier_wait" "worker_[12]->>worker_[12]: blocked"
  "20 runs: 20 REPRODUCED" "run exit 0"
  -- ${XPTS} report ${RG} ${E2E_DIR} xp_barrier --at xp_barrier.c --schedules 1000)
# a check-then-act across two spin-locked sections, split at the lock
racegate_e2e(explore_points_spin 0 "FAILED \\(exit status 1\\)"
  "wrote .*reproduced 20/20" "explore exit 1" "pthread_spin_lock"
  "20 runs: 20 REPRODUCED" "run exit 0"
  -- ${XPTS} report ${RG} ${E2E_DIR} xp_spin --at xp_spin.c --schedules 1000)
# timed waits on a condition and a semaphore are points; a consumer that
# goes into one gives way at once
racegate_e2e(explore_points_timed_waits 0 "FAILED \\(exit status 1\\)"
  "wrote .*reproduced 20/20" "explore exit 1" "20 runs: 20 REPRODUCED" "run exit 0"
  -- ${XPTS} report ${RG} ${E2E_DIR} xp_timed --at xp_timed.c --schedules 1000)
racegate_e2e(explore_points_timed_waits_seen 0 "futex waits seen: [1-9]"
  -- ${XPTS} waits ${RG} ${E2E_DIR} xp_timed --at xp_timed.c --schedules 1000)

# replay does not drift: the shrunk schedule of a program whose new threads
# compute before their first point, replayed 20 times two at a time (a
# loaded machine), fails the same way every time
racegate_e2e_program(xp_slowstart SOURCES xp_slowstart.c)
racegate_e2e(explore_points_replay_loaded 0 "FAILED \\(exit status 1\\)"
  "replays failing as 'exit status 1': 20/20"
  -- ${XPTS} replay20 ${RG} ${E2E_DIR} xp_slowstart --at bump --schedules 200)
racegate_e2e(explore_points_replay_loaded_barrier 0 "FAILED \\(exit status 1\\)"
  "replays failing as 'exit status 1': 20/20"
  -- ${XPTS} replay20 ${RG} ${E2E_DIR} xp_barrier --at xp_barrier.c --schedules 1000)
