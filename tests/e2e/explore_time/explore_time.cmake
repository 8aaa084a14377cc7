# Time under explore's serialisation (issue 23, item 3; docs/explore.md,
# "Time under serialisation"): with --virtual-time, threads that sleep (a housekeeper's usleep
# loop, an epoll loop with a timeout, a poll with a timeout) are parked in
# their sleep, and their timeouts fire when no held thread can run, so a
# schedule costs what its decisions cost, not what its sleeps add up to,
# and a replay fires them at the same decisions.  Before, each sleep of a
# chosen thread stalled every other thread: the fixed variant's 100
# schedules took 125 s, and the buggy one's shrinking did not end in 5
# minutes (now 3.5 s and 2 s).  An epoll_wait or poll racegate interrupted
# must not return EINTR: the program exits 3 if it does.
racegate_e2e_program(explore_sleepers SOURCES explore_sleepers.c)
racegate_e2e_program(explore_slow_once SOURCES explore_slow_once.c)
racegate_e2e_program(explore_sleepers_fixed SOURCES explore_sleepers.c
  OPTIONS -O0 -g -DSLEEPERS_FIXED)
set(XT_OUT ${CMAKE_CURRENT_BINARY_DIR}/explore_time)
file(MAKE_DIRECTORY ${XT_OUT})

# the lost request found, shrunk, and its file reproduces (time passing
# being a choice, random's schedule lets it pass early here and there: the
# shrunk one keeps 7 preemptions, where it kept 1 when a timeout fired
# only once nothing else could happen)
racegate_e2e(explore_sleepers_found 0 "FAILED \\(exit status 1\\) after [0-9]+ schedules?"
  "shrunk to dev:[0-9sx.,]+ \\([0-9]+ preemptions?," "wrote .*sleepers.yaml: reproduced 20/20"
  "20 runs: 20 REPRODUCED" "!FAILED \\(timeout" "!exit status 3"
  -- sh -c "cd ${E2E_DIR} && ${RG} explore --virtual-time --at explore_sleepers.c -o ${XT_OUT}/sleepers.yaml -- ./explore_sleepers; ${RG} run -q --repeat 20 ${XT_OUT}/sleepers.yaml 2>&1 | tail -n 1")

# the fixed variant: every schedule ends, none fails, none is a timeout
racegate_e2e(explore_sleepers_fixed_passes 0
  "no failure after 100 schedules \\(100 distinct interleavings\\)" "!FAILED"
  -- ${RG} explore --virtual-time --at explore_sleepers.c --schedules 100 --timeout 5s
     -- ${E2E_DIR}/explore_sleepers_fixed)

# dfs: a schedule id replays, sleeps and all (the same failure each time)
racegate_e2e(explore_sleepers_dfs_replays 1 "FAILED \\(exit status 1\\) after 1 schedule"
  "!FAILED \\(timeout"
  -- ${RG} explore --virtual-time --at explore_sleepers.c --replay dev:3.67.2.4 --timeout 5s
     -- ${E2E_DIR}/explore_sleepers)

# virtual time is the default: the report says so, and the replay command
# needs no flag for it; one that turned it off says so in its replay
racegate_e2e(explore_sleepers_virtual_time_said 1
  "replay: racegate explore --at 'explore_sleepers.c' --replay"
  "\"virtual_time\": true"
  -- sh -c "cd ${E2E_DIR} && ${RG} explore --at explore_sleepers.c --report ${XT_OUT}/r.json --replay dev:3.67.2.4 -- ./explore_sleepers; r=$?; grep -o '\"virtual_time\": true' ${XT_OUT}/r.json; exit $r")
racegate_e2e(explore_real_time_said 1
  "replay: racegate explore --at 'explore_slow_once.c' --no-virtual-time --timeout 1s --replay"
  "\"virtual_time\": false"
  -- sh -c "${RG} explore --no-virtual-time --at explore_slow_once.c --timeout 1s --report ${XT_OUT}/rt.json --replay dev: -- ${E2E_DIR}/explore_slow_once -; r=$?; grep -o '\"virtual_time\": false' ${XT_OUT}/rt.json; exit $r")

# kv_server's default order (epoll loop with a 100 ms timeout, a 50 ms
# sleeper, a driver that polls with 1 ms sleeps) ends as the plain server
# does: before, it was FAILED (timeout), a false failure that stopped the
# search
racegate_e2e(explore_kv_server_default_order_ends 0
  "no failure after 1 schedule \\(1 distinct interleaving\\)" "!FAILED"
  -- ${RG} explore --at kv_server.c --replay dev: --timeout 10s
     -- ${EXAMPLES}/kv_server/kv_server --drive)
# without it, a sleep is part of its thread's stretch: the same order
# takes longer than --timeout (the false failure virtual time removes)
racegate_e2e(explore_kv_server_real_time_times_out 1 "FAILED \\(timeout\\)"
  -- ${RG} explore --no-virtual-time --at kv_server.c --replay dev: --timeout 2s
     -- ${EXAMPLES}/kv_server/kv_server --drive)

