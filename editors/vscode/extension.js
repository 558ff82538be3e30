// The VS Code side of srcls: gives source and job documents the language srcls-json (so that
// VS Code's own JSON features leave them to srcls), finds the server, starts it with
// vscode-languageclient, keeps its settings in step with the `srcls.*` configuration, asks for
// workspace diagnostics only when something changed, and says clearly what went wrong when it
// cannot start. The decisions live in lib/ (free of `vscode`, tested under plain Node).
'use strict';

const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const config = require('./lib/config');
const { PullGate, affectsWorkspace, workspaceDiagnosticsMiddleware } = require('./lib/pull-gate');

const OPEN_GUIDE = 'Open install guide';
const OPEN_SETTINGS = 'Open settings';
const SHOW_OUTPUT = 'Show output';

let client = null;
let outputChannel = null;
let settings = { srcls: { severity: {}, types: {} } };
let starting = null;
let kindGlobs = []; // the kind files of the workspace's srcls.json "schemas"
let pullGate = new PullGate(); // the running client's workspace/diagnostic requests wait here
const recentlyClosed = new Set(); // URIs closed in this tick: an open now is a language change

/** The globs of the kind files that the workspace's srcls.json files name in "schemas". */
async function findKindGlobs() {
  const found = await vscode.workspace.findFiles('**/srcls.json', '**/node_modules/**', 100);
  const configs = [];
  for (const uri of found) {
    try {
      configs.push({ path: uri.fsPath, text: fs.readFileSync(uri.fsPath, 'utf8') });
    } catch {
      // unreadable: the server says so when a document under it is opened
    }
  }
  return config.kindFileGlobs(configs);
}

function section() {
  return vscode.workspace.getConfiguration('srcls');
}

function firstWorkspaceFolder() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length > 0 ? folders[0].uri.fsPath : undefined;
}

async function showStartError(context, message) {
  outputChannel.appendLine(`[error] ${message}`);
  const choice = await vscode.window.showErrorMessage(message, OPEN_GUIDE, OPEN_SETTINGS, SHOW_OUTPUT);
  if (choice === OPEN_GUIDE) {
    const readme = vscode.Uri.joinPath(context.extensionUri, 'README.md')
      .with({ fragment: config.DOCS_ANCHOR });
    await vscode.commands.executeCommand('markdown.showPreview', readme);
  } else if (choice === OPEN_SETTINGS) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'srcls.serverPath');
  } else if (choice === SHOW_OUTPUT) {
    outputChannel.show(true);
  }
}

function reportSettingProblems(problems) {
  if (problems.length === 0) return;
  for (const p of problems) outputChannel.appendLine(`[settings] ${p}`);
  vscode.window.showWarningMessage(`srcls: ${problems[0]}` +
    (problems.length > 1 ? ` (and ${problems.length - 1} more; see the srcls output)` : ''));
}

function pushSettings() {
  if (!client || !client.isRunning()) return Promise.resolve();
  return client.sendNotification('workspace/didChangeConfiguration', { settings });
}

/**
 * Gives `document` the srcls language when it is a JSON file srcls serves that VS Code did not
 * give it from the manifest's file name patterns (a srcls.files glob, a kind file, or a broad
 * files.associations entry such as "*.json": "jsonc"). Not when it was reopened in this tick:
 * that is a language change, and one to JSON by the user stays.
 */
function adoptDocument(document) {
  const uri = document.uri;
  if (recentlyClosed.has(uri.toString())) return;
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const candidate = {
    scheme: uri.scheme,
    languageId: document.languageId,
    fsPath: uri.fsPath,
    relativePath: folder ? path.relative(folder.uri.fsPath, uri.fsPath) : undefined,
  };
  const associations = vscode.workspace.getConfiguration('files').get('associations');
  if (!config.adoptLanguage(candidate, section().get('files'), kindGlobs, associations)) return;
  Promise.resolve(vscode.languages.setTextDocumentLanguage(document, config.LANGUAGE_ID)).catch((e) => {
    outputChannel.appendLine(`[warning] ${uri.fsPath}: could not set the language: ${e && e.message ? e.message : e}`);
  });
}

function adoptOpenDocuments() {
  for (const document of vscode.workspace.textDocuments) adoptDocument(document);
}

function onDocumentClosed(document) {
  const key = document.uri.toString();
  recentlyClosed.add(key);
  setImmediate(() => recentlyClosed.delete(key));
  // its workspace report goes back to the file on disk
  if (document.languageId === config.LANGUAGE_ID) pullGate.changed();
}

