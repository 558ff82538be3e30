// lib/config.js: finding the server, the document selector and the settings sent to it.
// Runs under plain Node (`node --test`); files and processes are real, in a temporary folder.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const config = require('../lib/config');

const repoBinary = path.resolve(__dirname, '..', '..', '..', 'build', 'server', 'srcls');
const srclsBinary = process.env.SRCLS_BINARY || (fs.existsSync(repoBinary) ? repoBinary : null);

function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-vscode-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// An isExecutable that sees only the files under `dir`, so that a srcls installed on this
// machine (/usr/local/bin, ~/.local/bin, ...) does not change what a test finds.
function onlyUnder(dir) {
  return (f) => {
    if (!f.startsWith(dir + path.sep)) return false;
    try {
      fs.accessSync(f, fs.constants.X_OK);
      return fs.statSync(f).isFile();
    } catch {
      return false;
    }
  };
}

function script(dir, rel, body, mode = 0o755) {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(file, mode);
  return file;
}

test('file globs: the defaults come first, then the user globs, normalised and deduplicated', () => {
  assert.deepEqual(config.fileGlobs(undefined), ['**/*.source.json', '**/*.job.json']);
  assert.deepEqual(
    config.fileGlobs(['*.src.json', 'sources/**/*.json', './jobs/*.json', ' **/*.job.json ',
      '*.src.json', '', '   ', 42, null, 'win\\dir\\*.json']),
    ['**/*.source.json', '**/*.job.json', '**/*.src.json', 'sources/**/*.json', 'jobs/*.json',
      'win/dir/*.json']);
  assert.deepEqual(config.fileGlobs('not-an-array'), ['**/*.source.json', '**/*.job.json']);
});

test('document selector: the srcls language, on disk and untitled, and untitled JSON; no file globs', () => {
  assert.equal(config.LANGUAGE_ID, 'srcls-json');
  assert.deepEqual(config.documentSelector(), [
    { scheme: 'file', language: 'srcls-json' },
    { scheme: 'untitled', language: 'srcls-json' },
    { scheme: 'untitled', language: 'json' },
    { scheme: 'untitled', language: 'jsonc' },
  ]);
  // no filter would let a json or jsonc file through: VS Code's JSON support serves those
  for (const f of config.documentSelector()) assert.ok(f.scheme === 'untitled' || f.language === 'srcls-json');
});

test('adopting a document: a JSON file on disk matching the globs, srcls.json or a kind folder gets the srcls language', () => {
  const doc = (fsPath, extra = {}) => ({ scheme: 'file', languageId: 'json', fsPath, ...extra });
  const extra = ['*.src.json', 'deploy/sources/*.json'];
  const kinds = ['/repo/team/kinds/*.json'];
  const adopt = (d) => config.adoptLanguage(d, extra, kinds);
  assert.equal(adopt(doc('/repo/lake.source.json')), true); // when files.associations made it json
  assert.equal(adopt(doc('/repo/a/b/x.job.json', { languageId: 'jsonc' })), true);
  assert.equal(adopt(doc('/repo/a/one.src.json')), true);
  assert.equal(adopt(doc('/repo/deploy/sources/s3.json', { relativePath: 'deploy/sources/s3.json' })), true);
  assert.equal(adopt(doc('/repo/deploy/sources/s3.json')), false, 'a relative glob needs the workspace-relative path');
  assert.equal(adopt(doc('/repo/other/deploy/sources/s3.json', { relativePath: 'other/deploy/sources/s3.json' })), false);
  assert.equal(adopt(doc('/repo/team/srcls.json')), true);
  assert.equal(adopt(doc('/repo/team/kinds/queue.json')), true);
  assert.equal(adopt(doc('/repo/team/kinds/sub/queue.json')), false, 'kind files are directly in the folder');
  assert.equal(adopt(doc('/repo/package.json')), false);
  assert.equal(adopt(doc('/repo/tsconfig.json', { languageId: 'jsonc' })), false);
  assert.equal(adopt(doc('/repo/lake.source.json', { languageId: 'srcls-json' })), false, 'already ours');
  assert.equal(adopt(doc('/repo/lake.source.json', { languageId: 'plaintext' })), false, 'the user chose another language');
  assert.equal(adopt({ scheme: 'git', languageId: 'json', fsPath: '/repo/lake.source.json' }), false);
  assert.equal(adopt(doc('C:\\repo\\one.src.json')), true, 'Windows separators');
  assert.equal(config.adoptLanguage(undefined, extra, kinds), false);
  // files.associations: a broad one (all JSON as jsonc) is no choice against srcls; a pattern
  // that names these files is
  const assoc = (associations, d) => config.adoptLanguage(d, extra, kinds, associations);
  assert.equal(assoc({ '*.json': 'jsonc' }, doc('/repo/lake.source.json', { languageId: 'jsonc' })), true);
  assert.equal(assoc({ '**/*.json': 'json' }, doc('/repo/a/one.src.json')), true);
  assert.equal(assoc({ '*.source.json': 'json' }, doc('/repo/lake.source.json')), false);
  assert.equal(assoc({ 'lake.source.json': 'jsonc' }, doc('/repo/lake.source.json', { languageId: 'jsonc' })), false);
  assert.equal(assoc({ '*.source.json': 'yaml' }, doc('/repo/lake.source.json')), true);
  assert.equal(assoc({ 'team/kinds/queue.json': 'json' },
    doc('/repo/team/kinds/queue.json', { relativePath: 'team/kinds/queue.json' })), false);
  assert.equal(assoc('nonsense', doc('/repo/lake.source.json')), true);
});