# A timeout counts as a failure only if its replay repeats it: the first
# run hangs, its replay ends, and the search goes on to find nothing
racegate_e2e(explore_timeout_not_replayed 0 "no failure after 3 schedules"
  "1 schedule ended by --timeout but not when replayed: no failure"
  "\"flaky_timeouts\": 1" "!FAILED"
  -- sh -c "rm -f ${XT_OUT}/marker; ${RG} explore --at explore_slow_once.c --schedules 3 --timeout 1s --report ${XT_OUT}/flaky.json -- ${E2E_DIR}/explore_slow_once ${XT_OUT}/marker; r=$?; grep -o '\"flaky_timeouts\": [0-9]*' ${XT_OUT}/flaky.json; exit $r")
# one that hangs every time is still a failure
racegate_e2e(explore_timeout_replayed 1 "FAILED \\(timeout\\) after 1 schedule"
  "!not when replayed"
  -- ${RG} explore --at explore_slow_once.c --schedules 3 --timeout 1s
     -- ${E2E_DIR}/explore_slow_once -)
# ... and the shards' merge says so too
racegate_e2e(explore_timeout_not_replayed_merged 0 "no failure after 8 schedules .*2 shards merged"
  "1 schedule ended by --timeout but not when replayed: no failure"
  -- sh -c "rm -f ${XT_OUT}/m3; for i in 0 1; do ${RG} explore --at explore_slow_once.c --schedules 4 --timeout 1s --shard $i/2 --report ${XT_OUT}/sh$i.json -- ${E2E_DIR}/explore_slow_once ${XT_OUT}/m3 >/dev/null; done; ${RG} explore --merge ${XT_OUT}/sh0.json ${XT_OUT}/sh1.json")

# signals to a parked sleeper, and the program's exit while one is parked:
# every run ends as the plain program's do
racegate_e2e_program(explore_sleep_signals SOURCES explore_sleep_signals.c)
racegate_e2e(explore_parked_signals 0 "no failure after 30 schedules" "!FAILED"
  -- ${RG} explore --virtual-time --at explore_sleep_signals.c --schedules 30
     --timeout 10s -- ${E2E_DIR}/explore_sleep_signals)
racegate_e2e(explore_parked_exit 0 "no failure after 30 schedules" "!FAILED"
  -- ${RG} explore --virtual-time --at explore_sleep_signals.c --schedules 30
     --timeout 10s -- ${E2E_DIR}/explore_sleep_signals exit)

# Time passing is a choice: a watcher polling every millisecond misses a
# stage only when the worker's 10 ms sleep ends twice while the watcher
# is held -- a sleeper overtaking a thread that could run, which a
# timeout fired only when nothing else can happen never searched.  Each
# strategy finds it with the defaults, its id names the timeout (sN), and
# the file reproduces under racegate run, where the sleeps take their time.
racegate_e2e_program(explore_stage_watch SOURCES ../triage/stage_watch.c)
foreach(st random pct dfs)
  racegate_e2e(explore_stage_watch_${st} 0
    "FAILED \\(killed by SIGABRT\\)" "shrunk to dev:[0-9x.,]*s[0-9]"
    "wrote .*stage_watch_${st}.yaml: reproduced 20/20" "20 runs: 20 REPRODUCED"
    -- ${CMAKE_CURRENT_LIST_DIR}/stage_watch.sh ${RG} ${E2E_DIR}/explore_stage_watch
       ${XT_OUT}/stage_watch_${st}.yaml ${st})
endforeach()
# The same with sleeps of 300 and 30 us, which no look at /proc would
# find: parked as they begin, they give the same schedules.
foreach(st random pct dfs)
  racegate_e2e(explore_brief_sleeps_${st} 0
    "FAILED \\(killed by SIGABRT\\)" "shrunk to dev:[0-9x.,]*s[0-9]"
    "wrote .*brief_sleeps_${st}.yaml: reproduced 20/20" "20 runs: 20 REPRODUCED"
    -- ${CMAKE_CURRENT_LIST_DIR}/stage_watch.sh ${RG} ${E2E_DIR}/explore_stage_watch
       ${XT_OUT}/brief_sleeps_${st}.yaml ${st} 300 30)
endforeach()

# Loops that sleep (kv_server's epoll loop and its housekeeper) do not
# take every turn: pct ranks time passing as the sleeper's thread, and
# without the turn rule two such loops at the top took turns until
# --timeout (a false FAILED (timeout) at schedule 2).
racegate_e2e(explore_kv_server_pct_sleepers_take_turns 0
  "no failure after 6 schedules" "!FAILED" "!timeout"
  -- ${RG} explore --strategy pct --at kv_server.c --schedules 6 --timeout 20s
     -- ${EXAMPLES}/kv_server/kv_server-fixed --drive)
