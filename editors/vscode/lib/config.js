// The extension's own logic, kept free of the `vscode` module so that it runs (and is tested)
// under plain Node: where the server binary is, which documents it serves, and what settings
// and initialization options it is sent. extension.js only wires these into VS Code.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const childProcess = require('child_process');
const { matchesAny } = require('./glob');

/** The files srcls serves whatever the user sets: data-source and job documents. */
const DEFAULT_GLOBS = Object.freeze(['**/*.source.json', '**/*.job.json']);

/** The severities a code can be set to (`off` drops the diagnostic). */
const SEVERITIES = Object.freeze(['error', 'warning', 'information', 'hint', 'off']);

/** Where the README's "Installing the server" section is, for the error messages' button. */
const DOCS_ANCHOR = 'installing-the-server';

/**
 * Normalises a user glob: trims it, turns `\` into `/`, and anchors a bare file pattern
 * (`*.src.json`, no `/`) at any depth (`**\/*.src.json`) as `files.associations` does.
 * Returns null for anything that is not a non-empty string.
 */
function normalizeGlob(glob) {
  if (typeof glob !== 'string') return null;
  let g = glob.trim().replace(/\\/g, '/');
  if (g === '') return null;
  if (g.startsWith('./')) g = g.slice(2);
  if (!g.includes('/')) g = '**/' + g;
  return g;
}

/** The default globs followed by the user's extra ones, normalised and without repeats. */
function fileGlobs(extraGlobs) {
  const out = [];
  const extras = Array.isArray(extraGlobs) ? extraGlobs : [];
  for (const g of [...DEFAULT_GLOBS, ...extras]) {
    const n = normalizeGlob(g);
    if (n !== null && !out.includes(n)) out.push(n);
  }
  return out;
}

/** The project's own files, which srcls lints, completes and hovers too: its configuration. */
const PROJECT_GLOBS = Object.freeze(['**/srcls.json']);

/**
 * The globs of the kind files of some srcls.json files (`configs`: `{ path, text }` each, the
 * path absolute): for each directory a srcls.json names in `"schemas"` (relative to it, or
 * absolute), `DIR/*.json`, with `/` separators. A srcls.json that is not valid JSON, or whose
 * `"schemas"` is not an array of strings, adds nothing (the server reports its mistakes).
 */
function kindFileGlobs(configs) {
  const out = [];
  for (const c of Array.isArray(configs) ? configs : []) {
    let parsed;
    try {
      parsed = JSON.parse(c.text);
    } catch {
      continue;
    }
    const schemas = parsed && Array.isArray(parsed.schemas) ? parsed.schemas : [];
    for (const dir of schemas) {
      if (typeof dir !== 'string' || dir.trim() === '') continue;
      const base = path.dirname(c.path);
      const abs = path.isAbsolute(dir) ? dir : path.join(base, dir);
      const glob = path.normalize(abs).replace(/\\/g, '/').replace(/\/$/, '') + '/*.json';
      if (!out.includes(glob)) out.push(glob);
    }
  }
  return out;
}

/**
 * The language srcls's documents are given: JSON's grammar and editing rules under an id of its
 * own, so that VS Code's built-in JSON language features (its validation, completion, hover,
 * outline), which serve the languages `json` and `jsonc` only, leave these documents to srcls.
 */
const LANGUAGE_ID = 'srcls-json';

/** The languages of an untitled document that srcls serves: it has no name to match a glob. */
const UNTITLED_LANGUAGES = Object.freeze(['json', 'jsonc']);

/** The languages a file on disk may have before the extension gives it LANGUAGE_ID. */
const ADOPTED_LANGUAGES = Object.freeze(['json', 'jsonc']);

/**
 * The client's documentSelector: documents of the srcls language, on disk or untitled (every
 * file srcls serves gets it, from the manifest's file name patterns or from adoptLanguage), and
 * every untitled JSON document, so that a source pasted into a new editor is checked before it
 * is saved (untitledDiagnostics keeps the others quiet).
 */
