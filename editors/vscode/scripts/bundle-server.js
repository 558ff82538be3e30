#!/usr/bin/env node
// Copies a built srcls binary into bin/<platform>-<arch>/ so that `npm run package` ships it
// and the extension works without srcls on PATH. The binary is taken from the first argument,
// else $SRCLS_BINARY, else ../../build/server/srcls (the meson build of this repository).
'use strict';

const fs = require('fs');
const path = require('path');

const here = path.resolve(__dirname, '..');
const source = path.resolve(process.argv[2] || process.env.SRCLS_BINARY ||
  path.join(here, '..', '..', 'build', 'server', process.platform === 'win32' ? 'srcls.exe' : 'srcls'));
if (!fs.existsSync(source)) {
  console.error(`bundle-server: ${source} does not exist; build srcls first (ninja -C build)`);
  process.exit(1);
}
const dir = path.join(here, 'bin', `${process.platform}-${process.arch}`);
fs.mkdirSync(dir, { recursive: true });
const target = path.join(dir, path.basename(source));
fs.copyFileSync(source, target);
fs.chmodSync(target, 0o755);
console.log(`bundle-server: ${source} -> ${path.relative(here, target)}`);
