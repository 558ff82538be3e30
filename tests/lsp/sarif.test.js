'use strict';
// `srcls --check --format sarif` validated against the SARIF 2.1.0 JSON Schema (the one npm's
// @microsoft/jest-sarif ships, with ajv) for every shape of path code scanning meets.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const Ajv = require('ajv');
const { CLI_BINARY, example } = require('./client');

const schema = JSON.parse(fs.readFileSync(
  path.join(__dirname, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, schemaId: 'auto' });
ajv.addMetaSchema(require('ajv/lib/refs/json-schema-draft-04.json'));
const validate = ajv.compile(schema);

function sarif(args, { cwd, input } = {}) {
  const res = spawnSync(CLI_BINARY, ['--check', '--format', 'sarif', ...args], { cwd, input, encoding: 'utf8' });
  assert.ok(res.status === 0 || res.status === 1, `exit ${res.status}: ${res.stderr}`);
  const log = JSON.parse(res.stdout);
  assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
  return log;
}

function workspace(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-sarif-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

const BAD = example('bad-object-storage.source.json');

describe('SARIF 2.1.0', () => {
  test('a relative path: a relative URI, valid against the schema', (t) => {
    const root = workspace(t);
    fs.writeFileSync(path.join(root, 'bad.source.json'), BAD);
    const log = sarif(['bad.source.json'], { cwd: root });
    const loc = log.runs[0].results[0].locations[0].physicalLocation.artifactLocation;
    assert.equal(loc.uri, 'bad.source.json');
  });

  test('security rules carry tags and security-severity; %SRCROOT% is the run directory', (t) => {
    const root = fs.realpathSync(workspace(t));
    fs.writeFileSync(path.join(root, 'bad.source.json'), BAD);
    const run = sarif(['bad.source.json'], { cwd: root }).runs[0];
    assert.deepEqual(run.originalUriBaseIds, { '%SRCROOT%': { uri: `file://${root}/` } });
    const rules = run.tool.driver.rules;
    const security = rules.filter((r) => r.properties && r.properties.tags);
    assert.ok(security.some((r) => r.id === 'insecure-transport'), 'insecure-transport is tagged');
    for (const r of security) {
      assert.deepEqual(r.properties.tags, ['security'], r.id);
      const sev = r.properties['security-severity'];
      assert.match(sev, /^\d+\.\d$/, `${r.id}: ${sev}`);
      assert.ok(Number(sev) >= 0 && Number(sev) <= 10, `${r.id}: ${sev}`);
    }
    assert.ok(!rules.find((r) => r.id === 'json-syntax').properties, 'json-syntax is not a security rule');
    const loc = run.results[0].locations[0].physicalLocation.artifactLocation;
    assert.deepEqual(loc, { uri: 'bad.source.json', uriBaseId: '%SRCROOT%' });
  });

  test('--baseline: baselineState new, unchanged and absent, valid against the schema', (t) => {
    const root = workspace(t);
    fs.writeFileSync(path.join(root, 'bad.source.json'), BAD);
    fs.writeFileSync(path.join(root, 'gone.source.json'), BAD);
    const made = spawnSync(CLI_BINARY, ['--check', '--write-baseline', 'b.json', '.'], { cwd: root, encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    fs.rmSync(path.join(root, 'gone.source.json'));
    fs.writeFileSync(path.join(root, 'bad.source.json'), BAD.replace('150', '151'));
    const results = sarif(['--baseline', 'b.json', '.'], { cwd: root }).runs[0].results;
    const states = (state) => results.filter((r) => r.baselineState === state);
    assert.ok(states('new').length > 0 && states('unchanged').length > 0);
    assert.ok(states('absent').some((r) => r.locations[0].physicalLocation.artifactLocation.uri === 'gone.source.json' && r.level === 'none'));
    assert.equal(states('new').length + states('unchanged').length + states('absent').length, results.length);
  });

  test('spaces, # and non-ASCII letters are percent-encoded', (t) => {
    const root = workspace(t);
    fs.mkdirSync(path.join(root, 'my dir'));
    fs.writeFileSync(path.join(root, 'my dir', 'a#1 é.source.json'), BAD);
    const log = sarif(['my dir/a#1 é.source.json'], { cwd: root });
    const uri = log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri;
    assert.equal(uri, 'my%20dir/a%231%20%C3%A9.source.json');
    assert.equal(decodeURIComponent(uri), 'my dir/a#1 é.source.json');
  });

  test('an absolute path outside the current directory: a file:// URI, no uriBaseId', (t) => {
    const root = workspace(t);
    const elsewhere = workspace(t);
    fs.writeFileSync(path.join(elsewhere, 'abs.source.json'), BAD);
    const log = sarif([path.join(elsewhere, 'abs.source.json')], { cwd: root });
    const loc = log.runs[0].results[0].locations[0].physicalLocation.artifactLocation;
    assert.equal(loc.uri, 'file://' + path.join(elsewhere, 'abs.source.json'));
    assert.equal(loc.uriBaseId, undefined);
  });

  test('standard input: named by --stdin-filename', (t) => {
    const root = workspace(t);
    const log = sarif(['--stdin-filename', 'sources/x.source.json', '-'], { cwd: root, input: BAD });
    assert.equal(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'sources/x.source.json');
  });

  test('the fingerprints do not change with the directory srcls runs from', (t) => {
    const root = workspace(t);
    fs.mkdirSync(path.join(root, 'sub'));
    fs.writeFileSync(path.join(root, 'sub', 'bad.source.json'), BAD);
    const prints = (log) => log.runs[0].results.map((r) => JSON.stringify(r.partialFingerprints));
    assert.deepEqual(prints(sarif(['sub/bad.source.json'], { cwd: root })), prints(sarif(['bad.source.json'], { cwd: path.join(root, 'sub') })));
  });

  test('rules carry helpUri and Markdown help; a duplicate key points at its first definition', (t) => {
    const root = workspace(t);
    fs.writeFileSync(path.join(root, 'dup.source.json'), '{"type": "SEARCH_INDEX",\n "config": {"port": 1,\n            "port": 2}}\n');
    const log = sarif(['dup.source.json'], { cwd: root });
    const driver = log.runs[0].tool.driver;
    assert.match(driver.informationUri, /^https:\/\/.+\/cli\.md$/);
    for (const rule of driver.rules) {
      assert.ok(rule.helpUri.endsWith('/rules.md#' + rule.id), rule.helpUri);
      assert.ok(rule.help.markdown.includes('**' + rule.id + '**'));
    }
    const dup = log.runs[0].results.find((r) => r.ruleId === 'duplicate-key');
    const related = dup.relatedLocations[0];
    assert.equal(related.message.text, 'first defined here');
    assert.deepEqual(related.physicalLocation.region, { startLine: 2, startColumn: 13, endLine: 2, endColumn: 19 });
  });
});


describe('GitLab Code Quality', () => {
  function gitlab(args, cwd) {
    const res = spawnSync(CLI_BINARY, ['--check', '--format', 'gitlab', ...args], { cwd, encoding: 'utf8' });
    return { status: res.status, issues: JSON.parse(res.stdout) };
  }

  test('every issue has its fields; fingerprints are unique and do not move with the lines', (t) => {
    const root = workspace(t);
    fs.mkdirSync(path.join(root, 'sources'));
    const dup = '{"type": "SEARCH_INDEX", "config": {"port": 1, "port": 2, "port": 3}}\n';
    fs.writeFileSync(path.join(root, 'sources', 'bad.source.json'), BAD);
    fs.writeFileSync(path.join(root, 'sources', 'dup.source.json'), dup);
    const { status, issues } = gitlab(['sources'], root);
    assert.equal(status, 1);
    assert.ok(issues.length > 5);
    for (const i of issues) {
      assert.equal(typeof i.description, 'string');
      assert.match(i.check_name, /^[a-z-]+$/);
      assert.match(i.fingerprint, /^[0-9a-f]{16}$/);
      assert.ok(['info', 'minor', 'major', 'critical', 'blocker'].includes(i.severity));
      assert.match(i.location.path, /^sources\/(bad|dup)\.source\.json$/);
      assert.ok(Number.isInteger(i.location.lines.begin) && i.location.lines.begin >= 1);
    }
    assert.equal(new Set(issues.map((i) => i.fingerprint)).size, issues.length, 'unique fingerprints');
    assert.equal(issues.find((i) => i.check_name === 'unknown-field').severity, 'minor');
    assert.equal(issues.find((i) => i.check_name === 'invalid-enum').severity, 'major');
    // a line added above moves the issues, not their fingerprints
    fs.writeFileSync(path.join(root, 'sources', 'bad.source.json'), '\n\n' + BAD);
    const moved = gitlab(['sources'], root).issues;
    assert.deepEqual(moved.map((i) => i.fingerprint).sort(), issues.map((i) => i.fingerprint).sort());
    assert.ok(moved.every((i, k) => i.location.path !== issues[k].location.path || i.location.path.endsWith('dup.source.json') || i.location.lines.begin === issues[k].location.lines.begin + 2));
  });

  test('an unreadable path is a blocker issue; a clean run is an empty array', (t) => {
    const root = workspace(t);
    const { status, issues } = gitlab(['missing.json'], root);
    assert.equal(status, 2);
    assert.equal(issues.length, 1);
    assert.equal(issues[0].severity, 'blocker');
    fs.writeFileSync(path.join(root, 'good.source.json'), example('01-search-service.source.json'));
    assert.deepEqual(gitlab(['good.source.json'], root).issues, []);
  });
});
