# Typed locations (issue 10): a gate's site is (object, link-time address),
# and what racegate looks up about it is looked up in that object.  A line in
# a shared library is passed as one in the executable is: then_open and a
# sequence: step open once the line has run to its end (here it sleeps
# 300 ms first, so opening at the arrival would show the old value).
racegate_e2e_program(pastlib SOURCES pastlib.c SHARED NO_THREADS)
racegate_e2e_program(pastprog SOURCES pastprog.c LIBS e2e_pastlib
  SPECS past_in_lib.yaml past_in_lib_seq.yaml)

racegate_e2e(then_open_in_library 0 "saw 1" "PASSED"
  "pastlib.c:10 +write +opened written" "!NOT-ENFORCED"
  -- ${RG} run ${E2E_DIR}/past_in_lib.yaml)
racegate_e2e(sequence_in_library 0 "saw 1" "PASSED"
  -- ${RG} run ${E2E_DIR}/past_in_lib_seq.yaml)
racegate_e2e(library_site_check 0 "write +at pastlib.c:10"
  "libpastlib.so\\+0x[0-9a-f]+ +pastlib.c:10 +in past_write"
  -- ${RG} check ${E2E_DIR}/past_in_lib.yaml)

# The same library closed and opened again at another address.
racegate_e2e_program(reopen SOURCES reopen.c LIBS ${CMAKE_DL_LIBS}
  SPECS reopen.yaml)
racegate_e2e(then_open_in_reopened_library 0 "first at" "second at" "saw 1" "PASSED"
  "pastlib.c:10 +write +opened written"
  -- ${RG} run ${E2E_DIR}/reopen.yaml -- ${E2E_DIR}/reopen ${E2E_DIR}/libpastlib.so)

# lines finds a library's source where check and run do: in the libraries
# the program is linked with.
racegate_e2e(lines_in_library 0 "pastlib.c$" "^ +10 +past_write +1 +.*past_shared = 1"
  -- ${RG} lines pastlib.c:10 -- ${E2E_DIR}/pastprog)
