'use strict';
// A team's own kinds (srcls.json "schemas") in the editor: the documents under that srcls.json
// are checked with them, a kind file is linted where it is wrong, and a change of a kind file
// on disk is taken up.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const { CompletionRequest, HoverRequest } = require('vscode-languageserver-protocol/node');
const { startClient, clientCapabilities, offsetAt, positionOf } = require('./client');

const T = { timeout: 30000 };

const QUEUE = JSON.stringify({
  title: 'Message queue',
  types: ['MESSAGE_QUEUE'],
  fields: {
    brokerUrl: { type: 'string', description: 'Where the broker listens.', required: true },
    topic: { type: 'string', description: 'The topic read.', required: true },
  },
}, null, 2) + '\n';

const STRICTER = JSON.stringify({
  extends: '10-object-storage-c',
  fields: { costCenter: { type: 'string', description: 'Who pays.', required: true }, cachePercent: { maximum: 50 } },
}, null, 2) + '\n';

const BROKEN = '{\n  "title": "Broken",\n  "types": ["BROKEN"],\n  "fields": {"port": {"type": "int"}}\n}\n';

function project(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-kinds-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'kinds'));
  fs.writeFileSync(path.join(root, 'srcls.json'), '{"schemas": ["kinds"]}\n');
  fs.writeFileSync(path.join(root, 'kinds', 'queue.json'), QUEUE);
  fs.writeFileSync(path.join(root, 'kinds', 'object-storage-c.json'), STRICTER);
  fs.writeFileSync(path.join(root, 'kinds', 'broken.json'), BROKEN);
  return root;
}

const codes = (pub) => pub.diagnostics.map((d) => `${d.code} ${d.message}`).sort();

describe('custom kinds in the editor', () => {
  test('documents are checked with the project\'s kinds: a new kind, an extension', T, async (t) => {
    const root = project(t);
    const client = await startClient(t);
    const queue = '{"name": "q", "type": "MESSAGE_QUEUE", "config": {"brokerUrl": "amqp://b"}}\n';
    const pub = await client.openAndSettle('file://' + path.join(root, 'q.source.json'), queue);
    assert.deepEqual(codes(pub), ['missing-required missing required field "topic" (a string) for Message queue (MESSAGE_QUEUE)']);
    const storage = '{"name": "c", "type": "CLOUDC_OBJECT_STORAGE", "config": {"projectId": "p", "authMode": "AUTO", "cachingEnable": true, "cachePercent": 70}}\n';
    const c = await client.openAndSettle('file://' + path.join(root, 'c.source.json'), storage);
    assert.deepEqual(c.diagnostics.map((d) => d.code).sort(), ['missing-required', 'out-of-range']);
    // outside the project: the built-in kinds only
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-plain-'));
    t.after(() => fs.rmSync(elsewhere, { recursive: true, force: true }));
    const plain = await client.openAndSettle('file://' + path.join(elsewhere, 'q.source.json'), queue);
    assert.deepEqual(plain.diagnostics.map((d) => d.code), ['unknown-kind']);
  });

  test('a kind file is linted as one: its mistake where it is written, as you type', T, async (t) => {
    const root = project(t);
    const client = await startClient(t);
    const uri = 'file://' + path.join(root, 'kinds', 'broken.json');
    const pub = await client.openAndSettle(uri, BROKEN);
    assert.equal(pub.diagnostics.length, 1);
    const d = pub.diagnostics[0];
    assert.equal(d.code, 'project-config');
    assert.equal(d.message, 'unknown type name');
    assert.equal(BROKEN.slice(offsetAt(BROKEN, d.range.start), offsetAt(BROKEN, d.range.end)), '"int"');
    const fixed = BROKEN.replace('"int"', '"integer"');
    await client.change(uri, 2, [{ text: fixed }]);
    assert.deepEqual((await client.settled(uri, 2)).diagnostics, []);
    // a clean kind file has nothing to say, and is not "not a source or a job"
    const queue = await client.openAndSettle('file://' + path.join(root, 'kinds', 'queue.json'), QUEUE);
    assert.deepEqual(queue.diagnostics, []);
    // a type identifier another kind has, in the buffer
    await client.change(uri, 3, [{ text: fixed.replace('"BROKEN"', '"MESSAGE_QUEUE"') }]);
    const clash = await client.settled(uri, 3);
    assert.deepEqual(clash.diagnostics.map((x) => x.message), [`the type identifier is also one of ${path.join(root, 'kinds', 'queue.json')}`]);
  });

  test('a kind file is completed and hovered from the format\'s JSON Schema', T, async (t) => {
    const root = project(t);
    const client = await startClient(t);
    const uri = 'file://' + path.join(root, 'kinds', 'new.json');
    const text = '{\n  "extends": "",\n  "fields": {"port": {"type": "integer", \n}}\n}\n';
    await client.openAndSettle(uri, text);
    const complete = async (marker, delta) => {
      const res = await client.request(CompletionRequest.method, { textDocument: { uri }, position: positionOf(text, marker, { delta }) });
      return (Array.isArray(res) ? res : res.items);
    };
    const stems = await complete('""', 1);
    // the project's kinds: the built-in ones by their stems, kind 10 by the file that replaces it
    assert.ok(stems.some((i) => i.label === '03-object-storage-a' && i.detail === 'Object storage A'));
    assert.ok(stems.some((i) => i.label === 'object-storage-c' && i.detail === 'Object storage C'));
    assert.ok(stems.some((i) => i.label === 'queue' && i.detail === 'Message queue'));
    const keys = (await complete(', \n}}', 2)).map((i) => i.label);
    assert.ok(['minimum', 'maximum', 'format', 'secret', 'required'].every((k) => keys.includes(k)), keys.join(' '));
    assert.ok(!keys.includes('type'), 'a key that is there already is not offered');
    const hover = await client.request(HoverRequest.method, { textDocument: { uri }, position: positionOf(text, '"fields"', { delta: 2 }) });
    assert.match(JSON.stringify(hover.contents), /fields.*merged onto it key by key/);
  });

  test('a kind file changed on disk is taken up by the documents that use it', T, async (t) => {
    const root = project(t);
    const capabilities = clientCapabilities();
    capabilities.workspace.didChangeWatchedFiles = { dynamicRegistration: true };
    const client = await startClient(t, { capabilities });
    const uri = 'file://' + path.join(root, 'q.source.json');
    const queue = '{"name": "q", "type": "MESSAGE_QUEUE", "config": {"brokerUrl": "amqp://b", "topic": "t"}}\n';
    const before = await client.openAndSettle(uri, queue);
    assert.deepEqual(before.diagnostics, []);
    const kind = path.join(root, 'kinds', 'queue.json');
    const stricter = JSON.parse(QUEUE);
    stricter.fields.group = { type: 'string', description: 'The consumer group.', required: true };
    fs.writeFileSync(kind, JSON.stringify(stricter));
    // a change elsewhere is not one of the project's: nothing is republished for it
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: 'file://' + path.join(root, 'other.json'), type: 2 }] });
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: 'file://' + kind, type: 2 }] });
    const after = await client.waitForPublish(uri, (p) => p.diagnostics.length > 0);
    assert.deepEqual(after.diagnostics.map((d) => d.code), ['missing-required']);
    assert.match(after.diagnostics[0].message, /"group"/);
  });
});
