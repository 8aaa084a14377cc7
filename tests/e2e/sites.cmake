# Typed locations (issue 10): a gate's site is (object, link-time address),
# and what racegate looks up about it is looked up in that object.  A line in
# a shared library is passed as one in the executable is: then_open and a
# sequence: step open once the line has run to its end (here it sleeps
# 300 ms first, so opening at the arrival would show the old value).
add_library(e2e_pastlib SHARED e2e/programs/pastlib.c)
set_target_properties(e2e_pastlib PROPERTIES OUTPUT_NAME pastlib
                      LIBRARY_OUTPUT_DIRECTORY ${E2E_DIR})
add_executable(e2e_pastprog e2e/programs/pastprog.c)
target_link_libraries(e2e_pastprog PRIVATE e2e_pastlib Threads::Threads)
set_target_properties(e2e_pastprog PROPERTIES OUTPUT_NAME pastprog
                      RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
foreach(t e2e_pastlib e2e_pastprog)
  target_compile_options(${t} PRIVATE -O0 -g)
endforeach()
foreach(s past_in_lib past_in_lib_seq)
  configure_file(e2e/specs/${s}.yaml ${E2E_DIR}/${s}.yaml COPYONLY)
endforeach()

racegate_e2e(then_open_in_library 0 "saw 1" "PASSED"
  "pastlib.c:10 +write +opened written" "!NOT-ENFORCED"
  -- ${RG} run ${E2E_DIR}/past_in_lib.yaml)
racegate_e2e(sequence_in_library 0 "saw 1" "PASSED"
  -- ${RG} run ${E2E_DIR}/past_in_lib_seq.yaml)
racegate_e2e(library_site_check 0 "write +at pastlib.c:10"
  "libpastlib.so\\+0x[0-9a-f]+ +pastlib.c:10 +in past_write"
  -- ${RG} check ${E2E_DIR}/past_in_lib.yaml)

# The same library closed and opened again at another address.
add_executable(e2e_reopen e2e/programs/reopen.c)
target_compile_options(e2e_reopen PRIVATE -O0 -g)
target_link_libraries(e2e_reopen PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
set_target_properties(e2e_reopen PROPERTIES OUTPUT_NAME reopen
                      RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
configure_file(e2e/specs/reopen.yaml ${E2E_DIR}/reopen.yaml COPYONLY)
racegate_e2e(then_open_in_reopened_library 0 "first at" "second at" "saw 1" "PASSED"
  "pastlib.c:10 +write +opened written"
  -- ${RG} run ${E2E_DIR}/reopen.yaml -- ${E2E_DIR}/reopen ${E2E_DIR}/libpastlib.so)

# lines finds a library's source where check and run do: in the libraries
# the program is linked with.
racegate_e2e(lines_in_library 0 "pastlib.c$" "^ +10 +past_write +1 +.*past_shared = 1"
  -- ${RG} lines pastlib.c:10 -- ${E2E_DIR}/pastprog)