test('globs: ** spans folders, * and ? do not, {a,b} and [abc] as in VS Code', () => {
  const { globToRegExp, matchesAny } = require('../lib/glob');
  const yes = (g, p) => assert.ok(globToRegExp(g).test(p), `${g} matches ${p}`);
  const no = (g, p) => assert.ok(!globToRegExp(g).test(p), `${g} does not match ${p}`);
  yes('**/*.src.json', 'a.src.json');
  yes('**/*.src.json', '/x/y/a.src.json');
  no('**/*.src.json', '/x/y/a.src.jsonc');
  no('**/*.src.json', '/x/y/asrc.json');
  yes('sources/**/*.json', 'sources/a/b/c.json');
  yes('sources/**/*.json', 'sources/c.json');
  no('sources/*.json', 'sources/a/c.json');
  yes('**/conf/*.{source,job}.json', '/r/conf/x.job.json');
  no('**/conf/*.{source,job}.json', '/r/conf/x.other.json');
  yes('**/v?.json', '/r/v1.json');
  no('**/v?.json', '/r/v12.json');
  yes('**/[ab]*.json', '/r/b1.json');
  no('**/[!ab]*.json', '/r/b1.json');
  yes('/p (1)/k+s/*.json', '/p (1)/k+s/a.json');
  assert.equal(matchesAny([], '/a.json'), false);
});

test('kind file globs: each "schemas" directory of each srcls.json, relative to it or absolute', () => {
  assert.deepEqual(config.kindFileGlobs([
    { path: '/repo/srcls.json', text: '{"schemas": ["kinds", "./more/", "/shared/kinds", "", 3]}' },
    { path: '/repo/sub/srcls.json', text: '{"schemas": ["../kinds"]}' },
    { path: '/repo/broken/srcls.json', text: '{"schemas": [' },
    { path: '/repo/other/srcls.json', text: '{"schemas": "kinds"}' },
  ]), ['/repo/kinds/*.json', '/repo/more/*.json', '/shared/kinds/*.json']);
  assert.deepEqual(config.kindFileGlobs(undefined), []);
});

test('untitled diagnostics: unknown-document dropped, whatever the shape of the code', () => {
  const kept = [
    { code: 'missing-required', message: 'a' },
    { code: { value: 'unknown-field', target: 'https://x' }, message: 'b' },
  ];
  assert.deepEqual(config.untitledDiagnostics([
    { code: 'unknown-document', message: 'not a source' },
    ...kept,
    { code: { value: 'unknown-document', target: 'https://x' }, message: 'not a source' },
  ]), kept);
});

