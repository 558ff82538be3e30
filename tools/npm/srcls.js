#!/usr/bin/env node
// The `srcls` command of the npm package (tools/npm-pack.sh puts it in bin/): runs the native
// binary of the platform package npm installed beside this one (@srcls/linux-x64,
// @srcls/linux-arm64: static Linux binaries), with the same arguments, stdin, stdout and
// stderr, and exits with its status. On any other platform, or when that package is absent
// (npm install --omit=optional), it runs the WebAssembly build (wasm/srcls.wasm, through
// wasm/srcls-wasm.mjs, in this Node process) and says so once on stderr; that runner starts git
// for it (what a scan in a git work tree skips, --base), which WebAssembly cannot.
// A platform package of another version than this one is refused (exit 2), never run.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { pathToFileURL } = require('node:url');

const self = require('../package.json');
// Filled by tools/npm-pack.sh: "<process.platform> <process.arch>" -> the package with its binary.
const PLATFORMS = require('./platforms.json');

function fail(message) {
  process.stderr.write(`srcls: ${message}\n`);
  process.exit(2);
}

// The platform package's binary, or { why } it cannot be used.
function nativeBinary() {
  const key = `${process.platform} ${process.arch}`;
  const name = PLATFORMS[key];
  if (!name) return { why: `no native srcls is published for ${key}` };
  let manifest;
  try {
    manifest = require.resolve(`${name}/package.json`);
  } catch {
    return { why: `${name} is not installed (npm leaves optional dependencies out with --omit=optional)` };
  }
  const found = JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
  if (found !== self.version) {
    fail(`${name} is version ${found}, but this srcls is ${self.version}: both must be the same ` +
      `version. Install them together again: npm install srcls@${self.version} ` +
      `(or remove node_modules and the lock file's entry for ${name}).`);
  }
  return { binary: path.join(path.dirname(manifest), 'srcls') };
}

function runNative(binary) {
  const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });
  // An editor stops its server with a signal now and then: pass it on rather than leave an orphan.
  const forward = (signal) => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  child.on('error', (e) => fail(`cannot run ${binary}: ${e.message}`));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code === null ? 2 : code);
  });
}

function runWasm(why) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 18 || (major === 18 && minor < 17)) {
    fail(`${why}, and the WebAssembly build needs Node 18.17 or later (this is ${process.version})`);
  }
  process.stderr.write(`srcls: running the WebAssembly build (${why}); ` +
    'what differs: https://github.com/srcls/srcls/blob/main/docs/install.md#--check-in-the-webassembly-build\n');
  // The runner takes its arguments from process.argv.slice(2) and srcls.wasm from beside itself.
  import(pathToFileURL(path.join(__dirname, '..', 'wasm', 'srcls-wasm.mjs')).href)
    .catch((e) => fail(`the WebAssembly build failed to start: ${e.message}`));
}

const native = nativeBinary();
if (native.binary) runNative(native.binary);
else runWasm(native.why);
