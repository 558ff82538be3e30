-- An omnifunc (<C-x><C-o>) for srcls buffers that honours the range of each item's textEdit.
-- vim.lsp.omnifunc before Neovim 0.11 inserts at the start of the keyword under the cursor,
-- and a JSON string's opening quote is not part of a keyword: completing `"credentialType": "`
-- gave `""NONE"`, and `"AC` matched nothing, since srcls's items replace the whole string,
-- quotes included. Here the completion starts where the items' edits start, and what an edit
-- covers after the cursor (the closing quote an autopair plugin left, the rest of a word:
-- complete() keeps it) is deleted when the item is accepted.
local M = {}

local methods = vim.fn.has('nvim-0.11') == 1

local function srcls_client(bufnr)
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, client in pairs(clients) do
    if client.name == 'srcls' then
      return client
    end
  end
  return nil
end

--- The byte column (0-based) of an LSP `character` on `line`, in the client's encoding.
function M.byte_col(line, character, encoding)
  if encoding == 'utf-8' then
    return math.min(character, #line)
  end
  local ok, col = pcall(vim.str_byteindex, line, character, encoding ~= 'utf-32')
  if not ok then
    return #line
  end
  return col
end

--- A snippet as the text it inserts: `${1:x}` -> x, `$1` and `${1}` -> nothing, `\$` -> $.
function M.snippet_text(snippet)
  local out = snippet
  local prev
  repeat
    prev = out
    out = out:gsub('%${%d+:([^{}]*)}', '%1')
  until out == prev
  out = out:gsub('%${%d+}', ''):gsub('%$%d+', ''):gsub('\\([%$}\\])', '%1')
  return out
end

local function item_text(item)
  local text = item.textEdit and item.textEdit.newText or item.insertText or item.label
  if item.insertTextFormat == 2 then
    text = M.snippet_text(text)
  end
  return text
end

local function documentation(item)
  local doc = item.documentation
  if type(doc) == 'table' then
    doc = doc.value
  end
  return doc or ''
end

--- Turns a completion result into the start column (0-based bytes) and vim complete-items,
--- for the cursor at (row, col) on `line`. Items whose edit starts elsewhere than the first
--- one's are kept only if they start on the same column; the typed prefix filters them.
local function edit_range(item)
  return item.textEdit and (item.textEdit.range or item.textEdit.replace)
end

--- The text after the cursor (at `col` on `line`, row `row`) that the item's edit replaces:
--- complete() leaves it, so on_complete_done deletes it. nil when there is none.
local function replaced_after(item, line, row, col, encoding)
  local range = edit_range(item)
  if not range or range['end'].line ~= row then
    return nil
  end
  local stop = M.byte_col(line, range['end'].character, encoding)
  return stop > col and line:sub(col + 1, stop) or nil
end

function M.complete_items(result, line, row, col, encoding)
  local items = result and (result.items or result) or {}
  local start = nil
  for _, item in ipairs(items) do
    local range = edit_range(item)
    if range and range.start.line == row then
      local c = M.byte_col(line, range.start.character, encoding)
      if c <= col and (start == nil or c < start) then
        start = c
      end
    end
  end
  if start == nil then
    start = vim.fn.match(line:sub(1, col), '\\k*$')
    if start < 0 then
      start = col
    end
  end
  local prefix = line:sub(start + 1, col):lower()
  local out = {}
  for _, item in ipairs(items) do
    local word = item_text(item)
    local filter = (item.filterText or word):lower()
    if prefix == '' or word:lower():sub(1, #prefix) == prefix or filter:sub(1, #prefix) == prefix then
      -- Vim inserts a completion word on one line (a newline would become ^@): a multi-line
      -- item (fill required fields) goes in as one line and is laid out by on_complete_done.
      local lines = word:find('\n', 1, true) and vim.split(word, '\n', { plain = true }) or nil
      table.insert(out, {
        word = lines and (word:gsub('\n%s*', ' ')) or word,
        abbr = item.label,
        kind = vim.lsp.protocol.CompletionItemKind[item.kind] or '',
        menu = item.detail or '',
        info = documentation(item),
        icase = 1,
        dup = 1,
        empty = 1,
        user_data = {
          sort = item.sortText or item.label,
          lines = lines,
          after = replaced_after(item, line, row, col, encoding),
        },
      })
    end
  end
  table.sort(out, function(a, b)
    return a.user_data.sort < b.user_data.sort
  end)
  for _, it in ipairs(out) do
    local data = it.user_data
    it.user_data = (data.lines or data.after) and { srcls_lines = data.lines, srcls_after = data.after } or nil
  end
  return start, out
end

--- CompleteDone: what the accepted item's edit replaces after the cursor deleted, and a
--- multi-line item, inserted on one line, replaced by its lines.
function M.on_complete_done()
  local item = vim.v.completed_item
  local data = type(item) == 'table' and item.user_data or nil
  if type(data) ~= 'table' or not item.word then
    return
  end
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  local start = col - #item.word
  local line = vim.api.nvim_get_current_line()
  if start < 0 or line:sub(start + 1, col) ~= item.word then
    return
  end
  local after = data.srcls_after
  if type(after) == 'string' and line:sub(col + 1, col + #after) == after then
    vim.api.nvim_buf_set_text(0, row - 1, col, row - 1, col + #after, { '' })
  end
  local lines = data.srcls_lines
  if type(lines) ~= 'table' then
    return
  end
  vim.api.nvim_buf_set_text(0, row - 1, start, row - 1, col, lines)
  local last = row - 1 + #lines - 1
  local last_col = (#lines == 1 and start or 0) + #lines[#lines]
  vim.api.nvim_win_set_cursor(0, { last + 1, last_col })
end

--- The omnifunc: `setlocal omnifunc=v:lua.require'srcls.complete'.omnifunc`.
function M.omnifunc(findstart, _)
  if findstart ~= 1 then
    return {}
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local client = srcls_client(bufnr)
  if not client then
    return -3
  end
  local cursor = vim.api.nvim_win_get_cursor(0)
  local row, col = cursor[1] - 1, cursor[2]
  local line = vim.api.nvim_get_current_line()
  local encoding = client.offset_encoding or 'utf-16'
  local params = vim.lsp.util.make_position_params(0, encoding)
  local function handle(err, result)
    if err or not result then
      return
    end
    local now = vim.api.nvim_win_get_cursor(0)
    if vim.api.nvim_get_current_buf() ~= bufnr or now[1] - 1 ~= row or now[2] ~= col
        or not vim.api.nvim_get_mode().mode:find('^i') then
      return
    end
    local start, items = M.complete_items(result, line, row, col, encoding)
    vim.fn.complete(start + 1, items)
  end
  if methods then
    client:request('textDocument/completion', params, handle, bufnr)
  else
    client.request('textDocument/completion', params, handle, bufnr)
  end
  -- The items come later, through complete(); stay in insert mode meanwhile.
  return -2
end

return M
