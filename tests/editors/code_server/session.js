// One VS Code session for the test: code-server (VS Code in a browser) on 127.0.0.1 with a
// fresh user-data and extensions folder and the srcls .vsix installed, and Debian's Chromium,
// headless, driven by puppeteer-core, showing a workspace of copies of docs/examples. Every wait
// is bounded; stop() ends both by their PIDs (their process groups: code-server's extension host
// and the srcls server under it, Chromium's renderers), on failure too.
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');
const puppeteer = require('puppeteer-core');

const here = __dirname;
const codeServerEntry = path.join(here, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

// The flags the test needs in this sandbox: without the networking ones Chromium opens
// connections that are refused many at a time.
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage', '--window-size=1400,900',
];

/** The user settings: srcls's server path, nothing that reaches out or gets in the way, and
 * `extra`. */
function userSettings(serverPath, extra) {
  return {
    'srcls.serverPath': serverPath,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'security.workspace.trust.enabled': false,
    'chat.commandCenter.enabled': false,
    'git.enabled': false,
    'files.autoSave': 'off',
    'editor.hover.delay': 200,
    'editor.minimap.enabled': false,
    ...extra,
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function httpStatus(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/** Whether a process group still has a member. */
function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The processes (other than this one) whose command line or working folder is under dir: what
 * left its process group (the srcls server runs in the workspace folder). */
function processesUnder(dir) {
  const found = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      let cwd = '';
      try { cwd = fs.readlinkSync(`/proc/${name}/cwd`); } catch { /* not ours to read */ }
      if (cmdline.includes(dir) || cwd.startsWith(dir)) found.push(`${name} ${cmdline.trim()}`);
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** SIGTERM to the group of pid, SIGKILL after graceMs if anything of it is left. */
async function stopGroup(pid, graceMs) {
  if (!pid || !groupAlive(pid)) return;
  try { process.kill(-pid, 'SIGTERM'); } catch { /* gone meanwhile */ }
  const until = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < until) await sleep(100);
  if (groupAlive(pid)) {
    try { process.kill(-pid, 'SIGKILL'); } catch { /* gone meanwhile */ }
    const hard = Date.now() + 5000;
    while (groupAlive(pid) && Date.now() < hard) await sleep(100);
  }
}

class Session {
  constructor({ serverPath, vsix, workspaceFrom, logDir, chromium, settings = {} }) {
    this.serverPath = serverPath;
    this.settings = settings;
    this.vsix = vsix;
    this.workspaceFrom = workspaceFrom;
    this.logDir = logDir;
    this.chromium = chromium;
    this.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'srcls-code-server-'));
    this.userData = path.join(this.tmp, 'user-data');
    this.extensions = path.join(this.tmp, 'extensions');
    this.workspace = path.join(this.tmp, 'workspace');
    this.codeServer = null;
    this.codeServerLog = path.join(logDir, 'code-server.log');
    this.browser = null;
    this.browserPid = 0;
    this.page = null;
    this.timings = {};
    this.shots = 0;
    // A test run that dies still ends what it started (synchronously: 'exit' allows no waiting);
    // so does one stopped by a signal (meson's timeout sends SIGTERM), which skips 'exit' handlers.
    this.onExit = () => this.killNow();
    this.onSignal = (signal) => {
      console.error(`vscode-real: ${signal}: stopping code-server and Chromium`);
      this.killNow();
      fs.rmSync(this.tmp, { recursive: true, force: true });
      process.exit(128 + os.constants.signals[signal]);
    };
    process.on('exit', this.onExit);
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, this.onSignal);
  }

  /** code-server with this session's folders; extra arguments after them. */
  codeServerArgs(extra) {
    return [codeServerEntry, '--config', path.join(this.tmp, 'config.yaml'),
      '--user-data-dir', this.userData, '--extensions-dir', this.extensions, ...extra];
  }

  codeServerEnv() {
    // code-server keeps its logs and default config under XDG folders: ours, not the user's.
    return { ...process.env, XDG_CONFIG_HOME: path.join(this.tmp, 'xdg-config'),
      XDG_DATA_HOME: path.join(this.tmp, 'xdg-data'), XDG_CACHE_HOME: path.join(this.tmp, 'xdg-cache'),
      VSCODE_CLI_TELEMETRY_OPTOUT: '1' };
  }

  timed(name, start) {
    this.timings[name] = Date.now() - start;
  }

  /** Installs the .vsix the way a user does; returns code-server's output. */
  installExtension() {
    const start = Date.now();
    fs.writeFileSync(path.join(this.tmp, 'config.yaml'), 'auth: none\n');
    const r = childProcess.spawnSync(process.execPath,
      this.codeServerArgs(['--install-extension', this.vsix, '--force']),
      { env: this.codeServerEnv(), encoding: 'utf8', timeout: 90000, killSignal: 'SIGKILL' });
    this.timed('install-extension', start);
    const output = `${r.stdout || ''}${r.stderr || ''}`;
    if (r.status !== 0 || r.error) {
      throw new Error(`code-server --install-extension ${this.vsix} failed (${r.error || r.status}):\n${output}`);
    }
    return output;
  }

  /** The workspace (copies of docs/examples, then what setup(workspace) adds) and the user
   * settings (the session's `settings` over the defaults). */
  prepare(setup = () => {}) {
    fs.cpSync(this.workspaceFrom, this.workspace, { recursive: true });
    setup(this.workspace);
    const userDir = path.join(this.userData, 'User');
    fs.mkdirSync(userDir, { recursive: true });
    fs.writeFileSync(path.join(userDir, 'settings.json'),
      JSON.stringify(userSettings(this.serverPath, this.settings), null, 2));
  }

  async startCodeServer() {
    const start = Date.now();
    this.port = await freePort();
    const log = fs.openSync(this.codeServerLog, 'w');
    this.codeServer = childProcess.spawn(process.execPath, this.codeServerArgs([
      '--bind-addr', `127.0.0.1:${this.port}`, '--auth', 'none', '--disable-telemetry',
      '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
      '--disable-proxy', '--disable-file-downloads', '--ignore-last-opened', this.workspace,
    ]), { env: this.codeServerEnv(), stdio: ['ignore', log, log], detached: true });
    fs.closeSync(log);
    let exited = null;
    this.codeServer.on('exit', (code, signal) => { exited = signal || code; });
    const url = `http://127.0.0.1:${this.port}/healthz`;
    const until = Date.now() + 60000;
    for (;;) {
      if (exited !== null) {
        throw new Error(`code-server exited (${exited}) before it served:\n${this.codeServerOutput()}`);
      }
      if (await httpStatus(url) === 200) break;
      if (Date.now() > until) throw new Error(`code-server did not answer ${url} within 60 s`);
      await sleep(200);
    }
    this.timed('code-server-ready', start);
  }

  codeServerOutput() {
    try {
      return fs.readFileSync(this.codeServerLog, 'utf8');
    } catch {
      return '';
    }
  }

  async startBrowser() {
    const start = Date.now();
    this.browser = await puppeteer.launch({
      executablePath: this.chromium,
      headless: true,
      args: CHROMIUM_ARGS,
      userDataDir: path.join(this.tmp, 'chromium'),
      defaultViewport: { width: 1400, height: 900 },
      timeout: 60000,
      protocolTimeout: 60000,
      // This session stops Chromium itself (stop(), the exit handler), by its PID.
      handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
    });
    this.browserPid = this.browser.process().pid;
    this.page = await this.browser.newPage();
    this.page.setDefaultTimeout(30000);
    this.timed('chromium-started', start);
  }

  /** The workbench of the workspace folder, loaded and with the srcls extension activated. */
  async openWorkbench() {
    const start = Date.now();
    const url = `http://127.0.0.1:${this.port}/?folder=${encodeURIComponent(this.workspace)}`;
    await this.page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
    await this.page.waitForSelector('.monaco-workbench .part.editor', { timeout: 60000 });
    await this.page.waitForSelector('.monaco-workbench .explorer-folders-view', { timeout: 60000 });
    this.timed('workbench-loaded', start);
  }

  async screenshot(name) {
    if (!this.page) return null;
    this.shots += 1;
    const file = path.join(this.logDir, `${String(this.shots).padStart(2, '0')}-${name}.png`);
    try {
      await this.page.screenshot({ path: file });
      return file;
    } catch {
      return null;
    }
  }

  /** Synchronous last resort: SIGKILL to both process groups. */
  killNow() {
    for (const pid of [this.codeServer && this.codeServer.pid, this.browserPid]) {
      if (pid && groupAlive(pid)) {
        try { process.kill(-pid, 'SIGKILL'); } catch { /* gone meanwhile */ }
      }
    }
  }

  /** Ends Chromium and code-server by their PIDs and removes the temporary folder; returns what
   * was still running afterwards (nothing, when all went well): process groups left alive, and
   * processes anywhere that run in or on the temporary folder (killed then). */
  async stop() {
    const start = Date.now();
    if (this.browser) {
      await Promise.race([this.browser.close().catch(() => {}), sleep(5000)]);
    }
    await stopGroup(this.browserPid, 3000);
    await stopGroup(this.codeServer && this.codeServer.pid, 5000);
    const left = [this.browserPid, this.codeServer && this.codeServer.pid]
      .filter((p) => p && groupAlive(p)).map((p) => `process group ${p}`);
    for (const p of processesUnder(this.tmp)) {
      left.push(p);
      try { process.kill(Number(p.split(' ')[0]), 'SIGKILL'); } catch { /* ended meanwhile */ }
    }
    process.removeListener('exit', this.onExit);
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.removeListener(signal, this.onSignal);
    fs.rmSync(this.tmp, { recursive: true, force: true, maxRetries: 3 });
    this.timed('stopped', start);
    return left;
  }
}

module.exports = { Session, sleep };
