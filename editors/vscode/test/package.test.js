// The .vsix as vsce builds it: run `vsce package` into a temporary folder, unpack it, and check
// that it holds the extension, its runtime dependency and nothing from test/, and that the
// packaged extension.js loads with the node_modules it ships (VS Code's own module stood in).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');

const root = path.resolve(__dirname, '..');
const vsce = path.join(root, 'node_modules', '.bin', 'vsce');
const hasUnzip = childProcess.spawnSync('unzip', ['-v']).status === 0;
const skip = !fs.existsSync(vsce) ? 'vsce is not installed (npm ci)' : !hasUnzip ? 'no unzip' : false;

// Any property, call or construction: enough for modules that only touch `vscode` when used.
function anything() {
  const handler = {
    get(target, prop) {
      if (prop === '__esModule' || prop === 'then') return undefined;
      if (!(prop in target)) target[prop] = new Proxy(function stand() {}, handler);
      return target[prop];
    },
    construct() { return new Proxy({}, handler); },
  };
  return new Proxy(function stand() {}, handler);
}

test('npm run package: the .vsix holds the extension and its runtime dependencies', { skip, timeout: 120000 }, (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-vsix-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const vsix = path.join(dir, 'srcls.vsix');
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const script = manifest.scripts.package.replace(/--out \S+/, '');
  const args = script.split(/\s+/).slice(1).filter(Boolean).concat(['--out', vsix]);
  const r = childProcess.spawnSync(vsce, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(r.status, 0, `vsce ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  assert.doesNotMatch(r.stdout + r.stderr, /ERROR/);

  const list = childProcess.spawnSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).stdout.split('\n');
  for (const f of ['extension/package.json', 'extension/extension.js', 'extension/lib/config.js',
    'extension/readme.md', 'extension/LICENSE.txt', 'extension.vsixmanifest',
    'extension/node_modules/vscode-languageclient/lib/node/main.js',
    'extension/node_modules/vscode-languageserver-protocol/package.json',
    'extension/node_modules/vscode-jsonrpc/lib/node/main.js',
    'extension/schemas/source.schema.json', 'extension/schemas/job.schema.json',
    'extension/schemas/bulk.schema.json', 'extension/schemas/CLOUDA_OBJECT_STORAGE.schema.json']) {
    assert.ok(list.includes(f), `${f} is in the .vsix`);
  }
  for (const f of list) {
    assert.doesNotMatch(f, /^extension\/(test|scripts)\//, `${f} should not be packaged`);
    assert.doesNotMatch(f, /^extension\/node_modules\/(@vscode|\.bin)\//, `${f} is a dev dependency`);
  }

  const out = path.join(dir, 'unpacked');
  assert.equal(childProcess.spawnSync('unzip', ['-q', vsix, '-d', out]).status, 0);
  const vsixManifest = fs.readFileSync(path.join(out, 'extension.vsixmanifest'), 'utf8');
  assert.match(vsixManifest, /<Identity [^>]*Id="srcls"[^>]*Publisher="srcls"/);
  assert.match(vsixManifest, /Microsoft\.VisualStudio\.Code\.Engine" Value="\^1\.\d+\.\d+"/);

  const packaged = path.join(out, 'extension', 'extension.js');
  const original = Module._load;
  const fake = anything();
  Module._load = function load(request, parent, isMain) {
    if (request === 'vscode') return fake;
    return original.call(this, request, parent, isMain);
  };
  try {
    const ext = require(packaged);
    assert.equal(typeof ext.activate, 'function');
    assert.equal(typeof ext.deactivate, 'function');
    const lc = require.resolve('vscode-languageclient/node', { paths: [path.dirname(packaged)] });
    assert.ok(lc.startsWith(out), `vscode-languageclient resolves inside the .vsix: ${lc}`);
  } finally {
    Module._load = original;
  }
});
