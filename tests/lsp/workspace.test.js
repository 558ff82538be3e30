'use strict';
// workspace/diagnostic: every source and job document under the workspace folders, opened or
// not, each with a resultId; an unchanged file comes back "unchanged".

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const { WorkspaceDiagnosticRequest } = require('vscode-languageserver-protocol/node');
const { ProgressType } = require('vscode-jsonrpc');
const { spawnSync } = require('node:child_process');
const { startClient, startRaw, initializeParams, example, cliDiagnostics, summarize, CLI_BINARY, ErrorCodes } = require('./client');

const T = { timeout: 30000 };
// The WebAssembly server (tests/wasm_lsp.sh, tests/npm/registry.sh) runs no git, and its pull
// runs on its one thread to its end (docs/lsp.md): what depends on either is tested against the
// native server only.
const WASM = Boolean(process.env.SRCLS_WASM || process.env.SRCLS_SUITE_WASM);

// A workspace on disk: sources and jobs, a document that is not ours, hidden and dependency
// folders, a symbolic link, a path with a space and a non-ASCII letter.
function workspace(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-ws-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const write = (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('bad.source.json', example('bad-object-storage.source.json'));
  write('sub dir/é.job.json', example('bad-job-failed.job.json'));
  write('clean.source.json', example('01-search-service.source.json'));
  write('package.json', '{"name": "not ours"}');
  write('.hidden/x.source.json', example('bad-object-storage.source.json'));
  write('node_modules/y.source.json', example('bad-object-storage.source.json'));
  fs.symlinkSync(path.join(root, 'bad.source.json'), path.join(root, 'link.source.json'));
  return root;
}

const uriOf = (p) => 'file://' + p.split('/').map(encodeURIComponent).join('/');

describe('workspace diagnostics', () => {
  test('reports the sources and jobs under the folder, and nothing else', T, async (t) => {
    const root = workspace(t);
    const client = await startClient(t, { workspaceFolders: [{ uri: uriOf(root), name: 'ws' }] });
    assert.equal(client.initResult.capabilities.diagnosticProvider.workspaceDiagnostics, true);
    const report = await client.request(WorkspaceDiagnosticRequest.method, { previousResultIds: [] });
    const byUri = new Map(report.items.map((r) => [r.uri, r]));
    const expected = ['bad.source.json', 'sub dir/é.job.json', 'clean.source.json'].map((rel) => uriOf(path.join(root, rel)));
    assert.deepEqual([...byUri.keys()].sort(), expected.sort());
    const bad = byUri.get(uriOf(path.join(root, 'bad.source.json')));
    assert.equal(bad.kind, 'full');
    assert.equal(bad.version, null);
    assert.equal(typeof bad.resultId, 'string');
    assert.deepEqual(summarize(bad.items), summarize(cliDiagnostics(example('bad-object-storage.source.json'))));
    assert.equal(byUri.get(uriOf(path.join(root, 'clean.source.json'))).items.length, 0);
  });

  test('a second pull with the result ids: unchanged files are "unchanged", a changed one is full', T, async (t) => {
    const root = workspace(t);
    const client = await startClient(t, { rootUri: uriOf(root) });
    const first = await client.request(WorkspaceDiagnosticRequest.method, { previousResultIds: [] });
    const previous = first.items.map((r) => ({ uri: r.uri, value: r.resultId }));
    const clean = path.join(root, 'clean.source.json');
    fs.writeFileSync(clean, example('bad-no-type.source.json'));
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(clean, later, later); // a new mtime even on a coarse clock
    const second = await client.request(WorkspaceDiagnosticRequest.method, { previousResultIds: previous });
    const kinds = Object.fromEntries(second.items.map((r) => [path.basename(decodeURIComponent(r.uri)), r.kind]));
    assert.deepEqual(kinds, { 'bad.source.json': 'unchanged', 'é.job.json': 'unchanged', 'clean.source.json': 'full' });
    const changed = second.items.find((r) => r.kind === 'full');
    assert.ok(changed.items.some((d) => d.code === 'kind-inferred'));
  });

  test('an open document is reported from the editor\'s text, with its version', T, async (t) => {
    const root = workspace(t);
    const client = await startClient(t, { workspaceFolders: [{ uri: uriOf(root), name: 'ws' }] });
    const uri = uriOf(path.join(root, 'clean.source.json'));
    const edited = example('01-search-service.source.json').replace('"scriptsEnabled"', '"scriptsEnabeld"');
    await client.open(uri, edited, 7);
    const report = await client.request(WorkspaceDiagnosticRequest.method, { previousResultIds: [] });
    const mine = report.items.find((r) => r.uri === uri);
    assert.equal(mine.version, 7);
    assert.ok(mine.items.some((d) => d.code === 'unknown-field'));
  });

  // (file, code, range) of each finding, from workspace/diagnostic reports
  const findings = (reports) => reports.flatMap((r) => (r.items || []).map((d) =>
    `${decodeURIComponent(r.uri)} ${d.code} ${JSON.stringify(d.range)}`)).sort();

  test('the first pull reports the files and findings `--check` of the folder reports', T, async (t) => {
    const root = workspace(t);
    const client = await startClient(t, { workspaceFolders: [{ uri: uriOf(root), name: 'ws' }] });
    const report = await client.request(WorkspaceDiagnosticRequest.method, { previousResultIds: [] });
    const cli = spawnSync(CLI_BINARY, ['--check', '--format', 'json', root], { encoding: 'utf8', timeout: 10000 });
    assert.ok(cli.status === 0 || cli.status === 1, cli.stderr);
    const files = JSON.parse(cli.stdout).files;
    assert.deepEqual(report.items.map((r) => decodeURIComponent(r.uri).slice('file://'.length)).sort(),
      files.map((f) => f.path).sort());
    assert.deepEqual(findings(report.items), files.flatMap((f) => f.diagnostics.map((d) =>
      `file://${f.path} ${d.code} ${JSON.stringify(d.range)}`)).sort());
  });

  test('with a partialResultToken the reports stream in $/progress, their union the full answer', T, async (t) => {
    const root = workspace(t);
    for (let i = 0; i < 300; i++) // more than one part's worth (256 reports)
      fs.writeFileSync(path.join(root, `many-${i}.source.json`), example(i % 2 ? 'bad-no-type.source.json' : '01-search-service.source.json'));
    const client = await startClient(t, { workspaceFolders: [{ uri: uriOf(root), name: 'ws' }] });
    const whole = await client.request(WorkspaceDiagnosticRequest.method, { previousResultIds: [] });
    const parts = [];
    const listening = client.conn.onProgress(new ProgressType(), 'ws-partial', (value) => parts.push(value));
    t.after(() => listening.dispose());
    const answer = await client.request(WorkspaceDiagnosticRequest.method,
      { previousResultIds: [], partialResultToken: 'ws-partial' });
    assert.deepEqual(answer.items, []);
    assert.ok(parts.length >= 2, `${parts.length} partial results`);
    const streamed = parts.flatMap((p) => p.items);
    assert.equal(streamed.length, whole.items.length);
    assert.deepEqual(streamed.map((r) => r.uri).sort(), whole.items.map((r) => r.uri).sort());
    assert.deepEqual(findings(streamed), findings(whole.items));
  });

  test('the pull skips what `--check` skips: what git ignores, a srcls.json\'s "exclude"; it takes its "include"', T, async (t) => {
    const root = workspace(t);
    const git = (...args) => spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' });
    if (!WASM) { // what git ignores: no work tree for the WebAssembly server
      assert.equal(git('init', '-q').status, 0, 'git init');
      fs.writeFileSync(path.join(root, '.gitignore'), 'ignored.source.json\nbuild/\n');
      fs.writeFileSync(path.join(root, 'ignored.source.json'), example('bad-object-storage.source.json'));
      fs.mkdirSync(path.join(root, 'build'));
      fs.writeFileSync(path.join(root, 'build', 'out.source.json'), example('bad-no-type.source.json'));
    }
    fs.mkdirSync(path.join(root, 'gen'));
    fs.writeFileSync(path.join(root, 'gen', 'excluded.source.json'), example('bad-no-type.source.json'));
    fs.writeFileSync(path.join(root, 'extra.src'), example('bad-no-type.source.json'));
    fs.writeFileSync(path.join(root, 'srcls.json'), JSON.stringify({ exclude: ['gen/**'], include: ['*.src'] }));
    const client = await startClient(t, { workspaceFolders: [{ uri: uriOf(root), name: 'ws' }] });
    const report = await client.request(WorkspaceDiagnosticRequest.method, { previousResultIds: [] });
    const cli = spawnSync(CLI_BINARY, ['--check', '--format', 'json', root], { encoding: 'utf8', timeout: 10000 });
    assert.ok(cli.status === 0 || cli.status === 1, cli.stderr);
    const files = JSON.parse(cli.stdout).files;
    const pulled = report.items.map((r) => decodeURIComponent(r.uri).slice('file://'.length)).sort();
    assert.deepEqual(pulled, files.map((f) => f.path).sort());
    const names = pulled.map((p) => path.relative(root, p));
    assert.ok(names.includes('extra.src'), names.join(', '));
    for (const skipped of ['gen/excluded.source.json', ...(WASM ? [] : ['ignored.source.json', 'build/out.source.json'])])
      assert.ok(!names.includes(skipped), `${skipped} reported`);
    assert.deepEqual(findings(report.items), files.flatMap((f) => f.diagnostics.map((d) =>
      `file://${f.path} ${d.code} ${JSON.stringify(d.range)}`)).sort());
  });

  // A workspace of `n` files in folders of 100, big enough that a pull takes a while.
  function manyFiles(t, n) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-ws-many-'));
    t.after(() => fs.rmSync(root, { recursive: true, force: true }));
    const bad = example('bad-object-storage.source.json');
    for (let d = 0; d < n / 100; d++) {
      fs.mkdirSync(path.join(root, `d${d}`));
      for (let i = 0; i < 100; i++)
        fs.writeFileSync(path.join(root, `d${d}`, `f${i}.source.json`), bad);
    }
    return root;
  }

  test('the loop answers other messages while a pull runs: a didChange and a pull of that document', { timeout: 60000, skip: WASM && 'one thread: the pull runs to its end' }, async (t) => {
    const root = manyFiles(t, 4000);
    const raw = await startRaw(t);
    await raw.initialize(initializeParams({ workspaceFolders: [{ uri: uriOf(root), name: 'ws' }] }));
    const uri = 'file:///tmp/srcls-ws-open.source.json';
    await raw.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: example('01-search-service.source.json') } });
    await raw.request('pull', WorkspaceDiagnosticRequest.method, { previousResultIds: [], partialResultToken: 'p' });
    await raw.next((m) => m.method === '$/progress', 30000, 'the first partial result');
    const edited = example('01-search-service.source.json').replace('"scriptsEnabled"', '"scriptsEnabeld"');
    await raw.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    await raw.request('doc', 'textDocument/diagnostic', { textDocument: { uri } });
    const doc = await raw.response('doc', 30000);
    assert.ok(doc.result.items.some((d) => d.code === 'unknown-field'), JSON.stringify(doc.result));
    // the document's answer came before the pull's: the pull was not over yet
    assert.ok(!raw.messages.some((m) => m.id === 'pull'), 'the pull was answered before the document');
    const pull = await raw.response('pull', 30000);
    assert.deepEqual(pull.result.items, []);
  });

  test('$/cancelRequest during a pull answers it RequestCancelled, once; the next pull is whole', { timeout: 60000, skip: WASM && 'one thread: the pull runs to its end' }, async (t) => {
    const root = manyFiles(t, 3000);
    const raw = await startRaw(t);
    await raw.initialize(initializeParams({ workspaceFolders: [{ uri: uriOf(root), name: 'ws' }] }));
    await raw.request(7, WorkspaceDiagnosticRequest.method, { previousResultIds: [], partialResultToken: 'c' });
    await raw.next((m) => m.method === '$/progress', 30000, 'the first partial result');
    await raw.notify('$/cancelRequest', { id: 7 });
    const answer = await raw.response(7, 30000);
    assert.equal(answer.error && answer.error.code, ErrorCodes.RequestCancelled, JSON.stringify(answer));
    await raw.request(8, WorkspaceDiagnosticRequest.method, { previousResultIds: [] });
    const whole = await raw.response(8, 30000);
    assert.equal(whole.result.items.length, 3000);
    const late = await raw.drain(300);
    assert.deepEqual(late.filter((m) => m.id === 7), [], 'answered twice');
  });

  test('the configuration and a srcls.json changing during a pull: every file is still reported, once', { timeout: 60000 }, async (t) => {
    const root = manyFiles(t, 3000);
    fs.writeFileSync(path.join(root, 'srcls.json'), '{}');
    const raw = await startRaw(t);
    await raw.initialize(initializeParams({ workspaceFolders: [{ uri: uriOf(root), name: 'ws' }] }));
    await raw.request('pull', WorkspaceDiagnosticRequest.method, { previousResultIds: [], partialResultToken: 'q' });
    await raw.next((m) => m.method === '$/progress', 30000, 'the first partial result');
    // what the workers read (the projects, the editor's settings) changes while they run
    for (let i = 0; i < 5; i++) {
      await raw.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path.join(root, 'srcls.json')), type: 2 }] });
      await raw.notify('workspace/didChangeConfiguration', { settings: { srcls: { maxDiagnostics: i + 1 } } });
    }
    const answer = await raw.response('pull', 30000);
    assert.deepEqual(answer.result, { items: [] });
    const parts = raw.messages.filter((m) => m.method === '$/progress' && m.params.token === 'q');
    const uris = parts.flatMap((m) => m.params.value.items.map((r) => r.uri));
    assert.equal(uris.length + 256, 3000, 'reports streamed after the first part'); // the first part was taken
    assert.equal(new Set(uris).size, uris.length);
  });

  test('a srcls.json with a baseline changing during a pull: the files checked on the loop take the settings as they are then', { timeout: 60000, skip: WASM && 'one thread: the pull runs to its end' }, async (t) => {
    // With a "baseline", each file is checked on the loop as its batch is sent (its entries are
    // marked one thread at a time). A change of srcls.json frees the projects its batch was
    // resolved with: a file sent after it must be resolved again, not read through them (under
    // AddressSanitizer, a use after free; in the plain build, garbage or a crash).
    const root = manyFiles(t, 3000);
    fs.writeFileSync(path.join(root, 'baseline.json'), '{"version": 1, "findings": []}\n');
    fs.writeFileSync(path.join(root, 'srcls.json'), '{"baseline": "baseline.json"}');
    const raw = await startRaw(t);
    // pull and refresh: the change is followed by workspace/diagnostic/refresh (an open
    // document makes the server send it), which marks in the stream where the change was taken
    await raw.initialize(initializeParams({ workspaceFolders: [{ uri: uriOf(root), name: 'ws' }], pull: true, refresh: true }));
    await raw.notify('textDocument/didOpen', { textDocument: { uri: 'file:///tmp/srcls-ws-open.source.json', languageId: 'json', version: 1, text: example('01-search-service.source.json') } });
    await raw.request('pull', WorkspaceDiagnosticRequest.method, { previousResultIds: [], partialResultToken: 'b' });
    await raw.next((m) => m.method === '$/progress', 30000, 'the first partial result');
    fs.writeFileSync(path.join(root, 'srcls.json'), '{"baseline": "baseline.json", "rules": {"unknown-field": "off"}}');
    await raw.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path.join(root, 'srcls.json')), type: 2 }] });
    const answer = await raw.response('pull', 30000);
    assert.deepEqual(answer.result, { items: [] });
    const parts = (messages) => messages.filter((m) => m.method === '$/progress' && m.params.token === 'b')
      .flatMap((m) => m.params.value.items);
    const reports = parts(raw.messages);
    assert.equal(reports.length + 256, 3000, 'every file reported once'); // the first part was taken
    assert.equal(new Set(reports.map((r) => r.uri)).size, reports.length);
    // the files sent after the change was taken were checked with it: unknown-field is off
    // (the part being filled then holds files sent before it: the parts after that one)
    const taken = raw.messages.findIndex((m) => m.method === 'workspace/diagnostic/refresh');
    assert.ok(taken >= 0, 'the change was taken (workspace/diagnostic/refresh)');
    const next = raw.messages.findIndex((m, i) => i > taken && m.method === '$/progress');
    for (const r of parts(next < 0 ? [] : raw.messages.slice(next + 1)))
      assert.ok(r.items.length > 0 && !r.items.some((d) => d.code === 'unknown-field'), r.uri + ': ' + JSON.stringify(r.items.map((d) => d.code)));
    await raw.request('after', 'textDocument/hover', { textDocument: { uri: uriOf(path.join(root, 'd0', 'f0.source.json')) }, position: { line: 0, character: 0 } });
    await raw.response('after', 30000); // the server is still there
  });

  test('under a srcls.json that extends another, the pull skips and takes what `--check` does', T, async (t) => {
    const root = workspace(t);
    fs.writeFileSync(path.join(root, 'srcls.json'), JSON.stringify({ exclude: ['app/legacy/**', '*.draft.json'] }));
    fs.mkdirSync(path.join(root, 'app', 'legacy'), { recursive: true });
    fs.writeFileSync(path.join(root, 'app', 'srcls.json'), JSON.stringify({ extends: '../srcls.json', include: ['*.src'] }));
    fs.writeFileSync(path.join(root, 'app', 'legacy', 'old.source.json'), example('bad-no-type.source.json'));
    fs.writeFileSync(path.join(root, 'app', 'x.draft.json'), example('bad-no-type.source.json'));
    fs.writeFileSync(path.join(root, 'app', 'kept.source.json'), example('bad-no-type.source.json'));
    fs.writeFileSync(path.join(root, 'app', 'extra.src'), example('bad-no-type.source.json'));
    const client = await startClient(t, { workspaceFolders: [{ uri: uriOf(root), name: 'ws' }] });
    const report = await client.request(WorkspaceDiagnosticRequest.method, { previousResultIds: [] });
    const cli = spawnSync(CLI_BINARY, ['--check', '--format', 'json', root], { encoding: 'utf8', timeout: 10000 });
    assert.ok(cli.status === 0 || cli.status === 1, cli.stderr);
    const files = JSON.parse(cli.stdout).files;
    const pulled = report.items.map((r) => decodeURIComponent(r.uri).slice('file://'.length)).sort();
    assert.deepEqual(pulled, files.map((f) => f.path).sort());
    const names = pulled.map((p) => path.relative(root, p));
    assert.ok(names.includes('app/kept.source.json') && names.includes('app/extra.src'), names.join(', '));
    assert.ok(!names.includes('app/legacy/old.source.json') && !names.includes('app/x.draft.json'), names.join(', '));
  });
});
