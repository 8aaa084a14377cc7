# Jump pads (issue 15): a gate site's hits that the engine would not note
# pass in the thread, without a trap.  Outcome, timeline and every count are
# the same with pads (the default) and with --no-fastpath (every hit traps).
racegate_e2e_program(pads_count SOURCES pads_count.c SPECS pads_count.yaml)
racegate_e2e_program(pads_fork SOURCES pads_fork.c NO_THREADS SPECS pads_fork.yaml)
racegate_e2e_program(pads_count_o2 SOURCES pads_count.c OPTIONS -O2 -g)
file(READ ${CMAKE_CURRENT_LIST_DIR}/pads_count.yaml pads_count_spec)
string(REPLACE "./pads_count]" "./pads_count_o2]" pads_count_spec "${pads_count_spec}")
file(WRITE ${E2E_DIR}/pads_count_o2.yaml "${pads_count_spec}")

# --verbose says which gates got a pad; 4 x 50,000 passes + main's 1 are all counted
racegate_e2e(pads_verbose_names 0
  "gate 'w1-mid' at pads_count.c:20: pad$" "gate 'main-end' at pads_count.c:33: pad$"
  "counts 50000 50000 50000 50000" "PASSED"
  "racegate: 200001 breakpoint hits at gates, "
  -- ${RG} run --verbose ${E2E_DIR}/pads_count.yaml)
racegate_e2e(pads_verbose_names_o2 0 "gate 'w1-mid' at pads_count.c:20: pad$"
  "counts 50000 50000 50000 50000" "PASSED" "racegate: 200001 breakpoint hits at gates, "
  -- ${RG} run --verbose ${E2E_DIR}/pads_count_o2.yaml)
racegate_e2e(pads_no_fastpath_says 0
  "gate 'w1-mid' at pads_count.c:20: no pad: --no-fastpath$"
  "counts 50000 50000 50000 50000" "PASSED"
  "racegate: 200001 breakpoint hits at gates, " "!: pad$"
  -- ${RG} run --verbose --no-fastpath ${E2E_DIR}/pads_count.yaml)
# a line whose gates step past it (then_open, sequence) gets a pad over
# its first instruction, which the step runs from the breakpoint's copy
racegate_e2e(pads_for_then_open 0 "gate 'step 1' at lang.c:45: pad$" "PASSED"
  -- ${RG} run --verbose ${E2E_DIR}/lang_sequence.yaml)

# a followed fork child's count starts from nothing, in a table of its own
racegate_e2e(pads_fork_counts 0 "gate 'nth-2000' at pads_fork.c:/PASS/: pad"
  "gate 'never' at pads_fork.c:/PASS/: pad; when: evaluated in the pad$"
  "child 6000" "parent 4000" "PASSED" "pid [0-9]+ .*nth-2000 +opened c2000"
  "racegate: 7000 breakpoint hits at gates, "
  "gate 'never': 'when' was false at 7000 arrivals"
  -- ${RG} run --verbose ${E2E_DIR}/pads_fork.yaml)

set(PADS_SAME ${CMAKE_CURRENT_LIST_DIR}/pads_same.sh)
# then_open and sequence: steps, in the executable and in a library, a
# signal while the line is stepped past, the stepped line's own trap
foreach(s pads_count pads_count_o2 hits disarm signals lang_sequence lang_merge
    past_in_lib past_in_lib_seq sigqueue_held own_trap_past)
  add_test(NAME e2e_pads_same_${s} COMMAND ${PADS_SAME} ${RG} ${E2E_DIR}/${s}.yaml)
  set_tests_properties(e2e_pads_same_${s} PROPERTIES LABELS e2e TIMEOUT 300)
endforeach()
# followed children (--follow-fork, process:), each with a table of its
# own: forked, with threads, exec'd, vfork'd, deadlocked, a pre-fork
# server.  Verdict and arrivals: whether a process's thread hits a dead
# site (and disarms it) before the process ends depends on timing, with
# pads and with traps alike (pads_fork_counts checks its counts exactly)
foreach(s proctree proctree_threads proctree_exec proctree_vfork forking_threads pads_fork
    child_deadlock_fork prefork)
  add_test(NAME e2e_pads_same_${s} COMMAND ${PADS_SAME} --loose ${RG} ${E2E_DIR}/${s}.yaml)
  set_tests_properties(e2e_pads_same_${s} PROPERTIES LABELS e2e TIMEOUT 300)
endforeach()
foreach(ex lost_update shared_memory string_buffer array_list long_task hoisted_count)
  add_test(NAME e2e_pads_same_example_${ex}
           COMMAND ${PADS_SAME} --loose ${RG} ${EXAMPLES}/${ex}/gates.yaml)
  set_tests_properties(e2e_pads_same_example_${ex} PROPERTIES LABELS e2e TIMEOUT 300)
endforeach()
