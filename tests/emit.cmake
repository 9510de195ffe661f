# emit.cmake - the emitter tests, included from tests/CMakeLists.txt.
#
#   unit.emit             every format against tests/golden/ (cmocka)
#   sarif.validate.golden the golden SARIF through Microsoft's SARIF Multitool
#
# The multitool is an npm package pinned with integrity hashes in
# tests/sarif/package-lock.json.  It is installed once, at configure time,
# into ${CMAKE_BINARY_DIR}/tools/sarif (and again when the lock changes), so
# that running the tests never needs the network.

add_executable(test_emit ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_emit.c)
target_link_libraries(test_emit PRIVATE cglint_emit PkgConfig::CMOCKA)
target_compile_definitions(test_emit PRIVATE
  CGLINT_GOLDEN_DIR="${CMAKE_CURRENT_SOURCE_DIR}/golden")
add_test(NAME unit.emit COMMAND test_emit)

# ---- SARIF validation ------------------------------------------------------
option(CGLINT_SARIF_VALIDATE "Install the SARIF Multitool (npm) and validate the golden SARIF" ON)

set(CGLINT_SARIF_TOOLS ${CMAKE_BINARY_DIR}/tools/sarif)
set(CGLINT_SARIF_MULTITOOL ${CGLINT_SARIF_TOOLS}/node_modules/.bin/sarif-multitool)
set(_cg_sarif_pkg ${CMAKE_CURRENT_SOURCE_DIR}/sarif/package.json)
set(_cg_sarif_lock ${CMAKE_CURRENT_SOURCE_DIR}/sarif/package-lock.json)
# Re-configure (and so re-install) when the pin changes.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_cg_sarif_pkg} ${_cg_sarif_lock})

function(cglint_install_sarif_multitool)
  file(SHA256 ${_cg_sarif_lock} lock_hash)
  set(stamp ${CGLINT_SARIF_TOOLS}/.installed-lock-sha256)
  if(EXISTS ${CGLINT_SARIF_MULTITOOL} AND EXISTS ${stamp})
    file(READ ${stamp} installed_hash)
    if(installed_hash STREQUAL lock_hash)
      return()
    endif()
  endif()
  find_program(NPM_EXECUTABLE npm)
  if(NOT NPM_EXECUTABLE)
    message(WARNING "npm not found: the SARIF Multitool is not installed and "
                    "sarif.validate.golden will fail (or configure with -DCGLINT_SARIF_VALIDATE=OFF)")
    return()
  endif()
  message(STATUS "Installing the SARIF Multitool into ${CGLINT_SARIF_TOOLS}")
  file(MAKE_DIRECTORY ${CGLINT_SARIF_TOOLS})
  file(COPY ${_cg_sarif_pkg} ${_cg_sarif_lock} DESTINATION ${CGLINT_SARIF_TOOLS})
  execute_process(
    COMMAND ${NPM_EXECUTABLE} ci --no-audit --no-fund --prefix ${CGLINT_SARIF_TOOLS}
    WORKING_DIRECTORY ${CGLINT_SARIF_TOOLS}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(WARNING "npm ci for the SARIF Multitool failed (${rc}); "
                    "sarif.validate.golden will fail until it is installed:\n${out}")
    return()
  endif()
  # npm 11 does not run install scripts, and the platform package's script
  # is what makes its native binary executable.
  file(GLOB natives ${CGLINT_SARIF_TOOLS}/node_modules/@microsoft/sarif-multitool-*/Sarif.Multitool)
  foreach(bin IN LISTS natives)
    file(CHMOD ${bin} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
                                  GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  endforeach()
  file(WRITE ${stamp} "${lock_hash}")
endfunction()

if(CGLINT_SARIF_VALIDATE)
  cglint_install_sarif_multitool()
  add_test(NAME sarif.validate.golden
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/sarif_validate.sh
                   ${CMAKE_CURRENT_SOURCE_DIR}/golden/report.sarif
                   ${CMAKE_CURRENT_SOURCE_DIR}/golden/report-run.sarif)
  set_tests_properties(sarif.validate.golden PROPERTIES
    ENVIRONMENT "SARIF_MULTITOOL=${CGLINT_SARIF_MULTITOOL}"
    TIMEOUT 120)
endif()

# ---- the JSON schema in docs/json-schema.md --------------------------------
# Validates the golden JSON report and the document's own example against the
# schema block, so the documentation cannot drift from the emitter.  Needs
# python3 with the jsonschema module; without it the test is skipped (77).
add_test(NAME json.schema
  COMMAND ${Python3_EXECUTABLE} -c [=[
import json, re, sys
doc, golden = sys.argv[1], sys.argv[2]
try:
    import jsonschema
except ImportError:
    print("jsonschema is not installed: skipped")
    sys.exit(77)
text = open(doc, encoding="utf-8").read()
blocks = re.findall(r"^```json\n(.*?)^```", text, re.S | re.M)
section = text.split("\n## JSON Schema\n", 1)
if len(section) != 2:
    sys.exit("%s: no '## JSON Schema' section" % doc)
schema = json.loads(re.search(r"^```json\n(.*?)^```", section[1], re.S | re.M).group(1))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for name, instance in [(golden, json.load(open(golden, encoding="utf-8"))),
                       (sys.argv[3], json.load(open(sys.argv[3], encoding="utf-8"))),
                       (doc + " (example)", json.loads(blocks[0]))]:
    for err in validator.iter_errors(instance):
        print("%s: %s: %s" % (name, "/".join(map(str, err.absolute_path)) or "(root)", err.message))
        bad += 1
sys.exit(1 if bad else 0)
]=] ${CMAKE_SOURCE_DIR}/docs/json-schema.md ${CMAKE_CURRENT_SOURCE_DIR}/golden/report.json
    ${CMAKE_CURRENT_SOURCE_DIR}/golden/report-run.json)
set_tests_properties(json.schema PROPERTIES SKIP_RETURN_CODE 77)

# ---- concise, json-lines, junit, gitlab read as their consumers read them ---
add_test(NAME formats.readers
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/formats_check.py
          ${CMAKE_CURRENT_SOURCE_DIR}/golden ${CMAKE_SOURCE_DIR}/docs/json-schema.md)

# ---- --statistics, --list-rules and --explain in every format -----------------
add_test(NAME formats.info
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/emit/info_formats.py $<TARGET_FILE:cglint>
          ${CMAKE_SOURCE_DIR})
if(CGLINT_SARIF_VALIDATE)
  set_tests_properties(formats.info PROPERTIES ENVIRONMENT "SARIF_MULTITOOL=${CGLINT_SARIF_MULTITOOL};NO_COLOR=1")
else()
  set_tests_properties(formats.info PROPERTIES ENVIRONMENT "NO_COLOR=1")
endif()
