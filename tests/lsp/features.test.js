'use strict';
// Editor features: completion, hover, code actions, document symbols, formatting.

const { spawnSync } = require('node:child_process');
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const {
  CodeActionKind,
  CodeActionTriggerKind,
  CodeActionRequest,
  CodeActionResolveRequest,
  CompletionRequest,
  CompletionResolveRequest,
  CompletionTriggerKind,
  DiagnosticSeverity,
  DocumentFormattingRequest,
  DocumentSymbolRequest,
  HoverRequest,
  InsertTextFormat,
  MarkupKind,
  SymbolKind,
} = require('vscode-languageserver-protocol/node');
const {
  CLI_BINARY, startClient, example, offsetAt, positionAt, positionOf, rangeOf, applyEdits, editsFor,
  tmpUri, cliDiagnostics, summarize,
} = require('./client');

const T = { timeout: 30000 };
const BAD = example('bad-object-storage.source.json');
const BAD_URI = 'file:///tmp/x.source.json';
const SECRET = 'hunter2';
const CURSOR = '<|>';
const CREDENTIAL_TYPES = ['NONE', 'CLOUDA_VM_METADATA', 'ACCESS_KEY', 'CLOUDA_PROFILE'];

// A document with a cursor marker: {text, position}.
function withCursor(src, encoding = 'utf-16') {
  const at = src.indexOf(CURSOR);
  assert.ok(at >= 0, 'no cursor marker');
  const text = src.slice(0, at) + src.slice(at + CURSOR.length);
  return { text, position: positionAt(text, at, encoding), offset: at };
}

function items(result) {
  if (!result) return [];
  return Array.isArray(result) ? result : result.items;
}

function unquote(s) {
  return s.replace(/^"(.*)"$/, '$1');
}

function find(list, label) {
  return list.find((i) => unquote(i.label) === label);
}

// The text after accepting `item` at `position`, as a client does: the textEdit (the insert
// range of an InsertReplaceEdit) or else insertText/label at the cursor; additionalTextEdits too.
function accept(text, position, item) {
  const edits = [];
  if (item.textEdit) {
    const range = item.textEdit.range || item.textEdit.insert;
    edits.push({ range, newText: item.textEdit.newText });
  } else {
    edits.push({ range: { start: position, end: position }, newText: item.insertText || item.label });
  }
  for (const e of item.additionalTextEdits || []) edits.push(e);
  return applyEdits(text, edits);
}

function lineOf(text, needle) {
  const line = text.split('\n').find((l) => l.includes(needle));
  assert.ok(line !== undefined, `no line with ${needle} in:\n${text}`);
  return line;
}

async function complete(client, uri, src, context) {
  const { text, position } = withCursor(src);
  await client.open(uri, text);
  const result = await client.request(CompletionRequest.method, {
    textDocument: { uri },
    position,
    ...(context ? { context } : {}),
  });
  return { text, position, result, list: items(result) };
}

function kindIdentifiers() {
  const res = spawnSync(CLI_BINARY, ['--list-kinds'], { encoding: 'utf8' });
  const ids = [];
  for (const line of res.stdout.split('\n')) {
    const m = /^\s*\d+\s+(.+?)\s{2,}/.exec(line);
    if (m) ids.push(...m[1].split(/,\s*/));
  }
  return ids;
}

const KEY_DOC = `{
  "name": "lake",
  "type": "CLOUDA_OBJECT_STORAGE",
  "config": {
    "credentialType": "ACCESS_KEY",
    "secure": true,
    ${CURSOR}
  }
}
`;

