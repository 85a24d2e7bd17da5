-- The configuration behind docs/editor.png: varar-cli/tests/nvim/init.lua
-- (the language server on Markdown buffers) plus what a screenshot needs.
-- Neovim 0.7 predates native semantic tokens (0.9+ colours them by
-- itself), so a few lines below ask the server for them and colour them.
vim.opt.termguicolors = true
vim.opt.number = true
vim.opt.signcolumn = "yes"
vim.opt.wrap = false
vim.cmd("syntax on")
vim.cmd("highlight Normal guibg=#1e1e2e guifg=#cdd6f4")
vim.cmd("highlight LineNr guifg=#6c7086 guibg=#1e1e2e")
vim.cmd("highlight SignColumn guibg=#1e1e2e")
vim.cmd("highlight NormalFloat guibg=#313244 guifg=#cdd6f4")
vim.cmd("highlight VararStep guifg=#89b4fa")
vim.cmd("highlight VararSensor guifg=#a6e3a1")
vim.cmd("highlight VararParameter guifg=#fab387 gui=bold")
vim.cmd("highlight DiagnosticError guifg=#f38ba8")
vim.cmd("highlight DiagnosticVirtualTextError guifg=#f38ba8 guibg=#302030")

dofile(os.getenv("VARAR_INIT"))

local ns = vim.api.nvim_create_namespace("varar-tokens")
local function colour(buf, data)
  local line, col = 0, 0
  for i = 1, #data, 5 do
    local dl, ds, len, kind, mods = data[i], data[i + 1], data[i + 2], data[i + 3], data[i + 4]
    line = line + dl
    col = (dl == 0) and (col + ds) or ds
    local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1] or ""
    -- Columns are UTF-16; this buffer's lines are shown as bytes.
    local from = vim.str_byteindex(text, col, true)
    local to = vim.str_byteindex(text, col + len, true)
    local group = (kind == 1) and "VararParameter" or ((mods == 2) and "VararSensor" or "VararStep")
    vim.api.nvim_buf_add_highlight(buf, ns, group, line, from, to)
  end
end

vim.defer_fn(function()
  local buf = vim.api.nvim_get_current_buf()
  local params = { textDocument = vim.lsp.util.make_text_document_params() }
  vim.lsp.buf_request(buf, "textDocument/semanticTokens/full", params, function(_, result)
    if result then
      colour(buf, result.data)
    end
  end)
  vim.fn.search("I pay £5.00")
  vim.api.nvim_win_set_cursor(0, { vim.fn.line("."), 40 })
  vim.defer_fn(vim.lsp.buf.hover, 500)
end, 1500)
