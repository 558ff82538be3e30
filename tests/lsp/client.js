'use strict';
// Test harness for the srcls language server.
//
// Two ways to talk to the real binary (SRCLS_BINARY, default ../../build/server/srcls):
//
//   startClient(t, opts)  a well-behaved LSP client built on vscode-jsonrpc: requests with
//                         timeouts, publishDiagnostics collected per uri, helpers to wait for
//                         the diagnostics of a given version once they have settled.
//   startRaw(t)           raw bytes over the child's stdin and a Content-Length frame reader on
//                         its stdout, for malformed framing, non-JSON bodies and exact counting
//                         of responses.
//
// Both register a t.after() hook that ends the child: it closes the server's stdin, lets it exit
// (which must happen within 2 s, and not by a signal, and without a sanitizer report on stderr
// when SRCLS_BINARY is a sanitizer build: otherwise the hook fails the test), and kills it if it
// is still there. A failing or timed-out test never leaves a server behind; every wait has a
// timeout, so no test can hang.

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
// vscode-languageserver-protocol re-exports vscode-jsonrpc's node transport and adds the LSP
// request and notification types and constants; the suite takes both from there, so the
// method names, error codes and enums under test are the libraries', not ours.
const {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  ResponseError,
  ErrorCodes: RpcErrorCodes,
  LSPErrorCodes,
  InitializeRequest,
  InitializedNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  ExitNotification,
  ConfigurationRequest,
  DiagnosticSeverity,
} = require('vscode-languageserver-protocol/node');

const BINARY = process.env.SRCLS_BINARY
  ? path.resolve(process.env.SRCLS_BINARY)
  : path.resolve(__dirname, '..', '..', 'build', 'server', 'srcls');
// The command line the tests take as the oracle (--check, --list-kinds): the same binary, unless
// SRCLS_CLI_BINARY names another (the WebAssembly server has no --check: the native one stands in).
const CLI_BINARY = process.env.SRCLS_CLI_BINARY ? path.resolve(process.env.SRCLS_CLI_BINARY) : BINARY;
const SOURCE_ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLES = path.join(SOURCE_ROOT, 'docs', 'examples');

// How long a single request may take, and how long diagnostics may take to appear
// (they are debounced while typing). Generous: CI machines and sanitizer builds are slow.
const REQUEST_TIMEOUT = 5000;
const DIAGNOSTICS_TIMEOUT = 8000;
// How long the diagnostics of a uri must stay unchanged to count as settled.
const QUIET_MS = 400;

const ErrorCodes = {
  ParseError: RpcErrorCodes.ParseError, // -32700
  InvalidRequest: RpcErrorCodes.InvalidRequest, // -32600
  MethodNotFound: RpcErrorCodes.MethodNotFound, // -32601
  InvalidParams: RpcErrorCodes.InvalidParams, // -32602
  InternalError: RpcErrorCodes.InternalError, // -32603
  ServerNotInitialized: RpcErrorCodes.ServerNotInitialized, // -32002
  RequestCancelled: LSPErrorCodes.RequestCancelled, // -32800
};

// --check's severity names → LSP DiagnosticSeverity.
const SEVERITY = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

// Every child we start, so that a test process that is torn down kills them all.
const children = new Set();
process.on('exit', () => {
  for (const child of children) {
    try { child.kill('SIGKILL'); } catch { /* already gone */ }
  }
});

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function example(name) {
  return fs.readFileSync(path.join(EXAMPLES, name), 'utf8');
}

function spawnServer(extraEnv) {
  if (!fs.existsSync(BINARY)) {
    throw new Error(`srcls binary not found at ${BINARY} (build it, or set SRCLS_BINARY)`);
  }
  const proc = spawn(BINARY, ['--stdio'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...(extraEnv || {}) },
  });
  children.add(proc);
  const exit = new Promise((resolve) => {
    proc.on('exit', (code, signal) => {
      children.delete(proc);
      resolve({ code, signal });
    });
    proc.on('error', (err) => {
      children.delete(proc);
      resolve({ code: null, signal: null, error: err });
    });
  });
  // The server may close its end first (that is one of the things under test): never let an
  // EPIPE on our side become an uncaught exception.
  proc.stdin.on('error', () => {});
  proc.stdout.on('error', () => {});
  let stderr = '';
  proc.stderr.on('data', (chunk) => {
    if (stderr.length < 1 << 20) stderr += chunk.toString('utf8');
  });
  return { proc, exit, stderr: () => stderr };
}

