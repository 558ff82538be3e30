'use strict';
// Quick fixes and fix-all through the server: the exact edit (range and text) of each action,
// which one is preferred, what source.fixAll.srcls holds, and the Unnecessary tag of a field
// that has no effect. Every edit is applied and the result must be valid JSON.

const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const {
  CodeActionKind,
  CodeActionRequest,
  DiagnosticTag,
  DocumentDiagnosticRequest,
} = require('vscode-languageserver-protocol/node');
const { startClient, positionAt, applyEdits, editsFor, tmpUri } = require('./client');

const T = { timeout: 30000 };
const FIX_ALL = 'source.fixAll.srcls';

// Opens `text` and returns {uri, diagnostics, actions}: every code action for the whole text.
async function actionsFor(t, text, only) {
  const client = await startClient(t);
  const uri = tmpUri('doc.source.json');
  const pub = await client.openAndSettle(uri, text);
  const range = { start: { line: 0, character: 0 }, end: positionAt(text, text.length) };
  const context = { diagnostics: pub.diagnostics };
  if (only) context.only = only;
  const actions = await client.request(CodeActionRequest.method, { textDocument: { uri }, range, context });
  assert.ok(Array.isArray(actions), 'a list of code actions');
  return { client, uri, diagnostics: pub.diagnostics, actions };
}

function titles(actions) {
  return JSON.stringify(actions.map((a) => [a.kind, a.title, a.isPreferred]));
}

// The one quickfix titled `title`.
function quickfix(actions, title) {
  const found = actions.filter((a) => a.kind === CodeActionKind.QuickFix && a.title === title);
  assert.equal(found.length, 1, `one quickfix "${title}" (got ${titles(actions)})`);
  return found[0];
}

// The edit of a single-edit action, as {start, end, newText} in offsets of `text`.
function offsetsOf(text, action, uri) {
  const edits = editsFor(action.edit, uri);
  assert.equal(edits.length, 1, JSON.stringify(action.edit));
  return { range: edits[0].range, newText: edits[0].newText };
}

// `text` with `action` applied; it must be valid JSON.
function applied(text, action, uri) {
  const fixed = applyEdits(text, editsFor(action.edit, uri));
  assert.doesNotThrow(() => JSON.parse(fixed), `valid JSON after "${action.title}":\n${fixed}`);
  return fixed;
}

function rangeAt(text, start, end) {
  return { start: positionAt(text, start), end: positionAt(text, end) };
}

