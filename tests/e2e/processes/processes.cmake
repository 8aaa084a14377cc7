# The program's processes and its own signals (issue 11): children that
# share its memory, its own int3, stopping itself, exec.  racegate never
# changes what the program does other than by delaying its threads.
foreach(prog spawner own_trap stopself execer outlive sigqueue_held fds vfork_spin)
  racegate_e2e_program(${prog} SOURCES ${prog}.c)
endforeach()
racegate_e2e_specs(spawner.yaml own_trap.yaml own_trap_past.yaml
  stopself.yaml execer.yaml execer_true.yaml execer_thread.yaml
  outlive.yaml sigqueue_held.yaml sigqueue_call.yaml fds.yaml
  vfork_spin.yaml)

# vfork (its child calls a gated function), posix_spawn, system() and
# popen() children run through breakpoints at execve, dup2 and the
# program's own code: they neither die of SIGTRAP nor arrive at a gate,
# and the worker is still held in dup2 until main is done with them.
racegate_e2e(children_share_memory 0
  "vfork 3, spawn 4, system 5, popen hello, pclose 0" "PASSED"
  "w +tid [0-9]+ +dup2 +w-dup +held: waiting for all-done"
  "main +tid [0-9]+ +spawner.c:24 +steps +opened all-done"
  "w +tid [0-9]+ +dup2 +w-dup +released after"
  "!exec +(passed|held)"
  -- ${RG} run ${E2E_DIR}/spawner.yaml)
# A clone(CLONE_VM) child outlives the program and runs gated code later:
# let go clean at the program's end, it finishes as natively.
racegate_e2e(child_outlives_program 0 "PASSED: exit 0" "^child steps 7$"
  -- sh -c "cd ${E2E_DIR} && rm -f outlive.out && ${RG} run outlive.yaml && sleep 2 && cat outlive.out")
racegate_e2e(children_share_memory_10_of_10 0 "10 runs: 10 PASSED$"
  -- ${RG} run --repeat 10 ${E2E_DIR}/spawner.yaml)

# The program's own int3 on a gated line (the breakpoint sits on it) and a
# raw one elsewhere: its SIGTRAP handler runs for each, also after the
# gate's breakpoint is taken out, and on a line watched until it is passed.
racegate_e2e(own_int3_on_gated_line 0 "traps 4" "PASSED"
  "trap-line +opened trapped-thrice" "after +passed"
  -- ${RG} run ${E2E_DIR}/own_trap.yaml)
racegate_e2e(own_int3_line_passed 0 "traps 4" "PASSED"
  "trap-line +opened passed-trap" "after +passed"
  -- ${RG} run ${E2E_DIR}/own_trap_past.yaml)

# raise(SIGSTOP) / SIGTSTP, then a SIGCONT from a helper process: nothing
# runs while the program is stopped, not even the worker its gate's
# timeout lets go meanwhile, and the run ends normally.  With no SIGCONT
# the program stays stopped, and the run ends at its timeout.
racegate_e2e(stop_self_sigcont 0 "ticks while stopped: 0" "PASSED"
  "w +tid [0-9]+ +stopself.c:28 +w-held +released by its timeout"
  "main +tid [0-9]+ +stopself.c:55 +continued +opened continued"
  -- ${RG} run ${E2E_DIR}/stopself.yaml)
racegate_e2e(stop_self_sigtstp 0 "ticks while stopped: 0" "PASSED"
  -- ${RG} run ${E2E_DIR}/stopself.yaml -- ${E2E_DIR}/stopself tstp)
racegate_e2e(stop_self_no_sigcont 3 "TIMEOUT" "!ERROR"
  -- ${RG} run --timeout 3s ${E2E_DIR}/stopself.yaml -- ${E2E_DIR}/stopself nocont)

# exec: the new image runs without gates and is judged by its own exit
# status and output; from a thread while main is held, too.
racegate_e2e(exec_self 0 "second image, 3 steps" "REPRODUCED: exit 7"
  "first +opened stepped" "second +passed" "!ERROR"
  -- ${RG} run ${E2E_DIR}/execer.yaml)
racegate_e2e(exec_other_program 0 "PASSED: exit 0" "!ERROR"
  -- ${RG} run ${E2E_DIR}/execer_true.yaml)
racegate_e2e(exec_from_thread 0 "second image, 3 steps" "REPRODUCED: exit 9"
  "main +tid [0-9]+ +execer.c:21 +main-held +held: waiting for never"
  -- ${RG} run ${E2E_DIR}/execer_thread.yaml)

# Real-time signals queued for a held thread (200, each with its own value)
# all reach the handler, with their values, when the thread is stepped past
# its line (then_open) or over a call out of line: each is delivered from
# its own stop at the breakpoint's address, and the handler's return to the
# int3 is not a second arrival.
racegate_e2e(signals_queued_while_held 0 "signals 200 sum 19900 x 1" "PASSED"
  "v +tid [0-9]+ +sigqueue_held.c:[0-9]+ +hold +opened past"
  "v +tid [0-9]+ +sigqueue_held.c:[0-9]+ +after +(passed|held)"
  -- ${RG} run ${E2E_DIR}/sigqueue_held.yaml)
racegate_e2e(signals_queued_while_held_call 0 "signals 200 sum 19900 x 1" "PASSED"
  "v +tid [0-9]+ +sigqueue_held.c:[0-9]+ +hold +released after"
  "!hold +passed"
  -- ${RG} run ${E2E_DIR}/sigqueue_call.yaml)

# The program's fds are what racegate was given, exactly as natively: an
# extra one (7) goes on, a closed stdin stays closed (it was racegate's ELF
# file), and none of racegate's own files leaks in.
racegate_e2e(program_fds_as_given 0 "^fds same: .*fd 7" "!^fd 0"
  -- ${CMAKE_CURRENT_LIST_DIR}/fds.sh ${RG} ${E2E_DIR})
# A vfork child that never execs, followed with racegate's int3s in its
# memory, dies with the program when racegate kills it (TIMEOUT, SIGTERM).
racegate_e2e(vfork_child_killed_with_program 0 "TIMEOUT" "^timeout: exit 3$"
  "INTERRUPTED" "^sigterm: exit 143$" "^done$" "!LEFT RUNNING"
  -- ${CMAKE_CURRENT_LIST_DIR}/vfork_spin.sh ${RG} ${E2E_DIR})
