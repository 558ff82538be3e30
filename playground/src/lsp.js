// The page's side of the language server: a client over the Web Worker (worker.js) speaking
// LSP, and the conversions between LSP positions (UTF-16 lines and characters) and CodeMirror's
// offsets (UTF-16 too).

export class Client {
  constructor(worker) {
    this.worker = worker;
    this.nextId = 1;
    this.waiting = new Map();
    this.handlers = new Map(); // notifications from the server, by method
    worker.addEventListener('message', ({ data }) => {
      if (data.type === 'lsp') data.messages.forEach((m) => this.receive(m));
      else if (data.type === 'error') this.fail(data.message);
    });
  }

  fail(message) {
    for (const { reject } of this.waiting.values()) reject(new Error(message));
    this.waiting.clear();
    this.handlers.get('$error')?.(message);
  }

  receive(m) {
    if (m.id !== undefined && m.method === undefined) {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (w === undefined) return;
      if (m.error) w.reject(new Error(m.error.message));
      else w.resolve(m.result);
    } else if (m.id !== undefined) {
      this.post({ jsonrpc: '2.0', id: m.id, result: this.answer(m) });
    } else {
      this.handlers.get(m.method)?.(m.params);
    }
  }

  // What the client answers a request of the server's.
  answer(m) {
    if (m.method === 'workspace/configuration') return (m.params?.items || []).map(() => null);
    return null;
  }

  post(message) {
    this.worker.postMessage({ type: 'lsp', messages: [message] });
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.post({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.post({ jsonrpc: '2.0', method, params });
  }

  on(method, handler) {
    this.handlers.set(method, handler);
  }
}

export function toOffset(doc, position) {
  if (position.line >= doc.lines) return doc.length;
  const line = doc.line(position.line + 1);
  return Math.min(line.from + position.character, line.to);
}

export function toPosition(doc, offset) {
  const line = doc.lineAt(offset);
  return { line: line.number - 1, character: offset - line.from };
}

// The CodeMirror changes of an LSP WorkspaceEdit for `uri`, in the order CodeMirror wants.
export function editChanges(doc, edit, uri) {
  let edits = edit?.changes?.[uri] || [];
  for (const change of edit?.documentChanges || []) {
    if (change.textDocument?.uri === uri) edits = edits.concat(change.edits);
  }
  return textEditChanges(doc, edits);
}

export function textEditChanges(doc, edits) {
  return (edits || []).map((e) => ({
    from: toOffset(doc, e.range.start),
    to: toOffset(doc, e.range.end),
    insert: e.newText,
  }));
}

// An LSP snippet as plain text and where the cursor goes (its first tab stop, else its end).
export function snippetText(snippet) {
  let text = '';
  let cursor = -1;
  const re = /\$\{(\d+)(?::((?:[^}\\]|\\.)*))?\}|\$(\d+)|\\(.)/g;
  let last = 0;
  for (let m; (m = re.exec(snippet)) !== null;) {
    text += snippet.slice(last, m.index);
    last = re.lastIndex;
    if (m[4] !== undefined) {
      text += m[4];
      continue;
    }
    if (cursor < 0 && (m[1] || m[3]) !== '0') cursor = text.length;
    text += (m[2] || '').replace(/\\(.)/g, '$1');
  }
  text += snippet.slice(last);
  return { text, cursor: cursor < 0 ? text.length : cursor };
}

// A small Markdown to DOM rendering for hover texts: paragraphs, lists, `code`, **bold**,
// [links](...), code blocks.
export function renderMarkdown(markdown) {
  const root = document.createElement('div');
  root.className = 'markdown';
  const blocks = markdown.split(/\n{2,}/);
  for (const block of blocks) {
    if (block.startsWith('```')) {
      const pre = document.createElement('pre');
      pre.textContent = block.replace(/^```[^\n]*\n?/, '').replace(/\n?```$/, '');
      root.appendChild(pre);
      continue;
    }
    const p = document.createElement('p');
    block.split('\n').forEach((line, i) => {
      if (i > 0) p.appendChild(document.createElement('br'));
      inline(p, line);
    });
    root.appendChild(p);
  }
  return root;
}

function inline(parent, text) {
  const re = /`([^`]+)`|\*\*((?:[^*]|\*(?!\*))+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m; (m = re.exec(text)) !== null;) {
    parent.appendChild(document.createTextNode(text.slice(last, m.index)));
    last = re.lastIndex;
    let node;
    if (m[1] !== undefined) {
      node = document.createElement('code');
      node.textContent = m[1];
    } else if (m[2] !== undefined) {
      node = document.createElement('strong');
      inline(node, m[2]);
    } else {
      node = document.createElement('a');
      node.textContent = m[3];
      node.href = m[4];
      node.target = '_blank';
      node.rel = 'noopener';
    }
    parent.appendChild(node);
  }
  parent.appendChild(document.createTextNode(text.slice(last)));
}
