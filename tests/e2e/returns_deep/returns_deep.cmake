# FUNCTION:return under deep recursion (issue 11): every one of 40,007
# returns is counted, per thread, including recursion that a longjmp leaves
# (its frames must be forgotten, not reported) and two threads recursing at
# once.  The structure is O(1) per call and return (bench/run.py --only
# returns shows the cost); this test checks that it loses and invents
# nothing.  It times nothing: TIMEOUT is only a generous ceiling.
racegate_e2e_program(deeprec SOURCES deeprec.c SPECS deeprec.yaml)

racegate_e2e(function_return_deep 0 "main: 20000 3" "PASSED"
  "main +tid [0-9]+ +rec:return +main-all +opened main-all"
  "deeprec.c:50 +end +passed"
  "!-extra +opened extra" "!NOT-ENFORCED"
  -- ${RG} run ${E2E_DIR}/deeprec.yaml)
