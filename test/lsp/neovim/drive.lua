-- Drives Neovim's built-in LSP client against the server, as a user would, and writes what it saw
-- as JSON to OUT (globals OUT and FILE are set on the command line by test/lsp/neovim.test.ts).
local out = { notes = {} }
vim.notify = function(msg) table.insert(out.notes, tostring(msg)) end
local show = vim.lsp.handlers['window/showMessage']
vim.lsp.handlers['window/showMessage'] = function(err, result, ctx, config)
  table.insert(out.notes, result.message)
  return show(err, result, ctx, config)
end

local function client()
  for _, c in pairs(vim.lsp.get_active_clients()) do if c.name == 'appset' then return c end end
end
local function line_of(buf, pattern)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local s = l:find(pattern, 1, true)
    if s then return i - 1, s - 1 end
  end
end
local function codes(buf)
  local t = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(t, d.user_data and d.user_data.lsp and d.user_data.lsp.code or d.code or '?')
  end
  table.sort(t)
  return t
end
local function has_code(buf, code)
  for _, c in ipairs(codes(buf)) do if c == code then return true end end
  return false
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. FILE)
  local buf = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buf)
  local doc = { uri = uri }
  out.attached = vim.wait(20000, function() return client() ~= nil end, 20)
  vim.wait(20000, function() return has_code(buf, 'appset/unknown-field') end, 50)
  out.diagnostics = codes(buf)
  out.capabilities = client().server_capabilities.executeCommandProvider

  -- hover on a template parameter
  local l, c = line_of(buf, '{{.cluster}}')
  local h = vim.lsp.buf_request_sync(buf, 'textDocument/hover', { textDocument = doc, position = { line = l, character = c + 4 } }, 10000)
  out.hover = h and h[client().id] and h[client().id].result and h[client().id].result.contents.value or vim.NIL

  -- completion inside {{ }}
  l, c = line_of(buf, "{{.url}}")
  local r = vim.lsp.buf_request_sync(buf, 'textDocument/completion', { textDocument = doc, position = { line = l, character = c + 3 } }, 10000)
  out.completion = {}
  local items = r and r[client().id] and r[client().id].result or {}
  for _, it in ipairs(items.items or items) do table.insert(out.completion, it.label) end

  -- the lens over generators:, run the way :lua vim.lsp.codelens.run() runs it
  vim.lsp.codelens.refresh()
  l = line_of(buf, 'generators:')
  vim.wait(10000, function() return #vim.lsp.codelens.get(buf) > 0 end, 50)
  vim.api.nvim_win_set_cursor(0, { l + 1, 2 })
  local before = #out.notes
  vim.lsp.codelens.run()
  vim.wait(10000, function() return #out.notes > before end, 50)
  out.lensNotes = { unpack(out.notes, before + 1) }

  -- quick fixes, chosen the way a user does: :lua vim.lsp.buf.code_action() on the line, then pick
  local function pick(pattern)
    local picked
    vim.ui.select = function(items, opts, on_choice)
      for _, it in ipairs(items) do
        local act = it[2] or it.action or it
        if act.title and act.title:find(pattern) then picked = act.title; return on_choice(it) end
      end
      on_choice(nil)
    end
    vim.lsp.buf.code_action()
    vim.wait(5000, function() return picked ~= nil end, 50)
    return picked
  end
  l = line_of(buf, 'projct:')
  vim.api.nvim_win_set_cursor(0, { l + 1, 6 })
  out.fixTitle = pick('project') or vim.NIL
  vim.wait(5000, function() return vim.api.nvim_buf_get_lines(buf, l, l + 1, false)[1]:find('project:', 1, true) ~= nil end, 50)
  out.fixedLine = vim.api.nvim_buf_get_lines(buf, l, l + 1, false)[1]

  -- a quick fix that runs a server command: progressive syncs are disabled by the settings
  vim.wait(10000, function() return not has_code(buf, 'appset/unknown-field') end, 50)
  l = line_of(buf, 'strategy:')
  vim.api.nvim_win_set_cursor(0, { l + 1, 3 })
  out.commandFix = pick('progressiveSyncs') or vim.NIL
  vim.wait(10000, function() return not has_code(buf, 'rollout/progressive-syncs-disabled') end, 50)
  out.afterCommand = codes(buf)

  -- a field's documentation on hover
  l, c = line_of(buf, 'goTemplate:')
  h = vim.lsp.buf_request_sync(buf, 'textDocument/hover', { textDocument = doc, position = { line = l, character = c + 2 } }, 10000)
  out.fieldHover = h and h[client().id] and h[client().id].result and h[client().id].result.contents.value or vim.NIL

  -- go to definition from a parameter to the list keys
  l, c = line_of(buf, '{{.url}}')
  r = vim.lsp.buf_request_sync(buf, 'textDocument/definition', { textDocument = doc, position = { line = l, character = c + 4 } }, 10000)
  out.definitions = {}
  for _, loc in ipairs(r and r[client().id] and r[client().id].result or {}) do table.insert(out.definitions, loc.range.start.line) end

  -- rename the parameter the way :lua vim.lsp.buf.rename('endpoint') does, on the cursor
  vim.api.nvim_win_set_cursor(0, { l + 1, c + 4 })
  vim.lsp.buf.rename('endpoint')
  vim.wait(10000, function() return line_of(buf, '{{.endpoint}}') ~= nil end, 50)
  out.renamed = {}
  for _, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if line:find('endpoint', 1, true) then table.insert(out.renamed, line) end
  end

  -- the preview, as a command returning text and as the custom request
  local p = client().request_sync('workspace/executeCommand', { command = 'appsetTools.preview', arguments = { uri } }, 10000, buf)
  out.previewCommand = p and p.result or vim.NIL
  p = client().request_sync('appsetTools/preview', { uri = uri }, 10000, buf)
  out.previewRequest = p and p.result and p.result.apps or vim.NIL

  -- "This change": the edits above against the repository's HEAD, a lens over the first line, run
  -- the way :lua vim.lsp.codelens.run() runs it (the server shows the lens's line)
  local function change_lens()
    for _, lens in ipairs(vim.lsp.codelens.get(buf)) do
      if lens.command and lens.command.title:find('This change', 1, true) == 1 then return lens end
    end
  end
  vim.wait(20000, function()
    vim.lsp.codelens.refresh()
    return vim.wait(500, function() return change_lens() ~= nil end, 50)
  end, 100)
  local lens = change_lens()
  out.changeLens = lens and lens.command.title or vim.NIL
  if lens then
    vim.api.nvim_win_set_cursor(0, { lens.range.start.line + 1, 0 })
    before = #out.notes
    vim.lsp.codelens.run()
    vim.wait(10000, function() return #out.notes > before end, 50)
    out.changeNotes = { unpack(out.notes, before + 1) }
  end
end)
if not ok then out.error = tostring(err) end
local f = io.open(OUT, 'w')
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd('qa!')
