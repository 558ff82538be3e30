'use strict';
// `srcls --export-json-schema`: the exported schemas compile under ajv (draft 2020-12, strict,
// with ajv-formats), and ajv's verdict on every example document, every rule case of
// tests/rules and every source or job among the optional test data ($SRCLS_TESTDATA, when set and
// there; the build points it at a testdata folder beside the clone) is
// compared with srcls's own (`srcls --check --format json`). A document srcls finds without
// error must be valid for ajv, and one with an error of a code the export expresses invalid;
// every other difference must fall in one of the classes docs/json-schema.md lists, or the
// test fails. SRCLS_EXPORT_REPORT=1 prints the counts that docs/json-schema.md quotes.
const { test } = require('node:test');
const assert = require('node:assert');
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const Ajv2020 = require('ajv-2020/dist/2020').default;
const addFormats = require('ajv-formats');

const binary = process.env.SRCLS_BINARY && path.resolve(process.env.SRCLS_BINARY);
const root = process.env.SRCLS_SOURCE_ROOT || path.join(__dirname, '..', '..');

// Codes whose rule the export states as a constraint.
const EXPRESSED = new Set([
  'missing-required', 'conditional-required', 'type-mismatch', 'invalid-enum', 'out-of-range',
  'invalid-format', 'secret-not-encoded', 'secret-needs-base64', 'invalid-base64',
  'not-applicable', 'unknown-field', 'job-inconsistent',
]);

// A sanitizer build says what it found on stderr (the CI runs this suite under ASan + UBSan).
function assertNoSanitizerReport(stderr) {
  assert.doesNotMatch(stderr.toString(), /Sanitizer|runtime error/, 'a sanitizer report');
}

// An ajv for the exported files: strict, with ajv-formats' uuid, and srcls's one annotation
// keyword (kind-file.schema.json's "x-srcls-complete": what completion offers for a value).
function newAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
  addFormats(ajv, ['uuid']);
  ajv.addKeyword({ keyword: 'x-srcls-complete', schemaType: 'string' });
  return ajv;
}

function exportSchemas(dir, cwd) {
  const run = spawnSync(binary, ['--export-json-schema', dir], { cwd });
  assertNoSanitizerReport(run.stderr);
  assert.strictEqual(run.status, 0, run.stderr.toString());
  const ajv = newAjv();
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.schema.json'));
  // each file's $id is its own name: the relative $refs between them resolve by it
  for (const f of files) {
    const schema = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    assert.strictEqual(schema.$id, f);
    ajv.addSchema(schema);
  }
  const validator = (name) => ajv.getSchema(name);
  return { ajv, files, validator };
}

// Every document to compare: { label, file } with the file on disk.
function collectDocuments(work) {
  const docs = [];
  const examples = path.join(root, 'docs', 'examples');
  for (const f of fs.readdirSync(examples).sort()) {
    if (f.endsWith('.json')) docs.push({ label: `docs/examples/${f}`, file: path.join(examples, f) });
  }
  const rules = path.join(root, 'tests', 'rules');
  for (const f of fs.readdirSync(rules).sort()) {
    if (!f.endsWith('.cases.json')) continue;
    JSON.parse(fs.readFileSync(path.join(rules, f), 'utf8')).forEach((c, i) => {
      const file = path.join(work, `${f.replace('.cases.json', '')}-${i}.json`);
      fs.writeFileSync(file, JSON.stringify(c.document, null, 2));
      docs.push({ label: `tests/rules/${f} #${i} (${c.name})`, file });
    });
  }
  const shared = process.env.SRCLS_TESTDATA || path.join(root, '..', 'shared', 'testdata');
  let sharedNote = `${shared} is absent: its documents were not compared`;
  if (fs.existsSync(shared)) {
    let count = 0;
    const walk = (dir) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(p);
        else if (entry.isFile() && entry.name.endsWith('.json')) {
          docs.push({ label: path.relative(path.join(root, '..'), p), file: p, shared: true });
          count++;
        }
      }
    };
    walk(shared);
    sharedNote = `${count} files from ${shared}`;
  }
  return { docs, sharedNote };
}

