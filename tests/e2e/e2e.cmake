# End-to-end tests: the real racegate binary on real traced programs.
#
# Programs under tests/e2e/programs are built -O0 -g next to their specs in
# <build>/tests/e2e; examples are built by examples/.  expect.sh checks the
# exit status and the ordered lines of racegate's output.
set(E2E_DIR ${CMAKE_CURRENT_BINARY_DIR}/e2e)
set(EXPECT ${CMAKE_CURRENT_SOURCE_DIR}/e2e/expect.sh)
set(EXAMPLES ${PROJECT_BINARY_DIR}/examples)
find_package(Threads REQUIRED)

foreach(prog hits crash_held signals forker)
  add_executable(e2e_${prog} e2e/programs/${prog}.c)
  target_compile_options(e2e_${prog} PRIVATE -O0 -g)
  target_link_libraries(e2e_${prog} PRIVATE Threads::Threads)
  set_target_properties(e2e_${prog} PROPERTIES OUTPUT_NAME ${prog}
                        RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
  configure_file(e2e/specs/${prog}.yaml ${E2E_DIR}/${prog}.yaml COPYONLY)
endforeach()

# racegate_e2e(NAME STATUS [PATTERN...] -- ARGS...): racegate ARGS must exit
# with STATUS and print lines matching the patterns, in order.  Each
# argument reaches expect.sh whole: a ';' in a pattern stays in it (${ARGN},
# a CMake list, would split the pattern there into two weaker ones).
function(racegate_e2e name)
  set(args)
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 1 ${last})
    string(REPLACE ";" "\\;" a "${ARGV${i}}")
    list(APPEND args "${a}")
  endforeach()
  add_test(NAME e2e_${name} COMMAND ${EXPECT} ${args})
  set_tests_properties(e2e_${name} PROPERTIES LABELS e2e TIMEOUT 300)
endfunction()

set(RG $<TARGET_FILE:racegate>)
# -DRACEGATE_E2E_NO_FASTPATH=ON: every e2e test's `racegate run` gets
# --no-fastpath (through a wrapper in place of the binary), so the whole
# suite can be run with the jump pads off as well as on.
option(RACEGATE_E2E_NO_FASTPATH "e2e tests: racegate run with --no-fastpath" OFF)
if(RACEGATE_E2E_NO_FASTPATH)
  file(GENERATE OUTPUT ${E2E_DIR}/racegate-no-fastpath
    CONTENT "#!/bin/sh\n# racegate, with --no-fastpath after `run`\nif [ \"$1\" = run ]; then\n\tshift\n\texec \"$<TARGET_FILE:racegate>\" run --no-fastpath \"$@\"\nfi\nexec \"$<TARGET_FILE:racegate>\" \"$@\"\n"
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set(RG ${E2E_DIR}/racegate-no-fastpath)
endif()

racegate_e2e(no_lost_hits 0 "w1-last .*opened w1-done" "main-end .*passed"
  "!NOT-ENFORCED" -- ${RG} run ${E2E_DIR}/hits.yaml)
racegate_e2e(crash_while_held 0 "REPRODUCED: killed by SIGSEGV \\(Segmentation fault\\)"
  "hold-forever +held: waiting for never-opened" -- ${RG} run ${E2E_DIR}/crash_held.yaml)
racegate_e2e(signals_pass_through 0 "usr1=100 trap=2 touched=101"
  "PASSED" -- ${RG} run ${E2E_DIR}/signals.yaml)
racegate_e2e(fork_child_clean 0 "child ok" "PASSED" -- ${RG} run ${E2E_DIR}/forker.yaml)

# Each topic keeps its tests in a file of its own: tests/e2e/*.cmake.
file(GLOB e2e_topics ${CMAKE_CURRENT_SOURCE_DIR}/e2e/*.cmake)
list(REMOVE_ITEM e2e_topics ${CMAKE_CURRENT_SOURCE_DIR}/e2e/e2e.cmake)
foreach(f ${e2e_topics})
  include(${f})
endforeach()
