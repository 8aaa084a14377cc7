# `when:` conditions evaluated inside the jump pad (issue 15): a false
# condition passes in the thread and is counted as every arrival is, a true
# one traps as before, a load that faults (p NULL) is racegate's to report.
# Each case runs with pads (the default) and with --no-fastpath (every hit
# traps): the same output, verdict and counts.
racegate_e2e_program(pads_when SOURCES pads_when.c
  SPECS pads_when_false.yaml pads_when_null.yaml pads_when_signal.yaml)
racegate_e2e_program(pads_when_o2 SOURCES pads_when.c OPTIONS -O2 -g)
racegate_e2e_program(pads_when_prot SOURCES pads_when_prot.c
  SPECS pads_when_prot.yaml)
# the -O2 build: i and id in registers where the line starts
file(READ ${CMAKE_CURRENT_LIST_DIR}/pads_when_false.yaml pads_when_spec)
string(REPLACE "./pads_when," "./pads_when_o2," pads_when_spec "${pads_when_spec}")
file(WRITE ${E2E_DIR}/pads_when_o2.yaml "${pads_when_spec}")

# padw_e2e(NAME STATUS PATTERNS... -- racegate run ARGS): NAME_default with
# the pad running the condition, NAME_nofastpath; both with --verbose.
# Each argument is taken whole (ARGV<n>): a ';' in a pattern stays in it,
# as racegate_e2e keeps it (${ARGN} would split the pattern there).
function(padw_e2e name status)
  set(pre)
  set(post)
  set(seen 0)
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 2 ${last})
    string(REPLACE ";" "\\;" a "${ARGV${i}}")
    if(seen)
      list(APPEND post "${a}")
    elseif(a STREQUAL "--")
      set(seen 1)
    else()
      list(APPEND pre "${a}")
    endif()
  endforeach()
  add_test(NAME e2e_pads_when_${name}_default COMMAND ${EXPECT} ${status}
    "gate 'late' at pads_when.c:36: pad; when: evaluated in the pad$" ${pre}
    -- ${RG} run --verbose ${post})
  add_test(NAME e2e_pads_when_${name}_nofastpath COMMAND ${EXPECT} ${status} ${pre}
    -- ${RG} run --verbose --no-fastpath ${post})
  set_tests_properties(e2e_pads_when_${name}_default e2e_pads_when_${name}_nofastpath
    PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
endfunction()

# 8 threads x 100,000 arrivals, one true: held at the right one
padw_e2e(false 0 "held at 77777" "arrivals 800000" "PASSED" "!NOT-ENFORCED"
  "racegate: 800001 breakpoint hits at gates"
  "'late': 'when' was false at 799999 arrivals \\(0 unreadable\\)"
  -- ${E2E_DIR}/pads_when_false.yaml)
padw_e2e(o2 0 "held at 77777" "arrivals 800000" "PASSED"
  -- ${E2E_DIR}/pads_when_o2.yaml)
# p NULL every fourth arrival: no crash; the fault is reported as without pads
padw_e2e(null 0 "held at 2999" "arrivals 8000" "PASSED" "unreadable at 0x0"
  "!SIGSEGV" -- ${E2E_DIR}/pads_when_null.yaml)
# a signal handler passes the line, nested in the pad or not
padw_e2e(signal 0 "held at 15555" "arrivals 80000" "PASSED" "!SIG"
  -- ${E2E_DIR}/pads_when_signal.yaml)

# the same verdict, timeline, output and counts with and without pads
set(PADS_SAME_W ${E2E_SRC}/pads/pads_same.sh)
foreach(s false null o2)
  add_test(NAME e2e_pads_when_same_${s}
           COMMAND ${PADS_SAME_W} ${RG} ${E2E_DIR}/pads_when_${s}.yaml)
  set_tests_properties(e2e_pads_when_same_${s} PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
endforeach()
# (with signals, how many arrivals the handlers make depends on timing)

# hostile: another thread makes the condition's page unreadable and readable
# again in a loop; the loads that fault in the pad are racegate's, never the
# program's SIGSEGV (its handler would count it)
# (every pass traps with --no-fastpath: a tenth of the passes there)
racegate_e2e(pads_when_prot_default 0 "total 3000000 segv 0" "PASSED" "!REPRODUCED"
  -- ${RG} run --verbose ${E2E_DIR}/pads_when_prot.yaml)
racegate_e2e(pads_when_prot_nofastpath 0 "total 300000 segv 0" "PASSED" "!REPRODUCED"
  -- ${RG} run --verbose --no-fastpath ${E2E_DIR}/pads_when_prot.yaml
  -- ${E2E_DIR}/pads_when_prot 300000)

# racegate killed with SIGKILL while 8 threads pass a line whose when: their
# pad evaluates (many rounds: still passing it then): the program dies with
# racegate, never left with a pad whose true condition would trap untraced
file(READ ${CMAKE_CURRENT_LIST_DIR}/pads_when_false.yaml pads_when_kill_spec)
string(REPLACE "\"8\", \"100000\", \"77777\"" "\"8\", \"50000000\", \"49999999\""
       pads_when_kill_spec "${pads_when_kill_spec}")
file(WRITE ${E2E_DIR}/pads_when_kill.yaml "${pads_when_kill_spec}")
add_test(NAME e2e_pads_when_kill9
         COMMAND ${E2E_SRC}/pads_hostile/runkill9.sh ${RG} ${E2E_DIR} 9+
                 "when: evaluated in the pad" -- --verbose pads_when_kill.yaml)
set_tests_properties(e2e_pads_when_kill9 PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
