-- Jump to definition from a sentence of the open oath, as a user would
-- with `gd` bound to vim.lsp.buf.definition(), and record where the
-- cursor lands in $VARAR_NVIM_RESULT (JSON), then quit.
local out = os.getenv("VARAR_NVIM_RESULT")

local function finish(result)
  local f = assert(io.open(out, "w"))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd("qa!")
end

local ok, err = pcall(function()
  local function client()
    for _, id in pairs(_G.varar_clients or {}) do
      return vim.lsp.get_client_by_id(id)
    end
  end
  if not vim.wait(30000, function() local c = client(); return c ~= nil and c.initialized end, 20) then
    return finish({ error = "the language server did not start" })
  end
  local sentence = os.getenv("VARAR_NVIM_SENTENCE")
  local line = vim.fn.search(vim.fn.escape(sentence, "\\/.*$^~[]"), "w")
  if line == 0 then
    return finish({ error = "sentence not found: " .. sentence })
  end
  vim.api.nvim_win_set_cursor(0, { line, vim.fn.col(".") + 2 })
  local from = vim.api.nvim_get_current_buf()
  vim.lsp.buf.definition()
  if not vim.wait(30000, function() return vim.api.nvim_get_current_buf() ~= from end, 20) then
    return finish({ error = "go to definition did not jump" })
  end
  local cursor = vim.api.nvim_win_get_cursor(0)
  finish({
    file = vim.api.nvim_buf_get_name(0),
    line = cursor[1],
    col = cursor[2],
    text = vim.api.nvim_get_current_line(),
  })
end)
if not ok then
  finish({ error = tostring(err) })
end
