-- The Neovim plugin (editors/nvim) in the real editor, against the real server: run by
-- nvim_plugin.sh as `nvim --headless -u NONE -c "luafile nvim_plugin_test.lua"`.
--
-- Each test is a coroutine, so that waiting (for diagnostics, a hover window, the completion
-- menu) hands control back to Neovim's main loop, which then runs the LSP client and types
-- the keys fed to it, as it would for a person. What is asserted is what a person sees: the
-- filetype, the diagnostics with their codes on their lines, the virtual text and signs, the
-- completion menu after <C-x><C-o>, the hover window after vim.lsp.buf.hover(), and
-- :checkhealth srcls.
--
-- Environment: SRCLS_BINARY (the server), SRCLS_SOURCE_ROOT (the repository), SRCLS_WORKDIR
-- (an empty folder to copy examples into), SRCLS_FILETYPE_LUA=1 (detect filetypes through
-- vim.filetype.add even on 0.7).

local binary = assert(os.getenv('SRCLS_BINARY'), 'SRCLS_BINARY is not set')
-- The --check oracle: the same binary unless SRCLS_CLI_BINARY names another (the WebAssembly
-- server has no --check; the native one stands in, as in tests/lsp).
local cli_binary = os.getenv('SRCLS_CLI_BINARY') or binary
local root = assert(os.getenv('SRCLS_SOURCE_ROOT'), 'SRCLS_SOURCE_ROOT is not set')
local workdir = assert(os.getenv('SRCLS_WORKDIR'), 'SRCLS_WORKDIR is not set')
local TIMEOUT = 15000

if os.getenv('SRCLS_FILETYPE_LUA') == '1' then
  vim.g.do_filetype_lua = 1
end
vim.opt.runtimepath:prepend(root .. '/editors/nvim')
vim.cmd('filetype plugin on')
vim.cmd('syntax on')
vim.o.swapfile = false
vim.o.showmode = false
vim.o.shortmess = vim.o.shortmess .. 'F'

local srcls = require('srcls')
local get_clients = vim.lsp.get_clients or vim.lsp.get_active_clients

---------------------------------------------------------------------------------------------
-- A small harness: test(name, fn), assertions that say what differed, waits that yield.

local tests, passed, failed = {}, 0, 0

-- print() goes through Neovim's message area, which headless mode runs together and cuts.
local function out(line)
  io.stdout:write(line, '\n')
  io.stdout:flush()
end

-- SRCLS_TEST_ONLY=pattern[,pattern...] runs the tests whose name matches one (Lua patterns).
local only = vim.split(os.getenv('SRCLS_TEST_ONLY') or '', ',', { plain = true, trimempty = true })

local function test(name, fn)
  for _, p in ipairs(only) do
    if name:find(p) then
      return table.insert(tests, { name = name, fn = fn })
    end
  end
  if #only == 0 then
    table.insert(tests, { name = name, fn = fn })
  end
end

local function fail(msg, level)
  error(msg, (level or 1) + 1)
end

