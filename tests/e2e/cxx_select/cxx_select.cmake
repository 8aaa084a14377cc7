# Thread selectors as a C++ programmer writes them (issue 25, items 2-4
# and 10): cxxselect.cpp is C++17 with std::thread, lambdas, a class with
# overloaded methods and a C wrapper thread_main(void *) that calls a
# function pointer; built at -O0 and -O2, and without -g.
enable_language(CXX)
racegate_e2e_program(cxxselect_O0 SOURCES cxxselect.cpp
  OPTIONS -O0 -g -std=c++17 OUTPUT cxxselect
  SPECS cxxselect_unbound.yaml cxxselect_bad.yaml cxxselect_nodbg.yaml)
racegate_e2e_program(cxxselect_O2 SOURCES cxxselect.cpp
  OPTIONS -O2 -g -std=c++17 OUTPUT cxxselect-O2)
racegate_e2e_program(cxxselect_nodbg SOURCES cxxselect.cpp
  OPTIONS -O2 -g0 -std=c++17 OUTPUT cxxselect-nodbg)

# the lambda the spec names by its line: wherever the source has it
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/cxxselect.cpp cxs_lines)
set(LAMBDA2_LINE 0)
set(cxs_n 0)
foreach(l IN LISTS cxs_lines)
  math(EXPR cxs_n "${cxs_n} + 1")
  if(l MATCHES "@lambda-2")
    set(LAMBDA2_LINE ${cxs_n})
  endif()
endforeach()
foreach(SUFFIX "" "-O2")
  configure_file(${CMAKE_CURRENT_LIST_DIR}/cxxselect.yaml.in
                 ${E2E_DIR}/cxxselect${SUFFIX}.yaml @ONLY)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/cxxselect_runs.yaml.in
                 ${E2E_DIR}/cxxselect_runs${SUFFIX}.yaml @ONLY)
endforeach()

# A lambda by gdb's name and by its line, an overloaded method by its
# parameter types, a method without them: each holds its own thread only,
# and they print in the order the gates give.
foreach(SUFFIX "" "-O2")
  racegate_e2e(cxx_select_forms${SUFFIX} 0 "^flush$" "^run\\(char const\\*\\)$"
    "^run\\(int\\)$" "^lambda 2$" "^lambda 1$" "PASSED" "!NOT-ENFORCED" "!never bound"
    -- ${RG} run ${E2E_DIR}/cxxselect${SUFFIX}.yaml)
  # the wrapper's two threads by what they run: the pruner first
  racegate_e2e(cxx_select_runs${SUFFIX} 0 "^pruner$" "^flusher$" "PASSED"
    "fl +tid [0-9]+ +cxxselect.cpp:[0-9]+ +touch +(held: waiting for |passed \\()exited:pr"
    -- ${RG} run ${E2E_DIR}/cxxselect_runs${SUFFIX}.yaml)
endforeach()
# check says what a lambda's start: stands for.
racegate_e2e(cxx_select_check_shows 0
  "thread l1: \\{start: main::\\{lambda\\(\\)#1\\}::operator\\(\\)\\} is main::\\{lambda\\(\\)#1\\}$"
  "thread l2: \\{start: cxxselect.cpp:${LAMBDA2_LINE}\\} is main::\\{lambda\\(int\\)#2\\}$"
  -- ${RG} check ${E2E_DIR}/cxxselect-O2.yaml)
racegate_e2e(cxx_select_runs_10_of_10 0 "10 runs: 10 PASSED$"
  -- ${RG} run --repeat 10 ${E2E_DIR}/cxxselect_runs-O2.yaml)

# An alias that never bound is named in the outcome line and the report.
racegate_e2e(cxx_select_unbound_named 0
  "SCHEDULE-DEADLOCK: .*thread alias 'third' was never bound: no thread matched \\{start: thread_main, nth: 3\\}"
  "exited:third opens only when third exits, and no thread has been bound to it"
  "run exit 3" "\"unbound_aliases\":\\[\"third\"\\]"
  -- sh -c "'${RG}' run ${E2E_DIR}/cxxselect_unbound.yaml || echo run exit $? && '${RG}' run -q --report ${E2E_DIR}/cxxselect_unbound.json ${E2E_DIR}/cxxselect_unbound.yaml || cat ${E2E_DIR}/cxxselect_unbound.json")

