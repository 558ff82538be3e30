#!/usr/bin/env node
// Copies a built srcls server into bin/ so that `npm run package` (vsce) ships it and the
// extension works without srcls on PATH (lib/config.js findServer looks there):
//   bundle-server.js [BINARY] [--target PLATFORM-ARCH]   a native binary into bin/PLATFORM-ARCH/
//   bundle-server.js --wasm DIR                          srcls.wasm and srcls-wasm.mjs from DIR
//                                                        into bin/wasm/ (the fallback server)
//   bundle-server.js --clean                             removes bin/ (before packaging another
//                                                        platform's .vsix)
// BINARY: else $SRCLS_BINARY, else ../../build/server/srcls (the meson build of this repository).
// PLATFORM-ARCH: a vsce target (linux-x64, linux-arm64, ...); default this machine's.
'use strict';

const fs = require('fs');
const path = require('path');

const here = path.resolve(__dirname, '..');
const bin = path.join(here, 'bin');

function fail(message) {
  console.error(`bundle-server: ${message}`);
  process.exit(1);
}

function copy(source, dir, mode) {
  if (!fs.existsSync(source)) fail(`${source} does not exist; build srcls first (tools/release.sh, or ninja -C build)`);
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, path.basename(source));
  fs.copyFileSync(source, target);
  fs.chmodSync(target, mode);
  console.log(`bundle-server: ${source} -> ${path.relative(here, target)}`);
}

const args = process.argv.slice(2);
if (args[0] === '--clean') {
  fs.rmSync(bin, { recursive: true, force: true });
  console.log('bundle-server: removed bin/');
} else if (args[0] === '--wasm') {
  if (!args[1]) fail('--wasm needs the folder of srcls.wasm and srcls-wasm.mjs');
  const dir = path.resolve(args[1]);
  copy(path.join(dir, 'srcls.wasm'), path.join(bin, 'wasm'), 0o644);
  copy(path.join(dir, 'srcls-wasm.mjs'), path.join(bin, 'wasm'), 0o644);
} else {
  const at = args.indexOf('--target');
  const target = at >= 0 ? args[at + 1] : `${process.platform}-${process.arch}`;
  if (!target || !/^[a-z0-9]+-[a-z0-9]+$/.test(target)) fail('--target needs a platform-arch such as linux-arm64');
  const rest = at >= 0 ? args.filter((_, i) => i !== at && i !== at + 1) : args;
  const windows = target.startsWith('win32-');
  const source = path.resolve(rest[0] || process.env.SRCLS_BINARY ||
    path.join(here, '..', '..', 'build', 'server', windows ? 'srcls.exe' : 'srcls'));
  if (!fs.existsSync(source)) fail(`${source} does not exist; build srcls first (ninja -C build)`);
  // The extension looks for bin/PLATFORM-ARCH/srcls (srcls.exe on Windows), whatever the
  // binary was called when it was built (dist/srcls-linux-aarch64, ...).
  const dir = path.join(bin, target);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, windows ? 'srcls.exe' : 'srcls');
  fs.copyFileSync(source, file);
  fs.chmodSync(file, 0o755);
  console.log(`bundle-server: ${source} -> ${path.relative(here, file)}`);
}
