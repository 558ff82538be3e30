// extension.js wired to stand-ins for the two modules that only exist inside VS Code (`vscode`
// and vscode-languageclient's LanguageClient, which needs it). What is checked is the wiring:
// which command the client is started with, its options, the settings it is sent, the restart
// command, and the error message with its buttons. The protocol itself is driven against the
// real server by the language-server tests.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');

function makeFakes() {
  const state = {
    config: {},
    commands: new Map(),
    configListeners: [],
    errors: [],
    warnings: [],
    executed: [],
    clients: [],
    errorChoice: undefined,
    startFailure: null,
    output: [],
    srclsFiles: [], // what workspace.findFiles('**/srcls.json') finds (paths)
    watchers: [],
  };

  class Uri {
    constructor(fsPath, fragment = '') { this.fsPath = fsPath; this.fragment = fragment; }
    static file(p) { return new Uri(p); }
    static joinPath(base, ...parts) { return new Uri(path.join(base.fsPath, ...parts)); }
    with({ fragment }) { return new Uri(this.fsPath, fragment); }
  }

  const vscode = {
    Uri,
    workspace: {
      workspaceFolders: undefined,
      getConfiguration(section) {
        assert.equal(section, 'srcls');
        return { get: (key) => state.config[key] };
      },
      onDidChangeConfiguration(listener) {
        state.configListeners.push(listener);
        return { dispose() {} };
      },
      async findFiles(include) {
        assert.equal(include, '**/srcls.json');
        return state.srclsFiles.map((p) => Uri.file(p));
      },
      createFileSystemWatcher(glob) {
        const w = { glob, listeners: [], dispose() {} };
        for (const event of ['onDidCreate', 'onDidChange', 'onDidDelete']) {
          w[event] = (listener) => { w.listeners.push(listener); return { dispose() {} }; };
        }
        state.watchers.push(w);
        return w;
      },
    },
    window: {
      createOutputChannel(name) {
        return { name, appendLine: (l) => state.output.push(l), show() { state.outputShown = true; }, dispose() {} };
      },
      async showErrorMessage(message, ...buttons) {
        state.errors.push({ message, buttons });
        return state.errorChoice;
      },
      showWarningMessage(message) { state.warnings.push(message); },
      setStatusBarMessage() {},
    },
    commands: {
      registerCommand(name, fn) { state.commands.set(name, fn); return { dispose() {} }; },
      async executeCommand(...args) { state.executed.push(args); },
    },
  };

  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions });
      this.running = false;
      this.notifications = [];
      this.stopped = false;
      state.clients.push(this);
    }
    async start() {
      if (state.startFailure) throw new Error(state.startFailure);
      this.running = true;
    }
    isRunning() { return this.running; }
    async stop() { this.running = false; this.stopped = true; }
    async dispose() { this.running = false; }
    async sendNotification(method, params) { this.notifications.push({ method, params }); }
  }

  return { state, vscode, languageclient: { LanguageClient } };
}

function loadExtension(fakes) {
  const extPath = require.resolve('../extension.js');
  delete require.cache[extPath];
  const original = Module._load;
  Module._load = function load(request, parent, isMain) {
    if (request === 'vscode') return fakes.vscode;
    if (request === 'vscode-languageclient/node') return fakes.languageclient;
    return original.call(this, request, parent, isMain);
  };
  try {
    return require(extPath);
  } finally {
    Module._load = original;
  }
}

