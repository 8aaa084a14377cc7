# Line tables are read by racegate's own .debug_line reader (DWARF 2-5),
# falling back to libdwarf for what it does not handle (compressed
# sections).  The same program, built with other DWARF versions and with
# compressed debug sections, must run under the same spec.
foreach(variant dwarf3 dwarf4 gz)
  if(variant STREQUAL "gz")
    set(flags -gz)
  else()
    string(REPLACE "dwarf" "" v ${variant})
    set(flags -gdwarf-${v})
  endif()
  racegate_e2e_program(hits_${variant} SOURCES ${E2E_SRC}/basics/hits.c OPTIONS -O0 -g ${flags}
    LINK_OPTIONS ${flags} OUTPUT hits-${variant})
  racegate_e2e(no_lost_hits_${variant} 0 "PASSED" "w1-last .*opened w1-done"
    "main-end .*passed"
    -- ${RG} run ${E2E_DIR}/hits.yaml -- ${E2E_DIR}/hits-${variant})
  racegate_e2e(no_code_line_${variant} 2
    "cannot resolve 'hits.c:3': no code on this line \\(nearest: [0-9]+"
    -- ${RG} check ${E2E_DIR}/no_code.yaml -- ${E2E_DIR}/hits-${variant})
endforeach()
