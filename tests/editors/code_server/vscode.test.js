// The srcls extension in a real VS Code: code-server 4.100.3 in Debian's Chromium (session.js),
// the .vsix installed with `code-server --install-extension`, a workspace of copies of
// docs/examples and a team's project (buildTeam), made a git repository. Each test asserts on
// what a person sees, read from the page's DOM, and leaves a screenshot in SRCLS_SCREENSHOTS (the
// meson log folder): the Problems panel, a hover, the completion list, a quick fix applied, the
// srcls output channel; then a posture finding and a risky change against HEAD until committed,
// a placeholder hovered and completed, a baseline's hints and an "ignore" entry added.
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
const WHOLE_RUN_MS = 420000;
const PROBLEMS_FILTER = 'input[placeholder^="Filter (e.g."]';

let session = null;
let team = null; // the folder of the team's project (buildTeam)

/** git in cwd, with an identity and no user or system configuration. */
function git(cwd, ...args) {
  const r = childProcess.spawnSync('git', args, { cwd, encoding: 'utf8', timeout: 30000,
    env: { ...process.env, GIT_AUTHOR_NAME: 'srcls test', GIT_AUTHOR_EMAIL: 'test@127.0.0.1',
      GIT_COMMITTER_NAME: 'srcls test', GIT_COMMITTER_EMAIL: 'test@127.0.0.1',
      GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A team's project in workspace/team, and the workspace made a git repository with one commit
 * (the user settings review against HEAD): team/srcls.json with placeholders ("${NAME}"), a
 * baseline and an "ignore" entry; lake.source.json (a placeholder ${ENV}, an empty
 * assumedRoleARN, TLS on); legacy.source.json, whose out-of-range idleTimeSec the baseline holds,
 * whose quoted fetchSize the ignore entry silences, and whose unknown poolSize is new. */
function buildTeam(workspace) {
  const dir = path.join(workspace, 'team');
  fs.mkdirSync(dir);
  const example = (f) => fs.readFileSync(path.join(workspace, f), 'utf8');
  fs.writeFileSync(path.join(dir, 'lake.source.json'), example('03-object-storage-a.source.json')
    .replace('"rootPath": "/"', '"rootPath": "/data/${ENV}/raw"')
    .replace(/"assumedRoleARN": "[^"]*"/, '"assumedRoleARN": ""'));
  const legacy = example('13-relational-db.source.json')
    .replace('"fetchSize": 500', '"fetchSize": "500"').replace('"idleTimeSec": 60', '"idleTimeSec": -5');
  fs.writeFileSync(path.join(dir, 'legacy.source.json'), legacy);
  const r = childProcess.spawnSync(binary, ['--check', '--write-baseline', 'srcls-baseline.json',
    'legacy.source.json'], { cwd: dir, encoding: 'utf8', timeout: 30000 });
  assert.equal(r.status, 0, `srcls --write-baseline: ${r.stdout}${r.stderr}`);
  fs.writeFileSync(path.join(dir, 'legacy.source.json'),
    legacy.replace('"maxIdleConns": 8,', '"maxIdleConns": 8,\n    "poolSize": 4,'));
  fs.writeFileSync(path.join(dir, 'srcls.json'), `${JSON.stringify({
    placeholders: ['${NAME}'], baseline: 'srcls-baseline.json',
    ignore: [{ files: 'legacy.source.json', pointer: '/config/fetchSize', codes: ['type-mismatch'],
      reason: 'the importer writes numbers quoted' }],
  }, null, 2)}\n`);
  git(workspace, 'init', '-q', '-b', 'main');
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-q', '-m', 'the sources as reviewed');
  return dir;
}

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

/** srcls --check's findings for a file of the workspace, but those its srcls.json's baseline
 * holds: message, code, and position as the Problems panel writes it. */
function cliFindings(file) {
  const r = childProcess.spawnSync(binary, ['--check', '--format', 'json', file],
    { cwd: path.dirname(file), encoding: 'utf8', timeout: 30000 });
  assert.ok(r.stdout, `srcls --check --format json ${file}: no output (${r.stderr})`);
  // (the findings that a baseline holds are listed too, marked "baselined")
  return JSON.parse(r.stdout).files[0].diagnostics.filter((d) => !d.baselined).map((d) => ({
    message: d.message, code: d.code,
    at: `[Ln ${d.range.start.line + 1}, Col ${d.range.start.character + 1}]`,
  }));
}

/** Opens a file of the workspace with Quick Open, as a person does. */
async function openFile(relative) {
  const name = path.basename(relative);
  await chord('Control+KeyP');
  await session.page.waitForSelector('.quick-input-widget input', { visible: true });
  await session.page.keyboard.type(relative);
  await waitInPage(`${relative} in Quick Open`, (f) =>
    [...document.querySelectorAll('.quick-input-list .monaco-list-row')]
      .some((r) => (r.getAttribute('aria-label') || '').includes(f)), name);
  await session.page.keyboard.press('Enter');
  await waitInPage(`the editor of ${relative}`, (f) => {
    const tab = document.querySelector('.tab.active');
    return tab && tab.textContent.includes(f) && document.querySelector('.editor-instance .view-line');
  }, name);
}

/** Where characters [from, to) of the first editor line holding `needle` are shown (by default
 * the whole needle): the centre, and the left and right edges. */
async function textBox(needle, from = 0, to = needle.length) {
  return waitInPage(`${needle} in the editor`, (a) => {
    for (const line of document.querySelectorAll('.editor-instance .view-lines .view-line')) {
      const at = line.textContent.replace(/\u00a0/g, ' ').indexOf(a.needle);
      if (at < 0) continue;
      const start = at + a.from;
      const end = at + a.to;
      const range = document.createRange();
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      let pos = 0;
      let started = false;
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const len = n.textContent.length;
        if (!started && start < pos + len) {
          range.setStart(n, start - pos);
          started = true;
        }
        if (started && end <= pos + len) {
          range.setEnd(n, end - pos);
          const r = range.getBoundingClientRect();
          return { x: r.x + r.width / 2, y: r.y + r.height / 2, left: r.left, right: r.right };
        }
        pos += len;
      }
    }
    return null;
  }, { needle, from, to });
}

/** Ctrl+. at a point of the editor, and the quick fix titled `title` chosen; returns the titles
 * offered. */
async function applyQuickFix(point, title) {
  await session.page.mouse.click(point.x, point.y);
  await chord('Control+Period');
  let actions;
  try {
    actions = await waitInPage('the quick fixes', () => {
      const rows = [...document.querySelectorAll('.action-widget .monaco-list-row.action')];
      return rows.length ? rows.map((r) => r.innerText.trim()) : null;
    });
    await session.screenshot(`quick-fix-menu-${title.replace(/\W+/g, '-')}`);
  } catch (e) {
    await session.page.keyboard.press('Escape');
    throw e;
  }
  const index = actions.indexOf(title);
  if (index < 0) await session.page.keyboard.press('Escape');
  assert.ok(index >= 0, `"${title}" not among the quick fixes offered: ${JSON.stringify(actions)}`);
  await session.page.$$eval('.action-widget .monaco-list-row.action', (rows, i) => rows[i].click(), index);
  return actions;
}

/** The editor's text once it includes `wanted`. */
function editorShows(what, wanted) {
  return waitInPage(what, (w) => {
    const text = document.querySelector('.editor-instance .view-lines').textContent.replace(/\u00a0/g, ' ');
    return text.includes(w) ? text : null;
  }, wanted);
}

/** A file's text once check(text) holds (within 20 s), else the last text read. */
async function fileWhen(file, check) {
  const until = Date.now() + 20000;
  let text = '';
  for (;;) {
    text = fs.readFileSync(file, 'utf8');
    if (check(text) || Date.now() > until) return text;
    await sleep(200);
  }
}

/** Sets an enum setting in the Settings editor, as a person does (its drop-down, the keyboard),
 * checks that VS Code wrote it to the user settings.json, and closes the Settings editor.
 * (VS Code in code-server does not notice the file being written from outside.) */
async function chooseSetting(id, value) {
  await runCommand('Preferences: Open User Settings');
  await session.page.waitForSelector('.settings-editor .suggest-input-container', { visible: true });
  await chord('Control+KeyA'); // the search of the last time is still there
  await session.page.keyboard.type(id);
  const select = `.settings-editor select[aria-label="${id}"]`;
  await waitInPage(`the setting ${id}`, (sel) => {
    const e = document.querySelector(sel);
    return e && e.offsetParent !== null;
  }, select);
  await session.page.click(select);
  const options = await waitInPage(`the values of ${id}`, () => {
    const rows = [...document.querySelectorAll('.select-box-dropdown-list-container .monaco-list-row')];
    return rows.length ? rows.map((r) => ({ label: r.innerText.split('\n')[0].trim(),
      focused: r.classList.contains('focused') || r.classList.contains('selected') })) : null;
  });
  const from = options.findIndex((o) => o.focused);
  const to = options.findIndex((o) => o.label === value);
  assert.ok(to >= 0, `${value} among ${JSON.stringify(options)}`);
  for (let i = from; i < to; i++) await session.page.keyboard.press('ArrowDown');
  for (let i = from; i > to; i--) await session.page.keyboard.press('ArrowUp');
  await session.page.keyboard.press('Enter');
  await session.screenshot(`setting-${id}-${value}`);
  const file = path.join(session.userData, 'User', 'settings.json');
  const want = `"${id}": "${value}"`;
  const written = await fileWhen(file, (t) => t.includes(want) || (!t.includes(`"${id}"`) && value === 'hint'));
  assert.ok(written.includes(want) || value === 'hint', `settings.json:\n${written}`);
  // Closed with the close button of its tab.
  await session.page.$$eval('.tab', (tabs) => {
    const tab = tabs.find((t) => (t.getAttribute('aria-label') || '').startsWith('Settings'));
    tab.querySelector('.tab-actions .action-label').click();
  });
  await waitInPage('the Settings editor closed', () => !document.querySelector('.settings-editor'));
}

before(async () => {
  fs.mkdirSync(logDir, { recursive: true });
  for (const f of fs.readdirSync(logDir)) if (f.endsWith('.png')) fs.rmSync(path.join(logDir, f));
  session = new Session({ serverPath: binary, vsix, workspaceFrom: path.join(root, 'docs', 'examples'),
    logDir, chromium, settings: { 'srcls.reviewBase': 'HEAD' } });
  const start = Date.now();
  const installed = session.installExtension();
  assert.match(installed, /was successfully installed/);
  session.prepare((workspace) => { team = buildTeam(workspace); });
  await session.startCodeServer();
  await session.startBrowser();
  await session.openWorkbench();
  await openFile(FILE);
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

/** The Problems panel's rows for the files the filter matches (a glob such as `**\/NAME`), once
 * ready(rows) holds and nothing changed for 2 s (or after 30 s: the caller's assertions then say
 * what is missing). Each row: its aria-label, its text lines, and the severity its icon shows. */
async function problemRows(filter, ready) {
  await chord('Control+Shift+KeyM');
  await session.page.waitForSelector('.markers-panel', { visible: true });
  // Only these files, in a maximized panel, so that its virtual list shows every row at once.
  await runCommand('View: Toggle Maximized Panel');
  await session.page.waitForSelector(PROBLEMS_FILTER, { visible: true });
  await session.page.click(PROBLEMS_FILTER);
  await session.page.keyboard.type(filter);
  let rows = [];
  let stableSince = Date.now();
  const until = Date.now() + 30000;
  for (;;) {
    const now = await session.page.$$eval('.markers-panel .monaco-list-row', (els) => els.map((e) => {
      const icon = [...e.querySelectorAll('.marker-icon, .marker-icon *')].map((i) => i.className).join(' ');
      const severity = (icon.match(/codicon-(error|warning|info)\b/) || [])[1] || '';
      return { label: e.getAttribute('aria-label') || '', text: e.innerText.split('\n'), severity };
    }));
    if (JSON.stringify(now) !== JSON.stringify(rows)) {
      rows = now;
      stableSince = Date.now();
    }
    if (ready(rows) && Date.now() - stableSince >= 2000) break;
    if (Date.now() > until) break;
    await sleep(250);
  }
  await session.screenshot(`problems-${filter.replace(/\W+/g, '-').replace(/^-|-$/g, '')}`);
  return rows;
}

/** The Problems panel's marker rows (not the file rows) for a filter, as problemRows gives them,
 * the panel closed afterwards. */
async function problems(filter, ready) {
  let rows;
  try {
    rows = (await problemRows(filter, (rows) => ready(markersOf(rows)))).filter((r) => !isFileRow(r));
  } catch (e) {
    await session.screenshot(`failed-problems-${filter.replace(/\W+/g, '-')}`);
    await closeProblems().catch(() => {});
    throw e;
  }
  await closeProblems();
  return rows;
}

const isFileRow = (r) => /problems? in file/.test(r.label);
const markersOf = (rows) => rows.filter((r) => !isFileRow(r));
/** The marker rows that show a code (a line of their own in the row). */
const withCode = (rows, code) => rows.filter((r) => r.text.includes(code));
/** The code a marker row shows (srcls's codes are words joined by hyphens). */
const codeOf = (r) => r.text.find((t) => /^[a-z]+(-[a-z]+)+$/.test(t));

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
    // the filter applied (the panel may first show every file's rows) and the findings in
    rows = await problemRows(`**/${FILE}`, (now) =>
      now.filter(isFileRow).length === 1 &&
      now.filter((r) => r.label.endsWith('generated by srcls')).length >= expected.length);
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
  const actions = await applyQuickFix(await tokenCentre('"acessKey"'), 'Rename to "accessKey"');
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

const LAKE = 'team/lake.source.json';
const LEGACY = 'team/legacy.source.json';

test('an insecure setting: information, its risk hovered, a risky change until committed, the safer value as a quick fix', { timeout: 120000 }, async () => {
  await openFile(LAKE);
  // TLS turned off, as a person types it: the word selected with a double click, then typed over.
  const value = await textBox('"secure": true', '"secure": '.length);
  await session.page.mouse.click(value.right - 1, value.y);
  for (let i = 0; i < 'true'.length; i++) await session.page.keyboard.press('Backspace');
  await session.page.keyboard.type('false');
  await editorShows('TLS turned off in the editor', '"secure": false');
  let rows = await problems(`**/${LAKE}`, (m) =>
    withCode(m, 'risky-change').length > 0 && withCode(m, 'insecure-transport').length > 0);
  const shown = `the panel:\n${rows.map((r) => `${r.severity} ${r.text.join(' ')}`).join('\n')}`;
  const posture = withCode(rows, 'insecure-transport');
  assert.equal(posture.length, 1, shown);
  assert.equal(posture[0].severity, 'info', `a posture finding is information; ${shown}`);
  assert.match(posture[0].text[0], /^`secure` is false: the traffic between the service and the storage is not encrypted/);
  const risky = withCode(rows, 'risky-change');
  assert.equal(risky.length, 1, shown);
  assert.equal(risky[0].severity, 'warning', `risky-change is a warning; ${shown}`);
  assert.match(risky[0].text[0], /^insecure-transport since HEAD: `secure` is false/);
  assert.equal(rows.length, 2, shown);

  // The hover on the key says the risk.
  const key = await tokenCentre('"secure"');
  let blocks;
  try {
    await session.page.mouse.move(key.x - 20, key.y);
    await session.page.mouse.move(key.x, key.y, { steps: 4 });
    blocks = await hoverParts('Risk');
  } finally {
    await closeHover();
  }
  assert.equal(blocks.length, 1, `hover blocks:\n${blocks.join('\n----\n')}`);
  assert.match(blocks[0], /Risk/);
  assert.match(blocks[0], /insecure-transport/);
  assert.match(blocks[0], /not encrypted/);

  // Saved and committed: HEAD moves, the review's base with it, and the change is no longer new.
  await chord('Control+KeyS');
  const lake = path.join(session.workspace, LAKE);
  assert.match(await fileWhen(lake, (t) => t.includes('"secure": false')), /"secure": false/, 'saved');
  git(session.workspace, 'commit', '-q', '-am', 'TLS off: the traffic stays in the VPC');
  rows = await problems(`**/${LAKE}`, (m) => withCode(m, 'risky-change').length === 0);
  assert.deepEqual(rows.map((r) => [r.severity, codeOf(r)]),
    [['info', 'insecure-transport']], 'after the commit, the posture finding alone');

  // The quick fix sets the safer value, and the finding goes.
  await applyQuickFix(await tokenCentre('"secure"'), 'Set "secure" to true');
  await editorShows('TLS turned on by the quick fix', '"secure": true');
  await session.screenshot('posture-fixed');
  rows = await problems(`**/${LAKE}`, (m) => m.length === 0);
  assert.deepEqual(rows.map((r) => r.text.join(' ')), [], 'nothing left after the quick fix');
  await chord('Control+KeyS');
});

test('a placeholder: the hover names its variable, completion offers the project\'s variables', { timeout: 60000 }, async () => {
  await openFile(LAKE);
  const env = await textBox('${ENV}', 2, 5);
  let blocks;
  try {
    await session.page.mouse.move(env.x - 20, env.y);
    await session.page.mouse.move(env.x, env.y, { steps: 4 });
    blocks = await hoverParts('Placeholder');
  } finally {
    await closeHover();
  }
  assert.match(blocks.join('\n'), /Placeholder: the variable ENV/, `hover blocks:\n${blocks.join('\n----\n')}`);
  assert.match(blocks.join('\n'), /rootPath/, 'and the field, as on any value');

  // In the empty value of assumedRoleARN: the placeholder of the variable the project uses.
  const empty = await textBox('"assumedRoleARN": ""', '"assumedRoleARN": "'.length);
  await session.page.mouse.click(empty.left + 1, empty.y);
  let labels;
  try {
    await chord('Control+Space');
    labels = await completionLabels();
  } finally {
    await session.page.keyboard.press('Escape');
  }
  const index = labels.indexOf('"${ENV}"');
  assert.ok(index >= 0, `"\${ENV}" offered: ${labels.join(', ')}`);
  await session.page.mouse.click(empty.left + 1, empty.y);
  await chord('Control+Space');
  await waitInPage('the completion list', () => document.querySelector('.suggest-widget.visible .monaco-list-row'));
  for (let i = 0; i < index; i++) await session.page.keyboard.press('ArrowDown');
  await session.page.keyboard.press('Enter');
  const text = await editorShows('the placeholder completed', '"assumedRoleARN": "${ENV}"');
  await session.screenshot('placeholder-completed');
  assert.doesNotMatch(text, /"assumedRoleARN": ""/);
  await chord('Control+KeyZ');
  await editorShows('the completion undone', '"assumedRoleARN": ""');
});

test('the baseline\'s findings as hints (or shown), an ignore entry added by a quick fix', { timeout: 120000 }, async () => {
  await openFile(LEGACY);
  const legacy = path.join(team, 'legacy.source.json');
  const expected = cliFindings(legacy);
  assert.deepEqual(expected.map((f) => f.code), ['unknown-field'], 'srcls --check: the new finding alone');
  let rows = await problems(`**/${LEGACY}`, (m) => m.length >= 1);
  assert.deepEqual(rows.map((r) => [r.severity, r.text[0]]), [['warning', expected[0].message]],
    'the Problems panel: the new finding, not the baselined one, not the ignored one');
  // The baselined finding is a hint: the editor marks it (dots under the text), the panel does not list it.
  await waitInPage('the baselined finding marked as a hint', () =>
    document.querySelectorAll('.editor-instance .squiggly-hint').length === 1);
  await session.screenshot('baseline-hint');

  // srcls.baselineFindings "show": the baselined finding as any other.
  await chooseSetting('srcls.baselineFindings', 'show');
  rows = await problems(`**/${LEGACY}`, (m) => withCode(m, 'out-of-range').length === 1);
  assert.deepEqual(rows.map((r) => [r.severity, codeOf(r)]).sort(),
    [['error', 'out-of-range'], ['warning', 'unknown-field']], 'with baselineFindings "show"');
  await chooseSetting('srcls.baselineFindings', 'hint');
  rows = await problems(`**/${LEGACY}`, (m) => withCode(m, 'out-of-range').length === 0);
  assert.equal(rows.length, 1, 'back to hints');

  // Ignore the new finding: an entry appended to srcls.json, its reason left to write.
  await applyQuickFix(await tokenCentre('"poolSize"'), 'Ignore unknown-field here in srcls.json');
  // VS Code opens srcls.json with the entry, not saved: a tab marked changed, its problem listed.
  await waitInPage('srcls.json changed in a tab', () => [...document.querySelectorAll('.tab.dirty')]
    .some((t) => (t.getAttribute('aria-label') || '').startsWith('srcls.json')));
  // The workspace reviews against HEAD (srcls.reviewBase): an entry added weakens the gate.
  rows = await problems('**/team/srcls.json', (m) => withCode(m, 'project-config').length > 0 &&
    withCode(m, 'risky-change').length > 0);
  assert.deepEqual(rows.map((r) => [r.severity, codeOf(r)]).sort(),
    [['error', 'project-config'], ['warning', 'risky-change']],
    `the empty reason flagged, the entry reviewed: ${rows.map((r) => r.text[0])}`);
  assert.match(withCode(rows, 'project-config')[0].text[0],
    /^"reason" must be a non-empty string: why the finding is accepted/);
  assert.match(withCode(rows, 'risky-change')[0].text[0], /^"ignore" entry added or widened since HEAD/);
  await openFile('team/srcls.json');
  const shown = JSON.parse(await editorShows('the entry in srcls.json', '"/config/poolSize"'));
  assert.deepEqual(shown.ignore.slice(1), [{ files: 'legacy.source.json', pointer: '/config/poolSize',
    codes: ['unknown-field'], reason: '' }], 'the entry appended');
  // The reason typed where the check points, then saved.
  const reason = await textBox('"reason": ""', '"reason": "'.length);
  await session.page.mouse.click(reason.left + 1, reason.y);
  await session.page.keyboard.type('the pool is sized by the importer');
  await chord('Control+KeyS');
  const config = path.join(team, 'srcls.json');
  const saved = JSON.parse(await fileWhen(config, (t) => t.includes('the pool is sized by the importer')));
  assert.deepEqual(saved.ignore.slice(1), [{ files: 'legacy.source.json', pointer: '/config/poolSize',
    codes: ['unknown-field'], reason: 'the pool is sized by the importer' }], 'srcls.json saved');
  await session.screenshot('ignore-reason-written');
  rows = await problems(`**/${LEGACY}`, (m) => m.length === 0);
  assert.deepEqual(rows.map((r) => r.text.join(' ')), [], 'the ignored finding is gone');
  assert.deepEqual(cliFindings(legacy), [], 'srcls --check agrees');
});
