#!/usr/bin/env node
// Bundles extension.js, lib/ and vscode-languageclient (with its dependencies) into one file,
// out/extension.js, the manifest's "main": the .vsix then ships that file instead of some 160
// JavaScript files of node_modules, and VS Code loads one file. `vscode` is left to VS Code.
// vsce runs this before packaging ("vscode:prepublish"); `npm run bundle` runs it by hand.
'use strict';

const path = require('path');
const esbuild = require('esbuild');

const here = path.resolve(__dirname, '..');
const outfile = path.join(here, 'out', 'extension.js');

esbuild.build({
  entryPoints: [path.join(here, 'extension.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // VS Code 1.82 (engines.vscode) runs its extensions on Node 18.
  target: 'node18',
  external: ['vscode'],
  minify: true,
  keepNames: true, // readable names in the stack traces a user may report
  logLevel: 'warning',
}).then(() => {
  console.log(`bundle: ${path.relative(here, outfile)}`);
}, () => {
  process.exit(1);
});
