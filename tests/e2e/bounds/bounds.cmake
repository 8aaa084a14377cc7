# Every breakpoint address is an instruction boundary (issue 11, item 2):
# addresses inside an instruction are refused, line table rows inside one
# are skipped with a warning.
set(BX ${E2E_DIR}/bounds)

# lost_update's fixed program, gated by raw address (bounds.sh).
racegate_e2e(bounds_fixed_program_by_address 0
  -- ${CMAKE_CURRENT_LIST_DIR}/bounds.sh ${RG} ${CMAKE_OBJDUMP}
     ${EXAMPLES}/lost_update/lost_update-fixed ${BX}/lost_update ${EXPECT})

# A hand-made program (tests/fixtures/dwarf/rowfix.s) whose line table and
# symbol table point inside movabs instructions, as a corrupt ELF can.
racegate_e2e_program(rowfix SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/dwarf/rowfix.s
  OPTIONS -g NO_THREADS DIR ${BX}
  SPECS rowfix_rows.yaml rowfix_inside.yaml rowfix_line_inside.yaml)

# rowfix.s:23 has a row inside an instruction and one at an instruction:
# the first is dropped with a warning, the gate goes to the second.
racegate_e2e(bounds_row_inside_dropped 0
  "warning: ignoring the line table row of 'rowfix.s:23' at 0x[0-9a-f]+ in '.*rowfix' \\(corrupt debug information\\?\\): 0x[0-9a-f]+ is inside 'movabs rax, 0x9090909090909090' at 0x[0-9a-f]+ \\(10 bytes\\). boundaries: 0x[0-9a-f]+, 0x[0-9a-f]+"
  "0x[0-9a-f]+  rowfix.s:23"
  -- ${RG} check ${BX}/rowfix_rows.yaml)
racegate_e2e(bounds_row_inside_run 0 "ignoring the line table row of 'rowfix.s:23'"
  "PASSED" "rowfix.s:23 +after-movabs +opened here"
  -- ${RG} run ${BX}/rowfix_rows.yaml)
# rowfix.s:15's only row is inside an instruction: no place for a gate.
racegate_e2e(bounds_row_inside_only 2
  "ignoring the line table row of 'rowfix.s:15'"
  "error: cannot resolve 'rowfix.s:15': every line table row of this line is off an instruction boundary"
  -- ${RG} check ${BX}/rowfix_line_inside.yaml)
# `inside` is a function symbol inside main's movabs: *inside, *inside+N refused.
racegate_e2e(bounds_symbol_inside 2
  "error: cannot resolve '\\*inside': 0x[0-9a-f]+ is inside 'movabs rax, 0x9090909090909090' at 0x[0-9a-f]+ \\(10 bytes\\). boundaries"
  "error: cannot resolve '\\*inside\\+2': 0x[0-9a-f]+ is inside 'movabs"
  "error: cannot resolve 'inside:return' at its entry: cannot resolve '\\*inside': 0x[0-9a-f]+ is inside 'movabs"
  -- ${RG} check ${BX}/rowfix_inside.yaml)
racegate_e2e(bounds_symbol_inside_run 2 "cannot resolve '\\*inside\\+2'" "!PASSED"
  -- ${RG} run ${BX}/rowfix_inside.yaml)
# `racegate lines` leaves line 15 out, with the warning.
racegate_e2e(bounds_lines_drop_row 0
  "ignoring the line table row of 'rowfix.s:15'" "^ *11 " "^ *23 " "^ *26 " "^ *31 "
  "!^ *15 "
  -- ${RG} lines rowfix.s -- ${BX}/rowfix)

# Data jumped over in the middle of a function: the lines after it are
# instruction boundaries (where execution goes), not refused.
racegate_e2e_program(data_in_code SOURCES data_in_code.c NO_THREADS DIR ${BX}
  SPECS data_in_code.yaml)
racegate_e2e(bounds_data_in_code 0 "x = 2" "PASSED" "after-data +opened here"
  "print +passed" "!warning: ignoring"
  -- ${RG} run ${BX}/data_in_code.yaml)
