// package.json as VS Code reads it: the manifest fields it needs, and agreement between what
// the manifest declares and what the code reads or assumes.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const config = require('../lib/config');

const root = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const extensionSource = fs.readFileSync(path.join(root, 'extension.js'), 'utf8');
const configSource = fs.readFileSync(path.join(root, 'lib', 'config.js'), 'utf8');
const properties = manifest.contributes.configuration.properties;

test('manifest: the fields VS Code and vsce require', () => {
  for (const key of ['name', 'displayName', 'description', 'version', 'publisher', 'license']) {
    assert.equal(typeof manifest[key], 'string', key);
  }
  assert.match(manifest.name, /^[a-z0-9][a-z0-9-]*$/);
  assert.match(manifest.version, /^\d+\.\d+\.\d+$/);
  assert.match(manifest.engines.vscode, /^\^1\.\d+\.\d+$/);
  assert.ok(fs.existsSync(path.join(root, manifest.main)), 'main exists');
  assert.ok(fs.existsSync(path.join(root, 'README.md')));
  assert.ok(fs.existsSync(path.join(root, 'LICENSE')));
});

test('manifest: engines.vscode is at least what vscode-languageclient needs', () => {
  const lc = JSON.parse(fs.readFileSync(
    path.join(root, 'node_modules', 'vscode-languageclient', 'package.json'), 'utf8'));
  const minor = (range) => Number(range.match(/\^1\.(\d+)/)[1]);
  assert.ok(minor(manifest.engines.vscode) >= minor(lc.engines.vscode),
    `${manifest.engines.vscode} < ${lc.engines.vscode}`);
});

test('manifest: activation only in workspaces holding documents or srcls.json, not on any JSON', () => {
  for (const glob of config.DEFAULT_GLOBS) {
    assert.ok(manifest.activationEvents.includes(`workspaceContains:${glob}`), glob);
  }
  assert.ok(manifest.activationEvents.includes('workspaceContains:**/srcls.json'));
  for (const event of manifest.activationEvents) {
    assert.doesNotMatch(event, /^(onLanguage:|\*$|onStartupFinished)/, `${event} activates on every JSON file`);
  }
});

test('manifest: jsonValidation gives the JSON support of VS Code the exported schemas', () => {
  const byMatch = Object.fromEntries(manifest.contributes.jsonValidation.map((v) => [v.fileMatch, v.url]));
  assert.deepEqual(byMatch, {
    '*.source.json': './schemas/source.schema.json',
    '*.job.json': './schemas/job.schema.json',
  });
  // every default glob has its schema, and every file a schema refers to is there
  for (const glob of config.DEFAULT_GLOBS) assert.ok(byMatch[glob.replace('**/', '')], glob);
  const schemas = path.join(root, 'schemas');
  const index = JSON.parse(fs.readFileSync(path.join(schemas, 'index.json'), 'utf8'));
  const files = [...Object.values(index.types), index.source, index.bulk, index.job];
  for (const url of Object.values(byMatch)) assert.ok(files.includes(path.basename(url)), url);
  for (const f of files) {
    const schema = JSON.parse(fs.readFileSync(path.join(schemas, f), 'utf8'));
    assert.equal(schema.$id, f);
    for (const m of JSON.stringify(schema).matchAll(/"\$ref":"([^"#]+)/g)) {
      assert.ok(files.includes(m[1]), `${f} refers to ${m[1]}, which is there`);
    }
  }
});

test('manifest: every srcls.* setting the code reads is declared, with a type and a default', () => {
  const read = new Set();
  for (const m of extensionSource.matchAll(/get\('([A-Za-z.]+)'\)/g)) read.add(`srcls.${m[1]}`);
  for (const m of configSource.matchAll(/get\('([A-Za-z.]+)'\)/g)) read.add(`srcls.${m[1]}`);
  for (const key of ['srcls.serverPath', 'srcls.files', 'srcls.severity', 'srcls.types']) read.add(key);
  for (const key of read) {
    assert.ok(properties[key], `${key} is declared`);
  }
  for (const [key, p] of Object.entries(properties)) {
    assert.ok(p.type, `${key} has a type`);
    assert.ok('default' in p, `${key} has a default`);
    assert.ok(p.description || p.markdownDescription, `${key} is described`);
  }
  assert.deepEqual(properties['srcls.trace.server'].enum, ['off', 'messages', 'verbose']);
  assert.deepEqual(properties['srcls.severity'].additionalProperties.enum, config.SEVERITIES);
  assert.equal(properties['srcls.files'].items.type, 'string');
});

test('manifest: the restart command is contributed and registered', () => {
  const names = manifest.contributes.commands.map((c) => c.command);
  assert.deepEqual(names, ['srcls.restartServer']);
  assert.ok(extensionSource.includes("registerCommand('srcls.restartServer'"));
});

test('README: has the section the error message links to', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const slug = (h) => h.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
  const anchors = [...readme.matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1]));
  assert.ok(anchors.includes(config.DOCS_ANCHOR), anchors.join(', '));
});
