# racegate explore --strategy pct-fair (issue 23, fairness): threads that
# hand items over through a flag each side spins on with sched_yield.
# Under pct the spinner keeps the highest priority and the thread it waits
# for moves one point per decider spin limit (10,000 decisions): its runs
# take hundreds of thousands of decisions, and end by --timeout on a slow
# machine.  pct-fair lets a spinner give way: every run stays a few
# hundred decisions, the bug (the flag published before the item) is found
# as an exit status, and the fixed variant passes every schedule.
racegate_e2e_program(explore_yield_handoff SOURCES explore_yield_handoff.c)
racegate_e2e_program(explore_yield_handoff_fixed SOURCES explore_yield_handoff.c
  OPTIONS -O0 -g -DMAILBOX_FIXED)

# the bug, found by a schedule of pct-fair: its first run (STEPS) and the
# failing one each under the decider's spin limit, no timeout
racegate_e2e(explore_yield_handoff_pct_fair 1
  "FAILED \\(exit status 1\\) after [0-9]+ schedules? .*, pct-fair, seed 2$"
  "failing schedule: pct-fair:3:[0-9]{1,4}:2:[0-9]+ \\([0-9]+ preemptions?, [0-9]{1,4} decisions\\)"
  "!FAILED \\(timeout\\)"
  -- ${RG} explore --at explore_yield_handoff.c --strategy pct-fair --seed 2
     --schedules 500 --timeout 60s -- ${E2E_DIR}/explore_yield_handoff)
# the fixed mailbox: every schedule ends, none fails
racegate_e2e(explore_yield_handoff_fixed_pct_fair 0
  "no failure after 50 schedules .*, pct-fair, seed 1$"
  "!FAILED \\(timeout\\)"
  -- ${RG} explore --at explore_yield_handoff.c --strategy pct-fair --schedules 50
     --timeout 60s -- ${E2E_DIR}/explore_yield_handoff_fixed)
