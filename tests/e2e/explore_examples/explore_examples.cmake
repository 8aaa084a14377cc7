# The done-when of racegate explore (issue 14) over every example: from
# `--at` on the buggy source alone, seed 1, within 1,000 schedules, explore
# finds the bug and writes a gates file that `racegate run --repeat 100`
# reproduces 100 times of 100; the fixed variant, searched within a bound,
# fails nowhere and gets no gates file.  One strategy per example here (the
# suite must stay short); bench/explore_matrix.sh runs every strategy on
# every example, bench/explore.sh measures them.  See explore_examples.sh.
set(XX ${CMAKE_CURRENT_LIST_DIR}/explore_examples.sh)
set(none_found "no failure after [0-9]+ schedules" "explore exit 0" "!a gates file was written")

# racegate_explore_example(EXAMPLE PROGRAM AT STRATEGY [SUMMARY RE...]
#                          [YAML RE...] [OPTS OPTION...] [ARGS PROGRAM-ARG...]):
# explore with the OPTS too; the summary says FAILED (and matches the
# SUMMARY patterns), the file is written and matches the YAML ones, and
# racegate run reproduces it 100 times of 100
function(racegate_explore_example ex prog at strategy)
  set(summary)
  set(yaml)
  set(args)
  set(opts)
  set(in summary)
  foreach(a ${ARGN})
    if(a STREQUAL "SUMMARY" OR a STREQUAL "YAML" OR a STREQUAL "ARGS" OR a STREQUAL "OPTS")
      string(TOLOWER ${a} in)
    else()
      list(APPEND ${in} ${a})
    endif()
  endforeach()
  if(NOT summary)
    set(summary "FAILED")
  endif()
  if(opts)
    set(args ${opts} -- ${args})
  endif()
  racegate_e2e(explore_example_${ex}_${strategy} 0 ${summary}
    "wrote .*reproduced 20/20 under racegate run" "explore exit 1" ${yaml}
    "100 runs: 100 REPRODUCED$" "run exit 0"
    -- ${XX} find ${RG} ${EXAMPLES}/${ex} ${prog} ${at} ${strategy} ${args})
endfunction()

racegate_explore_example(lost_update lost_update lost_update.c pct)
racegate_explore_example(abba_deadlock abba_deadlock abba_deadlock.c pct
  SUMMARY "FAILED \\(deadlock\\)" YAML "deadlock: true")
# a deadlock's last stretch ends held at a lock: the file must say so
racegate_explore_example(abba_deadlock abba_deadlock abba_deadlock.c dfs
  SUMMARY "FAILED \\(deadlock\\)"
  YAML "refund_1-[0-9]+, thread: refund_1, at: \"\\*pthread_mutex_lock\", hit: 2, open: .refund_1-stop")
racegate_explore_example(array_list array_list array_list.c random)
racegate_explore_example(shared_memory shared_memory shared_memory.c pct)
racegate_explore_example(string_buffer string_buffer sbuf.c pct)
racegate_explore_example(ledger bank ledger.c dfs)
racegate_explore_example(hoisted_count hoisted_count hoisted_count.c random)
racegate_explore_example(lost_count lost_count lost_count.c:19,lost_count.c:19+1,lost_count.c:19+2 dfs)
# the take must find the queue empty and spin until the producer, stopped
# between publishing and storing, is chosen: random's 50/50 at each of the
# 80 points rarely lets the consumer catch up (seed 1: none in 1,000), pct
# finds it at 647 (minutes); dfs, fewest delays first, at 4
racegate_explore_example(bounded_queue bounded_queue bounded_queue.c dfs
  SUMMARY "FAILED \\(exit status 1\\) after [1-9][0-9]? schedules" ARGS 3)
# the flaky sleep-and-hope test fails in the default order: explore holds
# the task while main sleeps (as a loaded machine may) and its points slow
# the task down; the file has the task wait for main's exit
racegate_explore_example(long_task long_task long_task.c random
  SUMMARY "FAILED \\(exit status 1\\) after 1 schedule"
  YAML "thread: long_running_task_1, .*wait: \\[exited:main\\]")
# (dfs finds it too, with 2 preemptions, but its file leaves worker_1
# free, and worker_1 may take the encoder first: 86/100 once; random's
# shrunk schedule keeps 4 preemptions and its file reproduces 5/20)
# busy_flag with pct: docs/explore.md's tutorial runs this very search, seed
# 1, and its file 100 times (e2e_docs_tutorial_explore checks every line)
racegate_explore_example(payment_ring payment_ring payment_ring.c pct
  SUMMARY "FAILED \\(deadlock\\)")