describe('completion', () => {
  const keyCases = {
    'an empty line after the last key': KEY_DOC,
    'right after "config": {': `{
  "name": "lake",
  "type": "CLOUDA_OBJECT_STORAGE",
  "config": {${CURSOR}
    "credentialType": "ACCESS_KEY",
    "secure": true
  }
}
`,
    'a typed opening quote': KEY_DOC.replace(CURSOR, `"${CURSOR}`),
    'an auto-closed pair of quotes': KEY_DOC.replace(CURSOR, `"${CURSOR}"`),
    'a partly typed key': KEY_DOC.replace(CURSOR, `"ac${CURSOR}`),
    'a partly typed key in closed quotes': KEY_DOC.replace(CURSOR, `"ac${CURSOR}"`),
  };
  for (const [name, src] of Object.entries(keyCases)) {
    test(`keys of the kind in config (${name}): accessKey with a textEdit, not the present keys`, T, async (t) => {
      const client = await startClient(t);
      const uri = tmpUri('complete.source.json');
      const context = src.includes(`"${CURSOR}`) ? { triggerKind: CompletionTriggerKind.TriggerCharacter, triggerCharacter: '"' } : { triggerKind: CompletionTriggerKind.Invoked };
      const { text, position, list } = await complete(client, uri, src, context);
      const accessKey = find(list, 'accessKey');
      assert.ok(accessKey, `accessKey offered (labels: ${list.map((i) => i.label).join(', ')})`);
      assert.equal(accessKey.label, 'accessKey');
      assert.ok(accessKey.textEdit, 'accessKey has a textEdit');
      const range = accessKey.textEdit.range || accessKey.textEdit.insert;
      assert.equal(range.start.line, position.line, 'the edit is on the cursor line');
      assert.ok(range.start.character <= position.character && range.end.character >= position.character,
        `the edit range ${JSON.stringify(range)} covers the cursor ${JSON.stringify(position)}`);
      for (const present of ['credentialType', 'secure']) {
        assert.equal(find(list, present), undefined, `${present} is already present and must not be offered`);
      }
      for (const topLevel of ['name', 'config', 'accessControlList']) {
        assert.equal(find(list, topLevel), undefined, `top-level key ${topLevel} is not a config key`);
      }
      for (const item of list) {
        assert.notEqual(item.insertTextFormat, InsertTextFormat.Snippet, `a snippet for a client without snippet support: ${JSON.stringify(item)}`);
      }
      const after = accept(text, position, accessKey);
      const inserted = after.slice(offsetAt(text, range.start)).split('\n')[0].trim();
      assert.match(inserted, /^"accessKey"\s*:\s*("[^"]*"|[^\s",]+)?\s*,?$/, `accepted: ${lineOf(after, 'accessKey')}`);
      assert.ok(!/\$\{?\d/.test(after), 'no snippet placeholders in plain text');
    });
  }

  test('key completion fills defaults (snippet client) and stays plain without snippets', T, async (t) => {
    const doc = KEY_DOC.replace('"secure": true,\n', '');
    const snippetClient = await startClient(t, { snippets: true });
    const uri = tmpUri('defaults.source.json');
    const { list } = await complete(snippetClient, uri, doc);
    const secure = find(list, 'secure');
    assert.ok(secure && secure.textEdit, 'secure offered with a textEdit');
    assert.match(secure.textEdit.newText, /true/, `default true filled: ${secure.textEdit.newText}`);
    const plainClient = await startClient(t, { snippets: false });
    const plain = find((await complete(plainClient, tmpUri('plain.source.json'), doc)).list, 'secure');
    assert.ok(plain && plain.textEdit);
    assert.notEqual(plain.insertTextFormat, InsertTextFormat.Snippet);
    assert.match(plain.textEdit.newText, /"secure"\s*:\s*true/, `plain text: ${plain.textEdit.newText}`);
  });

  test('snippets: the value is tab stop 1 — the default selected, enum values as a choice', T, async (t) => {
    const client = await startClient(t, { snippets: true });
    const src = `{\n  "type": "CLOUDA_OBJECT_STORAGE",\n  "config": {${CURSOR}}\n}\n`;
    const { list } = await complete(client, tmpUri('snippets.source.json'), src);
    const newText = (label) => {
      const item = find(list, label);
      assert.ok(item && item.textEdit, `${label} offered with a textEdit`);
      assert.equal(item.insertTextFormat, InsertTextFormat.Snippet, `${label} is a snippet`);
      return item.textEdit.newText;
    };
    assert.equal(newText('secure'), '"secure": ${1:true}');
    assert.equal(newText('rootPath'), '"rootPath": "${1:/}"');
    assert.equal(newText('externalBucketList'), '"externalBucketList": [$1]');
    assert.equal(newText('credentialType'), `"credentialType": "\${1|${CREDENTIAL_TYPES.join(',')}|}"`);
    assert.equal(newText('accessSecret'), '"accessSecret": "${1:data:,}"');
  });

  const enumCases = {
    'after the colon': `    "credentialType": ${CURSOR}`,
    'inside auto-closed quotes': `    "credentialType": "${CURSOR}"`,
    'after a typed quote': `    "credentialType": "${CURSOR}`,
  };
  for (const [name, line] of Object.entries(enumCases)) {
    test(`enum values of credentialType (${name})`, T, async (t) => {
      const client = await startClient(t);
      const src = `{\n  "name": "lake",\n  "type": "CLOUDA_OBJECT_STORAGE",\n  "config": {\n${line}\n  }\n}\n`;
      const context = line.includes(`"${CURSOR}`) ? { triggerKind: CompletionTriggerKind.TriggerCharacter, triggerCharacter: '"' } : { triggerKind: CompletionTriggerKind.Invoked };
      const { text, position, list } = await complete(client, tmpUri('enum.source.json'), src, context);
      for (const value of CREDENTIAL_TYPES) {
        assert.ok(find(list, value), `${value} offered (labels: ${list.map((i) => i.label).join(', ')})`);
      }
      assert.equal(find(list, 'accessKey'), undefined, 'no keys in a value position');
      const after = accept(text, position, find(list, 'ACCESS_KEY'));
      assert.match(lineOf(after, 'credentialType').trim(), /^"credentialType": "ACCESS_KEY",?$/,
        `accepted: ${lineOf(after, 'credentialType')}`);
    });
  }

  test('boolean values', T, async (t) => {
    const client = await startClient(t);
    const src = `{\n  "type": "CLOUDA_OBJECT_STORAGE",\n  "config": {\n    "secure": ${CURSOR}\n  }\n}\n`;
    const { list } = await complete(client, tmpUri('bool.source.json'), src);
    assert.ok(find(list, 'true'), `true offered (labels: ${list.map((i) => i.label).join(', ')})`);
    assert.ok(find(list, 'false'), 'false offered');
  });

  for (const [name, src] of Object.entries({
    'after the colon': `{\n  "type": ${CURSOR}\n}\n`,
    'inside auto-closed quotes': `{\n  "type": "${CURSOR}"\n}\n`,
    'with a config present': `{\n  "name": "x",\n  "type": "${CURSOR}",\n  "config": {"accessKey": "a"}\n}\n`,
  })) {
    test(`type identifiers (${name})`, T, async (t) => {
      const client = await startClient(t);
      const context = src.includes(`"${CURSOR}`) ? { triggerKind: CompletionTriggerKind.TriggerCharacter, triggerCharacter: '"' } : { triggerKind: CompletionTriggerKind.Invoked };
      const { text, position, list } = await complete(client, tmpUri('type.source.json'), src, context);
      const ids = kindIdentifiers();
      assert.ok(ids.length >= 26, `kind identifiers from --list-kinds: ${ids}`);
      for (const id of ids) assert.ok(find(list, id), `${id} offered`);
      const after = accept(text, position, find(list, 'CLOUDA_OBJECT_STORAGE'));
      assert.match(lineOf(after, '"type"').trim(), /^"type": "CLOUDA_OBJECT_STORAGE",?$/, `accepted: ${lineOf(after, '"type"')}`);
    });
  }

  test('completionItem/resolve (when offered) keeps the item and never shows a secret', T, async (t) => {
    const client = await startClient(t);
    if (!client.initResult.capabilities.completionProvider.resolveProvider) {
      t.skip('no resolveProvider');
      return;
    }
    const { list } = await complete(client, tmpUri('resolve.source.json'), KEY_DOC);
    const item = find(list, 'accessKey');
    assert.ok(item);
    const resolved = await client.request(CompletionResolveRequest.method, item);
    assert.equal(resolved.label, item.label);
    assert.deepEqual(resolved.textEdit, item.textEdit, 'resolve does not move the edit');
  });
});

