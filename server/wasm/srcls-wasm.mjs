#!/usr/bin/env node
// Runs srcls.wasm (srcls built as WebAssembly: the language server and --check) under Node's WASI:
//   node srcls-wasm.mjs [--stdio]      a language server on stdin/stdout
//   node srcls-wasm.mjs --check PATH... (every option of the native srcls; docs/install.md says
//                                       what differs), --version, --help, ...
// srcls.wasm is looked for beside this file, or where $SRCLS_WASM says. The server reads the
// files a client names (srcls.json, the workspace's documents) by their absolute paths: the
// whole file system is preopened, as `/` on Linux and macOS and as `/c:` (each drive) on
// Windows, which is how the server spells a `file:///c%3A/...` URI. WASI programs start in "/":
// $PWD tells srcls the directory node runs in (its WASI name), so that relative paths, srcls.json
// lookup and SARIF's %SRCROOT% mean what they mean natively. Standard input, output and error
// are the process's own (`--check -` reads stdin); srcls's exit status is node's. Node 18.17 or later as it
// is; an older Node 18 needs --experimental-wasi-unstable-preview1.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// node:wasi is "experimental" and says so on stderr at every start; nothing else is silenced.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  const type = typeof rest[0] === 'string' ? rest[0] : rest[0] && rest[0].type;
  if (type === 'ExperimentalWarning' && /WASI/.test(String(warning))) return;
  emitWarning.call(process, warning, ...rest);
};
const { WASI } = await import('node:wasi');
// The whole module is compiled by TurboFan before it starts (no Liftoff, so no tier-up left
// running in the background when the server exits): with Liftoff, Node 20.20.2 died by SIGSEGV
// in 38 of 160 exits right after start on a loaded machine; with --no-liftoff, in 0 of 360. It
// costs about 30 ms of start-up.
const v8 = await import('node:v8');
v8.setFlagsFromString('--no-liftoff');

function preopens() {
  if (process.platform !== 'win32') return { '/': '/' };
  const dirs = {};
  for (let c = 65; c <= 90; c++) {
    const drive = `${String.fromCharCode(c)}:\\`;
    if (!fs.existsSync(drive)) continue;
    dirs[`/${drive[0].toLowerCase()}:`] = drive;
    dirs[`/${drive[0]}:`] = drive;
  }
  return dirs;
}

// The WASI name of a directory of this machine: itself on Linux and macOS, C:\x\y as /c:/x/y.
function wasiPath(dir) {
  if (process.platform !== 'win32') return dir;
  const m = /^([A-Za-z]):[\\/]?(.*)$/.exec(dir);
  return m ? `/${m[1].toLowerCase()}:/${m[2].replace(/\\/g, '/')}`.replace(/\/$/, '') : dir;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const wasmPath = process.env.SRCLS_WASM || path.join(here, 'srcls.wasm');
let bytes;
try {
  bytes = fs.readFileSync(wasmPath);
} catch (e) {
  process.stderr.write(`srcls-wasm: cannot read ${wasmPath}: ${e.message}\n`);
  process.exit(2);
}
const wasi = new WASI({
  version: 'preview1',
  args: ['srcls', ...process.argv.slice(2)],
  env: { ...process.env, PWD: wasiPath(process.cwd()) },
  preopens: preopens(),
  // The server's exit ends the process at once (process.exit with its status). With
  // returnOnExit: true, Node 20.20.2 died by SIGSEGV in V8 (Factory::NewCatchContext) returning
  // from the exit after a message of 9 MB or more (tests/lsp/robustness.test.js).
  returnOnExit: false,
});
const module = await WebAssembly.compile(bytes);
const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.wasiImport });
wasi.start(instance);
