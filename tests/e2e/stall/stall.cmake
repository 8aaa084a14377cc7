# Stall verdicts against the outside world: a thread blocked on a pipe or a
# socket is blocked for ever only when no other process can write to it.
# Outcomes are asserted, never durations.
racegate_e2e_program(stall SOURCES stall.c SPECS stall.yaml)

# A child of popen writes the pipe after a while: the run waits for it.
racegate_e2e(stall_popen_child_writes 0 "worker sees got=1" "PASSED"
  "!DEADLOCK" "hold +released after"
  -- ${RG} run ${E2E_DIR}/stall.yaml -- ${E2E_DIR}/stall popen)
# accept on a listening socket: a client (here a forked child) may connect.
racegate_e2e(stall_accept_client_connects 0 "worker sees got=1" "PASSED"
  "!DEADLOCK" "hold +released after"
  -- ${RG} run ${E2E_DIR}/stall.yaml -- ${E2E_DIR}/stall accept)
# A pipe and a socketpair only the program holds: nobody else can write.
racegate_e2e(stall_own_pipe 3 "SCHEDULE-DEADLOCK"
  "main +tid [0-9]+ +blocked: read with no timeout on a pipe or socket"
  "worker +tid [0-9]+ +held at gate 'hold': waiting for got"
  -- ${RG} run ${E2E_DIR}/stall.yaml -- ${E2E_DIR}/stall pipe)
racegate_e2e(stall_own_socketpair 3 "SCHEDULE-DEADLOCK"
  "main +tid [0-9]+ +blocked: read with no timeout on a pipe or socket"
  "worker +tid [0-9]+ +held at gate 'hold': waiting for got"
  -- ${RG} run ${E2E_DIR}/stall.yaml -- ${E2E_DIR}/stall pair)
