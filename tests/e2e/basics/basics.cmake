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
racegate_e2e(signals_pass_through 0 "usr1=100 trap=2 touched=101"
  "PASSED" -- ${RG} run ${E2E_DIR}/signals.yaml)
racegate_e2e(fork_child_clean 0 "child ok" "PASSED" -- ${RG} run ${E2E_DIR}/forker.yaml)
