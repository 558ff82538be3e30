'use strict';
// Diagnostics over LSP: what is published for a document (and that it agrees with
// `srcls --check --format json` on the same text), full and incremental sync, debouncing,
// position encodings, didClose, pull diagnostics, half-typed documents.

const fs = require('node:fs');
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const {
  CodeActionRequest,
  CompletionRequest,
  DiagnosticSeverity,
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  DocumentFormattingRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ResponseError,
} = require('vscode-languageserver-protocol/node');
const {
  EXAMPLES, startClient, example, positionAt, positionOf, rangeOf, applyChanges,
  tmpUri, cliDiagnostics, summarize, sleep,
} = require('./client');

const T = { timeout: 30000 };
const BAD = example('bad-object-storage.source.json');
const BAD_URI = 'file:///tmp/x.source.json';
const SECRET = 'hunter2';

function codes(diags) {
  return diags.map((d) => d.code).sort();
}

function byCode(diags, code) {
  return diags.filter((d) => d.code === code);
}

// Checks the shape every published diagnostic must have.
function assertWellFormed(d, text) {
  const where = JSON.stringify(d);
  assert.equal(d.source, 'srcls', `source: ${where}`);
  assert.equal(typeof d.code, 'string', `code: ${where}`);
  assert.match(d.code, /^[a-z0-9-]+$/, `code: ${where}`);
  assert.ok(Object.values(DiagnosticSeverity).includes(d.severity), `severity: ${where}`);
  assert.equal(typeof d.message, 'string', `message: ${where}`);
  assert.ok(d.message.length > 0, `message: ${where}`);
  for (const p of [d.range.start, d.range.end]) {
    assert.ok(Number.isInteger(p.line) && p.line >= 0, `range: ${where}`);
    assert.ok(Number.isInteger(p.character) && p.character >= 0, `range: ${where}`);
  }
  const s = d.range.start;
  const e = d.range.end;
  assert.ok(s.line < e.line || (s.line === e.line && s.character <= e.character), `range start after end: ${where}`);
  if (text !== undefined) {
    const lines = text.split(/\r\n|\r|\n/);
    assert.ok(s.line < lines.length || (s.line === lines.length && s.character === 0), `range beyond the text: ${where}`);
  }
  assert.ok(d.data && typeof d.data.pointer === 'string', `data.pointer: ${where}`);
  assert.ok(d.data.pointer === '' || d.data.pointer.startsWith('/'), `data.pointer is not an RFC 6901 pointer: ${where}`);
  assert.ok(d.codeDescription && typeof d.codeDescription.href === 'string', `codeDescription.href: ${where}`);
  assert.ok(d.codeDescription.href.includes(d.code), `codeDescription.href does not name the code: ${where}`);
  assert.doesNotThrow(() => new URL(d.codeDescription.href), `codeDescription.href is not a URL: ${where}`);
}

// Diagnostics with utf-8 columns converted to utf-16 ones, given the text they are about.
function toUtf16(diags, text) {
  const lines = text.split(/\r\n|\r|\n/);
  const conv = (p) => ({
    line: p.line,
    character: Buffer.from(lines[p.line] || '', 'utf8').subarray(0, p.character).toString('utf8').length,
  });
  return diags.map((d) => ({ ...d, range: { start: conv(d.range.start), end: conv(d.range.end) } }));
}

// The diagnostics of a publish, compared with what the CLI says about `text`.
function assertMatchesCli(diags, text, name) {
  assert.deepEqual(summarize(diags), summarize(cliDiagnostics(text, name)),
    'LSP diagnostics differ from `srcls --check --format json` on the same text');
}

