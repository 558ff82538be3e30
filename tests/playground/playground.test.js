// The playground (dist/playground/, tools/playground.sh) in Debian's Chromium, headless, driven by
// puppeteer-core (playground/node_modules: it downloads no browser), served from 127.0.0.1 by a
// static server in this test. What a person does, through the page's DOM and keyboard: typing a
// misspelt key shows the finding, completion and hover appear, a quick fix changes the text, a
// srcls.json rule set to off removes its findings, fix-all and formatting change the text, the
// examples picker, themes, a shared URL restores the document and srcls.json, and no request leaves
// the page's origin. Screenshots go to SRCLS_SCREENSHOTS.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { after, before, test } = require('node:test');

const root = process.env.SRCLS_SOURCE_ROOT;
const site = process.env.SRCLS_PLAYGROUND;
const shots = process.env.SRCLS_SCREENSHOTS;
const puppeteer = require(require.resolve('puppeteer-core', { paths: [path.join(root, 'playground')] }));

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.txt': 'text/plain' };
let server;
let origin;
let browser;
let browserPid;
const requests = [];

function serve() {
  return new Promise((resolve) => {
    server = http.createServer((req, res) => {
      // /plain/...: the site as a static server that knows no WebAssembly type serves it
      let name = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      const plain = name.startsWith('/plain/');
      if (plain) name = name.slice('/plain'.length);
      if (name === '/') name = '/index.html';
      const file = path.join(site, path.normalize(name));
      if (!file.startsWith(site) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        res.writeHead(404);
        res.end();
        return;
      }
      const type = TYPES[path.extname(file)] || 'application/octet-stream';
      res.writeHead(200, { 'Content-Type': plain && type === 'application/wasm' ? 'application/octet-stream' : type });
      fs.createReadStream(file).pipe(res);
    });
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`));
  });
}

async function shot(page, name) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

async function open(url) {
  const page = await browser.newPage();
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => requests.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') console.log(`[page] ${m.text()}`); });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return page;
}

// The document's text as CodeMirror shows it (a small document: every line is in the DOM).
const text = (page, id = 'document') =>
  page.$$eval(`#${id} .cm-line`, (lines) => lines.map((l) => l.textContent).join('\n'));
const codes = (page) => page.$$eval('#findings li', (items) => items.map((li) => li.dataset.code));

// Replaces the whole text of an editor by typing it (CodeMirror closes brackets and quotes as
// they are typed, and steps over the closing ones typed after).
async function retype(page, id, value) {
  await page.click(`#${id} .cm-content`);
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(value);
}

// Puts the cursor at the end of line `n` (1-based) of the document.
async function endOfLine(page, n) {
  await page.click('#document .cm-content');
  await page.keyboard.down('Control');
  await page.keyboard.press('Home');
  await page.keyboard.up('Control');
  for (let i = 1; i < n; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
}

const GOOD = `{
  "name": "raw-landing-zone",
  "type": "CLOUDA_OBJECT_STORAGE",
  "config": {
    "credentialType": "ACCESS_KEY",
    "accessSecret": "\${SECRET}",
    "accessKey": "AKIAEXAMPLE"
  }
}`;

function hashOf(doc, config) {
  const b64 = (s) => Buffer.from(s, 'utf8').toString('base64url');
  return `#doc=${b64(doc)}${config ? `&config=${b64(config)}` : ''}`;
}

before(async () => {
  origin = await serve();
  browser = await puppeteer.launch({
    executablePath: process.env.SRCLS_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-dev-shm-usage', '--window-size=1400,900'],
    defaultViewport: { width: 1400, height: 900 },
    timeout: 60000,
    protocolTimeout: 60000,
    handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
  });
  browserPid = browser.process().pid;
});

after(async () => {
  await browser?.close().catch(() => {});
  try { process.kill(browserPid, 'SIGKILL'); } catch { /* closed */ }
  server?.close();
});

test('the server starts in the worker and says its version', async (t) => {
  const started = Date.now();
  const page = await open(`${origin}/${hashOf(GOOD)}`);
  t.diagnostic(`page load to the server's answer to initialize: ${Date.now() - started} ms`);
  const version = await page.$eval('#version', (e) => e.textContent);
  assert.match(version, /^srcls \d+\.\d+/);
  assert.equal(await text(page), GOOD);
  await page.waitForFunction(() => document.getElementById('findings-count').textContent !== '');
  await shot(page, 'start');
  await page.close();
});

test('typing a misspelt key shows the finding, with a link to the rule; its quick fix changes the text', async () => {
  const page = await open(`${origin}/${hashOf(GOOD)}`);
  await endOfLine(page, 7);
  await page.keyboard.type(',');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"isCachingEnabeld": false');
  await page.waitForSelector('#findings li[data-code="unknown-field"]', { timeout: 10000 });
  const finding = await page.$eval('#findings li[data-code="unknown-field"]', (li) => ({
    message: li.querySelector('.message').textContent,
    href: li.querySelector('a.code').getAttribute('href'),
    fixes: [...li.querySelectorAll('button.fix')].map((b) => b.textContent),
  }));
  assert.match(finding.message, /isCachingEnabeld/);
  assert.match(finding.href, /rules\.md#unknown-field$/);
  assert.ok(finding.fixes.some((f) => /isCachingEnabled/.test(f)), JSON.stringify(finding.fixes));
  // the same finding in the editor: its gutter marker and underline
  assert.ok(await page.$('#document .cm-lint-marker-warning, #document .cm-lint-marker-error'));
  await shot(page, 'finding');
  await page.click('#findings li[data-code="unknown-field"] button.fix');
  await page.waitForFunction(() => !document.querySelector('#findings li[data-code="unknown-field"]'), { timeout: 10000 });
  const fixed = await text(page);
  assert.match(fixed, /"isCachingEnabled": false/);
  assert.doesNotMatch(fixed, /isCachingEnabeld/);
  await shot(page, 'quick-fix-applied');
  await page.close();
});

test('completion lists the fields of the kind, and picking one inserts it', async () => {
  const page = await open(`${origin}/${hashOf(GOOD)}`);
  await endOfLine(page, 7);
  await page.keyboard.type(',');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"isCach');
  await page.waitForSelector('.cm-tooltip-autocomplete li', { timeout: 10000 });
  const labels = await page.$$eval('.cm-tooltip-autocomplete li', (items) => items.map((li) => li.textContent));
  assert.ok(labels.some((l) => l.includes('isCachingEnabled')), labels.join(' | '));
  // filtered by what was typed, as LSP's filterText says
  assert.ok(labels.every((l) => /isCach/i.test(l)), labels.join(' | '));
  await shot(page, 'completion');
  // picked with the mouse: the list that shows is the one picked from
  const items = await page.$$('.cm-tooltip-autocomplete li');
  await items[labels.findIndex((l) => l.includes('isCachingEnabled'))].click();
  await page.waitForFunction(() => [...document.querySelectorAll('#document .cm-line')]
    .some((l) => l.textContent.includes('"isCachingEnabled"')), { timeout: 10000 });
  // the key in its quotes once, its value's snippet in place, nothing of what was typed left over
  assert.match(await text(page), /\n {4}"isCachingEnabled": true\n {2}\}/);
  await shot(page, 'completion-applied');
  await page.close();
});

test('hovering a key shows its documentation', async () => {
  const page = await open(`${origin}/${hashOf(GOOD)}`);
  const box = await page.evaluateHandle(() => {
    const line = [...document.querySelectorAll('#document .cm-line')].find((l) => l.textContent.includes('credentialType'));
    const range = document.createRange();
    const node = [...line.querySelectorAll('span')].find((s) => s.textContent.includes('credentialType')) || line;
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  const { x, y } = await box.jsonValue();
  await page.mouse.move(x, y);
  await page.waitForSelector('.cm-tooltip-hover .hover', { timeout: 10000 });
  const hover = await page.$eval('.cm-tooltip-hover .hover', (e) => e.textContent);
  assert.match(hover, /credentialType/);
  await shot(page, 'hover');
  await page.close();
});

test('a srcls.json rule set to off removes its findings at once', async () => {
  const bad = GOOD.replace('"accessKey"', '"acessKey"');
  const page = await open(`${origin}/${hashOf(bad)}`);
  await page.waitForSelector('#findings li[data-code="unknown-field"]', { timeout: 10000 });
  await retype(page, 'config', '{"rules": {"unknown-field": "off"}}');
  assert.equal(await text(page, 'config'), '{"rules": {"unknown-field": "off"}}');
  await page.waitForFunction(() => !document.querySelector('#findings li[data-code="unknown-field"]'), { timeout: 10000 });
  await shot(page, 'config-off');
  // and back: the rule on again brings the finding back
  await retype(page, 'config', '{"rules": {"unknown-field": "error"}}');
  await page.waitForSelector('#findings li.error[data-code="unknown-field"]', { timeout: 10000 });
  await page.close();
});

test('a quick fix that edits srcls.json changes the srcls.json panel in place', async () => {
  const page = await open(`${origin}/${hashOf(GOOD.replace('"accessKey"', '"acessKey"'), '{}')}`);
  const selector = '#findings li[data-code="unknown-field"] button.fix';
  await page.waitForSelector(selector, { timeout: 10000 });
  const titles = await page.$$eval(selector, (b) => b.map((x) => x.textContent));
  const ignore = titles.findIndex((t) => /srcls\.json/.test(t));
  assert.ok(ignore >= 0, titles.join(' | '));
  await (await page.$$(selector))[ignore].click();
  // the entry the fix writes, its reason left for the user to give
  await page.waitForFunction(() => [...document.querySelectorAll('#config .cm-line')]
    .some((l) => l.textContent.includes('"codes": ["unknown-field"]')), { timeout: 10000 });
  assert.match(await text(page, 'config'), /"ignore": \[\n.*"pointer": "\/config\/acessKey"/);
  assert.match(await text(page), /"acessKey"/); // the document itself unchanged
  await shot(page, 'ignored-in-config');
  await page.close();
});

test('fix all and format change the text in place', async () => {
  const bad = '{"name":"raw-landing-zone","type":"CLOUDA_OBJECT_STORAGE","config":{"credentialType":"ACCESS_KEY","accessSecret":"${SECRET}","acessKey":"AKIAEXAMPLE"}}';
  const page = await open(`${origin}/${hashOf(bad)}`);
  await page.waitForSelector('#findings li[data-code="unknown-field"]', { timeout: 10000 });
  await page.click('#fix-all');
  await page.waitForFunction(() => !document.querySelector('#findings li[data-code="unknown-field"]'), { timeout: 10000 });
  assert.match(await text(page), /"accessKey"/);
  await page.click('#format');
  await page.waitForFunction(() => document.querySelectorAll('#document .cm-line').length > 3, { timeout: 10000 });
  assert.match(await text(page), /\n {2}"name": "raw-landing-zone",\n/);
  await shot(page, 'fixed-and-formatted');
  await page.close();
});

test('the examples cover every kind and the job document; dark and light', async () => {
  const page = await open(`${origin}/`);
  const names = await page.$$eval('#examples option', (o) => o.map((x) => x.value).filter(Boolean));
  const onDisk = fs.readdirSync(path.join(root, 'docs', 'examples')).filter((f) => f.endsWith('.json'));
  assert.deepEqual(names.sort(), onDisk.sort());
  assert.ok(names.filter((n) => n.endsWith('.source.json') && /^\d\d-/.test(n)).length >= 25);
  await page.select('#examples', 'job-running.job.json');
  await page.waitForFunction(() => [...document.querySelectorAll('#document .cm-line')]
    .some((l) => l.textContent.includes('jobState')), { timeout: 5000 });
  const before = await page.evaluate(() => document.documentElement.dataset.theme);
  const bg = () => page.$eval('#document .cm-editor', (e) => getComputedStyle(e).backgroundColor);
  const bgBefore = await bg();
  await page.click('#theme');
  const afterTheme = await page.evaluate(() => document.documentElement.dataset.theme);
  assert.notEqual(afterTheme, before);
  assert.notEqual(await bg(), bgBefore);
  await shot(page, `theme-${afterTheme}`);
  await page.close();
});

test('a shared URL restores the document and srcls.json', async () => {
  const page = await open(`${origin}/`);
  await retype(page, 'document', '{"type": "SQL_SERVER", "nmae": 1}');
  await retype(page, 'config', '{"rules": {"unknown-field": "off"}}');
  const doc = await text(page);
  const config = await text(page, 'config');
  await page.click('#share');
  const url = await page.evaluate(() => location.href);
  assert.match(url, /#doc=.+&config=.+/);
  await page.close();
  const again = await open(url);
  assert.equal(await text(again), doc);
  assert.equal(await text(again, 'config'), config);
  await shot(again, 'shared-url');
  await again.close();
});

test('a damaged link opens the first example instead', async () => {
  const page = await open(`${origin}/#doc=%%%not-base64&config=@@`);
  assert.match(await text(page), /"acessKey"/); // bad-object-storage.source.json
  assert.equal(await text(page, 'config'), '');
  await page.close();
});

test('a static server that sends srcls.wasm as application/octet-stream will do', async () => {
  const page = await open(`${origin}/plain/${hashOf(GOOD.replace('"accessKey"', '"acessKey"'))}`);
  await page.waitForSelector('#findings li[data-code="unknown-field"]', { timeout: 10000 });
  assert.ok(requests.includes(`${origin}/plain/srcls.wasm`));
  await page.close();
});

test('nothing is fetched from another origin', () => {
  assert.ok(requests.length > 0);
  const foreign = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, []);
  assert.ok(requests.some((u) => u === `${origin}/srcls.wasm`), 'srcls.wasm fetched from the page\'s origin');
});
