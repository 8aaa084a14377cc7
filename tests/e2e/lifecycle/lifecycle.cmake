# racegate's own life: interrupted or killed while it holds a thread for
# ever (interrupt.sh), report paths checked before the first run, and the
# command line's short forms.
racegate_e2e_program(holder SOURCES holder.c SPECS holder.yaml)
set(INTERRUPT ${CMAKE_CURRENT_LIST_DIR}/interrupt.sh ${RG}
    ${E2E_DIR}/holder.yaml ${E2E_DIR}/holder)

# interrupt_<how>_<signal>_<session>: HOW SIGNAL FAST HELD [OPTIONS]
function(racegate_interrupt name)
  add_test(NAME e2e_interrupt_${name} COMMAND ${INTERRUPT} ${ARGN})
  set_tests_properties(e2e_interrupt_${name} PROPERTIES LABELS e2e TIMEOUT 200)
endfunction()
# one run, held: each signal
racegate_interrupt(single_int leader INT 0 1)
racegate_interrupt(single_term leader TERM 0 1)
racegate_interrupt(single_hup leader HUP 0 1)
# --repeat in one process: run 1 ends, run 2 is held, run 3 never starts
racegate_interrupt(repeat_term leader TERM 1 1 --repeat 3)
# --jobs: one run ends, two are held in workers, the fourth never starts
racegate_interrupt(jobs_int leader INT 1 2 --jobs 2 --repeat 4)
racegate_interrupt(jobs_term leader TERM 1 2 --jobs 2 --repeat 4)
racegate_interrupt(jobs_hup leader HUP 1 2 --jobs 2 --repeat 4)
# ^C in a terminal: racegate, its workers and the programs all get SIGINT
racegate_interrupt(jobs_group_int group INT 1 2 --jobs 2 --repeat 4)
racegate_interrupt(single_group_int group INT 0 1)
# SIGKILL: nothing to clean up with, yet nothing may stay
racegate_interrupt(jobs_kill9 kill9 KILL 1 2 --jobs 2 --repeat 4)
racegate_interrupt(single_kill9 kill9 KILL 0 1)

# A report that cannot be written is refused before the first run, not after
# the last: no run happens (no outcome line), exit 2.
racegate_e2e(report_path_refused_first 2
  "^racegate: --report: cannot write '.*/no-such-dir/r.json': No such file or directory$"
  "!PASSED" "!timeline" "!waited=" -- ${RG} run --repeat 2
  --report ${E2E_DIR}/no-such-dir/r.json ${E2E_DIR}/sleeper.yaml)
racegate_e2e(trace_path_refused_first 2
  "^racegate: --trace: cannot write '.*/e2e': Is a directory$" "!PASSED"
  -- ${RG} run --trace ${E2E_DIR} ${E2E_DIR}/sleeper.yaml)
racegate_e2e(junit_path_refused_first 2
  "^racegate: --junit: cannot write '.*/no-such-dir/r.xml'" "!PASSED"
  -- ${RG} run --junit=${E2E_DIR}/no-such-dir/r.xml ${E2E_DIR}/sleeper.yaml)

# -j2 is -j 2, --jobs=2 is --jobs 2 (the JSON report says how many ran at once).
racegate_e2e(short_jobs_attached 0 "racegate: 2 runs: 2 PASSED" "\"jobs\":2"
  -- ${RG} run -j2 --repeat 2 --report - ${E2E_DIR}/sleeper.yaml)
racegate_e2e(long_jobs_equals 0 "racegate: 2 runs: 2 PASSED" "\"jobs\":2"
  -- ${RG} run --jobs=2 --repeat 2 --report - ${E2E_DIR}/sleeper.yaml)

# exited:main needs no alias: the worker is released once main has exited.
racegate_e2e_specs(main_exit_builtin.yaml)
racegate_e2e(exited_main_builtin 0 "worker ran" "PASSED" "opened exited:main"
  "after-main +released after"
  -- ${RG} run ${E2E_DIR}/main_exit_builtin.yaml)

# A source compiled in without -g is an error to fix with -g, not a location
# pending until some library loads (which would make the gate never arm).
# (options of a target of its own: a source's properties would reach every
# target in this folder that compiles it, e2e_sleeper included)
add_library(e2e_half_g_nog OBJECT ${E2E_SRC}/deadlock/sleeper.c)
target_compile_options(e2e_half_g_nog PRIVATE -O0 -g0)
racegate_e2e_program(half_g SOURCES $<TARGET_OBJECTS:e2e_half_g_nog> half_g.c)
racegate_e2e(half_g_no_debug_info 2
  "sleeper.yaml:9:[0-9]+: error: cannot resolve 'sleeper.c:19': '.*half_g' has no debug information for 'sleeper.c' \\(rebuild it with -g\\)"
  "!pending" -- ${RG} check ${E2E_DIR}/sleeper.yaml -- ${E2E_DIR}/half_g)

# A key gate that never armed (its library never loaded) cannot have enforced
# the order: NOT-ENFORCED, even though the expected output showed; unless it
# is optional.
racegate_e2e_specs(unarmed.yaml unarmed_optional.yaml)
racegate_e2e(unarmed_key_gate_not_enforced 3 "warning: gate 'ghost': no library 'libghost.so'"
  "NOT-ENFORCED: the order did not take hold: 'ghost' \\(ghost_function\\) was never armed.*. what was expected happened \\(exit 0\\), but not in the gated order"
  "!REPRODUCED" -- ${RG} run ${E2E_DIR}/unarmed.yaml)
racegate_e2e(unarmed_optional_gate_reproduced 0 "REPRODUCED: exit 0"
  -- ${RG} run ${E2E_DIR}/unarmed_optional.yaml)

# SIGKILL between forking the program's child and seizing it: the child,
# not yet the program, ends by itself (seize_kill.c makes the moment)
racegate_e2e_program(seize_kill SOURCES seize_kill.c SHARED NO_THREADS LIBS dl)
racegate_e2e(seize_kill_leaves_nothing 0 "racegate exit 137" "no process left"
  -- ${CMAKE_CURRENT_LIST_DIR}/seize_kill.sh ${RG}
     $<TARGET_FILE:e2e_seize_kill> ${E2E_DIR}/holder.yaml)