test('severity overrides: valid levels kept (any case), others dropped with a reason', () => {
  const r = config.sanitizeSeverity({
    'unknown-field': 'error', 'kind-inferred': 'OFF', 'not-applicable': ' Hint ',
    'out-of-range': 'fatal', 'type-mismatch': 3, ' ': 'error',
  });
  assert.deepEqual(r.severity, { 'unknown-field': 'error', 'kind-inferred': 'off', 'not-applicable': 'hint' });
  assert.equal(r.problems.length, 3);
  assert.match(r.problems[0], /"out-of-range" is set to "fatal"; use one of error, warning, information, hint, off/);
  assert.match(r.problems[1], /"type-mismatch" is set to 3/);
  assert.match(r.problems[2], /empty diagnostic code/);
  assert.deepEqual(config.sanitizeSeverity(undefined), { severity: {}, problems: [] });
  assert.equal(config.sanitizeSeverity(['error']).problems.length, 1);
  assert.equal(config.sanitizeSeverity('error').problems.length, 1);
});

test('extra types: identifier to canonical type, strings only', () => {
  const r = config.sanitizeTypes({ MY_S3: 'CLOUDA_OBJECT_STORAGE', ' PG ': ' OPEN_RELATIONAL_DB_A ', BAD: 1, EMPTY: '' });
  assert.deepEqual(r.types, { MY_S3: 'CLOUDA_OBJECT_STORAGE', PG: 'OPEN_RELATIONAL_DB_A' });
  assert.equal(r.problems.length, 2);
  assert.equal(config.sanitizeTypes([]).problems.length, 1);
});

test('server settings: the {"srcls": {"severity", "types"}} shape, from an object or a WorkspaceConfiguration', () => {
  const raw = {
    serverPath: '/opt/srcls', files: ['*.src.json'], trace: { server: 'verbose' },
    severity: { 'unknown-field': 'error' }, types: { MY_ID: 'PEER_CLUSTER' },
  };
  const expected = { srcls: { severity: { 'unknown-field': 'error' }, types: { MY_ID: 'PEER_CLUSTER' } } };
  assert.deepEqual(config.serverSettings(raw), { settings: expected, problems: [] });
  const workspaceConfiguration = { get: (key) => raw[key] };
  assert.deepEqual(config.serverSettings(workspaceConfiguration).settings, expected);
  assert.deepEqual(config.serverSettings(undefined).settings, { srcls: { severity: {}, types: {} } });
});

test('client options: the fixed selector, the same settings as initialization options', () => {
  const o = config.clientOptions({ files: ['conf/*.json'], severity: { 'kind-inferred': 'off', x: 'loud' } });
  assert.deepEqual(o.documentSelector, config.documentSelector());
  assert.deepEqual(o.initializationOptions, { srcls: { severity: { 'kind-inferred': 'off' }, types: {} } });
  assert.deepEqual(o.settings, o.initializationOptions);
  assert.equal(o.problems.length, 1);
});

test('workspace/configuration answers: the srcls section, a sub-key, or null for other sections', () => {
  const settings = { srcls: { severity: { a: 'off' }, types: {} } };
  assert.deepEqual(
    config.configurationResponse([{ section: 'srcls' }, { section: 'srcls.severity' }, { section: 'json' }, {}], settings),
    [settings.srcls, { a: 'off' }, null, settings]);
  assert.deepEqual(config.configurationResponse(undefined, settings), []);
});

test('maxDiagnostics: a whole number from 0 is sent, anything else dropped with a reason', () => {
  assert.deepEqual(config.sanitizeMaxDiagnostics(undefined), { maxDiagnostics: undefined, problems: [] });
  assert.deepEqual(config.sanitizeMaxDiagnostics(0), { maxDiagnostics: 0, problems: [] });
  assert.deepEqual(config.sanitizeMaxDiagnostics(250), { maxDiagnostics: 250, problems: [] });
  assert.deepEqual(config.sanitizeMaxDiagnostics(-1), {
    maxDiagnostics: undefined,
    problems: ['srcls.maxDiagnostics is set to -1; use a whole number, 0 for no limit'],
  });
  assert.equal(config.sanitizeMaxDiagnostics(2.5).problems.length, 1);
  assert.deepEqual(config.serverSettings({ maxDiagnostics: 10 }).settings,
    { srcls: { severity: {}, types: {}, maxDiagnostics: 10 } });
  assert.equal(config.needsSettingsUpdate((s) => s === 'srcls.maxDiagnostics'), true);
});

