// The playground's Web Worker: srcls-reactor.wasm (server/main/reactor.c), the language server
// as a WebAssembly reactor. The page posts LSP messages; each batch goes through srcls_feed in one
// call (nothing blocks, no SharedArrayBuffer) and the messages the server sent in answer are
// posted back. The server reads srcls.json from disk: here an in-memory directory, /playground,
// preopened through @bjorn3/browser_wasi_shim, whose srcls.json the page replaces ("config").
import { ConsoleStdout, File, OpenFile, PreopenDirectory, WASI } from '@bjorn3/browser_wasi_shim';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const root = new PreopenDirectory('/playground', []);
let server = null;

function setConfig(text) {
  if (text.trim() === '') root.dir.contents.delete('srcls.json');
  else root.dir.contents.set('srcls.json', new File(encoder.encode(text)));
}

async function start(wasmUrl) {
  const fds = [
    new OpenFile(new File([])),
    ConsoleStdout.lineBuffered(() => {}),
    ConsoleStdout.lineBuffered((line) => console.warn(`[srcls] ${line}`)),
    root,
  ];
  const wasi = new WASI(['srcls'], [], fds);
  // Compiled as it downloads when the server says application/wasm; any static server will do,
  // though: otherwise from the whole file.
  const imports = { wasi_snapshot_preview1: wasi.wasiImport };
  const response = await fetch(wasmUrl);
  if (!response.ok) throw new Error(`${wasmUrl}: HTTP ${response.status}`);
  const { instance } = response.headers.get('Content-Type') === 'application/wasm'
    ? await WebAssembly.instantiateStreaming(response, imports)
    : await WebAssembly.instantiate(await response.arrayBuffer(), imports);
  wasi.initialize(instance);
  server = instance.exports;
}

// Frames `messages`, feeds them as one batch, and returns the messages of the answer.
function feed(messages) {
  const parts = messages.map((m) => {
    const body = encoder.encode(JSON.stringify(m));
    return [encoder.encode(`Content-Length: ${body.length}\r\n\r\n`), body];
  }).flat();
  const len = parts.reduce((n, p) => n + p.length, 0);
  const at = server.srcls_input(len);
  if (at === 0) throw new Error('srcls: out of memory');
  let offset = at;
  for (const p of parts) {
    new Uint8Array(server.memory.buffer, offset, p.length).set(p);
    offset += p.length;
  }
  const n = server.srcls_feed(len);
  if (n < 0) throw new Error('srcls: the server could not handle the message');
  const out = new Uint8Array(server.memory.buffer, server.srcls_output(), n).slice();
  const answers = [];
  let pos = 0;
  while (pos < out.length) {
    let headerEnd = pos; // the header ends at \r\n\r\n
    while (headerEnd + 3 < out.length && !(out[headerEnd] === 13 && out[headerEnd + 1] === 10 &&
        out[headerEnd + 2] === 13 && out[headerEnd + 3] === 10)) headerEnd++;
    const header = decoder.decode(out.subarray(pos, headerEnd));
    const length = Number(/Content-Length: *(\d+)/i.exec(header)[1]);
    const bodyAt = headerEnd + 4;
    answers.push(JSON.parse(decoder.decode(out.subarray(bodyAt, bodyAt + length))));
    pos = bodyAt + length;
  }
  return answers;
}

self.onmessage = async ({ data }) => {
  try {
    if (data.type === 'start') {
      setConfig(data.config);
      await start(data.wasm);
      self.postMessage({ type: 'ready' });
    } else if (data.type === 'config') {
      setConfig(data.text);
    } else if (data.type === 'lsp') {
      self.postMessage({ type: 'lsp', messages: feed(data.messages) });
    }
  } catch (error) {
    self.postMessage({ type: 'error', message: String(error && error.message || error) });
  }
};
