# Issue 21, item 7: a when: over memory the program cannot read (a
# PROT_NONE guard page, a string that runs into one) is false and
# reported, in a pad and by racegate alike, never read as zeros.  The
# outcome tests fail on the code before that fix.
racegate_e2e_program(pads_guard SOURCES pads_guard.c NO_THREADS
  SPECS pads_guard_zero.yaml pads_guard_streq.yaml)
set(PADS_SAME ${E2E_SRC}/pads/pads_same.sh)
function(pads_guard_e2e name status)
  add_test(NAME e2e_${name} COMMAND ${EXPECT} ${status} ${ARGN})
  set_tests_properties(e2e_${name} PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
endfunction()

# unreadable memory in a when:, in the pad and by racegate
foreach(fp default nofastpath)
  set(opt)
  if(fp STREQUAL nofastpath)
    set(opt --no-fastpath)
  endif()
  pads_guard_e2e(pads_guard_zero_${fp} 0 "total 4950" "PASSED"
    "guard +when: \\*guard unreadable at 0x[0-9a-f]+" "!guard +opened guard"
    "'guard': 'when' was false at 100 arrivals \\(100 unreadable\\)"
    -- ${RG} run --verbose ${opt} ${E2E_DIR}/pads_guard_zero.yaml)
  pads_guard_e2e(pads_guard_streq_${fp} 0 "total 4950" "PASSED"
    "streq +when: buf unreadable at 0x[0-9a-f]+" "!opened streq"
    "'streq': 'when' was false at 100 arrivals \\(100 unreadable\\)"
    "'differs': 'when' was false at 100 arrivals \\(0 unreadable\\)"
    -- ${RG} run --verbose ${opt} ${E2E_DIR}/pads_guard_streq.yaml)
endforeach()
racegate_e2e(pads_guard_in_pad 0 "gate 'guard' at .*: pad. when: evaluated in the pad$"
  -- ${RG} run --verbose ${E2E_DIR}/pads_guard_zero.yaml)
foreach(s zero streq)
  add_test(NAME e2e_pads_same_guard_${s} COMMAND ${PADS_SAME} ${RG}
           ${E2E_DIR}/pads_guard_${s}.yaml)
  set_tests_properties(e2e_pads_same_guard_${s} PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
endforeach()
