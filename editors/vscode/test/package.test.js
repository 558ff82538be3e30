// The .vsix as `npm run package` builds it, in a copy of the extension (with a bundled server
// in bin/, as tools/release.sh adds one): vsce runs the bundler first ("vscode:prepublish"),
// and the package holds the bundle, the manifest and the files it names, the server, and
// nothing else (no node_modules, no tests); the bundled extension.js loads on its own, needing
// nothing but Node's modules and VS Code's. The zip is read with Node (test/zip.js).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');
const { readZip } = require('./zip');

const root = path.resolve(__dirname, '..');
const vsce = path.join(root, 'node_modules', '.bin', 'vsce');
const nodeMajor = Number(process.versions.node.split('.')[0]);
const skip = !fs.existsSync(vsce) ? 'vsce is not installed (npm ci)'
  : nodeMajor < 20 ? `@vscode/vsce needs Node 20 or later (this is ${process.version})` : false;

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

/** A copy of the extension's sources in `dir`, sharing node_modules, as a clean clone has them. */
function copyExtension(dir) {
  const tracked = childProcess.spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '.'], { cwd: root, encoding: 'utf8' });
  const files = tracked.status === 0 && tracked.stdout ? tracked.stdout.split('\0').filter(Boolean)
    : fs.readdirSync(root, { recursive: true }).filter((f) => !/^(node_modules|out|bin)(\/|$)/.test(f) &&
      fs.statSync(path.join(root, f)).isFile());
  for (const f of files) {
    fs.mkdirSync(path.join(dir, path.dirname(f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(dir, f));
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
}

test('npm run package: the bundle, the manifest\'s files and the server, nothing else', { skip, timeout: 120000 }, (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-vsix-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const ext = path.join(dir, 'extension');
  copyExtension(ext);
  const native = `bin/${process.platform}-${process.arch}/srcls`;
  fs.mkdirSync(path.join(ext, path.dirname(native)), { recursive: true });
  fs.writeFileSync(path.join(ext, native), '#!/bin/sh\necho "srcls 0.1.0"\n', { mode: 0o755 });

  const vsix = path.join(dir, 'srcls.vsix');
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  assert.match(manifest.scripts['vscode:prepublish'], /scripts\/bundle\.js/, 'vsce bundles before packaging');
  const script = manifest.scripts.package.replace(/--out \S+/, '');
  const args = script.split(/\s+/).slice(1).filter(Boolean).concat(['--out', vsix]);
  const r = childProcess.spawnSync(vsce, args, { cwd: ext, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(r.status, 0, `vsce ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  assert.doesNotMatch(r.stdout + r.stderr, /ERROR|files? .* JavaScript files/);

  const entries = readZip(fs.readFileSync(vsix));
  const names = entries.map((e) => e.name).sort();
  const main = `extension/${path.posix.normalize(manifest.main)}`;
  const named = [main,
    ...manifest.contributes.languages.map((l) => `extension/${path.posix.normalize(l.configuration)}`),
    ...manifest.contributes.grammars.map((g) => `extension/${path.posix.normalize(g.path)}`)];
  assert.deepEqual(names, [...new Set(['[Content_Types].xml', 'extension.vsixmanifest', 'extension/LICENSE.txt',
    'extension/package.json', 'extension/readme.md', `extension/${native}`, ...named])].sort());
  assert.ok(names.length <= 10, `${names.length} files`);
  const byName = Object.fromEntries(entries.map((e) => [e.name, e]));
  assert.equal(byName[`extension/${native}`].mode & 0o111, 0o111, 'the server stays executable');
  const vsixManifest = byName['extension.vsixmanifest'].data.toString('utf8');
  assert.match(vsixManifest, /<Identity [^>]*Id="srcls"[^>]*Publisher="srcls"/);
  assert.match(vsixManifest, /Microsoft\.VisualStudio\.Code\.Engine" Value="\^1\.\d+\.\d+"/);

  // The bundle alone, away from any node_modules, loads and asks only for Node's modules and vscode.
  const alone = path.join(dir, 'alone');
  fs.mkdirSync(alone);
  const bundle = path.join(alone, 'extension.js');
  fs.writeFileSync(bundle, byName[main].data);
  const requested = new Set();
  const original = Module._load;
  const fake = anything();
  Module._load = function load(request, parent, isMain) {
    if (parent && parent.filename === bundle) requested.add(request);
    if (request === 'vscode') return fake;
    return original.call(this, request, parent, isMain);
  };
  try {
    const loaded = require(bundle);
    assert.equal(typeof loaded.activate, 'function');
    assert.equal(typeof loaded.deactivate, 'function');
  } finally {
    Module._load = original;
    delete require.cache[bundle];
  }
  const builtins = new Set(Module.builtinModules);
  for (const m of requested) {
    assert.ok(m === 'vscode' || builtins.has(m.replace(/^node:/, '')), `the bundle requires ${m}`);
  }
  assert.ok(requested.has('vscode'));
});
