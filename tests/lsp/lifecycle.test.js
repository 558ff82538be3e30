'use strict';
// Lifecycle and JSON-RPC error paths: initialize and its capabilities, position encoding
// negotiation, ServerNotInitialized / MethodNotFound / InvalidParams / ParseError /
// InvalidRequest, shutdown and exit codes, $/cancelRequest, $/setTrace.

const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const {
  CancellationTokenSource,
  CodeActionKind,
  CompletionRequest,
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  DocumentFormattingRequest,
  DocumentSymbolRequest,
  ExitNotification,
  HoverRequest,
  InitializeRequest,
  LogMessageNotification,
  LogTraceNotification,
  PositionEncodingKind,
  PublishDiagnosticsNotification,
  ResponseError,
  SetTraceNotification,
  ShowMessageNotification,
  ShutdownRequest,
  TextDocumentSyncKind,
} = require('vscode-languageserver-protocol/node');
const {
  ErrorCodes, startClient, startRaw, frame, initializeParams,
  example, positionOf, sleep,
} = require('./client');

const T = { timeout: 30000 };
// A server that has not answered anything yet may still be starting: a WebAssembly build
// compiles its module in Node first, an emulated one starts qemu. The runners of those builds
// name their start-up allowance (SRCLS_START_MS); a native server has none.
const START_MS = Number(process.env.SRCLS_START_MS) || 0;
const BAD = example('bad-object-storage.source.json');
const BAD_URI = 'file:///tmp/x.source.json';

function isResponse(m) {
  return m.method === undefined && ('result' in m || 'error' in m || 'id' in m);
}

describe('initialize', () => {
  test('advertises the capabilities of the contract', T, async (t) => {
    const client = await startClient(t);
    const res = client.initResult;
    const caps = res.capabilities;
    assert.equal(caps.positionEncoding, PositionEncodingKind.UTF16);
    assert.equal(typeof caps.textDocumentSync, 'object', 'textDocumentSync is an options object');
    assert.equal(caps.textDocumentSync.openClose, true);
    assert.equal(caps.textDocumentSync.change, TextDocumentSyncKind.Incremental, 'incremental sync');
    assert.ok(caps.completionProvider, 'completionProvider');
    assert.ok(Array.isArray(caps.completionProvider.triggerCharacters), 'triggerCharacters');
    assert.ok(caps.completionProvider.triggerCharacters.includes('"'), 'triggerCharacters has "');
    assert.equal(caps.hoverProvider, true);
    assert.ok(caps.codeActionProvider && Array.isArray(caps.codeActionProvider.codeActionKinds));
    assert.ok(caps.codeActionProvider.codeActionKinds.includes(CodeActionKind.QuickFix));
    assert.ok(caps.codeActionProvider.codeActionKinds.includes('source.fixAll.srcls'));
    assert.equal(caps.documentSymbolProvider, true);
    assert.equal(caps.documentFormattingProvider, true);
    assert.ok(caps.diagnosticProvider, 'diagnosticProvider');
    assert.equal(caps.diagnosticProvider.interFileDependencies, false);
    assert.equal(caps.diagnosticProvider.workspaceDiagnostics, true);
    assert.ok(res.serverInfo, 'serverInfo');
    assert.equal(res.serverInfo.name, 'srcls');
    assert.equal(typeof res.serverInfo.version, 'string');
    assert.ok(res.serverInfo.version.length > 0);
  });

  const negotiations = [
    { offered: undefined, expected: PositionEncodingKind.UTF16 },
    { offered: [], expected: PositionEncodingKind.UTF16 },
    { offered: [PositionEncodingKind.UTF16], expected: PositionEncodingKind.UTF16 },
    { offered: [PositionEncodingKind.UTF8], expected: PositionEncodingKind.UTF8 },
    { offered: [PositionEncodingKind.UTF8, PositionEncodingKind.UTF16], expected: PositionEncodingKind.UTF8 },
    { offered: [PositionEncodingKind.UTF16, PositionEncodingKind.UTF8], expected: PositionEncodingKind.UTF8 },
    { offered: [PositionEncodingKind.UTF32, PositionEncodingKind.UTF16], expected: PositionEncodingKind.UTF16 },
    { offered: [PositionEncodingKind.UTF32], expected: PositionEncodingKind.UTF16 },
  ];
  for (const { offered, expected } of negotiations) {
    test(`positionEncoding is ${expected} when the client offers ${JSON.stringify(offered)}`, T, async (t) => {
      const client = await startClient(t, { encodings: offered });
      assert.equal(client.initResult.capabilities.positionEncoding, expected);
    });
  }

  test('a second initialize is rejected and the session goes on', T, async (t) => {
    const client = await startClient(t);
    const err = await client.requestError(InitializeRequest.method, initializeParams());
    assert.ok(err.code < 0, `error code ${err.code}`);
    await client.ping();
  });

  test('ids are echoed verbatim (strings, escapes, large numbers)', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const ids = ['abc', 'a"b\\c\u00e9\u{1F600}', 0, -1, 2147483648, 9007199254740991, ''];
    for (const id of ids) {
      await raw.request(id, 'srcls-test/unknown', {});
      const res = await raw.response(id);
      assert.equal(res.error && res.error.code, ErrorCodes.MethodNotFound, `id ${JSON.stringify(id)}`);
    }
  });
});