describe('published diagnostics', () => {
  test('bad-object-storage: version, source, code, severity, range, pointer, href; no secret', T, async (t) => {
    const client = await startClient(t);
    await client.open(BAD_URI, BAD, 7);
    const pub = await client.settled(BAD_URI, 7);
    assert.equal(pub.uri, BAD_URI);
    assert.equal(pub.version, 7, 'publish carries the opened version');
    const diags = pub.diagnostics;
    for (const d of diags) assertWellFormed(d, BAD);
    for (const code of ['unknown-field', 'conditional-required', 'secret-not-encoded']) {
      assert.ok(diags.some((d) => d.code === code), `a ${code} diagnostic (got ${codes(diags)})`);
    }

    const unknown = byCode(diags, 'unknown-field');
    assert.equal(unknown.length, 1);
    assert.equal(unknown[0].severity, DiagnosticSeverity.Warning);
    assert.equal(unknown[0].data.pointer, '/config/acessKey');
    assert.deepEqual(unknown[0].range, rangeOf(BAD, '"acessKey"'));
    assert.match(unknown[0].message, /accessKey/, 'suggests the nearest name');

    const required = byCode(diags, 'conditional-required');
    assert.equal(required.length, 1);
    assert.equal(required[0].severity, DiagnosticSeverity.Error);
    assert.equal(required[0].data.pointer, '/config/accessKey');

    const secret = byCode(diags, 'secret-not-encoded');
    assert.equal(secret.length, 1);
    assert.equal(secret[0].severity, DiagnosticSeverity.Error);
    assert.equal(secret[0].data.pointer, '/config/accessSecret');

    assert.equal(byCode(diags, 'out-of-range')[0].data.pointer, '/config/maxCacheSpacePct');
    assert.equal(byCode(diags, 'invalid-enum')[0].data.pointer, '/config/defaultCtasFormat');
    assert.equal(byCode(diags, 'not-applicable')[0].severity, DiagnosticSeverity.Warning);

    for (const d of diags) {
      assert.ok(!d.message.includes(SECRET), `a message shows the secret: ${d.message}`);
    }
    assert.ok(!JSON.stringify(pub).includes(SECRET), 'the publish carries the secret value somewhere');
    assertMatchesCli(diags, BAD);
  });

  test('duplicate-key carries relatedInformation pointing at the first key', T, async (t) => {
    const client = await startClient(t);
    const text = example('bad-peer-cluster.source.json');
    const uri = tmpUri('peer.source.json');
    const pub = await client.openAndSettle(uri, text);
    const dup = byCode(pub.diagnostics, 'duplicate-key');
    assert.equal(dup.length, 1, JSON.stringify(pub.diagnostics));
    assertWellFormed(dup[0], text);
    assert.deepEqual(dup[0].range, rangeOf(text, '"port"', { nth: 1 }), 'on the second key');
    assert.equal(dup[0].data.pointer, '/config/port');
    const rel = dup[0].relatedInformation;
    assert.ok(Array.isArray(rel) && rel.length >= 1, 'relatedInformation');
    assert.equal(rel[0].location.uri, uri);
    assert.deepEqual(rel[0].location.range, rangeOf(text, '"port"', { nth: 0 }), 'points at the first key');
    assert.equal(typeof rel[0].message, 'string');
    assertMatchesCli(pub.diagnostics, text, 'peer.source.json');
  });

  test(
      'duplicate-name in a bulk document: on the later source, relatedInformation on the first; edits keep it right',
      T, async (t) => {
          const client = await startClient(t);
          const nas = (name, p) =>
              JSON.stringify({name, type : 'NETWORK_ATTACHED_STORAGE', config : {path : p}});
          const text = '[\n' + nas('lake', '/a') + ',\n' + nas('other', '/b') + ',\n' +
                       nas('Lake', '/c') + '\n]\n';
          const uri = tmpUri('sources.json');
          const pub = await client.openAndSettle(uri, text);
          const dup = byCode(pub.diagnostics, 'duplicate-name');
          assert.equal(dup.length, 1, JSON.stringify(pub.diagnostics));
          assert.equal(dup[0].severity, DiagnosticSeverity.Error);
          assert.equal(dup[0].data.pointer, '/2/name');
          assert.deepEqual(dup[0].range, rangeOf(text, '"Lake"'));
          const rel = dup[0].relatedInformation;
          assert.ok(Array.isArray(rel) && rel.length === 1, 'relatedInformation');
          assert.equal(rel[0].location.uri, uri);
          assert.deepEqual(rel[0].location.range, rangeOf(text, '"lake"'));
          assertMatchesCli(pub.diagnostics, text, 'sources.json');
          // renamed: no duplicate any more; named like the first again: reported again
          const renamed = text.replace('"Lake"', '"river"');
          client.change(uri, 2, [ {range : rangeOf(text, '"Lake"'), text : '"river"'} ]);
          assert.deepEqual(byCode((await client.settled(uri, 2)).diagnostics, 'duplicate-name'),
                           []);
          client.change(uri, 3, [ {range : rangeOf(renamed, '"other"'), text : '"LAKE"'} ]);
          const again = byCode((await client.settled(uri, 3)).diagnostics, 'duplicate-name');
          assert.deepEqual(again.map((d) => d.data.pointer), [ '/1/name' ]);
      });

  test('every example in docs/examples gets the same diagnostics as --check', T, async (t) => {
    const client = await startClient(t);
    const names = fs.readdirSync(EXAMPLES).filter((n) => n.endsWith('.json')).sort();
    assert.ok(names.length > 10);
    const uris = new Map();
    for (const name of names) {
      const uri = tmpUri(name);
      uris.set(name, uri);
      await client.open(uri, example(name));
    }
    for (const name of names) {
      const text = example(name);
      const pub = await client.settled(uris.get(name), 1);
      assert.equal(pub.version, 1, name);
      for (const d of pub.diagnostics) assertWellFormed(d, text);
      assert.deepEqual(summarize(pub.diagnostics), summarize(cliDiagnostics(text, name)), name);
      if (name.startsWith('bad-')) assert.ok(pub.diagnostics.length > 0, `${name} has diagnostics`);
    }
  });

  test('a bulk file (array of sources) gets pointers that start with the element index', T, async (t) => {
    const client = await startClient(t);
    const text = `[\n${example('03-object-storage-a.source.json')},\n${BAD}\n]\n`;
    const uri = tmpUri('bulk.source.json');
    const pub = await client.openAndSettle(uri, text);
    assert.ok(pub.diagnostics.length > 0);
    for (const d of pub.diagnostics) {
      assertWellFormed(d, text);
      assert.match(d.data.pointer, /^\/1\//, `pointer ${d.data.pointer}`);
    }
    assertMatchesCli(pub.diagnostics, text, 'bulk.source.json');
  });

  test('CRLF line endings give the same lines and characters as LF', T, async (t) => {
    const client = await startClient(t);
    const lf = await client.openAndSettle(tmpUri('lf.source.json'), BAD);
    const crlf = await client.openAndSettle(tmpUri('crlf.source.json'), BAD.replace(/\n/g, '\r\n'));
    assert.deepEqual(summarize(crlf.diagnostics), summarize(lf.diagnostics));
  });

  test('documents are independent: diagnostics are per uri', T, async (t) => {
    const client = await startClient(t);
    const good = example('03-object-storage-a.source.json');
    const a = tmpUri('a.source.json');
    const b = tmpUri('b.source.json');
    await client.open(a, BAD);
    await client.open(b, good);
    const pa = await client.settled(a, 1);
    const pb = await client.settled(b, 1);
    assertMatchesCli(pa.diagnostics, BAD);
    assertMatchesCli(pb.diagnostics, good);
    const before = client.publishesFor(b).length;
    await client.close(b);
    await client.waitForPublish(b, (p) => p.diagnostics.length === 0, { from: before });
    await client.change(a, 2, [{ text: good }]);
    const pa2 = await client.settled(a, 2);
    assertMatchesCli(pa2.diagnostics, good);
  });
});

describe('text synchronization', () => {
  test('a range edit fixes the typo and the unknown-field disappears', T, async (t) => {
    const client = await startClient(t);
    await client.openAndSettle(BAD_URI, BAD);
    const changes = [{ range: rangeOf(BAD, 'acessKey'), text: 'accessKey' }];
    await client.change(BAD_URI, 2, changes);
    const pub = await client.settled(BAD_URI, 2);
    assert.equal(pub.version, 2, 'the last publish is for the last version');
    assert.equal(byCode(pub.diagnostics, 'unknown-field').length, 0);
    assert.equal(byCode(pub.diagnostics, 'conditional-required').length, 0, 'accessKey is now present');
    assertMatchesCli(pub.diagnostics, applyChanges(BAD, changes));
  });

  test('several range edits in one notification are applied in order', T, async (t) => {
    const client = await startClient(t);
    await client.openAndSettle(BAD_URI, BAD);
    // 1. insert a line at the top of the object (every later line moves down by one);
    // 2. fix the typo at its NEW position (line 7), by inserting one "c";
    // 3. replace "ORC" on its new line with "PARQUET";
    // 4. delete the line of maxCacheSpacePct (new line 9), newline included.
    const step1 = [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '  "accessControlList": {},\n' }];
    const t1 = applyChanges(BAD, step1);
    const step2 = [{ range: { start: positionOf(t1, 'acessKey', { delta: 2 }), end: positionOf(t1, 'acessKey', { delta: 2 }) }, text: 'c' }];
    const t2 = applyChanges(t1, step2);
    const step3 = [{ range: rangeOf(t2, 'ORC'), text: 'PARQUET' }];
    const t3 = applyChanges(t2, step3);
    const line = positionOf(t3, '"maxCacheSpacePct"').line;
    const step4 = [{ range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, text: '' }];
    const changes = [...step1, ...step2, ...step3, ...step4];
    const expected = applyChanges(BAD, changes);
    assert.ok(expected.includes('"accessKey": "AKIAEXAMPLE"') && !expected.includes('150'));
    await client.change(BAD_URI, 2, changes);
    const pub = await client.settled(BAD_URI, 2);
    assert.equal(pub.version, 2);
    for (const code of ['unknown-field', 'conditional-required', 'invalid-enum', 'out-of-range', 'not-applicable', 'json-syntax']) {
      assert.equal(byCode(pub.diagnostics, code).length, 0, `no ${code} left: ${JSON.stringify(pub.diagnostics)}`);
    }
    assertMatchesCli(pub.diagnostics, expected);
  });

  test('a full-text change (no range) replaces the document', T, async (t) => {
    const client = await startClient(t);
    await client.openAndSettle(BAD_URI, BAD);
    const good = example('03-object-storage-a.source.json');
    await client.change(BAD_URI, 2, [{ text: good }]);
    const pub = await client.settled(BAD_URI, 2);
    assert.equal(pub.version, 2);
    assertMatchesCli(pub.diagnostics, good);
    await client.change(BAD_URI, 3, [{ text: BAD }]);
    const back = await client.settled(BAD_URI, 3);
    assert.equal(back.version, 3);
    assertMatchesCli(back.diagnostics, BAD);
  });

  test('a full-text change followed by range edits in the same notification', T, async (t) => {
    const client = await startClient(t);
    await client.openAndSettle(BAD_URI, '{}');
    const changes = [{ text: BAD }, { range: rangeOf(BAD, 'acessKey'), text: 'accessKey' }];
    await client.change(BAD_URI, 2, changes);
    const pub = await client.settled(BAD_URI, 2);
    assertMatchesCli(pub.diagnostics, applyChanges('{}', changes));
  });

  test('rapid changes: the final version is published last, versions never go back', T, async (t) => {
    const client = await startClient(t);
    await client.openAndSettle(BAD_URI, BAD);
    const from = client.publishesFor(BAD_URI).length;
    let text = BAD;
    // Nine keystrokes in the name, then the one that fixes the typo.
    for (let v = 2; v <= 10; v++) {
      const at = positionOf(text, 'raw-landing-zone', { delta: 16 + (v - 2) });
      const change = { range: { start: at, end: at }, text: String(v) };
      text = applyChanges(text, [change]);
      await client.change(BAD_URI, v, [change]); // written at once; no waiting for diagnostics
    }
    const fix = { range: rangeOf(text, 'acessKey'), text: 'accessKey' };
    text = applyChanges(text, [fix]);
    await client.change(BAD_URI, 11, [fix]);
    const pub = await client.settled(BAD_URI, 11);
    assert.equal(pub.version, 11, 'the last publish is for the final version');
    assertMatchesCli(pub.diagnostics, text);
    const versions = client.publishesFor(BAD_URI).slice(from).map((p) => p.version);
    assert.ok(versions.length >= 1 && versions.length <= 10, `published versions ${versions}`);
    for (let i = 1; i < versions.length; i++) {
      assert.ok(versions[i] >= versions[i - 1], `versions went back: ${versions}`);
    }
    assert.equal(versions[versions.length - 1], 11);
  });

  test('random edits (seeded): diagnostics of the final text match --check', T, async (t) => {
    const client = await startClient(t);
    let seed = 0x5eed;
    const rand = (n) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pieces = ['"', '{', '}', '[', ']', ',', ':', ' ', '\n', 'a', '1', 'true', '"port": 80', '😀', 'é', '"x"', '\n  '];
    // Never cut a surrogate pair in two.
    const snap = (s, i) => (i > 0 && i < s.length && /[\uDC00-\uDFFF]/.test(s[i]) ? i - 1 : i);
    let text = BAD.replace('raw-landing-zone', 'raw-😀-zone');
    await client.openAndSettle(BAD_URI, text);
    let version = 1;
    for (let round = 0; round < 40; round++) {
      const changes = [];
      const n = 1 + rand(3);
      for (let k = 0; k < n; k++) {
        const a = snap(text, rand(text.length + 1));
        const b = snap(text, Math.min(text.length, a + rand(6)));
        const change = {
          range: { start: positionAt(text, a), end: positionAt(text, b) },
          text: rand(3) === 0 ? '' : pieces[rand(pieces.length)],
        };
        text = applyChanges(text, [change]);
        changes.push(change);
      }
      version++;
      await client.change(BAD_URI, version, changes);
      if (round % 10 === 9) await sleep(50);
    }
    const pub = await client.settled(BAD_URI, version);
    assert.equal(pub.version, version);
    for (const d of pub.diagnostics) assertWellFormed(d, text);
    assertMatchesCli(pub.diagnostics, text);
    const pulled = await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri: BAD_URI } });
    assert.deepEqual(summarize(pulled.items), summarize(pub.diagnostics));
  });

  // The server keeps a bulk file's analysis up to date edit by edit (re-parsing the edited
  // value, re-checking its source); after every step its diagnostics, pushed and pulled, must be
  // those of the same text opened afresh, and completion must answer from the edited tree.
  test('a bulk file edited in place: every step agrees with the same text opened afresh', { timeout: 120000 }, async (t) => {
    const client = await startClient(t);
    const names = ['bad-object-storage.source.json', '03-object-storage-a.source.json',
      'bad-peer-cluster.source.json', '12-hive-metastore.source.json', 'bad-no-type.source.json'];
    let text = '[\n' + names.map((n) => example(n)).join(',\n').replace('raw-landing-zone', 'raw-😀-zone') + '\n]\n';
    const uri = tmpUri('bulk.json');
    await client.openAndSettle(uri, text);
    let seed = 0xb01c;
    const rand = (n) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    // Offsets inside string values (between the quotes), where typing keeps the JSON valid.
    const insideStrings = () => {
      const spots = [];
      const re = /: "((?:[^"\\]|\\.)*)"/g;
      for (let m; (m = re.exec(text)) !== null;) spots.push([m.index + 3, m.index + 3 + m[1].length]);
      return spots;
    };
    const typed = ['a', 'Z', '7', ' ', 'é', '😀', ':', '-', '"', '}', ''];
    let version = 1;
    for (let round = 0; round < 50; round++) {
      let change;
      if (rand(5) === 0) { // a line break after a comma: the lines after it move
        const commas = [...text.matchAll(/,\n/g)];
        const at = commas[rand(commas.length)].index + 1;
        const p = positionAt(text, at);
        change = { range: { start: p, end: p }, text: rand(2) ? '\n' : '\r\n  ' };
      } else {
        const spots = insideStrings();
        const [from, to] = spots[rand(spots.length)];
        let a = from + rand(to - from + 1);
        if (a > 0 && /[\uDC00-\uDFFF]/.test(text[a])) a--;
        const piece = typed[rand(typed.length)];
        const b = piece === '' ? Math.min(to, a + 1 + rand(2)) : a;
        change = { range: { start: positionAt(text, a), end: positionAt(text, b) }, text: piece };
      }
      text = applyChanges(text, [change]);
      version++;
      await client.change(uri, version, [change]);
      const pulled = await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri } });
      const fresh = tmpUri('bulk.json');
      await client.open(fresh, text);
      const again = await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri: fresh } });
      client.close(fresh);
      assert.deepEqual(summarize(pulled.items), summarize(again.items), `step ${round}: ${JSON.stringify(change)}`);
      const position = positionAt(text, text.indexOf('"config": {') + 12);
      const items = await client.request(CompletionRequest.method, { textDocument: { uri }, position });
      assert.ok((Array.isArray(items) ? items : items.items).length > 0, `step ${round}: no completion`);
    }
    const pub = await client.settled(uri, version);
    assert.equal(pub.version, version);
    assertMatchesCli(pub.diagnostics, text, 'bulk.json');
  });

  // Keystrokes in a bulk file's first source leave the move of everything after it pending (the
  // nodes, the line starts, the diagnostics: what made an edit near the start cost the whole
  // file); the diagnostics are read through it, and a feature that reads the tree (the outline,
  // hover on the last source) gets it moved first. Each must be what the same text opened afresh
  // gives.
  test('keystrokes near the start of a bulk file: diagnostics, outline and hover as a fresh open',
       {timeout : 60000}, async (t) => {
           const client = await startClient(t);
           const names = [
               'bad-object-storage.source.json', '03-object-storage-a.source.json',
               'bad-peer-cluster.source.json', 'bad-no-type.source.json'
           ];
           let text = '[\n' + names.map((n) => example(n)).join(',\n') + '\n]\n';
           const uri = tmpUri('start.json');
           await client.openAndSettle(uri, text);
           const at = text.indexOf('"name": "') + 9;
           let version = 1;
           const fresh = async (method, params) => {
               const other = tmpUri('start-fresh.json');
               await client.open(other, text);
               const answer =
                   await client.request(method, {...params, textDocument : {uri : other}});
               await client.close(other); // written before the test ends and the server stops
               return answer;
           };
           const comma = text.indexOf(',\n') + 1; // a line break there moves the lines after it
           for (const [step, piece] of ['x', 'y', '', 'é', '\n', '', 'z', '\n'].entries()) {
               const start = positionAt(text, piece === '\n' ? comma : at + step);
               const end = piece === '' ? positionAt(text, at + step + 1) : start;
               const change = {range : {start, end}, text : piece};
               text = applyChanges(text, [ change ]);
               version++;
               await client.change(uri, version, [ change ]);
               const pulled =
                   await client.request(DocumentDiagnosticRequest.method, {textDocument : {uri}});
               const again = await fresh(DocumentDiagnosticRequest.method, {});
               assert.deepEqual(summarize(pulled.items), summarize(again.items), `step ${step}`);
           }
           const symbols =
               await client.request(DocumentSymbolRequest.method, {textDocument : {uri}});
           assert.deepEqual(symbols, await fresh(DocumentSymbolRequest.method, {}));
           const position = positionAt(text, text.lastIndexOf('"type"') + 2);
           const hover =
               await client.request(HoverRequest.method, {textDocument : {uri}, position});
           assert.ok(hover !== null, 'no hover on the last source\'s "type"');
           assert.deepEqual(hover, await fresh(HoverRequest.method, {position}));
       });

  test('typing a whole document character by character, with requests in between', { timeout: 120000 }, async (t) => {
    const client = await startClient(t);
    const target = example('bad-peer-cluster.source.json');
    const uri = tmpUri('typed.source.json');
    let text = '';
    await client.open(uri, text);
    let version = 1;
    for (let i = 0; i < target.length; i++) {
      const at = positionAt(text, text.length);
      text += target[i];
      version++;
      await client.change(uri, version, [{ range: { start: at, end: at }, text: target[i] }]);
      if (i % 23 === 0) {
        const position = positionAt(text, text.length);
        for (const [method, params] of [
          [CompletionRequest.method, { textDocument: { uri }, position }],
          [HoverRequest.method, { textDocument: { uri }, position: positionAt(text, Math.max(0, text.length - 2)) }],
          [DocumentSymbolRequest.method, { textDocument: { uri } }],
        ]) {
          try {
            await client.request(method, params);
          } catch (err) {
            if (!(err instanceof ResponseError)) throw err;
          }
        }
      }
    }
    assert.equal(text, target);
    const pub = await client.settled(uri, version);
    assert.equal(pub.version, version);
    assertMatchesCli(pub.diagnostics, target, 'typed.source.json');
  });
});

