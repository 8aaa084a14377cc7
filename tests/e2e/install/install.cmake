# Install, package and consume: against a racegate installed into a
# temporary prefix in the build tree (and a .deb unpacked there), never
# against the build tree.  See install.sh.
macro(install_case name c)
  set(install_${c} ${CMAKE_CURRENT_LIST_DIR}/install.sh ${c}
      ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
endmacro()
foreach(c prefix layout man docs consumer triage_consumer deb)
  install_case(x ${c})
endforeach()

racegate_e2e(install_prefix 0 "installed into .*test-install" -- ${install_prefix})
set_tests_properties(e2e_install_prefix PROPERTIES FIXTURES_SETUP rg_installed)

racegate_e2e(install_layout 0 "installed: bin/racegate" "installed: share/man/man1/racegate.1"
  "installed: share/man/man5/gates.yaml.5" "installed: share/racegate/gates.schema.json"
  "installed: share/cmake/racegate/racegateConfig.cmake"
  "installed: share/bash-completion/completions/racegate" "!MISSING"
  "^racegate [0-9]+\\.[0-9]+\\.[0-9]+$" "REPRODUCED" "^complete -F _racegate racegate$"
  -- ${install_layout})
racegate_e2e(man_pages_render 0 "^RACEGATE\\(1\\)" "^NAME$" "^SYNOPSIS$" "^EXIT STATUS$"
  "^GATES.YAML\\(5\\)" "^NAME$" "^EXPECT$" -- ${install_man})
racegate_e2e(install_docs 0 "installed: share/doc/racegate/explore.md"
  "installed: share/doc/racegate/gates.md" "installed: share/doc/racegate/report.md"
  "--help: says share/doc/racegate" "racegate\\(1\\): says share/doc/racegate" "!MISSING"
  -- ${install_docs})
racegate_e2e(cmake_consumer 0 "racegate [0-9.]+: .*/test-install/bin/racegate"
  "account_lost_deposit_reproduces .* Passed" "account_fix_makes_order_impossible .* Passed"
  "account_busy_flag_stays_benign .* Passed"
  "100% tests passed, 0 tests failed out of 3" -- ${install_consumer})
# racegate_add_test(... TRIAGE ...): the tests pass and fail as each says,
# with racegate's words for why; each bad call stops the configure.
racegate_e2e(cmake_triage_consumer 0
  "benign_passes .* Passed" "helgrind_benign_passes .* Passed" "kept_verdicts_pass .* Passed"
  "kept_benign_now_differs_fails .*Failed"
  "^1 +account.c:19 \\(clerk_[12]\\) +account.c:21 \\(clerk_[12]\\) +OUTPUT-DIFFERS .*/racegate/kept_benign_now_differs_fails/race-1-order-1.yaml"
  "^race 1: OUTPUT-DIFFERS, expected BENIGN \\(--expect-verdicts\\)$"
  "output_differs_fails .*Failed" "^race 2: BENIGN: "
  "60% tests passed, 2 tests failed out of 5"
  "^Total Tests: 5$" "Test +#2: helgrind_benign_passes$"
  "^race-1-order-1.yaml$" "^race-1-order-2.yaml$" "^triage.json$"
  "^BAD no_report: racegate_add_test\\(bad\\): REPORT is required$"
  "^BAD missing_report: racegate_add_test\\(bad\\): no report"
  "^BAD bad_tool: racegate_add_test\\(bad\\): TOOL is tsan or helgrind, not 'drd'$"
  "^BAD bad_verdict: racegate_add_test\\(bad\\): EXPECT_VERDICTS: unknown verdict 'BENIN'"
  "^BAD no_verdict: racegate_add_test\\(bad\\): no value after EXPECT_VERDICTS$"
  "^BAD spec_and_triage: racegate_add_test\\(bad\\): the TRIAGE form takes no SPEC$"
  "^BAD repeat_and_triage: racegate_add_test\\(bad\\): the TRIAGE form takes no REPEAT$"
  "^BAD report_without_triage: racegate_add_test\\(bad\\): a test without TRIAGE takes no REPORT$"
  "^BAD no_command: racegate_add_test\\(bad\\): COMMAND is required$"
  "!configured$" -- ${install_triage_consumer})
set_tests_properties(e2e_install_layout e2e_man_pages_render e2e_install_docs e2e_cmake_consumer
  e2e_cmake_triage_consumer PROPERTIES FIXTURES_REQUIRED rg_installed)

racegate_e2e(deb_package 0 "package: racegate_.*\\.deb" "Package: racegate" "Depends: .*libc6"
  "usr/bin/racegate" "^racegate [0-9]+\\.[0-9]+\\.[0-9]+$" "REPRODUCED" -- ${install_deb})
