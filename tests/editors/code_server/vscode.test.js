// The srcls extension in a real VS Code: code-server 4.100.3 in Debian's Chromium (session.js),
// the .vsix installed with `code-server --install-extension`, a workspace of copies of
// docs/examples. Each test asserts on what a person sees, read from the page's DOM, and leaves a
// screenshot in SRCLS_SCREENSHOTS (the meson log folder): the Problems panel, a hover, the
// completion list, a quick fix applied, the srcls output channel.
//
//   SRCLS_BINARY=build/server/srcls SRCLS_SOURCE_ROOT=. tests/editors/code_server/run.sh
'use strict';

const assert = require('node:assert/strict');
const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { after, before, test } = require('node:test');
const { Session, sleep } = require('./session');

const root = path.resolve(process.env.SRCLS_SOURCE_ROOT || path.join(__dirname, '..', '..', '..'));
const binary = path.resolve(process.env.SRCLS_BINARY || path.join(root, 'build', 'server', 'srcls'));
const vsix = path.resolve(process.env.SRCLS_VSIX || path.join(root, 'editors', 'vscode', 'srcls.vsix'));
const logDir = path.resolve(process.env.SRCLS_SCREENSHOTS ||
  fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-code-server-shots-')));
const chromium = process.env.SRCLS_CHROMIUM || '/usr/bin/chromium';

const FILE = 'bad-object-storage.source.json';
// What VS Code's own JSON support says when it validates a document against a JSON Schema: none
// of it may show beside srcls's findings.
const JSON_SCHEMA_MESSAGES = /is not allowed|Missing property|does not match the pattern|Incorrect type|Value is not accepted/;
const WHOLE_RUN_MS = 240000;
const PROBLEMS_FILTER = 'input[placeholder^="Filter (e.g."]';

let session = null;

// Nothing may hang: past this the processes are killed and the run fails.
const watchdog = setTimeout(() => {
  console.error(`vscode-real: the whole run took over ${WHOLE_RUN_MS / 1000} s; stopping`);
  if (session) session.killNow();
  process.exit(1);
}, WHOLE_RUN_MS);
watchdog.unref();

/** Presses a chord such as 'Control+Shift+KeyM'. */
async function chord(keys) {
  const parts = keys.split('+');
  const mods = parts.slice(0, -1);
  for (const k of mods) await session.page.keyboard.down(k);
  await session.page.keyboard.press(parts[parts.length - 1]);
  for (const k of mods.reverse()) await session.page.keyboard.up(k);
}

/** Polls fn (in the page) until it returns a truthy value; fails naming what did not happen. */
async function waitInPage(what, fn, arg, timeout = 20000) {
  try {
    const handle = await session.page.waitForFunction(fn, { timeout, polling: 200 }, arg);
    return await handle.jsonValue();
  } catch (e) {
    await session.screenshot(`timeout-${what.replace(/\W+/g, '-')}`);
    throw new Error(`waited ${timeout / 1000} s for ${what}: ${e.message}`);
  }
}

/** Runs a command from the command palette by its title. */
async function runCommand(title) {
  await session.page.keyboard.press('F1');
  await session.page.waitForSelector('.quick-input-widget input', { visible: true });
  await session.page.keyboard.type(title);
  await waitInPage(`the command "${title}"`, (t) =>
    [...document.querySelectorAll('.quick-input-list .monaco-list-row')]
      .some((r) => (r.getAttribute('aria-label') || '').startsWith(t)), title);
  await session.page.keyboard.press('Enter');
}

/** The centre of the first token of the editor that reads `text` exactly. */
async function tokenCentre(text) {
  return waitInPage(`${text} in the editor`, (t) => {
    for (const span of document.querySelectorAll('.editor-instance .view-lines .view-line span span')) {
      if (span.textContent === t) {
        const r = span.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }
    }
    return null;
  }, text);
}

/** The editor's lines as shown. */
function editorText() {
  return session.page.evaluate(() => [...document.querySelectorAll('.editor-instance .view-lines .view-line')]
    .map((l) => ({ top: parseFloat(l.style.top), text: l.textContent.replace(/\u00a0/g, ' ') }))
    .sort((a, b) => a.top - b.top).map((l) => l.text).join('\n'));
}

/** srcls --check's findings for a file of the workspace: message, code, and position as the
 * Problems panel writes it. */
function cliFindings(file) {
  const r = childProcess.spawnSync(binary, ['--check', '--format', 'json', file],
    { cwd: path.dirname(file), encoding: 'utf8', timeout: 30000 });
  assert.ok(r.stdout, `srcls --check --format json ${file}: no output (${r.stderr})`);
  return JSON.parse(r.stdout).files[0].diagnostics.map((d) => ({
    message: d.message, code: d.code,
    at: `[Ln ${d.range.start.line + 1}, Col ${d.range.start.character + 1}]`,
  }));
}

before(async () => {
  fs.mkdirSync(logDir, { recursive: true });
  for (const f of fs.readdirSync(logDir)) if (f.endsWith('.png')) fs.rmSync(path.join(logDir, f));
  session = new Session({ serverPath: binary, vsix, workspaceFrom: path.join(root, 'docs', 'examples'),
    logDir, chromium });
  const start = Date.now();
  const installed = session.installExtension();
  assert.match(installed, /was successfully installed/);
  session.prepare();
  await session.startCodeServer();
  await session.startBrowser();
  await session.openWorkbench();
  // Quick Open, as a person opens a file.
  await chord('Control+KeyP');
  await session.page.waitForSelector('.quick-input-widget input', { visible: true });
  await session.page.keyboard.type(FILE);
  await waitInPage(`${FILE} in Quick Open`, (f) =>
    [...document.querySelectorAll('.quick-input-list .monaco-list-row')]
      .some((r) => (r.getAttribute('aria-label') || '').includes(f)), FILE);
  await session.page.keyboard.press('Enter');
  await waitInPage(`the editor of ${FILE}`, (f) => {
    const tab = document.querySelector('.tab.active');
    return tab && tab.textContent.includes(f) && document.querySelector('.editor-instance .view-line');
  }, FILE);
  session.timed('session-ready', start);
}, { timeout: 180000 });

after(async () => {
  clearTimeout(watchdog);
  if (!session) return;
  const timings = session.timings;
  const left = await session.stop();
  console.log(`vscode-real timings (ms): ${JSON.stringify(timings)}`);
  console.log(`vscode-real screenshots and code-server.log: ${logDir}`);
  assert.deepEqual(left, [], 'code-server or Chromium left running after the session');
});

/** The Problems panel's rows for FILE, once srcls's findings are in and nothing changed for 2 s. */
async function problemRows(expected) {
  await chord('Control+Shift+KeyM');
  await session.page.waitForSelector('.markers-panel', { visible: true });
  // Only this file, in a maximized panel, so that its virtual list shows every row of it at once.
  await runCommand('View: Toggle Maximized Panel');
  await session.page.waitForSelector(PROBLEMS_FILTER, { visible: true });
  await session.page.click(PROBLEMS_FILTER);
  await session.page.keyboard.type(`**/${FILE}`);
  let rows = [];
  let stableSince = Date.now();
  const until = Date.now() + 30000;
  for (;;) {
    const now = await session.page.$$eval('.markers-panel .monaco-list-row',
      (els) => els.map((e) => ({ label: e.getAttribute('aria-label') || '', text: e.innerText.split('\n') })));
    if (JSON.stringify(now) !== JSON.stringify(rows)) {
      rows = now;
      stableSince = Date.now();
    }
    const fromSrcls = rows.filter((r) => r.label.endsWith('generated by srcls')).length;
    if (fromSrcls >= expected && Date.now() - stableSince >= 2000) break;
    if (Date.now() > until) break;
    await sleep(250);
  }
  await session.screenshot('problems');
  return rows;
}

/** Empties the Problems filter, restores the panel's size and hides it. */
async function closeProblems() {
  await session.page.click(PROBLEMS_FILTER, { clickCount: 3 });
  await session.page.keyboard.press('Backspace');
  await runCommand('View: Toggle Maximized Panel');
  await runCommand('View: Hide Panel');
  await waitInPage('the panel hidden', () => {
    const panel = document.querySelector('.markers-panel');
    return !panel || panel.offsetParent === null;
  });
}

test('the Problems panel shows each srcls finding once, and no JSON Schema finding', { timeout: 90000 }, async () => {
  const expected = cliFindings(path.join(session.workspace, FILE));
  assert.ok(expected.length >= 5, `srcls --check finds ${expected.length} problems in ${FILE}`);
  let rows;
  try {
    rows = await problemRows(expected.length);
  } finally {
    await closeProblems();
  }
  const resource = rows.filter((r) => /problems? in file/.test(r.label));
  assert.equal(resource.length, 1, `one file in the filtered panel: ${JSON.stringify(resource)}`);
  const markers = rows.filter((r) => !/problems? in file/.test(r.label));
  const shown = markers.map((r) => `${r.text.join(' ')}`);
  const panel = `the panel:\n${shown.join('\n')}`;
  for (const f of expected) {
    const same = markers.filter((r) => r.text[0] === f.message && r.text.includes(f.code) &&
      r.text.includes(f.at));
    assert.equal(same.length, 1, `"${f.message}" [${f.code}] ${f.at} shown ${same.length} times; ${panel}`);
  }
  assert.deepEqual(shown.filter((s) => JSON_SCHEMA_MESSAGES.test(s)), [],
    `findings of VS Code's JSON Schema validation beside srcls's; ${panel}`);
  assert.equal(markers.length, expected.length,
    `the panel shows ${markers.length} problems for ${FILE}, srcls finds ${expected.length}; ${panel}`);
  // The count in the file's row says the same: nothing was left out of view.
  assert.match(resource[0].label, new RegExp(`^${expected.length} problems? in file`));
});

/** The parts of the hover shown, once one mentions `word` and a second provider had its time. */
async function hoverParts(word) {
  const parts = () => {
    const hover = document.querySelector('.monaco-hover:not(.hidden) .monaco-hover-content');
    return hover ? [...hover.querySelectorAll('.hover-row')].map((r) => r.innerText.trim()).filter(Boolean) : [];
  };
  await waitInPage(`the hover of ${word}`, (w) => {
    const hover = document.querySelector('.monaco-hover:not(.hidden) .monaco-hover-content');
    return hover && hover.textContent.includes(w);
  }, word);
  await sleep(1000);
  await session.screenshot('hover');
  return session.page.evaluate(parts);
}

/** Moves the mouse away from the text and closes the hover, so that it covers nothing a later
 * test clicks. */
async function closeHover() {
  const box = await session.page.$eval('.editor-instance .view-lines', (e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x + r.width - 40, y: r.y + r.height - 40 };
  });
  await session.page.mouse.move(box.x, box.y, { steps: 4 });
  await session.page.keyboard.press('Escape');
  await waitInPage('the hover closed', () => !document.querySelector('.monaco-hover:not(.hidden) .hover-row'));
}

