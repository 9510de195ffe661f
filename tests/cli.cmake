# cli.cmake - core unit tests and command-line tests, included from
# tests/CMakeLists.txt.
#
#   unit.core  cmocka tests of src/core: source loading, UTF-8, rules, map,
#              arena, file discovery, report
#   cli        tests/cli/run_cli_tests.sh against the built cglint binary:
#              exit codes, formats, --output, bad input, walking, determinism

add_executable(test_core ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_core.c)
target_link_libraries(test_core PRIVATE cglint_core PkgConfig::CMOCKA)
add_test(NAME unit.core COMMAND test_core)
set_tests_properties(unit.core PROPERTIES TIMEOUT 120)

add_test(NAME cli
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/run_cli_tests.sh
                 $<TARGET_FILE:cglint> ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
set_tests_properties(cli PROPERTIES
  ENVIRONMENT "SARIF_MULTITOOL=${CMAKE_BINARY_DIR}/tools/sarif/node_modules/.bin/sarif-multitool"
  TIMEOUT 600)

# torture mode: every allocation through the wrapper failed in turn ends in
# one "out of memory" line and exit 2 (tests/cli/alloc_torture.sh)
add_test(NAME cli.alloc-torture
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/alloc_torture.sh $<TARGET_FILE:cglint> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli.alloc-torture PROPERTIES TIMEOUT 300)