test('reviewBase: a git revision is sent, empty is off, an option or a line break is dropped with a reason', () => {
  assert.deepEqual(config.sanitizeReviewBase(undefined), { reviewBase: undefined, problems: [] });
  assert.deepEqual(config.sanitizeReviewBase(''), { reviewBase: undefined, problems: [] });
  assert.deepEqual(config.sanitizeReviewBase('origin/main'), { reviewBase: 'origin/main', problems: [] });
  assert.deepEqual(config.sanitizeReviewBase('--output=x'), {
    reviewBase: undefined,
    problems: ['srcls.reviewBase is set to "--output=x"; use a git revision such as "HEAD" or "origin/main", or leave it empty'],
  });
  assert.equal(config.sanitizeReviewBase('HEAD\nx').problems.length, 1);
  assert.equal(config.sanitizeReviewBase(3).problems.length, 1);
  assert.deepEqual(config.serverSettings({ reviewBase: 'HEAD' }).settings,
    { srcls: { severity: {}, types: {}, reviewBase: 'HEAD' } });
  assert.deepEqual(config.serverSettings({ reviewBase: '' }).settings, { srcls: { severity: {}, types: {} } });
  assert.equal(config.needsSettingsUpdate((s) => s === 'srcls.reviewBase'), true);
});

test('configuration changes: the path restarts the server, globs set languages, severities and types are pushed', () => {
  const only = (name) => (s) => s === name;
  assert.equal(config.needsRestart(only('srcls.serverPath')), true);
  assert.equal(config.needsRestart(only('srcls.files')), false);
  assert.equal(config.needsLanguageUpdate(only('srcls.files')), true);
  assert.equal(config.needsLanguageUpdate(only('srcls.severity')), false);
  assert.equal(config.needsRestart(only('srcls.severity')), false);
  assert.equal(config.needsSettingsUpdate(only('srcls.severity')), true);
  assert.equal(config.needsSettingsUpdate(only('srcls.types')), true);
  assert.equal(config.needsSettingsUpdate(only('srcls.trace.server')), false);
  assert.equal(config.needsRestart(only('editor.fontSize')), false);
});

test('server path expansion: ~, ${userHome}, ${env:X}, ${workspaceFolder}, relative paths', () => {
  const opts = { workspaceFolder: '/ws', home: '/home/u', env: { TOOLS: '/opt/tools' } };
  assert.equal(config.expandServerPath('', opts), null);
  assert.equal(config.expandServerPath(undefined, opts), null);
  assert.equal(config.expandServerPath('~/bin/srcls', opts), '/home/u/bin/srcls');
  assert.equal(config.expandServerPath('${userHome}/srcls', opts), '/home/u/srcls');
  assert.equal(config.expandServerPath('${env:TOOLS}/srcls', opts), '/opt/tools/srcls');
  assert.equal(config.expandServerPath('${workspaceFolder}/build/server/srcls', opts), '/ws/build/server/srcls');
  assert.equal(config.expandServerPath('build/server/srcls', opts), path.join('/ws', 'build/server/srcls'));
  assert.equal(config.expandServerPath('srcls-dev', opts), 'srcls-dev');
});

