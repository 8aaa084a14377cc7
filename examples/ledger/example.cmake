# ledger: the race is in a shared library of the project's own, built -g
# next to the program that links it.  The fixed variant links the fixed
# library (libledger-fixed.so); both keep the source name ledger.c.
set(out ${CMAKE_CURRENT_BINARY_DIR}/ledger)
add_library(ex_ledger_lib SHARED ledger/ledger.c)
add_library(ex_ledger_lib_fixed SHARED ledger/fixed/ledger.c)
set_target_properties(ex_ledger_lib PROPERTIES OUTPUT_NAME ledger)
set_target_properties(ex_ledger_lib_fixed PROPERTIES OUTPUT_NAME ledger-fixed)
add_executable(ex_ledger ledger/bank.c)
add_executable(ex_ledger_fixed ledger/bank.c)
target_link_libraries(ex_ledger PRIVATE ex_ledger_lib Threads::Threads)
target_link_libraries(ex_ledger_fixed PRIVATE ex_ledger_lib_fixed Threads::Threads)
set_target_properties(ex_ledger PROPERTIES OUTPUT_NAME bank)
set_target_properties(ex_ledger_fixed PROPERTIES OUTPUT_NAME bank-fixed)
foreach(t ex_ledger_lib ex_ledger_lib_fixed ex_ledger ex_ledger_fixed)
  target_compile_options(${t} PRIVATE -O0 -g)
  target_include_directories(${t} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/ledger)
  set_target_properties(${t} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${out}
                        LIBRARY_OUTPUT_DIRECTORY ${out})
endforeach()
configure_file(ledger/gates.yaml ${out}/gates.yaml COPYONLY)
