# FUNCTION:return under deep recursion (issue 11): every one of 40,007
# returns is counted, per thread, including recursion that a longjmp leaves
# (its frames must be forgotten, not reported) and two threads recursing at
# once.  The structure is O(1) per call and return (bench/run.py --only
# returns shows the cost); this test checks that it loses and invents
# nothing.  It times nothing: TIMEOUT is only a generous ceiling.
add_executable(e2e_deeprec e2e/programs/deeprec.c)
target_compile_options(e2e_deeprec PRIVATE -O0 -g)
target_link_libraries(e2e_deeprec PRIVATE Threads::Threads)
set_target_properties(e2e_deeprec PROPERTIES OUTPUT_NAME deeprec
                      RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
configure_file(e2e/specs/deeprec.yaml ${E2E_DIR}/deeprec.yaml COPYONLY)

racegate_e2e(function_return_deep 0 "main: 20000 3" "PASSED"
  "main +tid [0-9]+ +rec:return +main-all +opened main-all"
  "deeprec.c:50 +end +passed"
  "!-extra +opened extra" "!NOT-ENFORCED"
  -- ${RG} run ${E2E_DIR}/deeprec.yaml)
