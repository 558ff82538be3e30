-- srcls for Neovim: gives data-source (`*.source.json`), job (`*.job.json`) and user-chosen
-- files the filetype `json.srcls` (JSON syntax, ftplugin and tree-sitter still apply), and
-- attaches the srcls language server to them with the user's settings. Neovim 0.7 and later:
-- vim.lsp.start and vim.filetype.add where they exist, vim.lsp.start_client and autocommands
-- on 0.7.
local glob = require('srcls.glob')

local M = {}

M.DEFAULT_FILES = { '**/*.source.json', '**/*.job.json' }
M.SEVERITIES = { 'error', 'warning', 'information', 'hint', 'off' }
M.DOCS = 'docs/editors.md in the srcls repository'
-- Completion that replaces what srcls's items replace (see complete.lua).
M.OMNIFUNC = "v:lua.require'srcls.complete'.omnifunc"

local defaults = {
  -- The server command. Default: { <server_path or "srcls">, "--stdio" } ("srcls": on PATH,
  -- else Mason's, stdpath('data')/mason/bin/srcls).
  cmd = nil,
  server_path = nil,
  -- Extra globs of files to serve, besides M.DEFAULT_FILES.
  files = {},
  -- Severity per diagnostic code ("error", "warning", "information", "hint", "off").
  severity = {},
  -- Extra `type` identifiers mapped onto canonical ones.
  types = {},
  -- A git revision ("HEAD", "origin/main") open files are reviewed against: what a change does
  -- that a reviewer must see is shown as risky-change (as `srcls --check --base REF`). nil: off.
  review_base = nil,
  -- The filetype given to served files, and the one the server attaches to.
  filetype = 'json.srcls',
  -- A folder holding one of these is the project root (one server per root).
  root_markers = { 'srcls.json', '.git' },
  -- false: only detect the filetype and leave starting the server to nvim-lspconfig or
  -- vim.lsp.config (see M.lsp_config()).
  autostart = true,
  -- "off", "messages" or "verbose": the LSP trace level the server is asked for.
  trace = 'off',
  -- Show each diagnostic's code after its message ("... [unknown-field]") in virtual text and
  -- floats, as `srcls --check` does; the code is what `severity` and `srcls --explain` take.
  show_codes = true,
  -- On attach, if the buffer has none of its own: omnifunc = srcls completion (<C-x><C-o>)
  -- and K = hover. Neovim 0.7 sets neither by itself.
  default_keymaps = true,
  on_attach = nil,
  capabilities = nil,
}

local options = vim.deepcopy(defaults)
local state = {
  matches = function()
    return false
  end,
  clients = {}, -- root_dir -> client id, for Neovim 0.7 (vim.lsp.start keeps its own)
  namespaces = {}, -- diagnostic namespaces of srcls clients
  configured = {}, -- client id -> true once show_codes ran for it
  warned_missing = false,
}

local function notify(msg, level)
  vim.schedule(function()
    vim.notify('srcls: ' .. msg, level or vim.log.levels.WARN)
  end)
end

local function has(feature)
  return vim.fn.has(feature) == 1
end

-- Compatibility across 0.7 .. 0.11+: names that were renamed, and client methods, which are
-- closures (client.stop(force)) before 0.11 and methods (client:stop(force)) since.
local islist = vim.islist or vim.tbl_islist
local get_clients = vim.lsp.get_clients or vim.lsp.get_active_clients
local methods = has('nvim-0.11')

local function client_call(client, name, ...)
  if methods then
    return client[name](client, ...)
  end
  return client[name](...)
end

--- Keeps the severity overrides the server understands. Returns the table and the problems.
function M.sanitize_severity(value)
  local out, problems = {}, {}
  if value == nil then
    return out, problems
  end
  if type(value) ~= 'table' or islist(value) and #value > 0 then
    return out, { 'severity must be a table of code = severity' }
  end
  for code, level in pairs(value) do
    local l = type(level) == 'string' and vim.trim(level):lower() or level
    if type(code) ~= 'string' or vim.trim(code) == '' then
      table.insert(problems, 'severity: a diagnostic code must be a non-empty string')
    elseif not vim.tbl_contains(M.SEVERITIES, l) then
      table.insert(problems, string.format('severity: "%s" is set to %s; use one of %s',
        code, vim.inspect(level), table.concat(M.SEVERITIES, ', ')))
    else
      out[vim.trim(code)] = l
    end
  end
  table.sort(problems)
  return out, problems
end

--- Keeps the extra type identifiers that map a name onto a canonical type (strings).
function M.sanitize_types(value)
  local out, problems = {}, {}
  if value == nil then
    return out, problems
  end
  if type(value) ~= 'table' or islist(value) and #value > 0 then
    return out, { 'types must be a table of identifier = canonical type' }
  end
  for id, canonical in pairs(value) do
    if type(id) ~= 'string' or vim.trim(id) == '' or type(canonical) ~= 'string'
        or vim.trim(canonical) == '' then
      table.insert(problems, string.format('types: %s must map to a canonical type identifier', vim.inspect(id)))
    else
      out[vim.trim(id)] = vim.trim(canonical)
    end
  end
  table.sort(problems)
  return out, problems
end

--- Keeps a review base git can be asked about (a non-empty string, no leading '-', no line
--- break, at most 200 bytes); nil or "" is off.
function M.sanitize_review_base(value)
  if value == nil or value == '' then
    return nil, {}
  end
  if type(value) ~= 'string' or vim.trim(value) == '' or value:sub(1, 1) == '-'
      or value:find('[\r\n]') or #value > 200 then
    return nil, { string.format('review_base is set to %s; use a git revision such as "HEAD" or "origin/main", or nil', vim.inspect(value)) }
  end
  return vim.trim(value), {}
end

-- An empty Lua table encodes as a JSON array; the server wants objects.
local function object(t)
  if next(t) == nil then
    return vim.empty_dict()
  end
  return t
end

--- The settings sent to the server: { srcls = { severity = {...}, types = {...}, reviewBase = REF } }
--- (reviewBase only when set), the shape of workspace/didChangeConfiguration. Returns the
--- settings and the problems found.
function M.settings(opts)
  opts = opts or options
  local severity, p1 = M.sanitize_severity(opts.severity)
  local types, p2 = M.sanitize_types(opts.types)
  local review_base, p3 = M.sanitize_review_base(opts.review_base)
  local problems = vim.list_extend(vim.list_extend(p1, p2), p3)
  return { srcls = { severity = object(severity), types = object(types), reviewBase = review_base } }, problems
end

--- The globs of served files: the defaults, then the user's.
function M.files(opts)
  opts = opts or options
  local out = {}
  for _, g in ipairs(vim.list_extend(vim.deepcopy(M.DEFAULT_FILES), opts.files or {})) do
    if not vim.tbl_contains(out, g) then
      table.insert(out, g)
    end
  end
  return out
end

--- The directories of kind files the srcls.json at `config` names ("schemas"), absolute; kept
--- while the file's modification time stays the same.
local schema_dirs_cache = {}
local function schema_dirs(config)
  local stat = vim.loop.fs_stat(config)
  if not stat then
    return {}
  end
  local cached = schema_dirs_cache[config]
  if cached and cached.mtime == stat.mtime.sec and cached.nsec == stat.mtime.nsec then
    return cached.dirs
  end
  local dirs = {}
  local ok, decoded = pcall(vim.fn.json_decode, table.concat(vim.fn.readfile(config), '\n'))
  if ok and type(decoded) == 'table' and type(decoded.schemas) == 'table' then
    local base = vim.fn.fnamemodify(config, ':h')
    for _, d in ipairs(decoded.schemas) do
      if type(d) == 'string' and d ~= '' then
        local dir = d:sub(1, 1) == '/' and d or (base .. '/' .. d)
        local absolute = vim.fn.fnamemodify(vim.fn.simplify(dir), ':p'):gsub('/$', '')
        table.insert(dirs, absolute)
      end
    end
  end
  schema_dirs_cache[config] = { mtime = stat.mtime.sec, nsec = stat.mtime.nsec, dirs = dirs }
  return dirs
end

--- Whether `path` is a project file the server lints, completes and hovers: a srcls.json, or
--- a kind file (a *.json in a directory the nearest srcls.json above names in "schemas").
function M.is_project_file(path)
  if type(path) ~= 'string' or not path:match('%.json$') then
    return false
  end
  path = vim.fn.fnamemodify(path, ':p')
  if vim.fn.fnamemodify(path, ':t') == 'srcls.json' then
    return true
  end
  if path:match('%.schema%.json$') then
    return false -- a JSON Schema beside the kind files
  end
  local dir = vim.fn.fnamemodify(path, ':h')
  local at = dir
  while true do
    local config = at .. '/srcls.json'
    if vim.loop.fs_stat(config) then
      return vim.tbl_contains(schema_dirs(config), dir)
    end
    local parent = vim.fn.fnamemodify(at, ':h')
    if parent == at then
      return false
    end
    at = parent
  end
end

--- Whether `path` is served (matches a glob, or is a project file), for the current options.
function M.matches(path)
  return state.matches(path)
end

local function dirname(path)
  return vim.fn.fnamemodify(path, ':h')
end

--- Where Mason (:MasonInstall srcls) links the srcls command: stdpath('data')/mason/bin.
function M.mason_bin()
  return vim.fn.stdpath('data') .. '/mason/bin/srcls'
end

--- The server command: opts.cmd, else { server_path or "srcls", "--stdio" }, where "srcls" is
--- Mason's when none is on PATH (Mason puts its bin folder on PATH only once it is set up).
function M.cmd(opts)
  opts = opts or options
  if opts.cmd then
    return opts.cmd
  end
  local program = opts.server_path
  if not program then
    program = 'srcls'
    if vim.fn.executable(program) ~= 1 and vim.fn.executable(M.mason_bin()) == 1 then
      program = M.mason_bin()
    end
  end
  return { program, '--stdio' }
end

--- Whether the command's program can be run: its full path, or nil and why not.
function M.find_server(opts)
  local program = M.cmd(opts)[1]
  if type(program) ~= 'string' or program == '' then
    return nil, 'the server command is empty'
  end
  program = vim.fn.expand(program)
  local path = vim.fn.exepath(program)
  if path ~= '' then
    return path
  end
  if program:find('/') then
    return nil, program .. ' is not an executable file'
  end
  return nil, '`' .. program .. '` is not on PATH, nor in Mason\'s ' .. dirname(M.mason_bin())
end

--- The project root of `path`: the nearest folder upwards holding a root marker, else the
--- file's own folder.
function M.root_dir(path, opts)
  opts = opts or options
  local start = dirname(vim.fn.fnamemodify(path, ':p'))
  local dir = start
  while true do
    for _, marker in ipairs(opts.root_markers or {}) do
      if vim.loop.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = dirname(dir)
    if parent == dir then
      return start
    end
    dir = parent
  end
end

--- The code of a vim.diagnostic item from the server (`code` since 0.8, user_data before).
function M.diagnostic_code(d)
  if d.code ~= nil then
    return d.code
  end
  return d.user_data and d.user_data.lsp and d.user_data.lsp.code or nil
end

local function with_code(d)
  local code = M.diagnostic_code(d)
  if code == nil or code == '' then
    return d.message
  end
  return string.format('%s [%s]', d.message, code)
end

-- Whether a vim.diagnostic item came from a srcls client.
local function from_srcls(d)
  return d.namespace ~= nil and state.namespaces[d.namespace] == true
end

-- Adds the code to the message where the user's diagnostic display shows it, as `srcls
-- --check` does, without turning on what they turned off. Virtual text is configured for
-- this client's namespaces only (push and, on 0.10+, pull). Floats take only the global
-- configuration, so a global float format is added, which changes srcls's diagnostics only,
-- and only when the user has not set a format of their own.
local function show_codes(client)
  local global = vim.diagnostic.config() or {}
  local vt = global.virtual_text
  vt = vt and vim.tbl_extend('force', type(vt) == 'table' and vt or {}, { format = with_code })
  for _, pull in ipairs({ false, true }) do
    local ns = vim.lsp.diagnostic.get_namespace(client.id, pull)
    state.namespaces[ns] = true
    if vt then
      vim.diagnostic.config({ virtual_text = vt }, ns)
    end
  end
  local float = global.float
  if float ~= false and not (type(float) == 'table' and float.format) then
    vim.diagnostic.config({
      float = vim.tbl_extend('force', type(float) == 'table' and float or {}, {
        format = function(d)
          return from_srcls(d) and with_code(d) or d.message
        end,
      }),
    })
  end
end

local function on_init(client)
  -- The server reads its settings from workspace/didChangeConfiguration; Neovim 0.7 does not
  -- send one by itself.
  client_call(client, 'notify', 'workspace/didChangeConfiguration', { settings = client.config.settings })
  return true
end

-- Runs once per client, when it first attaches (its diagnostic namespaces are named after it
-- only once it is registered), then the user's on_attach.
local function on_attach(client, bufnr)
  if options.show_codes and not state.configured[client.id] then
    state.configured[client.id] = true
    show_codes(client)
  end
  if options.default_keymaps then
    -- Neovim 0.8+ may have set its own omnifunc on attach; replace that one, not the user's.
    local omnifunc = vim.bo[bufnr].omnifunc
    if omnifunc == '' or omnifunc == 'v:lua.vim.lsp.omnifunc' then
      vim.bo[bufnr].omnifunc = M.OMNIFUNC
      vim.api.nvim_create_autocmd('CompleteDone', {
        group = vim.api.nvim_create_augroup('srcls_complete_' .. bufnr, { clear = true }),
        buffer = bufnr,
        desc = 'srcls: finish an accepted completion (text after the cursor, multi-line items)',
        callback = function()
          require('srcls.complete').on_complete_done()
        end,
      })
    end
    local has_k = false
    for _, map in ipairs(vim.api.nvim_buf_get_keymap(bufnr, 'n')) do
      has_k = has_k or map.lhs == 'K'
    end
    if not has_k then
      vim.keymap.set('n', 'K', vim.lsp.buf.hover, { buffer = bufnr, desc = 'srcls: hover' })
    end
  end
  if options.on_attach then
    options.on_attach(client, bufnr)
  end
end

--- The client configuration for a buffer (what vim.lsp.start / start_client take).
function M.client_config(bufnr, opts)
  opts = opts or options
  local settings = M.settings(opts)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local capabilities = opts.capabilities
  if not capabilities then
    capabilities = vim.lsp.protocol.make_client_capabilities()
  end
  return {
    name = 'srcls',
    cmd = M.cmd(opts),
    root_dir = M.root_dir(name, opts),
    settings = settings,
    init_options = settings,
    capabilities = capabilities,
    trace = opts.trace,
    on_init = on_init,
    on_attach = on_attach,
    flags = { debounce_text_changes = 100 },
  }
end

local function live_client(id)
  local client = id and vim.lsp.get_client_by_id(id)
  if client and not client_call(client, 'is_stopped') then
    return client
  end
  return nil
end

--- Starts (or reuses) the server for the project of `bufnr` and attaches the buffer.
--- Returns the client id, or nil when the server cannot be started.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local _, why = M.find_server()
  if why then
    if not state.warned_missing then
      state.warned_missing = true
      notify('cannot start the language server: ' .. why ..
        '. Install srcls or set server_path (see :checkhealth srcls and ' .. M.DOCS .. ').',
        vim.log.levels.ERROR)
    end
    return nil
  end
  local config = M.client_config(bufnr)
  local id
  if vim.lsp.start then
    id = vim.lsp.start(config, { bufnr = bufnr })
  else
    local client = live_client(state.clients[config.root_dir])
    id = client and client.id or vim.lsp.start_client(config)
    if id then
      state.clients[config.root_dir] = id
      vim.lsp.buf_attach_client(bufnr, id)
    end
  end
  if not id then
    notify('the language server (' .. table.concat(config.cmd, ' ') .. ') failed to start; ' ..
      'see :checkhealth srcls and :LspLog', vim.log.levels.ERROR)
  end
  return id
end

--- The running srcls clients.
function M.clients()
  local out = {}
  for _, client in pairs(get_clients()) do
    if client.name == 'srcls' then
      table.insert(out, client)
    end
  end
  return out
end

--- The buffers that have the srcls filetype.
function M.buffers()
  local out = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].filetype == options.filetype then
      table.insert(out, b)
    end
  end
  return out
end

--- Changes severities and types and sends them to the running servers, which recompute the
--- diagnostics; `new` has the shape of setup()'s `severity`, `types` and `review_base` options
--- (review_base = "" turns the review off).
function M.update_settings(new)
  options = vim.tbl_extend('force', options, {
    severity = new.severity ~= nil and new.severity or options.severity,
    types = new.types ~= nil and new.types or options.types,
  })
  if new.review_base ~= nil then
    options.review_base = new.review_base
  end
  local settings, problems = M.settings()
  for _, p in ipairs(problems) do
    notify(p)
  end
  for _, client in ipairs(M.clients()) do
    client.config.settings = settings
    client_call(client, 'notify', 'workspace/didChangeConfiguration', { settings = settings })
  end
  return settings
end

--- Stops the servers and attaches every srcls buffer again (after installing a new binary).
function M.restart()
  local buffers = M.buffers()
  local clients = M.clients()
  for _, client in ipairs(clients) do
    client_call(client, 'stop')
  end
  state.clients = {}
  state.warned_missing = false
  local ok = vim.wait(5000, function()
    for _, client in ipairs(clients) do
      if not client_call(client, 'is_stopped') then
        return false
      end
    end
    return true
  end, 50)
  if not ok then
    for _, client in ipairs(clients) do
      client_call(client, 'stop', true)
    end
  end
  for _, b in ipairs(buffers) do
    M.attach(b)
  end
end

local function detect_with_filetype_lua(ft)
  -- M.DEFAULT_FILES as Lua patterns (matched against the file name).
  local pattern = { ['.*%.source%.json'] = ft, ['.*%.job%.json'] = ft }
  -- The user's globs and the project files (srcls.json, kind files), through the same matcher
  -- as on 0.7; a positive priority so that the `json` extension does not win.
  pattern['.*%.json'] = {
    function(path)
      if state.matches(path) then
        return ft
      end
    end,
    { priority = 10 },
  }
  if #(options.files or {}) > 0 then
    pattern['.*'] = pattern['.*%.json']
  end
  vim.filetype.add({ pattern = pattern })
end

local function detect_with_autocmds(group, ft)
  vim.api.nvim_create_autocmd({ 'BufNewFile', 'BufRead' }, {
    group = group,
    pattern = '*',
    callback = function(args)
      if state.matches(vim.api.nvim_buf_get_name(args.buf)) then
        vim.bo[args.buf].filetype = ft
      end
    end,
  })
end

--- Whether filetype detection goes through vim.filetype.add (Neovim 0.8+, or 0.7 with
--- g:do_filetype_lua) rather than autocommands.
function M.uses_filetype_lua()
  return vim.filetype ~= nil and vim.filetype.add ~= nil
      and (has('nvim-0.8') or vim.g.do_filetype_lua == 1)
end

--- Sets srcls up: filetype detection, and (unless autostart = false) the server for every
--- buffer of that filetype, including those already open. Can be called again to change
--- options.
function M.setup(user)
  options = vim.tbl_deep_extend('force', vim.deepcopy(defaults), user or {})
  if user and user.files then
    options.files = user.files
  end
  local matches, bad = glob.matcher(M.files())
  state.matches = function(path)
    return matches(path) or M.is_project_file(path)
  end
  for _, p in ipairs(bad or {}) do
    notify('files: ' .. p)
  end
  local _, problems = M.settings()
  for _, p in ipairs(problems) do
    notify(p)
  end

  local group = vim.api.nvim_create_augroup('srcls', { clear = true })
  local ft = options.filetype
  if M.uses_filetype_lua() then
    detect_with_filetype_lua(ft)
  else
    detect_with_autocmds(group, ft)
  end
  if options.autostart then
    vim.api.nvim_create_autocmd('FileType', {
      group = group,
      pattern = ft,
      callback = function(args)
        -- With filetype = 'json' every JSON buffer fires this: attach only the served ones.
        if (ft ~= 'json' and ft ~= 'jsonc') or state.matches(vim.api.nvim_buf_get_name(args.buf)) then
          M.attach(args.buf)
        end
      end,
    })
  end

  vim.api.nvim_create_user_command('SrclsRestart', function()
    M.restart()
  end, { desc = 'Restart the srcls language server' })

  -- Buffers opened before setup() (a lazy-loaded plugin): detect and attach them now.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].buftype == '' then
      if vim.bo[b].filetype ~= ft and state.matches(vim.api.nvim_buf_get_name(b)) then
        vim.bo[b].filetype = ft -- fires FileType, which attaches
      elseif vim.bo[b].filetype == ft and options.autostart then
        M.attach(b)
      end
    end
  end
  return options
end

--- The options in force (after setup()).
function M.options()
  return options
end

--- The on_attach srcls uses (codes after messages, then the user's on_attach), for configs
--- that start the server some other way.
M.on_attach = on_attach

--- A configuration from the same options, for nvim-lspconfig (0.7 to 0.10):
---   require('lspconfig.configs').srcls = { default_config = require('srcls').lsp_config() }
--- or for vim.lsp.config (0.11+):
---   vim.lsp.config('srcls', require('srcls').lsp_config()); vim.lsp.enable('srcls')
--- root_dir answers both callers: lspconfig's (file name) -> root, and vim.lsp.config's
--- (bufnr, on_dir).
function M.lsp_config(user)
  local opts = vim.tbl_deep_extend('force', vim.deepcopy(options), user or {})
  local settings = M.settings(opts)
  return {
    cmd = M.cmd(opts),
    filetypes = { opts.filetype },
    root_dir = function(a, b)
      if type(a) == 'number' and type(b) == 'function' then
        b(M.root_dir(vim.api.nvim_buf_get_name(a), opts))
        return
      end
      return M.root_dir(type(a) == 'string' and a or vim.api.nvim_buf_get_name(a or 0), opts)
    end,
    single_file_support = true,
    settings = settings,
    init_options = settings,
    on_init = on_init,
    on_attach = on_attach,
  }
end

return M
