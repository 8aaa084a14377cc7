# End-to-end tests: the real racegate binary on real traced programs.
#
# Each topic is a folder, tests/e2e/TOPIC/, holding TOPIC.cmake (its tests),
# its programs, its specs and its shell drivers (tests/README.md).  The
# programs are built, and the specs copied, into one folder, <build>/tests/e2e
# (${E2E_DIR}); examples are built by examples/.  expect.sh checks the exit
# status and the ordered lines of racegate's output.
set(E2E_SRC ${CMAKE_CURRENT_SOURCE_DIR}/e2e)
set(E2E_DIR ${CMAKE_CURRENT_BINARY_DIR}/e2e)
set(EXPECT ${E2E_SRC}/expect.sh)
set(EXAMPLES ${PROJECT_BINARY_DIR}/examples)
find_package(Threads REQUIRED)

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

# racegate_e2e_specs(SPEC... [DIR DIR]): copies each SPEC (a path from the
# calling topic file's folder) into DIR (default ${E2E_DIR}), as it is.
function(racegate_e2e_specs)
  cmake_parse_arguments(S "" "DIR" "" ${ARGN})
  if(NOT S_DIR)
    set(S_DIR ${E2E_DIR})
  endif()
  foreach(s ${S_UNPARSED_ARGUMENTS})
    get_filename_component(f ${s} NAME)
    configure_file(${CMAKE_CURRENT_LIST_DIR}/${s} ${S_DIR}/${f} COPYONLY)
  endforeach()
endfunction()

# racegate_e2e_program(NAME SOURCES FILE... [OPTIONS FLAG...]
#     [LINK_OPTIONS FLAG...] [LIBS LIB...] [NO_THREADS] [SHARED | MODULE]
#     [OUTPUT FILENAME] [DIR DIR] [SPECS SPEC...]):
# the test program e2e_NAME, built from SOURCES with OPTIONS (default -O0
# -g) and linked with LINK_OPTIONS, LIBS and the thread library (none with
# NO_THREADS); SHARED or MODULE makes it a library of that kind.  It is
# written into DIR (default ${E2E_DIR}) as OUTPUT (default NAME), and its
# SPECS are copied beside it (racegate_e2e_specs).  A relative FILE or SPEC
# is in the calling topic file's folder; tests name the program by its
# target (e2e_NAME) and its file (DIR/OUTPUT).
function(racegate_e2e_program name)
  cmake_parse_arguments(P "NO_THREADS;SHARED;MODULE" "OUTPUT;DIR"
                        "SOURCES;OPTIONS;LINK_OPTIONS;LIBS;SPECS" ${ARGN})
  if(P_UNPARSED_ARGUMENTS OR NOT P_SOURCES)
    message(FATAL_ERROR "racegate_e2e_program(${name}): needs SOURCES, "
                        "cannot take '${P_UNPARSED_ARGUMENTS}'")
  endif()
  set(srcs)
  foreach(s ${P_SOURCES})
    if(IS_ABSOLUTE "${s}" OR s MATCHES "^\\$<")
      list(APPEND srcs "${s}")
    else()
      list(APPEND srcs "${CMAKE_CURRENT_LIST_DIR}/${s}")
    endif()
  endforeach()
  set(t e2e_${name})
  if(P_SHARED)
    add_library(${t} SHARED ${srcs})
  elseif(P_MODULE)
    add_library(${t} MODULE ${srcs})
  else()
    add_executable(${t} ${srcs})
  endif()
  if(NOT P_OPTIONS)
    set(P_OPTIONS -O0 -g)
  endif()
  target_compile_options(${t} PRIVATE ${P_OPTIONS})
  if(P_LINK_OPTIONS)
    target_link_options(${t} PRIVATE ${P_LINK_OPTIONS})
  endif()
  if(NOT P_NO_THREADS)
    list(APPEND P_LIBS Threads::Threads)
  endif()
  if(P_LIBS)
    target_link_libraries(${t} PRIVATE ${P_LIBS})
  endif()
  if(NOT P_OUTPUT)
    set(P_OUTPUT ${name})
  endif()
  if(NOT P_DIR)
    set(P_DIR ${E2E_DIR})
  endif()
  if(P_SHARED OR P_MODULE)
    set_target_properties(${t} PROPERTIES OUTPUT_NAME ${P_OUTPUT}
                          LIBRARY_OUTPUT_DIRECTORY ${P_DIR})
  else()
    set_target_properties(${t} PROPERTIES OUTPUT_NAME ${P_OUTPUT}
                          RUNTIME_OUTPUT_DIRECTORY ${P_DIR})
  endif()
  if(P_SPECS)
    racegate_e2e_specs(${P_SPECS} DIR ${P_DIR})
  endif()
endfunction()

# The topics, each in its folder.  A topic file, a programs/ or a specs/
# folder left directly in tests/e2e (the layout before topic folders) would
# be silently skipped: refuse it instead.
file(GLOB e2e_stray LIST_DIRECTORIES true ${E2E_SRC}/*.cmake ${E2E_SRC}/programs
     ${E2E_SRC}/specs)
list(REMOVE_ITEM e2e_stray ${E2E_SRC}/e2e.cmake)
foreach(f ${e2e_stray})
  message(SEND_ERROR "'${f}' is not in a topic folder: an e2e topic lives in "
    "tests/e2e/TOPIC/, TOPIC.cmake beside its programs, specs and drivers "
    "(tests/README.md)")
endforeach()
file(GLOB e2e_topics CONFIGURE_DEPENDS ${E2E_SRC}/*/*.cmake)
foreach(f ${e2e_topics})
  include(${f})
endforeach()

# Jump pads need the CPU's and kernel's FSGSBASE (arch/x86_64/pad.c): on a
# machine without it racegate traps at every gate and says why, and the
# tests that check the pads themselves have no pad to check.  They are
# not run there (ctest lists them as disabled); everything else still is.
file(READ /proc/cpuinfo rg_cpuinfo LIMIT 65536)
if(NOT rg_cpuinfo MATCHES "[ \t]fsgsbase[ \n]")
  message(STATUS "this machine lacks fsgsbase: racegate makes no jump pads "
    "here, and the tests of the pads are not run")
  get_property(rg_tests DIRECTORY PROPERTY TESTS)
  foreach(t ${rg_tests})
    if(t MATCHES "^e2e_pads_|^e2e_attach_(reproduce|tid)$")
      set_tests_properties(${t} PROPERTIES DISABLED TRUE)
    endif()
  endforeach()
endif()
