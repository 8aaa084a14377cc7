# open_when_blocked: an event that opens once a thread sleeps in a system
# call (docs/gates.md).  Outcomes are asserted, never durations.
racegate_e2e_program(when_blocked SOURCES when_blocked.c
  SPECS when_blocked_cond.yaml when_blocked_open.yaml when_blocked_pipe.yaml
        when_blocked_signal.yaml when_blocked_exit.yaml)

# The signal waits for the waiter to sleep in its condition wait: woken every time.
racegate_e2e(when_blocked_cond 0
  "main-signals +held: waiting for waiting"
  "waiter-works .*opened waiting \\(blocked in a system call: futex\\)"
  "main-signals +released" "!missed"
  -- ${RG} run -v ${E2E_DIR}/when_blocked_cond.yaml)
racegate_e2e(when_blocked_cond_repeat 0 "20 runs: 20 REPRODUCED"
  -- ${RG} run -q --repeat 20 ${E2E_DIR}/when_blocked_cond.yaml)
# open: at the same gate lets the signal come first: the wake-up is lost
# (in every run, unless main is kept off the CPU for the waiter's 50 ms).
racegate_e2e(when_blocked_open_is_not_enough 1 "3 runs: (.*, )?[1-3] NOT-REPRODUCED"
  -- ${RG} run --repeat 3 ${E2E_DIR}/when_blocked_open.yaml)
# Blocked in read() on a pipe: the write comes after.
racegate_e2e(when_blocked_pipe 0
  "reader-reads .*opened reading \\(blocked in a system call: read\\)"
  "10 runs: 10 REPRODUCED"
  -- ${RG} run --repeat 10 -v ${E2E_DIR}/when_blocked_pipe.yaml)
# Hostile: a signal sent to the thread while it sleeps (the tracer stops it
# and passes the signal on) interrupts the read it was found blocked in.
racegate_e2e(when_blocked_signal 0
  "opened reading \\(blocked in a system call: read\\)"
  "10 runs: 10 REPRODUCED"
  -- ${RG} run --repeat 10 -v ${E2E_DIR}/when_blocked_signal.yaml)
# Hostile: the thread exits without blocking: its exit opens the event
# (never a hang), and the timeline says so.
racegate_e2e(when_blocked_exit 0 "REPRODUCED"
  "opened quit \\(exited before it blocked\\)" "!NOT-ENFORCED"
  -- ${RG} run ${E2E_DIR}/when_blocked_exit.yaml)
