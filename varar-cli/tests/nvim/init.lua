-- A minimal Neovim (0.7+) configuration for Varar oaths: the language
-- server `cargo varar lsp` attached to every Markdown buffer of a project
-- with varar.config.json. The README's "Editor support" shows the same.
local cmd = { os.getenv("VARAR_LSP_BIN") or "cargo", "varar", "lsp" }

vim.api.nvim_create_autocmd("FileType", {
  pattern = "markdown",
  callback = function(args)
    local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":p:h")
    local config = vim.fn.findfile("varar.config.json", dir .. ";")
    if config == "" then
      return
    end
    local root = vim.fn.fnamemodify(config, ":p:h")
    _G.varar_clients = _G.varar_clients or {}
    if not _G.varar_clients[root] then
      _G.varar_clients[root] = vim.lsp.start_client({ name = "varar", cmd = cmd, root_dir = root })
    end
    vim.lsp.buf_attach_client(args.buf, _G.varar_clients[root])
  end,
})