local function eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    fail(string.format('%s: expected %s, got %s', what or 'value', vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

local function contains(haystack, needle, what)
  if type(haystack) ~= 'string' or not haystack:find(needle, 1, true) then
    fail(string.format('%s: %s does not contain %s', what or 'text', vim.inspect(haystack), vim.inspect(needle)), 2)
  end
end

local function truthy(value, what)
  if not value then
    fail(what or 'expected a true value', 2)
  end
  return value
end

-- Polls `cond` every 20 ms, yielding to the main loop in between; returns its first truthy
-- value, or fails with `what` after `timeout` ms.
local function wait_for(cond, what, timeout)
  local co = coroutine.running()
  local deadline = vim.loop.now() + (timeout or TIMEOUT)
  local function poll()
    local ok, value = pcall(cond)
    if ok and value then
      coroutine.resume(co, true, value)
    elseif vim.loop.now() >= deadline then
      coroutine.resume(co, false, ok and value or tostring(value))
    else
      vim.defer_fn(poll, 20)
    end
  end
  vim.defer_fn(poll, 0)
  local ok, value = coroutine.yield()
  if not ok then
    fail('timed out waiting for ' .. what .. (value and ('; last: ' .. tostring(value)) or ''), 2)
  end
  return value
end

local function sleep(ms)
  local co = coroutine.running()
  vim.defer_fn(function()
    coroutine.resume(co)
  end, ms)
  coroutine.yield()
end

-- Types `keys` as a person would; remap = true lets mappings (the plugin's K) apply.
local function feed(keys, remap)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), remap and 'm' or 'n', false)
end

local function finish()
  out(string.format('%d passed, %d failed', passed, failed))
  if failed > 0 then
    vim.cmd('cquit 1')
  else
    vim.cmd('qall!')
  end
end

local function run(index)
  local t = tests[index]
  if not t then
    return finish()
  end
  local co
  co = coroutine.create(function()
    local ok, err = xpcall(t.fn, debug.traceback)
    if ok then
      passed = passed + 1
      out('ok ' .. index .. ' - ' .. t.name)
    else
      failed = failed + 1
      out('not ok ' .. index .. ' - ' .. t.name .. '\n  ' .. tostring(err):gsub('\n', '\n  '))
    end
    -- Leave insert mode and close floats before the next test.
    if vim.api.nvim_get_mode().mode ~= 'n' then
      vim.cmd('stopinsert')
    end
    vim.defer_fn(function()
      run(index + 1)
    end, 0)
  end)
  local ok, err = coroutine.resume(co)
  if not ok then
    failed = failed + 1
    out('not ok ' .. index .. ' - ' .. t.name .. ': ' .. tostring(err))
    vim.defer_fn(function()
      run(index + 1)
    end, 0)
  end
end

---------------------------------------------------------------------------------------------
-- Helpers over what the editor shows.

local function copy_example(name, as)
  local target = workdir .. '/' .. (as or name)
  assert(vim.loop.fs_copyfile(root .. '/docs/examples/' .. name, target))
  return target
end

local function write_file(name, lines)
  local target = workdir .. '/' .. name
  vim.fn.writefile(lines, target)
  return target
end

local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

-- Client methods are closures before 0.11 and methods since.
local function client_call(client, name, ...)
  if vim.fn.has('nvim-0.11') == 1 then
    return client[name](client, ...)
  end
  return client[name](...)
end

local function srcls_clients()
  local out = {}
  for _, c in pairs(get_clients()) do
    if c.name == 'srcls' then
      table.insert(out, c)
    end
  end
  return out
end

local function attached(buf)
  for _, c in pairs(vim.lsp.buf_get_clients(buf)) do
    if c.name == 'srcls' then
      return c
    end
  end
  return nil
end

local severity_names = { 'error', 'warning', 'information', 'hint' }

-- { "4 conditional-required error", ... } in line (1-based) and code order.
local function shown(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out, { d.lnum + 1, d.col, srcls.diagnostic_code(d) or '?', severity_names[d.severity] })
  end
  table.sort(out, function(a, b)
    if a[1] ~= b[1] then
      return a[1] < b[1]
    end
    if a[2] ~= b[2] then
      return a[2] < b[2]
    end
    return a[3] < b[3] -- two findings at one place: by code, so the order is stable
  end)
  return vim.tbl_map(function(x)
    return string.format('%d %s %s', x[1], x[3], x[4])
  end, out)
end

-- Waits for the diagnostics of `buf` to be `n` and to stay so for a moment (they are
-- debounced and republished after changes).
local function settled(buf, pred, what)
  local last, since
  return wait_for(function()
    local now = table.concat(shown(buf), '\n')
    if now ~= last then
      last, since = now, vim.loop.now()
      return false
    end
    if vim.loop.now() - since < 300 then
      return false
    end
    return pred(shown(buf)) and shown(buf)
  end, what)
end

-- What `srcls --check --format json` reports for a file, in the same form as shown().
local function cli_diagnostics(path)
  local out = vim.fn.system({ cli_binary, '--check', '--format', 'json', path })
  local report = vim.fn.json_decode(out)
  local list = {}
  for _, d in ipairs(report.files[1].diagnostics) do
    table.insert(list, { d.range.start.line + 1, d.range.start.character, d.code, d.severity })
  end
  table.sort(list, function(a, b)
    if a[1] ~= b[1] then
      return a[1] < b[1]
    end
    if a[2] ~= b[2] then
      return a[2] < b[2]
    end
    return a[3] < b[3] -- two findings at one place: by code, so the order is stable
  end)
  return vim.tbl_map(function(x)
    return string.format('%d %s %s', x[1], x[3], x[4])
  end, list)
end

-- The virtual text shown at the end of line `lnum` (1-based).
local function virtual_text(buf, lnum)
  local client = truthy(attached(buf), 'no srcls client on the buffer')
  local texts = {}
  for _, pull in ipairs({ false, true }) do
    local ns = vim.lsp.diagnostic.get_namespace(client.id, pull)
    local meta = vim.diagnostic.get_namespace(ns)
    local vt_ns = meta and meta.user_data and meta.user_data.virt_text_ns
    if vt_ns then
      for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, vt_ns, { lnum - 1, 0 }, { lnum - 1, -1 }, { details = true })) do
        for _, chunk in ipairs(m[4].virt_text or {}) do
          table.insert(texts, chunk[1])
        end
      end
    end
  end
  return table.concat(texts)
end

local function floating_windows()
  local out = {}
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then
      table.insert(out, w)
    end
  end
  return out
end

local function close_floats()
  for _, w in ipairs(floating_windows()) do
    pcall(vim.api.nvim_win_close, w, true)
  end
end

local function float_text()
  local w = floating_windows()[1]
  if not w then
    return nil
  end
  return table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false), '\n')
end

local function find_line(buf, text)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if line:find(text, 1, true) then
      return i, line:find(text, 1, true)
    end
  end
  fail('no line holds ' .. text, 2)
end

---------------------------------------------------------------------------------------------
-- Set-up: a project folder (a .git marker makes it the root) with copies of the examples.

vim.fn.mkdir(workdir .. '/.git', 'p')
vim.fn.mkdir(workdir .. '/sub', 'p')
vim.fn.mkdir(workdir .. '/deploy/sources', 'p')
for _, name in ipairs({ 'bad-object-storage.source.json', 'bad-job-failed.job.json', 'bad-syntax.source.json' }) do
  copy_example(name)
end
local notifications = {}
local original_notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(notifications, { msg = msg, level = level })
  return original_notify(msg, level, opts)
end

-- The options most tests run with; some tests call setup() again with others.
local BASE_OPTIONS = { server_path = binary, files = { '*.src.json', 'deploy/{sources,jobs}/*.json' } }
srcls.setup(BASE_OPTIONS)

local OBJECT_STORAGE_EXPECTED = {
  '4 conditional-required error',
  '4 unrestricted-scope information', -- no whitelistedBuckets: every bucket (a posture finding)
  '6 secret-not-encoded error',
  '7 unknown-field warning',
  '9 not-applicable warning',
  '9 out-of-range error',
  '10 invalid-enum error',
}

---------------------------------------------------------------------------------------------