describe('position encodings', () => {
  // The emoji is two UTF-16 code units and four UTF-8 bytes; the error follows it on its line.
  const EMOJI = '{"name": "😀", "type": "CLOUDA_OBJECT_STORAGE", "config": {"acessKey": "x"}}\n';
  const keyAt = EMOJI.indexOf('"acessKey"');

  test('utf-16 (default): characters are UTF-16 code units', T, async (t) => {
    const client = await startClient(t);
    assert.equal(client.encoding, 'utf-16');
    const pub = await client.openAndSettle(BAD_URI, EMOJI);
    const [d] = byCode(pub.diagnostics, 'unknown-field');
    assert.ok(d, JSON.stringify(pub.diagnostics));
    assert.deepEqual(d.range, {
      start: { line: 0, character: keyAt },
      end: { line: 0, character: keyAt + '"acessKey"'.length },
    });
    assertMatchesCli(pub.diagnostics, EMOJI);
  });

  test('utf-8 (negotiated): characters are bytes', T, async (t) => {
    const client = await startClient(t, { encodings: ['utf-8', 'utf-16'] });
    assert.equal(client.encoding, 'utf-8');
    const pub = await client.openAndSettle(BAD_URI, EMOJI);
    const [d] = byCode(pub.diagnostics, 'unknown-field');
    assert.ok(d, JSON.stringify(pub.diagnostics));
    const bytesBefore = Buffer.byteLength(EMOJI.slice(0, keyAt), 'utf8');
    assert.equal(bytesBefore, keyAt + 2);
    assert.deepEqual(d.range, {
      start: { line: 0, character: bytesBefore },
      end: { line: 0, character: bytesBefore + '"acessKey"'.length },
    });
    // Every diagnostic, converted back to UTF-16, is where --check puts it.
    assertMatchesCli(toUtf16(pub.diagnostics, EMOJI), EMOJI);
  });

  for (const encoding of ['utf-16', 'utf-8']) {
    test(`range edits after a non-BMP character are read in ${encoding}`, T, async (t) => {
      const client = await startClient(t, { encodings: encoding === 'utf-8' ? ['utf-8'] : ['utf-16'] });
      assert.equal(client.encoding, encoding);
      await client.openAndSettle(BAD_URI, EMOJI);
      // Insert "c" after "ac" of "acessKey": right only if the column is read in the
      // negotiated encoding (it is 2 more in utf-8 than in utf-16).
      const at = positionOf(EMOJI, 'acessKey', { delta: 2, encoding });
      await client.change(BAD_URI, 2, [{ range: { start: at, end: at }, text: 'c' }]);
      const pub = await client.settled(BAD_URI, 2);
      const expected = EMOJI.replace('acessKey', 'accessKey');
      assert.equal(byCode(pub.diagnostics, 'unknown-field').length, 0, JSON.stringify(pub.diagnostics));
      const asUtf16 = (ds, text) => (encoding === 'utf-8' ? toUtf16(ds, text) : ds);
      assertMatchesCli(asUtf16(pub.diagnostics, expected), expected);
      // Then replace the emoji itself (a range that spans it) with plain text.
      const emojiRange = rangeOf(expected, '😀', { encoding });
      await client.change(BAD_URI, 3, [{ range: emojiRange, text: 'ok' }]);
      const pub3 = await client.settled(BAD_URI, 3);
      assertMatchesCli(asUtf16(pub3.diagnostics, expected.replace('😀', 'ok')), expected.replace('😀', 'ok'));
    });
  }
});