// Waits for the child to exit; resolves {code, signal} or null when it is still running after
// `ms` milliseconds.
async function waitExit(proc, exit, ms) {
  if (proc.exitCode !== null || proc.signalCode !== null) {
    return { code: proc.exitCode, signal: proc.signalCode };
  }
  let timer;
  const res = await Promise.race([
    exit,
    new Promise((resolve) => { timer = setTimeout(() => resolve(null), ms); }),
  ]);
  clearTimeout(timer);
  return res;
}

async function killChild(proc, exit) {
  if (proc.exitCode === null && proc.signalCode === null) {
    try { proc.kill('SIGKILL'); } catch { /* gone */ }
  }
  await waitExit(proc, exit, 2000);
}

const SANITIZER_MARKERS = ['AddressSanitizer', 'LeakSanitizer', 'UndefinedBehaviorSanitizer', 'runtime error:', 'MemorySanitizer', 'ThreadSanitizer'];

function sanitizerReport(stderr) {
  return SANITIZER_MARKERS.some((m) => stderr.includes(m)) ? stderr.slice(0, 6000) : null;
}

// The end of every session (run by t.after): EOF on the server's stdin, then the server must be
// gone within 2 s, not by a signal, and without a sanitizer report. Kills it in any case.
async function finishChild(session) {
  const { proc, exit } = session;
  let st = await waitExit(proc, exit, 0);
  if (!st) {
    try { proc.stdin.end(); } catch { /* gone */ }
    st = await waitExit(proc, exit, 2000);
  }
  if (session.conn) {
    try { session.conn.dispose(); } catch { /* already disposed */ }
  }
  if (!st) {
    await killChild(proc, exit);
    throw new Error('the server did not exit within 2 s of its stdin closing');
  }
  if (st.signal) {
    throw new Error(`the server died by signal ${st.signal}; stderr:\n${session.stderr().slice(0, 4000)}`);
  }
  const report = sanitizerReport(session.stderr());
  if (report) throw new Error(`sanitizer report on the server's stderr:\n${report}`);
}

// ---------------------------------------------------------------------------------------------
// Client capabilities

// `pull`: the client declares pull diagnostics (and `refresh`, workspace/diagnostic/refresh), so
// the server pushes none; by default it takes pushes (and may still pull).
function clientCapabilities({ encodings, snippets = false, pull = false, refresh = false } = {}) {
  const caps = {
    general: {},
    textDocument: {
      synchronization: { dynamicRegistration: false, didSave: false },
      publishDiagnostics: {
        relatedInformation: true,
        versionSupport: true,
        codeDescriptionSupport: true,
        dataSupport: true,
        tagSupport: { valueSet: [1, 2] },
      },
      completion: {
        completionItem: {
          snippetSupport: snippets,
          insertReplaceSupport: true,
          documentationFormat: ['markdown', 'plaintext'],
          resolveSupport: { properties: ['documentation', 'detail'] },
        },
        contextSupport: true,
      },
      hover: { contentFormat: ['markdown', 'plaintext'] },
      codeAction: {
        codeActionLiteralSupport: {
          codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] },
        },
        isPreferredSupport: true,
        dataSupport: true,
        resolveSupport: { properties: ['edit'] },
      },
      documentSymbol: { hierarchicalDocumentSymbolSupport: true },
      formatting: {},
    },
    workspace: { configuration: false, workspaceFolders: false },
    window: { workDoneProgress: false },
  };
  if (encodings) caps.general.positionEncodings = encodings;
  if (pull) caps.textDocument.diagnostic = { dynamicRegistration: false, relatedDocumentSupport: false };
  if (refresh) caps.workspace.diagnostics = { refreshSupport: true };
  return caps;
}

