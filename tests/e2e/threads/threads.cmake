# Threads' lives: started:ALIAS and exited:ALIAS, the main thread's too.
racegate_e2e_program(main_exit SOURCES main_exit.c
  SPECS main_exit.yaml main_exit_stuck.yaml)

# main calls pthread_exit while the worker runs on: the kernel keeps main a
# zombie until the end, but exited:M opens when it exits, not at the end.
racegate_e2e(main_thread_exited 0
  "worker ran" "PASSED: exit 0"
  "W +tid [0-9]+ +main_exit.c:15 +after-main +held: waiting for exited:M"
  "M +tid [0-9]+ .*opened exited:M"
  "W +tid [0-9]+ +main_exit.c:15 +after-main +released after"
  -- ${RG} run ${E2E_DIR}/main_exit.yaml)
# Only main could open what the worker still waits for: the zombie main is
# no live thread (not listed, not waited for), exited:M is open, and the
# run ends stuck at once.
racegate_e2e(main_thread_exited_stuck 3
  "SCHEDULE-DEADLOCK"
  "!^  M +tid"
  "W +tid [0-9]+ +held at gate 'after-main': waiting for main-again +at main_exit.c:15"
  "wait-for chain: .*only M \\(tid [0-9]+\\), at gate 'main-twice' can open main-again, and it has exited"
  -- ${RG} run ${E2E_DIR}/main_exit_stuck.yaml)
