-- tests/lsp/nvim_client.lua - Neovim's built-in LSP client against `cglint
-- server`, headless: open a file, read the diagnostics back, edit the buffer
-- (unsaved) and see them go, ask for the hover.  Written for Neovim 0.7
-- (Debian 12): vim.lsp.start_client + buf_attach_client; later versions
-- have vim.lsp.start.  Results go to $OUT, one line each; the shell side
-- (nvim.sh) checks them.
local cglint, root, file, out = os.getenv("CGLINT"), os.getenv("ROOT"), os.getenv("FILE"), os.getenv("OUT")
local lines = {}
local function say(s) table.insert(lines, s) end
local function finish() vim.fn.writefile(lines, out); vim.cmd("qa!") end

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({ name = "cglint", cmd = { cglint, "server" }, root_dir = root })
if not id then say("error: the client did not start"); finish() return end
vim.lsp.buf_attach_client(buf, id)

local function code(d)
  return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
end
if not vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then
  say("error: no diagnostics within 60 s")
  finish() return
end
for _, d in ipairs(vim.diagnostic.get(buf)) do
  say(string.format("diagnostic %d:%d %s %s %s", d.lnum + 1, d.col + 1, code(d), d.source or "", d.message))
end

-- hover on the first diagnostic
local d = vim.diagnostic.get(buf)[1]
local res = vim.lsp.buf_request_sync(buf, "textDocument/hover",
  { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = d.lnum, character = d.col } }, 10000)
for _, r in pairs(res or {}) do
  if r.result and r.result.contents then
    say("hover " .. (r.result.contents.value or ""):gsub("\n.*", ""))
  end
end

-- an unsaved edit: the hazardous line becomes harmless
local text = vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, false)[1]
local fixed = text:gsub("%.item%(%)", "")
vim.api.nvim_buf_set_lines(buf, d.lnum, d.lnum + 1, false, { fixed })
if vim.wait(60000, function() return #vim.diagnostic.get(buf) == 0 end, 20) then
  say("cleared after an unsaved edit")
else
  say("error: the diagnostics stayed after the edit")
end
vim.lsp.stop_client(id)
finish()
