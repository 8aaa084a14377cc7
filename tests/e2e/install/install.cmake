# Install, package and consume: against a racegate installed into a
# temporary prefix in the build tree (and a .deb unpacked there), never
# against the build tree.  See install.sh.
macro(install_case name c)
  set(install_${c} ${CMAKE_CURRENT_LIST_DIR}/install.sh ${c}
      ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
endmacro()
foreach(c prefix layout man docs consumer deb)
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
  "100% tests passed, 0 tests failed out of 2" -- ${install_consumer})
set_tests_properties(e2e_install_layout e2e_man_pages_render e2e_install_docs e2e_cmake_consumer
  PROPERTIES FIXTURES_REQUIRED rg_installed)

racegate_e2e(deb_package 0 "package: racegate_.*\\.deb" "Package: racegate" "Depends: .*libc6"
  "usr/bin/racegate" "^racegate [0-9]+\\.[0-9]+\\.[0-9]+$" "REPRODUCED" -- ${install_deb})
