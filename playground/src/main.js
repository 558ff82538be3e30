// The srcls playground: CodeMirror 6 editors for a document and its srcls.json, the language
// server (srcls-reactor.wasm) in a Web Worker behind them. Diagnostics as you type (each code a
// link to its rule's docs, each quick fix a button that changes the text in place), completion,
// hover, fix-all, formatting, examples, the URL hash holding both texts, light and dark.
import { autocompletion } from '@codemirror/autocomplete';
import { json } from '@codemirror/lang-json';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorView, hoverTooltip, keymap } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import examples from 'srcls:examples';
import { Client, editChanges, renderMarkdown, snippetText, textEditChanges, toOffset, toPosition } from './lsp.js';

const DOC_URI = 'file:///playground/document.json';
const CONFIG_URI = 'file:///playground/srcls.json';
const SEVERITY = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

const $ = (id) => document.getElementById(id);

// ---- the URL hash: #doc=...&config=... (UTF-8, base64url) ----

function encode(text) {
  let binary = '';
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decode(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  try {
    return {
      doc: params.has('doc') ? decode(params.get('doc')) : null,
      config: params.has('config') ? decode(params.get('config')) : null,
    };
  } catch {
    return { doc: null, config: null };
  }
}

let hashTimer = 0;
function writeHash() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(() => {
    const params = new URLSearchParams();
    params.set('doc', encode(docView.state.doc.toString()));
    const config = configView.state.doc.toString();
    if (config.trim() !== '') params.set('config', encode(config));
    history.replaceState(null, '', `#${params}`);
  }, 200);
}

// ---- the server ----

const worker = new Worker('worker.js');
const client = new Client(worker);
const versions = { [DOC_URI]: 1, [CONFIG_URI]: 1 };
const published = { [DOC_URI]: [], [CONFIG_URI]: [] };
let views = {};
let ready = false;

function setStatus(text) {
  $('status').textContent = text;
}

client.on('$error', (message) => setStatus(`server error: ${message}`));
client.on('textDocument/publishDiagnostics', (params) => {
  const view = views[params.uri];
  if (view === undefined || (params.version !== undefined && params.version !== versions[params.uri])) return;
  published[params.uri] = params.diagnostics;
  showDiagnostics(params.uri, params.diagnostics);
});

function docLink(code, href) {
  const a = document.createElement('a');
  a.className = 'code';
  a.textContent = code;
  if (href) {
    a.href = href;
    a.target = '_blank';
    a.rel = 'noopener';
  }
  return a;
}

async function quickFixes(uri, diagnostic) {
  const actions = await client.request('textDocument/codeAction', {
    textDocument: { uri },
    range: diagnostic.range,
    context: { diagnostics: [diagnostic], only: ['quickfix'] },
  });
  return (actions || []).filter((a) => a.edit);
}

// A WorkspaceEdit applied in place, to the document and to srcls.json (a fix that ignores a
// finding there, or turns a rule off, edits that one).
function applyEdit(edit) {
  for (const [uri, view] of Object.entries(views)) {
    const changes = editChanges(view.state.doc, edit, uri);
    if (changes.length > 0) view.dispatch({ changes, userEvent: 'input.fix' });
  }
}

