-- Globs as the VS Code extension reads them (`**/*.source.json`, `*.src.json`,
-- `deploy/{sources,jobs}/*.json`), turned into Vim regexes matched against a full path, so
-- both editors serve the same files for the same settings.
--
-- `**/` is any number of folders, `**` anything, `*` anything but `/`, `?` one character but
-- `/`, `[...]` a character class, `{a,b}` either. A glob is matched at the end of the path, on
-- whole path components: `*.src.json` and `deploy/*.json` match at any depth, as in VS Code's
-- `files.associations`; a glob starting with `/` is anchored at the root.
local M = {}

-- The characters that mean something in a very-magic Vim regex.
local SPECIAL = '.+=@%{}()<>~|&^$[]*?\\'

local function escape(c)
  if SPECIAL:find(c, 1, true) then
    return '\\' .. c
  end
  return c
end

--- The very-magic Vim regex for `glob`, or nil and a reason.
function M.to_regex(glob)
  if type(glob) ~= 'string' then
    return nil, 'a glob must be a string'
  end
  local g = vim.trim(glob):gsub('\\', '/')
  if g == '' then
    return nil, 'an empty glob matches nothing'
  end
  if g:sub(1, 2) == './' then
    g = g:sub(3)
  end
  local anchored = g:sub(1, 1) == '/'
  local out = {}
  local i, n, braces = 1, #g, 0
  while i <= n do
    local c = g:sub(i, i)
    if c == '*' then
      if g:sub(i + 1, i + 1) == '*' then
        if g:sub(i + 2, i + 2) == '/' then
          table.insert(out, '(.*/)?')
          i = i + 3
        else
          table.insert(out, '.*')
          i = i + 2
        end
      else
        table.insert(out, '[^/]*')
        i = i + 1
      end
    elseif c == '?' then
      table.insert(out, '[^/]')
      i = i + 1
    elseif c == '[' then
      local close = g:find(']', i + 2, true)
      if not close then
        return nil, 'unclosed [ in ' .. glob
      end
      local class = g:sub(i + 1, close - 1):gsub('^!', '^')
      table.insert(out, '[' .. class .. ']')
      i = close + 1
    elseif c == '{' then
      braces = braces + 1
      table.insert(out, '(')
      i = i + 1
    elseif c == '}' and braces > 0 then
      braces = braces - 1
      table.insert(out, ')')
      i = i + 1
    elseif c == ',' and braces > 0 then
      table.insert(out, '|')
      i = i + 1
    else
      table.insert(out, escape(c))
      i = i + 1
    end
  end
  if braces > 0 then
    return nil, 'unclosed { in ' .. glob
  end
  local body = table.concat(out)
  return '\\v' .. (anchored and '^' or '(^|/)') .. body .. '$'
end

--- A matcher for a list of globs: a function(path) -> boolean, and the reasons any glob was
--- left out (nil when none was).
function M.matcher(globs)
  local regexes, problems = {}, {}
  for _, glob in ipairs(globs or {}) do
    local re, why = M.to_regex(glob)
    local ok, compiled = false, nil
    if re then
      ok, compiled = pcall(vim.regex, re)
      if not ok then
        why = 'invalid glob ' .. glob
      end
    end
    if ok then
      table.insert(regexes, compiled)
    else
      table.insert(problems, why)
    end
  end
  local function matches(path)
    if type(path) ~= 'string' or path == '' then
      return false
    end
    path = path:gsub('\\', '/')
    for _, re in ipairs(regexes) do
      if re:match_str(path) then
        return true
      end
    end
    return false
  end
  return matches, (#problems > 0 and problems or nil)
end

return M