describe('before initialize', () => {
  test('requests get ServerNotInitialized (-32002), then initialize works', T, async (t) => {
    const client = await startClient(t, { initialize: false });
    for (const [method, params] of [
      [HoverRequest.method, { textDocument: { uri: BAD_URI }, position: { line: 0, character: 0 } }],
      [DocumentSymbolRequest.method, { textDocument: { uri: BAD_URI } }],
      [ShutdownRequest.method, undefined],
      ['srcls-test/unknown', {}],
    ]) {
      const err = await client.requestError(method, params);
      assert.equal(err.code, ErrorCodes.ServerNotInitialized, `${method}: ${err.code} ${err.message}`);
    }
    const res = await client.initialize();
    assert.equal(res.serverInfo.name, 'srcls');
    await client.ping();
  });

  test('notifications are dropped (no response, no diagnostics for a document opened early)', T, async (t) => {
    const raw = await startRaw(t);
    await raw.notify(DidOpenTextDocumentNotification.method, {
      textDocument: { uri: BAD_URI, languageId: 'json', version: 1, text: BAD },
    });
    await raw.notify(SetTraceNotification.type.method, { value: 'verbose' });
    await raw.notify(DidChangeConfigurationNotification.method, { settings: {} });
    await raw.initialize();
    const after = await raw.drain(1500);
    const early = raw.all.filter((m) => m.method === PublishDiagnosticsNotification.method &&
      m.params && m.params.uri === BAD_URI);
    assert.deepEqual(early, [], 'no diagnostics for a document opened before initialize');
    const stray = raw.all.filter((m) => isResponse(m) && m.id !== 'init');
    assert.deepEqual(stray, [], 'no response to notifications');
    assert.ok(Array.isArray(after));
  });
});

