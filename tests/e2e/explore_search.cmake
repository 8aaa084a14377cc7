# racegate explore's search (issue 14): dfs shards, --expect FILE, the
# Perfetto trace and the JSON report of a failure.  See explore_search.sh.
set(XS ${CMAKE_CURRENT_SOURCE_DIR}/e2e/explore_search.sh ${RG} ${PROJECT_BINARY_DIR})

# N dfs shards of a fixed program run, together, exactly the schedules one
# search runs: the counts add up, and each shard says it ran all of its own
foreach(n 2 3)
  racegate_e2e(explore_dfs_shards_${n} 0 "whole exit 0" "shard 0 exit 0" "shard 1 exit 0"
    "schedules: whole ([0-9]+), shards \\1, shards ended ${n}/${n}$"
    -- ${XS} shards ${EXAMPLES}/lost_update lost_update-fixed ${n}
       --at lost_update.c --preemptions 1)
endforeach()