describe('didClose and pull diagnostics', () => {
  test('didClose publishes an empty array for the uri', T, async (t) => {
    const client = await startClient(t);
    const first = await client.openAndSettle(BAD_URI, BAD);
    assert.ok(first.diagnostics.length > 0);
    await client.close(BAD_URI);
    const cleared = await client.waitForPublish(BAD_URI, (p) => p.diagnostics.length === 0);
    assert.deepEqual(cleared.diagnostics, []);
    await sleep(600);
    assert.deepEqual(client.lastPublish(BAD_URI).diagnostics, [], 'nothing published after the clearing');
  });

  test('didClose right after a change (debounce pending) still ends with an empty array', T, async (t) => {
    const client = await startClient(t);
    await client.openAndSettle(BAD_URI, BAD);
    await client.change(BAD_URI, 2, [{ text: BAD.replace('ORC', 'AVRO') }]);
    await client.close(BAD_URI);
    await client.waitForPublish(BAD_URI, (p) => p.diagnostics.length === 0);
    await sleep(800);
    assert.deepEqual(client.lastPublish(BAD_URI).diagnostics, []);
  });

  test('a new empty document gets one hint, not an error', T, async (t) => {
    const client = await startClient(t);
    const uri = tmpUri('new.source.json');
    const pub = await client.openAndSettle(uri, '\n');
    assert.equal(pub.diagnostics.length, 1);
    assert.equal(pub.diagnostics[0].severity, DiagnosticSeverity.Hint);
    assert.equal(pub.diagnostics[0].code, 'json-syntax');
    await client.change(uri, 2, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '{' }]);
    const typed = await client.settled(uri, 2);
    assert.ok(typed.diagnostics.some((d) => d.code === 'json-syntax' && d.severity === DiagnosticSeverity.Error));
  });

  // --check makes an empty *.source.json or *.job.json an error (a failed export); the editor
  // does not: a new document, empty or whitespace only, pushed or pulled, is a hint.
  test('an empty or whitespace-only document stays a hint in the editor, pushed and pulled', T, async (t) => {
    const client = await startClient(t);
    for (const [name, text] of [['empty.source.json', ''], ['blank.job.json', ' \n\t\n']]) {
      const uri = tmpUri(name);
      const pub = await client.openAndSettle(uri, text);
      const report = await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri } });
      for (const ds of [pub.diagnostics, report.items]) {
        assert.equal(ds.length, 1, `${name}: ${JSON.stringify(ds)}`);
        assert.equal(ds[0].severity, DiagnosticSeverity.Hint, name);
        assert.equal(ds[0].code, 'json-syntax');
        assert.match(ds[0].message, /^the document is empty: start a source or a job with/);
      }
    }
  });

  test('reopening a closed document publishes again', T, async (t) => {
    const client = await startClient(t);
    await client.openAndSettle(BAD_URI, BAD);
    await client.close(BAD_URI);
    await client.waitForPublish(BAD_URI, (p) => p.diagnostics.length === 0);
    await client.open(BAD_URI, BAD, 5);
    const pub = await client.settled(BAD_URI, 5);
    assertMatchesCli(pub.diagnostics, BAD);
  });

  test('textDocument/diagnostic returns a full report with the pushed diagnostics', T, async (t) => {
    const client = await startClient(t);
    const pushed = await client.openAndSettle(BAD_URI, BAD);
    const report = await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri: BAD_URI } });
    assert.equal(report.kind, DocumentDiagnosticReportKind.Full);
    assert.ok(Array.isArray(report.items));
    for (const d of report.items) assertWellFormed(d, BAD);
    assert.deepEqual(summarize(report.items), summarize(pushed.diagnostics));
    const msg = (ds) => ds.map((d) => `${d.code} ${d.data.pointer} ${d.message}`).sort();
    assert.deepEqual(msg(report.items), msg(pushed.diagnostics));
    assert.ok(!JSON.stringify(report).includes(SECRET));
  });

  test('textDocument/diagnostic right after a change reflects the new text', T, async (t) => {
    const client = await startClient(t);
    await client.openAndSettle(BAD_URI, BAD);
    const changes = [{ range: rangeOf(BAD, 'acessKey'), text: 'accessKey' }];
    await client.change(BAD_URI, 2, changes);
    const report = await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri: BAD_URI } });
    assert.equal(report.kind, DocumentDiagnosticReportKind.Full);
    assertMatchesCli(report.items, applyChanges(BAD, changes));
  });
});