describe('hover', () => {
  const GOOD = example('03-object-storage-a.source.json');

  test('credentialType key: Markdown with the enum values', T, async (t) => {
    const client = await startClient(t);
    await client.open(BAD_URI, GOOD);
    const position = positionOf(GOOD, '"credentialType"', { delta: 3 });
    const hover = await client.request(HoverRequest.method, { textDocument: { uri: BAD_URI }, position });
    assert.ok(hover, 'a hover');
    assert.equal(typeof hover.contents, 'object');
    assert.equal(hover.contents.kind, MarkupKind.Markdown, `MarkupContent, markdown: ${JSON.stringify(hover.contents)}`);
    for (const value of CREDENTIAL_TYPES) assert.ok(hover.contents.value.includes(value), `mentions ${value}`);
    assert.match(hover.contents.value, /public buckets only/i, 'the meaning of the enum values');
    if (hover.range) {
      assert.deepEqual(hover.range, rangeOf(GOOD, '"credentialType"'), 'the range is the key');
    }
  });

  test('on the first character of a key or a value, as a mouse over it asks', T, async (t) => {
    const client = await startClient(t);
    await client.open(BAD_URI, GOOD);
    for (const [what, delta] of [['"secure"', 0], ['"credentialType"', 0]]) {
      const position = positionOf(GOOD, what, { delta });
      const hover = await client.request(HoverRequest.method, { textDocument: { uri: BAD_URI }, position });
      assert.ok(hover, `a hover on the first character of ${what}`);
      assert.deepEqual(hover.range, rangeOf(GOOD, what), 'the range is the key');
    }
    const value = GOOD.indexOf('"secure"') + '"secure": '.length;
    const lines = GOOD.slice(0, value).split('\n');
    const position = { line: lines.length - 1, character: lines[lines.length - 1].length };
    const hover = await client.request(HoverRequest.method, { textDocument: { uri: BAD_URI }, position });
    assert.ok(hover, 'a hover on the first character of the value');
    assert.equal(hover.range.start.character, position.character, 'the range starts at the value');
  });

  test('a field with a default mentions its type and default', T, async (t) => {
    const client = await startClient(t);
    await client.open(BAD_URI, GOOD);
    const hover = await client.request(HoverRequest.method, {
      textDocument: { uri: BAD_URI }, position: positionOf(GOOD, '"secure"', { delta: 2 }),
    });
    assert.ok(hover && hover.contents.kind === MarkupKind.Markdown);
    assert.match(hover.contents.value, /boolean/i);
    assert.match(hover.contents.value, /true/);
    assert.match(hover.contents.value, /SSL/, 'the description');
  });

  test('secret field: hover on its key (and its value) never contains the value', T, async (t) => {
    const client = await startClient(t);
    await client.open(BAD_URI, BAD);
    const onKey = await client.request(HoverRequest.method, {
      textDocument: { uri: BAD_URI }, position: positionOf(BAD, '"accessSecret"', { delta: 3 }),
    });
    assert.ok(onKey, 'a hover on a known key');
    assert.equal(onKey.contents.kind, MarkupKind.Markdown);
    assert.ok(!JSON.stringify(onKey).includes(SECRET), `hover shows the secret: ${JSON.stringify(onKey)}`);
    const onValue = await client.request(HoverRequest.method, {
      textDocument: { uri: BAD_URI }, position: positionOf(BAD, SECRET, { delta: 3 }),
    });
    assert.ok(!JSON.stringify(onValue).includes(SECRET), `hover shows the secret: ${JSON.stringify(onValue)}`);
  });

  test('no hover or completion anywhere in the document shows the secret', { timeout: 120000 }, async (t) => {
    const client = await startClient(t);
    await client.open(BAD_URI, BAD);
    const secretLine = positionOf(BAD, SECRET).line;
    const lines = BAD.split('\n');
    for (let line = 0; line < lines.length; line++) {
      for (let character = 0; character <= lines[line].length; character++) {
        const params = { textDocument: { uri: BAD_URI }, position: { line, character } };
        const hover = await client.request(HoverRequest.method, params);
        assert.ok(!JSON.stringify(hover || null).includes(SECRET), `hover at ${line}:${character}`);
        if (line === secretLine || character === 0) {
          const completion = await client.request(CompletionRequest.method, params);
          assert.ok(!JSON.stringify(completion || null).includes(SECRET), `completion at ${line}:${character}`);
        }
      }
    }
  });
});

