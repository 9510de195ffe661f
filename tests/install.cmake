# install.cmake - tests of the installed cglint (issue 15): `cmake --install`
# into a scratch root, and the .deb CPack builds, unpacked with dpkg -x.
# Included from the end of tests/CMakeLists.txt.
#
#   install.install         tests/install/install.sh BUILD_DIR SOURCE_DIR
#   install.deb             tests/install/deb.sh BUILD_DIR SOURCE_DIR
foreach(name install deb)
  add_test(NAME install.${name}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install/${name}.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
  set_tests_properties(install.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RESOURCE_LOCK cglint-install)
endforeach()
