# Issue 21, item 6: a program that rewrites its own code at a gated line
# (tracer/rewrite.c): with a pad it runs into a jump written over, with an
# int3 racegate runs its copy of the old instruction (as gdb does); racegate
# says so when it finds the rewrite, and leaves the program's bytes.  The
# warnings are new: each test fails on the code before.
racegate_e2e_program(pads_rewrite SOURCES pads_rewrite.c OPTIONS -O2 -g NO_THREADS
  SPECS pads_rewrite.yaml)
function(pads_rewrite_e2e name status)
  add_test(NAME e2e_${name} COMMAND ${EXPECT} ${status} ${ARGN})
  set_tests_properties(e2e_${name} PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
endfunction()

# Over a pad's jump, where the program goes is its layout's (it faulted
# with the compilers tried): the exit status is not looked at.
pads_rewrite_e2e(pads_rewrite_imm_default 0
  "warning: the program rewrote its own code at 'pads_rewrite.c:[0-9]+' \\(0x[0-9a-f]+\\) over racegate's jump to a pad"
  -- sh -c "\"$@\" || true" sh
  ${RG} run --verbose ${E2E_DIR}/pads_rewrite.yaml -- ${E2E_DIR}/pads_rewrite imm)
pads_rewrite_e2e(pads_rewrite_imm_nofastpath 0 "sum 26"
  "warning: the program rewrote its own code at 'pads_rewrite.c:[0-9]+' \\(0x[0-9a-f]+\\) under racegate's breakpoint: each hit runs racegate's copy"
  "PASSED"
  -- ${RG} run --no-fastpath ${E2E_DIR}/pads_rewrite.yaml -- ${E2E_DIR}/pads_rewrite imm)
pads_rewrite_e2e(pads_rewrite_whole_default 0 "sum 30"
  "warning: the program rewrote its own code at 'pads_rewrite.c:[0-9]+' \\(0x[0-9a-f]+\\) over racegate's jump to a pad"
  "PASSED"
  -- ${RG} run --verbose ${E2E_DIR}/pads_rewrite.yaml -- ${E2E_DIR}/pads_rewrite whole)
pads_rewrite_e2e(pads_rewrite_whole_nofastpath 0 "sum 30"
  "warning: the program rewrote its own code at 'pads_rewrite.c:[0-9]+' \\(0x[0-9a-f]+\\) over racegate's breakpoint: the gate no longer sees that line"
  "PASSED"
  -- ${RG} run --no-fastpath ${E2E_DIR}/pads_rewrite.yaml -- ${E2E_DIR}/pads_rewrite whole)
# a program that leaves its code alone hears nothing of it
pads_rewrite_e2e(pads_rewrite_none 0 "PASSED" "!rewrote"
  -- ${RG} run --verbose ${E2E_DIR}/pads_entry.yaml)


# Without pads, on every machine: the breakpoints left in at the end are
# read back a span at a time (rewrite.c); the rewritten one among its
# neighbours is found, and only it.  With imm, every hit runs racegate's
# copy of the old instruction (the gate never lets go of the line): 20.
racegate_e2e_specs(rewrite_neighbours.yaml)
racegate_e2e(rewrite_neighbours_imm 0 "sum 20"
  "warning: the program rewrote its own code at 'pads_rewrite.c:[0-9]+' \\(0x[0-9a-f]+\\) under racegate's breakpoint: each hit runs racegate's copy"
  "PASSED" "^warnings: 1$"
  -- sh -c "${RG} run --no-fastpath ${E2E_DIR}/rewrite_neighbours.yaml -- ${E2E_DIR}/pads_rewrite imm > ${E2E_DIR}/rewrite_imm.out 2>&1; cat ${E2E_DIR}/rewrite_imm.out; echo warnings: $(grep -c rewrote ${E2E_DIR}/rewrite_imm.out)")
racegate_e2e(rewrite_neighbours_whole 0 "sum 30"
  "warning: the program rewrote its own code at 'pads_rewrite.c:[0-9]+' \\(0x[0-9a-f]+\\) over racegate's breakpoint: the gate no longer sees that line"
  "PASSED" "^warnings: 1$"
  -- sh -c "${RG} run --no-fastpath ${E2E_DIR}/rewrite_neighbours.yaml -- ${E2E_DIR}/pads_rewrite whole > ${E2E_DIR}/rewrite_whole.out 2>&1; cat ${E2E_DIR}/rewrite_whole.out; echo warnings: $(grep -c rewrote ${E2E_DIR}/rewrite_whole.out)")