describe('code actions', () => {
  async function resolveAction(client, action) {
    if (action.edit || !action.data) return action;
    return client.request(CodeActionResolveRequest.method, action);
  }

  test('unknown-field on acessKey: a quickfix titled with accessKey renames the key', T, async (t) => {
    const client = await startClient(t);
    const pub = await client.openAndSettle(BAD_URI, BAD);
    const diag = pub.diagnostics.find((d) => d.code === 'unknown-field');
    assert.ok(diag, 'the unknown-field diagnostic');
    const actions = await client.request(CodeActionRequest.method, {
      textDocument: { uri: BAD_URI },
      range: diag.range,
      context: { diagnostics: [diag], triggerKind: CodeActionTriggerKind.Invoked },
    });
    assert.ok(Array.isArray(actions), 'a list of code actions');
    const fix = actions.find((a) => a.kind === CodeActionKind.QuickFix && typeof a.title === 'string' && a.title.includes('accessKey'));
    assert.ok(fix, `a quickfix naming accessKey (got ${JSON.stringify(actions.map((a) => [a.kind, a.title]))})`);
    if (fix.diagnostics) assert.ok(fix.diagnostics.some((d) => d.code === 'unknown-field'));
    const resolved = await resolveAction(client, fix);
    const edits = editsFor(resolved.edit, BAD_URI);
    assert.ok(edits.length > 0, `the fix edits the document: ${JSON.stringify(resolved)}`);
    const fixed = applyEdits(BAD, edits);
    assert.ok(fixed.includes('"accessKey": "AKIAEXAMPLE"'), `renamed:\n${fixed}`);
    assert.ok(!fixed.includes('acessKey'));
    assert.equal(fixed, BAD.replace('"acessKey"', '"accessKey"'), 'only the key changes');
    await client.change(BAD_URI, 2, [{ text: fixed }]);
    const after = await client.settled(BAD_URI, 2);
    assert.equal(after.diagnostics.filter((d) => d.code === 'unknown-field').length, 0);
    assert.equal(after.diagnostics.filter((d) => d.code === 'conditional-required').length, 0);
  });

  test('the quickfix is offered for an empty range inside the key', T, async (t) => {
    const client = await startClient(t);
    const pub = await client.openAndSettle(BAD_URI, BAD);
    const at = positionOf(BAD, 'acessKey', { delta: 2 });
    const actions = await client.request(CodeActionRequest.method, {
      textDocument: { uri: BAD_URI },
      range: { start: at, end: at },
      context: { diagnostics: pub.diagnostics.filter((d) => d.range.start.line === at.line) },
    });
    assert.ok((actions || []).some((a) => a.kind === CodeActionKind.QuickFix && a.title.includes('accessKey')));
  });

  test('kind-inferred: a quickfix inserts the inferred type', T, async (t) => {
    const client = await startClient(t);
    const text = example('bad-no-type.source.json');
    const uri = tmpUri('notype.source.json');
    const pub = await client.openAndSettle(uri, text);
    const diag = pub.diagnostics.find((d) => d.code === 'kind-inferred');
    assert.ok(diag, JSON.stringify(pub.diagnostics));
    assert.equal(diag.severity, DiagnosticSeverity.Hint);
    const actions = await client.request(CodeActionRequest.method, {
      textDocument: { uri }, range: diag.range, context: { diagnostics: [diag] },
    });
    const fix = (actions || []).find((a) => a.kind === CodeActionKind.QuickFix);
    assert.ok(fix, JSON.stringify(actions));
    const fixed = applyEdits(text, editsFor((await resolveAction(client, fix)).edit, uri));
    const parsed = JSON.parse(fixed);
    assert.equal(parsed.type, 'NETWORK_ATTACHED_STORAGE');
    assert.deepEqual(summarize(cliDiagnostics(fixed, 'notype.source.json')).filter((s) => s.includes('kind-inferred')), []);
  });

  test('context.only source.fixAll returns only fix-all actions, whose edits apply cleanly', T, async (t) => {
    const client = await startClient(t);
    const pub = await client.openAndSettle(BAD_URI, BAD);
    const all = { start: { line: 0, character: 0 }, end: positionAt(BAD, BAD.length) };
    const actions = await client.request(CodeActionRequest.method, {
      textDocument: { uri: BAD_URI }, range: all, context: { diagnostics: pub.diagnostics, only: [CodeActionKind.SourceFixAll] },
    });
    for (const a of actions || []) {
      assert.ok(a.kind && a.kind.startsWith(CodeActionKind.SourceFixAll), `kind ${a.kind} for only source.fixAll`);
      const resolved = await resolveAction(client, a);
      const fixed = applyEdits(BAD, editsFor(resolved.edit, BAD_URI));
      assert.doesNotThrow(() => JSON.parse(fixed), `fix-all leaves valid JSON:\n${fixed}`);
    }
    const quick = await client.request(CodeActionRequest.method, {
      textDocument: { uri: BAD_URI }, range: all, context: { diagnostics: pub.diagnostics, only: [CodeActionKind.QuickFix] },
    });
    for (const a of quick || []) assert.equal(a.kind, CodeActionKind.QuickFix);
  });
});