function srclsVerdicts(docs) {
  // exit status 1 (errors) and 2 (an unreadable file) still write the whole report
  const run = spawnSync(binary, ['--check', '--format', 'json', '--jobs', '4',
    '--no-respect-gitignore', ...docs.map((d) => d.file)], { maxBuffer: 1 << 28 });
  assert.ok(run.status === 0 || run.status === 1 || run.status === 2, run.stderr.toString());
  assertNoSanitizerReport(run.stderr);
  const out = run.stdout.toString();
  const byPath = new Map(JSON.parse(out).files.map((f) => [f.path, f]));
  return docs.map((d) => byPath.get(d.file));
}

// Where an ajv error points, as an RFC 6901 pointer: the member a "required" or
// "additionalProperties" error names, else the value it is about.
function ajvPointer(error) {
  const escape = (k) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  if (error.keyword === 'required') return `${error.instancePath}/${escape(error.params.missingProperty)}`;
  if (error.keyword === 'additionalProperties') return `${error.instancePath}/${escape(error.params.additionalProperty)}`;
  return error.instancePath;
}

// Whether two pointers are the same place, or one is inside the other.
function related(p, q) {
  return p === q || q.startsWith(`${p}/`) || p.startsWith(`${q}/`);
}

// Whether each error srcls reports (of a code the export expresses) is at, inside or around
// the place of an error ajv reports.
function samePlaces(result, errors) {
  const places = errors.map(ajvPointer);
  return result.diagnostics.filter((d) => d.severity === 'error' && EXPRESSED.has(d.code))
    .every((d) => places.some((p) => related(p, d.pointer)));
}

// `value` without the object members that RFC 6901 `pointers` name.
function withoutMembers(value, pointers) {
  const copy = JSON.parse(JSON.stringify(value));
  for (const pointer of pointers) {
    const keys = pointer.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    let at = copy;
    for (const key of keys.slice(0, -1)) at = at !== null && typeof at === 'object' ? at[key] : undefined;
    if (at !== null && typeof at === 'object' && !Array.isArray(at)) delete at[keys[keys.length - 1]];
  }
  return copy;
}

// Why srcls and ajv disagree on a document, or null when the difference is not one of the
// classes docs/json-schema.md explains. A document srcls finds clean that ajv refuses must
// become valid once the members srcls warns about are taken out, or have all of ajv's errors
// at, inside or around the places of those warnings: then the warnings were the cause.
function classify(result, ajvValid, srclsValid, value, validate) {
  const diags = result.diagnostics || [];
  const codes = new Set(diags.map((d) => d.code));
  if (srclsValid && !ajvValid) {
    if (value.type === undefined && diags.some((d) => d.code === 'unknown-kind')) {
      return 'an unknown-kind warning: a source without "type" that fits no kind, which the ' +
        'schema refuses (srcls warns and checks nothing more)';
    }
    // rules srcls reports below error (warnings by default) are constraints in the schema
    const below = diags.filter((d) => d.severity !== 'error' && EXPRESSED.has(d.code));
    const errors = validate.errors;
    const cause = below.length > 0 &&
      (errors.every((e) => below.some((d) => related(ajvPointer(e), d.pointer))) ||
        validate(withoutMembers(value, below.map((d) => d.pointer))));
    if (!cause) return null;
    return `a ${[...new Set(below.map((d) => d.code))].sort().join(', ')} ` +
      'warning: srcls warns, JSON Schema has no severities';
  }
  const errors = diags.filter((d) => d.severity === 'error');
  const unsaid = errors.filter((d) => !EXPRESSED.has(d.code) ||
    (d.code === 'type-mismatch' && /a number with a fraction or exponent/.test(d.message)));
  if (unsaid.length !== errors.length) return null;
  if (codes.has('unknown-kind')) return 'unknown-kind: a type that names no kind and a config that identifies none';
  if (codes.has('duplicate-key')) return 'duplicate-key: JSON Schema sees the parsed value';
  if (codes.has('duplicate-name')) {
    return 'duplicate-name: two sources of a bulk file with one name (uniqueItems compares whole elements, not one member of each)';
  }
  if (unsaid.some((d) => d.code === 'type-mismatch')) {
    return 'type-mismatch on 1.0 for an integer: JSON Schema sees a number\'s value, not how it is written';
  }
  return null;
}

