// The extension as VS Code runs it, with vscode-languageclient's real LanguageClient and the real
// srcls server, in a workspace of one folder (`vscode` stood in by test/vscode-stand-in.js):
// workspace diagnostics arrive, and while nothing changes they are asked for once, not every
// 2 s; a changed file asks again. Requests are counted in the client's own protocol trace
// (srcls.trace.server "messages"), as a user would see them in the srcls output channel.
// Skipped when no built srcls answers (set SRCLS_BINARY).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');
const { pathToFileURL } = require('url');
const { vscodeStandIn } = require('./vscode-stand-in');

const repo = path.resolve(__dirname, '..', '..', '..');
const binary = process.env.SRCLS_BINARY || path.join(repo, 'build', 'server', 'srcls');
const example = path.join(process.env.SRCLS_SOURCE_ROOT || repo, 'docs', 'examples', 'bad-object-storage.source.json');
const skip = fs.existsSync(binary) ? false : `no srcls at ${binary} (set SRCLS_BINARY)`;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const IDLE_MS = 5000; // vscode-languageclient alone asks 3 times in this time

test('workspace diagnostics: asked for once while nothing changes, again when a file changes', { skip, timeout: 60000 }, async (t) => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-ws-'));
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  const file = path.join(ws, 'lake.source.json');
  fs.copyFileSync(example, file);
  const { vscode, diagnostics, output, watchers } = vscodeStandIn(ws, {
    'srcls.serverPath': binary, 'srcls.trace.server': 'messages',
  });
  const original = Module._load;
  Module._load = function load(request, parent, isMain) {
    if (request === 'vscode') return vscode;
    return original.call(this, request, parent, isMain);
  };
  const extPath = require.resolve('../extension.js');
  delete require.cache[extPath];
  let ext;
  try {
    ext = require(extPath);
  } finally {
    Module._load = original;
  }
  const context = { subscriptions: [], extensionPath: path.join(ws, 'no-extension'), extensionUri: vscode.Uri.file(ws) };
  t.after(() => ext.deactivate());
  assert.equal(await ext.activate(context), true, output.join('\n'));

  const requests = () => output.filter((l) => /Sending request 'workspace\/diagnostic /.test(l)).length;
  await sleep(IDLE_MS);
  assert.equal(requests(), 1, 'one request while idle');
  const uri = pathToFileURL(file).href;
  assert.ok((diagnostics.get(uri) || []).some((d) => d.code && (d.code.value || d.code) === 'unknown-field'),
    `the workspace report of ${uri} arrived`);

  // a file changes on disk (a git checkout, another editor): the watcher fires
  fs.appendFileSync(file, '\n');
  watchers.get('**/*.json').fire('change', vscode.Uri.file(file));
  const deadline = Date.now() + 15000;
  while (requests() < 2 && Date.now() < deadline) await sleep(100);
  assert.equal(requests(), 2, 'asked again after the change');
});
