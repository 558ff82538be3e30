'use strict';
// Navigation: folding ranges, selection ranges, inlay hints, and the outline of a bulk file.

const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const {
  DocumentRangeFormattingRequest,
  HoverRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  InlayHintKind,
  InlayHintRequest,
  SelectionRangeRequest,
} = require('vscode-languageserver-protocol/node');
const {
  startClient, clientCapabilities, example, offsetAt, positionAt, positionOf, tmpUri, applyEdits,
} = require('./client');

const T = { timeout: 30000 };

// The text a Range covers.
function textOf(text, range) {
  return text.slice(offsetAt(text, range.start), offsetAt(text, range.end));
}

describe('navigation', () => {
  test('the server declares folding, selection ranges and inlay hints', T, async (t) => {
    const client = await startClient(t);
    const caps = client.initResult.capabilities;
    assert.equal(caps.foldingRangeProvider, true);
    assert.equal(caps.selectionRangeProvider, true);
    assert.equal(caps.inlayHintProvider, true);
    assert.equal(caps.documentRangeFormattingProvider, true);
  });

  test('range formatting re-spaces the selected lines only, strings untouched', T, async (t) => {
    const client = await startClient(t);
    const text = '{"name":"a  b",\n"type":   "NETWORK_ATTACHED_STORAGE",   "config" :{"path":"/x"}}\n';
    const uri = tmpUri('range.source.json');
    await client.open(uri, text);
    const range = { start: { line: 1, character: 0 }, end: { line: 1, character: 10 } };
    const edits = await client.request(DocumentRangeFormattingRequest.method,
      { textDocument: { uri }, range, options: { tabSize: 2, insertSpaces: true } });
    assert.ok(edits.length > 0);
    for (const e of edits) assert.ok(e.range.start.line <= 1 && e.range.end.line >= 1, JSON.stringify(e));
    const after = applyEdits(text, edits);
    assert.ok(after.startsWith('{"name":"a  b",'), after); // the first line as it was
    assert.ok(after.includes('"type": "NETWORK_ATTACHED_STORAGE"'), after);
  });

  test('folding ranges: every object and array over several lines, the closing line left out', T, async (t) => {
    const client = await startClient(t);
    const text = '{\n  "name": "n",\n  "type": "NETWORK_ATTACHED_STORAGE",\n  "config": {\n    "path": "/x",\n    "hosts": [1, 2]\n  }\n}\n';
    const uri = tmpUri('fold.source.json');
    await client.open(uri, text);
    const folds = await client.request(FoldingRangeRequest.method, { textDocument: { uri } });
    assert.deepEqual(folds.map((f) => [f.startLine, f.endLine]), [[0, 6], [3, 5]]);
  });

  test('folding ranges in a bulk file: the array, each source, each config', T, async (t) => {
    const client = await startClient(t);
    const doc = JSON.parse(example('01-search-service.source.json'));
    const text = JSON.stringify([doc, doc, doc], null, 2);
    const uri = tmpUri('bulk.json');
    await client.open(uri, text);
    const all = await client.request(FoldingRangeRequest.method, { textDocument: { uri } });
    assert.equal(all.length, 7); // the array, three sources, three configs
  });

  test('folding ranges respect the client\'s rangeLimit: whole levels, outermost first', T, async (t) => {
    const capabilities = clientCapabilities();
    capabilities.textDocument.foldingRange = { rangeLimit: 3, lineFoldingOnly: true };
    const client = await startClient(t, { capabilities });
    const doc = JSON.parse(example('01-search-service.source.json'));
    const text = JSON.stringify([doc, doc, doc], null, 2);
    const uri = tmpUri('limited.json');
    await client.open(uri, text);
    const folds = await client.request(FoldingRangeRequest.method, { textDocument: { uri } });
    // the array (1) and its three sources (3) would be 4: only the outermost level fits
    assert.deepEqual(folds.map((f) => f.startLine), [0]);
  });

  test('selection ranges grow from the cursor: text, string, member, object, ... document', T, async (t) => {
    const client = await startClient(t);
    const text = example('bad-object-storage.source.json');
    const uri = tmpUri('sel.source.json');
    await client.open(uri, text);
    const position = positionOf(text, '"ORC"', { delta: 2 });
    const [sel] = await client.request(SelectionRangeRequest.method, { textDocument: { uri }, positions: [position] });
    const chain = [];
    for (let s = sel; s; s = s.parent) chain.push(textOf(text, s.range));
    assert.equal(chain[0], 'ORC');
    assert.equal(chain[1], '"ORC"');
    assert.equal(chain[2], '"defaultCtasFormat": "ORC"');
    assert.ok(chain[3].startsWith('{') && chain[3].includes('"defaultCtasFormat"'));
    assert.ok(chain[4].startsWith('"config": {'));
    assert.equal(chain[chain.length - 1], text.trimEnd());
    for (let i = 1; i < chain.length; i++) assert.ok(chain[i].length > chain[i - 1].length);
  });

  test('inlay hints: the kind of each bulk source, an inferred kind, the defaults others depend on', T, async (t) => {
    const client = await startClient(t);
    const text = '[\n  {"type": "CLOUDA_OBJECT_STORAGE", "config": {"credentialType": "NONE"}},\n  {"config": {"path": "/x"}}\n]\n';
    const uri = tmpUri('hints.json');
    await client.open(uri, text);
    const end = positionAt(text, text.length);
    const hints = await client.request(InlayHintRequest.method, { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end } });
    const seen = hints.map((h) => [h.label, offsetAt(text, h.position), h.kind]);
    assert.deepEqual(seen, [
      ['Object storage A', text.indexOf('{"type"') + 1, InlayHintKind.Type],
      ['isCachingEnabled: true (default)', text.indexOf('"NONE"}') + 6, InlayHintKind.Parameter],
      ['NETWORK_ATTACHED_STORAGE (inferred)', text.indexOf('{"config"') + 1, InlayHintKind.Type],
    ]);
    const second = await client.request(InlayHintRequest.method, { textDocument: { uri }, range: { start: { line: 2, character: 0 }, end } });
    assert.deepEqual(second.map((h) => h.label), ['NETWORK_ATTACHED_STORAGE (inferred)']);
  });

  test('hover in a source links to its kind\'s section of the docs (markdown and plain text)', T, async (t) => {
    const fs = require('node:fs');
    const path = require('node:path');
    const kinds = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'kinds.md'), 'utf8');
    assert.ok(kinds.includes('\n## 3. Object storage A\n'), 'the heading the anchor is made from');
    const text = '[\n  {"type": "CLOUDA_OBJECT_STORAGE", "config": {"credentialType": "NONE"}}\n]\n';
    for (const format of ['markdown', 'plaintext']) {
      const capabilities = clientCapabilities();
      capabilities.textDocument.hover = { contentFormat: [format] };
      const client = await startClient(t, { capabilities });
      const uri = tmpUri('hover.json');
      await client.open(uri, text);
      const hover = await client.request(HoverRequest.method, { textDocument: { uri }, position: positionOf(text, 'credentialType', { delta: 2 }) });
      assert.equal(hover.contents.kind, format);
      assert.ok(hover.contents.value.includes('/kinds.md#3-object-storage-a'), hover.contents.value);
    }
  });

  test('the outline of a bulk file names each source by its name', T, async (t) => {
    const client = await startClient(t);
    const text = JSON.stringify([JSON.parse(example('01-search-service.source.json')), { config: { path: '/x' } }], null, 2);
    const uri = tmpUri('outline.json');
    await client.open(uri, text);
    const symbols = await client.request(DocumentSymbolRequest.method, { textDocument: { uri } });
    assert.deepEqual(symbols.map((s) => s.name), ['[0] product-search', '[1]']);
  });
});
