-- The editor loop as a user goes through it, recorded in
-- $VARAR_NVIM_RESULT (JSON), then quit:
-- 1. ▶ Run on an example whose step is wrong (a real cargo test): the
--    failure appears at its cell; the step fixed and saved, ▶ Run again:
--    the failure goes (the new result says it passed);
-- 2. the Report lens (the browser is $BROWSER);
-- 3. the uses above a step function, and its lens listing them;
-- 4. renaming the step from its attribute: every oath rewritten;
-- 5. both "create the step" actions on a sentence no step matches.
local out = os.getenv("VARAR_NVIM_RESULT")
local result = {}

local function finish()
  local f = assert(io.open(out, "w"))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd("qa!")
end

local function wait(ms, cond, what)
  if not vim.wait(ms, cond, 50) then
    error("timed out: " .. what)
  end
end

local function client()
  for _, id in pairs(_G.varar_clients or {}) do
    return vim.lsp.get_client_by_id(id)
  end
end

local function codes(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(found, d.code)
  end
  return found
end

local function has(list, value)
  for _, v in ipairs(list) do
    if v == value then return true end
  end
  return false
end

local function lenses(bufnr, want)
  vim.lsp.codelens.refresh()
  wait(120000, function()
    local got = vim.lsp.codelens.get(bufnr)
    return #got >= want and got[1].command ~= nil
  end, "code lenses")
  local titles = {}
  for _, l in ipairs(vim.lsp.codelens.get(bufnr)) do
    table.insert(titles, { line = l.range.start.line, title = l.command.title })
  end
  table.sort(titles, function(a, b) return a.line < b.line end)
  return titles
end

local function run_lens_at(line)
  vim.api.nvim_win_set_cursor(0, { line, 0 })
  vim.lsp.codelens.run()
end

local ok, err = pcall(function()
  wait(30000, function() local c = client(); return c ~= nil and c.initialized end, "the server")
  local basket = vim.api.nvim_get_current_buf()
  local counting = vim.fn.search("holds 3 items", "w")

  -- 1. A failing example (its step counts one too many), then fixed.
  result.oath_lenses = lenses(basket, 8)
  run_lens_at(counting)
  wait(900000, function() return has(codes(basket), "example-failed") end, "the failure")
  local failure = vim.diagnostic.get(basket)[1]
  result.failure = { line = failure.lnum, col = failure.col, message = failure.message }
  vim.cmd("edit tests/steps/basket.rs")
  vim.cmd("%s/item_count() + 1/item_count()/")
  vim.cmd("write")
  vim.cmd("buffer " .. basket)
  result.still_failing = has(codes(basket), "example-failed")
  run_lens_at(counting)
  wait(900000, function() return not has(codes(basket), "example-failed") end, "the pass")
  result.after_fix = codes(basket)

  -- 2. The report of the oath, from the title's lenses.
  vim.ui.select = function(items, _, on_choice)
    for _, item in ipairs(items) do
      if item.lens.command.title == "Report" then return on_choice(item) end
    end
  end
  run_lens_at(1)
  local browsed = os.getenv("VARAR_NVIM_BROWSED")
  wait(120000, function() return vim.fn.filereadable(browsed) == 1 end, "the browser")
  result.browsed = vim.fn.readfile(browsed)[1]

  -- 3. The uses of the shelf's steps; the lens lists them.
  vim.cmd("edit tests/steps/shelf.rs")
  local steps = vim.api.nvim_get_current_buf()
  wait(30000, function() return next(vim.lsp.buf_get_clients(steps)) ~= nil end, "attach")
  result.step_lenses = lenses(steps, 4)
  local sell = vim.fn.search('#\\[stimulus("I sell', "w")
  run_lens_at(sell)
  wait(30000, function() return #vim.fn.getqflist() > 0 end, "the quickfix list")
  result.listed = #vim.fn.getqflist()
  vim.cmd("cclose")

  -- 4. Rename the step from its expression string; every file saved.
  vim.cmd("buffer " .. steps)
  vim.api.nvim_win_set_cursor(0, { sell, 14 })
  vim.lsp.buf.rename("I sell {int} {word} off the shelf")
  wait(60000, function()
    return vim.fn.search("off the shelf", "nw") > 0
  end, "the rename")
  vim.cmd("silent! wall")
  result.renamed = {}
  for _, f in ipairs({ "varar/shelf.md", "varar/the-morning-rush.md", "varar/serving-a-customer.md", "tests/steps/shelf.rs" }) do
    result.renamed[f] = table.concat(vim.fn.readfile(f), "\n")
  end

  -- 5. Create the step: both kinds, the likelier first.
  vim.cmd("edit varar/bake.md")
  local bake = vim.api.nvim_get_current_buf()
  wait(30000, function() return next(vim.lsp.buf_get_clients(bake)) ~= nil end, "attach")
  local line = vim.fn.search("I bake", "w")
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bake) },
    range = { start = { line = line - 1, character = 3 }, ["end"] = { line = line - 1, character = 3 } },
    context = { diagnostics = {} },
  }
  local titles = {}
  wait(30000, function()
    local answers = vim.lsp.buf_request_sync(bake, "textDocument/codeAction", params, 10000) or {}
    titles = {}
    for _, answer in pairs(answers) do
      for _, action in ipairs(answer.result or {}) do
        table.insert(titles, action.title)
      end
    end
    return #titles > 0
  end, "the actions")
  result.actions = titles
end)
if not ok then
  result.error = tostring(err)
end
finish()
