# Captured output is bounded (head and tail kept): a chatty program still
# matches expect: at its end, and the report says what was not kept.
add_executable(e2e_chatty e2e/programs/chatty.c)
target_compile_options(e2e_chatty PRIVATE -O0 -g)
set_target_properties(e2e_chatty PROPERTIES OUTPUT_NAME chatty
                      RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
configure_file(e2e/specs/chatty.yaml ${E2E_DIR}/chatty.yaml COPYONLY)
racegate_e2e(output_bounded 0 "racegate: 2 runs: 2 PASSED"
  -- sh -c "${RG} run --repeat 2 --report ${E2E_DIR}/chatty.json ${E2E_DIR}/chatty.yaml && grep -c 'bytes of output not kept' ${E2E_DIR}/chatty.json")