describe('document symbols', () => {
  test('config is a symbol with children', T, async (t) => {
    const client = await startClient(t);
    const GOOD = example('03-object-storage-a.source.json');
    await client.open(BAD_URI, GOOD);
    const symbols = await client.request(DocumentSymbolRequest.method, { textDocument: { uri: BAD_URI } });
    assert.ok(Array.isArray(symbols) && symbols.length > 0);
    const config = symbols.find((s) => s.name === 'config');
    assert.ok(config, `a config symbol (got ${symbols.map((s) => s.name)})`);
    assert.ok(Array.isArray(config.children) && config.children.length > 0, 'config has children');
    const names = config.children.map((c) => c.name);
    for (const key of ['accessKey', 'credentialType', 'propertyList']) assert.ok(names.includes(key), `child ${key} (got ${names})`);
    assert.ok(symbols.some((s) => s.name === 'type'));
    assert.equal(config.kind, SymbolKind.Module, 'the config of a known kind is a module');
    assert.equal(symbols.find((s) => s.name === 'type').kind, SymbolKind.String);
    assert.equal(config.children.find((c) => c.name === 'propertyList').kind, SymbolKind.Array);
    const inside = (outer, inner) =>
      (outer.start.line < inner.start.line || (outer.start.line === inner.start.line && outer.start.character <= inner.start.character)) &&
      (outer.end.line > inner.end.line || (outer.end.line === inner.end.line && outer.end.character >= inner.end.character));
    const check = (s) => {
      assert.equal(typeof s.kind, 'number');
      assert.ok(inside(s.range, s.selectionRange), `selectionRange inside range for ${s.name}`);
      for (const c of s.children || []) {
        assert.ok(inside(s.range, c.range), `child ${c.name} inside ${s.name}`);
        check(c);
      }
    };
    symbols.forEach(check);
    assert.deepEqual(config.selectionRange, rangeOf(GOOD, '"config"'), 'selectionRange is the key');
  });
});