describe('a client that pulls diagnostics', () => {
  // It declares textDocument.diagnostic: the server pushes nothing (a client that also kept
  // pushed diagnostics would show each twice), answers every pull, and asks for a new pull
  // (workspace/diagnostic/refresh) when the settings change, if the client takes that request.
  test('gets no publishDiagnostics, and pulls what the text says after every edit', T, async (t) => {
    const client = await startClient(t, { pull: true });
    await client.open(BAD_URI, BAD);
    const first = await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri: BAD_URI } });
    assertMatchesCli(first.items, BAD);
    const changes = [{ range: rangeOf(BAD, 'acessKey'), text: 'accessKey' }];
    await client.change(BAD_URI, 2, changes);
    const after = await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri: BAD_URI } });
    assertMatchesCli(after.items, applyChanges(BAD, changes));
    await client.close(BAD_URI);
    await sleep(300);
    assert.equal(client.publishes.size, 0, 'a publishDiagnostics reached a client that pulls');
  });

  test('a settings change sends workspace/diagnostic/refresh, and the next pull has the new severities', T, async (t) => {
    const client = await startClient(t, { pull: true, refresh: true });
    await client.open(BAD_URI, BAD);
    await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri: BAD_URI } });
    client.notify('workspace/didChangeConfiguration', { settings: { srcls: { rules: { 'unknown-field': 'off' } } } });
    const deadline = Date.now() + 5000;
    while (!client.serverRequests.some((r) => r.method === 'workspace/diagnostic/refresh')) {
      assert.ok(Date.now() < deadline, 'no workspace/diagnostic/refresh after a settings change');
      await sleep(20);
    }
    const report = await client.request(DocumentDiagnosticRequest.method, { textDocument: { uri: BAD_URI } });
    assert.equal(byCode(report.items, 'unknown-field').length, 0);
    assert.ok(report.items.length > 0);
    assert.equal(client.publishes.size, 0);
  });
});

