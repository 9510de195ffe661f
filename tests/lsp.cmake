# lsp.cmake - editors (issue 15 item 4): `cglint server` and --stdin-filename.
#   lsp.session          a scripted JSON-RPC session (tests/lsp/lsp_session.py)
#   lsp.equivalence      the server's diagnostics are `cglint FILE`'s, every Python fixture
#   lsp.cu-equivalence   C/C++ buffers (kept unit, reparsed) as `cglint FILE`, every C/C++ fixture
#   lsp.watch            files changed on disk (workspace/didChangeWatchedFiles)
#   lsp.kept-index       indexes kept between analyses give a fresh run's diagnostics
#   lsp.nvim             Neovim's built-in LSP client, headless (skipped without nvim)
#   lsp.stdin-filename   the buffer on stdin reported as PATH, every format
add_test(NAME lsp.session
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/lsp_session.py $<TARGET_FILE:cglint>)
add_test(NAME lsp.equivalence
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/lsp_equivalence.py $<TARGET_FILE:cglint>
          ${CMAKE_SOURCE_DIR})
add_test(NAME lsp.cu-equivalence
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/lsp_cu_equivalence.py $<TARGET_FILE:cglint>
          ${CMAKE_SOURCE_DIR})
add_test(NAME lsp.watch
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/lsp_watch.py $<TARGET_FILE:cglint>)
add_test(NAME lsp.kept-index
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/lsp_kept_index.py $<TARGET_FILE:cglint>)
add_test(NAME lsp.nvim COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lsp/nvim.sh $<TARGET_FILE:cglint>)
add_test(NAME lsp.stdin-filename
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lsp/stdin_filename.sh $<TARGET_FILE:cglint>)
set_tests_properties(lsp.session lsp.watch lsp.kept-index lsp.equivalence lsp.nvim lsp.stdin-filename PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                     ENVIRONMENT "NO_COLOR=1")
# 65 files, each run once by the command line and twice by the server: ~25 s idle
set_tests_properties(lsp.cu-equivalence PROPERTIES TIMEOUT 900)
