'use strict';
// Hostile and malformed input on the wire and in documents. The server may answer with an
// error or ignore what it cannot use; it must keep running when the framing is intact, may exit
// cleanly when the framing is broken beyond resynchronisation, and must never die by a signal
// (or report a sanitizer error when SRCLS_BINARY is a sanitizer build).

const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const {
  CodeActionRequest,
  CompletionRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  DocumentFormattingRequest,
  DocumentSymbolRequest,
  HoverRequest,
  InitializedNotification,
  ResponseError,
} = require('vscode-languageserver-protocol/node');
const {
  ErrorCodes, startClient, startRaw, frame, example, sleep, sanitizerReport,
} = require('./client');

const T = { timeout: 60000 };
const BAD = example('bad-object-storage.source.json');
const URI = 'file:///tmp/x.source.json';

function assertNoSanitizerReport(stderr) {
  const report = sanitizerReport(stderr);
  assert.equal(report, null, `sanitizer report on stderr:\n${report}`);
}

let pingId = 0;
// The server still answers a valid request (MethodNotFound for an unknown method).
async function assertAnswers(raw, timeout = 10000) {
  const id = `ping-${++pingId}`;
  await raw.request(id, 'srcls-test/ping', {});
  const res = await raw.response(id, timeout);
  assert.equal(res.error && res.error.code, ErrorCodes.MethodNotFound, JSON.stringify(res));
}

// After hostile input: either the server still answers, or (only when `mayExit`) it has
// exited cleanly. Then closing stdin ends it promptly, without a signal.
async function assertSurvives(raw, { mayExit = false } = {}) {
  if (mayExit) {
    if (raw.alive) {
      const id = `ping-${++pingId}`;
      await raw.request(id, 'srcls-test/ping', {});
      const res = await raw.responseOrExit(id, 10000);
      if (res) assert.equal(res.error && res.error.code, ErrorCodes.MethodNotFound, JSON.stringify(res));
    }
  } else {
    await assertAnswers(raw);
  }
  raw.closeStdin();
  const exit = await raw.waitExit(2000);
  assert.ok(exit, 'the server exits within 2 s of stdin closing');
  assert.equal(exit.signal, null, `the server died by signal ${exit.signal}; stderr:\n${raw.stderr().slice(0, 4000)}`);
  assertNoSanitizerReport(raw.stderr());
  assert.deepEqual(raw.framingErrors, [], 'the server wrote malformed frames');
}

// Like assertSurvives for input after which the server must have exited or exit on EOF.
async function assertExitsCleanly(raw) {
  raw.closeStdin();
  const exit = await raw.waitExit(2000);
  assert.ok(exit, 'the server exits within 2 s of EOF');
  assert.equal(exit.signal, null, `the server died by signal ${exit.signal}; stderr:\n${raw.stderr().slice(0, 4000)}`);
  assertNoSanitizerReport(raw.stderr());
}

const validRequest = (id) => frame({ jsonrpc: '2.0', id, method: 'srcls-test/ping', params: {} });