function documentSelector() {
  return [
    { scheme: 'file', language: LANGUAGE_ID },
    { scheme: 'untitled', language: LANGUAGE_ID },
    ...UNTITLED_LANGUAGES.map((language) => ({ scheme: 'untitled', language })),
  ];
}

/**
 * Whether the user's `files.associations` give this file JSON on purpose: a pattern mapped to
 * `json` or `jsonc` that matches it and would not match any JSON file in its folder (so
 * `"*.source.json": "json"` counts, `"*.json": "jsonc"` does not).
 */
function associatedWithJson(associations, fsPath, relativePath) {
  if (!associations || typeof associations !== 'object') return false;
  const abs = String(fsPath).replace(/\\/g, '/');
  const anyJson = abs.replace(/[^/]*$/, 'x.json');
  const anyJsonRel = typeof relativePath === 'string' ? relativePath.replace(/\\/g, '/').replace(/[^/]*$/, 'x.json') : undefined;
  return Object.entries(associations).some(([pattern, language]) => {
    if (!ADOPTED_LANGUAGES.includes(language)) return false;
    const glob = normalizeGlob(pattern);
    return glob !== null && matchesAny([glob], fsPath, relativePath) && !matchesAny([glob], anyJson, anyJsonRel);
  });
}

/**
 * Whether a document should be switched to LANGUAGE_ID: a file on disk that VS Code opened as
 * JSON and that srcls serves — the documents' globs and the user's (`extraGlobs`), srcls.json,
 * and the kind files of its "schemas" (`kindGlobs`) — unless the user's `files.associations`
 * (`associations`) made it JSON on purpose. `document`: { scheme, languageId, fsPath,
 * relativePath } (relativePath: from its workspace folder, when it is in one).
 */
function adoptLanguage(document, extraGlobs, kindGlobs, associations) {
  if (!document || document.scheme !== 'file' || !ADOPTED_LANGUAGES.includes(document.languageId)) {
    return false;
  }
  const globs = [...fileGlobs(extraGlobs), ...PROJECT_GLOBS, ...(Array.isArray(kindGlobs) ? kindGlobs : [])];
  return matchesAny(globs, document.fsPath, document.relativePath) &&
    !associatedWithJson(associations, document.fsPath, document.relativePath);
}

/** A diagnostic's code as a string, whether it is plain or VS Code's `{ value, target }`. */
function diagnosticCode(diagnostic) {
  const code = diagnostic && diagnostic.code;
  return code !== null && typeof code === 'object' ? String(code.value) : String(code);
}

/**
 * The diagnostics to show for an untitled document: the server says `unknown-document` of any
 * JSON that is neither a source nor a job, which every scratch JSON buffer would then carry;
 * untitled buffers are served in case they hold one, so that warning is dropped there.
 */
function untitledDiagnostics(diagnostics) {
  return diagnostics.filter((d) => diagnosticCode(d) !== 'unknown-document');
}

/**
 * Keeps the severity overrides the server understands: code → one of SEVERITIES (any case).
 * Returns { severity, problems } where problems names every entry that was dropped.
 */
function sanitizeSeverity(value) {
  const severity = {};
  const problems = [];
  if (value === undefined || value === null) return { severity, problems };
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push('srcls.severity must be an object mapping a diagnostic code to a severity');
    return { severity, problems };
  }
  for (const [code, level] of Object.entries(value)) {
    const l = typeof level === 'string' ? level.trim().toLowerCase() : level;
    if (code.trim() === '') {
      problems.push('srcls.severity: an empty diagnostic code was ignored');
    } else if (!SEVERITIES.includes(l)) {
      problems.push(`srcls.severity: "${code}" is set to ${JSON.stringify(level)}; ` +
        `use one of ${SEVERITIES.join(', ')}`);
    } else {
      severity[code.trim()] = l;
    }
  }
  return { severity, problems };
}

