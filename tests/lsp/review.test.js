'use strict';
// srcls.reviewBase: the risky-change diagnostics of `srcls --check --base REF` in the editor, on
// real git repositories the tests build; refreshed when a commit moves HEAD; a bad revision,
// a directory outside any work tree and git missing are one message each, never a diagnostic.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { DidChangeConfigurationNotification, HoverRequest } = require('vscode-languageserver-protocol/node');
const { startClient } = require('./client');

const T = { timeout: 30000 };
const WASM = Boolean(process.env.SRCLS_WASM);
const HAVE_GIT = spawnSync('git', ['--version']).status === 0;
const SECRET = 'n0wInl1neS3cret';

function source(secure, secret = '$SERVICE_EXISTING_VALUE$') {
  return JSON.stringify({
    name: 's1',
    type: 'CLOUDA_OBJECT_STORAGE',
    config: { secure, whitelistedBuckets: ['b'], accessKey: 'k', accessSecret: secret },
  }, null, 2) + '\n';
}

function git(dir, ...args) {
  const res = spawnSync('git', ['-c', 'user.name=srcls', '-c', 'user.email=srcls@example.invalid',
    '-c', 'init.defaultBranch=main', ...args], { cwd: dir, encoding: 'utf8' });
  assert.equal(res.status, 0, `git ${args.join(' ')}: ${res.stderr}`);
}

function scratch(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-review-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

// A repository whose one commit holds a.source.json with TLS on.
function repository(t) {
  const root = scratch(t);
  fs.writeFileSync(path.join(root, 'a.source.json'), source(true));
  git(root, 'init', '-q');
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'base');
  return root;
}

const risky = (p) => p.diagnostics.filter((d) => d.code === 'risky-change');
const logs = (client) => client.notifications.filter((n) => n.method === 'window/logMessage').map((n) => n.params.message);
const shown = (client) => client.notifications.filter((n) => n.method === 'window/showMessage').map((n) => n.params.message);