function setup(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-ext-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const server = path.join(dir, 'srcls');
  fs.writeFileSync(server, '#!/bin/sh\necho "srcls 0.1.0"\n');
  fs.chmodSync(server, 0o755);
  const fakes = makeFakes();
  const ext = loadExtension(fakes);
  const context = {
    subscriptions: [],
    extensionPath: path.join(dir, 'extension'),
    extensionUri: fakes.vscode.Uri.file(path.join(dir, 'extension')),
  };
  t.after(() => ext.deactivate());
  return { dir, server, fakes, state: fakes.state, ext, context };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('activate starts srcls --stdio for the default globs and the user globs, then sends settings', async (t) => {
  const { server, state, ext, context } = setup(t);
  state.config = {
    serverPath: server,
    files: ['*.src.json'],
    severity: { 'unknown-field': 'error' },
    types: { MY_ID: 'CLOUDA_OBJECT_STORAGE' },
  };
  assert.equal(await ext.activate(context), true);
  assert.equal(state.clients.length, 1);
  const c = state.clients[0];
  assert.equal(c.id, 'srcls'); // so that srcls.trace.server is honoured by the client
  assert.deepEqual(c.serverOptions, { command: server, args: ['--stdio'] });
  assert.deepEqual(c.clientOptions.documentSelector.map((f) => f.pattern || `untitled ${f.language}`),
    ['**/*.source.json', '**/*.job.json', '**/*.src.json', '**/srcls.json', 'untitled json', 'untitled jsonc']);
  const expected = { srcls: { severity: { 'unknown-field': 'error' }, types: { MY_ID: 'CLOUDA_OBJECT_STORAGE' } } };
  assert.deepEqual(c.clientOptions.initializationOptions, expected);
  assert.deepEqual(c.notifications, [{ method: 'workspace/didChangeConfiguration', params: { settings: expected } }]);
  assert.deepEqual(
    c.clientOptions.middleware.workspace.configuration({ items: [{ section: 'srcls' }] }),
    [expected.srcls]);
  assert.ok(state.commands.has('srcls.restartServer'));
  assert.deepEqual(state.errors, []);

  // untitled buffers lose unknown-document, pushed or pulled; files keep everything
  const middleware = c.clientOptions.middleware;
  const diagnostics = [{ code: 'unknown-document' }, { code: { value: 'missing-required' } }];
  const shown = [];
  middleware.handleDiagnostics({ scheme: 'untitled' }, diagnostics, (uri, d) => shown.push(d));
  middleware.handleDiagnostics({ scheme: 'file' }, diagnostics, (uri, d) => shown.push(d));
  assert.deepEqual(shown, [[diagnostics[1]], diagnostics]);
  const pulled = (scheme) => middleware.provideDiagnostics({ uri: { scheme } }, undefined, undefined,
    async () => ({ kind: 'full', items: [...diagnostics] }));
  assert.deepEqual((await pulled('untitled')).items, [diagnostics[1]]);
  assert.deepEqual((await pulled('file')).items, diagnostics);
});

test('a severity change is pushed to the running server; a path change restarts it', async (t) => {
  const { server, state, ext, context } = setup(t);
  state.config = { serverPath: server };
  await ext.activate(context);
  const first = state.clients[0];

  state.config.severity = { 'kind-inferred': 'off', 'unknown-field': 'loud' };
  await state.configListeners[0]({ affectsConfiguration: (s) => s === 'srcls.severity' });
  assert.deepEqual(first.notifications.at(-1).params.settings.srcls.severity, { 'kind-inferred': 'off' });
  assert.equal(state.warnings.length, 1);
  assert.match(state.warnings[0], /"unknown-field" is set to "loud"/);
  assert.equal(state.clients.length, 1);

  await state.configListeners[0]({ affectsConfiguration: (s) => s === 'editor.tabSize' });
  assert.equal(state.clients.length, 1);

  await state.configListeners[0]({ affectsConfiguration: (s) => s === 'srcls.files' });
  assert.equal(state.clients.length, 2);
  assert.equal(first.stopped, true);
  assert.equal(state.clients[1].isRunning(), true);
});

test('with no native server anywhere, the bundled WebAssembly one is started on the editor\'s Node', async (t) => {
  const { state, ext, context } = setup(t);
  const wasmDir = path.join(context.extensionPath, 'bin', 'wasm');
  fs.mkdirSync(wasmDir, { recursive: true });
  const runner = path.join(wasmDir, 'srcls-wasm.mjs');
  fs.writeFileSync(runner, "if (process.argv.includes('--version')) console.log('srcls 0.1.0 (wasm32-wasi)');\n");
  fs.writeFileSync(path.join(wasmDir, 'srcls.wasm'), '');
  const savedPath = process.env.PATH;
  process.env.PATH = '';
  t.after(() => { process.env.PATH = savedPath; });
  state.config = {};
  assert.equal(await ext.activate(context), true);
  const c = state.clients[0];
  assert.equal(c.serverOptions.command, process.execPath);
  assert.deepEqual(c.serverOptions.args, [runner, '--stdio']);
  assert.equal(c.serverOptions.options.env.ELECTRON_RUN_AS_NODE, '1');
});

test('the restart command stops the client and starts a new one', async (t) => {
  const { server, state, ext, context } = setup(t);
  state.config = { serverPath: server };
  await ext.activate(context);
  await state.commands.get('srcls.restartServer')();
  assert.equal(state.clients.length, 2);
  assert.equal(state.clients[0].stopped, true);
  assert.equal(ext._client(), state.clients[1]);
});

test('no binary: an error message with a button to the install guide, and no client', async (t) => {
  const { dir, state, ext, context } = setup(t);
  state.config = { serverPath: path.join(dir, 'missing', 'srcls') };
  state.errorChoice = 'Open install guide';
  assert.equal(await ext.activate(context), false);
  await tick();
  assert.equal(state.clients.length, 0);
  assert.equal(state.errors.length, 1);
  assert.match(state.errors[0].message, /srcls.serverPath is ".*missing\/srcls", but .* is not an executable file/);
  assert.deepEqual(state.errors[0].buttons, ['Open install guide', 'Open settings', 'Show output']);
  const [command, uri] = state.executed[0];
  assert.equal(command, 'markdown.showPreview');
  assert.equal(uri.fsPath, path.join(context.extensionPath, 'README.md'));
  assert.equal(uri.fragment, 'installing-the-server');
});

test('a binary that does not run, or a client that fails to start, is reported', async (t) => {
  const { dir, state, ext, context } = setup(t);
  const broken = path.join(dir, 'broken');
  fs.writeFileSync(broken, '#!/bin/sh\nexit 3\n');
  fs.chmodSync(broken, 0o755);
  state.config = { serverPath: broken };
  state.errorChoice = 'Open settings';
  assert.equal(await ext.activate(context), false);
  await tick();
  assert.match(state.errors[0].message, /cannot be started: .*--version exited with status 3/);
  assert.deepEqual(state.executed[0], ['workbench.action.openSettings', 'srcls.serverPath']);

  state.config = { serverPath: path.join(dir, 'srcls') };
  state.startFailure = 'Connection to server got closed.';
  state.errorChoice = 'Show output';
  assert.equal(await state.commands.get('srcls.restartServer')(), undefined);
  await tick();
  assert.match(state.errors[1].message, /failed to start: Connection to server got closed\./);
  assert.equal(state.outputShown, true);
  assert.equal(ext._client(), null);
});

test('srcls.json and the kind files of its "schemas" are served; a srcls.json that names others restarts the client', async (t) => {
  const { server, state, ext, context, dir } = setup(t);
  const project = path.join(dir, 'team');
  fs.mkdirSync(path.join(project, 'kinds'), { recursive: true });
  fs.writeFileSync(path.join(project, 'srcls.json'), '{"schemas": ["kinds"]}');
  state.srclsFiles = [path.join(project, 'srcls.json')];
  state.config = { serverPath: server };
  assert.equal(await ext.activate(context), true);
  const patterns = state.clients[0].clientOptions.documentSelector.filter((f) => f.scheme === 'file').map((f) => f.pattern);
  assert.deepEqual(patterns, ['**/*.source.json', '**/*.job.json', '**/srcls.json', `${project}/kinds/*.json`]);
  const watcher = state.watchers.find((w) => w.glob === '**/srcls.json');
  assert.ok(watcher && watcher.listeners.length === 3, 'srcls.json is watched');
  // unchanged: no restart
  await Promise.all(watcher.listeners.map((l) => l()));
  assert.equal(state.clients.length, 1);
  fs.writeFileSync(path.join(project, 'srcls.json'), '{"schemas": ["kinds", "more"]}');
  await watcher.listeners[1]();
  await tick();
  assert.equal(state.clients.length, 2, 'restarted');
  assert.deepEqual(ext._kindGlobs(), [`${project}/kinds/*.json`, `${project}/more/*.json`]);
});
