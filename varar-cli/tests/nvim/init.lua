-- A minimal Neovim (0.7+) configuration for Varar oaths: the language
-- server `cargo varar lsp` attached to every Markdown buffer of a project
-- with varar.config.json, and to its Rust files (the steps' uses, find
-- references, renaming a step from its attribute). The README's "Editor
-- support" shows the same.
local cmd = { os.getenv("VARAR_LSP_BIN") or "cargo", "varar", "lsp" }

-- Once the server is attached to a buffer: the lenses (▶ Run, N uses in
-- M oaths) kept fresh, and <leader>r runs the one on the cursor's line.
local function on_attach(_, bufnr)
  vim.api.nvim_create_autocmd({ "BufEnter", "CursorHold", "InsertLeave", "BufWritePost" }, {
    buffer = bufnr,
    callback = function() vim.lsp.codelens.refresh() end,
  })
  vim.keymap.set("n", "<leader>r", vim.lsp.codelens.run, { buffer = bufnr })
  vim.lsp.codelens.refresh()
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = { "markdown", "rust" },
  callback = function(args)
    local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":p:h")
    local config = vim.fn.findfile("varar.config.json", dir .. ";")
    if config == "" then
      return
    end
    local root = vim.fn.fnamemodify(config, ":p:h")
    _G.varar_clients = _G.varar_clients or {}
    if not _G.varar_clients[root] then
      _G.varar_clients[root] = vim.lsp.start_client({
        name = "varar", cmd = cmd, root_dir = root, on_attach = on_attach,
      })
    end
    vim.lsp.buf_attach_client(args.buf, _G.varar_clients[root])
  end,
})

-- "N uses in M oaths" lists the sentences in the quickfix window.
vim.lsp.commands["varar.showReferences"] = function(command)
  local items = vim.lsp.util.locations_to_items(command.arguments[3], "utf-16")
  vim.fn.setqflist({}, " ", { title = command.title, items = items })
  vim.cmd("copen")
end
