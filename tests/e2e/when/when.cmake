# when: conditions (issue 12) on real traced programs.  Each condition picks
# one arrival, and the program's output says which one it was: a condition
# that picked another arrival changes the outcome.  Programs are built -O0
# -g unless said; examples/bounded_queue is the example that needs one.
racegate_e2e_program(when_pick SOURCES when_pick.c
  SPECS when_null.yaml when_sequence.yaml)
racegate_e2e_program(when_cxx SOURCES when_cxx.cpp
  SPECS when_cxx_this.yaml when_cxx_member.yaml)
racegate_e2e_program(whenlib SOURCES when_libpart.c SHARED NO_THREADS)
racegate_e2e_program(when_lib SOURCES when_lib.c LIBS e2e_whenlib
  SPECS when_lib.yaml when_lib_global.yaml)

# when_pick.c: NAME, condition, the visit it must pick; thread: walker
# unless the condition tells threads apart itself.
set(when_pick_cases
  "global|round_no == 30|3"
  "local|twice == 8|4"
  "param|i == 2|2"
  "member|n->id == 105|5"
  "array|n->vals[3] == 3|3"
  "string|$streq(n->name, \"dog\")|3"
  "hit|$hit == 2|1"
  "hit_and|$hit > 3 && n->next != 0|3")
foreach(c ${when_pick_cases})
  string(REPLACE "|" ";" c "${c}")
  list(GET c 0 WHEN_NAME)
  list(GET c 1 WHEN_COND)
  list(GET c 2 WHEN_AT)
  set(WHEN_THREAD "    thread: walker")
  configure_file(${CMAKE_CURRENT_LIST_DIR}/when_pick.yaml.in
                 ${E2E_DIR}/when_${WHEN_NAME}.yaml @ONLY)
  racegate_e2e(when_${WHEN_NAME} 0 "^flag first seen at ${WHEN_AT}$" "PASSED"
    "walker +tid [0-9]+ +when_pick.c:28 +pick +opened picked"
    -- ${RG} run ${E2E_DIR}/when_${WHEN_NAME}.yaml)
endforeach()

# An -O2 build: at when_opt.c:24 the loop counter i is in a register and sq
# is in another, both through location lists (gcc keeps them across the
# call to sink, whose registers it knows).
racegate_e2e_program(when_opt SOURCES when_opt.c OPTIONS -O2 -g)
foreach(c "o2_register|i == 5|5" "o2_loclist|sq == 10|3")
  string(REPLACE "|" ";" c "${c}")
  list(GET c 0 WHEN_NAME)
  list(GET c 1 WHEN_COND)
  list(GET c 2 WHEN_AT)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/when_opt.yaml.in
                 ${E2E_DIR}/when_${WHEN_NAME}.yaml @ONLY)
  racegate_e2e(when_${WHEN_NAME} 0 "^flag first seen at ${WHEN_AT}$" "PASSED"
    -- ${RG} run ${E2E_DIR}/when_${WHEN_NAME}.yaml)
endforeach()

# $thread == ALIAS: main visits first and would be held (before setter
# exists: SCHEDULE-DEADLOCK) if the condition did not tell it from walker.
set(WHEN_NAME thread)
set(WHEN_COND "$thread == walker && i == 3")
set(WHEN_AT 3)
set(WHEN_THREAD "    # no thread: filter: the condition picks the thread")
configure_file(${CMAKE_CURRENT_LIST_DIR}/when_pick.yaml.in ${E2E_DIR}/when_thread.yaml
               @ONLY)
racegate_e2e(when_thread_alias 0 "^flag first seen at 3$" "PASSED" "!main .*pick"
  -- ${RG} run ${E2E_DIR}/when_thread.yaml)

# A read through NULL: false for that arrival (a true one would hold walker
# until main's exit, which waits for it), said once in the timeline although
# two arrivals fault, and counted in the JSON report.
racegate_e2e(when_null_is_false 0 "PASSED"
  "walker +tid [0-9]+ +when_pick.c:28 +through-null +when: .* unreadable at 0x0$"
  "!unreadable at 0x8"
  -- ${RG} run ${E2E_DIR}/when_null.yaml)
racegate_e2e(when_null_report 0 "racegate exit 0"
  "through-null: false 6, unreadable 2, first 'when: .* unreadable at 0x0'"
  "unreadable events: 1"
  -- ${CMAKE_CURRENT_LIST_DIR}/when.sh report ${RG} ${PROJECT_SOURCE_DIR}
     ${E2E_DIR}/when_null.yaml)
# ... also from worker processes (--jobs): the counts travel with the result.
racegate_e2e(when_null_report_jobs 0 "racegate exit 0"
  "through-null: false 6, unreadable 2, first 'when: .* unreadable at 0x0'"
  "unreadable events: 1"
  "through-null: false 6, unreadable 2, first 'when: .* unreadable at 0x0'"
  "unreadable events: 1"
  -- ${CMAKE_CURRENT_LIST_DIR}/when.sh report ${RG} ${PROJECT_SOURCE_DIR}
     ${E2E_DIR}/when_null.yaml 2 2)
racegate_e2e(when_null_trace 0 "racegate exit 0" "trace ok"
  "when event: when: .* unreadable at 0x0 \\(i\\)"
  -- ${CMAKE_CURRENT_LIST_DIR}/when.sh trace ${RG} ${PROJECT_SOURCE_DIR}
     ${E2E_DIR}/when_null.yaml)
racegate_e2e(when_verbose_counts 0 "gate 'through-null': 'when' was false at 6 arrivals \\(2 unreadable\\)"
  -- ${RG} run --verbose ${E2E_DIR}/when_null.yaml)

