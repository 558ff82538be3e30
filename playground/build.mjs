// Builds the playground into OUT (tools/playground.sh: dist/playground/): main.js and worker.js
// bundled by esbuild (minified, no source maps), the page and its style, the examples of
// docs/examples/ bundled in (one module, srcls:examples), srcls.wasm (the reactor build) and
// licenses.txt (the bundled packages' licenses).
//   node build.mjs OUT SRCLS_REACTOR_WASM
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const [out, wasm] = process.argv.slice(2);
if (!out || !wasm) {
  console.error('usage: node build.mjs OUT SRCLS_REACTOR_WASM');
  process.exit(2);
}
const examplesDir = path.join(here, '..', 'docs', 'examples');

const examples = {
  name: 'srcls-examples',
  setup(b) {
    b.onResolve({ filter: /^srcls:examples$/ }, () => ({ path: 'examples', namespace: 'srcls' }));
    b.onLoad({ filter: /.*/, namespace: 'srcls' }, () => {
      const list = fs.readdirSync(examplesDir).filter((f) => f.endsWith('.json')).sort()
        .map((f) => ({ name: f, text: fs.readFileSync(path.join(examplesDir, f), 'utf8') }));
      return { contents: `export default ${JSON.stringify(list)};`, loader: 'js', watchFiles: [] };
    });
  },
};

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: { main: path.join(here, 'src/main.js'), worker: path.join(here, 'src/worker.js') },
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  outdir: out,
  plugins: [examples],
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
// The licenses of the npm packages bundled in (all MIT, or MIT OR Apache-2.0), in one file.
const packages = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const input of Object.keys(output.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) packages.add(m[1]);
  }
}
const notices = [...packages].sort().map((name) => {
  const dir = path.join(here, 'node_modules', name);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = fs.readdirSync(dir).find((f) => /^licen[cs]e(-mit)?(\.|$)/i.test(f));
  if (!file) throw new Error(`${name}: no license file`);
  return `${name} ${meta.version} (${meta.license})\n\n${fs.readFileSync(path.join(dir, file), 'utf8').trim()}\n`;
});
fs.writeFileSync(path.join(out, 'licenses.txt'),
  `The srcls playground bundles these npm packages (main.js, worker.js):\n\n${notices.join('\n---\n\n')}`);
for (const f of ['index.html', 'style.css']) fs.copyFileSync(path.join(here, 'src', f), path.join(out, f));
fs.copyFileSync(wasm, path.join(out, 'srcls.wasm'));
// The page weight: every file the page loads, as stored and as a server's gzip sends it.
let total = 0;
let gzipped = 0;
const files = fs.readdirSync(out).sort();
for (const f of files) {
  const data = fs.readFileSync(path.join(out, f));
  const gz = zlib.gzipSync(data, { level: 9 }).length;
  total += data.length;
  gzipped += gz;
  console.log(`  ${f.padEnd(24)} ${String(data.length).padStart(9)} bytes, ${String(gz).padStart(8)} gzipped`);
}
console.log(`playground: ${out}: ${files.length} files, ${total} bytes, ${gzipped} gzipped`);
