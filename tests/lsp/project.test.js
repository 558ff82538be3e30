'use strict';
// srcls.json in the editor: linted where its mistakes are written.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { CodeActionRequest, CompletionRequest, HoverRequest } = require('vscode-languageserver-protocol/node');
const {
  CLI_BINARY, startClient, clientCapabilities, example, offsetAt, positionOf, summarize, applyEdits,
} = require('./client');

const T = { timeout: 30000 };

function project(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-project-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

describe('srcls.json in the editor', () => {
  test('its mistakes are diagnostics where they are written', T, async (t) => {
    const root = project(t);
    const client = await startClient(t);
    const uri = 'file://' + path.join(root, 'srcls.json');
    const text = '{\n  "rules": {"unknown-field": "loud", "no-such-code": "error"},\n  "typo": 1,\n  "types": {"MY_ID": "NO_SUCH_KIND"}\n}\n';
    const pub = await client.openAndSettle(uri, text);
    const got = pub.diagnostics.map((d) => [d.code, text.slice(offsetAt(text, d.range.start), offsetAt(text, d.range.end))]);
    assert.deepEqual(got.sort(), [
      ['project-config', '"MY_ID"'],
      ['project-config', '"no-such-code"'],
      ['project-config', '"typo"'],
      ['project-config', '"unknown-field"'],
    ]);
    for (const d of pub.diagnostics) assert.ok(d.message.length > 0);
    const fixed = '{\n  "rules": {"unknown-field": "error"},\n  "types": {"MY_ID": "CLOUDA_OBJECT_STORAGE"}\n}\n';
    await client.change(uri, 2, [{ text: fixed }]);
    const clean = await client.settled(uri, 2);
    assert.deepEqual(clean.diagnostics, []);
    await client.change(uri, 3, [{ text: '{"rules": ' }]);
    const broken = await client.settled(uri, 3);
    assert.ok(broken.diagnostics.length > 0 && broken.diagnostics.every((d) => d.code === 'json-syntax'));
  });

  // What `srcls --check --format json FILE` reports for a file on disk, in the LSP suite's shape.
  function checked(file) {
    const res = spawnSync(CLI_BINARY, ['--check', '--format', 'json', file], { encoding: 'utf8', cwd: path.dirname(file) });
    const names = { error: 1, warning: 2, information: 3, hint: 4 };
    return JSON.parse(res.stdout).files[0].diagnostics.map((d) => ({
      code: d.code, severity: names[d.severity], pointer: d.pointer, range: d.range, message: d.message,
    }));
  }

  test('a document takes the nearest srcls.json upwards, as --check does; the editor\'s settings over it', T, async (t) => {
    const root = project(t);
    fs.writeFileSync(path.join(root, 'srcls.json'), '{"rules": {"unknown-field": "error", "not-applicable": "off"}}');
    fs.mkdirSync(path.join(root, 'sources', 'deep'), { recursive: true });
    const file = path.join(root, 'sources', 'deep', 'bad.source.json');
    const text = example('bad-object-storage.source.json');
    fs.writeFileSync(file, text);
    const client = await startClient(t);
    const uri = 'file://' + file;
    const pub = await client.openAndSettle(uri, text);
    const unknown = pub.diagnostics.filter((d) => d.code === 'unknown-field');
    assert.ok(unknown.length > 0 && unknown.every((d) => d.severity === 1), 'unknown-field is an error here');
    assert.equal(pub.diagnostics.filter((d) => d.code === 'not-applicable').length, 0, 'not-applicable is off');
    assert.deepEqual(summarize(pub.diagnostics), summarize(checked(file)), 'the editor and --check agree');
    // the editor's settings lay over the file's
    client.notify('workspace/didChangeConfiguration', { settings: { srcls: { rules: { 'unknown-field': 'hint' } } } });
    await client.waitForPublish(uri, (p) => p.diagnostics.some((d) => d.code === 'unknown-field' && d.severity === 4));
    const later = client.lastPublish(uri).diagnostics;
    assert.equal(later.filter((d) => d.code === 'not-applicable').length, 0, 'the file\'s other rules still apply');
  });

  test('a srcls.json with a mistake is not applied', T, async (t) => {
    const root = project(t);
    fs.writeFileSync(path.join(root, 'srcls.json'), '{"rules": {"unknown-field": "error"}, "typo": 1}');
    const file = path.join(root, 'bad.source.json');
    const text = example('bad-object-storage.source.json');
    fs.writeFileSync(file, text);
    const client = await startClient(t);
    const pub = await client.openAndSettle('file://' + file, text);
    const unknown = pub.diagnostics.filter((d) => d.code === 'unknown-field');
    assert.ok(unknown.length > 0 && unknown.every((d) => d.severity === 2), 'the default severity');
  });

  test('srcls.json is watched: the server registers for it and republishes when it changes', T, async (t) => {
    const root = project(t);
    const config = path.join(root, 'srcls.json');
    fs.writeFileSync(config, '{}');
    const file = path.join(root, 'bad.source.json');
    const text = example('bad-object-storage.source.json');
    fs.writeFileSync(file, text);
    const capabilities = clientCapabilities();
    capabilities.workspace.didChangeWatchedFiles = { dynamicRegistration: true };
    const client = await startClient(t, { capabilities });
    const uri = 'file://' + file;
    const before = await client.openAndSettle(uri, text);
    assert.ok(before.diagnostics.some((d) => d.code === 'unknown-field' && d.severity === 2));
    const registration = client.serverRequests.find((r) => r.method === 'client/registerCapability');
    assert.ok(registration, 'client/registerCapability was sent');
    const reg = registration.params.registrations[0];
    assert.equal(reg.method, 'workspace/didChangeWatchedFiles');
    assert.deepEqual(reg.registerOptions.watchers, [{ globPattern: '**/srcls.json' }, { globPattern: '**/*.json' }]);
    fs.writeFileSync(config, '{"rules": {"unknown-field": "off"}}');
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: 'file://' + config, type: 2 }] });
    await client.waitForPublish(uri, (p) => !p.diagnostics.some((d) => d.code === 'unknown-field'));
  });

  test('srcls.json is completed: its keys, the codes and severities, the kinds\' types', T, async (t) => {
    const root = project(t);
    const client = await startClient(t);
    const uri = 'file://' + path.join(root, 'srcls.json');
    const text = '{\n  "rules": {"unknown-field": "", \n  },\n  "types": {"MY_ID": ""}\n}\n';
    await client.open(uri, text);
    const labels = async (needle, delta) => {
      const res = await client.request(CompletionRequest.method, { textDocument: { uri }, position: positionOf(text, needle, { delta }) });
      return (Array.isArray(res) ? res : res.items);
    };
    const codes = await labels('"", \n', 5); // a new member of "rules"
    assert.ok(codes.some((i) => i.label === 'missing-required'));
    assert.ok(!codes.some((i) => i.label === 'unknown-field'), 'a code already set is not offered');
    const group = codes.find((i) => i.label === 'security');
    assert.ok(group && group.detail === 'group', 'the posture codes\' group is offered');
    const severities = await labels('""', 1); // inside the value of "unknown-field"
    assert.deepEqual(severities.map((i) => i.label), ['error', 'warning', 'information', 'hint', 'off']);
    const accepted = applyEdits(text, [severities[1].textEdit.replace ? { range: severities[1].textEdit.replace, newText: severities[1].textEdit.newText } : severities[1].textEdit]);
    assert.ok(accepted.includes('"unknown-field": "warning"'), accepted);
    const kinds = await labels('{"MY_ID": ""', 11);
    assert.ok(kinds.some((i) => i.label === 'CLOUDA_OBJECT_STORAGE' && i.detail === 'Object storage A'));
    const top = await labels('\n}', 1);
    assert.deepEqual(top.map((i) => i.label), ['include', 'exclude', 'schemas', 'placeholders'], 'rules and types are there already');
    assert.deepEqual(top.map((i) => i.detail), ['array', 'array', 'array', 'array']);
  });

  test('srcls.json is hovered: a code\'s meaning, a kind\'s', T, async (t) => {
    const root = project(t);
    const client = await startClient(t);
    const uri = 'file://' + path.join(root, 'srcls.json');
    const text = '{"rules": {"kind-inferred": "off", "security": "error"}, "types": {"MY_ID": "CLOUDA_OBJECT_STORAGE"}}';
    await client.open(uri, text);
    const hover = async (needle) => (await client.request(HoverRequest.method, { textDocument: { uri }, position: positionOf(text, needle, { delta: 2 }) })).contents.value;
    assert.match(await hover('"kind-inferred"'), /kind-inferred.*hint/);
    assert.match(await hover('"security"'), /insecure-transport unverified-certificate anonymous-access unrestricted-scope inline-secret/);
    assert.match(await hover('"CLOUDA_OBJECT_STORAGE"'), /Object storage A/);
    assert.match(await hover('"rules"'), /error, warning, information, hint, or off/);
  });

  test('templated values: checked as filled in later, the variable hovered, the project\'s variables completed', T, async (t) => {
    const root = project(t);
    fs.writeFileSync(path.join(root, 'srcls.json'), '{"placeholders": ["${NAME}", "{{ NAME }}"]}');
    const file = path.join(root, 'lake.source.json');
    const text = example('03-object-storage-a.source.json')
      .replace('"$SERVICE_EXISTING_VALUE$"', '"${DB_SECRET}"')
      .replace('"ACCESS_KEY"', '"{{ CRED_TYPE }}"')
      .replace('"rootPath": "/"', '"rootPath": "/data/${ENV}/raw"')
      .replace('"maxCacheSpacePct": 80', '"maxCacheSpacePct": "${CACHE_PCT}"');
    fs.writeFileSync(file, text);
    const client = await startClient(t);
    const uri = 'file://' + file;
    const pub = await client.openAndSettle(uri, text);
    const got = pub.diagnostics.map((d) => [d.code, text.slice(offsetAt(text, d.range.start), offsetAt(text, d.range.end))]);
    assert.deepEqual(got, [['type-mismatch', '"${CACHE_PCT}"']], 'only the integer written in quotes');
    assert.match(pub.diagnostics[0].message, /the renderer must write the value without the quotes/);
    assert.deepEqual(summarize(pub.diagnostics), summarize(checked(file)), 'the editor and --check agree');
    // hover on a placeholder inside a value: the variable, over the placeholder's range
    const hover = await client.request(HoverRequest.method, { textDocument: { uri }, position: positionOf(text, '${ENV}', { delta: 3 }) });
    assert.match(hover.contents.value, /Placeholder: the variable `ENV`/);
    assert.equal(text.slice(offsetAt(text, hover.range.start), offsetAt(text, hover.range.end)), '${ENV}');
    assert.match(hover.contents.value, /rootPath/, 'and the field, as on any value');
    // completion in a value: this document's variables and those of the project's other open documents
    const other = 'file://' + path.join(root, 'other.source.json');
    const otherText =
        '{"type": "CLOUDA_OBJECT_STORAGE", "config": {"accessKey": "{{ OTHER_KEY }}", "rootPath": "", "assumedRoleARN": "arn:${DB"}}';
    await client.open(other, otherText);
    const complete = async (doc, docText, needle, delta) => {
        const res = await client.request(
            CompletionRequest.method,
            {textDocument : {uri : doc}, position : positionOf(docText, needle, {delta})});
        const items =
            (Array.isArray(res) ? res : res.items).filter((i) => i.detail === 'placeholder');
        return items.map((i) => [i.label, docText.slice(offsetAt(docText, i.textEdit.range.start),
                                                        offsetAt(docText, i.textEdit.range.end))]);
    };
    // in an empty value: the whole value, quoted
    assert.deepEqual(await complete(other, otherText, '"rootPath": ""', 13), [
        [ '"${CACHE_PCT}"', '""' ], [ '"${CRED_TYPE}"', '""' ], [ '"${DB_SECRET}"', '""' ],
        [ '"${ENV}"', '""' ], [ '"${OTHER_KEY}"', '""' ]
    ]);
    // on a placeholder inside a longer value: that placeholder only, the rest of the value kept
    const inside = await complete(uri, text, '${ENV}', 3);
    assert.deepEqual(inside.map(([ label ]) => label),
                     [ '${CACHE_PCT}', '${CRED_TYPE}', '${DB_SECRET}', '${ENV}', '${OTHER_KEY}' ]);
    assert.ok(inside.every(([, replaced ]) => replaced === '${ENV}'), JSON.stringify(inside));
    // a placeholder being typed: what was typed of it
    const typed = await complete(other, otherText, '${DB"', 4);
    assert.ok(typed.some(([ label, replaced ]) => label === '${DB_SECRET}' && replaced === '${DB'),
              JSON.stringify(typed));
  });

  // A source whose `type` is the team's own identifier, its config plainly object storage A.
  const MY_LAKE = example('03-object-storage-a.source.json').replace('"CLOUDA_OBJECT_STORAGE"', '"MY_LAKE"');

  async function mapAction(client, uri, text) {
    const pub = await client.openAndSettle(uri, text);
    const unknown = pub.diagnostics.find((d) => d.code === 'unknown-kind');
    assert.ok(unknown, 'an unknown-kind diagnostic: ' + JSON.stringify(pub.diagnostics.map((d) => d.code)));
    const actions = await client.request(CodeActionRequest.method,
      { textDocument: { uri }, range: unknown.range, context: { diagnostics: [unknown] } });
    return actions.find((a) => a.title.startsWith('Map "MY_LAKE"'));
  }

  test('an unknown type: "Map it in srcls.json" edits the srcls.json that applies, and then it is known', T, async (t) => {
    const root = project(t);
    const config = path.join(root, 'srcls.json');
    fs.writeFileSync(config, '{"rules": {"kind-inferred": "off"}}');
    const file = path.join(root, 'lake.source.json');
    fs.writeFileSync(file, MY_LAKE);
    const capabilities = clientCapabilities();
    capabilities.workspace.didChangeWatchedFiles = { dynamicRegistration: true };
    const client = await startClient(t, { capabilities });
    const uri = 'file://' + file;
    const action = await mapAction(client, uri, MY_LAKE);
    assert.equal(action.title, 'Map "MY_LAKE" to CLOUDA_OBJECT_STORAGE in srcls.json');
    const [change] = action.edit.documentChanges;
    assert.equal(change.textDocument.uri, 'file://' + config);
    const after = applyEdits(fs.readFileSync(config, 'utf8'), change.edits);
    assert.deepEqual(JSON.parse(after), { rules: { 'kind-inferred': 'off' }, types: { MY_LAKE: 'CLOUDA_OBJECT_STORAGE' } });
    fs.writeFileSync(config, after);
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: 'file://' + config, type: 2 }] });
    await client.waitForPublish(uri, (p) => !p.diagnostics.some((d) => d.code === 'unknown-kind'));
  });

  test('with no srcls.json: one is created beside the document, if the client can create files', T, async (t) => {
    const root = project(t);
    const file = path.join(root, 'lake.source.json');
    fs.writeFileSync(file, MY_LAKE);
    const capabilities = clientCapabilities();
    capabilities.workspace.workspaceEdit = { documentChanges: true, resourceOperations: ['create'] };
    const client = await startClient(t, { capabilities });
    const action = await mapAction(client, 'file://' + file, MY_LAKE);
    const [create, change] = action.edit.documentChanges;
    assert.deepEqual(create, { kind: 'create', uri: 'file://' + path.join(root, 'srcls.json') });
    assert.deepEqual(JSON.parse(applyEdits('', change.edits)), { types: { MY_LAKE: 'CLOUDA_OBJECT_STORAGE' } });
    const plain = await startClient(t);
    assert.equal(await mapAction(plain, 'file://' + file, MY_LAKE), undefined, 'not offered without create');
  });
});