async function showDiagnostics(uri, diagnostics) {
  const view = views[uri];
  const version = versions[uri];
  const fixes = await Promise.all(diagnostics.map((d) => quickFixes(uri, d).catch(() => [])));
  if (version !== versions[uri]) return; // the text changed meanwhile: newer ones follow
  const doc = view.state.doc;
  const list = diagnostics.map((d, i) => ({
    from: toOffset(doc, d.range.start),
    to: toOffset(doc, d.range.end),
    severity: SEVERITY[d.severity] || 'info',
    source: 'srcls',
    message: d.message,
    renderMessage() {
      const span = document.createElement('span');
      span.append(`${d.message} `, docLink(d.code, d.codeDescription?.href));
      return span;
    },
    actions: fixes[i].map((a) => ({ name: a.title, apply: () => applyEdit(a.edit) })),
  }));
  view.dispatch(setDiagnostics(view.state, list));
  if (uri === DOC_URI) listFindings(diagnostics, fixes);
  else $('config-findings').textContent = diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message} [${d.code}]`).join('\n');
}

function listFindings(diagnostics, fixes) {
  const list = $('findings');
  list.replaceChildren();
  $('findings-count').textContent = diagnostics.length === 0 ? 'no findings' :
    `${diagnostics.length} finding${diagnostics.length === 1 ? '' : 's'}`;
  diagnostics.forEach((d, i) => {
    const li = document.createElement('li');
    li.className = `finding ${SEVERITY[d.severity] || 'info'}`;
    li.dataset.code = d.code;
    const where = document.createElement('button');
    where.className = 'where';
    where.textContent = `${d.range.start.line + 1}:${d.range.start.character + 1}`;
    where.title = 'go to';
    where.onclick = () => {
      const at = toOffset(docView.state.doc, d.range.start);
      docView.dispatch({ selection: { anchor: at }, scrollIntoView: true });
      docView.focus();
    };
    const message = document.createElement('span');
    message.className = 'message';
    message.textContent = d.message;
    li.append(where, `${SEVERITY[d.severity] || 'info'} `, message, ' ', docLink(d.code, d.codeDescription?.href));
    for (const a of fixes[i]) {
      const fix = document.createElement('button');
      fix.className = 'fix';
      fix.textContent = a.title;
      fix.onclick = () => applyEdit(a.edit);
      li.append(' ', fix);
    }
    list.appendChild(li);
  });
}

// ---- completion, hover, formatting, fix-all ----

async function complete(context) {
  const doc = context.state.doc;
  const word = context.matchBefore(/[\w$.-]*/);
  if (!context.explicit && word === null) return null;
  const result = await client.request('textDocument/completion', {
    textDocument: { uri: DOC_URI },
    position: toPosition(doc, context.pos),
  });
  const items = Array.isArray(result) ? result : result?.items || [];
  if (items.length === 0) return null;
  // As LSP says: the client matches an item's filterText against the text from its edit's start
  // to the cursor (a key's filterText holds its quotes, as that text does).
  const range = items[0].textEdit?.range || items[0].textEdit?.insert;
  const from = range ? Math.min(toOffset(doc, range.start), context.pos) : word ? word.from : context.pos;
  return {
    from,
    options: items.map((item) => ({
      label: item.filterText || item.label,
      displayLabel: item.label,
      detail: item.detail,
      info: typeof item.documentation === 'string' ? item.documentation : item.documentation?.value,
      apply(view, _completion, from, to) {
        const edit = item.textEdit;
        const range = edit?.range || edit?.replace;
        const raw = edit ? edit.newText : item.insertText || item.label;
        const { text, cursor } = item.insertTextFormat === 2 ? snippetText(raw) : { text: raw, cursor: raw.length };
        const start = range ? toOffset(view.state.doc, range.start) : from;
        const end = range ? Math.max(toOffset(view.state.doc, range.end), to) : to;
        const extra = textEditChanges(view.state.doc, item.additionalTextEdits);
        view.dispatch({
          changes: [{ from: start, to: end, insert: text }, ...extra],
          selection: { anchor: start + cursor },
          userEvent: 'input.complete',
        });
      },
    })),
  };
}

const hover = hoverTooltip(async (view, pos) => {
  const result = await client.request('textDocument/hover', {
    textDocument: { uri: DOC_URI },
    position: toPosition(view.state.doc, pos),
  }).catch(() => null);
  if (!result || !result.contents) return null;
  const contents = Array.isArray(result.contents) ? result.contents : [result.contents];
  const markdown = contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n\n');
  if (markdown.trim() === '') return null;
  const from = result.range ? toOffset(view.state.doc, result.range.start) : pos;
  const to = result.range ? toOffset(view.state.doc, result.range.end) : pos;
  return {
    pos: from,
    end: to,
    create: () => {
      const dom = renderMarkdown(markdown);
      dom.classList.add('hover');
      return { dom };
    },
  };
});

async function format() {
  const edits = await client.request('textDocument/formatting', {
    textDocument: { uri: DOC_URI },
    options: { tabSize: 2, insertSpaces: true },
  });
  const changes = textEditChanges(docView.state.doc, edits);
  if (changes.length > 0) docView.dispatch({ changes, userEvent: 'input.format' });
}

async function fixAll() {
  const doc = docView.state.doc;
  const actions = await client.request('textDocument/codeAction', {
    textDocument: { uri: DOC_URI },
    range: { start: { line: 0, character: 0 }, end: toPosition(doc, doc.length) },
    context: { diagnostics: published[DOC_URI], only: ['source.fixAll.srcls'] },
  });
  const action = (actions || []).find((a) => a.edit);
  if (action) applyEdit(action.edit);
  else setStatus('fix all: nothing to fix');
}

// ---- the editors ----

if (!document.documentElement.dataset.theme)
  document.documentElement.dataset.theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
const theme = new Compartment();
const dark = () => document.documentElement.dataset.theme === 'dark';
const themeOf = () => (dark() ? oneDark : []);

function editor(parent, text, uri, extensions) {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        basicSetup,
        json(),
        lintGutter(),
        theme.of(themeOf()),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) changed(uri, update.state.doc.toString());
        }),
        ...extensions,
      ],
    }),
  });
}

// srcls.json is open in the server (for its own findings) while it holds something: an empty
// panel is no srcls.json at all, as an absent file is.
const open = { [DOC_URI]: false, [CONFIG_URI]: false };
function sync(uri, text) {
  const wanted = uri === DOC_URI || text.trim() !== '';
  if (wanted && !open[uri]) {
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: versions[uri], text } });
  } else if (wanted) {
    client.notify('textDocument/didChange', { textDocument: { uri, version: versions[uri] }, contentChanges: [{ text }] });
  } else if (open[uri]) {
    client.notify('textDocument/didClose', { textDocument: { uri } });
    views[uri].dispatch(setDiagnostics(views[uri].state, []));
    $('config-findings').textContent = '';
  }
  open[uri] = wanted;
}

let configTimer = 0;
function changed(uri, text) {
  versions[uri] += 1;
  if (ready) sync(uri, text);
  if (uri === CONFIG_URI) {
    clearTimeout(configTimer);
    configTimer = setTimeout(() => configChanged(text), 150);
  }
  writeHash();
}

// srcls.json: the worker's file replaced, then the server told it changed (as an editor's file
// watcher would): its rules apply to the document at once.
let configExists = false;
function configChanged(text) {
  const exists = text.trim() !== '';
  worker.postMessage({ type: 'config', text });
  const type = exists ? (configExists ? 2 : 1) : 3;
  configExists = exists;
  client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: CONFIG_URI, type }] });
}

const initial = readHash();
const firstExample = examples.find((e) => e.name.startsWith('bad-object-storage')) || examples[0];
const docText = initial.doc ?? firstExample.text;
const configText = initial.config ?? '';
configExists = configText.trim() !== '';

const docView = editor($('document'), docText, DOC_URI, [
  autocompletion({ override: [complete] }),
  hover,
  keymap.of([{ key: 'Shift-Alt-f', run: () => (format(), true) }]),
]);
const configView = editor($('config'), configText, CONFIG_URI, []);
views = { [DOC_URI]: docView, [CONFIG_URI]: configView };

// ---- the page ----

for (const e of examples) {
  const option = document.createElement('option');
  option.value = e.name;
  option.textContent = e.name;
  $('examples').appendChild(option);
}
$('examples').onchange = (event) => {
  const e = examples.find((x) => x.name === event.target.value);
  if (e) docView.dispatch({ changes: { from: 0, to: docView.state.doc.length, insert: e.text } });
};
$('format').onclick = () => format().catch((e) => setStatus(e.message));
$('fix-all').onclick = () => fixAll().catch((e) => setStatus(e.message));
$('share').onclick = async () => {
  clearTimeout(hashTimer);
  const params = new URLSearchParams();
  params.set('doc', encode(docView.state.doc.toString()));
  if (configView.state.doc.toString().trim() !== '') params.set('config', encode(configView.state.doc.toString()));
  history.replaceState(null, '', `#${params}`);
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus('link copied');
  } catch {
    setStatus('link in the address bar');
  }
};
$('theme').onclick = () => {
  document.documentElement.dataset.theme = dark() ? 'light' : 'dark';
  for (const view of Object.values(views)) view.dispatch({ effects: theme.reconfigure(themeOf()) });
};

worker.addEventListener('message', async ({ data }) => {
  if (data.type !== 'ready') return;
  const result = await client.request('initialize', {
    processId: null,
    rootUri: 'file:///playground',
    workspaceFolders: [{ uri: 'file:///playground', name: 'playground' }],
    capabilities: {
      textDocument: {
        publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true },
        completion: { completionItem: { snippetSupport: true } },
        hover: { contentFormat: ['markdown', 'plaintext'] },
      },
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, configuration: true },
    },
  });
  client.notify('initialized', {});
  $('version').textContent = `srcls ${result.serverInfo?.version || ''}`.trim();
  ready = true;
  sync(DOC_URI, docView.state.doc.toString());
  sync(CONFIG_URI, configView.state.doc.toString());
  setStatus('ready');
  document.body.dataset.ready = 'true';
});
worker.postMessage({ type: 'start', wasm: 'srcls.wasm', config: configText });
