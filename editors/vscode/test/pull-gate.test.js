// lib/pull-gate.js: which file events can change a workspace report, and the gate that holds
// vscode-languageclient's workspace/diagnostic requests until one has happened.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { PullGate, affectsWorkspace } = require('../lib/pull-gate');

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('file events: JSON files count, except under node_modules and hidden folders (the server skips them)', () => {
  assert.equal(affectsWorkspace('/w/lake.source.json'), true);
  assert.equal(affectsWorkspace('/w/team/kinds/queue.json'), true);
  assert.equal(affectsWorkspace('C:\\w\\srcls.json'), true);
  assert.equal(affectsWorkspace('/w/.hidden.source.json'), true, 'a hidden file, not a hidden folder');
  assert.equal(affectsWorkspace('/w/node_modules/x/package.json'), false);
  assert.equal(affectsWorkspace('/w/.git/x.json'), false);
  assert.equal(affectsWorkspace('/w/../w/lake.source.json'), true);
  assert.equal(affectsWorkspace('/w/lake.source.json.swp'), false);
  assert.equal(affectsWorkspace('/w/README.md'), false);
});

test('gate: the first request passes, the next waits for a change; one change lets one through', async () => {
  const gate = new PullGate();
  assert.equal(await gate.wait(), true);
  let passed = 0;
  const a = gate.wait().then((ok) => { if (ok) passed++; });
  await tick();
  assert.equal(passed, 0);
  gate.changed();
  await a;
  assert.equal(passed, 1);
  // changes while nobody waits are kept, once
  gate.changed();
  gate.changed();
  assert.equal(await gate.wait(), true);
  const b = gate.wait().then((ok) => { if (ok) passed++; });
  await tick();
  assert.equal(passed, 1);
  gate.release();
  await b;
  assert.equal(passed, 1, 'released, not passed');
  assert.equal(gate.passed, 3);
});

test('gate: a cancelled token stops the wait, before or during it', async () => {
  const gate = new PullGate();
  assert.equal(await gate.wait({ isCancellationRequested: true }), false);
  assert.equal(await gate.wait(), true);
  let cancel = null;
  const token = {
    isCancellationRequested: false,
    onCancellationRequested(l) { cancel = l; return { dispose() { cancel = null; } }; },
  };
  const waiting = gate.wait(token);
  cancel();
  assert.equal(await waiting, false);
  gate.changed(); // the cancelled waiter is gone: the change is kept for the next request
  assert.equal(await gate.wait(), true);
});
