# C++ as people write it (issue 11): threads started by std::thread and
# std::jthread, selected by {start:} with the callable they run, and
# locations written without template arguments or with std::string.
enable_language(CXX)
racegate_e2e_program(cxxthreads_O0 SOURCES cxxthreads.cpp
  OPTIONS -O0 -g -std=c++20 OUTPUT cxxthreads SPECS cxxthreads.yaml)
racegate_e2e_program(cxxthreads_O2 SOURCES cxxthreads.cpp
  OPTIONS -O2 -g -std=c++20 OUTPUT cxxthreads-O2)

# A function, a member function, a virtual one (the override that runs), a
# lambda, a std::jthread's lambda: each selector holds its own thread only.
set(cxx_order "^jthread$" "^lambda$" "^virtual$" "^member$" "^function$")
set(cxx_not
  "!(member|virt|lambda|jt) .*waiting for exited:member"
  "!wrong override" "!NOT-ENFORCED" "!matches no thread")
racegate_e2e(cxx_thread_starts 0 ${cxx_order} "^int 2$" "^string x$" "PASSED"
  "lambda .* put +opened put" "main .* log-string +passed" ${cxx_not}
  -- ${RG} run ${E2E_DIR}/cxxthreads.yaml)
racegate_e2e(cxx_thread_starts_O2 0 ${cxx_order} "PASSED"
  "fn +tid [0-9]+ +cxxthreads.cpp:[0-9]+ +touch +(held: waiting for |passed \\()exited:member"
  ${cxx_not} -- ${RG} run ${E2E_DIR}/cxxthreads.yaml -- ${E2E_DIR}/cxxthreads-O2)
racegate_e2e(cxx_thread_starts_10_of_10 0 "10 runs: 10 PASSED$"
  -- ${RG} run --repeat 10 ${E2E_DIR}/cxxthreads.yaml)

# A template by its bare name is every instantiation, each listed; a
# std::string parameter as written picks its overload.
racegate_e2e(cxx_template_and_string_check 0
  "put +at Q::put"
  "0x[0-9a-f]+ +cxxthreads.cpp:[0-9]+ +in Q<int>::put"
  "0x[0-9a-f]+ +cxxthreads.cpp:[0-9]+ +in Q<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > >::put"
  "log-string +at log_line\\(std::string\\)"
  "0x[0-9a-f]+ +cxxthreads.cpp:[0-9]+ +in log_line" "!warning"
  -- ${RG} check ${E2E_DIR}/cxxthreads.yaml)
