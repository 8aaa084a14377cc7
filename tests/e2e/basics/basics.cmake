# The basics, on four small programs: every hit of a gate counted, a crash
# while a thread is held, the program's own signals passed through, a
# forked child left clean.  hits.c and hits.yaml serve other topics too
# (errors, dwarf_versions, messages, pads, spec_limits, reports).
foreach(prog hits crash_held signals forker)
  racegate_e2e_program(${prog} SOURCES ${prog}.c SPECS ${prog}.yaml)
endforeach()

racegate_e2e(no_lost_hits 0 "w1-last .*opened w1-done" "main-end .*passed"
  "!NOT-ENFORCED" -- ${RG} run ${E2E_DIR}/hits.yaml)
racegate_e2e(crash_while_held 0 "REPRODUCED: killed by SIGSEGV \\(Segmentation fault\\)"
  "hold-forever +held: waiting for never-opened" -- ${RG} run ${E2E_DIR}/crash_held.yaml)
# the same crash where a gate that must act never did: NOT-ENFORCED, and
# the verdict says the program crashed (it may be why)
file(READ ${CMAKE_CURRENT_LIST_DIR}/crash_held.yaml crash_spec)
string(REPLACE ", optional: true}" "}" crash_spec "${crash_spec}")
string(REPLACE "signal: SIGSEGV" "exit: 0" crash_spec "${crash_spec}")
file(WRITE ${E2E_DIR}/crash_unreached.yaml "${crash_spec}")
racegate_e2e(crash_with_gate_unreached 3
  "NOT-ENFORCED: the order did not take hold: 'opener' \\(crash_held.c:16\\) was never reached; the program was killed by SIGSEGV \\(Segmentation fault\\)"
  -- ${RG} run ${E2E_DIR}/crash_unreached.yaml)
racegate_e2e(signals_pass_through 0 "usr1=100 trap=2 touched=101"
  "PASSED" -- ${RG} run ${E2E_DIR}/signals.yaml)
racegate_e2e(fork_child_clean 0 "child ok" "PASSED" -- ${RG} run ${E2E_DIR}/forker.yaml)