test('hovering a key shows srcls\'s hover once', { timeout: 60000 }, async () => {
  await session.page.click('.editor-instance .view-lines');
  const key = await tokenCentre('"credentialType"');
  let blocks;
  try {
    await session.page.mouse.move(key.x - 20, key.y);
    await session.page.mouse.move(key.x, key.y, { steps: 4 });
    blocks = await hoverParts('credentialType');
  } finally {
    await closeHover();
  }
  assert.equal(blocks.length, 1, `hover blocks:\n${blocks.join('\n----\n')}`);
  // srcls's hover: the field, its type, its values with their meaning, the description.
  assert.match(blocks[0], /credentialType\s+— a string/);
  assert.match(blocks[0], /ACCESS_KEY\s+— An access key/);
  assert.equal(blocks[0].split('An access key (accessKey) and its secret').length - 1, 1,
    `the value's meaning is shown once: ${blocks[0]}`);
});

test('a quick fix renames "acessKey" to "accessKey" in the editor', { timeout: 60000 }, async () => {
  assert.match(await editorText(), /"acessKey": "AKIAEXAMPLE"/);
  const typo = await tokenCentre('"acessKey"');
  await session.page.mouse.click(typo.x, typo.y);
  await chord('Control+Period');
  let actions;
  try {
    actions = await waitInPage('the quick fixes', () => {
      const rows = [...document.querySelectorAll('.action-widget .monaco-list-row.action')];
      return rows.length ? rows.map((r) => r.innerText.trim()) : null;
    });
    await session.screenshot('quick-fix-menu');
  } catch (e) {
    await session.page.keyboard.press('Escape');
    throw e;
  }
  const index = actions.indexOf('Rename to "accessKey"');
  if (index < 0) await session.page.keyboard.press('Escape');
  assert.ok(index >= 0, `quick fixes offered: ${JSON.stringify(actions)}`);
  await session.page.$$eval('.action-widget .monaco-list-row.action', (rows, i) => rows[i].click(), index);
  await waitInPage('the renamed key in the editor', () => {
    const text = document.querySelector('.editor-instance .view-lines').textContent.replace(/\u00a0/g, ' ');
    return text.includes('"accessKey": "AKIAEXAMPLE"') && !text.includes('"acessKey"');
  });
  await session.screenshot('quick-fix-applied');
  await closeHover();
  // The outline follows the edit: the breadcrumbs at the cursor name the key as it now is.
  await waitInPage('the breadcrumbs naming the renamed key', () => {
    const items = [...document.querySelectorAll('.breadcrumbs-control .monaco-breadcrumb-item')]
      .map((e) => e.textContent.trim());
    return items.includes('accessKey') && !items.includes('acessKey') ? items : null;
  }, undefined, 10000);
  await session.screenshot('quick-fix-breadcrumbs');
  const text = await editorText();
  assert.match(text, /"accessKey": "AKIAEXAMPLE",/);
  assert.doesNotMatch(text, /acessKey/);
  assert.equal(new Set(actions).size, actions.length, `a quick fix offered twice: ${JSON.stringify(actions)}`);
});

