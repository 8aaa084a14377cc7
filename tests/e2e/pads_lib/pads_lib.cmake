# Jump pads in shared libraries (issue 26): a gated line in a library
# linked at start, or opened with dlopen before any thread exists or while
# one sleeps, gets a pad as the library maps (every thread stopped then).
# Outcome, timeline and every count are the same with pads and with
# --no-fastpath (every hit traps).
racegate_e2e_program(padlib SOURCES padlib.c SHARED NO_THREADS OUTPUT e2e_padlib)
racegate_e2e_program(padlib_o2 SOURCES padlib.c SHARED NO_THREADS OPTIONS -O2 -g
  OUTPUT e2e_padlib_o2)
racegate_e2e_program(padlib_host SOURCES padlib_host.c LIBS ${CMAKE_DL_LIBS}
  SPECS pads_lib.yaml)
racegate_e2e_program(padlib_linked SOURCES padlib_host.c OPTIONS -DLINKED
  LIBS e2e_padlib ${CMAKE_DL_LIBS})
racegate_e2e_program(padlib_b SOURCES padlib_b.c SHARED NO_THREADS OUTPUT e2e_padlib_b)
add_dependencies(e2e_padlib_host e2e_padlib e2e_padlib_o2 e2e_padlib_b)
# the same gates: linked, at -O2, opened late
file(READ ${CMAKE_CURRENT_LIST_DIR}/pads_lib.yaml pads_lib_spec)
string(REPLACE "[./padlib_host, early]" "[./padlib_linked]" s "${pads_lib_spec}")
file(WRITE ${E2E_DIR}/pads_lib_linked.yaml "${s}")
string(REPLACE "[./padlib_host, early]" "[./padlib_host, early, libe2e_padlib_o2.so]" s
  "${pads_lib_spec}")
string(REPLACE "libe2e_padlib.so" "libe2e_padlib_o2.so" s "${s}")
file(WRITE ${E2E_DIR}/pads_lib_o2.yaml "${s}")
string(REPLACE "[./padlib_host, early]" "[./padlib_host, late]" s "${pads_lib_spec}")
file(WRITE ${E2E_DIR}/pads_lib_late.yaml "${s}")
string(REPLACE "[./padlib_host, early]" "[./padlib_host, reopen]" s "${pads_lib_spec}")
file(WRITE ${E2E_DIR}/pads_lib_reopen.yaml "${s}")
# swap: padlib's line gated while it is mapped (main passes it), then
# padlib_b's, mapped where padlib was
string(REPLACE "[./padlib_host, early]" "[./padlib_host, swap, libe2e_padlib_b.so]" s
  "${pads_lib_spec}")
string(REPLACE "padlib.c:10, in: libe2e_padlib.so" "padlib_b.c:12, in: libe2e_padlib_b.so"
  s "${s}")
string(REPLACE "  - {name: main-end" "  - {name: a-main, at: padlib.c:10, in: libe2e_padlib.so, \
thread: main, hit: 1000000, open: a, optional: true}\n  - {name: main-end" s "${s}")
file(WRITE ${E2E_DIR}/pads_lib_swap.yaml "${s}")

set(LIB_COUNTS "counts 50000 50000 50000 50000" "PASSED"
  "racegate: 200001 breakpoint hits at gates, ")
racegate_e2e(pads_lib_linked_verbose 0 "gate 'w1-mid' at padlib.c:10: pad$" ${LIB_COUNTS}
  -- ${RG} run --verbose ${E2E_DIR}/pads_lib_linked.yaml)
racegate_e2e(pads_lib_early_verbose 0 "gate 'w1-mid' at padlib.c:10: pad$" ${LIB_COUNTS}
  -- ${RG} run --verbose ${E2E_DIR}/pads_lib.yaml)
racegate_e2e(pads_lib_o2_verbose 0 "gate 'w1-mid' at padlib.c:10: pad$" ${LIB_COUNTS}
  -- ${RG} run --verbose ${E2E_DIR}/pads_lib_o2.yaml)
# opened while a thread sleeps in epoll_wait: every thread is stopped for
# the pads, and the sleeper's call is made again (no EINTR: exit 3 else)
racegate_e2e(pads_lib_late_verbose 0 "gate 'w1-mid' at padlib.c:10: pad$" ${LIB_COUNTS}
  "!bystander" -- ${RG} run --verbose ${E2E_DIR}/pads_lib_late.yaml)
# closed and opened again: the first mapping's pads are forgotten, the
# second mapping gets its own (main's 10 passes are in the first)
racegate_e2e(pads_lib_reopen_verbose 0 "gate 'w1-mid' at padlib.c:10: pad$"
  "counts 50000 50000 50000 50000" "PASSED" "racegate: 200011 breakpoint hits at gates, "
  -- ${RG} run --verbose ${E2E_DIR}/pads_lib_reopen.yaml)
# the trap path ran padlib's copy of its instruction for padlib_b's (a
# crash); the pad path kept padlib's pad: both start anew now
foreach(fp "" --no-fastpath)
  string(REPLACE "-" "" n "swap${fp}")
  racegate_e2e(pads_lib_${n} 0 "counts 50000 50000 50000 50000" "PASSED"
    "racegate: 200011 breakpoint hits at gates, "
    -- ${RG} run --verbose ${fp} ${E2E_DIR}/pads_lib_swap.yaml)
endforeach()
foreach(s pads_lib pads_lib_linked pads_lib_o2 pads_lib_late pads_lib_reopen pads_lib_swap)
  add_test(NAME e2e_pads_same_${s} COMMAND ${CMAKE_CURRENT_LIST_DIR}/../pads/pads_same.sh ${RG} ${E2E_DIR}/${s}.yaml)
  set_tests_properties(e2e_pads_same_${s} PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
endforeach()