test('the export compiles under ajv (draft 2020-12, strict) and is compared with srcls', () => {
  if (!binary) {
    process.stderr.write('SRCLS_BINARY is not set: run through meson test\n');
    process.exit(77);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-export-'));
  try {
    const { files, validator } = exportSchemas(path.join(work, 'schemas'));
    assert.ok(files.includes('job.schema.json') && files.includes('bulk.schema.json') &&
      files.includes('source.schema.json'), files.join(' '));
    const index = JSON.parse(fs.readFileSync(path.join(work, 'schemas', 'index.json'), 'utf8'));
    for (const [type, file] of Object.entries(index.types)) {
      assert.strictEqual(file, `${type}.schema.json`);
      assert.ok(validator(file), `${file} compiles`);
    }
    const { docs, sharedNote } = collectDocuments(work);
    const results = srclsVerdicts(docs);
    const counts = { compared: 0, agree: 0, bothValid: 0, bothInvalid: 0, skipped: {} };
    const classes = new Map();
    const unexplained = [];
    const skip = (why) => { counts.skipped[why] = (counts.skipped[why] || 0) + 1; };
    docs.forEach((doc, i) => {
      const result = results[i];
      assert.ok(result, `srcls reported ${doc.file}`);
      if (result.error) return skip('unreadable');
      const schema = { source: 'source.schema.json', bulk: 'bulk.schema.json', job: 'job.schema.json' }[result.document];
      if (!schema) return skip(`not a source or job (${result.document})`);
      let value;
      try {
        value = JSON.parse(fs.readFileSync(doc.file, 'utf8'));
      } catch {
        return skip('not JSON (json-syntax)');
      }
      const validate = validator(schema);
      const ajvValid = validate(value);
      const srclsValid = !result.diagnostics.some((d) => d.severity === 'error');
      counts.compared++;
      if (ajvValid === srclsValid) {
        counts.agree++;
        counts[ajvValid ? 'bothValid' : 'bothInvalid']++;
        if (!ajvValid && !samePlaces(result, validate.errors)) {
          unexplained.push(`${doc.label}: srcls and ajv find errors in different places: srcls ` +
            `[${result.diagnostics.map((d) => `${d.severity} ${d.code} ${d.pointer}`).join('; ')}], ` +
            `ajv ${JSON.stringify(validate.errors.map(ajvPointer))}`);
        }
        return;
      }
      const errors = validate.errors;
      const why = classify(result, ajvValid, srclsValid, value, validate);
      if (why === null) {
        unexplained.push(`${doc.label}: srcls ${srclsValid ? 'clean' : 'errors'} ` +
          `[${result.diagnostics.map((d) => `${d.severity} ${d.code} ${d.pointer}`).join('; ')}], ` +
          `ajv ${ajvValid ? 'valid' : 'invalid: ' + JSON.stringify(errors.slice(0, 3))}`);
        return;
      }
      classes.set(why, (classes.get(why) || 0) + 1);
    });
    const report = [`documents: ${docs.length} (${sharedNote})`,
      `compared: ${counts.compared}, agree: ${counts.agree} (${counts.bothValid} valid for both, ` +
        `${counts.bothInvalid} invalid for both)`,
      ...[...classes].map(([why, n]) => `differ: ${n}: ${why}`),
      ...Object.entries(counts.skipped).map(([why, n]) => `not compared: ${n}: ${why}`)].join('\n');
    if (process.env.SRCLS_EXPORT_REPORT) process.stdout.write(`${report}\n`);
    assert.deepStrictEqual(unexplained, [], `${report}\nunexplained differences:\n${unexplained.join('\n')}`);
    assert.ok(counts.compared > 1000, report);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

test('a project\'s own kinds (srcls.json "schemas") are exported, and ajv agrees with srcls on their examples', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-export-'));
  const team = path.join(root, 'docs', 'examples', 'team-kinds');
  try {
    // run where that srcls.json governs, as a team would
    const { validator } = exportSchemas(path.join(work, 'schemas'), team);
    const index = JSON.parse(fs.readFileSync(path.join(work, 'schemas', 'index.json'), 'utf8'));
    assert.strictEqual(index.types.MESSAGE_QUEUE, 'MESSAGE_QUEUE.schema.json');
    const storage = JSON.parse(fs.readFileSync(path.join(work, 'schemas', 'CLOUDC_OBJECT_STORAGE.schema.json'), 'utf8'));
    assert.ok(JSON.stringify(storage).includes('costCenter'), 'kind 10 as the team made it');
    const docs = fs.readdirSync(team).filter((f) => f.endsWith('.source.json')).sort()
      .map((f) => ({ file: path.join(team, f) }));
    assert.deepStrictEqual(docs.map((d) => path.basename(d.file)),
      ['bad-lake.source.json', 'bad-queue.source.json', 'orders.source.json']);
    const results = srclsVerdicts(docs);
    docs.forEach((doc, i) => {
      const value = JSON.parse(fs.readFileSync(doc.file, 'utf8'));
      const srclsValid = !results[i].diagnostics.some((d) => d.severity === 'error');
      const validate = validator('source.schema.json');
      assert.strictEqual(validate(value), srclsValid, `${doc.file}: ${JSON.stringify(validate.errors)}`);
      assert.strictEqual(srclsValid, path.basename(doc.file) === 'orders.source.json');
      if (!srclsValid) assert.ok(samePlaces(results[i], validate.errors), doc.file);
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

test('a templating project (srcls.json "placeholders") exports schemas that accept its placeholders where srcls does', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-export-'));
  try {
    fs.writeFileSync(path.join(work, 'srcls.json'), '{"placeholders": ["${NAME}", "{{ NAME }}"]}');
    const { validator } = exportSchemas(path.join(work, 'schemas'), work);
    const kind = JSON.parse(fs.readFileSync(path.join(work, 'schemas', 'CLOUDA_OBJECT_STORAGE.schema.json'), 'utf8'));
    assert.match(kind.$comment, /Templated values \(srcls.json "placeholders"\)/);
    const base = JSON.parse(fs.readFileSync(path.join(root, 'docs', 'examples', '03-object-storage-a.source.json'), 'utf8'));
    const templated = (config) => ({ ...base, config: { ...base.config, ...config } });
    const docs = [
      [templated({ accessSecret: '${DB_SECRET}', credentialType: '{{CRED_TYPE}}', rootPath: '/data/${ENV}' }), true],
      [templated({ credentialType: '{{ CRED_TYPE }}' }), true],
      [templated({ credentialType: 'ACCESS_KEYS' }), false], // not a placeholder: still the enum
      [templated({ credentialType: '$CRED_TYPE' }), false], // a syntax the project does not use
      [templated({ accessSecret: 'Sup3rS3cret' }), false],
      [templated({ maxCacheSpacePct: '${CACHE_PCT}' }), false], // an integer field: a string still
    ];
    const validate = validator('source.schema.json');
    for (const [doc, valid] of docs) {
      const file = path.join(work, 'doc.source.json');
      fs.writeFileSync(file, JSON.stringify(doc));
      const srcls = srclsVerdicts([{ file }])[0].diagnostics.some((d) => d.severity === 'error');
      assert.strictEqual(validate(doc), valid, JSON.stringify(doc.config) + JSON.stringify(validate.errors));
      assert.strictEqual(!srcls, valid, 'srcls agrees: ' + JSON.stringify(doc.config));
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

test('the kind-file format\'s JSON Schema accepts every kind and group file srcls loads, and not their mistakes', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-export-'));
  try {
    const { validator } = exportSchemas(path.join(work, 'schemas'));
    const validate = validator('kind-file.schema.json');
    const files = [];
    for (const dir of ['schema/kinds', 'schema/groups', 'docs/examples/team-kinds/kinds']) {
      for (const f of fs.readdirSync(path.join(root, dir)).sort()) files.push(path.join(root, dir, f));
    }
    assert.ok(files.length >= 34, files.length);
    for (const f of files) {
      assert.ok(validate(JSON.parse(fs.readFileSync(f, 'utf8'))), `${f}: ${JSON.stringify(validate.errors)}`);
    }
    // mistakes the loader refuses that JSON Schema can say too
    const mistakes = [
      { title: 'T', types: ['T'], fields: { port: { type: 'int' } } },
      { title: 'T', types: ['T'], fields: { port: { type: 'integer', minimun: 1 } } },
      { title: 'T', types: [] },
      { title: 'T', types: ['T'], colour: 'blue' },
      { group: 'G', fields: {}, types: ['T'] },
      { title: 'T', types: ['T'], fields: { a: { type: 'string', required: { field: 'b', equals: 1 } } } },
      { title: 'T', types: ['T'], fields: { a: { type: 'string', format: 'ipv4' } } },
    ];
    for (const m of mistakes) assert.strictEqual(validate(m), false, JSON.stringify(m));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

// What JSON Schema cannot say, one document each, as docs/json-schema.md lists it: the verdict
// of srcls (clean: no error) and of ajv on each.
const KNOWN = [
  { why: 'an integer written with a fraction', srcls: false, ajv: true,
    text: '{"type": "CLOUDA_OBJECT_STORAGE", "config": {"maxCacheSpacePct": 50.0}}' },
  { why: 'a duplicate key', srcls: false, ajv: true,
    text: '{"type": "NETWORK_ATTACHED_STORAGE", "config": {"path": "/a", "path": "/b"}}' },
  { why: 'two sources of a bulk file named alike but for case', srcls: false, ajv: true,
    text: '[{"name": "lake", "type": "NETWORK_ATTACHED_STORAGE", "config": {"path": "/a"}}, ' +
      '{"name": "Lake", "type": "NETWORK_ATTACHED_STORAGE", "config": {"path": "/b"}}]' },
  { why: 'a type that names no kind, the kind inferred from config', srcls: false, ajv: true,
    text: '{"type": "MY_NAS", "config": {"path": 1}}' },
  { why: 'a type that names no kind, config keys that identify none', srcls: false, ajv: true,
    text: '{"type": "NO_SUCH_KIND", "config": {"zzz": 1}}' },
  { why: 'a near miss in an open object (a warning)', srcls: true, ajv: true,
    text: '{"nmae": "x", "type": "NETWORK_ATTACHED_STORAGE", "config": {"path": "/a"}}' },
  { why: 'endedAt before startedAt (a warning)', srcls: true, ajv: true,
    text: '{"jobState": "COMPLETED", "rowCount": 1, "startedAt": "2024-05-01T12:30:00.000Z", ' +
      '"endedAt": "2024-05-01T12:00:00.000Z"}' },
  { why: 'a plaintext secret', srcls: false, ajv: false,
    text: '{"type": "PEER_CLUSTER", "config": {"hostType": "DIRECT", "hostname": "h", ' +
      '"port": "31010", "username": "u", "password": "hunter2"}}' },
];

test('the differences docs/json-schema.md lists without a corpus document are as it says', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-export-'));
  try {
    const { validator } = exportSchemas(path.join(work, 'schemas'));
    const docs = KNOWN.map((k, i) => {
      const file = path.join(work, `known-${i}.json`);
      fs.writeFileSync(file, k.text);
      return { file };
    });
    const results = srclsVerdicts(docs);
    KNOWN.forEach((k, i) => {
      const value = JSON.parse(k.text);
      const schema = results[i].document === 'job' ? 'job.schema.json' : 'source.schema.json';
      const srclsValid = !results[i].diagnostics.some((d) => d.severity === 'error');
      assert.deepStrictEqual({ srcls: srclsValid, ajv: validator(schema)(value) },
        { srcls: k.srcls, ajv: k.ajv }, `${k.why}: ${JSON.stringify(results[i].diagnostics)}`);
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

// Values for each format and for secrets, on both sides of what srcls accepts, each put into
// a valid example at one place: the patterns must accept exactly what srcls accepts.
const TIMESTAMPS = ['2024-05-01T12:30:00.000Z', '2024-12-31T23:59:60.999Z', '2024-13-01T12:30:00.000Z',
  '2024-02-29T12:30:00.000Z', '2025-02-29T12:30:00.000Z', '2024-02-30T12:30:00.000Z', '2025-04-31T12:30:00.000Z',
  '2000-02-29T12:30:00.000Z', '1900-02-29T12:30:00.000Z', '2024-05-01T12:30:60.000Z', '2024-06-30T23:59:60.000Z',
  '2024-05-00T12:30:00.000Z', '2024-05-32T12:30:00.000Z', '2024-05-01T24:00:00.000Z',
  '2024-05-01T12:60:00.000Z', '2024-05-01T12:30:61.000Z', '2024-05-01T12:30:00Z',
  '2024-05-01t12:30:00.000Z', '2024-05-01T12:30:00.000', '2024-05-01T12:30:00.000Z ', '', 5];
const UUIDS = ['8e4a2c6b-3f1d-4b7a-9c5e-1d2f3a4b5c6d', '8E4A2C6B-3F1D-4B7A-9C5E-1D2F3A4B5C6D',
  'urn:uuid:8e4a2c6b-3f1d-4b7a-9c5e-1d2f3a4b5c6d', '8e4a2c6b3f1d4b7a9c5e1d2f3a4b5c6d',
  '8e4a2c6b-3f1d-4b7a-9c5e-1d2f3a4b5c6g', '8e4a2c6b-3f1d-4b7a-9c5e-1d2f3a4b5c6d0', ''];
const PORTS = ['1', '80', '0080', '65535', '65536', '0', '00000', '99999', '8a', ' 80', '', '6553',
  '65530', '65529', '64999', '59999', '100000', 443, 0, 65535, 65536, 1.5, -1];
const SECRETS = ['$SERVICE_EXISTING_VALUE$', '$SERVICE_EXISTING_VALUE$x', 'data:,', 'data:,abc',
  'data:,a:b', 'data:;base64,QUJD', 'data:;base64,QUI=', 'data:;base64,QQ==', 'data:;base64,Q===',
  'data:;base64,====', 'data:;base64,', 'data:;base64,QUJ', 'data:;base64,QU=D', 'arn:',
  'arn:aws:secretsmanager:x', 'vault:', 'vault:kv/x', 'https://', 'https://vault.example.com/x',
  'http://x', 'plain', '', 'data:,line\nbreak', 'DATA:,abc'];
const EMAILS = ['a@b.c', 'a@b', '@b.c', 'a@', 'a@.c', 'a b@c.d', 'a@b@c.d', 'a@b.', 'ä@ö.de', ''];
const NAMESPACES = ['sales', 'a.b', 'a b', '', 'ä'];

const PLACES = [
  { example: 'job-running.job.json', schema: 'job.schema.json', at: ['startedAt'], values: TIMESTAMPS },
  { example: 'job-running.job.json', schema: 'job.schema.json', at: ['queueId'], values: UUIDS },
  { example: '07-peer-cluster.source.json', schema: 'source.schema.json', at: ['config', 'port'], values: PORTS },
  { example: '07-peer-cluster.source.json', schema: 'source.schema.json', at: ['config', 'password'], values: SECRETS },
  { example: '25-cloud-analytics-warehouse.source.json', schema: 'source.schema.json', at: ['config', 'clientEmail'], values: EMAILS },
  { example: '14-iceberg-rest-catalog.source.json', schema: 'source.schema.json', at: ['config', 'allowedNamespaces', 0], values: NAMESPACES },
];

test('the patterns of formats and secrets accept exactly what srcls accepts', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-export-'));
  try {
    const { validator } = exportSchemas(path.join(work, 'schemas'));
    const cases = [];
    for (const place of PLACES) {
      const example = fs.readFileSync(path.join(root, 'docs', 'examples', place.example), 'utf8');
      place.values.forEach((v) => {
        const value = JSON.parse(example);
        let at = value;
        for (const key of place.at.slice(0, -1)) at = at[key];
        at[place.at[place.at.length - 1]] = v;
        const file = path.join(work, `value-${cases.length}.json`);
        fs.writeFileSync(file, JSON.stringify(value));
        cases.push({ file, value, place, v });
      });
    }
    const results = srclsVerdicts(cases);
    const differ = [];
    cases.forEach((c, i) => {
      const srclsValid = !results[i].diagnostics.some((d) => d.severity === 'error');
      const ajvValid = validator(c.place.schema)(c.value);
      if (srclsValid !== ajvValid) {
        differ.push(`${c.place.at.join('/')} = ${JSON.stringify(c.v)}: srcls ${srclsValid ? 'clean' : 'errors'}, ajv ${ajvValid ? 'valid' : 'invalid'}`);
      }
    });
    assert.deepStrictEqual(differ, []);
    assert.ok(results.some((r) => r.diagnostics.some((d) => d.code === 'invalid-base64')));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

// VS Code's own JSON language server, as vscode-langservers-extracted ships it (pinned in
// tests/bench/peers), given the exported schemas (editors/vscode/schemas) for *.source.json and
// *.job.json, as a user's json.schemas setting would:
// its verdict on each document must be ajv's. Skipped when tests/bench/peers is not installed.
const JSON_SERVER = path.join(root, 'tests', 'bench', 'peers', 'node_modules', '.bin',
  'vscode-json-language-server');

async function jsonServerDiagnostics(schemaDir, documents) {
  const rpc = require('vscode-jsonrpc/node');
  const { spawn } = require('node:child_process');
  const server = spawn(JSON_SERVER, ['--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(server.stdout),
    new rpc.StreamMessageWriter(server.stdin));
  const got = new Map();
  let last = Date.now();
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    got.set(p.uri, p.diagnostics);
    last = Date.now();
  });
  conn.onRequest('workspace/configuration', () => [{}]);
  conn.onRequest('client/registerCapability', () => null);
  conn.listen();
  try {
    await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
    conn.sendNotification('initialized', {});
    // what a user's json.schemas setting gives it (docs/json-schema.md)
    const index = JSON.parse(fs.readFileSync(path.join(schemaDir, 'index.json'), 'utf8'));
    conn.sendNotification('json/schemaAssociations', [['*.source.json', index.source], ['*.job.json', index.job]]
      .map(([fileMatch, file]) => ({ fileMatch: [fileMatch], uri: pathToFileURL(path.join(schemaDir, file)).href })));
    documents.forEach((d) => conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: d.uri, languageId: 'json', version: 1, text: d.text } }));
    // every document published, then nothing new for 2 s (a later publish replaces an early one)
    const deadline = Date.now() + 90000;
    while ((got.size < documents.length || Date.now() - last < 2000) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    return documents.map((d) => got.get(d.uri));
  } finally {
    conn.dispose();
    server.kill();
  }
}

test('VS Code\'s JSON language server agrees with ajv on the exported schemas',
  { skip: !fs.existsSync(JSON_SERVER) && `${JSON_SERVER} is not installed (npm ci in tests/bench/peers)` },
  async () => {
    const schemaDir = path.join(root, 'editors', 'vscode', 'schemas');
    const ajv = newAjv();
    for (const f of fs.readdirSync(schemaDir).filter((f) => f.endsWith('.schema.json'))) {
      ajv.addSchema(JSON.parse(fs.readFileSync(path.join(schemaDir, f), 'utf8')));
    }
    const documents = [];
    const examples = path.join(root, 'docs', 'examples');
    for (const f of fs.readdirSync(examples).filter((f) => f.endsWith('.json') && !f.startsWith('bad-syntax'))) {
      documents.push({ uri: `file:///srcls/${f}`, text: fs.readFileSync(path.join(examples, f), 'utf8') });
    }
    const rules = path.join(root, 'tests', 'rules');
    for (const f of fs.readdirSync(rules).filter((f) => f.endsWith('.cases.json'))) {
      const suffix = f.startsWith('job') ? 'job' : 'source';
      JSON.parse(fs.readFileSync(path.join(rules, f), 'utf8')).forEach((c, i) => documents.push({
        uri: `file:///srcls/${f.replace('.cases.json', '')}-${i}.${suffix}.json`,
        text: JSON.stringify(c.document, null, 2) }));
    }
    const diagnostics = await jsonServerDiagnostics(schemaDir, documents);
    const differ = [];
    documents.forEach((d, i) => {
      const validate = ajv.getSchema(d.uri.endsWith('.job.json') ? 'job.schema.json' : 'source.schema.json');
      const ajvValid = validate(JSON.parse(d.text));
      // an alternate spelling is a deprecated property: a warning "Value is deprecated" (this
      // server version tags it with nothing), as srcls's alternate-spelling information, and
      // no reason to call the document invalid
      const jsonValid = diagnostics[i] !== undefined &&
        diagnostics[i].every((x) => x.message === 'Value is deprecated');
      if (ajvValid !== jsonValid) {
        differ.push(`${d.uri}: ajv ${ajvValid ? 'valid' : 'invalid'}, JSON server ` +
          `${JSON.stringify(diagnostics[i] && diagnostics[i].map((x) => x.message))}`);
      }
    });
    assert.deepStrictEqual(differ, [], `${differ.length} of ${documents.length} documents differ`);
  });

test('--export-json-schema says why it cannot write', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-export-'));
  try {
    const file = path.join(work, 'file');
    fs.writeFileSync(file, 'x');
    assert.throws(() => execFileSync(binary, ['--export-json-schema', file], { stdio: 'pipe' }),
      (e) => e.status === 2 && /is not a directory/.test(e.stderr.toString()));
    assert.throws(() => execFileSync(binary, ['--export-json-schema', path.join(file, 'sub')], { stdio: 'pipe' }),
      (e) => e.status === 2 && /cannot create the directory/.test(e.stderr.toString()));
    assert.throws(() => execFileSync(binary, ['--export-json-schema', work, '--check'], { stdio: 'pipe' }),
      (e) => e.status === 2 && /cannot be combined with --check/.test(e.stderr.toString()));
    assert.throws(() => execFileSync(binary, ['--list-kinds', '--export-json-schema', work], { stdio: 'pipe' }),
      (e) => e.status === 2 && /--list-kinds cannot be combined with --export-json-schema/.test(e.stderr.toString()));
    assert.throws(() => execFileSync(binary, ['--export-json-schema', work, '--format', 'json'], { stdio: 'pipe' }),
      (e) => e.status === 2 && /--format is an option of --check/.test(e.stderr.toString()));
    const nested = path.join(work, 'a', 'b');
    execFileSync(binary, ['--export-json-schema', nested]);
    assert.ok(fs.existsSync(path.join(nested, 'index.json')));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});