test('setup() gives source, job and user-glob files the json.srcls filetype, and no others', function()
  srcls.setup(BASE_OPTIONS)
  eq(srcls.uses_filetype_lua(), vim.fn.has('nvim-0.8') == 1 or os.getenv('SRCLS_FILETYPE_LUA') == '1',
    'detection through vim.filetype.add')
  local cases = {
    { workdir .. '/bad-object-storage.source.json', 'json.srcls' },
    { workdir .. '/bad-job-failed.job.json', 'json.srcls' },
    { copy_example('bad-object-storage.source.json', 'sub/lake.src.json'), 'json.srcls' },
    { write_file('plain.json', { '{"a": 1}' }), 'json' },
  }
  table.insert(cases, { copy_example('bad-peer-cluster.source.json', 'deploy/sources/peer.json'), 'json.srcls' })
  table.insert(cases, { write_file('deploy/other.json', { '{}' }), 'json' })
  for _, c in ipairs(cases) do
    local buf = open(c[1])
    eq(vim.bo[buf].filetype, c[2], 'filetype of ' .. c[1]:sub(#workdir + 2))
  end
  -- JSON's own syntax still applies to json.srcls.
  local buf = open(workdir .. '/bad-object-storage.source.json')
  eq(vim.bo[buf].syntax, 'json.srcls', 'syntax')
  eq(vim.fn.exists('b:current_syntax') == 1 and vim.b[buf].current_syntax or 'json', 'json', 'current syntax')
end)

test('the server attaches: one srcls client per project root, the plain JSON file gets none', function()
  local a = open(workdir .. '/bad-object-storage.source.json')
  local b = open(workdir .. '/bad-job-failed.job.json')
  local client = wait_for(function()
    return attached(a) and attached(b)
  end, 'the srcls client to attach to both buffers')
  eq(#srcls_clients(), 1, 'number of srcls clients')
  eq(client.config.root_dir, workdir, 'root_dir')
  eq(client.config.cmd, { binary, '--stdio' }, 'cmd')
  local plain = open(workdir .. '/plain.json')
  sleep(200)
  eq(attached(plain), nil, 'client on plain.json')
end)

test('setup() called after the file is open (a lazy-loaded plugin) detects and attaches it', function()
  for _, c in ipairs(srcls_clients()) do
    client_call(c, 'stop')
  end
  wait_for(function()
    return #srcls_clients() == 0
  end, 'the clients to stop')
  vim.cmd('silent! %bwipeout!')
  vim.api.nvim_create_augroup('srcls', { clear = true }) -- as if setup() had not run yet
  local buf = open(workdir .. '/bad-job-failed.job.json')
  if not srcls.uses_filetype_lua() then
    eq(vim.bo[buf].filetype, 'json', 'filetype before setup()')
  end
  srcls.setup(BASE_OPTIONS)
  eq(vim.bo[buf].filetype, 'json.srcls', 'filetype after setup()')
  wait_for(function()
    return attached(buf)
  end, 'the client to attach')
  eq(#settled(buf, function(s)
    return #s == 4
  end, 'the diagnostics'), 4, 'diagnostics')
end)

test('diagnostics with their codes on the right lines, as srcls --check reports them', function()
  local path = workdir .. '/bad-object-storage.source.json'
  local buf = open(path)
  local got = settled(buf, function(s)
    return #s == #OBJECT_STORAGE_EXPECTED
  end, 'the diagnostics of bad-object-storage.source.json')
  eq(got, OBJECT_STORAGE_EXPECTED, 'diagnostics (line code severity)')
  eq(got, cli_diagnostics(path), 'the same as srcls --check --format json')
end)

test('what a person sees: virtual text with message and code, signs, the line float', function()
  local buf = open(workdir .. '/bad-object-storage.source.json')
  local line7 = wait_for(function()
    local t = virtual_text(buf, 7)
    return t ~= '' and t
  end, 'virtual text on line 7')
  contains(line7, 'unknown field "acessKey" for Object storage A (CLOUDA_OBJECT_STORAGE); did you mean "accessKey"? [unknown-field]', 'virtual text of line 7')
  contains(virtual_text(buf, 10), '"defaultCtasFormat" must be one of ICEBERG, PARQUET (got "ORC") [invalid-enum]', 'virtual text of line 10')

  local signs = vim.fn.sign_getplaced(buf, { group = '*' })[1].signs
  local by_line = {}
  for _, s in ipairs(signs) do
    by_line[s.lnum] = by_line[s.lnum] or {}
    by_line[s.lnum][s.name] = true
  end
  truthy(by_line[4]['DiagnosticSignError'], 'an error sign on line 4')
  truthy(by_line[7]['DiagnosticSignWarn'], 'a warning sign on line 7')

  vim.api.nvim_win_set_cursor(0, { 7, 6 })
  vim.diagnostic.open_float(buf, { scope = 'line' })
  local text = wait_for(float_text, 'the diagnostic float')
  contains(text, 'did you mean "accessKey"? [unknown-field]', 'diagnostic float')
  close_floats()
end)

test('job and broken documents: codes and lines', function()
  local job = open(workdir .. '/bad-job-failed.job.json')
  local got = settled(job, function(s)
    return #s == 4
  end, 'the diagnostics of bad-job-failed.job.json')
  eq(got, {
    '3 job-inconsistent warning',
    '4 job-inconsistent warning',
    '6 job-inconsistent warning',
    '8 invalid-format error',
  }, 'job diagnostics')

  local broken = open(workdir .. '/bad-syntax.source.json')
  got = settled(broken, function(s)
    return #s >= 3
  end, 'the diagnostics of bad-syntax.source.json')
  local syntax = vim.tbl_filter(function(s)
    return s:find('json-syntax', 1, true)
  end, got)
  eq(syntax, { '2 json-syntax error', '6 json-syntax error', '7 json-syntax error' }, 'syntax errors')
  eq(got, cli_diagnostics(workdir .. '/bad-syntax.source.json'), 'the same as srcls --check')
end)

test('completion: <C-x><C-o> on a new line in "config" offers the missing keys, required first', function()
  local buf = open(workdir .. '/bad-object-storage.source.json')
  wait_for(function()
    return attached(buf)
  end, 'the client')
  eq(vim.bo[buf].omnifunc, srcls.OMNIFUNC, 'omnifunc set by the plugin')
  local line = find_line(buf, '"config": {')
  vim.api.nvim_buf_set_lines(buf, line, line, false, { '    ' })
  vim.api.nvim_win_set_cursor(0, { line + 1, 4 })
  feed('A<C-x><C-o>')
  local info = wait_for(function()
    local i = vim.fn.complete_info({ 'items', 'mode' })
    return #i.items > 0 and i
  end, 'the completion menu')
  eq(info.mode, 'eval', 'completion mode') -- the omnifunc's items come through complete()
  local labels = vim.tbl_map(function(it)
    return it.abbr
  end, info.items)
  eq(labels[1], 'accessKey', 'first item (the missing required key)')
  eq(info.items[1].menu, 'a string', 'its detail')
  for _, key in ipairs({ 'rootPath', 'secure', 'enableAsync' }) do
    truthy(vim.tbl_contains(labels, key), key .. ' is offered: ' .. table.concat(labels, ', '))
  end
  for _, present in ipairs({ 'credentialType', 'accessSecret', 'isCachingEnabled' }) do
    truthy(not vim.tbl_contains(labels, present), present .. ' is already there and should not be offered')
  end
  feed('<C-y><Esc>')
  wait_for(function()
    return vim.api.nvim_get_mode().mode == 'n'
  end, 'normal mode')
  eq(vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1], '    "accessKey": "",', 'the accepted item')
  -- Typing fixed the missing key: the conditional-required error goes away.
  local got = settled(buf, function(s)
    return not vim.tbl_contains(s, '4 conditional-required error')
  end, 'the diagnostics after the edit')
  truthy(vim.tbl_contains(got, '8 unknown-field warning'), 'unknown-field moved to line 8: ' .. vim.inspect(got))
  vim.cmd('silent! undo')
end)

-- An autopair plugin's quote, as the common ones map it: `"` inserts a pair and leaves the
-- cursor between, or steps over the closing quote when it is the next character.
local function map_autopair_quote(buf)
  local pair = vim.api.nvim_replace_termcodes('""<Left>', true, false, true)
  local over = vim.api.nvim_replace_termcodes('<Right>', true, false, true)
  vim.api.nvim_buf_set_keymap(buf, 'i', '"', '', {
    expr = true,
    noremap = true,
    callback = function()
      local col = vim.api.nvim_win_get_cursor(0)[2]
      return vim.api.nvim_get_current_line():sub(col + 1, col + 1) == '"' and over or pair
    end,
  })
end

-- Line `lnum` set to `line` with the cursor at byte `col` (0-based), `typed` typed there in
-- insert mode through the mappings (the autopair quote), which must leave the line `asked` with
-- the cursor at `at`; then <C-x><C-o> and <C-y> on the first item. Returns the menu's labels
-- and the line after.
local function complete_typed(buf, lnum, line, col, typed, asked, at)
  vim.api.nvim_buf_set_lines(buf, lnum - 1, lnum, false, { line })
  vim.api.nvim_win_set_cursor(0, { lnum, math.max(col - 1, 0) })
  feed(col == 0 and 'i' or 'a')
  feed(typed, true)
  wait_for(function()
    local cursor = vim.api.nvim_win_get_cursor(0)
    return vim.api.nvim_get_mode().mode == 'i' and vim.api.nvim_get_current_line() == asked
      and cursor[1] == lnum and cursor[2] == at
  end, string.format('%q with the cursor at %d after typing %q', asked, at, typed))
  feed('<C-x><C-o>')
  local info = wait_for(function()
    local i = vim.fn.complete_info({ 'items' })
    return #i.items > 0 and i
  end, 'the completion menu for ' .. asked)
  feed('<C-y><Esc>')
  wait_for(function()
    return vim.api.nvim_get_mode().mode == 'n'
  end, 'normal mode')
  local labels = vim.tbl_map(function(it)
    return it.abbr
  end, info.items)
  return labels, vim.api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1]