# Selectors that match nothing: errors at check that say what would.
racegate_e2e(cxx_select_check_errors 2
  "cxxselect_bad.yaml:5:7: error: \\{start: main::\\{lambda\\(\\)#3\\}\\} matches no thread: .*\\(did you mean 'main::\\{lambda\\(\\)#1\\}'\\?\\). threads of 'cxxselect' start in: Logger::flush\\(\\) \\(cxxselect.cpp:[0-9]+\\), \"Worker::run\\(char const\\*\\)\" \\(cxxselect.cpp:[0-9]+\\), Worker::run\\(int\\) \\(cxxselect.cpp:[0-9]+\\), \"main::\\{lambda\\(\\)#1\\}\" \\(cxxselect.cpp:[0-9]+\\), \"main::\\{lambda\\(int\\)#2\\}\" \\(cxxselect.cpp:${LAMBDA2_LINE}\\), thread_main \\(cxxselect.cpp:[0-9]+\\)$"
  "cxxselect_bad.yaml:6:9: error: \\{start: cxxselect.cpp:14\\} matches no thread: no function or lambda is defined at 'cxxselect.cpp:14'"
  "cxxselect_bad.yaml:7:8: error: \\{start: Worker::run\\(long\\)\\} matches no thread: .*did you mean 'Worker::run\\(int\\)'"
  "cxxselect_bad.yaml:8:9: error: \\{runs: flsher\\} matches no thread: no function 'flsher' in 'cxxselect' .*\\(did you mean 'flusher'\\?\\)"
  -- ${RG} check ${E2E_DIR}/cxxselect_bad.yaml)

# Built without -g: run, check and explore say so, and what to do.
set(cxs_nodbg "'cxxselect-nodbg' has no debug information \\(built without -g\\?\\): FILE:LINE and C\\+\\+ names need it. rebuild with -g")
racegate_e2e(cxx_select_nodbg_check 2
  "cxxselect_nodbg.yaml:5:10: error: cannot resolve \\{start: Logger::flush\\}: ${cxs_nodbg}"
  "cxxselect_nodbg.yaml:7:10: error: cannot resolve 'Worker::run': ${cxs_nodbg}"
  -- ${RG} check ${E2E_DIR}/cxxselect_nodbg.yaml)
racegate_e2e(cxx_select_nodbg_run 2 "cannot resolve 'Worker::run': ${cxs_nodbg}"
  -- ${RG} run ${E2E_DIR}/cxxselect_nodbg.yaml)
racegate_e2e(cxx_select_nodbg_explore 2 "--at: cannot resolve 'Worker::run': ${cxs_nodbg}"
  -- ${RG} explore --at Worker::run -- ${E2E_DIR}/cxxselect-nodbg)
racegate_e2e(cxx_select_nodbg_explore_line 2
  "--at: cannot resolve 'cxxselect.cpp:90': ${cxs_nodbg}"
  -- ${RG} explore --at cxxselect.cpp:90 -- ${E2E_DIR}/cxxselect-nodbg)

# explore on the wrapper's racing threads (its points in the function
# both run under the wrapper): the file it writes names them by what they
# run, and reproduces.
racegate_e2e(cxx_select_explore_writes_runs 0 "FAILED \\(exit status 1\\)"
  "wrote .*reproduced 20/20" "explore exit 1"
  "  flusher_1: \\{runs: flusher\\}" "  pruner_1: \\{runs: pruner\\}"
  "40 runs: 40 REPRODUCED" "run exit 0"
  -- ${E2E_SRC}/trial_explore/trial_explore.sh write_run ${RG} ${E2E_DIR}
     --at add_one -- ./cxxselect explore)
