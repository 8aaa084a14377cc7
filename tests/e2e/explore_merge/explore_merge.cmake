# racegate explore --merge (issue 23, item 9): the reports of N shards, run
# as N racegate processes at once, merged into what the unsharded search
# says; reports of other searches refused.  See explore_merge.sh.
set(XM ${CMAKE_CURRENT_LIST_DIR}/explore_merge.sh ${RG} ${EXAMPLES}/lost_update)
set(XM_PREFORK ${CMAKE_CURRENT_LIST_DIR}/explore_merge.sh ${RG} ${EXAMPLES}/prefork_slots)

# dfs on the fix: every schedule within 2 delays, 298 of them, split 3 ways
racegate_e2e(explore_merge_dfs_fixed 0 "whole exit 0" "shard 0/3 exit 0" "shard 2/3 exit 0"
  "merge exit 0" "3 shards merged" "every schedule with at most 2 delays was run \\(3 shards\\)"
  "^whole: 298 298 none$" "^merged: 298 298 none$"
  "the merged summary is the unsharded search's"
  "report: schedules [0-9]+ distinct [0-9]+ shards 3 failure none"
  -- ${XM} lost_update-fixed same 3 --at lost_update.c --strategy dfs --delays 2)
# dfs on the bug: shards find different failures; the merge names the one
# the unsharded search meets first
racegate_e2e(explore_merge_dfs_failure 0 "whole exit 1" "shard 2/3 exit 1" "merge exit 1"
  "FAILED \\(exit status 1\\) after [0-9]+ schedules .*, dfs, 3 shards merged"
  "failing schedule: dev:[0-9.,]+ \\(shard [0-2]/3, "
  "replay: racegate explore --at 'lost_update.c' --replay dev:"
  "^whole: dev:[0-9.,]+$" "^merged: dev:[0-9.,]+$" "the merged summary is the unsharded search's"
  "report: schedules [0-9]+ distinct [0-9]+ shards 3 failure dev:[0-9.,]+ of shard [0-2]"
  -- ${XM} lost_update same 3 --at lost_update.c --strategy dfs --delays 2)
# random: schedule index I of shard I mod N; the lowest index fails first
racegate_e2e(explore_merge_random_failure 0 "whole exit 1" "merge exit 1"
  "failing schedule: random:1:0 \\(shard 0/3, "
  "^whole: random:1:0$" "^merged: random:1:0$" "the merged summary is the unsharded search's"
  -- ${XM} lost_update same 3 --at lost_update.c --strategy random)
# -o: the failure replayed into a gates file that reproduces
racegate_e2e(explore_merge_write 0 "replaying dev:[0-9.,]+ \\(of shard [0-1]/2\\)"
  "wrote .*repro.yaml: reproduced 5/5" "merge exit 1" "20 runs: 20 REPRODUCED" "run exit 0"
  -- ${XM} lost_update write 2 --at lost_update.c --strategy dfs --delays 1)
# --follow-fork is part of the search: the merge replays with it, and the
# file names the worker child's threads
racegate_e2e(explore_merge_follow_fork 0 "replaying dev:[0-9.,]+ \\(of shard [0-1]/2\\)"
  "replay: .* --follow-fork --replay" "wrote .*repro.yaml: reproduced 5/5" "merge exit 1"
  "20 runs: 20 REPRODUCED" "run exit 0"
  -- ${XM_PREFORK} prefork_slots write 2 --at prefork_slots.c --follow-fork --strategy dfs)
# a shard missing, one given twice, shards of another seed and of another
# split, a report that is no JSON, one that is not there, none: exit 2
racegate_e2e(explore_merge_errors 0
  "--merge: shard 1/3 is missing: 2 reports given of 3" "exit 2"
  "--merge: shard 0/3 is given twice: 'shard-0.json' and 'again.json'" "exit 2"
  "--merge: 'shard-0.json' and 'other-seed.json' are of different searches: they differ in \"seed\"" "exit 2"
  "--merge: shards of different splits: 'shard-0.json' is shard 0/3, 'other-split.json' shard 1/4" "exit 2"
  "--merge: 'broken.json':2:13: not JSON: ':' expected after a key" "exit 2"
  "--merge: cannot read 'none.json': No such file or directory" "exit 2"
  "--merge needs the shards' reports" "exit 2"
  -- ${XM} lost_update-fixed errors 3 --at lost_update.c --strategy random --schedules 3)
