# Issue 21, item 6: no pad's jump covers bytes that code elsewhere enters:
# a second entry point (a global label in assembly, called from another
# function), a call to a local label no symbol names (dwarfx_entry_within).
# With pads the program used to run into the middle of the jump.
racegate_e2e_program(pads_entry SOURCES pads_entry.c OPTIONS -O2 -g NO_THREADS
  SPECS pads_entry.yaml)
set(PADS_SAME ${E2E_SRC}/pads/pads_same.sh)
function(pads_entry_e2e name status)
  add_test(NAME e2e_${name} COMMAND ${EXPECT} ${status} ${ARGN})
  set_tests_properties(e2e_${name} PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
endfunction()

# code entered one byte into a gated line: no jump over it
foreach(fp default nofastpath)
  set(opt)
  if(fp STREQUAL nofastpath)
    set(opt --no-fastpath)
  endif()
  pads_entry_e2e(pads_entry_${fp} 0 "calls 20" "PASSED"
    -- ${RG} run --verbose ${opt} ${E2E_DIR}/pads_entry.yaml)
endforeach()
add_test(NAME e2e_pads_same_entry COMMAND ${PADS_SAME} ${RG} ${E2E_DIR}/pads_entry.yaml)
set_tests_properties(e2e_pads_same_entry PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
