'use strict';
// Completion and hover as issue 13 asks: value and key edits over the whole string token (one
// TextEdit, for every client) that never leave a stray quote; Markdown or
// plain text as the client's capabilities say (plain text when they say nothing); skeletons in
// an empty file, a bulk file and arrays of objects; a hint in a config without a kind; the time
// now for timestamps; keys ranked and tagged by what the engine says now; and one item that
// fills in every required field, as a snippet or as plain text.

const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const {
  CompletionItemKind,
  CompletionItemTag,
  CompletionRequest,
  HoverRequest,
  InsertTextFormat,
  InsertTextMode,
  MarkupKind,
} = require('vscode-languageserver-protocol/node');
const {
  startClient, clientCapabilities, positionAt, applyEdits, tmpUri,
} = require('./client');

const T = { timeout: 30000 };
const CURSOR = '|';

// `opts` of clientCapabilities, then changes to the completion item and hover capabilities.
function capabilities({ snippets = false, insertReplace = true, tags = false, documentation, hover } = {}) {
  const caps = clientCapabilities({ snippets });
  const item = caps.textDocument.completion.completionItem;
  item.insertReplaceSupport = insertReplace;
  if (tags) item.tagSupport = { valueSet: [CompletionItemTag.Deprecated] };
  if (documentation === null) delete item.documentationFormat;
  else if (documentation) item.documentationFormat = documentation;
  if (hover === null) delete caps.textDocument.hover;
  else if (hover) caps.textDocument.hover = { contentFormat: hover };
  return caps;
}

async function client(t, opts) {
  return startClient(t, { capabilities: capabilities(opts) });
}

// Opens `marked` (its one '|' is the cursor) and completes there.
async function complete(c, marked, name = 'doc.source.json') {
  const at = marked.indexOf(CURSOR);
  assert.ok(at >= 0 && marked.indexOf(CURSOR, at + 1) < 0, 'one cursor');
  const text = marked.slice(0, at) + marked.slice(at + 1);
  const uri = tmpUri(name);
  await c.open(uri, text);
  const position = positionAt(text, at);
  const result = await c.request(CompletionRequest.method, { textDocument: { uri }, position });
  return { uri, text, at, position, items: result ? (Array.isArray(result) ? result : result.items) : [] };
}

function item(items, label) {
  const found = items.find((i) => i.label === label);
  assert.ok(found, `${label} offered (labels: ${items.map((i) => i.label).join(', ')})`);
  return found;
}

function range(text, start, end) {
  return { start: positionAt(text, start), end: positionAt(text, end) };
}

// The text after accepting `it`, as a client applies its TextEdit.
function accept(text, it) {
  return applyEdits(text, [{ range: it.textEdit.range, newText: it.textEdit.newText }]);
}

function byRank(items) {
  return [...items].sort((a, b) => (a.sortText < b.sortText ? -1 : a.sortText > b.sortText ? 1 : 0));
}