describe('error responses', () => {
  test('unknown request → MethodNotFound (-32601), also for $/ requests', T, async (t) => {
    const client = await startClient(t);
    for (const method of ['srcls/noSuchMethod', 'textDocument/noSuchThing', '$/noSuchRequest']) {
      const err = await client.requestError(method, {});
      assert.equal(err.code, ErrorCodes.MethodNotFound, `${method}: ${err.code} ${err.message}`);
    }
  });

  test('unknown notifications are ignored without a response', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.notify('$/foo', { x: 1 });
    await raw.notify('$/progress', { token: 'nope', value: {} });
    await raw.notify('custom/somethingElse', {});
    await raw.notify('textDocument/noSuchNotification', { textDocument: { uri: BAD_URI } });
    await raw.notify('$/bar');
    await raw.request(2, 'srcls-test/unknown', {});
    const res = await raw.response(2);
    assert.equal(res.error.code, ErrorCodes.MethodNotFound);
    await raw.drain(300);
    const stray = raw.all.filter((m) => isResponse(m) && m.id !== 'init' && m.id !== 2);
    assert.deepEqual(stray, [], 'no response to any notification');
  });

  test('bad params → InvalidParams (-32602)', T, async (t) => {
    const client = await startClient(t);
    await client.open(BAD_URI, BAD);
    const noPosition = await client.requestError(HoverRequest.method, { textDocument: { uri: BAD_URI } });
    assert.equal(noPosition.code, ErrorCodes.InvalidParams, `hover without position: ${noPosition.message}`);
    const noDocument = await client.requestError(HoverRequest.method, { position: { line: 0, character: 0 } });
    assert.equal(noDocument.code, ErrorCodes.InvalidParams, `hover without textDocument: ${noDocument.message}`);
    const badPosition = await client.requestError(HoverRequest.method, {
      textDocument: { uri: BAD_URI }, position: { line: 'one', character: 0 },
    });
    assert.equal(badPosition.code, ErrorCodes.InvalidParams, `hover with a string line: ${badPosition.message}`);
    const noUri = await client.requestError(DocumentSymbolRequest.method, { textDocument: {} });
    assert.equal(noUri.code, ErrorCodes.InvalidParams, `documentSymbol without uri: ${noUri.message}`);
    await client.ping();
  });

  test('params that are not an object → InvalidParams (-32602)', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const cases = [5, 'text', true, [1, 2], null];
    let id = 100;
    for (const params of cases) {
      await raw.send({ jsonrpc: '2.0', id, method: HoverRequest.method, params });
      const res = await raw.response(id);
      assert.ok(res.error, `params ${JSON.stringify(params)}: expected an error, got ${JSON.stringify(res)}`);
      assert.equal(res.error.code, ErrorCodes.InvalidParams, `params ${JSON.stringify(params)}`);
      id++;
    }
    await raw.send({ jsonrpc: '2.0', id: 200, method: HoverRequest.method });
    const missing = await raw.response(200);
    assert.equal(missing.error && missing.error.code, ErrorCodes.InvalidParams, 'hover without params');
  });

  test('a body that is not JSON → ParseError (-32700) with id null, and the server goes on', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.write(frame('{"jsonrpc": "2.0", "id": 3, "method": '));
    const res = await raw.response(null);
    assert.equal(res.error && res.error.code, ErrorCodes.ParseError, JSON.stringify(res));
    assert.equal(res.id, null);
    assert.equal(res.jsonrpc, '2.0');
    assert.equal(typeof res.error.message, 'string');
    await raw.request(4, DocumentSymbolRequest.method, { textDocument: { uri: BAD_URI } });
    const ok = await raw.response(4);
    assert.ok('result' in ok || 'error' in ok, JSON.stringify(ok));
    await raw.request(5, ShutdownRequest.method);
    const down = await raw.response(5);
    assert.equal(down.error, undefined, JSON.stringify(down));
    assert.equal(down.result, null);
  });

  test('several non-JSON bodies in a row each get ParseError and a valid request still works', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const bodies = ['{', '}', '[1,', 'nul', '"unterminated', '{"id": 1, "method": "x", }'];
    for (const body of bodies) await raw.write(frame(body));
    for (const body of bodies) {
      const res = await raw.response(null);
      assert.equal(res.error && res.error.code, ErrorCodes.ParseError, `body ${JSON.stringify(body)}`);
    }
    await raw.request(7, DocumentSymbolRequest.method, { textDocument: { uri: BAD_URI } });
    const res = await raw.response(7);
    assert.ok('result' in res || 'error' in res);
  });

  test('valid JSON that is not a JSON-RPC message → InvalidRequest (-32600)', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const cases = [
      { body: '[1,2]', id: null },
      { body: '[]', id: null },
      { body: '42', id: null },
      { body: '"hello"', id: null },
      { body: 'null', id: null },
      { body: '{}', id: null },
      { body: '{"jsonrpc":"2.0","id":5}', id: 5 },
      { body: '{"jsonrpc":"2.0","id":"five","params":{}}', id: 'five' },
      { body: '{"jsonrpc":"2.0","id":6,"method":42}', id: 6 },
      { body: '{"jsonrpc":"2.0","id":7,"method":null}', id: 7 },
    ];
    for (const { body, id } of cases) {
      await raw.write(frame(body));
      const res = await raw.response(id);
      assert.equal(res.error && res.error.code, ErrorCodes.InvalidRequest, `body ${body}: ${JSON.stringify(res)}`);
    }
    await raw.request(8, 'srcls-test/unknown', {});
    assert.equal((await raw.response(8)).error.code, ErrorCodes.MethodNotFound);
  });
});