describe('result ids, unchanged publishes and srcls.maxDiagnostics', () => {
  const pull = (client, uri, previousResultId) => client.request(DocumentDiagnosticRequest.method,
    { textDocument: { uri }, ...(previousResultId === undefined ? {} : { previousResultId }) });
  const configure = (client, srcls) => client.notify('workspace/didChangeConfiguration', { settings: { srcls } });
  // A search service with 30 unknown keys, extra00 to extra29, after its known ones.
  const MANY_URI = 'file:///tmp/many.source.json';
  const MANY = (() => {
    const doc = JSON.parse(example('01-search-service.source.json'));
    for (let i = 0; i < 30; i++) doc.config[`extra${String(i).padStart(2, '0')}`] = i;
    return JSON.stringify(doc, null, 2);
  })();
  const extras = (n) => Array.from({ length: n }, (_, i) => `/config/extra${String(i).padStart(2, '0')}`);
  const cutLogs = (client) => client.notifications.filter((m) => m.method === 'window/logMessage' &&
    m.params.message.includes('diagnostics left out')).map((m) => m.params);

  test('a full report carries a resultId; the same id again gets unchanged; an edit or a settings change a new full report', T, async (t) => {
    const client = await startClient(t);
    await client.openAndSettle(BAD_URI, BAD);
    const first = await pull(client, BAD_URI);
    assert.equal(first.kind, DocumentDiagnosticReportKind.Full);
    assert.equal(typeof first.resultId, 'string');
    assert.ok(first.resultId.length > 0);
    assertMatchesCli(first.items, BAD);
    assert.deepEqual(await pull(client, BAD_URI, first.resultId),
      { kind: DocumentDiagnosticReportKind.Unchanged, resultId: first.resultId });
    const other = await pull(client, BAD_URI, 'not-an-id');
    assert.equal(other.kind, DocumentDiagnosticReportKind.Full);
    assert.equal(other.resultId, first.resultId);

    const changes = [{ range: rangeOf(BAD, 'acessKey'), text: 'accessKey' }];
    await client.change(BAD_URI, 2, changes);
    const edited = await pull(client, BAD_URI, first.resultId);
    assert.equal(edited.kind, DocumentDiagnosticReportKind.Full);
    assert.notEqual(edited.resultId, first.resultId);
    assertMatchesCli(edited.items, applyChanges(BAD, changes));
    assert.deepEqual(await pull(client, BAD_URI, edited.resultId),
      { kind: DocumentDiagnosticReportKind.Unchanged, resultId: edited.resultId });

    await configure(client, { rules: { 'unknown-field': 'error' } });
    const configured = await pull(client, BAD_URI, edited.resultId);
    assert.equal(configured.kind, DocumentDiagnosticReportKind.Full);
    assert.notEqual(configured.resultId, edited.resultId);
    assert.deepEqual(await pull(client, BAD_URI, configured.resultId),
      { kind: DocumentDiagnosticReportKind.Unchanged, resultId: configured.resultId });
  });

  test('a settings change that changes no diagnostic publishes nothing; one that does publishes', T, async (t) => {
    const client = await startClient(t);
    const pushed = await client.openAndSettle(BAD_URI, BAD);
    const count = client.publishesFor(BAD_URI).length;
    await configure(client, {});
    await configure(client, { rules: {} });
    await pull(client, BAD_URI);
    await sleep(300);
    assert.equal(client.publishesFor(BAD_URI).length, count, 'an unchanged publish was sent again');
    await configure(client, { rules: { 'unknown-field': 'error' } });
    const pub = await client.waitForPublish(BAD_URI, () => true, { from: count });
    assert.equal(pub.version, 1);
    assert.deepEqual(byCode(pub.diagnostics, 'unknown-field').map((d) => d.severity), [DiagnosticSeverity.Error]);
    assert.equal(pub.diagnostics.length, pushed.diagnostics.length);
  });

  test('a srcls.json-only key in the editor\'s settings (include, baseline) is said to do nothing', T, async (t) => {
    const client = await startClient(t, {
      initializationOptions: { srcls: { include: ['*.json'], baseline: 'b.json', rules: {} } },
    });
    await client.openAndSettle(BAD_URI, BAD);
    const warnings = client.notifications
      .filter((m) => m.method === 'window/logMessage' && m.params.type === 2)
      .map((m) => m.params.message);
    assert.deepEqual(warnings.filter((w) => /is read from srcls.json only/.test(w)).map((w) => w.split('"')[1]),
      ['include', 'baseline']);
    assert.ok(warnings.every((w) => !/unknown setting/.test(w)), warnings.join('\n'));
  });

  test('maxDiagnostics 10 publishes and pulls the first 10 in document order, and logs the rest once', T, async (t) => {
    const client = await startClient(t, { initializationOptions: { srcls: { maxDiagnostics: 10 } } });
    const pub = await client.openAndSettle(MANY_URI, MANY);
    assert.deepEqual(pub.diagnostics.map((d) => d.data.pointer), extras(10));
    assert.ok(pub.diagnostics.every((d) => d.code === 'unknown-field'));
    const report = await pull(client, MANY_URI);
    assert.deepEqual(report.items, pub.diagnostics);
    assert.deepEqual(cutLogs(client), [{
      type: 3,
      message: `srcls: ${MANY_URI} (version 1): 20 of 30 diagnostics left out (srcls.maxDiagnostics is 10)`,
    }]);
    assert.ok(!client.notifications.some((m) => m.method === 'window/logMessage' && m.params.type <= 2),
      'maxDiagnostics is not an unknown setting');

    await client.change(MANY_URI, 2, [{ text: MANY }]);
    const again = await client.settled(MANY_URI, 2);
    assert.equal(again.diagnostics.length, 10);
    assert.equal(cutLogs(client).length, 2);
    assert.match(cutLogs(client)[1].message, /\(version 2\): 20 of 30 diagnostics left out/);

    await configure(client, { maxDiagnostics: 0 });
    const all = await client.waitForPublish(MANY_URI, (p) => p.diagnostics.length === 30);
    assert.deepEqual(all.diagnostics.map((d) => d.data.pointer), extras(30));
    assert.equal((await pull(client, MANY_URI)).items.length, 30);
    await configure(client, { maxDiagnostics: 5 });
    const five = await client.waitForPublish(MANY_URI, (p) => p.diagnostics.length === 5);
    assert.deepEqual(five.diagnostics.map((d) => d.data.pointer), extras(5));
    assert.equal(cutLogs(client).length, 3);
  });

  test('maxDiagnostics: 1000 by default; a value that is not a count is reported and the default used', T, async (t) => {
    const client = await startClient(t, { initializationOptions: { srcls: { maxDiagnostics: -1 } } });
    const pub = await client.openAndSettle(MANY_URI, MANY);
    assert.equal(pub.diagnostics.length, 30);
    assert.deepEqual(cutLogs(client), []);
    const warnings = client.notifications.filter((m) => m.method === 'window/logMessage' && m.params.type === 2);
    assert.deepEqual(warnings.map((m) => m.params.message),
      ['srcls settings: maxDiagnostics must be a whole number, 0 for no limit (the default, 1000, is used)']);
  });
});