describe('formatting', () => {
  const UGLY = '{"name":"x","type":"CLOUDA_OBJECT_STORAGE",   "config":{"credentialType":"ACCESS_KEY",\n\n\n' +
    '"secure":true,"externalBucketList":["a","b"],"maxCacheSpacePct":80,"propertyList":[{"name":"p","value":"v"}],' +
    '"empty":{},"none":[],"escaped":"\\u00e9\\n\\"q\\"","emoji":"😀","num":-1.5e3,"null":null}}';
  const OPTIONS = { tabSize: 2, insertSpaces: true };

  // The JSON tokens of a text (strings and numbers exactly as written); anything else is a
  // one-character token, so broken documents tokenize too.
  function tokens(text) {
    return text.match(/"(?:[^"\\\n]|\\.)*"?|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[A-Za-z_]+|\S/g);
  }

  async function format(client, uri, options = OPTIONS) {
    const edits = await client.request(DocumentFormattingRequest.method, { textDocument: { uri }, options });
    return edits || [];
  }

  for (const encoding of ['utf-16', 'utf-8']) {
    test(`edits give valid JSON with the same key order; formatting again gives no edits (${encoding})`, T, async (t) => {
      const client = await startClient(t, { encodings: [encoding] });
      assert.equal(client.encoding, encoding);
      await client.open(BAD_URI, UGLY);
      const edits = await format(client, BAD_URI);
      assert.ok(Array.isArray(edits) && edits.length > 0, 'edits for an unformatted document');
      const formatted = applyEdits(UGLY, edits, encoding);
      let parsed;
      assert.doesNotThrow(() => { parsed = JSON.parse(formatted); }, `valid JSON:\n${formatted}`);
      assert.equal(JSON.stringify(parsed), JSON.stringify(JSON.parse(UGLY)), 'same values, same key order');
      assert.deepEqual(tokens(formatted), tokens(UGLY), 'only whitespace between tokens changes');
      assert.ok(formatted.split('\n').some((l) => /^ {2}"name"/.test(l)), `two-space indent:\n${formatted}`);
      assert.ok(formatted.split('\n').some((l) => /^ {4}"credentialType"/.test(l)), `nested indent:\n${formatted}`);
      await client.change(BAD_URI, 2, [{ text: formatted }]);
      const again = await format(client, BAD_URI);
      assert.deepEqual(again, [], `formatting a formatted document: ${JSON.stringify(again)}`);
    });
  }

  test('tabSize and insertSpaces are honoured', T, async (t) => {
    const client = await startClient(t);
    await client.open(BAD_URI, UGLY);
    const four = applyEdits(UGLY, await format(client, BAD_URI, { tabSize: 4, insertSpaces: true }));
    assert.ok(four.split('\n').some((l) => /^ {4}"name"/.test(l)), `four spaces:\n${four}`);
    const tabs = applyEdits(UGLY, await format(client, BAD_URI, { tabSize: 4, insertSpaces: false }));
    assert.ok(tabs.split('\n').some((l) => /^\t"name"/.test(l)), `a tab:\n${tabs}`);
    assert.equal(JSON.stringify(JSON.parse(tabs)), JSON.stringify(JSON.parse(UGLY)));
  });

  test('a document with a syntax error is not mangled', T, async (t) => {
    const client = await startClient(t);
    const broken = example('bad-syntax.source.json');
    await client.open(BAD_URI, broken);
    let edits;
    try {
      edits = await format(client, BAD_URI);
    } catch (err) {
      return; // refusing is fine
    }
    const out = applyEdits(broken, edits);
    assert.deepEqual(tokens(out), tokens(broken), 'only whitespace between tokens may change in a broken document');
  });
});
