# racegate explore's scheduling points and its knowledge of who can run
# (issue 14): instruction points from a bare FILE, the thread library's
# rwlocks, barriers, spin locks and timed waits.  See explore_points.sh.
set(XPTS ${CMAKE_CURRENT_SOURCE_DIR}/e2e/explore_points.sh)
set(LOST_COUNT_DIR ${PROJECT_BINARY_DIR}/examples/lost_count)

# a race inside one line (count++) is found from --at FILE alone, with each
# strategy, and the gates file it writes reproduces 100/100
foreach(s random pct dfs)
  racegate_e2e(explore_points_lost_count_${s} 0 "FAILED \\(exit status 1\\) after [0-9]+ schedules"
    "explore exit 1" "at: \"lost_count.c:[0-9]+\\+[0-9]+\"" "100 runs: 100 REPRODUCED" "run exit 0"
    -- ${XPTS} repro100 ${RG} ${LOST_COUNT_DIR} lost_count --at lost_count.c --strategy ${s}
       --schedules 1000)
endforeach()
# --points lines: the line points alone cannot split count++
racegate_e2e(explore_points_lines_only 0 "no failure after 300 schedules" "explore exit 0"
  -- ${XPTS} repro100 ${RG} ${LOST_COUNT_DIR} lost_count --at lost_count.c --points lines
     --schedules 300)
racegate_e2e(explore_points_bad_value 2 "--points takes lines or accesses, not 'all'"
  -- ${RG} explore --at x.c --points all -- /bin/true)
