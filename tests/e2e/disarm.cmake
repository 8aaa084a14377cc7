# Disarming: a breakpoint whose gates can no longer act is taken out, so a
# gate in a hot loop costs nothing once its work is done.  --verbose counts
# the traps at gate locations: 1 + 1 + 1 + 1,000 + 1 of the 201,002 passes.
add_executable(e2e_disarm e2e/programs/disarm.c)
target_compile_options(e2e_disarm PRIVATE -O0 -g)
set_target_properties(e2e_disarm PROPERTIES OUTPUT_NAME disarm
                      RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
configure_file(e2e/specs/disarm.yaml ${E2E_DIR}/disarm.yaml COPYONLY)

racegate_e2e(disarm_done_gates 0 "sum 2000" "PASSED"
  "first-pass +opened seen" "open-wait +passed" "last-pass +opened last" "end +passed"
  "racegate: 1004 breakpoint hits at gates, 5 arrivals, 5 breakpoints disarmed"
  -- ${RG} run --verbose ${E2E_DIR}/disarm.yaml)