function initializeParams(opts = {}) {
  return {
    processId: process.pid,
    clientInfo: { name: 'srcls-lsp-tests', version: '0' },
    rootUri: opts.rootUri || null,
    capabilities: opts.capabilities || clientCapabilities(opts),
    trace: opts.trace || 'off',
    workspaceFolders: opts.workspaceFolders || null,
    ...(opts.initializationOptions ? { initializationOptions: opts.initializationOptions } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The vscode-jsonrpc client

class LspClient {
  constructor(spawned, opts) {
    this.proc = spawned.proc;
    this.exit = spawned.exit;
    this.stderr = spawned.stderr;
    this.opts = opts;
    this.publishes = new Map(); // uri -> [PublishDiagnosticsParams, ...] in arrival order
    this.notifications = []; // every notification from the server: {method, params}
    this.serverRequests = []; // every request from the server: {method, params}
    this.rawOut = []; // every byte the server wrote, for "the secret never leaves" checks
    this.rawOutLength = 0;
    this.logErrors = [];
    this.waiters = new Set();
    this.initResult = null;

    this.proc.stdout.on('data', (chunk) => {
      if (this.rawOutLength < 64 << 20) {
        this.rawOut.push(chunk);
        this.rawOutLength += chunk.length;
      }
    });
    const logger = {
      error: (m) => this.logErrors.push(String(m)),
      warn: () => {},
      info: () => {},
      log: () => {},
    };
    this.conn = createMessageConnection(
      new StreamMessageReader(this.proc.stdout),
      new StreamMessageWriter(this.proc.stdin),
      logger,
    );
    this.conn.onError(() => {});
    this.conn.onNotification((method, params) => {
      this.notifications.push({ method, params });
      if (method === PublishDiagnosticsNotification.method && params && params.uri) {
        if (!this.publishes.has(params.uri)) this.publishes.set(params.uri, []);
        this.publishes.get(params.uri).push(params);
      }
      for (const w of [...this.waiters]) w();
    });
    this.conn.onRequest((method, params) => {
      this.serverRequests.push({ method, params });
      if (method === ConfigurationRequest.method) {
        return ((params && params.items) || []).map(() => null);
      }
      return null; // client/registerCapability, window/workDoneProgress/create, ...
    });
    this.conn.listen();
  }

  get alive() {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  output() {
    return Buffer.concat(this.rawOut).toString('utf8');
  }

  // `method` is a method name or a request type of vscode-languageserver-protocol.
  async request(method, params, timeout = REQUEST_TIMEOUT) {
    const name = typeof method === 'string' ? method : method && method.method;
    if (typeof name !== 'string') throw new TypeError(`not a method: ${method}`);
    const sent = params === undefined ? this.conn.sendRequest(method) : this.conn.sendRequest(method, params);
    // A server that dies never answers; fail at once instead of waiting for the timeout.
    const died = this.exit.then((st) => {
      throw new Error(`server exited (code ${st.code}, signal ${st.signal}${st.error ? `, ${st.error.message}` : ''}) before answering ${name}` +
        (this.stderr() ? `; stderr: ${this.stderr().slice(0, 500)}` : ''));
    });
    died.catch(() => {});
    return withTimeout(Promise.race([sent, died]), timeout, `request ${name}`);
  }

  // Sends a request that must fail; resolves to the ResponseError (code, message, data).
  async requestError(method, params, timeout = REQUEST_TIMEOUT) {
    let result;
    try {
      result = await this.request(method, params, timeout);
    } catch (err) {
      if (err instanceof ResponseError) return err;
      throw err;
    }
    const name = typeof method === 'string' ? method : method.method;
    throw new Error(`${name}: expected an error response, got result ${JSON.stringify(result)}`);
  }

  // `method` is a method name or a notification type of vscode-languageserver-protocol.
  notify(method, params) {
    const name = typeof method === 'string' ? method : method && method.method;
    if (typeof name !== 'string') throw new TypeError(`not a method: ${method}`);
    return params === undefined ? this.conn.sendNotification(method) : this.conn.sendNotification(method, params);
  }

  async initialize(opts = {}) {
    this.initResult = await this.request(InitializeRequest.type, initializeParams({ ...this.opts, ...opts }));
    await this.notify(InitializedNotification.type, {});
    return this.initResult;
  }

  get encoding() {
    return (this.initResult && this.initResult.capabilities.positionEncoding) || 'utf-16';
  }

  open(uri, text, version = 1, languageId = 'json') {
    return this.notify(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
  }

  change(uri, version, contentChanges) {
    return this.notify(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges });
  }

  close(uri) {
    return this.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  publishesFor(uri) {
    return this.publishes.get(uri) || [];
  }

  lastPublish(uri) {
    const list = this.publishesFor(uri);
    return list.length ? list[list.length - 1] : undefined;
  }

  // Resolves when cond() returns a truthy value (checked now and on every notification).
  waitFor(cond, timeout, what) {
    const now = cond();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      let timer = null;
      const check = () => {
        let v;
        try { v = cond(); } catch (err) { finish(); reject(err); return; }
        if (v) { finish(); resolve(v); }
      };
      const finish = () => {
        this.waiters.delete(check);
        if (timer) clearTimeout(timer);
      };
      timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out after ${timeout} ms waiting for ${what}` +
          (this.alive ? '' : ` (server exited: code ${this.proc.exitCode}, signal ${this.proc.signalCode})`)));
      }, timeout);
      this.waiters.add(check);
      // Once the server is gone (and its last output read), nothing more can come.
      this.exit.then(() => sleep(100)).then(() => {
        if (!this.waiters.has(check)) return;
        check();
        if (!this.waiters.has(check)) return;
        finish();
        reject(new Error(`server exited (code ${this.proc.exitCode}, signal ${this.proc.signalCode}) while waiting for ${what}`));
      });
    });
  }

  // The first publishDiagnostics for `uri` (from index `from` on) that satisfies pred.
  waitForPublish(uri, pred = () => true, { from = 0, timeout = DIAGNOSTICS_TIMEOUT } = {}) {
    return this.waitFor(
      () => this.publishesFor(uri).slice(from).find(pred),
      timeout,
      `publishDiagnostics for ${uri}`,
    );
  }

  // Waits until a publish for `uri` with `version` arrived and then nothing more arrived for
  // QUIET_MS; returns the last publish (which the caller asserts to be of `version`).
  async settled(uri, version, { timeout = DIAGNOSTICS_TIMEOUT, quiet = QUIET_MS } = {}) {
    const pred = version === undefined ? () => true : (p) => p.version === version;
    await this.waitForPublish(uri, pred, { timeout });
    for (;;) {
      const count = this.publishesFor(uri).length;
      await sleep(quiet);
      if (this.publishesFor(uri).length === count) break;
    }
    return this.lastPublish(uri);
  }

  // Opens a document and returns its settled diagnostics (the publish for version 1).
  async openAndSettle(uri, text, version = 1) {
    await this.open(uri, text, version);
    return this.settled(uri, version);
  }

  // Proves the server is alive and still answering: an unknown method must get MethodNotFound.
  async ping() {
    const err = await this.requestError('srcls-test/ping', {});
    if (err.code !== ErrorCodes.MethodNotFound) {
      throw new Error(`ping: expected MethodNotFound, got ${err.code} ${err.message}`);
    }
  }

  async shutdownAndExit() {
    await this.request(ShutdownRequest.type);
    await this.notify(ExitNotification.type);
    return waitExit(this.proc, this.exit, 2000);
  }

  async dispose() {
    try { this.conn.dispose(); } catch { /* already disposed */ }
    await killChild(this.proc, this.exit);
  }
}

// Starts a server and a client; initializes it unless opts.initialize === false.
// opts: encodings (client's positionEncodings), snippets, trace, capabilities, env.
async function startClient(t, opts = {}) {
  const client = new LspClient(spawnServer(opts.env), opts);
  if (t && t.after) t.after(() => finishChild(client));
  if (opts.initialize !== false) await client.initialize();
  return client;
}

// ---------------------------------------------------------------------------------------------
// Raw bytes

function frame(body) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, 'ascii'), bytes]);
}

class RawSession {
  constructor(spawned) {
    this.proc = spawned.proc;
    this.exit = spawned.exit;
    this.stderr = spawned.stderr;
    this.buffer = Buffer.alloc(0);
    this.messages = []; // parsed, not yet consumed
    this.all = []; // every parsed message
    this.framingErrors = []; // anything on stdout that is not a well-formed frame
    this.waiters = new Set();
    this.proc.stdout.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
      for (const w of [...this.waiters]) w();
    });
    this.proc.stdout.on('end', () => {
      if (this.buffer.length) this.framingErrors.push(`trailing bytes at EOF: ${JSON.stringify(this.buffer.toString('utf8', 0, 200))}`);
      for (const w of [...this.waiters]) w();
    });
  }

  get alive() {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  parse() {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const header = this.buffer.toString('ascii', 0, end);
      const m = /^content-length:\s*(\d+)\s*$/im.exec(header);
      if (!m) {
        this.framingErrors.push(`header without Content-Length: ${JSON.stringify(header)}`);
        this.buffer = this.buffer.subarray(end + 4);
        continue;
      }
      const length = Number(m[1]);
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.toString('utf8', end + 4, end + 4 + length);
      this.buffer = this.buffer.subarray(end + 4 + length);
      let msg;
      try {
        msg = JSON.parse(body);
      } catch {
        this.framingErrors.push(`body is not JSON: ${JSON.stringify(body.slice(0, 200))}`);
        continue;
      }
      this.messages.push(msg);
      this.all.push(msg);
    }
  }

  write(bytes) {
    return new Promise((resolve) => {
      if (!this.proc.stdin.writable) { resolve(false); return; }
      this.proc.stdin.write(bytes, (err) => resolve(!err));
    });
  }

  send(message) {
    return this.write(frame(message));
  }

  request(id, method, params) {
    if (typeof method !== 'string') throw new TypeError(`method must be a string, got ${method}`);
    const msg = { jsonrpc: '2.0', id, method };
    if (params !== undefined) msg.params = params;
    return this.send(msg);
  }

  notify(method, params) {
    if (typeof method !== 'string') throw new TypeError(`method must be a string, got ${method}`);
    const msg = { jsonrpc: '2.0', method };
    if (params !== undefined) msg.params = params;
    return this.send(msg);
  }

  closeStdin() {
    try { this.proc.stdin.end(); } catch { /* gone */ }
  }

  // Takes (consumes) the first message satisfying pred, waiting up to `timeout` ms.
  next(pred = () => true, timeout = REQUEST_TIMEOUT, what = 'a message') {
    const take = () => {
      const i = this.messages.findIndex(pred);
      if (i < 0) return undefined;
      return this.messages.splice(i, 1)[0];
    };
    const now = take();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = take();
        if (m) { finish(); resolve(m); return; }
        if (!this.alive && this.proc.stdout.readableEnded) {
          finish();
          reject(new Error(`server exited (code ${this.proc.exitCode}, signal ${this.proc.signalCode}) while waiting for ${what}`));
        }
      };
      const finish = () => { this.waiters.delete(check); clearTimeout(timer); };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out after ${timeout} ms waiting for ${what}` +
          (this.alive ? '' : ` (server exited: code ${this.proc.exitCode}, signal ${this.proc.signalCode})`)));
      }, timeout);
      this.waiters.add(check);
      this.exit.then(() => setImmediate(check));
    });
  }

  response(id, timeout = REQUEST_TIMEOUT) {
    return this.next((m) => m.id === id && m.method === undefined, timeout, `the response to id ${JSON.stringify(id)}`);
  }

  // Like response(), but resolves null instead of rejecting when the server exits first.
  async responseOrExit(id, timeout = REQUEST_TIMEOUT) {
    try {
      return await this.response(id, timeout);
    } catch (err) {
      if (!this.alive) return null;
      throw err;
    }
  }

  // Collects the messages that arrive during the next `ms` milliseconds (plus any pending).
  async drain(ms) {
    await sleep(ms);
    return this.messages.splice(0);
  }

  async initialize(params = initializeParams()) {
    await this.request('init', InitializeRequest.method, params);
    const res = await this.response('init');
    if (res.error) throw new Error(`initialize failed: ${JSON.stringify(res.error)}`);
    await this.notify(InitializedNotification.method, {});
    return res.result;
  }

  waitExit(ms) {
    return waitExit(this.proc, this.exit, ms);
  }

  async dispose() {
    await killChild(this.proc, this.exit);
  }
}

