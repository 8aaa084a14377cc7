# racegate_add_test(NAME <name> SPEC <gates.yaml> COMMAND <target|program> [ARGS...]
#                   [REPEAT <n>] [JOBS <j>] [RUN_TIMEOUT <duration>]
#                   [EXPECT_OUTCOME <outcome>...] [OPTIONS <racegate option>...]
#                   [WORKING_DIRECTORY <dir>] [LABELS <label>...])
#
# Registers a ctest test that runs `racegate run` on the program under the
# gates of SPEC (relative paths are relative to the current source dir).
# COMMAND names a target of the project (its built file is used) or a
# program, followed by its arguments; it overrides the spec's command:.
#
# The test passes when racegate exits 0: every run met the spec's expect:
# block (REPRODUCED for a repro spec, PASSED for a regression spec, or
# ORDER-INFEASIBLE with on_deadlock: release).  EXPECT_OUTCOME lists the
# outcomes that count as a pass instead (racegate --expect-outcome), e.g.
#   EXPECT_OUTCOME ORDER-INFEASIBLE SCHEDULE-DEADLOCK
# for a fix that makes the bad order impossible.  REPEAT runs it n times
# (JOBS at once); every run must pass.  RUN_TIMEOUT is racegate's per-run
# --timeout (e.g. 10s; named so that it cannot be read as the outcome
# TIMEOUT in an EXPECT_OUTCOME list).  OPTIONS are passed to racegate as they are, e.g.
#   OPTIONS --junit ${CMAKE_CURRENT_BINARY_DIR}/race.xml
# The test gets the label "racegate" (and LABELS).
include_guard(GLOBAL)

function(racegate_add_test)
  cmake_parse_arguments(PARSE_ARGV 0 RGT ""
    "NAME;SPEC;REPEAT;JOBS;RUN_TIMEOUT;WORKING_DIRECTORY"
    "COMMAND;EXPECT_OUTCOME;OPTIONS;LABELS")
  if(RGT_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "racegate_add_test: unknown arguments: ${RGT_UNPARSED_ARGUMENTS}")
  endif()
  foreach(req NAME SPEC COMMAND)
    if(NOT RGT_${req})
      message(FATAL_ERROR "racegate_add_test: ${req} is required")
    endif()
  endforeach()
  get_filename_component(spec "${RGT_SPEC}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${spec}")
    message(FATAL_ERROR "racegate_add_test(${RGT_NAME}): no gates file '${spec}'")
  endif()

  list(POP_FRONT RGT_COMMAND program)
  if(TARGET "${program}")
    set(program "$<TARGET_FILE:${program}>")
  endif()

  set(args run --color=never)
  if(RGT_REPEAT)
    list(APPEND args --repeat ${RGT_REPEAT})
  endif()
  if(RGT_JOBS)
    list(APPEND args --jobs ${RGT_JOBS})
  endif()
  if(RGT_RUN_TIMEOUT)
    list(APPEND args --timeout ${RGT_RUN_TIMEOUT})
  endif()
  if(RGT_EXPECT_OUTCOME)
    list(JOIN RGT_EXPECT_OUTCOME "," outcomes)
    list(APPEND args --expect-outcome ${outcomes})
  endif()
  list(APPEND args ${RGT_OPTIONS} "${spec}" -- "${program}" ${RGT_COMMAND})

  if(RGT_LABELS)
    set(RGT_LABELS_SEP ";")
  endif()
  if(RGT_WORKING_DIRECTORY)
    add_test(NAME ${RGT_NAME} COMMAND racegate::racegate ${args}
             WORKING_DIRECTORY "${RGT_WORKING_DIRECTORY}")
  else()
    add_test(NAME ${RGT_NAME} COMMAND racegate::racegate ${args})
  endif()
  set_tests_properties(${RGT_NAME} PROPERTIES LABELS "racegate${RGT_LABELS_SEP}${RGT_LABELS}")
  set_property(TEST ${RGT_NAME} APPEND PROPERTY ENVIRONMENT NO_COLOR=1)
endfunction()
