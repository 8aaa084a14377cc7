# Disarming: a breakpoint whose gates can no longer act is taken out, so a
# gate in a hot loop costs nothing once its work is done.  --verbose counts
# the traps at gate locations: 1 + 1 + 1 + 1,000 + 1 of the 201,002 passes.
racegate_e2e_program(disarm SOURCES disarm.c NO_THREADS SPECS disarm.yaml)

racegate_e2e(disarm_done_gates 0 "sum 2000" "PASSED"
  "first-pass +opened seen" "open-wait +passed" "last-pass +opened last" "end +passed"
  "racegate: 1004 breakpoint hits at gates, 5 arrivals, 5 breakpoints disarmed"
  -- ${RG} run --verbose ${E2E_DIR}/disarm.yaml)
