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
// WASI cannot start a process; this runner starts git for srcls (what git ignores in a directory
// scan, and --base): see gitForModule.
import { spawnSync } from 'node:child_process';
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

// The path on this machine of a WASI path: itself on Linux and macOS, /c:/x/y as c:/x/y.
function hostPath(wasi) {
  if (process.platform !== 'win32') return wasi;
  const m = /^\/([A-Za-z]):(\/.*)?$/.exec(wasi);
  return m ? `${m[1]}:${m[2] || '/'}` : wasi;
}

// A WebAssembly function that calls `fn` with `params` i32 and `results` (0 or 1) i32: a
// module's table holds only WebAssembly functions, so `fn` goes in through a module of one
// import, exported again.
function wasmFunction(fn, params, results) {
  const section = (id, body) => [id, body.length, ...body];
  const name = [1, 0x66]; // "f"
  const type = [0x60, params, ...Array(params).fill(0x7f), results, ...Array(results).fill(0x7f)];
  const bytes = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    ...section(1, [1, ...type]), // one type
    ...section(2, [1, ...name, ...name, 0x00, 0x00]), // import "f" "f": a function of type 0
    ...section(7, [1, ...name, 0x00, 0x00]), // export "f": function 0
  ]);
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), { f: { f: fn } }).exports.f;
}

// Gives the module git (server/cli/check_git_wasi.c): functions in its table that run git, and
// nothing else, with the argv srcls built (never through a shell) in the directory srcls names,
// its standard error silenced as natively, and hand back git's exit status and standard output.
// -1: git is not on PATH (srcls then says so and checks no directory of a work tree, as without
// this runner); -2: git could not be run. Their table indices go at srcls_host_git's address
// before the program starts. A module without it (an older srcls.wasm) is left as it is.
function gitForModule(exports) {
  const { memory, srcls_host_git: slots } = exports;
  const table = exports.__indirect_function_table;
  if (!(slots instanceof WebAssembly.Global) || !(table instanceof WebAssembly.Table)) return;
  const decoder = new TextDecoder();
  let kept = null; // git's standard output, until take_output copies it
  const runGit = (request, requestLen, input, inputLen, outLenAt) => {
    kept = null;
    const bytes = new Uint8Array(memory.buffer);
    const words = decoder.decode(bytes.subarray(request >>> 0, (request >>> 0) + (requestLen >>> 0)))
      .split('\0').slice(0, -1);
    const [cwd, program, ...args] = words;
    if (program !== 'git' || !fs.existsSync(hostPath(cwd))) return -2;
    const run = spawnSync('git', args.map((a, i) => (args[i - 1] === '-C' ? hostPath(a) : a)), {
      cwd: hostPath(cwd),
      input: bytes.slice(input >>> 0, (input >>> 0) + (inputLen >>> 0)),
      stdio: ['pipe', 'pipe', 'ignore'],
      maxBuffer: 1 << 30,
      windowsHide: true,
    });
    if (run.error) return run.error.code === 'ENOENT' ? -1 : -2;
    if (run.status === 127) return -1; // the shell's "not found", for a wrapper script
    if (run.status === null) return -2; // ended by a signal
    kept = run.stdout;
    new DataView(memory.buffer).setUint32(outLenAt >>> 0, kept.length, true);
    return run.status;
  };
  const takeOutput = (out) => {
    if (out !== 0 && kept !== null) new Uint8Array(memory.buffer).set(kept, out >>> 0);
    kept = null;
  };
  const first = table.grow(2);
  table.set(first, wasmFunction(runGit, 5, 1));
  table.set(first + 1, wasmFunction(takeOutput, 1, 0));
  const view = new DataView(memory.buffer);
  view.setUint32(slots.value, first, true);
  view.setUint32(slots.value + 4, first + 1, true);
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
gitForModule(instance.exports);
wasi.start(instance);