end

-- Line `lnum` set to `line`, completed at its end (<C-x><C-o>, <C-y> on the first item): the
-- menu's labels and the line after.
local function complete_line(buf, lnum, line)
  return complete_typed(buf, lnum, line, #line, '', line, #line)
end

test('completion of enum values with <C-x><C-o>: after the colon, inside the quotes, after a prefix', function()
  local buf = open(workdir .. '/bad-object-storage.source.json')
  wait_for(function()
    return attached(buf)
  end, 'the client')
  local lnum = find_line(buf, '"credentialType"')
  local all = { '"NONE"', '"CLOUDA_VM_METADATA"', '"ACCESS_KEY"', '"CLOUDA_PROFILE"' }
  local labels, line = complete_line(buf, lnum, '    "credentialType": ')
  eq(labels, all, 'values after the colon')
  eq(line, '    "credentialType": "NONE"', 'accepted after the colon')
  labels, line = complete_line(buf, lnum, '    "credentialType": "')
  eq(labels, all, 'values inside the quotes')
  eq(line, '    "credentialType": "NONE"', 'accepted inside the quotes: one pair of quotes')
  labels, line = complete_line(buf, lnum, '    "credentialType": "AC')
  eq(labels, { '"ACCESS_KEY"' }, 'values after a prefix')
  eq(line, '    "credentialType": "ACCESS_KEY"', 'accepted after a prefix')
  labels, line = complete_line(buf, lnum, '    "isCachingEnabled": ')
  truthy(vim.tbl_contains(labels, 'true') and vim.tbl_contains(labels, 'false'), 'booleans: ' .. vim.inspect(labels))
  vim.cmd('silent! edit!')
end)

test('completion inside quotes an autopair plugin left, or with text after the cursor: one pair of quotes', function()
  local buf = open(workdir .. '/bad-object-storage.source.json')
  wait_for(function()
    return attached(buf)
  end, 'the client')
  map_autopair_quote(buf)
  local lnum = find_line(buf, '"credentialType"')
  local prefix = '    "credentialType": '
  local n = #prefix
  local cases = {
    -- name, line, cursor, typed, the line and cursor completion is asked at, the line after
    { 'auto-paired quotes', prefix .. ',', n, '"', prefix .. '"",', n + 1, prefix .. '"NONE",' },
    { 'a word typed in them', prefix .. ',', n, '"AC', prefix .. '"AC",', n + 3, prefix .. '"ACCESS_KEY",' },
    { 'text after the cursor', prefix .. '"NONE",', n + 3, '', prefix .. '"NONE",', n + 3, prefix .. '"NONE",' },
    { 'another value after the cursor', prefix .. '"ACCESS",', n + 3, '', prefix .. '"ACCESS",', n + 3,
      prefix .. '"ACCESS_KEY",' },
  }
  for _, c in ipairs(cases) do
    local name, line, col, typed, asked, at, expected = unpack(c)
    local _, after = complete_typed(buf, lnum, line, col, typed, asked, at)
    eq(after, expected, name .. ': the accepted value')
  end
  -- A key: `"` on a new line in config, auto-paired, then the first key (the required one).
  local config = find_line(buf, '"config": {')
  vim.api.nvim_buf_set_lines(buf, config, config, false, { '    ' })
  local _, key = complete_typed(buf, config + 1, '    ', 4, '"', '    ""', 5)
  eq(key, '    "accessKey": "",', 'the accepted key: one pair of quotes, its value and a comma')
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  truthy(pcall(vim.fn.json_decode, text), 'the buffer is JSON:\n' .. text)
  vim.api.nvim_buf_del_keymap(buf, 'i', '"')
  vim.cmd('silent! edit!')
end)

test('fill required fields with <C-x><C-o>: every field required now, each on its own line', function()
  local path = workdir .. '/new-catalog.source.json'
  -- the empty line indented, as an editor's autoindent leaves it
  write_file('new-catalog.source.json', { '{', '  "type": "VERSIONED_CATALOG",', '  "config": {', '    ', '  }', '}' })
  local buf = open(path)
  wait_for(function()
    return attached(buf)
  end, 'the client')
  vim.api.nvim_win_set_cursor(0, { 4, 0 })
  feed('A<C-x><C-o>')
  local info = wait_for(function()
    local i = vim.fn.complete_info({ 'items' })
    return #i.items > 0 and i
  end, 'the completion menu')
  local index
  for i, it in ipairs(info.items) do
    if it.abbr == 'fill required fields' then
      index = i
    end
  end
  truthy(index, 'a fill required fields item: ' .. vim.inspect(vim.tbl_map(function(it)
    return it.abbr
  end, info.items)))
  feed(string.rep('<C-n>', index - 1) .. '<C-y><Esc>')
  wait_for(function()
    return vim.api.nvim_get_mode().mode == 'n'
  end, 'normal mode')
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  local ok, doc = pcall(vim.fn.json_decode, text)
  truthy(ok, 'the buffer is JSON after the fill:\n' .. text)
  eq(doc.config.versionedCatalogAccessToken, 'data:,', 'the secret, encoded')
  eq(doc.config.storageType, 'CLOUDA', 'the first enum value')
  truthy(doc.config.versionedCatalogEndpoint ~= nil, 'the endpoint')
  truthy(not text:find('%z'), 'no ^@ in the buffer')
  contains(text, '\n    "storageType"', 'each field on its own line, indented')
  vim.cmd('silent! bwipeout!')
end)

test('completion with snippets (clients that take them, like Neovim 0.10+): the text without tab stops', function()
  local complete = require('srcls.complete')
  eq(complete.snippet_text('"enableAsync": ${1:true},'), '"enableAsync": true,', 'placeholder')
  eq(complete.snippet_text('"a": "${1:x${2:y}}"$0'), '"a": "xy"', 'nested placeholders and $0')
  eq(complete.snippet_text('"p": ${1},\\$'), '"p": ,$', 'empty tab stop and escaped $')

  for _, c in ipairs(srcls_clients()) do
    client_call(c, 'stop')
  end
  wait_for(function()
    return #srcls_clients() == 0
  end, 'the clients to stop')
  vim.cmd('silent! %bwipeout!')
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  capabilities.textDocument.completion.completionItem.snippetSupport = true
  srcls.setup({ server_path = binary, capabilities = capabilities })
  local buf = open(workdir .. '/bad-object-storage.source.json')
  wait_for(function()
    return attached(buf)
  end, 'the client')
  local line = find_line(buf, '"config": {')
  vim.api.nvim_buf_set_lines(buf, line, line, false, { '    ' })
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    position = { line = line, character = 4 },
  }
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/completion', params, TIMEOUT)
  local snippets = 0
  for _, r in pairs(responses or {}) do
    for _, it in ipairs(r.result and (r.result.items or r.result) or {}) do
      if it.insertTextFormat == 2 then
        snippets = snippets + 1
      end
    end
  end
  truthy(snippets > 0, 'the server sends snippets when the client takes them')
  local labels, accepted = complete_line(buf, line + 1, '    ')
  eq(labels[1], 'accessKey', 'first item')
  eq(accepted, '    "accessKey": "",', 'the snippet inserted as plain text')
  vim.cmd('silent! edit!')
end)