# job_queue, the bug behind a condition variable: the waiter's gate before
# its condition wait opens its "stopped" event only once it sleeps in the
# wait (open_when_blocked), so main's signal cannot come first
racegate_explore_example(job_queue job_queue job_queue.c random
  SUMMARY "FAILED \\(killed by SIGSEGV\\)"
  YAML "at: \"\\*pthread_cond_wait\", open_when_blocked: \\[worker_[12]-stop[0-9]+\\]")
racegate_explore_example(job_queue job_queue job_queue.c pct
  SUMMARY "FAILED \\(killed by SIGSEGV\\)")
# dfs, fewest delays first: the bugs that need one preemption (job_queue)
# or two (payment_ring, busy_flag) within 1,000 schedules; before
# iterative bounding, deepest decisions first, none of these was found.
# job_queue's second worker reaches no point before the crash: what it
# runs is unknown, so the first is named by its start routine, not
# {runs: queue_pop}, which both run (13 of 300 replays bound the wrong one)
racegate_explore_example(job_queue job_queue job_queue.c dfs
  SUMMARY "FAILED \\(killed by SIGSEGV\\)"
  YAML "^  worker_1: \\{start: worker, nth: 1\\}$" "!\\{runs: ")
racegate_explore_example(payment_ring payment_ring payment_ring.c dfs
  SUMMARY "FAILED \\(deadlock\\) after [1-9][0-9]?[0-9]? schedules")
racegate_explore_example(busy_flag busy_flag busy_flag.c dfs
  SUMMARY "FAILED \\((exit status 1|killed by SIGABRT)\\) after [1-9][0-9]?[0-9]? schedules")
# a pre-fork server: the threads are in the worker child, so explore must
# follow the fork, and the file names the child's threads by their process
racegate_explore_example(prefork_slots prefork_slots prefork_slots.c random
  OPTS --follow-fork SUMMARY "FAILED \\(exit status 1\\)" "replay: .* --follow-fork "
  YAML "^  child1_handler_[12]: \\{start: handler, nth: [12], process: \\{nth: 1\\}\\}$")
racegate_explore_example(prefork_slots prefork_slots prefork_slots.c dfs
  OPTS --follow-fork SUMMARY "FAILED \\(exit status 1\\) after [1-9] schedules")
# without --follow-fork the worker runs free: the search sees one thread
# and one interleaving.  The worker may still lose a slot by itself, as in
# a plain run (1 in 3,000, more on a loaded machine): the search then says
# FAILED, and main's path to its report of the worker's signal is the
# second interleaving, of main alone
racegate_e2e(explore_example_prefork_slots_unfollowed 0
  "(no failure after [0-9]+ schedules? \\(1 distinct interleaving\\)|FAILED \\(exit status 1\\) after [0-9]+ schedules? \\([12] distinct interleavings?\\))"
  "the program forked a child process that ran untraced: --follow-fork schedules"
  "explore exit [01]$"
  -- bash -c "\"$@\"; echo \"explore exit $?\"" explore ${RG} explore --at prefork_slots.c
     --schedules 50 -- ${EXAMPLES}/prefork_slots/prefork_slots)
# the fix's lock lives in the child's memory: read from the program's,
# it looked free, a handler was let go into a lock it then waited for,
# and the schedule timed out
racegate_e2e(explore_example_prefork_slots_fixed 0 ${none_found}
  -- ${XX} fixed ${RG} ${EXAMPLES}/prefork_slots prefork_slots prefork_slots.c
     --follow-fork --schedules 100)
# main crashes a thread from inside exit(): the file keeps main held there
# until the flusher is gone (issue 23, item 5), and its comment says so
racegate_explore_example(exit_flush exit_flush exit_flush.c dfs
  SUMMARY "FAILED \\(killed by SIG(ABRT|SEGV)\\)"
  YAML "# main stops here and lets flusher_1 run. it goes on once that has exited$"
       "thread: main, .*wait: \\[exited:flusher_1\\]")
racegate_explore_example(exit_flush exit_flush exit_flush.c random
  SUMMARY "FAILED \\(killed by SIG(ABRT|SEGV)\\)")