const MARKDOWN = /\*\*|`|\||^#|---/m;
const OBJECT_STORAGE = '{\n  "type": "CLOUDA_OBJECT_STORAGE",\n  "config": {\n';

// Every shape of a string the cursor can be in, as an editor leaves it (auto-paired quotes, a
// partly typed word with or without text after the cursor, a lone opening quote, no quote yet),
// for values and keys: the item's TextEdit covers the whole token, quotes and text after the
// cursor included, and accepting it gives valid JSON with one pair of quotes, whether or not the
// client takes InsertReplaceEdits (the server sends none: keeping the rest of a JSON token
// would leave it broken, so inserting and replacing are one edit).
const QUOTE_SHAPES = [
  ['auto-paired quotes', '    "credentialType": "|"', '"NONE"', '    "credentialType": "NONE"'],
  ['a partly typed value, auto-paired', '    "credentialType": "NO|"', '"NONE"', '    "credentialType": "NONE"'],
  ['text after the cursor', '    "credentialType": "NO|NE"', '"NONE"', '    "credentialType": "NONE"'],
  ['another value after the cursor', '    "credentialType": "AC|CESS"', '"ACCESS_KEY"', '    "credentialType": "ACCESS_KEY"'],
  ['an opening quote at the end of a line', '    "credentialType": "|', '"NONE"', '    "credentialType": "NONE"'],
  ['a partly typed value at the end of a line', '    "credentialType": "AC|', '"ACCESS_KEY"', '    "credentialType": "ACCESS_KEY"'],
  ['no quote typed', '    "credentialType": |', '"NONE"', '    "credentialType": "NONE"'],
  ['a key in auto-paired quotes', '    "|"', 'rootPath', '    "rootPath": "/"'],
  ['a partly typed key, auto-paired', '    "ro|"', 'rootPath', '    "rootPath": "/"'],
  ['a key with text after the cursor', '    "ro|ot"', 'rootPath', '    "rootPath": "/"'],
  ['a key at the end of a line', '    "ro|', 'rootPath', '    "rootPath": "/"'],
  ['a key that has its value', '    "ro|": "/data"', 'rootPath', '    "rootPath": "/data"'],
];

describe('the string under the cursor: one pair of quotes in every shape', () => {
  for (const insertReplace of [true, false]) {
    test(`${insertReplace ? 'with' : 'without'} insertReplaceSupport`, T, async (t) => {
      const c = await client(t, { insertReplace });
      for (const [name, line, label, expected] of QUOTE_SHAPES) {
        const { text, at, items } = await complete(c, `${OBJECT_STORAGE}${line}\n  }\n}\n`, `${name.replace(/\W+/g, '-')}.source.json`);
        const it = item(items, label);
        assert.deepEqual(Object.keys(it.textEdit).sort(), ['newText', 'range'], `${name}: a TextEdit`);
        const { start, end } = it.textEdit.range;
        const cursor = positionAt(text, at);
        assert.ok(start.line === cursor.line && end.line === cursor.line && start.character <= cursor.character
          && cursor.character <= end.character, `${name}: the range holds the cursor`);
        const after = accept(text, it);
        assert.equal(after.split('\n')[3], expected, `${name}: ${line} gives ${after}`);
        assert.doesNotThrow(() => JSON.parse(after), `${name}: valid JSON:\n${after}`);
      }
    });
  }

  test('a key in auto-paired quotes above another member: the member, with its comma', T, async (t) => {
    const c = await client(t);
    const { text, items } = await complete(c, `${OBJECT_STORAGE}    "|"\n    "secure": true\n  }\n}\n`);
    const after = accept(text, item(items, 'rootPath'));
    assert.deepEqual(JSON.parse(after).config, { rootPath: '/', secure: true }, after);
  });
});

describe('markup kind', () => {
  const doc = `${OBJECT_STORAGE}    "credentialType": "NONE",\n    |\n  }\n}\n`;

  for (const [name, opts, kind] of [
    ['plaintext only', { documentation: ['plaintext'], hover: ['plaintext'] }, MarkupKind.PlainText],
    ['no format declared (the LSP default)', { documentation: null, hover: null }, MarkupKind.PlainText],
    ['markdown preferred', { documentation: ['markdown', 'plaintext'], hover: ['markdown', 'plaintext'] }, MarkupKind.Markdown],
    ['plaintext preferred', { documentation: ['plaintext', 'markdown'], hover: ['plaintext', 'markdown'] }, MarkupKind.PlainText],
  ]) {
    test(`${name}: hover and completion documentation are ${kind}`, T, async (t) => {
      const c = await client(t, opts);
      const { uri, text, items } = await complete(c, doc);
      const documented = items.filter((i) => i.documentation);
      assert.ok(documented.length > 5);
      for (const i of documented) {
        assert.equal(i.documentation.kind, kind, `${i.label}: ${JSON.stringify(i.documentation)}`);
        if (kind === MarkupKind.PlainText) assert.doesNotMatch(i.documentation.value, MARKDOWN, i.label);
      }
      const places = [text.indexOf('credentialType') + 2, text.indexOf('NONE') + 1, text.indexOf('CLOUDA_OBJECT') + 2];
      for (const at of places) {
        const hover = await c.request(HoverRequest.method, { textDocument: { uri }, position: positionAt(text, at) });
        assert.ok(hover, `a hover at ${at}`);
        assert.equal(hover.contents.kind, kind);
        if (kind === MarkupKind.PlainText) assert.doesNotMatch(hover.contents.value, MARKDOWN, hover.contents.value);
        else assert.match(hover.contents.value, /`/);
      }
    });
  }
});

