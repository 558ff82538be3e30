'use strict';
// srcls.json in the editor: linted where its mistakes are written.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const { startClient, offsetAt } = require('./client');

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
});