test('completion of enum values through the protocol', function()
  local buf = open(workdir .. '/bad-object-storage.source.json')
  wait_for(function()
    return attached(buf)
  end, 'the client')
  local lnum, col = find_line(buf, '"ACCESS_KEY"')
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    position = { line = lnum - 1, character = col }, -- just inside the opening quote
  }
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/completion', params, TIMEOUT)
  local labels = {}
  for _, r in pairs(responses or {}) do
    for _, it in ipairs(r.result and (r.result.items or r.result) or {}) do
      table.insert(labels, (it.label:gsub('^"(.*)"$', '%1')))
    end
  end
  for _, value in ipairs({ 'NONE', 'CLOUDA_VM_METADATA', 'ACCESS_KEY', 'CLOUDA_PROFILE' }) do
    truthy(vim.tbl_contains(labels, value), value .. ' is offered: ' .. table.concat(labels, ', '))
  end
end)

test('inlay hints through Neovim\'s client (shown by Neovim 0.10+): kinds and defaults', function()
  -- Neovim 0.7 to 0.9 have no inlay hint display; the request through the real client is what
  -- 0.10's vim.lsp.inlay_hint sends.
  local path = write_file('bulk.json', {
    '[',
    '  {"type": "CLOUDA_OBJECT_STORAGE", "config": {"credentialType": "NONE"}},',
    '  {"config": {"path": "/x"}}',
    ']',
  })
  local buf = open(path)
  vim.bo[buf].filetype = 'json.srcls' -- a bulk file has no source/job name: set by hand
  local client = wait_for(function()
    return attached(buf)
  end, 'the client')
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    range = { start = { line = 0, character = 0 }, ['end'] = { line = 4, character = 0 } },
  }
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/inlayHint', params, TIMEOUT)
  local labels = {}
  for _, r in pairs(responses or {}) do
    for _, hint in ipairs(r.result or {}) do
      table.insert(labels, string.format('%d:%s', hint.position.line, hint.label))
    end
  end
  eq(labels, { '1:Object storage A', '1:isCachingEnabled: true (default)', '2:NETWORK_ATTACHED_STORAGE (inferred)' },
    'hints of ' .. client.name)
  vim.cmd('silent! bwipeout!')
