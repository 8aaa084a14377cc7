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
#
# The triage form keeps what `racegate triage` said of a sanitizer's report:
#
# racegate_add_test(NAME <name> TRIAGE REPORT <report> [TOOL tsan|helgrind]
#                   [EXPECT_VERDICTS <verdict>...] COMMAND <target|program> [ARGS...]
#                   [OPTIONS <racegate option>...] [WORKING_DIRECTORY <dir>]
#                   [LABELS <label>...])
#
# The test runs `racegate triage` on the program with REPORT, a
# ThreadSanitizer report (TOOL tsan, the default) or a Helgrind one (TOOL
# helgrind) kept in the project (relative to the current source dir).  It
# passes when no race is HARMFUL or OUTPUT-DIFFERS; with EXPECT_VERDICTS,
# when each race's verdict is the one listed for it, one verdict a race in
# the report's order (racegate --expect-verdicts), e.g.
#   EXPECT_VERDICTS OUTPUT-DIFFERS BENIGN
# keeps race 1 known bad and race 2 benign: a change that makes race 2
# harmful, or race 1 benign, fails the test.  The gates files and the JSON
# report (triage.json) go into <binary dir>/racegate/<name>/.  OPTIONS are
# passed to racegate triage (--time 5s).  The test gets the labels
# "racegate" and "triage" (and LABELS).
#
# Bad arguments are an error at configure time.
include_guard(GLOBAL)

set(_RACEGATE_VERDICTS HARMFUL OUTPUT-DIFFERS BENIGN NOT-REACHED SINGLE-ORDER)

function(racegate_add_test)
  cmake_parse_arguments(PARSE_ARGV 0 RGT "TRIAGE"
    "NAME;SPEC;REPEAT;JOBS;RUN_TIMEOUT;WORKING_DIRECTORY;REPORT;TOOL"
    "COMMAND;EXPECT_OUTCOME;OPTIONS;LABELS;EXPECT_VERDICTS")
  set(what "racegate_add_test")
  if(RGT_NAME)
    set(what "racegate_add_test(${RGT_NAME})")
  endif()
  if(RGT_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${what}: unknown arguments: ${RGT_UNPARSED_ARGUMENTS}")
  endif()
  # an empty OPTIONS, LABELS or EXPECT_OUTCOME (an empty variable) is none
  set(missing ${RGT_KEYWORDS_MISSING_VALUES})
  list(REMOVE_ITEM missing OPTIONS LABELS EXPECT_OUTCOME)
  if(missing)
    list(JOIN missing ", " kw)
    message(FATAL_ERROR "${what}: no value after ${kw}")
  endif()
  if(RGT_TRIAGE)
    set(required NAME REPORT COMMAND)
    set(others SPEC REPEAT JOBS RUN_TIMEOUT EXPECT_OUTCOME)
    set(form "the TRIAGE form")
  else()
    set(required NAME SPEC COMMAND)
    set(others REPORT TOOL EXPECT_VERDICTS)
    set(form "a test without TRIAGE")
  endif()
  foreach(req ${required})
    if(NOT DEFINED RGT_${req})
      message(FATAL_ERROR "${what}: ${req} is required")
    endif()
  endforeach()
  foreach(kw ${others})
    if(DEFINED RGT_${kw})
      message(FATAL_ERROR "${what}: ${form} takes no ${kw}")
    endif()
  endforeach()

  list(POP_FRONT RGT_COMMAND program)
  if(TARGET "${program}")
    set(program "$<TARGET_FILE:${program}>")
  endif()

  if(RGT_TRIAGE)
    _racegate_triage_args()
  else()
    _racegate_run_args()
  endif()

  if(RGT_LABELS)
    set(RGT_LABELS_SEP ";")
  endif()
  if(RGT_WORKING_DIRECTORY)
    add_test(NAME ${RGT_NAME} COMMAND racegate::racegate ${args}
             WORKING_DIRECTORY "${RGT_WORKING_DIRECTORY}")
  else()
    add_test(NAME ${RGT_NAME} COMMAND racegate::racegate ${args})
  endif()
  set_tests_properties(${RGT_NAME} PROPERTIES
    LABELS "racegate${labels}${RGT_LABELS_SEP}${RGT_LABELS}")
  set_property(TEST ${RGT_NAME} APPEND PROPERTY ENVIRONMENT NO_COLOR=1)
endfunction()

# racegate run's arguments into args (racegate_add_test's variables).
macro(_racegate_run_args)
  get_filename_component(spec "${RGT_SPEC}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${spec}")
    message(FATAL_ERROR "${what}: no gates file '${spec}'")
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
  set(labels "")
endmacro()

# racegate triage's arguments into args (racegate_add_test's variables).
macro(_racegate_triage_args)
  get_filename_component(report "${RGT_REPORT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${report}" OR IS_DIRECTORY "${report}")
    message(FATAL_ERROR "${what}: no report '${report}'")
  endif()
  if(NOT DEFINED RGT_TOOL)
    set(RGT_TOOL tsan)
  endif()
  if(NOT RGT_TOOL MATCHES "^(tsan|helgrind)$")
    message(FATAL_ERROR "${what}: TOOL is tsan or helgrind, not '${RGT_TOOL}'")
  endif()
  foreach(v ${RGT_EXPECT_VERDICTS})
    if(NOT v IN_LIST _RACEGATE_VERDICTS)
      list(JOIN _RACEGATE_VERDICTS ", " all)
      message(FATAL_ERROR "${what}: EXPECT_VERDICTS: unknown verdict '${v}' (verdicts: ${all})")
    endif()
  endforeach()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/racegate/${RGT_NAME}")
  file(MAKE_DIRECTORY "${dir}")
  set(args triage --${RGT_TOOL} "${report}" -o "${dir}"
      --report "${dir}/triage.json")
  if(RGT_EXPECT_VERDICTS)
    list(JOIN RGT_EXPECT_VERDICTS "," verdicts)
    list(APPEND args --expect-verdicts ${verdicts})
  endif()
  list(APPEND args ${RGT_OPTIONS} -- "${program}" ${RGT_COMMAND})
  set(labels ";triage")
endmacro()