test('find server: the setting wins, and a wrong setting is an error, not a silent fallback', (t) => {
  const dir = tempDir(t);
  const onPath = script(dir, 'path/srcls', 'exit 0');
  const custom = script(dir, 'custom/my-srcls', 'exit 0');
  const notExec = script(dir, 'custom/plain', 'exit 0', 0o644);
  const env = { PATH: path.dirname(onPath) };

  assert.deepEqual(config.findServer({ configured: custom, env }), { path: custom, source: 'setting' });

  const wrong = config.findServer({ configured: notExec, env });
  assert.equal(wrong.path, null);
  assert.match(wrong.error, /is not an executable file/);
  assert.deepEqual(wrong.tried, [notExec]);

  const missing = config.findServer({ configured: path.join(dir, 'nope'), env });
  assert.equal(missing.path, null);

  const ws = config.findServer({ configured: 'custom/my-srcls', workspaceFolder: dir, env });
  assert.deepEqual(ws, { path: custom, source: 'setting' });

  assert.deepEqual(config.findServer({ configured: 'srcls', env }), { path: onPath, source: 'setting' });
  const bareMissing = config.findServer({ configured: 'srcls-nightly', env });
  assert.match(bareMissing.error, /no executable of that name is on PATH/);
});

test('find server: bin/<platform>-<arch>/ and bin/ first, then PATH, then the install folders', (t) => {
  const dir = tempDir(t);
  const ext = path.join(dir, 'ext');
  const home = path.join(dir, 'home');
  const emptyPathDir = path.join(dir, 'empty');
  fs.mkdirSync(emptyPathDir);
  script(dir, 'path/srcls', 'exit 0', 0o644); // on PATH but not executable: skipped
  const platformBin = script(ext, `bin/${process.platform}-${process.arch}/srcls`, 'exit 0');
  const plainBin = script(ext, 'bin/srcls', 'exit 0');
  const onPath = script(dir, 'path2/srcls', 'exit 0');
  const localBin = script(home, '.local/bin/srcls', 'exit 0');
  const env = { PATH: ['', emptyPathDir, path.join(dir, 'path'), path.dirname(onPath)].join(':') };
  const isExecutable = onlyUnder(dir);
  const find = (e) => config.findServer({ extensionPath: ext, env: e, home, platform: 'linux', isExecutable });

  assert.deepEqual(find(env), { path: platformBin, source: 'bundled' });
  fs.rmSync(platformBin);
  assert.deepEqual(find(env), { path: plainBin, source: 'bundled' });
  fs.rmSync(plainBin);
  assert.deepEqual(find(env), { path: onPath, source: 'path' });
  // code-server's server host: a PATH without the user's folders
  const noPath = { PATH: emptyPathDir };
  assert.deepEqual(find(noPath), { path: localBin, source: 'install-dir' });
  fs.rmSync(localBin);
  const mason = script(home, '.local/share/nvim/mason/bin/srcls', 'exit 0');
  assert.deepEqual(find(noPath), { path: mason, source: 'install-dir' });
  fs.rmSync(mason);

  const none = config.findServer({ extensionPath: ext, env: noPath, home, isExecutable: () => false });
  assert.equal(none.path, null);
  assert.deepEqual(none.tried.slice(0, 3),
    [path.join(ext, 'bin', `${process.platform}-${process.arch}`), path.join(ext, 'bin'), `PATH (${emptyPathDir})`]);
  assert.ok(none.tried.includes(path.join(home, '.local', 'bin')));
  assert.ok(none.tried.includes('/usr/local/bin'));
  assert.equal(none.tried.at(-1), path.join(ext, 'bin', 'wasm'));
  // the message itself says where it looked
  assert.match(none.error, /^The srcls language server was not found\. Looked in: /);
  for (const place of none.tried) assert.ok(none.error.includes(place), place);

  const noExtension = config.findServer({ env: {}, home, isExecutable: () => false });
  assert.equal(noExtension.tried[0], 'PATH (empty)');
});