async function startClient(context) {
  const sec = section();
  const found = config.findServer({
    configured: sec.get('serverPath'),
    workspaceFolder: firstWorkspaceFolder(),
    extensionPath: context.extensionPath,
  });
  if (!found.path) {
    outputChannel.appendLine(`[error] looked in: ${found.tried.join(', ')}`);
    showStartError(context, found.error);
    return false;
  }
  const probe = config.probeServer(found);
  if (!probe.ok) {
    showStartError(context, `The srcls language server cannot be started: ${probe.error}`);
    return false;
  }
  outputChannel.appendLine(`[info] using ${found.path} (${found.source}): ${probe.version}`);

  const opts = config.clientOptions(sec);
  settings = opts.settings;
  reportSettingProblems(opts.problems);

  pullGate.release();
  pullGate = new PullGate();
  const serverOptions = config.serverCommand(found, ['--stdio']);
  const clientOptions = {
    documentSelector: opts.documentSelector,
    initializationOptions: opts.initializationOptions,
    outputChannel,
    middleware: {
      // An untitled JSON buffer is served in case it holds a source; one that does not gets no
      // unknown-document warning (pushed or pulled).
      handleDiagnostics: (uri, diagnostics, next) =>
        next(uri, uri.scheme === 'untitled' ? config.untitledDiagnostics(diagnostics) : diagnostics),
      provideDiagnostics: async (document, previousResultId, token, next) => {
        const report = await next(document, previousResultId, token);
        const uri = document.uri || document;
        if (report && report.kind === 'full' && uri.scheme === 'untitled') {
          report.items = config.untitledDiagnostics(report.items);
        }
        return report;
      },
      // vscode-languageclient asks again 2 s after every answer, for as long as it runs: each
      // request waits until something changed (lib/pull-gate.js).
      provideWorkspaceDiagnostics: workspaceDiagnosticsMiddleware(pullGate),
      workspace: {
        // The server may ask for its settings rather than wait for them to be pushed: answer
        // with the same cleaned-up object, not VS Code's raw section.
        configuration: (params) => config.configurationResponse(params.items, settings),
      },
    },
  };
  client = new LanguageClient('srcls', 'srcls', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (e) {
    const message = e && e.message ? e.message : String(e);
    showStartError(context, `The srcls language server (${found.path}) failed to start: ${message}`);
    const failed = client;
    client = null;
    try { await failed.dispose(); } catch { /* it never ran */ }
    return false;
  }
  await pushSettings();
  return true;
}

async function stopClient() {
  pullGate.release();
  if (!client) return;
  const old = client;
  client = null;
  try {
    if (old.isRunning()) await old.stop();
  } catch (e) {
    outputChannel.appendLine(`[warning] stopping the server: ${e && e.message ? e.message : e}`);
  }
}

function restart(context) {
  const run = async () => {
    if (starting) await starting.catch(() => {});
    await stopClient();
    return startClient(context);
  };
  starting = run();
  return starting;
}

async function onConfigurationChanged(context, event) {
  const affects = (name) => event.affectsConfiguration(name);
  if (config.needsLanguageUpdate(affects)) adoptOpenDocuments();
  if (config.needsRestart(affects)) {
    outputChannel.appendLine('[info] srcls.serverPath changed: restarting the server');
    await restart(context);
  } else if (config.needsSettingsUpdate(affects)) {
    const opts = config.serverSettings(section());
    settings = opts.settings;
    reportSettingProblems(opts.problems);
    pullGate.changed();
    await pushSettings();
  }
}

/** Watches what can change a workspace report: JSON files, saves, closed documents. */
function watchWorkspace(context) {
  const json = vscode.workspace.createFileSystemWatcher('**/*.json');
  const onFile = (uri) => { if (affectsWorkspace(uri.fsPath)) pullGate.changed(); };
  context.subscriptions.push(json, json.onDidCreate(onFile), json.onDidChange(onFile), json.onDidDelete(onFile),
    vscode.workspace.onDidSaveTextDocument(() => pullGate.changed()),
    vscode.workspace.onDidOpenTextDocument(adoptDocument),
    vscode.workspace.onDidCloseTextDocument(onDocumentClosed));
  // A srcls.json that names other kind directories changes which files are srcls documents
  // (the server itself reloads the kinds whenever a srcls.json or kind file changes).
  const project = vscode.workspace.createFileSystemWatcher('**/srcls.json');
  const onProjectFile = async () => {
    const now = await findKindGlobs();
    if (JSON.stringify(now) === JSON.stringify(kindGlobs)) return;
    kindGlobs = now;
    adoptOpenDocuments();
  };
  context.subscriptions.push(project, project.onDidCreate(onProjectFile),
    project.onDidChange(onProjectFile), project.onDidDelete(onProjectFile));
}

async function activate(context) {
  outputChannel = vscode.window.createOutputChannel('srcls');
  context.subscriptions.push(outputChannel);
  context.subscriptions.push(vscode.commands.registerCommand('srcls.restartServer', async () => {
    if (await restart(context)) vscode.window.setStatusBarMessage('srcls: server restarted', 3000);
  }));
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(
    (event) => onConfigurationChanged(context, event)));
  watchWorkspace(context);
  kindGlobs = await findKindGlobs();
  adoptOpenDocuments();
  return restart(context);
}

async function deactivate() {
  await stopClient();
}

module.exports = {
  activate, deactivate, _client: () => client, _settings: () => settings, _kindGlobs: () => kindGlobs,
  _pullGate: () => pullGate,
};
