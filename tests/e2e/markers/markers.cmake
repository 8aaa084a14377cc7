# A source run through the preprocessor and then compiled: the file built
# is in the debug information with no line rows, since its # line markers
# credit the code to the original.  A gate (or `lines`) on the built file
# says so and maps the line through the markers; check, run and lines word
# it alike.  -nostdinc keeps the copy's line numbers the same everywhere.
set(ppsrc ${CMAKE_CURRENT_LIST_DIR}/ppsrc.c)
add_custom_command(OUTPUT ${E2E_DIR}/ppgen.c
  COMMAND ${CMAKE_C_COMPILER} -E -nostdinc ${ppsrc} -o ${E2E_DIR}/ppgen.c
  DEPENDS ${ppsrc} VERBATIM)
racegate_e2e_program(ppgen SOURCES ${E2E_DIR}/ppgen.c NO_THREADS
  SPECS ppgen.yaml ppsrc.yaml)

set(pp_msg "ppgen.c:17 has no code: the line table credits this code to 'ppsrc.c' \\(try 'ppsrc.c:13'\\)")
racegate_e2e(markers_check 2 "ppgen.yaml:7:[0-9]+: error: ${pp_msg}"
  -- ${RG} check ${E2E_DIR}/ppgen.yaml)
racegate_e2e(markers_run 2 "ppgen.yaml:7:[0-9]+: error: ${pp_msg}" "!forty-two"
  -- ${RG} run ${E2E_DIR}/ppgen.yaml)
racegate_e2e(markers_lines 2 "racegate: ${pp_msg}"
  -- ${RG} lines ppgen.c:17-18 -- ${E2E_DIR}/ppgen)
racegate_e2e(markers_lines_whole 2
  "racegate: 'ppgen.c' has no code: the line table credits its code to 'ppsrc.c' \\(try 'ppsrc.c'\\)"
  -- ${RG} lines ppgen.c -- ${E2E_DIR}/ppgen)
# The suggestion works: the same line, named as the line table names it.
racegate_e2e(markers_suggestion 0 "forty-two" "PASSED" "ppsrc.c:13 +ret +opened done"
  -- ${RG} run ${E2E_DIR}/ppsrc.yaml)