end)

test('hover: K on a key opens a window with its type, values and description', function()
  local buf = open(workdir .. '/bad-object-storage.source.json')
  close_floats()
  wait_for(function()
    return attached(buf)
  end, 'the client')
  local lnum, col = find_line(buf, '"credentialType"')
  vim.api.nvim_win_set_cursor(0, { lnum, col + 2 })
  feed('K', true)
  local text = wait_for(float_text, 'the hover window')
  contains(text, 'credentialType', 'hover')
  contains(text, 'a string', 'hover')
  contains(text, 'ACCESS_KEY', 'hover')
  contains(text, 'An access key (accessKey) and its secret (accessSecret).', 'hover')
  contains(text, 'Where the credentials for the buckets come from.', 'hover')
  truthy(not text:find('hunter2', 1, true), 'a secret value never shows in a hover')
  close_floats()
end)

test('a quick fix for the misspelled key, and formatting', function()
  local buf = open(workdir .. '/bad-object-storage.source.json')
  local client = wait_for(function()
    return attached(buf)
  end, 'the client')
  settled(buf, function(s)
    return #s == #OBJECT_STORAGE_EXPECTED
  end, 'the diagnostics')
  local lnum = find_line(buf, '"acessKey"')
  local diagnostics = vim.tbl_filter(function(d)
    return d.lnum == lnum - 1
  end, vim.lsp.diagnostic.get_line_diagnostics(buf, lnum - 1))
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    range = { start = { line = lnum - 1, character = 4 }, ['end'] = { line = lnum - 1, character = 4 } },
    context = { diagnostics = diagnostics },
  }
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, TIMEOUT)
  local fix
  for _, r in pairs(responses or {}) do
    for _, action in ipairs(r.result or {}) do
      if action.kind == 'quickfix' and action.edit and action.title:find('accessKey', 1, true) then
        fix = fix or action
      end
    end
  end
  truthy(fix, 'a quick fix naming accessKey: ' .. vim.inspect(responses))
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  contains(vim.api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1], '"accessKey": "AKIAEXAMPLE"', 'line after the fix')
  settled(buf, function(s)
    return not vim.tbl_contains(s, '7 unknown-field warning') and not vim.tbl_contains(s, '4 conditional-required error')
  end, 'the diagnostics after the fix')
  vim.cmd('silent! edit!')

  local compact = write_file('compact.source.json', { '{"name":"n","type":"PEER_CLUSTER","config":{"hostname":"h","port":31010}}' })
  buf = open(compact)
  wait_for(function()
    return attached(buf)
  end, 'the client on compact.source.json')
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ bufnr = buf, timeout_ms = TIMEOUT })
  else
    vim.lsp.buf.formatting_sync(nil, TIMEOUT)
  end
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  truthy(#lines > 3, 'formatted over several lines: ' .. vim.inspect(lines))
  eq(lines[1], '{', 'first line')
  eq(vim.fn.json_decode(table.concat(lines, '\n')).config.port, 31010, 'same JSON')
end)

-- Stops every srcls client and wipes the buffers: a test that calls setup() again starts clean.
local function stop_all()
  close_floats()
  for _, c in ipairs(srcls_clients()) do
    client_call(c, 'stop')
  end
  wait_for(function()
    return #srcls_clients() == 0
  end, 'the clients to stop')
  vim.cmd('silent! %bwipeout!')
end

test('settings: severity overrides and extra types reach the server; update_settings() changes them live', function()
  stop_all()
  srcls.setup({
    server_path = binary,
    severity = { ['unknown-field'] = 'error', ['not-applicable'] = 'off' },
    types = { MY_S3 = 'CLOUDA_OBJECT_STORAGE' },
  })
  local path = workdir .. '/sub/custom-type.source.json'
  local lines = vim.fn.readfile(root .. '/docs/examples/bad-object-storage.source.json')
  lines[3] = '  "type": "MY_S3",'
  vim.fn.writefile(lines, path)
  local buf = open(path)
  local got = settled(buf, function(s)
    return #s == 6
  end, 'the diagnostics with overrides')
  eq(got, {
    '4 conditional-required error',
    '4 unrestricted-scope information',
    '6 secret-not-encoded error',
    '7 unknown-field error',
    '9 out-of-range error',
    '10 invalid-enum error',
  }, 'diagnostics with unknown-field as error, not-applicable off, MY_S3 known')

  srcls.update_settings({ severity = { ['kind-inferred'] = 'off' } })
  got = settled(buf, function(s)
    return #s == 7
  end, 'the diagnostics after update_settings()')
  truthy(vim.tbl_contains(got, '7 unknown-field warning'), 'unknown-field is a warning again: ' .. vim.inspect(got))
  truthy(vim.tbl_contains(got, '9 not-applicable warning'), 'not-applicable is back: ' .. vim.inspect(got))
  srcls.update_settings({ types = {} })
  got = settled(buf, function(s)
    return #s == 1
  end, 'the diagnostics without MY_S3')
  eq(got, { '3 unknown-kind error' }, 'without MY_S3 the type is unknown')
end)

test('review_base: a file changed since HEAD shows risky-change, and none with review_base off', function()
  if vim.fn.executable('git') ~= 1 then
    print('SKIP review_base: git is not installed')
    return
  end
  stop_all()
  local repo = workdir .. '/review'
  vim.fn.mkdir(repo, 'p')
  local path = repo .. '/a.source.json'
  local function source(secure)
    return { '{"name": "s1", "type": "CLOUDA_OBJECT_STORAGE", "config": {',
      '  "secure": ' .. secure .. ', "whitelistedBuckets": ["b"], "accessKey": "k",',
      '  "accessSecret": "$SERVICE_EXISTING_VALUE$"}}' }
  end
  vim.fn.writefile(source('true'), path)
  local git = 'git -C ' .. vim.fn.shellescape(repo) .. ' -c user.name=srcls -c user.email=srcls@example.invalid '
  vim.fn.system(git .. 'init -q && ' .. git .. 'add . && ' .. git .. 'commit -q -m base')
  eq(vim.v.shell_error, 0, 'the repository is built')
  vim.fn.writefile(source('false'), path) -- the change under review
  srcls.setup({ server_path = binary, review_base = 'HEAD' })
  local buf = open(path)
  local got = settled(buf, function(s)
    return vim.tbl_contains(s, '2 risky-change warning')
  end, 'risky-change against HEAD')
  truthy(vim.tbl_contains(got, '2 insecure-transport information'), 'the posture finding too: ' .. vim.inspect(got))
  srcls.update_settings({ review_base = '' })
  got = settled(buf, function(s)
    return not vim.tbl_contains(s, '2 risky-change warning')
  end, 'no review once review_base is off')
  truthy(vim.tbl_contains(got, '2 insecure-transport information'), 'the posture finding stays: ' .. vim.inspect(got))
  stop_all()
end)

