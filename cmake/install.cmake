# Installation and packaging: `cmake --install` puts the binary, the man
# pages, the bash completion, the JSON Schema of gates.yaml, the guides and
# the CMake package in the GNUInstallDirs places; `cpack -G DEB` makes a
# Debian package of them.
# Included from the top-level CMakeLists.txt.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RACEGATE_DATA_DIR ${CMAKE_INSTALL_DATADIR}/racegate)
set(RACEGATE_CMAKE_DIR ${CMAKE_INSTALL_DATADIR}/cmake/racegate)

install(TARGETS racegate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/docs/racegate.1
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/docs/gates.yaml.5
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man5)
# The bash completion is the binary's (`racegate completion bash`, from its
# option table), made at build time where bash-completion looks for it.
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/racegate.bash
  COMMAND sh -c "\"$1\" completion bash > \"$2\"" sh $<TARGET_FILE:racegate>
          ${PROJECT_BINARY_DIR}/racegate.bash
  DEPENDS racegate VERBATIM)
add_custom_target(racegate_completion ALL DEPENDS ${PROJECT_BINARY_DIR}/racegate.bash)
install(FILES ${PROJECT_BINARY_DIR}/racegate.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME racegate)
install(FILES ${PROJECT_SOURCE_DIR}/docs/gates.schema.json
              ${PROJECT_SOURCE_DIR}/docs/report.schema.json
        DESTINATION ${RACEGATE_DATA_DIR})
# The guides that --help and the man pages name (explore.md, gates.md,
# report.md, ...), all of docs/*.md, beside the README.
file(GLOB RACEGATE_GUIDES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${RACEGATE_GUIDES}
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The package is architecture-independent CMake code around one executable.
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/racegateConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/racegateConfig.cmake
  INSTALL_DESTINATION ${RACEGATE_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR RACEGATE_DATA_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/racegateConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/cmake/racegateConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/racegateConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/racegateFunctions.cmake
        DESTINATION ${RACEGATE_CMAKE_DIR})

# `make install` and cpack do not rebuild everything first (the examples and
# tests are not installed): build, then install or package.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)

set(CPACK_PACKAGE_NAME racegate)
set(CPACK_PACKAGE_VENDOR "racegate")
set(CPACK_PACKAGE_CONTACT "racegate developers <racegate@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "make a concurrency bug happen on every run, under ptrace and gates")
set(CPACK_PACKAGE_DESCRIPTION
    "racegate runs a C or C++ program under ptrace, puts breakpoints at the source lines named in a gates.yaml, and holds each thread that reaches one until its gate opens, so one interleaving happens on every run.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES OFF)
include(CPack)
