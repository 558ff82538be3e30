// The settings the extension builds, sent to the real srcls server the way vscode-languageclient
// sends them (initializationOptions, then workspace/didChangeConfiguration), over the same
// vscode-jsonrpc the client uses. Checks that the server reads that shape: a severity override
// changes a diagnostic's severity, "off" removes it, an extra type identifier is known.
// Skipped when no built srcls answers `initialize` (set SRCLS_BINARY).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = require('vscode-jsonrpc/node');
const config = require('../lib/config');

const repo = path.resolve(__dirname, '..', '..', '..');
const binary = process.env.SRCLS_BINARY || path.join(repo, 'build', 'server', 'srcls');
const example = path.join(process.env.SRCLS_SOURCE_ROOT || repo, 'docs', 'examples', 'bad-object-storage.source.json');

function speaksLsp() {
  if (!fs.existsSync(binary)) return `no srcls at ${binary} (set SRCLS_BINARY)`;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
  const r = childProcess.spawnSync(binary, ['--stdio'], {
    input: `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`, encoding: 'utf8', timeout: 5000,
  });
  return /"result"\s*:\s*\{\s*"capabilities"/.test(r.stdout || '') ? false : `${binary} --stdio does not answer initialize`;
}

function start(t, initializationOptions) {
  const child = childProcess.spawn(binary, ['--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published = [];
  const waiters = [];
  connection.onNotification('textDocument/publishDiagnostics', (p) => {
    published.push(p);
    for (const w of waiters.splice(0)) w();
  });
  let settings = initializationOptions;
  connection.onRequest('workspace/configuration', (p) => config.configurationResponse(p.items, settings));
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  t.after(() => {
    connection.dispose();
    child.kill();
  });

  // The diagnostics of the next publish that satisfies `pred`, within 10 s.
  async function diagnostics(pred) {
    const deadline = Date.now() + 10000;
    for (;;) {
      const last = published.at(-1);
      if (last && pred(last.diagnostics)) return last.diagnostics;
      const left = deadline - Date.now();
      assert.ok(left > 0, `timed out; last published: ${JSON.stringify(last && last.diagnostics.map((d) => d.code))}`);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }
  return {
    connection,
    diagnostics,
    setSettings(s) { settings = s; },
    async initialize() {
      await connection.sendRequest('initialize', {
        processId: process.pid,
        rootUri: null,
        capabilities: { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } } },
        initializationOptions,
      });
      connection.sendNotification('initialized', {});
    },
  };
}

const byCode = (diags, code) => diags.filter((d) => d.code === code);
const skip = speaksLsp();

test('the server reads the extension\'s initializationOptions and didChangeConfiguration settings', { skip, timeout: 30000 }, async (t) => {
  const initial = config.clientOptions({ severity: { 'unknown-field': 'error', 'not-applicable': 'off' } });
  const server = start(t, initial.initializationOptions);
  await server.initialize();
  const uri = pathToFileURL(example).href;
  const text = fs.readFileSync(example, 'utf8');
  server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });

  let diags = await server.diagnostics((d) => byCode(d, 'unknown-field').length === 1);
  assert.equal(byCode(diags, 'unknown-field')[0].severity, 1, 'unknown-field raised to error');
  assert.equal(byCode(diags, 'unknown-field')[0].range.start.line, 6);
  assert.equal(byCode(diags, 'not-applicable').length, 0, 'not-applicable turned off');

  const next = config.serverSettings({ severity: { 'unknown-field': 'off' } }).settings;
  server.setSettings(next);
  server.connection.sendNotification('workspace/didChangeConfiguration', { settings: next });
  diags = await server.diagnostics((d) => byCode(d, 'unknown-field').length === 0);
  assert.equal(byCode(diags, 'not-applicable').length, 1, 'not-applicable back at its default');
  assert.equal(byCode(diags, 'not-applicable')[0].severity, 2);
});

test('extra type identifiers from srcls.types make a custom "type" known', { skip, timeout: 30000 }, async (t) => {
  const opts = config.clientOptions({ types: { MY_S3: 'CLOUDA_OBJECT_STORAGE' } });
  const server = start(t, opts.initializationOptions);
  await server.initialize();
  const uri = 'file:///tmp/custom.source.json';
  const text = fs.readFileSync(example, 'utf8').replace('"CLOUDA_OBJECT_STORAGE"', '"MY_S3"');
  server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
  const diags = await server.diagnostics((d) => d.length > 0);
  assert.deepEqual(byCode(diags, 'unknown-kind'), []);
  assert.equal(byCode(diags, 'invalid-enum').length, 1, 'the fields of CLOUDA_OBJECT_STORAGE are checked');

  const none = config.serverSettings({ types: {} }).settings;
  server.setSettings(none);
  server.connection.sendNotification('workspace/didChangeConfiguration', { settings: none });
  const after = await server.diagnostics((d) => byCode(d, 'unknown-kind').length === 1);
  assert.equal(after.length, 1);
});
