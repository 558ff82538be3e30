'use strict';
// srcls.json in the editor: linted where its mistakes are written.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { pathToFileURL } = require('node:url');
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

  test('a client that watches no files (Neovim 0.7): a srcls.json saved in the editor, new or changed, re-checks the open documents', T, async (t) => {
    const root = project(t);
    const file = path.join(root, 'bad.source.json');
    const text = example('bad-object-storage.source.json');
    fs.writeFileSync(file, text);
    const client = await startClient(t); // no didChangeWatchedFiles.dynamicRegistration
    assert.deepEqual(client.initResult.capabilities.textDocumentSync.save, { includeText: false });
    const uri = 'file://' + file;
    const before = await client.openAndSettle(uri, text);
    assert.ok(before.diagnostics.some((d) => d.code === 'unknown-field' && d.severity === 2));
    assert.ok(!client.serverRequests.some((r) => r.method === 'client/registerCapability'));
    // a new srcls.json, written and saved in the editor: the directory was searched before
    const config = path.join(root, 'srcls.json');
    const configUri = 'file://' + config;
    const configText = '{"rules": {"unknown-field": "error"}}';
    fs.writeFileSync(config, configText);
    await client.openAndSettle(configUri, configText);
    client.notify('textDocument/didSave', { textDocument: { uri: configUri } });
    const stricter = await client.waitForPublish(uri, (p) => p.diagnostics.some((d) => d.code === 'unknown-field' && d.severity === 1));
    assert.deepEqual(summarize(stricter.diagnostics), summarize(checked(file)), 'the editor and --check agree');
    // changed and saved again
    fs.writeFileSync(config, '{"rules": {"unknown-field": "off"}}');
    client.notify('textDocument/didSave', { textDocument: { uri: configUri } });
    await client.waitForPublish(uri, (p) => !p.diagnostics.some((d) => d.code === 'unknown-field'));
    // a document saved that no srcls.json reads changes nothing (a request answered after the
    // notification, then a quiet spell longer than the server's debounce: no publish came)
    const published = client.publishesFor(uri).length;
    client.notify('textDocument/didSave', { textDocument: { uri } });
    await client.request(HoverRequest.method, { textDocument: { uri }, position: { line: 0, character: 0 } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(client.publishesFor(uri).length, published, 'no new publish for an ordinary save');
  });

  test('"extends": a sub-project builds on the root, a broken one is an error, a change re-checks', T, async (t) => {
    const root = project(t);
    const base = path.join(root, 'base.json');
    fs.writeFileSync(base, '{}');
    fs.mkdirSync(path.join(root, 'app'));
    const config = path.join(root, 'app', 'srcls.json');
    const configText = '{\n  "extends": "../base.json"\n}\n';
    fs.writeFileSync(config, configText);
    const file = path.join(root, 'app', 'bad.source.json');
    const text = example('bad-object-storage.source.json');
    fs.writeFileSync(file, text);
    const capabilities = clientCapabilities();
    capabilities.workspace.didChangeWatchedFiles = { dynamicRegistration: true };
    const client = await startClient(t, { capabilities });
    const uri = 'file://' + file;
    const before = await client.openAndSettle(uri, text);
    assert.ok(before.diagnostics.some((d) => d.code === 'unknown-field' && d.severity === 2));
    // the file extended changes on disk: the open document is checked again with it
    fs.writeFileSync(base, '{"rules": {"unknown-field": "error"}}');
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: 'file://' + base, type: 2 }] });
    const after = await client.waitForPublish(uri, (p) => p.diagnostics.some((d) => d.code === 'unknown-field' && d.severity === 1));
    assert.deepEqual(summarize(after.diagnostics), summarize(checked(file)), 'the editor and --check agree');
    // the srcls.json itself: "extends" hovered, and a file that is not there an error at its value
    const configUri = 'file://' + config;
    const broken = configText.replace('../base.json', '../nope.json');
    const pub = await client.openAndSettle(configUri, broken);
    const errors = pub.diagnostics.map((d) => [d.code, broken.slice(offsetAt(broken, d.range.start), offsetAt(broken, d.range.end))]);
    assert.deepEqual(errors, [['project-config', '"../nope.json"']]);
    assert.match(pub.diagnostics[0].message, /cannot read \.\.\/nope\.json, which this file extends/);
    const hover = await client.request(HoverRequest.method, { textDocument: { uri: configUri }, position: positionOf(broken, '"extends"', { delta: 2 }) });
    assert.match(hover.contents.value, /Other srcls\.json files this one builds on/);
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
    assert.deepEqual(top.map((i) => i.label), ['extends', 'include', 'exclude', 'schemas', 'placeholders', 'ignore', 'baseline'], 'rules and types are there already');
    assert.deepEqual(top.map((i) => i.detail), ['string', 'array', 'array', 'array', 'array', 'array', 'string']);
    // the keys of an "ignore" entry
    const entryText = '{"ignore": [{"codes": [], }]}';
    const entryUri = 'file://' + path.join(root, 'sub', 'srcls.json');
    await client.open(entryUri, entryText);
    const res = await client.request(CompletionRequest.method, { textDocument: { uri: entryUri }, position: positionOf(entryText, '[], ', { delta: 4 }) });
    assert.deepEqual((Array.isArray(res) ? res : res.items).map((i) => i.label), ['files', 'pointer', 'reason'], 'codes is there already');
    // the values of its "codes", as "rules" offers codes: in an empty array, after a code, inside a string
    const codesText = '{"ignore": [{"codes": [], "reason": "r"}, {"codes": ["unknown-field", "inv"], "reason": "r"}]}';
    const codesUri = 'file://' + path.join(root, 'codes', 'srcls.json');
    await client.open(codesUri, codesText);
    const values = async (needle, delta) => {
      const r = await client.request(CompletionRequest.method, { textDocument: { uri: codesUri }, position: positionOf(codesText, needle, { delta }) });
      return (Array.isArray(r) ? r : r.items);
    };
    const empty = await values('[]', 1);
    assert.ok(empty.some((i) => i.label === 'unknown-field' && i.detail === 'warning' && i.textEdit.newText === '"unknown-field"'), JSON.stringify(empty.slice(0, 2)));
    assert.ok(empty.some((i) => i.label === 'security' && i.detail === 'group'), 'the group too');
    const after = await values('"unknown-field", ', 16);
    assert.ok(after.some((i) => i.label === 'invalid-enum'));
    assert.ok(!after.some((i) => i.label === 'unknown-field'), 'a code already listed is not offered');
    const inside = await values('"inv"', 4);
    assert.ok(inside.some((i) => i.label === 'invalid-enum'));
    const edit = inside.find((i) => i.label === 'invalid-enum').textEdit;
    const range = edit.range || edit.replace;
    assert.equal(applyEdits(codesText, [{ range, newText: edit.newText }]), codesText.replace('"inv"', '"invalid-enum"'));
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
    const uri2 = 'file://' + path.join(root, 'sub', 'srcls.json');
    const text2 = '{"ignore": [{"pointer": "/config/x", "reason": "r"}], "baseline": "b.json"}';
    await client.open(uri2, text2);
    const hover2 = async (needle) => (await client.request(HoverRequest.method, { textDocument: { uri: uri2 }, position: positionOf(text2, needle, { delta: 2 }) })).contents.value;
    assert.match(await hover2('"ignore"'), /Findings silenced, each with its reason/);
    assert.match(await hover2('"pointer"'), /'\*' is any one segment, '\*\*' any number/);
    assert.match(await hover2('"reason"'), /required/);
    assert.match(await hover2('"baseline"'), /--write-baseline/);
  });

  test('"ignore" entries silence findings in the editor as in --check, through edits too', T, async (t) => {
    const root = project(t);
    fs.writeFileSync(path.join(root, 'srcls.json'), JSON.stringify({ ignore: [
      { files: 'legacy/*.json', codes: ['unknown-field'], reason: 'read by the old loader' },
      { pointer: '/config/maxCacheSpacePct', reason: 'reviewed' },
    ] }));
    fs.mkdirSync(path.join(root, 'legacy'));
    const text = example('bad-object-storage.source.json');
    const client = await startClient(t);
    const open = async (dir) => {
      const file = path.join(root, dir, 'bad.source.json');
      fs.writeFileSync(file, text);
      const pub = await client.openAndSettle('file://' + file, text);
      assert.deepEqual(summarize(pub.diagnostics), summarize(checked(file)), 'the editor and --check agree in ' + dir);
      return pub.diagnostics;
    };
    const legacy = await open('legacy');
    const here = await open('.');
    assert.ok(here.some((d) => d.code === 'unknown-field'), 'outside legacy/ unknown fields are reported');
    assert.equal(here.filter((d) => d.code === 'out-of-range').length, 0, 'a pointer silences it everywhere');
    assert.equal(legacy.filter((d) => d.code === 'unknown-field').length, 0, 'in legacy/ they are silenced');
    assert.equal(legacy.length, here.length - here.filter((d) => d.code === 'unknown-field').length);
    // an edit (analysed in place) gives what the new text gives afresh
    const uri = 'file://' + path.join(root, 'legacy', 'bad.source.json');
    const at = text.indexOf('{') + 1;
    const edited = text.slice(0, at) + '"zzz": 1, ' + text.slice(at);
    await client.change(uri, 2, [{ range: { start: positionOf(text, '{'), end: positionOf(text, '{', { delta: 1 }) }, text: '{"zzz": 1, ' }]);
    const after = (await client.settled(uri, 2)).diagnostics;
    assert.equal(after.filter((d) => d.code === 'unknown-field').length, 0, 'a new unknown field in legacy/ is silenced too');
    fs.writeFileSync(path.join(root, 'legacy', 'bad.source.json'), edited);
    assert.deepEqual(summarize(after), summarize(checked(path.join(root, 'legacy', 'bad.source.json'))));
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

  test('a baseline named in srcls.json: its findings are hints, or hidden, or shown (srcls.baselineFindings); a changed value is new', T, async (t) => {
    const root = project(t);
    fs.mkdirSync(path.join(root, 'sources'));
    const file = path.join(root, 'sources', 'bad.source.json');
    const text = example('bad-object-storage.source.json');
    fs.writeFileSync(file, text);
    fs.mkdirSync(path.join(root, 'baseline'));
    const made = spawnSync(CLI_BINARY, ['--check', '--write-baseline', 'baseline/known.json', 'sources'], { encoding: 'utf8', cwd: root });
    assert.equal(made.status, 0, made.stderr);
    fs.writeFileSync(path.join(root, 'srcls.json'), '{"baseline": "baseline/known.json"}');
    const plainClient = await startClient(t, { initializationOptions: { srcls: { baselineFindings: 'show' } } });
    const uri = 'file://' + file;
    const shown = (await plainClient.openAndSettle(uri, text)).diagnostics;
    assert.ok(shown.some((d) => d.severity === 1), 'shown: the errors are errors');
    const client = await startClient(t);
    const hinted = (await client.openAndSettle(uri, text)).diagnostics;
    assert.deepEqual(hinted.map((d) => [d.code, d.range]), shown.map((d) => [d.code, d.range]));
    assert.ok(hinted.every((d) => d.severity === 4), 'every finding is in the baseline: hints');
    // a changed value is a new finding, at its own severity; the others stay hints
    const at = text.indexOf('150');
    const edited = text.slice(0, at) + '151' + text.slice(at + 3);
    await client.change(uri, 2, [{ range: { start: positionOf(text, '150'), end: positionOf(text, '150', { delta: 3 }) }, text: '151' }]);
    const after = (await client.settled(uri, 2)).diagnostics;
    const news = after.filter((d) => d.severity !== 4).map((d) => d.code).sort();
    // the value's findings: its bound, and the field that has no effect while caching is off
    assert.deepEqual(news, ['not-applicable', 'out-of-range']);
    fs.writeFileSync(file, edited);
    const res = spawnSync(CLI_BINARY, ['--check', '--format', 'json', file], { encoding: 'utf8', cwd: root });
    const fresh = JSON.parse(res.stdout).files[0].diagnostics.filter((d) => !d.baselined).map((d) => d.code);
    assert.deepEqual(fresh.sort(), news, 'what --check calls new');
    client.notify('workspace/didChangeConfiguration', { settings: { srcls: { baselineFindings: 'hide' } } });
    await client.waitForPublish(uri, (p) => p.diagnostics.length === 2);
    assert.deepEqual(client.lastPublish(uri).diagnostics.map((d) => d.code).sort(), news);
  });

  test('a file moved on disk keeps its baselined findings as hints (the entries of its old path, gone), through edits too', T, async (t) => {
    const root = project(t);
    fs.mkdirSync(path.join(root, 'sources'));
    const old = path.join(root, 'sources', 'old.source.json');
    const text = example('bad-object-storage.source.json');
    fs.writeFileSync(old, text);
    const made = spawnSync(CLI_BINARY, ['--check', '--write-baseline', 'known.json', 'sources'], { encoding: 'utf8', cwd: root });
    assert.equal(made.status, 0, made.stderr);
    fs.writeFileSync(path.join(root, 'srcls.json'), '{"baseline": "known.json"}');
    const file = path.join(root, 'sources', 'new.source.json');
    fs.renameSync(old, file);
    const client = await startClient(t);
    const uri = 'file://' + file;
    const hinted = (await client.openAndSettle(uri, text)).diagnostics;
    assert.ok(hinted.length > 2);
    assert.ok(hinted.every((d) => d.severity === 4), 'every finding is in the baseline: hints');
    // an edit analyses it again: its entries are given back and taken again, the changed value new
    await client.change(uri, 2, [{ range: { start: positionOf(text, '150'), end: positionOf(text, '150', { delta: 3 }) }, text: '151' }]);
    const after = (await client.settled(uri, 2)).diagnostics;
    assert.deepEqual(after.filter((d) => d.severity !== 4).map((d) => d.code).sort(), ['not-applicable', 'out-of-range']);
    // the whole text again (analysed whole): the entries it took as moved are given back first
    await client.change(uri, 3, [{ text }]);
    const again = (await client.settled(uri, 3)).diagnostics;
    assert.deepEqual(again.map((d) => [d.code, d.severity]), hinted.map((d) => [d.code, 4]));
  });

  test('a baseline entry holds one finding, as in --check: two bulk sources of one name need two entries, through in-place edits too', T, async (t) => {
    const root = project(t);
    const source = '  {"name": "lake", "type": "PEER_CLUSTER", "config": {"useSsl": "yes"}}';
    const file = path.join(root, 'lakes.source.json');
    fs.writeFileSync(file, `[\n${source}\n]\n`); // the baseline of one source
    const made = spawnSync(CLI_BINARY, ['--check', '--write-baseline', 'known.json', file], { encoding: 'utf8', cwd: root });
    assert.equal(made.status, 0, made.stderr);
    fs.writeFileSync(path.join(root, 'srcls.json'), '{"baseline": "known.json"}');
    // [line, code, message, held] of what --check --format json says of `text`, and of a publish
    const cli = (text) => {
      fs.writeFileSync(file, text);
      const res = spawnSync(CLI_BINARY, ['--check', '--format', 'json', file], { encoding: 'utf8', cwd: root });
      return JSON.parse(res.stdout).files[0].diagnostics.map((d) => [d.range.start.line, d.code, d.message, d.baselined === true]);
    };
    const editor = (pub) => pub.diagnostics.map((d) => [d.range.start.line, d.code, d.message, d.severity === 4]);
    const byLine = (rows) => rows.slice().sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]) || a[2].localeCompare(b[2]));
    const text = `[\n${source},\n${source}\n]\n`; // a copy of it: its findings are new
    const expected = cli(text);
    assert.equal(expected.filter((r) => r[3]).length, 6, 'the first source\'s six findings held');
    assert.ok(expected.filter((r) => r[0] === 2).every((r) => !r[3]), 'the copy\'s findings are new');
    const client = await startClient(t);
    const uri = 'file://' + file;
    assert.deepEqual(byLine(editor(await client.openAndSettle(uri, text))), byLine(expected));
    // the first source's "yes" becomes "no": its type-mismatch is new, the copy's takes the entry
    const at = text.indexOf('"yes"') + 1;
    const edited = text.slice(0, at) + 'no' + text.slice(at + 3);
    await client.change(uri, 2, [{ range: { start: positionOf(text, 'yes'), end: positionOf(text, 'yes', { delta: 3 }) }, text: 'no' }]);
    const after = byLine(editor(await client.settled(uri, 2)));
    const expectedAfter = byLine(cli(edited));
    assert.deepEqual(expectedAfter.filter((r) => r[1] === 'type-mismatch').map((r) => [r[0], r[3]]), [[1, false], [2, true]]);
    assert.deepEqual(after, expectedAfter, 'what --check says of the edited file');
  });

  test('a baseline that cannot be read (too large, missing, not a baseline) is said once in the log; its findings are shown as they are', T, async (t) => {
    const root = project(t);
    const config = path.join(root, 'srcls.json');
    fs.writeFileSync(config, '{"baseline": "huge.json"}');
    fs.closeSync(fs.openSync(path.join(root, 'huge.json'), 'w'));
    fs.truncateSync(path.join(root, 'huge.json'), 300 * 1024 * 1024); // sparse: past --check's 256 MB
    const text = example('bad-object-storage.source.json');
    for (const name of ['a.source.json', 'b.source.json']) fs.writeFileSync(path.join(root, name), text);
    const capabilities = clientCapabilities();
    capabilities.workspace.didChangeWatchedFiles = { dynamicRegistration: true };
    const client = await startClient(t, { capabilities });
    const said = (what) => client.notifications.filter((n) => n.method === 'window/logMessage' &&
      n.params.type === 2 && n.params.message.includes(what)).map((n) => n.params.message);
    const a = await client.openAndSettle('file://' + path.join(root, 'a.source.json'), text);
    await client.openAndSettle('file://' + path.join(root, 'b.source.json'), text);
    assert.ok(a.diagnostics.some((d) => d.severity === 1), 'shown as they are: the errors are errors');
    const huge = said('huge.json');
    assert.equal(huge.length, 1, 'said once for two documents: ' + JSON.stringify(huge));
    assert.match(huge[0], /too large \(314572800 bytes; the most is 268435456\)/);
    assert.ok(huge[0].includes(config), 'names the srcls.json');
    fs.writeFileSync(path.join(root, 'notes.json'), '{"findings": {}}');
    for (const [named, why] of [['nowhere.json', /no such file or directory/i], ['notes.json', /not a baseline of this version/]]) {
      fs.writeFileSync(config, JSON.stringify({ baseline: named }));
      client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: 'file://' + config, type: 2 }] });
      await client.waitForPublish('file://' + path.join(root, 'a.source.json'), () => said(named).length > 0);
      assert.match(said(named)[0], why);
    }
  });

  async function ignoreAction(client, uri, text, code, nth = 0) {
    const pub = await client.openAndSettle(uri, text);
    const diag = pub.diagnostics.filter((d) => d.code === code)[nth];
    assert.ok(diag, code + ' in ' + JSON.stringify(pub.diagnostics.map((d) => d.code)));
    const actions = await client.request(CodeActionRequest.method,
      { textDocument: { uri }, range: diag.range, context: { diagnostics: [diag] } });
    return actions.find((a) => a.title.startsWith('Ignore '));
  }

  test('"Ignore in srcls.json" on any finding: an entry with an empty reason, which srcls.json flags until written', T, async (t) => {
    const root = project(t);
    const config = path.join(root, 'srcls.json');
    fs.writeFileSync(config, '{"rules": {"kind-inferred": "off"}}');
    fs.mkdirSync(path.join(root, 'sources'));
    const file = path.join(root, 'sources', 'bad.source.json');
    const text = example('bad-object-storage.source.json');
    fs.writeFileSync(file, text);
    const client = await startClient(t);
    const action = await ignoreAction(client, 'file://' + file, text, 'unknown-field');
    assert.equal(action.title, 'Ignore unknown-field here in srcls.json');
    const [change] = action.edit.documentChanges;
    assert.equal(change.textDocument.uri, 'file://' + config);
    const after = applyEdits(fs.readFileSync(config, 'utf8'), change.edits);
    const entry = { files: 'sources/bad.source.json', pointer: '/config/acessKey', codes: ['unknown-field'], reason: '' };
    assert.deepEqual(JSON.parse(after), { rules: { 'kind-inferred': 'off' }, ignore: [entry] });
    // written as a person writes it: one line, a space after each ':' and ','
    assert.ok(after.includes('\n    {"files": "sources/bad.source.json", "pointer": "/config/acessKey", ' +
      '"codes": ["unknown-field"], "reason": ""}\n'), after);
    fs.writeFileSync(config, after);
    let res = spawnSync(CLI_BINARY, ['--check', file], { encoding: 'utf8', cwd: root });
    assert.equal(res.status, 2, 'the empty reason is a mistake of srcls.json: ' + res.stderr);
    assert.match(res.stderr, /"reason" must be a non-empty string: why the finding is accepted/, 'the message names the member');
    fs.writeFileSync(config, JSON.stringify({ ignore: [{ ...entry, reason: 'read by the old loader' }] }));
    res = spawnSync(CLI_BINARY, ['--check', '--format', 'json', file], { encoding: 'utf8', cwd: root });
    const codes = JSON.parse(res.stdout).files[0].diagnostics.map((d) => d.code);
    assert.ok(codes.length > 0 && !codes.includes('unknown-field'), 'silenced: ' + codes);
  });

  test('"Ignore in srcls.json" on a file named a*b: the glob is that file alone (its * escaped), not axxb', T, async (t) => {
    const root = project(t);
    const config = path.join(root, 'srcls.json');
    fs.writeFileSync(config, '{}');
    const text = example('bad-object-storage.source.json');
    for (const name of ['a*b.source.json', 'axxb.source.json', 'a?b\\c.source.json']) fs.writeFileSync(path.join(root, name), text);
    const client = await startClient(t);
    const entries = [];
    for (const name of ['a*b.source.json', 'a?b\\c.source.json']) {
      const action = await ignoreAction(client, pathToFileURL(path.join(root, name)).href, text, 'unknown-field');
      const [change] = action.edit.documentChanges;
      entries.push(JSON.parse(applyEdits('{}', change.edits)).ignore[0]);
    }
    assert.deepEqual(entries.map((e) => e.files), ['a\\*b.source.json', 'a\\?b\\\\c.source.json']);
    fs.writeFileSync(config, JSON.stringify({ ignore: entries.map((e) => ({ ...e, reason: 'known' })) }));
    const res = spawnSync(CLI_BINARY, ['--check', '--format', 'json', '.'], { encoding: 'utf8', cwd: root });
    const unknown = Object.fromEntries(JSON.parse(res.stdout).files.filter((f) => f.path.endsWith('.source.json'))
      .map((f) => [path.basename(f.path), f.diagnostics.some((d) => d.code === 'unknown-field')]));
    assert.deepEqual(unknown, { 'a*b.source.json': false, 'a?b\\c.source.json': false, 'axxb.source.json': true });
    const open = await client.openAndSettle('file://' + path.join(root, 'axxb.source.json'), text);
    assert.ok(open.diagnostics.some((d) => d.code === 'unknown-field'), 'the editor does not silence axxb either');
  });

  test('"Ignore in srcls.json" with snippets in workspace edits: the reason is a placeholder; a bulk source by its name; srcls.json created', T, async (t) => {
    const root = project(t);
    const source = JSON.parse(example('bad-object-storage.source.json'));
    const bulk = JSON.stringify([{ ...source, name: 'lake-$1' }, source], null, 2);
    const file = path.join(root, 'bulk.json');
    fs.writeFileSync(file, bulk);
    const capabilities = clientCapabilities();
    capabilities.workspace.workspaceEdit = { documentChanges: true, resourceOperations: ['create'], snippetEditSupport: true };
    const client = await startClient(t, { capabilities });
    const action = await ignoreAction(client, 'file://' + file, bulk, 'unknown-field');
    const [create, change] = action.edit.documentChanges;
    assert.deepEqual(create, { kind: 'create', uri: 'file://' + path.join(root, 'srcls.json') });
    const { snippet } = change.edits[0];
    assert.equal(snippet.kind, 'snippet');
    assert.ok(snippet.value.includes('"reason": "${1:why this finding is accepted}"') ||
              snippet.value.includes('"reason":"${1:why this finding is accepted}"'), snippet.value);
    // the rest is escaped for a snippet: the name's $ and the closing braces
    const plain = snippet.value.replace('${1:why this finding is accepted}', 'r').replace(/\\([$}\\])/g, '$1');
    assert.deepEqual(JSON.parse(plain).ignore, [{ files: 'bulk.json', pointer: '/lake-$1/config/acessKey', codes: ['unknown-field'], reason: 'r' }]);
  });
});