describe('half-typed documents', () => {
  const HALF = '{"type": "CLOUDA_OBJECT_STORAGE", "config": {"acc';

  test('json-syntax diagnostics are published and every request is answered', T, async (t) => {
    const client = await startClient(t);
    const pub = await client.openAndSettle(BAD_URI, HALF);
    assert.ok(byCode(pub.diagnostics, 'json-syntax').length >= 1, JSON.stringify(pub.diagnostics));
    for (const d of pub.diagnostics) assertWellFormed(d, HALF);
    const end = { line: 0, character: HALF.length };
    const mid = { line: 0, character: 12 };
    const uri = { uri: BAD_URI };
    for (const [method, params] of [
      [CompletionRequest.method, { textDocument: uri, position: end }],
      [CompletionRequest.method, { textDocument: uri, position: mid }],
      [HoverRequest.method, { textDocument: uri, position: end }],
      [HoverRequest.method, { textDocument: uri, position: mid }],
      [DocumentSymbolRequest.method, { textDocument: uri }],
      [DocumentFormattingRequest.method, { textDocument: uri, options: { tabSize: 2, insertSpaces: true } }],
      [CodeActionRequest.method, { textDocument: uri, range: { start: mid, end }, context: { diagnostics: pub.diagnostics } }],
      [DocumentDiagnosticRequest.method, { textDocument: uri }],
    ]) {
      try {
        await client.request(method, params);
      } catch (err) {
        if (!(err instanceof ResponseError)) throw new Error(`${method}: ${err.message}`);
      }
    }
    await client.ping();
  });

  test('every prefix of a document: no crash, json-syntax until it is complete', { timeout: 60000 }, async (t) => {
    const client = await startClient(t);
    const full = example('bad-object-storage.source.json');
    let version = 0;
    const last = full.trimEnd().length; // the closing brace ends the JSON text
    const cuts = [0, 1, 2, 5, 10, 20, 33, 50, 64, 80, 100, 130, 160, 200, last - 3, last - 1];
    for (const cut of cuts) {
      const text = full.slice(0, cut);
      const uri = tmpUri(`prefix${cut}.source.json`);
      version++;
      await client.open(uri, text, version);
      const pub = await client.settled(uri, version, { quiet: 150 });
      if (cut > 0) {
        assert.ok(byCode(pub.diagnostics, 'json-syntax').length >= 1, `prefix ${cut}: ${JSON.stringify(pub.diagnostics)}`);
        assertMatchesCli(pub.diagnostics, text, `prefix${cut}.source.json`);
      } else { // empty: a hint while one starts typing; --check makes an empty file an error
        assert.deepEqual(summarize(pub.diagnostics), ['0:0-0:0 4 json-syntax ']);
        assert.deepEqual(summarize(cliDiagnostics(text, 'prefix0.source.json')), ['0:0-0:0 1 json-syntax ']);
      }
    }
  });
});
