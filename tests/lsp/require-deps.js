'use strict';
// Preloaded by meson (`node --require require-deps.js --test ...`): without the npm client
// libraries the suite cannot run, so skip it (exit 77, meson's "skipped") with the fix.
// SRCLS_TEST_NEEDS (comma-separated) names other packages instead, for a suite of its own.
const fs = require('node:fs');
const path = require('node:path');

const needed = process.env.SRCLS_TEST_NEEDS
  ? process.env.SRCLS_TEST_NEEDS.split(',')
  : ['vscode-jsonrpc', 'vscode-languageserver-protocol', '@microsoft/jest-sarif', 'ajv'];
const missing = needed.filter((name) => !fs.existsSync(path.join(__dirname, 'node_modules', name, 'package.json')));
if (missing.length > 0) {
  process.stderr.write(
    `tests/lsp: ${missing.join(', ')} not installed in ${path.join(__dirname, 'node_modules')}; ` +
    'run `npm ci` in tests/lsp (from the top: `npm ci --prefix tests/lsp`). Skipping these tests.\n');
  process.exit(77);
}