describe('shutdown and exit', () => {
  test('shutdown → null; then requests → InvalidRequest; exit → code 0', T, async (t) => {
    const client = await startClient(t);
    await client.open(BAD_URI, BAD);
    const res = await client.request(ShutdownRequest.method);
    assert.equal(res, null);
    for (const [method, params] of [
      [HoverRequest.method, { textDocument: { uri: BAD_URI }, position: { line: 1, character: 4 } }],
      [ShutdownRequest.method, undefined],
      ['srcls-test/unknown', {}],
    ]) {
      const err = await client.requestError(method, params);
      assert.equal(err.code, ErrorCodes.InvalidRequest, `${method} after shutdown: ${err.code} ${err.message}`);
    }
    await client.notify(ExitNotification.method);
    const exit = await Promise.race([client.exit, sleep(2000).then(() => null)]);
    assert.ok(exit, 'the server exits after exit');
    assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 0, signal: null });
  });

  test('exit without shutdown → code 1', T, async (t) => {
    const client = await startClient(t);
    await client.notify(ExitNotification.method);
    const exit = await Promise.race([client.exit, sleep(2000).then(() => null)]);
    assert.ok(exit, 'the server exits after exit');
    assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 1, signal: null });
  });

  test('shutdown and exit with "params": null (raw) → result null, then code 0', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.send({ jsonrpc: '2.0', id: 'bye', method: ShutdownRequest.method, params: null });
    const res = await raw.response('bye');
    assert.equal(res.error, undefined, `shutdown with null params: ${JSON.stringify(res.error)}`);
    assert.equal(res.result, null);
    await raw.send({ jsonrpc: '2.0', method: ExitNotification.method, params: null });
    const exit = await raw.waitExit(2000);
    assert.ok(exit, 'the server exits after exit');
    assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 0, signal: null });
  });

  test('exit before initialize → code 1', T, async (t) => {
    const raw = await startRaw(t);
    await raw.notify(ExitNotification.method);
    const exit = await raw.waitExit(2000 + START_MS);
    assert.ok(exit, 'the server exits after exit');
    assert.deepEqual({ code: exit.code, signal: exit.signal }, { code: 1, signal: null });
  });

  test('closing stdin makes the server exit promptly (initialized, with an open document)', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.notify(DidOpenTextDocumentNotification.method, {
      textDocument: { uri: BAD_URI, languageId: 'json', version: 1, text: BAD },
    });
    // Close while the debounce timer is probably still pending.
    raw.closeStdin();
    const exit = await raw.waitExit(2000);
    assert.ok(exit, 'exited within 2 s');
    assert.equal(exit.signal, null, `exited by signal ${exit.signal}`);
  });

  test('closing stdin before initialize makes the server exit promptly', T, async (t) => {
    const raw = await startRaw(t);
    raw.closeStdin();
    const exit = await raw.waitExit(2000 + START_MS);
    assert.ok(exit, `exited within 2 s (+ ${START_MS} ms to start)`);
    assert.equal(exit.signal, null, `exited by signal ${exit.signal}`);
  });
});

describe('$/cancelRequest', () => {
  // A document big enough that pulling its diagnostics takes a moment.
  function bulkDocument(n) {
    const one = JSON.parse(BAD);
    return JSON.stringify(Array.from({ length: n }, (_, i) => ({ ...one, name: `src-${i}` })), null, 2);
  }

  test('a cancelled request gets exactly one answer: its result or RequestCancelled (-32800)', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const uri = 'file:///tmp/bulk.source.json';
    await raw.notify(DidOpenTextDocumentNotification.method, {
      textDocument: { uri, languageId: 'json', version: 1, text: bulkDocument(3000) },
    });
    const requests = [
      [DocumentDiagnosticRequest.method, { textDocument: { uri } }],
      [DocumentSymbolRequest.method, { textDocument: { uri } }],
      [DocumentFormattingRequest.method, { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }],
      [HoverRequest.method, { textDocument: { uri }, position: { line: 3, character: 6 } }],
      [CompletionRequest.method, { textDocument: { uri }, position: { line: 5, character: 6 } }],
    ];
    // Each request and its cancellation in one write, so the cancel usually arrives while the
    // request is queued or running.
    let id = 1000;
    const ids = [];
    for (const [method, params] of requests) {
      ids.push(id);
      await raw.write(Buffer.concat([
        frame({ jsonrpc: '2.0', id, method, params }),
        frame({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } }),
      ]));
      id++;
    }
    await raw.request('after', 'srcls-test/unknown', {});
    await raw.response('after', 15000);
    for (const rid of ids) {
      const res = await raw.response(rid, 15000);
      if (res.error) {
        assert.equal(res.error.code, ErrorCodes.RequestCancelled,
          `request ${rid}: an error other than RequestCancelled: ${JSON.stringify(res.error)}`);
      } else {
        assert.ok('result' in res, `request ${rid}: neither result nor error`);
      }
    }
    await raw.drain(500);
    for (const rid of ids) {
      const n = raw.all.filter((m) => m.id === rid && m.method === undefined).length;
      assert.equal(n, 1, `request ${rid} answered ${n} times`);
    }
  });

  test('cancelling through vscode-jsonrpc: result or RequestCancelled', T, async (t) => {
    const client = await startClient(t);
    const uri = 'file:///tmp/bulk2.source.json';
    await client.open(uri, bulkDocument(2000));
    const source = new CancellationTokenSource();
    const pending = client.conn.sendRequest(DocumentDiagnosticRequest.method, { textDocument: { uri } }, source.token);
    source.cancel();
    let outcome;
    try {
      outcome = await Promise.race([pending, sleep(15000).then(() => { throw new Error('no answer in 15 s'); })]);
    } catch (err) {
      if (!(err instanceof ResponseError)) throw err;
      outcome = err;
    }
    if (outcome instanceof ResponseError) {
      assert.equal(outcome.code, ErrorCodes.RequestCancelled, `${outcome.code} ${outcome.message}`);
    } else {
      assert.equal(outcome.kind, DocumentDiagnosticReportKind.Full);
    }
    await client.ping();
  });

  test('cancelling an unknown or finished request is ignored', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.request(1, 'srcls-test/unknown', {});
    await raw.response(1);
    await raw.notify('$/cancelRequest', { id: 1 });
    await raw.notify('$/cancelRequest', { id: 424242 });
    await raw.notify('$/cancelRequest', { id: 'nope' });
    await raw.notify('$/cancelRequest', {});
    await raw.notify('$/cancelRequest', { id: null });
    await raw.request(2, 'srcls-test/unknown', {});
    await raw.response(2);
    await raw.drain(300);
    const stray = raw.all.filter((m) => isResponse(m) && ![1, 2, 'init'].includes(m.id));
    assert.deepEqual(stray, []);
  });
});