# sequence: steps with when:.
racegate_e2e(when_sequence_step 0 "^flag first seen at 4$" "PASSED"
  -- ${RG} run ${E2E_DIR}/when_sequence.yaml)

# C++: this->state, and the member by its plain name.
racegate_e2e(when_cxx_this 0 "^flag first seen at 3$" "PASSED"
  -- ${RG} run ${E2E_DIR}/when_cxx_this.yaml)
racegate_e2e(when_cxx_member 0 "^flag first seen at 4$" "PASSED"
  -- ${RG} run ${E2E_DIR}/when_cxx_member.yaml)

# A gate inside a shared library's function, over the library's file static.
racegate_e2e(when_library_static 0 "^flag first seen at 3$" "PASSED"
  -- ${RG} run ${E2E_DIR}/when_lib.yaml)

# A gate in the executable over the library's static: a global of another
# object, read at that object's place in this run.
racegate_e2e(when_library_global_from_exe 0 "^flag first seen at 3$" "PASSED"
  -- ${RG} run ${E2E_DIR}/when_lib_global.yaml)

# The example: the take that finds the queue empty depends on the input,
# and the same gates reproduce with any.
set(BQ ${EXAMPLES}/bounded_queue)
racegate_e2e(bounded_queue_reproduces_100_of_100 0 "100 runs: 100 REPRODUCED$"
  -- ${RG} run --repeat 100 ${BQ}/gates.yaml)
racegate_e2e(bounded_queue_other_input 0 "took 0, expected 10" "REPRODUCED"
  "consumer +tid [0-9]+ +bounded_queue.c:44 +consumer-finds-empty +opened found-empty"
  "producer +tid [0-9]+ +bounded_queue.c:36 +producer-mid-insert +opened mid-insert"
  -- ${RG} run ${BQ}/gates.yaml -- ${BQ}/bounded_queue 9)
racegate_e2e(bounded_queue_fixed 1 "took 7 items in order"
  "NOT-REPRODUCED: expected exit 1, got exit 0" "!NOT-ENFORCED"
  -- ${RG} run ${BQ}/gates.yaml -- ${BQ}/bounded_queue-fixed)

# Every type error of the condition language through racegate check: the
# exact message and the column of the offending token (table-driven:
# when_types.tsv).  when_inline.c's line is inlined twice at -O2, its
# argument optimized out in one copy: the error names that instance.
racegate_e2e_program(when_types SOURCES when_types.c NO_THREADS)
racegate_e2e_program(when_inline SOURCES when_inline.c OPTIONS -O2 -g NO_THREADS
  SPECS when_inline_run.yaml when_inline_caller.yaml)
racegate_e2e(when_type_errors 0 "when_types: racegate check exit 2"
  "when_opt: racegate check exit 2" "when_inline: racegate check exit 2"
  "^24 rows, 0 wrong$"
  -- ${CMAKE_CURRENT_LIST_DIR}/when.sh types ${RG} ${PROJECT_SOURCE_DIR}
     ${CMAKE_CURRENT_LIST_DIR}/when_types.tsv ${E2E_DIR})
# The same error ends a run before the program starts.
racegate_e2e(when_error_run 2
  "when_inline_run.yaml:7:[0-9]+: error: 'scale' is optimized out at when_inline.c:9 in 1 of 2 instances of the line: 'first' at 0x[0-9a-f]+ \\(available there: v\\)"
  -- ${RG} run ${E2E_DIR}/when_inline_run.yaml)

# Hostile: a node unmapped by another thread before the condition reads it;
# threads killed by the process's exit while their conditions are evaluated.
racegate_e2e_program(when_freed SOURCES when_freed.c
  SPECS when_freed.yaml when_exit.yaml)
racegate_e2e(when_unmapped_pointer 0 "reader done" "PASSED"
  "freer +tid [0-9]+ +when_freed.c:43 +unmapped +opened unmapped"
  "reader +tid [0-9]+ +when_freed.c:27 +dangling +when: p->id unreadable at 0x[0-9a-f]+$"
  -- ${RG} run ${E2E_DIR}/when_freed.yaml)
racegate_e2e(when_exit_while_evaluating 0 "20 runs: 20 PASSED$"
  -- ${RG} run --repeat 20 ${E2E_DIR}/when_exit.yaml)

# A module opened with dlopen: its conditions compile when it maps; an error
# there ends the run (ERROR) with the message check would give.
racegate_e2e_specs(when_plugin.yaml when_plugin_bad.yaml)
racegate_e2e(when_dlopen_module 0 "count = 1" "REPRODUCED"
  "w[12] +tid [0-9]+ +plugin.c:7 +w[12]-write +held: waiting for w[12]-read"
  -- ${RG} run ${E2E_DIR}/when_plugin.yaml)
racegate_e2e(when_dlopen_module_error 2
  "ERROR: .*when_plugin_bad.yaml:10:79: 'cc' is not visible at plugin.c:7. visible there: c"
  "!REPRODUCED"
  -- ${RG} run ${E2E_DIR}/when_plugin_bad.yaml)

# FUNCTION:return cannot have a condition: the error says why and what to do.
racegate_e2e_specs(when_return.yaml)
racegate_e2e(when_on_return_refused 2
  "when_return.yaml:6:[0-9]+: error: gate 'back': 'when' is not evaluated at 'depth:return': a return arrives in each caller. gate a line of 'depth' instead"
  -- ${RG} check ${E2E_DIR}/when_return.yaml)

# A caller's line where an inlined callee starts at the same instruction:
# the caller's scope (dwarfx_scope_at_loc), not the callee's.
racegate_e2e(when_inline_caller_scope 0 "^done$" "PASSED"
  "main +tid [0-9]+ +when_inline.c:19 +caller-line +opened seen"
  -- ${RG} run ${E2E_DIR}/when_inline_caller.yaml)