test('install folders: the user\'s, npm\'s global prefix, Mason, then the system\'s', () => {
  const home = '/home/u';
  const noNpmrc = () => { throw new Error('ENOENT'); };
  assert.deepEqual(config.installDirs({ platform: 'linux', home, env: {}, readFile: noNpmrc }), [
    '/home/u/.local/bin', '/home/u/bin', '/home/u/.npm-global/bin', '/home/u/.local/share/nvim/mason/bin',
    '/usr/local/bin', '/opt/homebrew/bin', '/home/linuxbrew/.linuxbrew/bin', '/usr/bin',
  ]);
  const npmrc = (f) => { assert.equal(f, path.join(home, '.npmrc')); return 'fund=false\nprefix = ~/.npm-packages\n'; };
  const dirs = config.installDirs({
    platform: 'darwin', home, env: { NPM_CONFIG_PREFIX: '/opt/npm', XDG_DATA_HOME: '/data' }, readFile: npmrc,
  });
  assert.deepEqual(dirs.slice(2, 6), ['/opt/npm/bin', '/home/u/.npm-packages/bin', '/home/u/.npm-global/bin', '/data/nvim/mason/bin']);
  const win = config.installDirs({ platform: 'win32', home: 'C:\\Users\\u', env: { APPDATA: 'C:\\AD', LOCALAPPDATA: 'C:\\LAD' }, readFile: noNpmrc });
  assert.ok(win.includes(path.join('C:\\AD', 'npm')));
  assert.ok(win.includes(path.join('C:\\LAD', 'nvim-data', 'mason', 'bin')));
});

test('find server: a bundled binary unpacked without its mode bits is made executable', (t) => {
  const dir = tempDir(t);
  const ext = path.join(dir, 'ext');
  const bundled = script(ext, `bin/${process.platform}-${process.arch}/srcls`, 'echo "srcls 0.0.1"', 0o644);
  const r = config.findServer({ extensionPath: ext, env: { PATH: '' }, isExecutable: onlyUnder(dir) });
  assert.deepEqual(r, { path: bundled, source: 'bundled' });
  assert.equal(fs.statSync(bundled).mode & 0o111, 0o111);
  assert.equal(config.probeServer(bundled).version, 'srcls 0.0.1');
});

test('find server: the WebAssembly server in bin/wasm/ when no native binary fits', (t) => {
  const dir = tempDir(t);
  const ext = path.join(dir, 'ext');
  const runner = script(ext, 'bin/wasm/srcls-wasm.mjs', '', 0o644);
  script(ext, 'bin/wasm/srcls.wasm', '', 0o644);
  const noPath = { PATH: '' };
  const isExecutable = onlyUnder(dir);
  const r = config.findServer({ extensionPath: ext, env: noPath, isExecutable, nodePath: '/opt/code/code', nodeVersion: '20.9.0' });
  assert.deepEqual(r, {
    path: runner, source: 'bundled-wasm', command: '/opt/code/code', args: [runner],
    env: { ELECTRON_RUN_AS_NODE: '1' },
  });
  // VS Code 1.82 to 1.85 run Node 18.15, which shows node:wasi only behind this flag (the one
  // Node 18 knows: it refuses to start with any other, and 18.17 on accept it as a no-op).
  const old = config.findServer({ extensionPath: ext, env: noPath, isExecutable, nodePath: '/opt/code/code', nodeVersion: '18.15.0' });
  assert.deepEqual(old.args, ['--experimental-wasi-unstable-preview1', runner]);
  const run = config.serverCommand(r, ['--stdio']);
  assert.equal(run.command, '/opt/code/code');
  assert.deepEqual(run.args, [runner, '--stdio']);
  assert.equal(run.options.env.ELECTRON_RUN_AS_NODE, '1');
  assert.deepEqual(config.serverCommand({ path: '/usr/bin/srcls' }, ['--stdio']), { command: '/usr/bin/srcls', args: ['--stdio'] });

  // A native binary for this platform comes first.
  const native = script(ext, `bin/${process.platform}-${process.arch}/srcls`, 'exit 0');
  assert.deepEqual(config.findServer({ extensionPath: ext, env: noPath, isExecutable }), { path: native, source: 'bundled' });
  // Half a WebAssembly server is none.
  fs.rmSync(native);
  fs.rmSync(path.join(ext, 'bin', 'wasm', 'srcls.wasm'));
  assert.equal(config.findServer({ extensionPath: ext, env: noPath, isExecutable }).path, null);
});

