# install.cmake - `cmake --install` and CPack, included from CMakeLists.txt.
#
# Layout (GNUInstallDirs; PREFIX is CMAKE_INSTALL_PREFIX, /usr in the .deb):
#   PREFIX/bin/cglint
#   PREFIX/share/cglint/runtime/python/    the observer behind `cglint run`
#   PREFIX/lib/cglint/libcglint_cupti.so   the CUPTI injection library, when built
#   PREFIX/share/doc/cglint/               README, CHANGELOG, LICENSE, docs/, rules/,
#                                          runtime/README.md, examples/
# The binary finds its runtime relative to itself (/proc/self/exe), so a
# relocated install or an unpacked .deb works; CGLINT_RUNTIME_DIR overrides.
#
#   cmake --install build --prefix /usr/local
#   cpack --config build/CPackConfig.cmake -B OUTDIR    # cglint_<version>_<arch>.deb

install(TARGETS cglint RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/runtime/python
        DESTINATION ${CMAKE_INSTALL_DATADIR}/cglint/runtime
        PATTERN __pycache__ EXCLUDE PATTERN "*.pyc" EXCLUDE)
if(TARGET cglint_cupti)
  install(TARGETS cglint_cupti LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/cglint)
endif()

install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/CHANGELOG.md
              ${CMAKE_SOURCE_DIR}/LICENSE ${CMAKE_SOURCE_DIR}/BENCHMARKS.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME copyright)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/rules/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/rules
        FILES_MATCHING PATTERN "*.md")
install(FILES ${CMAKE_SOURCE_DIR}/runtime/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}/runtime)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples DESTINATION ${CMAKE_INSTALL_DOCDIR}
        PATTERN __pycache__ EXCLUDE)

# ---- CPack: a Debian package ------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cglint)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "cglint")
set(CPACK_PACKAGE_CONTACT "cglint maintainers <cglint@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "find CUDA graph capture hazards in PyTorch and CUDA C/C++ code")
set(CPACK_PACKAGE_DESCRIPTION
    "cglint reads PyTorch Python and CUDA C/C++ code without running it, finds every\n CUDA graph capture region and reports what would break or replay wrong in it;\n `cglint run` confirms the findings on a GPU.")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Depends: the Debian packages of the libraries cglint links (libgit2,
# jansson, tree-sitter, libc), as dpkg-shlibdeps finds them for the built
# binary when cpack runs (cglint_cpack.cmake), and the package of the libclang
# it loads (dpkg -S).  Not CPACK_DEBIAN_PACKAGE_SHLIBDEPS: that also reads the
# CUPTI library, whose libcupti and libcuda come from the CUDA toolkit and
# driver, not from any Debian package, and fails.
find_program(CGLINT_DPKG_SHLIBDEPS dpkg-shlibdeps)
set(_cg_cpack_tmpl [=[
if(CPACK_GENERATOR STREQUAL "DEB")
  set(_dir "@CMAKE_BINARY_DIR@/cpack-shlibdeps")
  file(MAKE_DIRECTORY "${_dir}/debian")
  file(TOUCH "${_dir}/debian/control")
  if(EXISTS "@CGLINT_DPKG_SHLIBDEPS@")
    execute_process(COMMAND "@CGLINT_DPKG_SHLIBDEPS@" -O --ignore-missing-info -e "$<TARGET_FILE:cglint>"
                    WORKING_DIRECTORY "${_dir}" OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  endif()
  if(NOT _rc EQUAL 0 OR NOT _out MATCHES "shlibs:Depends=([^
]*)")
    message(FATAL_ERROR "cglint: dpkg-shlibdeps could not name the packages cglint links "
                        "(apt-get install dpkg-dev): ${_err}")
  endif()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${CMAKE_MATCH_1}")
  # libclang is loaded with dlopen (src/cuda/cu_clang.c), so dpkg-shlibdeps
  # does not see it: its package is added by the file cglint loads
  if(NOT "@LIBCLANG_REAL@" STREQUAL "")
    execute_process(COMMAND dpkg -S "@LIBCLANG_REAL@" OUTPUT_VARIABLE _lc RESULT_VARIABLE _lrc ERROR_QUIET)
    if(NOT _lrc EQUAL 0 OR NOT _lc MATCHES "^([^:,]+)[:,]")
      message(FATAL_ERROR "cglint: no Debian package holds @LIBCLANG_REAL@ (dpkg -S)")
    endif()
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", ${CMAKE_MATCH_1}")
  endif()
  message(STATUS "cglint: Depends: ${CPACK_DEBIAN_PACKAGE_DEPENDS}")
endif()
]=])
string(CONFIGURE "${_cg_cpack_tmpl}" _cg_cpack @ONLY)
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/cglint_cpack.cmake CONTENT "${_cg_cpack}")
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_BINARY_DIR}/cglint_cpack.cmake)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3")
include(CPack)
