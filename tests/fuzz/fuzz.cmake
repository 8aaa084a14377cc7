# libFuzzer on the spec loader, run by ctest for a bounded time.  The target
# is built by clang (the project may be built by gcc), from the loader's own
# sources, with AddressSanitizer (leaks included) and UBSan.  It starts from
# tests/fuzz/corpus (kept in the repository: every gates file and every bad
# spec of check_specs.c, see seed.py, and regress-*.yaml: inputs that once
# crashed or crawled) and writes what it finds to the build tree.  Every
# input has a budget of RACEGATE_FUZZ_INPUT_SECONDS: one that takes longer
# fails the test as a crash would (regress-deep-flow.yaml, 40,000 '[', took
# 3 s in libyaml's scanner before the nesting limit; 3 ms now).  Skipped, visibly, in the sanitizer build (racegate's own ASan would
# clash) and when clang or its fuzzer runtime is missing.
set(RACEGATE_FUZZ_SECONDS 15 CACHE STRING "How long ctest fuzzes the spec loader")
set(RACEGATE_FUZZ_INPUT_SECONDS 2 CACHE STRING "Longest the spec loader may take on one fuzz input")
find_program(RACEGATE_CLANG NAMES clang clang-14 clang-16 clang-15)
set(FUZZ_SKIP "")
if(RACEGATE_SANITIZE)
  set(FUZZ_SKIP "the sanitizer build runs no fuzzer")
elseif(NOT RACEGATE_CLANG)
  set(FUZZ_SKIP "clang not found (Debian: clang libclang-rt-14-dev)")
else()
  execute_process(COMMAND ${RACEGATE_CLANG} -print-file-name=libclang_rt.fuzzer-x86_64.a
                  OUTPUT_VARIABLE fuzz_rt OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT EXISTS "${fuzz_rt}")
    set(FUZZ_SKIP "clang has no libFuzzer runtime (Debian: libclang-rt-14-dev)")
  endif()
endif()

if(FUZZ_SKIP)
  add_test(NAME fuzz_spec_loader
           COMMAND sh -c "echo 'fuzz_spec_loader: skipped: ${FUZZ_SKIP}'; exit 77")
  set_tests_properties(fuzz_spec_loader PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77)
  add_test(NAME fuzz_expr
           COMMAND sh -c "echo 'fuzz_expr: skipped: ${FUZZ_SKIP}'; exit 77")
  set_tests_properties(fuzz_expr PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77)
  return()
endif()

set(fuzz_bin ${CMAKE_CURRENT_BINARY_DIR}/fuzz_spec)
set(fuzz_srcs ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_spec.c)
get_target_property(spec_srcs rg_specs SOURCES)
foreach(f ${spec_srcs})
  list(APPEND fuzz_srcs ${PROJECT_SOURCE_DIR}/specs/${f})
endforeach()
get_target_property(expr_srcs rg_expr SOURCES)
foreach(f ${expr_srcs})
  list(APPEND fuzz_srcs ${PROJECT_SOURCE_DIR}/expr/${f})
endforeach()
get_target_property(common_srcs rg_common SOURCES)
foreach(f ${common_srcs})
  list(APPEND fuzz_srcs ${PROJECT_SOURCE_DIR}/common/${f})
endforeach()
add_custom_command(OUTPUT ${fuzz_bin}
  COMMAND ${RACEGATE_CLANG} -std=gnu11 -g -O1 -D_GNU_SOURCE -Wall -Wextra -Werror
          -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
          -I${PROJECT_SOURCE_DIR}/specs -I${PROJECT_SOURCE_DIR}/common
          -I${PROJECT_SOURCE_DIR}/expr -I${PROJECT_SOURCE_DIR}/dwarf
          ${YAML_CFLAGS} ${fuzz_srcs} ${YAML_LDFLAGS} -o ${fuzz_bin}
  DEPENDS ${fuzz_srcs} ${PROJECT_SOURCE_DIR}/specs/spec.h ${PROJECT_SOURCE_DIR}/specs/spec_int.h
  COMMENT "Building the spec loader fuzzer with clang"
  VERBATIM)
add_custom_target(fuzz_spec ALL DEPENDS ${fuzz_bin})

set(fuzz_out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-corpus)
add_test(NAME fuzz_spec_loader
  COMMAND sh -c "mkdir -p '${fuzz_out}' && exec '${fuzz_bin}' -max_total_time=${RACEGATE_FUZZ_SECONDS} -timeout=${RACEGATE_FUZZ_INPUT_SECONDS} -rss_limit_mb=2048 -print_final_stats=1 '${fuzz_out}' '${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus'")
set_tests_properties(fuzz_spec_loader PROPERTIES LABELS fuzz
                     TIMEOUT ${RACEGATE_FUZZ_SECONDS}0)

# libFuzzer on conditions (tests/fuzz/fuzz_expr.c): parse, compile against the
# fake scope of tests/expr_fake.c, evaluate over its fake memory.  Seeds in
# tests/fuzz/corpus_expr: the conditions of tests/check_expr.c.
set(RACEGATE_FUZZ_EXPR_SECONDS 10 CACHE STRING "How long ctest fuzzes conditions")
set(fuzz_expr_bin ${CMAKE_CURRENT_BINARY_DIR}/fuzz_expr)
set(fuzz_expr_srcs ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_expr.c ${CMAKE_CURRENT_SOURCE_DIR}/expr_fake.c)
foreach(f ${expr_srcs})
  list(APPEND fuzz_expr_srcs ${PROJECT_SOURCE_DIR}/expr/${f})
endforeach()
foreach(f ${common_srcs})
  list(APPEND fuzz_expr_srcs ${PROJECT_SOURCE_DIR}/common/${f})
endforeach()
add_custom_command(OUTPUT ${fuzz_expr_bin}
  COMMAND ${RACEGATE_CLANG} -std=gnu11 -g -O1 -D_GNU_SOURCE -Wall -Wextra -Werror
          -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
          -I${PROJECT_SOURCE_DIR}/expr -I${PROJECT_SOURCE_DIR}/dwarf
          -I${PROJECT_SOURCE_DIR}/common -I${CMAKE_CURRENT_SOURCE_DIR}
          ${fuzz_expr_srcs} -o ${fuzz_expr_bin}
  DEPENDS ${fuzz_expr_srcs} ${PROJECT_SOURCE_DIR}/expr/expr.h ${PROJECT_SOURCE_DIR}/expr/expr_int.h
          ${CMAKE_CURRENT_SOURCE_DIR}/expr_fake.h
  COMMENT "Building the condition fuzzer with clang"
  VERBATIM)
add_custom_target(fuzz_expr_target ALL DEPENDS ${fuzz_expr_bin})
set(fuzz_expr_out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-corpus-expr)
add_test(NAME fuzz_expr
  COMMAND sh -c "mkdir -p '${fuzz_expr_out}' && exec '${fuzz_expr_bin}' -max_total_time=${RACEGATE_FUZZ_EXPR_SECONDS} -timeout=${RACEGATE_FUZZ_INPUT_SECONDS} -max_len=4200 -rss_limit_mb=2048 -print_final_stats=1 '${fuzz_expr_out}' '${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus_expr'")
set_tests_properties(fuzz_expr PROPERTIES LABELS fuzz TIMEOUT ${RACEGATE_FUZZ_EXPR_SECONDS}0)
