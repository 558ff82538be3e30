-- :checkhealth srcls — is the server found, does it run, does it answer `initialize`, and
-- what is set up in this Neovim.
local M = {}

local health = vim.health or require('health')
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local report_error = health.error or health.report_error
local info = health.info or health.report_info

local function frame(message)
  local body = vim.fn.json_encode(message)
  return string.format('Content-Length: %d\r\n\r\n%s', #body, body)
end

--- Runs `cmd` with an LSP initialize/shutdown/exit exchange. Returns the server's name and
--- version from the initialize result, or nil and what went wrong.
function M.handshake(cmd, timeout_ms)
  local out = {}
  local job = vim.fn.jobstart(cmd, {
    stdout_buffered = false,
    on_stdout = function(_, data)
      table.insert(out, table.concat(data, '\n'))
    end,
  })
  if job <= 0 then
    return nil, 'could not be started'
  end
  vim.fn.chansend(job, frame({ jsonrpc = '2.0', id = 1, method = 'initialize',
    params = { processId = vim.NIL, rootUri = vim.NIL, capabilities = vim.empty_dict() } }))
  local answered = vim.wait(timeout_ms or 3000, function()
    return table.concat(out):find('"id"%s*:%s*1') ~= nil
  end, 20)
  if answered then
    vim.fn.chansend(job, frame({ jsonrpc = '2.0', id = 2, method = 'shutdown' }))
    vim.fn.chansend(job, frame({ jsonrpc = '2.0', method = 'exit' }))
  end
  local status = vim.fn.jobwait({ job }, 2000)[1]
  if status == -1 then
    vim.fn.jobstop(job)
  end
  local text = table.concat(out)
  if not answered then
    if status >= 0 then
      return nil, string.format('exited with status %d before answering initialize', status)
    end
    return nil, 'did not answer initialize in time'
  end
  local body = text:match('\r\n\r\n(.*)$') or text
  local decoded_ok, decoded = pcall(vim.fn.json_decode, body:match('^(%b{})') or body)
  if not decoded_ok or type(decoded) ~= 'table' then
    return nil, 'answered initialize with something that is not JSON'
  end
  if decoded.error then
    return nil, 'answered initialize with an error: ' .. tostring(decoded.error.message)
  end
  local server = decoded.result and decoded.result.serverInfo or {}
  return string.format('%s %s', server.name or 'srcls', server.version or ''), nil
end

function M.check()
  local srcls = require('srcls')
  local opts = srcls.options()

  start('srcls: the language server')
  local cmd = srcls.cmd(opts)
  local path, why = srcls.find_server(opts)
  if not path then
    report_error('the server was not found: ' .. why, {
      'Install srcls (:MasonInstall srcls, npm install -g srcls, or meson install -C build)',
      'so that `srcls` is on PATH or in Mason\'s bin folder,',
      'or call require("srcls").setup({ server_path = "/path/to/srcls" }).',
      'See ' .. srcls.DOCS .. '.',
    })
    return
  end
  ok('found: ' .. path)

  local version = vim.fn.system({ path, '--version' })
  if vim.v.shell_error ~= 0 then
    report_error(string.format('`%s --version` failed (status %d): %s', path, vim.v.shell_error, vim.trim(version)))
    return
  end
  ok('runs: ' .. vim.trim(version))

  local run = vim.deepcopy(cmd)
  run[1] = path
  local server, failure = M.handshake(run, 3000)
  if server then
    ok('answers the language server protocol: `' .. table.concat(cmd, ' ') .. '` (' .. vim.trim(server) .. ')')
  else
    report_error('`' .. table.concat(cmd, ' ') .. '` ' .. failure, {
      'This srcls may be too old to include the language server; build a newer one.',
    })
  end

  start('srcls: this Neovim')
  if vim.version then
    local v = vim.version()
    info(string.format('Neovim %d.%d.%d; %s; filetype detection through %s', v.major, v.minor, v.patch,
      vim.lsp.start and 'vim.lsp.start' or 'vim.lsp.start_client',
      srcls.uses_filetype_lua() and 'vim.filetype.add' or 'autocommands'))
  end
  info('files: ' .. table.concat(srcls.files(opts), ', ') .. ' (filetype ' .. opts.filetype .. ')')
  local _, problems = srcls.settings(opts)
  if #problems == 0 then
    ok('settings: ' .. vim.fn.json_encode((srcls.settings(opts))))
  else
    for _, p in ipairs(problems) do
      warn('settings: ' .. p)
    end
  end
  local clients = srcls.clients()
  if #clients == 0 then
    info('no srcls client is running (open a *.source.json or *.job.json file)')
  else
    for _, client in ipairs(clients) do
      ok(string.format('client %d running for %s', client.id, client.config.root_dir or '(no root)'))
    end
  end
end

return M
