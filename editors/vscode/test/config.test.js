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

test('document selector: one file filter per glob (no language, so json and jsonc both match), and untitled JSON', () => {
  assert.deepEqual(config.documentSelector(['*.src.json'], ['/p/kinds/*.json']), [
    { scheme: 'file', pattern: '**/*.source.json' },
    { scheme: 'file', pattern: '**/*.job.json' },
    { scheme: 'file', pattern: '**/*.src.json' },
    { scheme: 'file', pattern: '**/srcls.json' },
    { scheme: 'file', pattern: '/p/kinds/*.json' },
    { scheme: 'untitled', language: 'json' },
    { scheme: 'untitled', language: 'jsonc' },
  ]);
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

test('client options: selector from srcls.files, the same settings as initialization options', () => {
  const o = config.clientOptions({ files: ['conf/*.json'], severity: { 'kind-inferred': 'off', x: 'loud' } });
  assert.deepEqual(o.documentSelector.filter((f) => f.scheme === 'file').map((f) => f.pattern),
    ['**/*.source.json', '**/*.job.json', 'conf/*.json', '**/srcls.json']);
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

test('configuration changes: path and globs restart the server, severities and types are pushed', () => {
  const only = (name) => (s) => s === name;
  assert.equal(config.needsRestart(only('srcls.serverPath')), true);
  assert.equal(config.needsRestart(only('srcls.files')), true);
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

test('find server: PATH first, then bin/<platform>-<arch>/, then bin/', (t) => {
  const dir = tempDir(t);
  const ext = path.join(dir, 'ext');
  const emptyPathDir = path.join(dir, 'empty');
  fs.mkdirSync(emptyPathDir);
  script(dir, 'path/srcls', 'exit 0', 0o644); // on PATH but not executable: skipped
  const platformBin = script(ext, `bin/${process.platform}-${process.arch}/srcls`, 'exit 0');
  const plainBin = script(ext, 'bin/srcls', 'exit 0');
  const onPath = script(dir, 'path2/srcls', 'exit 0');

  const env = { PATH: ['', emptyPathDir, path.join(dir, 'path'), path.dirname(onPath)].join(':') };
  assert.deepEqual(config.findServer({ extensionPath: ext, env, platform: 'linux' }), { path: onPath, source: 'path' });

  const noPath = { PATH: emptyPathDir };
  assert.deepEqual(config.findServer({ extensionPath: ext, env: noPath }), { path: platformBin, source: 'bundled' });
  fs.rmSync(platformBin);
  assert.deepEqual(config.findServer({ extensionPath: ext, env: noPath }), { path: plainBin, source: 'bundled' });
  fs.rmSync(plainBin);

  const none = config.findServer({ extensionPath: ext, env: noPath });
  assert.equal(none.path, null);
  assert.match(none.error, /not found: it is not on PATH/);
  assert.equal(none.tried[0], 'srcls on PATH');
  assert.ok(none.tried.includes(path.join(ext, 'bin', 'srcls')));

  const noExtension = config.findServer({ env: {} });
  assert.deepEqual(noExtension.tried, ['srcls on PATH']);
});

test('find server: a bundled binary unpacked without its mode bits is made executable', (t) => {
  const dir = tempDir(t);
  const ext = path.join(dir, 'ext');
  const bundled = script(ext, `bin/${process.platform}-${process.arch}/srcls`, 'echo "srcls 0.0.1"', 0o644);
  const r = config.findServer({ extensionPath: ext, env: { PATH: '' } });
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
  const r = config.findServer({ extensionPath: ext, env: noPath, nodePath: '/opt/code/code', nodeVersion: '20.9.0' });
  assert.deepEqual(r, {
    path: runner, source: 'bundled-wasm', command: '/opt/code/code', args: [runner],
    env: { ELECTRON_RUN_AS_NODE: '1' },
  });
  // VS Code before 1.90 runs Node 18, which shows node:wasi only behind a flag.
  const old = config.findServer({ extensionPath: ext, env: noPath, nodePath: '/opt/code/code', nodeVersion: '18.15.0' });
  assert.deepEqual(old.args, ['--experimental-wasi-unflagged', runner]);
  const run = config.serverCommand(r, ['--stdio']);
  assert.equal(run.command, '/opt/code/code');
  assert.deepEqual(run.args, [runner, '--stdio']);
  assert.equal(run.options.env.ELECTRON_RUN_AS_NODE, '1');
  assert.deepEqual(config.serverCommand({ path: '/usr/bin/srcls' }, ['--stdio']), { command: '/usr/bin/srcls', args: ['--stdio'] });

  // A native binary for this platform comes first.
  const native = script(ext, `bin/${process.platform}-${process.arch}/srcls`, 'exit 0');
  assert.deepEqual(config.findServer({ extensionPath: ext, env: noPath }), { path: native, source: 'bundled' });
  // Half a WebAssembly server is none.
  fs.rmSync(native);
  fs.rmSync(path.join(ext, 'bin', 'wasm', 'srcls.wasm'));
  assert.equal(config.findServer({ extensionPath: ext, env: noPath }).path, null);
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
const wasmSkip = !wasmDir ? 'no WebAssembly build (tools/release.sh)'
  : Number(process.versions.node.split('.')[0]) < 20 ? 'node:wasi needs Node 20 here' : false;

test('the bundled WebAssembly server answers --version and initialize', { skip: wasmSkip, timeout: 30000 }, async (t) => {
  const ext = path.join(tempDir(t), 'ext');
  fs.mkdirSync(path.join(ext, 'bin', 'wasm'), { recursive: true });
  for (const f of ['srcls.wasm', 'srcls-wasm.mjs']) fs.copyFileSync(path.join(wasmDir, f), path.join(ext, 'bin', 'wasm', f));
  const found = config.findServer({ extensionPath: ext, env: { PATH: '' } });
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