describe('broken framing', () => {
  test('Content-Length larger than the body, then EOF', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.write('Content-Length: 1000\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"shutdown"}');
    await sleep(200);
    await assertExitsCleanly(raw);
  });

  test('a huge Content-Length, then EOF', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.write('Content-Length: 99999999999999999999\r\n\r\n{"jsonrpc":"2.0"');
    await sleep(200);
    await assertExitsCleanly(raw);
  });

  test('Content-Length: 2^62, then a valid message', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.write(Buffer.concat([Buffer.from('Content-Length: 4611686018427387904\r\n\r\n'), validRequest(1)]));
    await sleep(200);
    await assertSurvives(raw, { mayExit: true });
  });

  test('Content-Length: -1', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.write(Buffer.concat([Buffer.from('Content-Length: -1\r\n\r\n'), validRequest(1)]));
    await raw.responseOrExit(1, 2000).catch(() => null);
    await assertSurvives(raw, { mayExit: true });
  });

  for (const header of ['Content-Length: abc', 'Content-Length: ', 'Content-Length: 12abc', 'Content-Length: 0x10', 'Content-Length: 1e3']) {
    test(`a bad header: ${JSON.stringify(header)}`, T, async (t) => {
      const raw = await startRaw(t);
      await raw.initialize();
      await raw.write(Buffer.concat([Buffer.from(`${header}\r\n\r\n`), validRequest(1)]));
      await raw.responseOrExit(1, 2000).catch(() => null);
      await assertSurvives(raw, { mayExit: true });
    });
  }

  test('a header without Content-Length', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const body = '{"jsonrpc":"2.0","id":1,"method":"srcls-test/ping","params":{}}';
    await raw.write(`Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n${body}`);
    await raw.write(validRequest(2));
    await raw.responseOrExit(2, 2000).catch(() => null);
    await assertSurvives(raw, { mayExit: true });
  });

  test('garbage bytes instead of a header', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const garbage = Buffer.alloc(70000);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919) & 0xff;
    await raw.write(garbage);
    await raw.write(validRequest(1));
    await raw.responseOrExit(1, 2000).catch(() => null);
    await assertSurvives(raw, { mayExit: true });
  });

  test('an endless header line (1 MB without CRLF), then EOF', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.write('X-Long: ' + 'a'.repeat(1 << 20));
    await sleep(200);
    await assertExitsCleanly(raw);
  });

  test('EOF in the middle of a header', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.write('Content-Len');
    await assertExitsCleanly(raw);
  });
});