test('find server on Windows: PATHEXT names, ";" separated PATH', () => {
  const seen = [];
  const isExecutable = (f) => { seen.push(f); return f === path.join('C:\\tools', 'srcls.exe'); };
  const r = config.findServer({
    env: { PATH: 'C:\\empty;C:\\tools', PATHEXT: '.COM;.EXE' }, platform: 'win32', isExecutable,
  });
  assert.deepEqual(r, { path: path.join('C:\\tools', 'srcls.exe'), source: 'path' });
  assert.ok(seen.includes(path.join('C:\\empty', 'srcls.com')));
  assert.deepEqual(config.executableNames('linux', {}), ['srcls']);
});

test('probe: a binary that exits non-zero, cannot run or hangs is reported with the reason', (t) => {
  const dir = tempDir(t);
  const fails = script(dir, 'fails', 'echo "srcls: broken install" >&2; exit 2');
  const r = config.probeServer(fails);
  assert.equal(r.ok, false);
  assert.match(r.error, /--version exited with status 2: srcls: broken install/);

  const gone = config.probeServer(path.join(dir, 'does-not-exist'));
  assert.equal(gone.ok, false);
  assert.match(gone.error, /could not be run: .*ENOENT/);

  const hangs = script(dir, 'hangs', 'exec sleep 10');
  const slow = config.probeServer(hangs, { timeoutMs: 200 });
  assert.equal(slow.ok, false);
  assert.match(slow.error, /did not answer --version within 200 ms/);

  const ok = script(dir, 'ok', 'echo "srcls 9.9.9"');
  assert.deepEqual(config.probeServer(ok), { ok: true, version: 'srcls 9.9.9' });
});

test('probe: the real srcls binary answers --version', { skip: srclsBinary ? false : 'no built srcls (set SRCLS_BINARY)' }, () => {
  const r = config.probeServer(srclsBinary);
  assert.equal(r.ok, true, r.error);
  assert.match(r.version, /^srcls \d+\.\d+\.\d+/);
});

// The WebAssembly build (tools/release.sh: dist/, or build-wasm/server/), bundled as
// scripts/bundle-server.js --wasm bundles it, found, probed and started as the extension does,
// with this Node standing in for VS Code's.
const wasmDir = [process.env.SRCLS_WASM_DIR, path.resolve(__dirname, '..', '..', '..', 'dist'),
  path.resolve(__dirname, '..', '..', '..', 'build-wasm', 'server')]
  .find((d) => d && fs.existsSync(path.join(d, 'srcls.wasm')) && fs.existsSync(path.join(d, 'srcls-wasm.mjs')));
const wasmSkip = !wasmDir ? 'no WebAssembly build (tools/release.sh)' : false;

test('the bundled WebAssembly server answers --version and initialize', { skip: wasmSkip, timeout: 30000 }, async (t) => {
  const ext = path.join(tempDir(t), 'ext');
  fs.mkdirSync(path.join(ext, 'bin', 'wasm'), { recursive: true });
  for (const f of ['srcls.wasm', 'srcls-wasm.mjs']) fs.copyFileSync(path.join(wasmDir, f), path.join(ext, 'bin', 'wasm', f));
  const found = config.findServer({ extensionPath: ext, env: { PATH: '' }, isExecutable: () => false });
  assert.equal(found.source, 'bundled-wasm');
  const probe = config.probeServer(found, { timeoutMs: 20000 });
  assert.equal(probe.ok, true, probe.error);
  assert.match(probe.version, /^srcls \d+\.\d+\.\d+ \(wasm32-wasi\)$/);

  const run = config.serverCommand(found, ['--stdio']);
  const child = require('child_process').spawn(run.command, run.args, { ...run.options, stdio: ['pipe', 'pipe', 'inherit'] });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
  const exit = JSON.stringify({ jsonrpc: '2.0', method: 'exit' });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill(); reject(new Error(`no answer to initialize: ${out}`)); }, 20000);
    child.stdout.on('data', () => {
      if (/"capabilities"/.test(out)) {
        clearTimeout(timer);
        child.stdin.end(`Content-Length: ${Buffer.byteLength(exit)}\r\n\r\n${exit}`);
        resolve();
      }
    });
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 1); // exit without shutdown
  assert.match(out, /"result":\{"capabilities"/);
});
