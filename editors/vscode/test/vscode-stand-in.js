// Just enough of the `vscode` module for vscode-languageclient's LanguageClient to start a real
// server under plain Node and run its protocol (initialize, settings, the diagnostic pulls): real
// events, cancellation and URIs; every API this does not write is a function returning a
// disposable, and a workspace with one folder and no open document.
'use strict';

const path = require('path');
const { pathToFileURL, fileURLToPath } = require('url');

class Disposable {
  constructor(fn) { this.fn = fn; }
  static from(...items) { return new Disposable(() => items.forEach((d) => d && d.dispose && d.dispose())); }
  dispose() { if (this.fn) this.fn(); this.fn = null; }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener, thisArg) => {
      const l = thisArg ? listener.bind(thisArg) : listener;
      this.listeners.add(l);
      return new Disposable(() => this.listeners.delete(l));
    };
  }
  fire(value) { for (const l of [...this.listeners]) l(value); }
  dispose() { this.listeners.clear(); }
}

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
    this.emitter = emitter;
  }
  cancel() {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose() { this.emitter.dispose(); }
}

class Uri {
  constructor(scheme, fsPath, href) { this.scheme = scheme; this.fsPath = fsPath; this.href = href; this.path = fsPath; }
  static file(p) { return new Uri('file', p, pathToFileURL(p).href); }
  static parse(s) { return s.startsWith('file:') ? Uri.file(fileURLToPath(s)) : new Uri(s.split(':')[0], s, s); }
  toString() { return this.href; }
  toJSON() { return this.href; }
}

class CancellationError extends Error {}

class CodeActionKind {
  constructor(value) { this.value = value; }
  append(part) { return new CodeActionKind(this.value ? `${this.value}.${part}` : part); }
  contains(other) { return this.value === '' || other.value === this.value || other.value.startsWith(this.value + '.'); }
}
CodeActionKind.Empty = new CodeActionKind('');
for (const [k, v] of Object.entries({ QuickFix: 'quickfix', Refactor: 'refactor', Source: 'source',
  SourceOrganizeImports: 'source.organizeImports', SourceFixAll: 'source.fixAll' })) {
  CodeActionKind[k] = new CodeActionKind(v);
}

/**
 * A `vscode` stand-in for a workspace of one folder, with `settings` ({ 'srcls.serverPath': ... }).
 * Returns { vscode, diagnostics (URI string -> items the client set), output (the lines written
 * to output channels), watchers (glob -> { fire(event, uri) }, for every watcher of that glob) }.
 */
function vscodeStandIn(workspaceFolder, settings = {}) {
  const noop = () => new Disposable();
  const diagnostics = new Map();
  const output = [];
  const watchers = new Map();
  const stub = (name) => new Proxy({}, {
    get(target, prop) {
      if (prop in target) return target[prop];
      if (prop === 'then') return undefined;
      return (..._args) => new Disposable();
    },
  });
  const vscode = {
    version: '1.100.3',
    Disposable, EventEmitter, CancellationTokenSource, CancellationError, Uri, CodeActionKind,
    TabInputText: class {}, TabInputTextDiff: class {}, TabInputCustom: class {}, TabInputNotebook: class {},
    TabInputNotebookDiff: class {},
    env: { appName: 'stand-in', language: 'en', openExternal: async () => true },
    workspace: Object.assign(stub('workspace'), {
      textDocuments: [],
      workspaceFolders: [{ uri: Uri.file(workspaceFolder), name: path.basename(workspaceFolder), index: 0 }],
      getConfiguration: (section) => ({
        get: (key, dflt) => {
          const name = section ? `${section}.${key}` : key;
          return name in settings ? settings[name] : dflt;
        },
        has: () => false,
        inspect: () => undefined,
        update: async () => {},
      }),
      findFiles: async () => [],
      createFileSystemWatcher: (glob) => {
        const emitters = { create: new EventEmitter(), change: new EventEmitter(), delete: new EventEmitter() };
        // the extension's and the client's (for the server's registrations) alike
        if (!watchers.has(glob)) watchers.set(glob, { emitters: [], fire(event, uri) { this.emitters.forEach((e) => e[event].fire(uri)); } });
        watchers.get(glob).emitters.push(emitters);
        return {
          onDidCreate: emitters.create.event, onDidChange: emitters.change.event, onDidDelete: emitters.delete.event,
          dispose() {},
        };
      },
      onDidChangeConfiguration: noop,
      getWorkspaceFolder: () => undefined,
    }),
    window: Object.assign(stub('window'), {
      activeTextEditor: undefined,
      visibleTextEditors: [],
      tabGroups: { all: [], onDidChangeTabs: noop, onDidChangeTabGroups: noop },
      createOutputChannel: (name) => ({
        name,
        append(text) { output.push(text); },
        appendLine(line) { output.push(line); },
        replace() {}, clear() {}, show() {}, hide() {}, dispose() {},
      }),
      setStatusBarMessage: noop,
      showErrorMessage: async () => undefined,
      showWarningMessage: async () => undefined,
      showInformationMessage: async () => undefined,
    }),
    languages: Object.assign(stub('languages'), {
      match: () => 0,
      createDiagnosticCollection: (name) => ({
        name,
        set(uri, items) { diagnostics.set(String(uri), items || []); },
        delete(uri) { diagnostics.delete(String(uri)); },
        get(uri) { return diagnostics.get(String(uri)); },
        has(uri) { return diagnostics.has(String(uri)); },
        forEach(fn) { diagnostics.forEach((v, k) => fn(Uri.parse(k), v)); },
        clear() { diagnostics.clear(); },
        dispose() { diagnostics.clear(); },
      }),
    }),
    commands: stub('commands'),
    extensions: Object.assign(stub('extensions'), { all: [], getExtension: () => undefined }),
  };
  // Any other class (CompletionItem, Diagnostic, Range, ...) is a plain one that keeps its
  // arguments; any other enum is an object of numbers.
  const classes = new Map();
  const whole = new Proxy(vscode, {
    get(target, prop) {
      if (prop in target || typeof prop !== 'string') return target[prop];
      if (!/^[A-Z]/.test(prop)) return undefined;
      if (!classes.has(prop)) {
        const C = class { constructor(...args) { this.args = args; } };
        Object.defineProperty(C, 'name', { value: prop });
        classes.set(prop, new Proxy(C, { get: (c, k) => (k in c ? c[k] : 0) }));
      }
      return classes.get(prop);
    },
  });
  return { vscode: whole, diagnostics, output, watchers };
}

module.exports = { vscodeStandIn };
