# Issue 21, item 5: a gate's hit: counts a thread's arrivals at every site
# of its location (a line inlined twice, a template's instances, a method
# inlined into two callers, a function with several returns), pads or not:
# the pads of sites with the same gates share one count
# (tracer_pad_req.share).  The outcome tests fail on the code before that
# fix; pads_same.sh checks pads against --no-fastpath on each shape, at
# -O0, -O2, -static and -static-pie.
racegate_e2e_program(pads_sites_O0 SOURCES pads_sites.c)
racegate_e2e_program(pads_sites_O2 SOURCES pads_sites.c OPTIONS -O2 -g
  SPECS pads_sites_seq.yaml pads_sites_alt.yaml pads_sites_thr.yaml
        pads_sites_ret.yaml)
racegate_e2e_program(pads_sites_static SOURCES pads_sites.c OPTIONS -O2 -g
  LINK_OPTIONS -static)
racegate_e2e_program(pads_sites_spie SOURCES pads_sites.c OPTIONS -O2 -g -fPIE
  LINK_OPTIONS -static-pie)
racegate_e2e_program(pads_sites_cpp SOURCES pads_sites_cpp.cpp OPTIONS -O2 -g
  SPECS pads_sites_cpp.yaml)
# the same line at -O0 (one site in spin, one call), and -static, -static-pie
file(READ ${CMAKE_CURRENT_LIST_DIR}/pads_sites_seq.yaml sites_spec)
foreach(b O0 static spie)
  string(REPLACE "./pads_sites_O2," "./pads_sites_${b}," spec "${sites_spec}")
  file(WRITE ${E2E_DIR}/pads_sites_seq_${b}.yaml "${spec}")
endforeach()

function(pads_sites_e2e name status)
  add_test(NAME e2e_${name} COMMAND ${EXPECT} ${status} ${ARGN})
  set_tests_properties(e2e_${name} PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
endfunction()

# the issue's case: 1,000 arrivals in each inlined copy; the 1,001st
# and the 1,500th act, with total (arrivals before) saying which they are
foreach(s seq seq_static seq_spie alt thr ret cpp)
  foreach(fp default nofastpath)
    set(opt)
    if(fp STREQUAL nofastpath)
      set(opt --no-fastpath)
    endif()
    pads_sites_e2e(pads_sites_${s}_${fp} 0 "PASSED" "!NOT-ENFORCED"
      -- ${RG} run --verbose ${opt} ${E2E_DIR}/pads_sites_${s}.yaml)
  endforeach()
endforeach()
# the shape holds: the line has several sites (both of seq's copies, and main's)
racegate_e2e(pads_sites_two_sites 0 "second +at pads_sites.c" "pads_sites.c:26 +in spin"
  "pads_sites.c:26 +in spin" "pads_sites.c:26 +in spin" "mid +at" --
  ${RG} check ${E2E_DIR}/pads_sites_seq.yaml)
racegate_e2e(pads_sites_seq_has_pads 0 "gate 'second' at .*: pad" "PASSED"
  -- ${RG} run --verbose ${E2E_DIR}/pads_sites_seq.yaml)
racegate_e2e(pads_sites_cpp_has_pads 0 "gate 'all' at twice: pad" "PASSED"
  -- ${RG} run --verbose ${E2E_DIR}/pads_sites_cpp.yaml)

# pads against --no-fastpath: verdict, timeline, output, every count
set(PADS_SAME ${E2E_SRC}/pads/pads_same.sh)
foreach(s seq seq_O0 seq_static seq_spie alt ret cpp)
  add_test(NAME e2e_pads_same_sites_${s} COMMAND ${PADS_SAME} ${RG}
           ${E2E_DIR}/pads_sites_${s}.yaml)
  set_tests_properties(e2e_pads_same_sites_${s} PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
endforeach()
# two threads: their interleaving (and the racy total) is timing's
add_test(NAME e2e_pads_same_sites_thr COMMAND ${PADS_SAME} --loose ${RG}
         ${E2E_DIR}/pads_sites_thr.yaml)
set_tests_properties(e2e_pads_same_sites_thr PROPERTIES LABELS "e2e;pads" TIMEOUT 300)

