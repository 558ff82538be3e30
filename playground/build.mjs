// Builds the playground into OUT (tools/playground.sh: dist/playground/): main.js and worker.js
// bundled by esbuild (minified, no source maps), the page and its style, the examples of
// docs/examples/ bundled in (one module, srcls:examples), and srcls.wasm (the reactor build).
//   node build.mjs OUT SRCLS_REACTOR_WASM
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
await build({
  entryPoints: { main: path.join(here, 'src/main.js'), worker: path.join(here, 'src/worker.js') },
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  outdir: out,
  plugins: [examples],
  legalComments: 'linked',
  logLevel: 'warning',
});
for (const f of ['index.html', 'style.css']) fs.copyFileSync(path.join(here, 'src', f), path.join(out, f));
fs.copyFileSync(wasm, path.join(out, 'srcls.wasm'));
let total = 0;
for (const f of fs.readdirSync(out)) total += fs.statSync(path.join(out, f)).size;
console.log(`playground: ${out}: ${fs.readdirSync(out).length} files, ${total} bytes`);
