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
    documents: [], // workspace.textDocuments
    documentListeners: { open: [], close: [], save: [] },
    languageChanges: [], // [fsPath, languageId] of setTextDocumentLanguage
    workspaceFolder: null,
    associations: undefined, // files.associations
  };

  class Uri {
    constructor(fsPath, fragment = '', scheme = 'file') { this.fsPath = fsPath; this.fragment = fragment; this.scheme = scheme; }
    static file(p) { return new Uri(p); }
    toString() { return `${this.scheme}://${this.fsPath}`; }
    static joinPath(base, ...parts) { return new Uri(path.join(base.fsPath, ...parts)); }
    with({ fragment }) { return new Uri(this.fsPath, fragment); }
  }

  const vscode = {
    Uri,
    workspace: {
      workspaceFolders: undefined,
      getConfiguration(section) {
        if (section === 'files') return { get: (key) => (key === 'associations' ? state.associations : undefined) };
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
      get textDocuments() { return state.documents; },
      getWorkspaceFolder(uri) {
        const f = state.workspaceFolder;
        return f && uri.fsPath.startsWith(f + path.sep) ? { uri: Uri.file(f) } : undefined;
      },
      onDidOpenTextDocument(l) { state.documentListeners.open.push(l); return { dispose() {} }; },
      onDidCloseTextDocument(l) { state.documentListeners.close.push(l); return { dispose() {} }; },
      onDidSaveTextDocument(l) { state.documentListeners.save.push(l); return { dispose() {} }; },
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
    languages: {
      // as VS Code does it: the document is closed and opened again with its new language
      async setTextDocumentLanguage(document, languageId) {
        state.languageChanges.push([document.uri.fsPath, languageId]);
        for (const l of state.documentListeners.close) l(document);
        document.languageId = languageId;
        for (const l of state.documentListeners.open) l(document);
        return document;
      },
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

  const openDocument = (fsPath, languageId, scheme = 'file') => {
    const document = { uri: new Uri(fsPath, '', scheme), languageId };
    state.documents.push(document);
    for (const l of state.documentListeners.open) l(document);
    return document;
  };
  return { state, vscode, languageclient: { LanguageClient }, openDocument };
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
  return { dir, server, fakes, state: fakes.state, ext, context, openDocument: fakes.openDocument };
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
  assert.deepEqual(c.clientOptions.documentSelector.map((f) => `${f.scheme} ${f.language}`),
    ['file srcls-json', 'untitled srcls-json', 'untitled json', 'untitled jsonc']);
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

test('a severity change is pushed to the running server; a path change restarts it, a glob change does not', async (t) => {
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
  assert.equal(state.clients.length, 1);
  await state.configListeners[0]({ affectsConfiguration: (s) => s === 'srcls.serverPath' });
  assert.equal(state.clients.length, 2);
  assert.equal(first.stopped, true);
  assert.equal(state.clients[1].isRunning(), true);
});

test('with no native server anywhere, the bundled WebAssembly one is started on the editor\'s Node', async (t) => {
  const { dir, state, ext, context } = setup(t);
  // none in the install folders either: a home of its own; skipped where the system has one
  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  const installed = require('../lib/config').installDirs({ home, env: {} })
    .map((d) => path.join(d, 'srcls')).filter((f) => fs.existsSync(f));
  if (installed.length > 0) {
    t.skip(`srcls is installed here (${installed.join(', ')})`);
    return;
  }
  const wasmDir = path.join(context.extensionPath, 'bin', 'wasm');
  fs.mkdirSync(wasmDir, { recursive: true });
  const runner = path.join(wasmDir, 'srcls-wasm.mjs');
  // as the real runner does, it needs node:wasi from the Node it is started with, flags and all
  fs.writeFileSync(runner, "const { WASI } = await import('node:wasi');\n" +
    "if (typeof WASI === 'function' && process.argv.includes('--version')) console.log('srcls 0.1.0 (wasm32-wasi)');\n");
  fs.writeFileSync(path.join(wasmDir, 'srcls.wasm'), '');
  const saved = { PATH: process.env.PATH, HOME: process.env.HOME };
  process.env.PATH = '';
  process.env.HOME = home;
  t.after(() => Object.assign(process.env, saved));
  state.config = {};
  assert.equal(await ext.activate(context), true, JSON.stringify(state.errors));
  const c = state.clients[0];
  assert.equal(c.serverOptions.command, process.execPath);
  assert.deepEqual(c.serverOptions.args.slice(-2), [runner, '--stdio']);
  assert.equal(c.serverOptions.options.env.ELECTRON_RUN_AS_NODE, '1');
  assert.match(state.output.join('\n'), /using .*srcls-wasm\.mjs \(bundled-wasm\): srcls 0\.1\.0 \(wasm32-wasi\)/);
});

test('no server anywhere: the message says where the extension looked', async (t) => {
  const { dir, state, ext, context } = setup(t);
  const saved = { PATH: process.env.PATH, HOME: process.env.HOME };
  process.env.PATH = path.join(dir, 'empty');
  process.env.HOME = path.join(dir, 'home');
  t.after(() => Object.assign(process.env, saved));
  const installed = require('../lib/config').installDirs({ env: {} })
    .map((d) => path.join(d, 'srcls')).filter((f) => fs.existsSync(f));
  if (installed.length > 0) {
    t.skip(`srcls is installed here (${installed.join(', ')})`);
    return;
  }
  state.config = {};
  assert.equal(await ext.activate(context), false);
  assert.equal(state.errors.length, 1);
  const { message } = state.errors[0];
  for (const place of [path.join(context.extensionPath, 'bin'), `PATH (${path.join(dir, 'empty')})`,
    path.join(dir, 'home', '.local', 'bin'), '/usr/local/bin', path.join(context.extensionPath, 'bin', 'wasm')]) {
    assert.ok(message.includes(place), `${place} in: ${message}`);
  }
  assert.ok(state.output.some((l) => l.startsWith('[error] looked in: ') && l.includes('/usr/local/bin')));
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

test('JSON files of the globs, srcls.json and kind folders get the srcls language; a user\'s change back stays', async (t) => {
  const { server, state, ext, context, dir, openDocument } = setup(t);
  const project = path.join(dir, 'team');
  fs.mkdirSync(path.join(project, 'kinds'), { recursive: true });
  fs.writeFileSync(path.join(project, 'srcls.json'), '{"schemas": ["kinds"]}');
  state.srclsFiles = [path.join(project, 'srcls.json')];
  state.workspaceFolder = dir;
  state.config = { serverPath: server, files: ['*.src.json', 'deploy/*.json'] };
  const early = openDocument(path.join(dir, 'a.src.json'), 'json'); // open before activation
  openDocument(path.join(dir, 'package.json'), 'json');
  openDocument(path.join(dir, 'b.source.json'), 'srcls-json'); // from the manifest's patterns
  assert.equal(await ext.activate(context), true);
  assert.equal(early.languageId, 'srcls-json');

  openDocument(path.join(dir, 'deploy', 'lake.json'), 'json');
  openDocument(path.join(dir, 'other', 'deploy', 'lake.json'), 'json');
  openDocument(path.join(project, 'kinds', 'queue.json'), 'json');
  openDocument(path.join(dir, 'c.src.json'), 'json', 'git'); // a diff's other side
  state.associations = { '*.json': 'jsonc', '*.keep.job.json': 'json', 'deploy/*.json': 'plaintext' };
  openDocument(path.join(dir, 'd.job.json'), 'jsonc'); // "*.json": "jsonc" made it jsonc
  openDocument(path.join(dir, 'e.keep.job.json'), 'json'); // the user wants this one JSON
  const untitled = openDocument('Untitled-1', 'json', 'untitled');
  await tick();
  assert.deepEqual(state.languageChanges, [
    [path.join(dir, 'a.src.json'), 'srcls-json'],
    [path.join(dir, 'deploy', 'lake.json'), 'srcls-json'],
    [path.join(project, 'kinds', 'queue.json'), 'srcls-json'],
    [path.join(dir, 'd.job.json'), 'srcls-json'],
  ]);
  assert.equal(untitled.languageId, 'json');

  // The user picks JSON for a.src.json: VS Code closes it and opens it again at once. It stays JSON.
  for (const l of state.documentListeners.close) l(early);
  early.languageId = 'json';
  for (const l of state.documentListeners.open) l(early);
  await tick();
  assert.equal(early.languageId, 'json');
  assert.equal(state.languageChanges.length, 4);
  // Opened again later (closed, then reopened), it is a srcls document again.
  await new Promise((resolve) => setImmediate(resolve));
  for (const l of state.documentListeners.close) l(early);
  await new Promise((resolve) => setImmediate(resolve));
  for (const l of state.documentListeners.open) l(early);
  assert.equal(early.languageId, 'srcls-json');

  // A srcls.json naming another folder: its files are adopted, with no restart.
  const more = openDocument(path.join(project, 'more', 'k.json'), 'json');
  assert.equal(more.languageId, 'json');
  fs.writeFileSync(path.join(project, 'srcls.json'), '{"schemas": ["kinds", "more"]}');
  const watcher = state.watchers.find((w) => w.glob === '**/srcls.json');
  await watcher.listeners[1]();
  assert.deepEqual(ext._kindGlobs(), [`${project}/kinds/*.json`, `${project}/more/*.json`]);
  assert.equal(more.languageId, 'srcls-json');
  // A new glob in srcls.files: open files that match it now are adopted, with no restart.
  const conf = openDocument(path.join(dir, 'conf.json'), 'json');
  state.config.files = ['conf.json'];
  await state.configListeners[0]({ affectsConfiguration: (s) => s === 'srcls.files' });
  assert.equal(conf.languageId, 'srcls-json');
  assert.equal(state.clients.length, 1);
});

test('workspace diagnostics are asked for once, then only after a change', async (t) => {
  const { server, state, ext, context, dir } = setup(t);
  state.config = { serverPath: server };
  await ext.activate(context);
  const pull = state.clients[0].clientOptions.middleware.provideWorkspaceDiagnostics;
  const sent = [];
  const next = async (ids) => { sent.push(ids); return { items: [] }; };
  const token = () => {
    const listeners = [];
    return {
      isCancellationRequested: false,
      onCancellationRequested(l) { listeners.push(l); return { dispose() {} }; },
      cancel() { this.isCancellationRequested = true; listeners.forEach((l) => l()); },
    };
  };
  // the first request goes through
  await pull(['first'], token(), () => {}, next);
  assert.equal(sent.length, 1);
  // the next waits: vscode-languageclient sends it 2 s after the answer
  let done = false;
  const second = pull(['second'], token(), () => {}, next).then(() => { done = true; });
  await tick();
  assert.equal(done, false);
  assert.equal(sent.length, 1);
  // events that change nothing the server reports: a file in node_modules or a hidden folder
  const json = state.watchers.find((w) => w.glob === '**/*.json');
  for (const l of json.listeners) l({ fsPath: path.join(dir, 'node_modules', 'x', 'package.json') });
  json.listeners[1]({ fsPath: path.join(dir, '.vscode', 'settings.json') });
  json.listeners[1]({ fsPath: path.join(dir, 'notes.txt') });
  await tick();
  assert.equal(sent.length, 1);
  // a JSON file changed on disk: it goes
  json.listeners[1]({ fsPath: path.join(dir, 'lake.source.json') });
  await second;
  assert.deepEqual(sent.at(-1), ['second']);

  // a save, a settings change, a closed srcls document: each lets one more through
  const triggers = [
    () => state.documentListeners.save.forEach((l) => l({ uri: { fsPath: '/x' } })),
    () => state.configListeners[0]({ affectsConfiguration: (s) => s === 'srcls.severity' }),
    () => state.documentListeners.close.forEach((l) => l({ uri: { toString: () => 'file:///w/a.source.json' }, languageId: 'srcls-json' })),
  ];
  for (const trigger of triggers) {
    const before = sent.length;
    const waiting = pull(['again'], token(), () => {}, next);
    await tick();
    assert.equal(sent.length, before);
    await trigger();
    await waiting;
    assert.equal(sent.length, before + 1);
  }

  // a request cancelled while it waits is answered with nothing, and nothing is sent
  assert.equal(sent.length, 5);
  const cancelled = token();
  const waiting = pull(['cancelled'], cancelled, () => {}, next);
  cancelled.cancel();
  assert.deepEqual(await waiting, { items: [] });
  assert.equal(sent.length, 5);

  // a restart lets the new client ask at once
  await state.commands.get('srcls.restartServer')();
  await state.clients[1].clientOptions.middleware.provideWorkspaceDiagnostics(['new'], token(), () => {}, next);
  assert.deepEqual(sent.at(-1), ['new']);
});