/** Keeps the extra type identifiers that map a non-empty name onto a non-empty string. */
function sanitizeTypes(value) {
  const types = {};
  const problems = [];
  if (value === undefined || value === null) return { types, problems };
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push('srcls.types must be an object mapping an identifier to a canonical type');
    return { types, problems };
  }
  for (const [id, canonical] of Object.entries(value)) {
    if (id.trim() === '' || typeof canonical !== 'string' || canonical.trim() === '') {
      problems.push(`srcls.types: "${id}" must map to a canonical type identifier (a string)`);
    } else {
      types[id.trim()] = canonical.trim();
    }
  }
  return { types, problems };
}

/**
 * srcls.maxDiagnostics when it is a whole number from 0 (no limit) up, else undefined (the
 * server's default, 1000) with a problem when it was set to something else.
 */
function sanitizeMaxDiagnostics(value) {
  if (value === undefined || value === null) return { maxDiagnostics: undefined, problems: [] };
  if (Number.isInteger(value) && value >= 0 && value <= 0xffffffff) return { maxDiagnostics: value, problems: [] };
  return {
    maxDiagnostics: undefined,
    problems: [`srcls.maxDiagnostics is set to ${JSON.stringify(value)}; use a whole number, 0 for no limit`],
  };
}

/**
 * srcls.reviewBase when it is a revision git can be asked about (no leading '-', no line
 * break, at most 200 characters), else undefined (off) with a problem when it was set to
 * something else; empty means off.
 */
function sanitizeReviewBase(value) {
  if (value === undefined || value === null || value === '') return { reviewBase: undefined, problems: [] };
  if (typeof value === 'string' && value.trim() !== '' && !value.startsWith('-') && !/[\r\n]/.test(value) && value.length <= 200) {
    return { reviewBase: value.trim(), problems: [] };
  }
  return {
    reviewBase: undefined,
    problems: [`srcls.reviewBase is set to ${JSON.stringify(value)}; use a git revision such as "HEAD" or "origin/main", or leave it empty`],
  };
}

/**
 * The settings the server reads, from the `srcls` configuration section (a plain object or
 * anything with get(key)): `{ srcls: { severity, types, maxDiagnostics, reviewBase } }`
 * (maxDiagnostics and reviewBase only when set), the shape it takes in
 * workspace/didChangeConfiguration. Returns { settings, problems }.
 */
function serverSettings(section) {
  const get = readerOf(section);
  const s = sanitizeSeverity(get('severity'));
  const t = sanitizeTypes(get('types'));
  const m = sanitizeMaxDiagnostics(get('maxDiagnostics'));
  const r = sanitizeReviewBase(get('reviewBase'));
  const srcls = { severity: s.severity, types: t.types };
  if (m.maxDiagnostics !== undefined) srcls.maxDiagnostics = m.maxDiagnostics;
  if (r.reviewBase !== undefined) srcls.reviewBase = r.reviewBase;
  return {
    settings: { srcls },
    problems: [...s.problems, ...t.problems, ...m.problems, ...r.problems],
  };
}

/**
 * The answer to a workspace/configuration request: the `srcls` section (or the whole settings
 * object for an item without a section), null for any section that is not ours.
 */
function configurationResponse(items, settings) {
  return (items || []).map((item) => {
    const section = item && typeof item.section === 'string' ? item.section : '';
    if (section === '') return settings;
    let value = settings;
    for (const part of section.split('.')) {
      if (value === null || typeof value !== 'object' || !(part in value)) return null;
      value = value[part];
    }
    return value;
  });
}

/**
 * Everything LanguageClient needs besides the server command, from the `srcls` section:
 * documentSelector, initializationOptions (the same settings the server is later sent) and the
 * problems found in the settings.
 */
function clientOptions(section) {
  const { settings, problems } = serverSettings(section);
  return {
    documentSelector: documentSelector(),
    initializationOptions: settings,
    settings,
    problems,
  };
}

/** Whether a configuration change (`affects(section)`) needs the server to be restarted. */
function needsRestart(affects) {
  return affects('srcls.serverPath');
}

/** Whether the change alters which files are srcls documents (their language is set again). */
function needsLanguageUpdate(affects) {
  return affects('srcls.files');
}