describe('completion where a whole object goes', () => {
  test('an empty file: a source and a job skeleton, as snippets', T, async (t) => {
    const c = await client(t, { snippets: true });
    const { items } = await complete(c, '|', 'new.source.json');
    assert.deepEqual(items.map((i) => i.label).sort(), ['job', 'source']);
    const source = item(items, 'source');
    assert.equal(source.kind, CompletionItemKind.Snippet);
    assert.equal(source.insertTextFormat, InsertTextFormat.Snippet);
    assert.equal(source.insertTextMode, InsertTextMode.asIs);
    assert.equal(source.textEdit.newText, '{\n  "name": "$1",\n  "type": "$2",\n  "config": {$3}\n}\n');
    const job = item(items, 'job');
    assert.match(job.textEdit.newText, /^\{\n {2}"jobState": "\$\{1\|NOT_SUBMITTED,STARTING,RUNNING,COMPLETED,[A-Z_,]+\|\}"\n\}\n$/);
  });

  test('an empty file, plain text: the skeleton is valid JSON', T, async (t) => {
    const c = await client(t);
    const { text, items } = await complete(c, '\n|\n', 'new.source.json');
    const source = item(items, 'source');
    assert.equal(source.insertTextFormat, InsertTextFormat.PlainText);
    assert.deepEqual(JSON.parse(accept(text, source)), { name: '', type: '', config: {} });
  });

  test('between the elements of a bulk file: a source object, with its comma', T, async (t) => {
    const c = await client(t);
    const { text, items } = await complete(c, '[\n  {"type": "NAS", "config": {}}|\n]\n', 'bulk.source.json');
    assert.equal(items.length, 1);
    const after = accept(text, item(items, 'source'));
    assert.deepEqual(JSON.parse(after)[1], { name: '', type: '', config: {} });
  });

  test('propertyList: [|] and hostList: [|]: an element object with its keys', T, async (t) => {
    const c = await client(t, { snippets: true });
    let { items } = await complete(c, `${OBJECT_STORAGE}    "propertyList": [|]\n  }\n}\n`);
    assert.equal(item(items, '{name, value}').textEdit.newText, '{"name": "$1", "value": "$2"}');
    ({ items } = await complete(c, '{"type": "SEARCH_INDEX", "config": {"hostList": [|]}}'));
    assert.equal(item(items, '{hostname, port}').textEdit.newText, '{"hostname": "$1", "port": ${2:9200}}');
  });

  test('a config whose source has no type: a hint', T, async (t) => {
    const c = await client(t);
    const { items } = await complete(c, '{\n  "name": "x",\n  "config": {|}\n}\n');
    assert.equal(items.length, 1);
    assert.equal(items[0].kind, CompletionItemKind.Text);
    assert.equal(items[0].textEdit.newText, '');
  });

  test('the type key of a new source: every kind identifier as a choice', T, async (t) => {
    const c = await client(t, { snippets: true });
    const { items } = await complete(c, '{\n  "name": "x",\n  |\n}\n');
    assert.match(item(items, 'type').textEdit.newText, /^"type": "\$\{1\|([A-Z0-9_]+,){20,}[A-Z0-9_]+\|\}"$/);
    assert.ok(item(items, 'type').textEdit.newText.includes('CLOUDA_OBJECT_STORAGE,'));
  });

  test('a timestamp field: the time now, UTC with milliseconds', T, async (t) => {
    const c = await client(t);
    const before = Date.now();
    const { items } = await complete(c, '{"jobState": "RUNNING", "startedAt": |}', 'job.json');
    const now = items.find((i) => i.detail === 'now (UTC)');
    assert.ok(now, JSON.stringify(items));
    assert.match(now.label, /^"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$/);
    const at = Date.parse(JSON.parse(now.label));
    assert.ok(at >= before - 1000 && at <= Date.now() + 1000, `${now.label} is now`);
  });
});

describe('ranked by what the engine says now', () => {
  const SEARCH = '{\n  "type": "CLOUDA_SEARCH_SERVICE",\n  "config": {\n    "authenticationType": "NONE",\n    |\n  }\n}\n';

  test('a field that would not apply is last, and Deprecated for a client with tagSupport', T, async (t) => {
    const c = await client(t, { tags: true });
    const { items } = await complete(c, SEARCH);
    const ranked = byRank(items);
    assert.equal(ranked[ranked.length - 1].label, 'accessSecret');
    assert.equal(ranked[ranked.length - 2].label, 'accessKey');
    assert.deepEqual(item(items, 'accessKey').tags, [CompletionItemTag.Deprecated]);
    assert.equal(item(items, 'hostname').tags, undefined);
    const untagged = await client(t);
    for (const i of (await complete(untagged, SEARCH)).items) assert.equal(i.tags, undefined);
  });

  test('after "credentialType": "ACCESS_KEY", accessKey and accessSecret lead the keys', T, async (t) => {
    const c = await client(t);
    const { items } = await complete(c, `${OBJECT_STORAGE}    "credentialType": "ACCESS_KEY",\n    |\n  }\n}\n`);
    const keys = byRank(items.filter((i) => i.kind === CompletionItemKind.Property)).map((i) => i.label);
    assert.deepEqual(keys.slice(0, 2), ['accessKey', 'accessSecret']);
    assert.equal(keys[keys.length - 1], 'cloudaProfile');
  });

  test('an empty VERSIONED_CATALOG config: required-ranked keys are the missing fields the server reports', T, async (t) => {
    const c = await client(t);
    const marked = '{\n  "type": "VERSIONED_CATALOG",\n  "config": {|}\n}\n';
    const { uri, items } = await complete(c, marked);
    const published = await c.settled(uri, 1);
    const missing = published.diagnostics
      .filter((d) => d.code === 'missing-required' || d.code === 'conditional-required')
      .map((d) => d.data.pointer.replace('/config/', ''))
      .sort();
    assert.deepEqual(missing, ['storageType', 'versionedCatalogAccessToken', 'versionedCatalogEndpoint']);
    // Ranks 0 and 1 (required by a value, required) lead the sort text.
    const required = items.filter((i) => i.kind === CompletionItemKind.Property && /^[01]/.test(i.sortText));
    assert.deepEqual(required.map((i) => i.label).sort(), missing);
  });
});

describe('fill required fields', () => {
  const EMPTY = '{\n  "type": "VERSIONED_CATALOG",\n  "config": {|}\n}\n';

  test('a snippet with a tab stop per value, right after the keys required now', T, async (t) => {
    const c = await client(t, { snippets: true });
    const { items } = await complete(c, EMPTY);
    const fill = item(items, 'fill required fields');
    assert.deepEqual(byRank(items).slice(0, 4).map((i) => i.label),
      ['versionedCatalogEndpoint', 'versionedCatalogAccessToken', 'storageType', 'fill required fields']);
    assert.equal(fill.kind, CompletionItemKind.Snippet);
    assert.equal(fill.insertTextFormat, InsertTextFormat.Snippet);
    assert.equal(fill.textEdit.newText,
      '\n    "versionedCatalogEndpoint": "$1",\n    "versionedCatalogAccessToken": "${2:data:,}",\n' +
      '    "storageType": "${3:CLOUDA}"\n  ');
  });

  test('plain text without snippetSupport; accepted, no field it inserted is reported absent', T, async (t) => {
    const c = await client(t);
    const { uri, text, items } = await complete(c, EMPTY);
    const fill = item(items, 'fill required fields');
    assert.equal(fill.insertTextFormat, InsertTextFormat.PlainText);
    const after = accept(text, fill);
    const config = JSON.parse(after).config;
    assert.deepEqual(config, { versionedCatalogEndpoint: '', versionedCatalogAccessToken: 'data:,', storageType: 'CLOUDA' });
    await c.change(uri, 2, [{ text: after }]);
    const published = await c.settled(uri, 2);
    const reported = published.diagnostics.filter((d) => d.code === 'missing-required' || d.code === 'conditional-required');
    for (const field of Object.keys(config)) {
      const about = reported.filter((d) => d.data.pointer === `/config/${field}`);
      // A field inserted empty ("") is there to fill in: reported at its value, never as absent.
      for (const d of about) assert.equal(config[field], '', `${field} still missing`);
      if (config[field] === '') assert.equal(about.length, 1, `${field} empty but not reported`);
    }
  });

  test('a new source once its type is chosen: config with its required fields', T, async (t) => {
    const c = await client(t);
    const { text, items } = await complete(c, '{\n  "name": "cat",\n  "type": "VERSIONED_CATALOG",\n  |\n}\n');
    const fill = item(items, 'config with its required fields');
    assert.deepEqual(JSON.parse(accept(text, fill)).config,
      { versionedCatalogEndpoint: '', versionedCatalogAccessToken: 'data:,', storageType: 'CLOUDA' });
  });

  test('after a typed quote on a fresh line: the item replaces the quote and still matches', T, async (t) => {
    const c = await client(t);
    const { text, at, items } = await complete(c, '{\n  "type": "VERSIONED_CATALOG",\n  "config": {\n    "|\n  }\n}\n');
    const fill = item(items, 'fill required fields');
    assert.equal(fill.filterText, '"fill required fields');
    assert.deepEqual(fill.textEdit.range.start, positionAt(text, at - 1));
    assert.deepEqual(Object.keys(JSON.parse(accept(text, fill)).config),
      ['versionedCatalogEndpoint', 'versionedCatalogAccessToken', 'storageType']);
  });
});
