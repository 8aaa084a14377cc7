# Built -O2 -g (appended after racegate_example's -O0: the last -O wins):
# the race is in the code the optimiser makes.  hoisted_count-O0 is the
# same source at -O0, where the same gates find no bug (README.md).
racegate_example(hoisted_count)
target_compile_options(ex_hoisted_count PRIVATE -O2)
target_compile_options(ex_hoisted_count_fixed PRIVATE -O2)
add_executable(ex_hoisted_count_O0 hoisted_count/hoisted_count.c)
target_compile_options(ex_hoisted_count_O0 PRIVATE -O0 -g)
target_link_libraries(ex_hoisted_count_O0 PRIVATE Threads::Threads)
set_target_properties(ex_hoisted_count_O0 PROPERTIES OUTPUT_NAME hoisted_count-O0
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/hoisted_count)