describe('$/setTrace and $/logTrace', () => {
  test('no $/logTrace while trace is off; $/setTrace verbose is accepted', T, async (t) => {
    const client = await startClient(t, { trace: 'off' });
    await client.openAndSettle(BAD_URI, BAD);
    await client.request(HoverRequest.method, {
      textDocument: { uri: BAD_URI }, position: positionOf(BAD, 'credentialType', { delta: 1 }),
    });
    assert.deepEqual(client.notifications.filter((n) => n.method === LogTraceNotification.type.method), [],
      'no $/logTrace while trace is off');

    await client.notify(SetTraceNotification.type.method, { value: 'verbose' });
    await client.change(BAD_URI, 2, [{ text: BAD.replace('raw-landing-zone', 'raw-landing-zone-2') }]);
    await client.settled(BAD_URI, 2);
    await client.request(HoverRequest.method, {
      textDocument: { uri: BAD_URI }, position: positionOf(BAD, 'accessSecret', { delta: 1 }),
    });
    await client.ping();
    for (const n of client.notifications.filter((x) => x.method === LogTraceNotification.type.method)) {
      assert.equal(typeof n.params.message, 'string', JSON.stringify(n));
      if ('verbose' in n.params) assert.equal(typeof n.params.verbose, 'string');
    }
    assert.deepEqual(client.logErrors.filter((e) => /without id|response/i.test(e)), [],
      'no error response to the $/setTrace notification');
  });

  test('trace output never contains a secret value', T, async (t) => {
    const client = await startClient(t, { trace: 'verbose' });
    await client.notify(SetTraceNotification.type.method, { value: 'verbose' });
    await client.openAndSettle(BAD_URI, BAD);
    await client.request(HoverRequest.method, {
      textDocument: { uri: BAD_URI }, position: positionOf(BAD, 'hunter2', { delta: 2 }),
    });
    await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri: BAD_URI } });
    for (const n of client.notifications) {
      if (n.method === LogTraceNotification.type.method || n.method === LogMessageNotification.method || n.method === ShowMessageNotification.method) {
        assert.ok(!JSON.stringify(n.params).includes('hunter2'), `secret in ${n.method}: ${JSON.stringify(n.params)}`);
      }
    }
    assert.ok(!client.stderr().includes('hunter2'), 'secret on stderr');
  });

  test('$/setTrace with a bad value is ignored', T, async (t) => {
    const client = await startClient(t);
    await client.notify(SetTraceNotification.type.method, { value: 'loud' });
    await client.notify(SetTraceNotification.type.method, {});
    await client.notify(SetTraceNotification.type.method, 7);
    await client.ping();
  });
});