/** Every label of the completion list shown (a virtual list: walked with the arrow key). */
async function completionLabels() {
  const setSize = await waitInPage('the completion list', () => {
    const row = document.querySelector('.suggest-widget.visible .monaco-list-row');
    return row && Number(row.getAttribute('aria-setsize'));
  });
  await session.screenshot('completion');
  const labels = new Map();
  for (let step = 0; step <= setSize + 1 && labels.size < setSize; step++) {
    const visible = await session.page.$$eval('.suggest-widget.visible .monaco-list-row', (rows) =>
      rows.map((r) => [Number(r.getAttribute('aria-posinset')),
        (r.querySelector('.label-name') || r).textContent.trim()]));
    for (const [pos, label] of visible) labels.set(pos, label);
    await session.page.keyboard.press('ArrowDown');
  }
  assert.equal(labels.size, setSize, `read ${labels.size} of the ${setSize} items`);
  return [...labels.values()];
}

test('completion in a config object lists each label once', { timeout: 60000 }, async () => {
  const line = await tokenCentre('"credentialType"');
  await session.page.mouse.click(line.x, line.y);
  await session.page.keyboard.press('End');
  await session.page.keyboard.press('Enter');
  let all;
  try {
    await chord('Control+Space');
    all = await completionLabels();
  } finally {
    await session.page.keyboard.press('Escape');
    await chord('Control+KeyZ');
  }
  // A key of the kind that the document does not hold yet: srcls's list for this config object.
  assert.ok(all.includes('whitelistedBuckets'), `whitelistedBuckets is offered: ${all.join(', ')}`);
  const twice = all.filter((l, i) => all.indexOf(l) !== i);
  assert.deepEqual(twice, [], `labels offered more than once, in ${all.length}: ${all.join(', ')}`);
});

test('the srcls output channel shows the server started', { timeout: 60000 }, async () => {
  const version = childProcess.spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
  await runCommand('Output: Show Output Channels');
  const channels = await waitInPage('the list of output channels', () => {
    const rows = [...document.querySelectorAll('.quick-input-list .monaco-list-row')];
    return rows.length ? rows.map((r) => r.getAttribute('aria-label')) : null;
  });
  assert.equal(channels.filter((c) => c === 'srcls').length, 1, `output channels: ${channels.join(', ')}`);
  await session.page.keyboard.type('srcls');
  await session.page.keyboard.press('Enter');
  const shown = await waitInPage('the srcls output', (v) => {
    const lines = document.querySelector('.output-view .view-lines');
    const text = lines ? lines.innerText.replace(/\u00a0/g, ' ') : '';
    return text.includes(v) ? text : null;
  }, version);
  await session.screenshot('output');
  assert.ok(shown.includes(`using ${binary} (setting): ${version}`), `the srcls output:\n${shown}`);
  assert.doesNotMatch(shown, /\[error\]/);
});
