# Why a gate did not hold: the timeline says when the events a wait needed
# had opened already, and the outcome says when main exited while a thread
# that had got past a gate was still running (unheld.c).
racegate_e2e_program(unheld SOURCES unheld.c
  SPECS unheld_late.yaml unheld_nojoin.yaml)

racegate_e2e(unheld_wait_already_open 1 "NOT-REPRODUCED"
  "inc#1 +tid [0-9]+ +unheld.c:22 +inc +opened b_inc"
  "R +tid [0-9]+ +unheld.c:29 +read +passed \\(b_inc already open since \\+[0-9]+\\.[0-9]{3} ms\\)$"
  -- ${RG} run ${E2E_DIR}/unheld_late.yaml)
racegate_e2e(unheld_main_exited_first 3
  "NOT-ENFORCED: the order did not take hold: 'w-done' \\(unheld.c:38\\) was never reached. main exited while 'W' \\((released from|past) gate 'w-write' at \\+[0-9]+\\.[0-9]{3} ms, not yet at 'w-done'\\) was still running \\("
  "W +tid [0-9]+ +unheld.c:36 +w-write +(opened w-waiting|held: waiting for main-ready)"
  "!warning"
  -- ${RG} run ${E2E_DIR}/unheld_nojoin.yaml)