async function startRaw(t, opts = {}) {
  const raw = new RawSession(spawnServer(opts.env));
  if (t && t.after) t.after(() => finishChild(raw));
  return raw;
}

// ---------------------------------------------------------------------------------------------
// Documents, positions, edits

// LSP position of UTF-16 offset `offset` in `text` (JS strings are UTF-16).
function positionAt(text, offset, encoding = 'utf-16') {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  const lineStart = before.lastIndexOf('\n') + 1;
  const prefix = text.slice(lineStart, offset);
  const character = encoding === 'utf-8' ? Buffer.byteLength(prefix, 'utf8') : prefix.length;
  return { line, character };
}

// UTF-16 offset in `text` of LSP position `pos`.
function offsetAt(text, pos, encoding = 'utf-16') {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < pos.line && i < lines.length; i++) offset += lines[i].length + 1;
  if (pos.line >= lines.length) return text.length;
  const line = lines[pos.line];
  if (encoding === 'utf-8') {
    const bytes = Buffer.from(line, 'utf8');
    const prefix = bytes.subarray(0, Math.min(pos.character, bytes.length)).toString('utf8');
    return offset + prefix.length;
  }
  return offset + Math.min(pos.character, line.length);
}

// Position of the `nth` (0-based) occurrence of `needle` in `text`, plus `delta` characters.
function positionOf(text, needle, { nth = 0, delta = 0, encoding = 'utf-16' } = {}) {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${JSON.stringify(needle)} (occurrence ${nth}) not in the document`);
  }
  return positionAt(text, at + delta, encoding);
}

function rangeOf(text, needle, opts = {}) {
  const start = positionOf(text, needle, opts);
  const end = positionOf(text, needle, { ...opts, delta: (opts.delta || 0) + needle.length });
  return { start, end };
}

// Applies LSP TextEdits (all relative to the original text, as LSP says) to `text`.
function applyEdits(text, edits, encoding = 'utf-16') {
  const resolved = edits.map((e, i) => ({
    start: offsetAt(text, e.range.start, encoding),
    end: offsetAt(text, e.range.end, encoding),
    newText: e.newText,
    i,
  }));
  resolved.sort((a, b) => a.start - b.start || a.end - b.end || a.i - b.i);
  for (let k = 1; k < resolved.length; k++) {
    if (resolved[k].start < resolved[k - 1].end) {
      throw new Error(`overlapping text edits: ${JSON.stringify(edits)}`);
    }
  }
  let out = '';
  let at = 0;
  for (const e of resolved) {
    out += text.slice(at, e.start) + e.newText;
    at = e.end;
  }
  return out + text.slice(at);
}

// Applies didChange-style content changes in order (each relative to the previous result).
function applyChanges(text, changes, encoding = 'utf-16') {
  for (const c of changes) {
    text = c.range ? applyEdits(text, [{ range: c.range, newText: c.text }], encoding) : c.text;
  }
  return text;
}

// The TextEdits for `uri` in a WorkspaceEdit (changes or documentChanges).
function editsFor(workspaceEdit, uri) {
  if (!workspaceEdit) return [];
  const out = [];
  if (workspaceEdit.changes && workspaceEdit.changes[uri]) out.push(...workspaceEdit.changes[uri]);
  for (const dc of workspaceEdit.documentChanges || []) {
    if (dc.textDocument && dc.textDocument.uri === uri) out.push(...dc.edits);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The CLI as an oracle: what `srcls --check --format json` says about a text.

let tmpRoot = null;
function tmpDir() {
  if (!tmpRoot) {
    tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-lsp-'));
    process.on('exit', () => fs.rmSync(tmpRoot, { recursive: true, force: true }));
  }
  return tmpRoot;
}

let tmpCounter = 0;
// A file uri in a private temporary directory (no srcls.json above it but what /tmp holds).
function tmpUri(name = 'doc.source.json') {
  const dir = path.join(tmpDir(), String(++tmpCounter));
  fs.mkdirSync(dir, { recursive: true });
  return 'file://' + path.join(dir, name);
}

// Diagnostics of `text` per the CLI, as LSP-shaped {code, severity, pointer, range} objects.
function cliDiagnostics(text, name = 'doc.source.json') {
  const dir = path.join(tmpDir(), `cli-${++tmpCounter}`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const res = spawnSync(CLI_BINARY, ['--check', '--format', 'json', file], { encoding: 'utf8', timeout: 10000 });
  if (res.status !== 0 && res.status !== 1) {
    throw new Error(`srcls --check exited ${res.status} ${res.signal || ''} ${res.error ? res.error.message : ''}: ${res.stderr}`);
  }
  const out = JSON.parse(res.stdout);
  return out.files[0].diagnostics.map((d) => ({
    code: d.code,
    severity: SEVERITY[d.severity],
    pointer: d.pointer,
    range: d.range,
    message: d.message,
  }));
}

// A comparable, order-independent summary of diagnostics (LSP or CLI shaped).
function summarize(diags) {
  return diags
    .map((d) => {
      const pointer = d.pointer !== undefined ? d.pointer : d.data && d.data.pointer;
      const r = d.range;
      return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character} ${d.severity} ${d.code} ${pointer}`;
    })
    .sort();
}

module.exports = {
  BINARY,
  CLI_BINARY,
  sanitizerReport,
  SOURCE_ROOT,
  EXAMPLES,
  ErrorCodes,
  SEVERITY,
  REQUEST_TIMEOUT,
  DIAGNOSTICS_TIMEOUT,
  sleep,
  withTimeout,
  example,
  clientCapabilities,
  initializeParams,
  startClient,
  startRaw,
  frame,
  positionAt,
  offsetAt,
  positionOf,
  rangeOf,
  applyEdits,
  applyChanges,
  editsFor,
  tmpUri,
  cliDiagnostics,
  summarize,
};
