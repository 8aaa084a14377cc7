# Captured output is bounded (head and tail kept): a chatty program still
# matches expect: at its end, and the report says what was not kept.
racegate_e2e_program(chatty SOURCES chatty.c NO_THREADS SPECS chatty.yaml)
racegate_e2e(output_bounded 0 "racegate: 2 runs: 2 PASSED"
  -- sh -c "${RG} run --repeat 2 --report ${E2E_DIR}/chatty.json ${E2E_DIR}/chatty.yaml && grep -c 'bytes of output not kept' ${E2E_DIR}/chatty.json")