describe('quick fixes', () => {
  test('add a required field: an empty string where the schema gives nothing better, not preferred', T, async (t) => {
    const text = '{"type": "NETWORK_ATTACHED_STORAGE", "config": {}}';
    const { uri, actions } = await actionsFor(t, text);
    const add = quickfix(actions, 'Add "path"');
    assert.equal(add.isPreferred, false);
    assert.ok(add.diagnostics.some((d) => d.code === 'missing-required'));
    const at = text.indexOf('{}') + 1;
    assert.deepEqual(offsetsOf(text, add, uri), { range: rangeAt(text, at, at), newText: '\n  "path": ""\n' });
    assert.equal(applied(text, add, uri), '{"type": "NETWORK_ATTACHED_STORAGE", "config": {\n  "path": ""\n}}');
    assert.equal(actions.filter((a) => a.kind === FIX_ALL).length, 0, 'nothing safe to fix');
  });

  test('add a required field: the first enum value, and data:, for a secret', T, async (t) => {
    const text = '{"type": "PEER_CLUSTER", "config": {"hostname": "h", "port": 31010, "username": "u"}}';
    const { uri, actions } = await actionsFor(t, text);
    const at = text.indexOf('"hostname"');
    assert.deepEqual(offsetsOf(text, quickfix(actions, 'Add "hostType"'), uri),
      { range: rangeAt(text, at, at), newText: '"hostType": "DIRECT", ' });
    assert.deepEqual(offsetsOf(text, quickfix(actions, 'Add "password"'), uri),
      { range: rangeAt(text, at, at), newText: '"password": "data:,", ' });
  });

  test('a misspelled missing field: the rename is preferred and in fix-all; no "Add"', T, async (t) => {
    const text = '{"type": "OPEN_RELATIONAL_DB_B", "config": {"hostnam": "h", "port": 5432, ' +
      '"databaseName": "d", "authenticationType": "ANONYMOUS"}}';
    const { uri, actions } = await actionsFor(t, text);
    const rename = quickfix(actions, 'Rename to "hostname"'); // once, though two diagnostics offer it
    assert.equal(rename.isPreferred, true);
    const at = text.indexOf('"hostnam"');
    assert.deepEqual(offsetsOf(text, rename, uri), { range: rangeAt(text, at, at + 9), newText: '"hostname"' });
    assert.ok(!actions.some((a) => a.title === 'Add "hostname"'), titles(actions));
    const all = actions.filter((a) => a.kind === FIX_ALL);
    assert.equal(all.length, 1);
    assert.deepEqual(editsFor(all[0].edit, uri), [{ range: rangeAt(text, at, at + 9), newText: '"hostname"' }]);
    assert.equal(applied(text, all[0], uri), text.replace('"hostnam"', '"hostname"'));
  });

  test('add all missing required fields: one action, in the schema order', T, async (t) => {
    const text = '{"type": "PEER_CLUSTER", "config": {"hostType": "DIRECT"}}';
    const { uri, actions } = await actionsFor(t, text);
    const all = quickfix(actions, 'Add all 4 missing required fields');
    assert.equal(all.isPreferred, false);
    const at = text.indexOf('"hostType"');
    assert.deepEqual(offsetsOf(text, all, uri), {
      range: rangeAt(text, at, at),
      newText: '"hostname": "", "port": "31010", "username": "", "password": "data:,", ',
    });
    const fixed = JSON.parse(applied(text, all, uri));
    assert.deepEqual(Object.keys(fixed.config), ['hostname', 'port', 'username', 'password', 'hostType']);
  });

  test('a duplicate key and a trailing comma: the earlier member goes; the comma goes in fix-all', T, async (t) => {
    const text = '{"type": "NETWORK_ATTACHED_STORAGE", "config": {"path": "/a", "path": "/b",}}';
    const { uri, actions } = await actionsFor(t, text);
    const dup = quickfix(actions, 'Remove the earlier duplicate (the last one takes effect)');
    assert.equal(dup.isPreferred, true);
    const first = text.indexOf('"path"');
    assert.deepEqual(offsetsOf(text, dup, uri), { range: rangeAt(text, first, first + '"path": "/a", '.length), newText: '' });
    const comma = quickfix(actions, 'Remove the trailing comma');
    const at = text.lastIndexOf(',');
    assert.deepEqual(offsetsOf(text, comma, uri), { range: rangeAt(text, at, at + 1), newText: '' });
    const all = actions.filter((a) => a.kind === FIX_ALL);
    assert.equal(all.length, 1);
    assert.equal(applied(text, all[0], uri), '{"type": "NETWORK_ATTACHED_STORAGE", "config": {"path": "/a", "path": "/b"}}');
    const both = applyEdits(text, [...editsFor(dup.edit, uri), ...editsFor(comma.edit, uri)]);
    assert.equal(both, '{"type": "NETWORK_ATTACHED_STORAGE", "config": {"path": "/b"}}');
  });

  test('an unknown type: change to the nearest kind, preferred', T, async (t) => {
    const text = '{"type": "NETWORK_ATACHED_STORAGE", "config": {"path": "/a"}}';
    const { uri, actions } = await actionsFor(t, text);
    const change = quickfix(actions, 'Change to "NETWORK_ATTACHED_STORAGE"');
    assert.equal(change.isPreferred, true);
    const at = text.indexOf('"NETWORK_ATACHED_STORAGE"');
    assert.deepEqual(offsetsOf(text, change, uri),
      { range: rangeAt(text, at, at + '"NETWORK_ATACHED_STORAGE"'.length), newText: '"NETWORK_ATTACHED_STORAGE"' });
    assert.equal(actions.filter((a) => a.kind === FIX_ALL).length, 0, 'a guess is not applied by fix-all');
  });

  test('a kind identifier in the wrong case: the message names the kind meant; the fix is safe (in fix-all)', T, async (t) => {
    const text = '{"type": "clouda_object_storage", "name": "s", "config": {"credentialType": "NONE", "whitelistedBuckets": ["b"]}}';
    const { uri, diagnostics, actions } = await actionsFor(t, text);
    const d = diagnostics.find((x) => x.code === 'unknown-kind');
    assert.ok(d, JSON.stringify(diagnostics));
    assert.match(d.message, /the kind meant is "CLOUDA_OBJECT_STORAGE" \(Object storage A\)/);
    const change = quickfix(actions, 'Change to "CLOUDA_OBJECT_STORAGE"');
    assert.equal(change.isPreferred, true);
    const at = text.indexOf('"clouda_object_storage"');
    assert.deepEqual(offsetsOf(text, change, uri),
      { range: rangeAt(text, at, at + '"clouda_object_storage"'.length), newText: '"CLOUDA_OBJECT_STORAGE"' });
    const all = actions.filter((a) => a.kind === FIX_ALL);
    assert.equal(all.length, 1, 'the case alone differs: fix-all applies it');
    assert.equal(applied(text, all[0], uri), text.replace('clouda_object_storage', 'CLOUDA_OBJECT_STORAGE'));
  });

  test('a number out of range: the bound it crosses', T, async (t) => {
    const text = '{"type": "DISTRIBUTED_FILESYSTEM", "config": {"hostname": "h", "port": 70000}}';
    const { uri, actions } = await actionsFor(t, text);
    const clamp = quickfix(actions, 'Change to 65535 (the maximum)');
    const at = text.indexOf('70000');
    assert.deepEqual(offsetsOf(text, clamp, uri), { range: rangeAt(text, at, at + 5), newText: '65535' });
  });

  test('jobs: rowCount 0 on a failed job, errorMessage removed on one that did not fail', T, async (t) => {
    const failed = '{"jobState": "FAILED", "errorMessage": "boom", "rowCount": 12}';
    let { uri, actions } = await actionsFor(t, failed);
    const zero = quickfix(actions, 'Set "rowCount" to 0');
    assert.equal(zero.isPreferred, true);
    assert.equal(applied(failed, zero, uri), '{"jobState": "FAILED", "errorMessage": "boom", "rowCount": 0}');
    const done = '{"jobState": "COMPLETED", "errorMessage": "boom", "rowCount": 1}';
    ({ uri, actions } = await actionsFor(t, done));
    const remove = quickfix(actions, 'Remove "errorMessage"');
    assert.equal(applied(done, remove, uri), '{"jobState": "COMPLETED", "rowCount": 1}');
  });

  test('a bare secret: encoding it is offered, not preferred, says the secret stays, and is not in fix-all', T, async (t) => {
    const text = '{"type": "OPEN_RELATIONAL_DB_A", "config": {"hostname": "h", "port": 3306, ' +
      '"authenticationType": "master", "username": "u", "password": "Zq7Bare"}}';
    const { uri, actions } = await actionsFor(t, text);
    const encode = quickfix(actions, 'Mark the secret as plaintext: data:,\u2026 (the secret stays in the file)');
    assert.equal(encode.isPreferred, false);
    assert.ok(encode.diagnostics.some((d) => d.code === 'secret-not-encoded'));
    assert.ok(applied(text, encode, uri).includes('"password": "data:,Zq7Bare"'));
    const all = actions.filter((a) => a.kind === FIX_ALL);
    assert.equal(all.length, 1, titles(actions));
    const fixed = applied(text, all[0], uri);
    assert.ok(fixed.includes('"authenticationType": "MASTER"'), fixed);
    assert.ok(fixed.includes('"password": "Zq7Bare"'), `fix-all leaves the secret alone: ${fixed}`);
  });

  test('only source.fixAll: the fix-all action alone', T, async (t) => {
    const text = '[{"type": "Network_Attached_Storage", "config": {"path": "/a",}},\n' +
      ' {"type": "NETWORK_ATTACHED_STORAGE", "config": {"pth": "/b"}}]';
    const { uri, actions } = await actionsFor(t, text, [CodeActionKind.SourceFixAll]);
    assert.equal(actions.length, 1, titles(actions));
    assert.equal(actions[0].kind, FIX_ALL);
    assert.equal(applied(text, actions[0], uri), '[{"type": "NETWORK_ATTACHED_STORAGE", "config": {"path": "/a"}},\n' +
      ' {"type": "NETWORK_ATTACHED_STORAGE", "config": {"path": "/b"}}]');
  });
});

describe('diagnostic tags', () => {
  const text = '{"type": "CLOUDA_OBJECT_STORAGE", "config": {"accessKey": "a", "accessSecret": "data:,b", ' +
    '"isCachingEnabled": false, "maxCacheSpacePct": 50, "secure": "yes"}}';

  test('not-applicable is Unnecessary when published and pulled; other codes carry no tag', T, async (t) => {
    const { client, uri, diagnostics, actions } = await actionsFor(t, text);
    const check = (list) => {
      const unneeded = list.find((d) => d.code === 'not-applicable');
      assert.ok(unneeded, JSON.stringify(list));
      assert.deepEqual(unneeded.tags, [DiagnosticTag.Unnecessary]);
      for (const d of list.filter((x) => x.code !== 'not-applicable')) assert.equal(d.tags, undefined, JSON.stringify(d));
    };
    check(diagnostics);
    const report = await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri } });
    check(report.items);
    const remove = quickfix(actions, 'Remove "maxCacheSpacePct"');
    assert.deepEqual(remove.diagnostics.map((d) => d.tags), [[DiagnosticTag.Unnecessary]]);
    const fixed = JSON.parse(applied(text, remove, uri));
    assert.equal(fixed.config.maxCacheSpacePct, undefined);
  });
});