describe('valid framing, hostile bodies (the server must keep answering)', () => {
  test('extra headers, lower-case names and a Content-Type are accepted', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'srcls-test/ping', params: {} }));
    await raw.write(Buffer.concat([
      Buffer.from(`Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n`),
      body,
    ]));
    const res = await raw.response(1);
    assert.equal(res.error.code, ErrorCodes.MethodNotFound);
    await assertSurvives(raw);
  });

  test('a message split into one-byte writes, and several messages in one write', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const bytes = validRequest(1);
    for (let i = 0; i < bytes.length; i++) {
      await raw.write(bytes.subarray(i, i + 1));
      if (i % 16 === 0) await sleep(1);
    }
    assert.equal((await raw.response(1)).error.code, ErrorCodes.MethodNotFound);
    await raw.write(Buffer.concat([validRequest(2), validRequest(3), validRequest(4)]));
    for (const id of [2, 3, 4]) assert.equal((await raw.response(id)).error.code, ErrorCodes.MethodNotFound);
    await assertSurvives(raw);
  });

  test('2000 pipelined requests are all answered', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const n = 2000;
    const chunks = [];
    for (let i = 0; i < n; i++) chunks.push(validRequest(i));
    await raw.write(Buffer.concat(chunks));
    const seen = new Set();
    for (let i = 0; i < n; i++) {
      const res = await raw.response(i, 20000);
      seen.add(res.id);
    }
    assert.equal(seen.size, n);
    await assertSurvives(raw);
  });

  test('Content-Length: 0 (an empty body)', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.write('Content-Length: 0\r\n\r\n');
    const res = await raw.response(null);
    assert.equal(res.error && res.error.code, ErrorCodes.ParseError);
    await assertSurvives(raw);
  });

  test('a 10 MB body of "["', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.write(frame('['.repeat(10 * 1024 * 1024)));
    // An error response (ParseError, id null) or nothing; then it must go on.
    await assertAnswers(raw, 20000);
    const errors = raw.all.filter((m) => m.id === null);
    for (const e of errors) assert.ok(e.error && typeof e.error.code === 'number');
    await assertSurvives(raw);
  });

  // The answer to a request the server could not parse: its own id, or null (ParseError).
  const answerTo = (id) => (m) => m.method === undefined && (m.id === id || m.id === null);

  test('a request nested 100000 levels deep', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const deep = '['.repeat(100000) + ']'.repeat(100000);
    await raw.write(frame(`{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(HoverRequest.method)},"params":${deep}}`));
    // An error (InvalidParams for id 1, or ParseError with id null), or nothing at all.
    const res = await raw.next(answerTo(1), 3000).catch(() => null);
    if (res) assert.ok(res.error, `a nested array is not hover params: ${JSON.stringify(res).slice(0, 200)}`);
    await assertSurvives(raw);
  });

  test('a body of 100000 unbalanced "[" after a valid prefix', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.write(frame(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":${'['.repeat(100000)}`));
    await assertAnswers(raw, 20000);
    await assertSurvives(raw);
  });

  test('deeply nested objects in params of a known request', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const deep = '{"a":'.repeat(50000) + '1' + '}'.repeat(50000);
    await raw.write(frame(`{"jsonrpc":"2.0","id":1,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///tmp/x.json"},"extra":${deep}}}`));
    await raw.next(answerTo(1), 3000).catch(() => null);
    await assertSurvives(raw);
  });

  test('invalid UTF-8 and NUL bytes in bodies', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const bodies = [
      Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"srcls-test/\xff'), Buffer.from([0xff, 0xfe, 0xc0, 0x80]), Buffer.from('","params":{}}')]),
      Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":2,"method":"srcls-test/'), Buffer.from([0x00]), Buffer.from('","params":{}}')]),
      Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('{"jsonrpc":"2.0","id":3,"method":"srcls-test/bom","params":{}}')]),
      Buffer.from([0xed, 0xa0, 0x80]), // a lone surrogate, encoded
    ];
    for (const body of bodies) await raw.write(frame(body));
    await assertAnswers(raw);
    await assertSurvives(raw);
  });

  test('strings with escapes, lone surrogates and huge numbers in params', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const text = '{"name": "\\ud800 \\udc00 \\u0000 \\uZZZZ", "type": 1e999999, "config": {"port": -0.0e-99999}}';
    await raw.notify(DidOpenTextDocumentNotification.method, { textDocument: { uri: URI, languageId: 'json', version: 1, text } });
    await raw.write(frame('{"jsonrpc":"2.0","id":1e400,"method":"srcls-test/ping"}'));
    await raw.write(frame('{"jsonrpc":"2.0","id":1.5,"method":"srcls-test/ping"}'));
    await raw.write(frame('{"jsonrpc":"2.0","id":{"a":1},"method":"srcls-test/ping"}'));
    await raw.write(frame('{"jsonrpc":"2.0","id":"\\ud800","method":"srcls-test/ping"}'));
    await raw.write(frame(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"${URI}"},"position":{"line":1e30,"character":-5}}}`));
    await raw.write(frame(`{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"${URI}"},"position":{"line":0,"character":4294967296}}}`));
    await raw.write(frame(`{"jsonrpc":"2.0","id":4,"method":"textDocument/completion","params":{"textDocument":{"uri":"${URI}"},"position":{"line":99,"character":99}}}`));
    for (const id of [2, 3, 4]) await raw.response(id, 10000);
    await assertSurvives(raw);
  });

  test('the same message repeated: duplicate ids, duplicate keys', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    await raw.write(frame('{"jsonrpc":"2.0","id":1,"id":2,"method":"srcls-test/ping","method":"x","params":{}}'));
    await raw.write(Buffer.concat([validRequest(7), validRequest(7)]));
    await sleep(300);
    await assertSurvives(raw);
  });
});

describe('hostile notifications and documents', () => {
  test('notifications with bad params are ignored without a response', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    const notes = [
      [DidOpenTextDocumentNotification.method, {}],
      [DidOpenTextDocumentNotification.method, { textDocument: { uri: URI } }],
      [DidOpenTextDocumentNotification.method, { textDocument: { uri: 42, languageId: 'json', version: 1, text: '{}' } }],
      [DidOpenTextDocumentNotification.method, { textDocument: { uri: URI, languageId: 'json', version: 'one', text: 5 } }],
      [DidOpenTextDocumentNotification.method, [1, 2, 3]],
      [DidOpenTextDocumentNotification.method, 'x'],
      [DidChangeTextDocumentNotification.method, { textDocument: { uri: 'file:///tmp/never-opened.json', version: 2 }, contentChanges: [{ text: '{}' }] }],
      [DidCloseTextDocumentNotification.method, { textDocument: { uri: 'file:///tmp/never-opened.json' } }],
      [DidChangeTextDocumentNotification.method, {}],
      [DidChangeTextDocumentNotification.method, { textDocument: { uri: URI, version: 2 }, contentChanges: 'no' }],
      [DidChangeConfigurationNotification.method, { settings: 'not an object' }],
      [DidChangeConfigurationNotification.method, { settings: { srcls: { severity: { 'unknown-field': 'loudest' }, types: 5 } } }],
      [DidChangeConfigurationNotification.method, null],
      [InitializedNotification.method, { again: true }],
    ];
    for (const [method, params] of notes) await raw.notify(method, params);
    await assertAnswers(raw);
    await raw.drain(300);
    const stray = raw.all.filter((m) => m.method === undefined && m.id !== 'init' && !String(m.id).startsWith('ping-'));
    assert.deepEqual(stray, [], 'no response to notifications');
    await assertSurvives(raw);
  });

  test('out-of-range and inverted edits do not corrupt the server', T, async (t) => {
    const client = await startClient(t);
    await client.openAndSettle(URI, BAD);
    const edits = [
      { range: { start: { line: 999, character: 0 }, end: { line: 999, character: 5 } }, text: 'x' },
      { range: { start: { line: 0, character: 999 }, end: { line: 0, character: 1000 } }, text: 'y' },
      { range: { start: { line: 5, character: 3 }, end: { line: 2, character: 1 } }, text: 'z' },
      { range: { start: { line: -1, character: -1 }, end: { line: 0, character: 0 } }, text: 'w' },
      { range: { start: { line: 0, character: 0 }, end: { line: 2147483647, character: 2147483647 } }, text: BAD },
    ];
    let v = 1;
    for (const e of edits) await client.change(URI, ++v, [e]);
    // Whatever it made of those, a full-text change puts it back on known ground.
    await client.change(URI, ++v, [{ text: BAD }]);
    const pub = await client.settled(URI, v);
    assert.equal(pub.version, v);
    assert.ok(pub.diagnostics.some((d) => d.code === 'unknown-field'));
    await client.ping();
  });

  test('requests about a document that is not open are answered', T, async (t) => {
    const client = await startClient(t);
    const uri = 'file:///tmp/not-open.source.json';
    const position = { line: 0, character: 0 };
    for (const [method, params] of [
      [HoverRequest.method, { textDocument: { uri }, position }],
      [CompletionRequest.method, { textDocument: { uri }, position }],
      [DocumentSymbolRequest.method, { textDocument: { uri } }],
      [DocumentFormattingRequest.method, { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }],
      [CodeActionRequest.method, { textDocument: { uri }, range: { start: position, end: position }, context: { diagnostics: [] } }],
      [DocumentDiagnosticRequest.method, { textDocument: { uri } }],
    ]) {
      try {
        await client.request(method, params);
      } catch (err) {
        if (!(err instanceof ResponseError)) throw new Error(`${method}: ${err.message}`);
      }
    }
    await client.ping();
  });

  const deepDocuments = {
    'nested 40 deep': '{"type": "CLOUDA_OBJECT_STORAGE", "config": {"propertyList": ' + '['.repeat(40) + ']'.repeat(40) + '}}',
    'unbalanced [ x100000': '['.repeat(100000),
    'balanced [] x100000': '['.repeat(100000) + ']'.repeat(100000),
    'nested config objects x50000': '{"type": "CLOUDA_OBJECT_STORAGE", "config": ' + '{"a":'.repeat(50000) + '1' + '}'.repeat(50000) + '}',
    '10000 keys on one line': '{"config": {' + Array.from({ length: 10000 }, (_, i) => `"k${i}": ${i}`).join(',') + '}}',
    'a 2 MB string': `{"name": "${'x'.repeat(2 << 20)}", "type": "CLOUDA_OBJECT_STORAGE"}`,
    'NUL and control characters': '{"name": "a\u0000b\u0001", "type": "CLOUDA_OBJECT_STORAGE", "config": {"\u0000": 1}}',
    'lone surrogates': '{"name": "\ud800", "type": "CLOUDA_OBJECT_STORAGE", "config": {"\udc00acessKey": "\ud83d"}}',
  };
  for (const [name, text] of Object.entries(deepDocuments)) {
    test(`a hostile document (${name}): published, and every feature answers`, T, async (t) => {
      const client = await startClient(t);
      const uri = 'file:///tmp/hostile.source.json';
      await client.open(uri, text);
      const pub = await client.settled(uri, 1, { timeout: 20000 });
      assert.ok(Array.isArray(pub.diagnostics));
      const lastLine = text.split('\n').length - 1;
      const end = { line: lastLine, character: text.split('\n')[lastLine].length };
      const mid = { line: 0, character: Math.min(50000, text.length >> 1) };
      for (const [method, params] of [
        [DocumentSymbolRequest.method, { textDocument: { uri } }],
        [DocumentFormattingRequest.method, { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }],
        [HoverRequest.method, { textDocument: { uri }, position: mid }],
        [CompletionRequest.method, { textDocument: { uri }, position: mid }],
        [CompletionRequest.method, { textDocument: { uri }, position: end }],
        [CodeActionRequest.method, { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end }, context: { diagnostics: pub.diagnostics.slice(0, 50) } }],
        [DocumentDiagnosticRequest.method, { textDocument: { uri } }],
      ]) {
        try {
          await client.request(method, params, 20000);
        } catch (err) {
          if (!(err instanceof ResponseError)) throw new Error(`${method}: ${err.message}`);
        }
      }
      await client.ping();
      assertNoSanitizerReport(client.stderr());
    });
  }

  test('a 5 MB document: open, edit, close', T, async (t) => {
    const client = await startClient(t);
    const one = JSON.parse(example('03-object-storage-a.source.json'));
    const big = JSON.stringify(Array.from({ length: 6000 }, (_, i) => ({ ...one, name: `s${i}` })), null, 2);
    assert.ok(big.length > 5e6);
    const uri = 'file:///tmp/big.source.json';
    await client.open(uri, big);
    await client.settled(uri, 1, { timeout: 30000 });
    for (let v = 2; v < 12; v++) {
      await client.change(uri, v, [{ range: { start: { line: 2, character: 13 }, end: { line: 2, character: 13 } }, text: 'x' }]);
    }
    const pub = await client.settled(uri, 11, { timeout: 30000 });
    assert.equal(pub.version, 11);
    await client.close(uri);
    await client.waitForPublish(uri, (p) => p.diagnostics.length === 0, { timeout: 10000 });
    await client.ping();
  });
});

describe('a client that stops reading', () => {
  test('the server cannot write its answers: it says why on stderr and exits with 1', T, async (t) => {
    const raw = await startRaw(t);
    await raw.initialize();
    raw.proc.stdout.destroy(); // our reading end closes: the server's next write fails (EPIPE)
    await raw.write(validRequest('after-close'));
    const exit = await raw.waitExit(5000);
    assert.ok(exit, 'the server exits once a write to the client fails');
    assert.equal(exit.signal, null, `the server died by signal ${exit.signal}`);
    assert.equal(exit.code, 1);
    assert.match(raw.stderr(), /srcls: cannot write to the client: /);
    assertNoSanitizerReport(raw.stderr());
  });
});
