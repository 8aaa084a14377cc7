# ELF/DWARF fuzzing of the real racegate binary (fuzz_elf.py): mutated -g
# programs and a shared object through `lines`, `check` and `run`.  The
# corpus is the sources in corpus/, built here -O0 and -O2; the mutations
# come from a fixed seed.  Label fuzz (left out by `ctest -LE fuzz`), like
# the spec loader's fuzzer.  It runs the racegate under test (${RG}, which
# .ci/test points at racegate built with ASan+UBSan).
set(fz_src ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/elf/corpus)
set(fz_out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-elf)
set(RACEGATE_FUZZ_ELF_SECONDS 15 CACHE STRING
    "How long ctest fuzzes racegate with mutated ELF files")

find_package(Threads REQUIRED)
add_library(fuzz_elf_lib SHARED ${fz_src}/fz_lib.c)
target_compile_options(fuzz_elf_lib PRIVATE -O0 -g)
target_link_libraries(fuzz_elf_lib PRIVATE Threads::Threads)
set_target_properties(fuzz_elf_lib PROPERTIES OUTPUT_NAME fz LIBRARY_OUTPUT_DIRECTORY ${fz_out})
foreach(v O0 O2)
  add_executable(fuzz_elf_main_${v} ${fz_src}/fz_main.c)
  target_compile_options(fuzz_elf_main_${v} PRIVATE -${v} -g)
  target_link_libraries(fuzz_elf_main_${v} PRIVATE fuzz_elf_lib Threads::Threads)
  set_target_properties(fuzz_elf_main_${v} PROPERTIES OUTPUT_NAME fz_main_${v}
                        RUNTIME_OUTPUT_DIRECTORY ${fz_out})
endforeach()

find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_FOUND)
  add_test(NAME fuzz_elf COMMAND sh -c "echo 'fuzz_elf: skipped: no python3'; exit 77")
  set_tests_properties(fuzz_elf PROPERTIES LABELS "fuzz;fuzz-elf" SKIP_RETURN_CODE 77)
  return()
endif()
add_test(NAME fuzz_elf
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/elf/fuzz_elf.py
          --racegate ${RG} --objdump ${CMAKE_OBJDUMP}
          --exe $<TARGET_FILE:fuzz_elf_main_O0> --exe $<TARGET_FILE:fuzz_elf_main_O2>
          --so $<TARGET_FILE:fuzz_elf_lib> --workdir ${fz_out}/work
          --seconds ${RACEGATE_FUZZ_ELF_SECONDS})
set_tests_properties(fuzz_elf PROPERTIES LABELS "fuzz;fuzz-elf" TIMEOUT 900)
