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
  // main is the bundle scripts/bundle.js writes (vsce runs it first: test/package.test.js)
  assert.equal(manifest.main, './out/extension.js');
  assert.match(fs.readFileSync(path.join(root, 'scripts', 'bundle.js'), 'utf8'), /path\.join\(here, 'out', 'extension\.js'\)/);
  assert.equal(manifest.scripts['vscode:prepublish'], 'node scripts/bundle.js');
  assert.deepEqual(Object.keys(manifest.dependencies || {}), [], 'everything the extension runs is in the bundle');
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

test('manifest: activation only on srcls documents and in workspaces holding them or srcls.json, not on any JSON', () => {
  for (const glob of config.DEFAULT_GLOBS) {
    assert.ok(manifest.activationEvents.includes(`workspaceContains:${glob}`), glob);
  }
  assert.ok(manifest.activationEvents.includes('workspaceContains:**/srcls.json'));
  assert.ok(manifest.activationEvents.includes(`onLanguage:${config.LANGUAGE_ID}`));
  for (const event of manifest.activationEvents) {
    assert.doesNotMatch(event, /^(onLanguage:json|onLanguage:jsonc|\*$|onStartupFinished)/, `${event} activates on every JSON file`);
  }
});

test('manifest: srcls documents get a language of their own, with JSON\'s grammar and editing rules', () => {
  const [language, ...others] = manifest.contributes.languages;
  assert.deepEqual(others, []);
  assert.equal(language.id, config.LANGUAGE_ID);
  assert.deepEqual(language.filenamePatterns, config.DEFAULT_GLOBS.map((g) => g.replace('**/', '')));
  assert.deepEqual(language.filenames, ['srcls.json']);
  assert.equal(language.extensions, undefined, 'not every .json file');

  const rules = JSON.parse(fs.readFileSync(path.join(root, language.configuration), 'utf8'));
  assert.deepEqual(rules.brackets, [['{', '}'], ['[', ']']]);
  assert.deepEqual(rules.autoClosingPairs.map((p) => p.open + p.close), ['{}', '[]', '""']);
  const increase = new RegExp(rules.indentationRules.increaseIndentPattern);
  const decrease = new RegExp(rules.indentationRules.decreaseIndentPattern);
  assert.ok(increase.test('  "config": {') && increase.test('[') && !increase.test('  "a": 1,'));
  assert.ok(decrease.test('  },') && decrease.test(']') && !decrease.test('  "a": {}'));

  const [grammar, ...moreGrammars] = manifest.contributes.grammars;
  assert.deepEqual(moreGrammars, []);
  assert.equal(grammar.language, config.LANGUAGE_ID);
  const tm = JSON.parse(fs.readFileSync(path.join(root, grammar.path), 'utf8'));
  assert.equal(tm.scopeName, grammar.scopeName);
  assert.deepEqual(tm.patterns, [{ include: 'source.json' }], "VS Code's JSON grammar colours them");
});

test('manifest: no JSON Schema for VS Code\'s JSON support, which would report every finding a second time', () => {
  assert.equal(manifest.contributes.jsonValidation, undefined);
  assert.equal(manifest.contributes.jsonLanguageParticipants, undefined);
});

test('manifest: every srcls.* setting the code reads is declared, with a type and a default', () => {
  const read = new Set();
  // (VS Code's own settings, read from their section, are not ours to declare)
  const ours = extensionSource.replace(/getConfiguration\('(?!srcls')[^']*'\)\.get\('[^']*'\)/g, '');
  assert.notEqual(ours, extensionSource, "extension.js reads files.associations");
  for (const m of ours.matchAll(/get\('([A-Za-z.]+)'\)/g)) read.add(`srcls.${m[1]}`);
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