# a memcached-shaped server with the defaults: the dispatcher's timer and
# the housekeepers' sleeps fired by virtual time; a file found from the
# whole source file that reproduces (issue 23's server target)
# (its write-back's code is on five lines: the file names it by the tag in
# its comment, or by the lock's entry when the stop was taken there)
racegate_explore_example(mc_workers mc_workers mc_workers.c random ARGS --drive
  SUMMARY "FAILED \\(exit status 1\\) after [1-9] schedules?"
  YAML "at: \"(mc_workers.c:/INCR-WRITE-BACK/|\\*pthread_mutex_lock)\"")
# Not here: kv_server (`--at handle_incr,incr_apply,handle_del --timeout 30s
# -- ./kv_server --drive`): explore finds it, but the file it writes does
# not reproduce every time yet (bench/README.md).

# busy_flag needs two preemptions: every schedule with one is run, and none
# fails (points at every line of the two functions the race is in; the
# whole file's 2,500 schedules say the same in four times as long)
racegate_e2e(explore_example_busy_flag_bound_1 0 "no failure after [0-9]+ schedules.*dfs$"
  "every schedule with at most 1 preemption was run"
  -- ${RG} explore --at worker,encode --strategy dfs --preemptions 1 --schedules 5000
     -- ${EXAMPLES}/busy_flag/busy_flag)

# the fixed variants: 100 schedules without a failure
foreach(e lost_update:lost_update.c abba_deadlock:abba_deadlock.c array_list:array_list.c
          shared_memory:shared_memory.c hoisted_count:hoisted_count.c long_task:long_task.c
          busy_flag:busy_flag.c payment_ring:payment_ring.c exit_flush:exit_flush.c
          string_buffer:sbuf.c ledger:ledger.c)
  string(REPLACE ":" ";" e ${e})
  list(GET e 0 ex)
  list(GET e 1 at)
  set(prog ${ex})
  if(ex STREQUAL "ledger")
    set(prog bank)
  endif()
  racegate_e2e(explore_example_${ex}_fixed 0 ${none_found}
    -- ${XX} fixed ${RG} ${EXAMPLES}/${ex} ${prog} ${at} --schedules 100)
endforeach()
# the fixed count++ is one locked instruction: no +2 to put a point at, so
# its lines are the points
racegate_e2e(explore_example_lost_count_fixed 0 ${none_found}
  -- ${XX} fixed ${RG} ${EXAMPLES}/lost_count lost_count lost_count.c --schedules 100)
racegate_e2e(explore_example_bounded_queue_fixed 0 ${none_found}
  -- ${XX} fixed ${RG} ${EXAMPLES}/bounded_queue bounded_queue bounded_queue.c
     --schedules 100)

# the Markdown reports' diagrams, and the one in docs/explore.md, parse with
# Mermaid's own parser (skipped where node is absent)
add_test(NAME e2e_explore_mermaid_parses
  COMMAND ${XX} mermaid ${RG} ${EXAMPLES} ${PROJECT_SOURCE_DIR}/tests/tools
          ${PROJECT_BINARY_DIR}/tests/mermaid ${PROJECT_SOURCE_DIR}/docs/explore.md
          lost_update:lost_update:lost_update.c abba_deadlock:abba_deadlock:abba_deadlock.c
          string_buffer:string_buffer:sbuf.c busy_flag:busy_flag:busy_flag.c)
set_tests_properties(e2e_explore_mermaid_parses PROPERTIES LABELS e2e TIMEOUT 600
  SKIP_RETURN_CODE 77)

# job_queue: the worker woken by main's signal gets to its take before main
# takes the lock back for the next push; the file must say so (main's gate
# after the signal waits for the woken worker's arrival), else main pushes
# first and the woken worker takes that job; and the worker goes on only
# once main is there (where main stood when the wake was seen).  The
# shrunk schedule's file is printed by --verbose whether it reproduces or not; its line 54, the take,
# is written as an anchor on its code, main's stop at the push's closing "}"
# as its place in queue_push (*queue_push+N).  Exit 1:
# it failed (stdout, buffered, comes after the traces).
racegate_e2e(explore_example_job_queue_woken 1
  "thread: main, at: \"\\*queue_push\\+[0-9]+\", open: \\[main-stop[0-9]+\\], wait: \\[worker_2-woke[0-9]+\\]"
  "thread: worker_2, at: \"job_queue.c:/j.*qu->slots.*qu->head.*/\", hit: 2, open: \\[worker_2-woke[0-9]+\\]"
  -- ${RG} explore --verbose --at job_queue.c --strategy random --seed 1 --schedules 1000
     -o ${E2E_DIR}/explore_job_queue_woken.yaml -- ${EXAMPLES}/job_queue/job_queue)