/** Whether the change only alters settings that are sent to the running server. */
function needsSettingsUpdate(affects) {
  return affects('srcls.severity') || affects('srcls.types') || affects('srcls.maxDiagnostics') ||
    affects('srcls.reviewBase');
}

function readerOf(section) {
  if (section && typeof section.get === 'function') return (key) => section.get(key);
  const obj = section || {};
  return (key) => obj[key];
}

function defaultIsExecutable(file) {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return false;
    if (process.platform === 'win32') return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Expands what a user may write in srcls.serverPath: a leading `~`, `${userHome}`,
 * `${workspaceFolder}` (the first folder, when there is one) and `${env:NAME}`. A relative
 * result is taken from the workspace folder. Returns null when the setting is empty.
 */
function expandServerPath(value, { workspaceFolder, home = os.homedir(), env = process.env } = {}) {
  if (typeof value !== 'string' || value.trim() === '') return null;
  let p = value.trim();
  if (p === '~' || p.startsWith('~/') || p.startsWith('~\\')) p = home + p.slice(1);
  p = p.replace(/\$\{userHome\}/g, home);
  p = p.replace(/\$\{env:([^}]+)\}/g, (_, name) => env[name] || '');
  if (workspaceFolder) p = p.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  if (!path.isAbsolute(p) && (p.includes('/') || p.includes('\\')) && workspaceFolder) {
    p = path.join(workspaceFolder, p);
  }
  return p;
}

/**
 * Makes a bundled binary executable when the .vsix was unpacked without its mode bits.
 * Returns whether it is executable afterwards.
 */
function defaultMakeExecutable(file, isExecutable) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.chmodSync(file, 0o755);
  } catch {
    return false;
  }
  return isExecutable(file);
}

/** The file names srcls may have on this platform. */
function executableNames(platform, env) {
  if (platform !== 'win32') return ['srcls'];
  const exts = (env.PATHEXT || '.EXE;.CMD;.BAT').split(';').filter(Boolean);
  return exts.map((e) => 'srcls' + e.toLowerCase());
}

