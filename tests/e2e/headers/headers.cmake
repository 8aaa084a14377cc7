# Lines of a header: a static inline function defined in hdr_inline.h is
# hdr.c's first code (tests/fixtures/dwarf).  With gcc's default DWARF 5 the
# header is named only by the line program's initial file register (1),
# while the file table starts at 0; reading that wrong (libdwarf 20210528
# does, for compressed sections) gave the header's rows to hdr.c.  Each
# build must gate the header's line in the header's function.
set(HX ${E2E_DIR}/headers)
set(hx_src ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/dwarf)

# Line numbers from the @markers: the sources may change.
function(hx_marker var file tag)
  file(READ ${hx_src}/${file} text)
  string(FIND "${text}" "@${tag} " pos)
  if(pos LESS 0)
    message(FATAL_ERROR "no marker @${tag} in ${file}")
  endif()
  string(SUBSTRING "${text}" 0 ${pos} before)
  string(REGEX MATCHALL "\n" newlines "${before}")
  list(LENGTH newlines n)
  math(EXPR n "${n} + 1")
  set(${var} ${n} PARENT_SCOPE)
endfunction()
hx_marker(hx_body hdr_inline.h hdr-body)
hx_marker(hx_print hdr.c hdr-print)

file(WRITE ${HX}/headers.yaml "version: 1
name: a gate on a line of a header
command: [./hdr-dwarf5]
gates:
  - {name: in-header, at: hdr_inline.h:${hx_body}, open: doubled}
  - {name: printed, at: hdr.c:${hx_print}, wait: doubled}
expect:
  exit: 0
  stdout: \"twice 2\"
")

foreach(variant dwarf5 dwarf4 gz)
  if(variant STREQUAL "gz")
    set(flags -gz)              # the default DWARF, compressed: libdwarf reads it
  elseif(variant STREQUAL "dwarf5")
    set(flags)                  # the compiler's default (DWARF 5 for gcc >= 11)
  else()
    set(flags -gdwarf-4)
  endif()
  racegate_e2e_program(hdr_${variant} SOURCES ${hx_src}/hdr.c OPTIONS -O0 -g ${flags}
    LINK_OPTIONS ${flags} NO_THREADS OUTPUT hdr-${variant} DIR ${HX})
  racegate_e2e(header_line_check_${variant} 0
    "in-header +at hdr_inline.h:${hx_body}$"
    "0x[0-9a-f]+ +hdr_inline.h:${hx_body} +in hdr_twice$"
    "0x[0-9a-f]+ +hdr.c:${hx_print} +in main$"
    "!hdr.c:[0-9]+ +in hdr_twice"
    -- ${RG} check ${HX}/headers.yaml -- ${HX}/hdr-${variant})
  racegate_e2e(header_line_run_${variant} 0 "twice 2" "PASSED"
    "hdr_inline.h:${hx_body} +in-header +opened doubled"
    "hdr.c:${hx_print} +printed +passed"
    -- ${RG} run ${HX}/headers.yaml -- ${HX}/hdr-${variant})
  racegate_e2e(header_lines_${variant} 0 "/hdr_inline.h$"
    "^ +${hx_body} +hdr_twice +1 .*@hdr-body"
    -- ${RG} lines hdr_inline.h -- ${HX}/hdr-${variant})
  racegate_e2e(header_not_in_c_lines_${variant} 0 "/hdr.c$" "@hdr-print"
    "!^ +[0-9]+ +hdr_twice "
    -- ${RG} lines hdr.c -- ${HX}/hdr-${variant})
endforeach()
