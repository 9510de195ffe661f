# workflow.cmake - tests of how cglint fits where people work (issue 6):
# configuration files, suppression comments, the baseline, pre-commit, the
# .gitignore-aware walk, autofix and the progress line.  Included from the
# end of tests/CMakeLists.txt.
#
#   unit.config            TOML layer, config loader, rule layering, suppression scanner (cmocka)
#   unit.fix               applying fixes: refusals, overlaps, atomic writes (cmocka)
#   workflow.<name>        tests/workflow/<name>.sh against the built cglint
#   docs.options           README.md's option lists against src/cli/options.c (scripts/gen-options)

add_executable(test_config ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_config.c)
target_link_libraries(test_config PRIVATE cglint_core PkgConfig::CMOCKA)
add_test(NAME unit.config COMMAND test_config)

file(GLOB CGLINT_WORKFLOW_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/workflow/*.sh)
list(REMOVE_ITEM CGLINT_WORKFLOW_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/workflow/lib.sh)
foreach(script IN LISTS CGLINT_WORKFLOW_TESTS)
  get_filename_component(name ${script} NAME_WE)
  add_test(NAME workflow.${name}
           COMMAND bash ${script} $<TARGET_FILE:cglint> ${CMAKE_SOURCE_DIR})
  set_tests_properties(workflow.${name} PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "SARIF_MULTITOOL=${CGLINT_SARIF_MULTITOOL};NO_COLOR=1")
endforeach()
# the pre-commit test builds cglint once more through the hook (a full build
# the first time, then only what changed), the GitHub Actions test through
# scripts/bootstrap --no-tests (a full build each time)
set_tests_properties(workflow.precommit workflow.actions workflow.docs PROPERTIES TIMEOUT 1500)
# the README's install and cpack blocks write into the build directory, as the
# install tests do
set_tests_properties(workflow.docs PROPERTIES RESOURCE_LOCK cglint-install)

add_executable(test_fix ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_fix.c)
target_link_libraries(test_fix PRIVATE cglint_driver PkgConfig::CMOCKA)
add_test(NAME unit.fix COMMAND test_fix)

# README.md's option lists are made from the option tables (src/cli/options.c)
# that getopt_long and --help use: stale lists fail, naming the fix
add_test(NAME docs.options COMMAND python3 ${CMAKE_SOURCE_DIR}/scripts/gen-options --check ${CMAKE_BINARY_DIR})