test(':SrclsRestart starts a new server and the diagnostics come back', function()
  srcls.setup({ server_path = binary })
  local buf = open(workdir .. '/bad-object-storage.source.json')
  local before = wait_for(function()
    return attached(buf)
  end, 'the client')
  settled(buf, function(s)
    return #s == #OBJECT_STORAGE_EXPECTED
  end, 'the diagnostics')
  vim.cmd('SrclsRestart')
  local after = wait_for(function()
    local c = attached(buf)
    return c and c.id ~= before.id and c
  end, 'a new client')
  truthy(client_call(before, 'is_stopped'), 'the old client stopped')
  eq(#srcls_clients(), 1, 'clients after restart')
  eq(settled(buf, function(s)
    return #s == #OBJECT_STORAGE_EXPECTED
  end, 'the diagnostics after restart'), OBJECT_STORAGE_EXPECTED, 'diagnostics after restart')
  truthy(after.id ~= before.id, 'a new client id')
end)

test(':checkhealth srcls says the binary is found, runs and speaks LSP', function()
  vim.cmd('checkhealth srcls')
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  contains(text, 'OK: found: ' .. vim.fn.exepath(binary), 'checkhealth')
  contains(text, 'OK: runs: srcls ', 'checkhealth')
  contains(text, 'OK: answers the language server protocol', 'checkhealth')
  contains(text, 'client ', 'checkhealth')
  truthy(not text:find('ERROR', 1, true), 'no ERROR in checkhealth:\n' .. text)
  vim.cmd('bwipeout!')
end)

test('a missing binary: a clear message, no client, and :checkhealth says so', function()
  for _, c in ipairs(srcls_clients()) do
    client_call(c, 'stop')
  end
  wait_for(function()
    return #srcls_clients() == 0
  end, 'the clients to stop')
  vim.cmd('silent! %bwipeout!')
  notifications = {}
  srcls.setup({ server_path = workdir .. '/no/such/srcls' })
  local buf = open(workdir .. '/bad-object-storage.source.json')
  eq(vim.bo[buf].filetype, 'json.srcls', 'filetype')
  local note = wait_for(function()
    return notifications[1]
  end, 'a notification')
  contains(note.msg, 'srcls: cannot start the language server: ' .. workdir .. '/no/such/srcls is not an executable file', 'message')
  eq(note.level, vim.log.levels.ERROR, 'level')
  sleep(200)
  eq(#srcls_clients(), 0, 'clients')
  vim.cmd('checkhealth srcls')
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  contains(text, 'ERROR: the server was not found', 'checkhealth')
  vim.cmd('bwipeout!')
end)

test('Mason: a srcls in stdpath("data")/mason/bin is found and started without configuration', function()
  stop_all()
  -- What :MasonInstall srcls leaves: a link in Mason's bin folder (nvim_plugin.sh gives this
  -- Neovim a private XDG_DATA_HOME), and no srcls on PATH (Mason's folder is on PATH only once
  -- mason.nvim is set up, which need not be before this plugin).
  local mason = vim.fn.stdpath('data') .. '/mason/bin'
  vim.fn.mkdir(mason, 'p')
  truthy(vim.loop.fs_symlink(binary, mason .. '/srcls'), 'the link in ' .. mason)
  local path = vim.env.PATH
  vim.env.PATH = table.concat(vim.tbl_filter(function(dir)
    return vim.fn.executable(dir .. '/srcls') ~= 1
  end, vim.split(path, ':', { plain = true })), ':')
  local ok, err = pcall(function()
    eq(vim.fn.executable('srcls'), 0, 'srcls on PATH')
    srcls.setup({})
    eq(srcls.cmd(), { mason .. '/srcls', '--stdio' }, 'the server command')
    local buf = open(workdir .. '/bad-object-storage.source.json')
    wait_for(function()
      return attached(buf)
    end, 'the srcls client to attach')
    settled(buf, function(d)
      return #d > 0
    end, 'the diagnostics')
    contains(table.concat(shown(buf), '\n'), 'conditional-required error', 'diagnostics')
    vim.cmd('checkhealth srcls')
    local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    contains(text, 'found: ' .. mason .. '/srcls', 'checkhealth')
    vim.cmd('bwipeout!')
  end)
  vim.env.PATH = path
  os.remove(mason .. '/srcls')
  if not ok then
    error(err, 0)
  end
end)

test('Neovim 0.8+ path: attach() hands vim.lsp.start the config and the buffer', function()
  -- Neovim 0.7 has no vim.lsp.start; stand one in to see what the plugin gives it. On 0.8+
  -- the real one ran in every test above.
  local real = vim.lsp.start
  local seen
  vim.lsp.start = function(config, opts)
    seen = { config = config, opts = opts }
    return 42
  end
  local ok, err = pcall(function()
    srcls.setup({ server_path = binary, autostart = false, severity = { ['kind-inferred'] = 'off' } })
    local buf = open(workdir .. '/bad-object-storage.source.json')
    eq(srcls.attach(buf), 42, 'client id')
    eq(seen.opts, { bufnr = buf }, 'opts')
    eq(seen.config.name, 'srcls', 'name')
    eq(seen.config.cmd, { binary, '--stdio' }, 'cmd')
    eq(seen.config.root_dir, workdir, 'root_dir')
    eq(seen.config.settings.srcls.severity, { ['kind-inferred'] = 'off' }, 'settings: severity')
    eq(vim.fn.json_encode(seen.config.settings.srcls.types), '{}', 'settings: types, an empty object')
    eq(seen.config.init_options, seen.config.settings, 'initialization options')
  end)
  vim.lsp.start = real
  if not ok then
    error(err, 0)
  end
end)

test('lsp_config() for nvim-lspconfig users: same command, filetype, root and settings', function()
  srcls.setup({ server_path = binary, autostart = false, types = { X = 'PEER_CLUSTER' } })
  local c = srcls.lsp_config()
  eq(c.cmd, { binary, '--stdio' }, 'cmd')
  eq(c.filetypes, { 'json.srcls' }, 'filetypes')
  eq(c.root_dir(workdir .. '/sub/custom-type.source.json'), workdir, 'root_dir(fname), as lspconfig calls it')
  local buf = open(workdir .. '/bad-job-failed.job.json')
  local got
  eq(c.root_dir(buf, function(dir)
    got = dir
  end), nil, 'root_dir(bufnr, on_dir) returns nothing')
  eq(got, workdir, 'root_dir(bufnr, on_dir), as vim.lsp.config calls it')
  eq(c.on_attach, srcls.on_attach, 'on_attach')
  eq(c.settings.srcls.types, { X = 'PEER_CLUSTER' }, 'settings')
end)

test('globs: the same matching as the VS Code extension', function()
  local glob = require('srcls.glob')
  local m = glob.matcher({ '**/*.source.json', '*.src.json', 'deploy/{a,b}/*.json', '/abs/x?.json', 'c[0-9].json' })
  local cases = {
    { '/p/x.source.json', true }, { '/p/q/x.source.json', true }, { '/p/x.source.jsonc', false },
    { '/p/y.src.json', true }, { '/p/deploy/a/s.json', true }, { '/p/deploy/c/s.json', false },
    { '/p/deploy/a/b/s.json', false }, { '/abs/x1.json', true }, { '/p/abs/x1.json', false },
    { '/p/c5.json', true }, { '/p/cx.json', false }, { 'C:\\p\\x.source.json', true },
  }
  for _, c in ipairs(cases) do
    eq(m(c[1]), c[2], c[1])
  end
  local _, problems = glob.matcher({ '', 'a{b', 'x[' })
  eq(#problems, 3, 'bad globs reported')
end)

test('srcls.json and the kind files it names are served: linted where they are wrong, and the documents checked with their kinds', function()
  vim.fn.mkdir(workdir .. '/team/kinds', 'p')
  write_file('team/srcls.json', { '{"schemas": ["kinds"]}' })
  write_file('team/kinds/queue.json', {
    '{',
    '  "title": "Message queue",',
    '  "types": ["MESSAGE_QUEUE"],',
    '  "fields": {"topic": {"type": "string", "description": "The topic.", "required": true},',
    '             "port": {"type": "int"}}',
    '}',
  })
  write_file('team/kinds/ok.json', {
    '{"title": "Stream", "types": ["STREAM"],',
    ' "fields": {"topic": {"type": "string", "description": "The topic.", "required": true}}}',
  })
  write_file('team/s.source.json', { '{"name": "s", "type": "STREAM", "config": {}}' })
  write_file('team/kinds/notes.schema.json', { '{}' })
  local cases = {
    { workdir .. '/team/srcls.json', 'json.srcls' },
    { workdir .. '/team/kinds/queue.json', 'json.srcls' },
    { workdir .. '/team/kinds/notes.schema.json', 'json' },
  }
  for _, c in ipairs(cases) do
    eq(vim.bo[open(c[1])].filetype, c[2], 'filetype of ' .. c[1]:sub(#workdir + 2))
  end
  srcls.setup(BASE_OPTIONS)
  local kind = open(workdir .. '/team/kinds/queue.json')
  wait_for(function()
    return attached(kind)
  end, 'the srcls client to attach to the kind file')
  settled(kind, function(d)
    return #d > 0
  end, 'the kind file\'s diagnostics')
  eq(shown(kind), { '5 project-config error' }, 'the kind file\'s mistake, where it is written')
  local doc = open(workdir .. '/team/s.source.json')
  settled(doc, function(d)
    return #d > 0
  end, 'the document\'s diagnostics')
  eq(shown(doc), { '1 missing-required error' }, 'the document, checked with the project\'s kind')
end)

test('a srcls.json written in Neovim re-checks the open documents (0.7 registers no file watchers: the save says it)', function()
  vim.fn.mkdir(workdir .. '/saved', 'p')
  srcls.setup(BASE_OPTIONS)
  local doc = open(copy_example('bad-object-storage.source.json', 'saved/bad.source.json'))
  wait_for(function()
    return attached(doc)
  end, 'the srcls client to attach to the document')
  settled(doc, function(d)
    return vim.tbl_contains(d, '7 unknown-field warning')
  end, 'the document\'s diagnostics, no srcls.json yet')
  vim.cmd('split ' .. vim.fn.fnameescape(workdir .. '/saved/srcls.json')) -- a new file, beside it
  local config = vim.api.nvim_get_current_buf()
  wait_for(function()
    return attached(config)
  end, 'the srcls client to attach to the new srcls.json')
  vim.api.nvim_buf_set_lines(config, 0, -1, false, { '{"rules": {"unknown-field": "error"}}' })
  vim.cmd('write')
  settled(doc, function(d)
    return vim.tbl_contains(d, '7 unknown-field error')
  end, 'the document checked again with the srcls.json written')
  vim.api.nvim_buf_set_lines(config, 0, -1, false, { '{"rules": {"unknown-field": "off"}}' })
  vim.cmd('write')
  settled(doc, function(d)
    return not vim.tbl_contains(d, '7 unknown-field error') and #d > 0
  end, 'the document checked again with the srcls.json changed')
  eq(vim.tbl_filter(function(x)
    return x:find('unknown-field', 1, true) ~= nil
  end, shown(doc)), {}, 'unknown-field off')
  vim.cmd('close')
end)

run(1)