/** Looks for `name` in each directory of a PATH string. Returns the first executable. */
function searchPath(names, envPath, platform, isExecutable) {
  const sep = platform === 'win32' ? ';' : ':';
  for (const dir of (envPath || '').split(sep)) {
    if (dir === '') continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * The WebAssembly server shipped in bin/wasm/ (srcls-wasm.mjs, which runs srcls.wasm under
 * Node's WASI), for platforms the .vsix has no native binary for. It runs on the editor's own
 * Node: `nodePath` (VS Code's executable, process.execPath) with ELECTRON_RUN_AS_NODE=1. Node
 * 20 and 18.17 on expose node:wasi as they are; an older 18 (VS Code 1.82 to 1.85 run 18.15)
 * only with --experimental-wasi-unstable-preview1, which later ones still accept as a no-op
 * (there is no --experimental-wasi-unflagged: Node 18 refuses to start with it). Returns
 * { path, source: 'bundled-wasm', command, args, env } or null when it is not shipped.
 */
function bundledWasm(extensionPath, nodePath, nodeVersion, exists = fs.existsSync) {
  const dir = path.join(extensionPath, 'bin', 'wasm');
  const runner = path.join(dir, 'srcls-wasm.mjs');
  if (!exists(runner) || !exists(path.join(dir, 'srcls.wasm'))) return null;
  const major = Number(String(nodeVersion).split('.')[0]);
  const flags = major < 20 ? ['--experimental-wasi-unstable-preview1'] : [];
  return {
    path: runner,
    source: 'bundled-wasm',
    command: nodePath,
    args: [...flags, runner],
    env: { ELECTRON_RUN_AS_NODE: '1' },
  };
}

/** The `prefix` an ~/.npmrc sets (npm's global prefix), or null. */
function npmrcPrefix(text, home) {
  const m = /^\s*prefix\s*=\s*(.+?)\s*$/m.exec(text || '');
  if (!m) return null;
  const value = m[1].replace(/^["']|["']$/g, '');
  return value.startsWith('~') ? home + value.slice(1) : value;
}

/**
 * The folders where people install srcls, searched after PATH: an editor started from a desktop
 * menu, and the server host of code-server or remote VS Code (which takes its environment from
 * a login shell, or from none), often has a PATH without the folders an interactive shell adds.
 * In order: the user's own folders (~/.local/bin, where pip, pipx and `meson install
 * --prefix ~/.local` put programs; ~/bin), npm's global prefix ($NPM_CONFIG_PREFIX, ~/.npmrc's
 * prefix, ~/.npm-global), Neovim's Mason, then the system's (/usr/local/bin: `meson install`;
 * Homebrew on Apple silicon and on Linux; /usr/bin: distribution packages).
 */
function installDirs({ platform = process.platform, home = os.homedir(), env = process.env,
  readFile = (f) => fs.readFileSync(f, 'utf8') } = {}) {
  const dirs = [];
  const add = (d) => { if (d && !dirs.includes(d)) dirs.push(d); };
  let npmrc = null;
  try {
    npmrc = npmrcPrefix(readFile(path.join(home, '.npmrc')), home);
  } catch {
    // no ~/.npmrc
  }
  if (platform === 'win32') {
    const appData = env.APPDATA || path.join(home, 'AppData', 'Roaming');
    const localAppData = env.LOCALAPPDATA || path.join(home, 'AppData', 'Local');
    add(env.NPM_CONFIG_PREFIX || env.npm_config_prefix);
    add(npmrc);
    add(path.join(appData, 'npm'));
    add(path.join(localAppData, 'nvim-data', 'mason', 'bin'));
    add(path.join(home, '.local', 'bin'));
    return dirs;
  }
  const dataHome = env.XDG_DATA_HOME || path.join(home, '.local', 'share');
  add(path.join(home, '.local', 'bin'));
  add(path.join(home, 'bin'));
  const npmPrefix = env.NPM_CONFIG_PREFIX || env.npm_config_prefix;
  if (npmPrefix) add(path.join(npmPrefix, 'bin'));
  if (npmrc) add(path.join(npmrc, 'bin'));
  add(path.join(home, '.npm-global', 'bin'));
  add(path.join(dataHome, 'nvim', 'mason', 'bin'));
  add('/usr/local/bin');
  add('/opt/homebrew/bin');
  add('/home/linuxbrew/.linuxbrew/bin');
  add('/usr/bin');
  return dirs;
}

/**
 * Finds the server: the srcls.serverPath setting if set (a path, or a bare command name looked
 * up on PATH; no fallback when it is wrong, so the user learns it is wrong), else the binary
 * shipped in the extension's bin/ folder for this platform (the platform .vsix files carry one,
 * built with the extension), else `srcls` on PATH, else in the usual install folders
 * (installDirs), else the WebAssembly server shipped in bin/wasm/ (run by the editor's Node, see
 * bundledWasm).
 *
 * Returns { path, source: 'setting' | 'bundled' | 'path' | 'install-dir' } (run `path` itself),
 * or { path, source: 'bundled-wasm', command, args, env } (run `command` with `args` first and
 * `env` added), or { path: null, error, tried: [places looked at] }; the error names them.
 */
function findServer({
  configured,
  workspaceFolder,
  extensionPath,
  env = process.env,
  platform = process.platform,
  arch = process.arch,
  home = os.homedir(),
  isExecutable = defaultIsExecutable,
  makeExecutable = defaultMakeExecutable,
  nodePath = process.execPath,
  nodeVersion = process.versions.node,
  readFile,
} = {}) {
  const names = executableNames(platform, env);
  const expanded = expandServerPath(configured, { workspaceFolder, home, env });
  if (expanded !== null) {
    const bare = !expanded.includes('/') && !expanded.includes('\\');
    if (bare) {
      const found = searchPath([expanded], env.PATH, platform, isExecutable);
      if (found) return { path: found, source: 'setting' };
      return {
        path: null,
        tried: [`${expanded} on PATH`],
        error: `srcls.serverPath is "${configured}", but no executable of that name is on PATH.`,
      };
    }
    if (isExecutable(expanded)) return { path: expanded, source: 'setting' };
    return {
      path: null,
      tried: [expanded],
      error: `srcls.serverPath is "${configured}", but ${expanded} is not an executable file.`,
    };
  }

  const tried = [];
  const dirs = extensionPath
    ? [path.join(extensionPath, 'bin', `${platform}-${arch}`), path.join(extensionPath, 'bin')] : [];
  for (const dir of dirs) {
    tried.push(dir);
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return { path: candidate, source: 'bundled' };
      if (platform !== 'win32' && fs.existsSync(candidate) && makeExecutable(candidate, isExecutable)) {
        return { path: candidate, source: 'bundled' };
      }
    }
  }

  tried.push(`PATH (${env.PATH || 'empty'})`);
  const onPath = searchPath(names, env.PATH, platform, isExecutable);
  if (onPath) return { path: onPath, source: 'path' };

  for (const dir of installDirs({ platform, home, env, ...(readFile ? { readFile } : {}) })) {
    tried.push(dir);
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return { path: candidate, source: 'install-dir' };
    }
  }

  if (extensionPath) {
    const wasm = bundledWasm(extensionPath, nodePath, nodeVersion);
    tried.push(path.join(extensionPath, 'bin', 'wasm'));
    if (wasm) return wasm;
  }
  return {
    path: null,
    tried,
    error: 'The srcls language server was not found. Looked in: ' + tried.join(', ') +
      '. Install srcls in one of these folders or set srcls.serverPath.',
  };
}

/**
 * The command line of a server findServer found: { command, args, options } for
 * vscode-languageclient's Executable, `extra` (e.g. --stdio) after the server's own arguments.
 */
function serverCommand(found, extra = []) {
  if (!found.command) return { command: found.path, args: [...extra] };
  return {
    command: found.command,
    args: [...(found.args || []), ...extra],
    options: { env: { ...process.env, ...(found.env || {}) } },
  };
}

/**
 * Runs `server --version` to learn whether the server starts at all, before the client is
 * started with it. `server` is a path, or what findServer returned (a WebAssembly server is run
 * by its command). Returns { ok: true, version } or { ok: false, error }.
 */
function probeServer(server, { timeoutMs = 5000, spawnSync = childProcess.spawnSync } = {}) {
  const found = typeof server === 'string' ? { path: server } : server;
  const serverPath = found.path;
  const run = serverCommand(found, ['--version']);
  let r;
  try {
    r = spawnSync(run.command, run.args, { encoding: 'utf8', timeout: timeoutMs, ...(run.options || {}) });
  } catch (e) {
    return { ok: false, error: `${serverPath} could not be run: ${e.message}` };
  }
  if (r.error) {
    const why = r.error.code === 'ETIMEDOUT'
      ? `did not answer --version within ${timeoutMs} ms`
      : `could not be run: ${r.error.message}`;
    return { ok: false, error: `${serverPath} ${why}` };
  }
  if (r.status !== 0) {
    const detail = (r.stderr || r.stdout || '').trim().split('\n')[0];
    const how = r.signal ? `was killed by ${r.signal}` : `exited with status ${r.status}`;
    return { ok: false, error: `${serverPath} --version ${how}${detail ? `: ${detail}` : ''}` };
  }
  return { ok: true, version: (r.stdout || '').trim() };
}

module.exports = {
  DEFAULT_GLOBS,
  SEVERITIES,
  DOCS_ANCHOR,
  normalizeGlob,
  fileGlobs,
  LANGUAGE_ID,
  documentSelector,
  adoptLanguage,
  kindFileGlobs,
  untitledDiagnostics,
  sanitizeSeverity,
  sanitizeTypes,
  sanitizeMaxDiagnostics,
  sanitizeReviewBase,
  serverSettings,
  configurationResponse,
  clientOptions,
  needsRestart,
  needsLanguageUpdate,
  needsSettingsUpdate,
  expandServerPath,
  executableNames,
  findServer,
  installDirs,
  bundledWasm,
  serverCommand,
  probeServer,
};