describe('srcls.reviewBase', { skip: WASM ? false : (!HAVE_GIT && 'git is not installed') }, () => {
  test('a change against HEAD is reported, and no longer once it is committed', { ...T, skip: WASM }, async (t) => {
    const root = repository(t);
    const client = await startClient(t, { initializationOptions: { srcls: { reviewBase: 'HEAD' } } });
    const uri = 'file://' + path.join(root, 'a.source.json');
    await client.open(uri, source(false, 'data:,' + SECRET));
    const before = await client.waitForPublish(uri, (p) => risky(p).length > 0);
    const found = risky(before);
    assert.deepEqual(found.map((d) => d.data.pointer).sort(), ['/config/accessSecret', '/config/secure']);
    assert.match(found.find((d) => d.data.pointer === '/config/secure').message, /^insecure-transport since HEAD: /);
    // the hover on the value: the posture risk in full, the change beside it without repeating it
    const secure = found.find((d) => d.data.pointer === '/config/secure');
    const hover = await client.request(HoverRequest.method, { textDocument: { uri }, position: secure.range.start });
    const posture = before.diagnostics.find((d) => d.code === 'insecure-transport');
    const text = hover.contents.value;
    assert.equal(text.split(posture.message).length - 1, 1, `the posture message once in: ${text}`);
    assert.match(text, /\*\*Risk\*\* \(`risky-change`\): insecure-transport since HEAD$/m);
    // the same document, committed: HEAD moved, the base is the new text, nothing is new
    fs.writeFileSync(path.join(root, 'a.source.json'), source(false, 'data:,' + SECRET));
    const from = client.publishesFor(uri).length;
    git(root, 'commit', '-q', '-a', '-m', 'TLS off');
    const after = await client.waitForPublish(uri, (p) => risky(p).length === 0, { from });
    assert.ok(after.diagnostics.some((d) => d.code === 'insecure-transport'), 'the posture finding stays');
    // a branch checked out elsewhere: HEAD names another ref, whose commit has TLS on again
    git(root, 'checkout', '-q', '-b', 'other', 'HEAD~1');
    await client.waitForPublish(uri, (p) => risky(p).length === 2, { from: client.publishesFor(uri).length });
    // off: no review
    const off = client.publishesFor(uri).length;
    await client.notify(DidChangeConfigurationNotification.type, { settings: { srcls: { reviewBase: null } } });
    await client.waitForPublish(uri, (p) => risky(p).length === 0, { from: off });
    assert.ok(!client.output().includes(SECRET), 'the secret never leaves the server');
    assert.deepEqual(shown(client), []);
  });

  test('an open srcls.json: what its change does to the gate, at the member that changed', { ...T, skip: WASM }, async (t) => {
    const root = repository(t);
    fs.writeFileSync(path.join(root, 'srcls.json'), '{\n  "rules": {"unknown-field": "error"}\n}\n');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'rules');
    const client = await startClient(t, { initializationOptions: { srcls: { reviewBase: 'HEAD' } } });
    const uri = 'file://' + path.join(root, 'srcls.json');
    await client.open(uri, '{\n  "rules": {"unknown-field": "hint"},\n  "exclude": ["x/**"]\n}\n');
    const p = await client.waitForPublish(uri, (q) => risky(q).length === 2);
    const found = risky(p).sort((x, y) => x.range.start.line - y.range.start.line);
    assert.match(found[0].message, /^"rules" weakened since HEAD: unknown-field from error to hint/);
    assert.deepEqual(found[0].range.start, { line: 1, character: 12 });
    assert.match(found[1].message, /^"exclude" widened since HEAD: "x\/\*\*"/);
    assert.deepEqual(found[1].range.start, { line: 2, character: 14 });
    // as it was at HEAD: nothing
    const from = client.publishesFor(uri).length;
    await client.change(uri, 2, [{ text: '{\n  "rules": {"unknown-field": "error"}\n}\n' }]);
    await client.waitForPublish(uri, (q) => risky(q).length === 0, { from });
  });

  test('an open srcls.json: its findings at the stricter of the revision\'s settings and its own', { ...T, skip: WASM }, async (t) => {
    const root = repository(t);
    fs.writeFileSync(path.join(root, 'srcls.json'), '{\n  "rules": {"security": "error"}\n}\n');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'security raised');
    const client = await startClient(t, { initializationOptions: { srcls: { reviewBase: 'HEAD' } } });
    const uri = 'file://' + path.join(root, 'srcls.json');
    // the gate switched off: risky-change is in the security group, an error at HEAD, so it
    // stays an error, as `srcls --check --base HEAD` reports it
    await client.open(uri, '{\n  "rules": {"security": "off"}\n}\n');
    const found = risky(await client.waitForPublish(uri, (q) => risky(q).length > 0));
    assert.equal(found.length, 1);
    assert.match(found[0].message, /^"rules" weakened since HEAD: insecure-transport from error to off/);
    assert.equal(found[0].severity, 1);
  });

  test('the baseline file srcls.json names: the entries it gained since the revision', { ...T, skip: WASM }, async (t) => {
    const root = repository(t);
    const entry = (pointer) => ({ file: 'a.source.json', code: 'unknown-field', pointer, hash: '0000000000000000' });
    const baseline = (findings) => JSON.stringify({ version: 1, findings }) + '\n';
    fs.writeFileSync(path.join(root, 'srcls.json'), '{"baseline": "bl.json"}\n');
    fs.writeFileSync(path.join(root, 'bl.json'), baseline([entry('/a')]));
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'baseline');
    const grown = baseline([entry('/a'), entry('/b'), entry('/c')]);
    fs.writeFileSync(path.join(root, 'bl.json'), grown);
    const client = await startClient(t, { initializationOptions: { srcls: { reviewBase: 'HEAD' } } });
    const uri = 'file://' + path.join(root, 'bl.json');
    await client.open(uri, grown);
    const p = await client.waitForPublish(uri, (q) => risky(q).length > 0);
    assert.deepEqual(p.diagnostics.map((d) => d.code), ['risky-change'], 'no unknown-document: it is no document');
    assert.match(risky(p)[0].message, /^2 entries added to the baseline since HEAD: findings hidden, not fixed \(a\.source\.json: 2 unknown-field\)/);
    assert.deepEqual(risky(p)[0].range.start, { line: 0, character: 0 });
    // back to the revision's entries: nothing gained
    const from = client.publishesFor(uri).length;
    await client.change(uri, 2, [{ text: baseline([entry('/a')]) }]);
    const after = await client.waitForPublish(uri, (q) => risky(q).length === 0, { from });
    assert.deepEqual(after.diagnostics, []);
  });

  test('a document moved since the revision is compared with its old path\'s version', { ...T, skip: WASM }, async (t) => {
    const root = repository(t);
    fs.mkdirSync(path.join(root, 'team'));
    git(root, 'mv', 'a.source.json', 'team/moved.source.json'); // staged: git sees the move
    fs.writeFileSync(path.join(root, 'team', 'moved.source.json'), source(false));
    const client = await startClient(t, { initializationOptions: { srcls: { reviewBase: 'HEAD' } } });
    const uri = 'file://' + path.join(root, 'team', 'moved.source.json');
    await client.open(uri, source(false));
    const found = risky(await client.waitForPublish(uri, (p) => risky(p).length > 0));
    assert.deepEqual(found.map((d) => d.data.pointer), ['/config/secure']);
    assert.match(found[0].message, /^insecure-transport since HEAD: /);
    assert.deepEqual(shown(client), []);
  });

  test('a revision that names no commit: one message, shown once, no diagnostic invented', { ...T, skip: WASM }, async (t) => {
    const root = repository(t);
    fs.writeFileSync(path.join(root, 'b.source.json'), source(true));
    const client = await startClient(t, { initializationOptions: { reviewBase: 'no-such-branch' } });
    const a = 'file://' + path.join(root, 'a.source.json');
    const b = 'file://' + path.join(root, 'b.source.json');
    await client.open(a, source(false));
    await client.open(b, source(false));
    await client.waitFor(() => logs(client).find((m) => m.includes('"no-such-branch" names no commit')), 5000, 'the log');
    for (const uri of [a, b]) {
      const p = await client.settled(uri, 1);
      assert.deepEqual(risky(p), []);
      assert.ok(p.diagnostics.some((d) => d.code === 'insecure-transport'));
    }
    assert.equal(logs(client).filter((m) => m.includes('no-such-branch')).length, 1);
    assert.equal(shown(client).length, 1);
    await client.ping();
  });

  test('outside any work tree, and without git: a message, no diagnostic, the server answers', { ...T, skip: WASM }, async (t) => {
    const root = scratch(t); // no repository
    const uri = 'file://' + path.join(root, 'a.source.json');
    const client = await startClient(t, { initializationOptions: { reviewBase: 'HEAD' } });
    await client.open(uri, source(false));
    await client.waitFor(() => logs(client).find((m) => m.includes('is not in a git work tree')), 5000, 'the log');
    assert.deepEqual(risky(await client.settled(uri, 1)), []);
    await client.ping();

    const repo = repository(t);
    const empty = scratch(t); // a PATH where git is not
    const nogit = await startClient(t, { env: { PATH: empty }, initializationOptions: { reviewBase: 'HEAD' } });
    const inRepo = 'file://' + path.join(repo, 'a.source.json');
    await nogit.open(inRepo, source(false));
    await nogit.waitFor(() => logs(nogit).find((m) => m.includes('git could not be started')), 5000, 'the log');
    assert.deepEqual(risky(await nogit.settled(inRepo, 1)), []);
    assert.equal(shown(nogit).length, 1);
    await nogit.ping();
  });

  test('the WebAssembly server says once that it cannot run git', { ...T, skip: !WASM }, async (t) => {
    const client = await startClient(t, { initializationOptions: { reviewBase: 'HEAD' } });
    await client.notify(DidChangeConfigurationNotification.type, { settings: { srcls: { reviewBase: 'HEAD~1' } } });
    await client.waitFor(() => logs(client).find((m) => m.includes('cannot run git')), 5000, 'the log');
    await client.ping();
    assert.equal(logs(client).filter((m) => m.includes('reviewBase')).length, 1);
  });
});
