// The VS Code side of srcls: finds the server, starts it with vscode-languageclient for source
// and job documents, keeps its settings in step with the `srcls.*` configuration, and says
// clearly what went wrong when it cannot start. The decisions live in lib/config.js.
'use strict';

const fs = require('fs');
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const config = require('./lib/config');

const OPEN_GUIDE = 'Open install guide';
const OPEN_SETTINGS = 'Open settings';
const SHOW_OUTPUT = 'Show output';

let client = null;
let outputChannel = null;
let settings = { srcls: { severity: {}, types: {} } };
let starting = null;
let kindGlobs = []; // the kind files of the workspace's srcls.json "schemas", when started

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

  kindGlobs = await findKindGlobs();
  const opts = config.clientOptions(sec, kindGlobs);
  settings = opts.settings;
  reportSettingProblems(opts.problems);

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
  if (config.needsRestart(affects)) {
    outputChannel.appendLine('[info] srcls.serverPath or srcls.files changed: restarting the server');
    await restart(context);
  } else if (config.needsSettingsUpdate(affects)) {
    const opts = config.serverSettings(section());
    settings = opts.settings;
    reportSettingProblems(opts.problems);
    await pushSettings();
  }
}

async function activate(context) {
  outputChannel = vscode.window.createOutputChannel('srcls');
  context.subscriptions.push(outputChannel);
  context.subscriptions.push(vscode.commands.registerCommand('srcls.restartServer', async () => {
    if (await restart(context)) vscode.window.setStatusBarMessage('srcls: server restarted', 3000);
  }));
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(
    (event) => onConfigurationChanged(context, event)));
  // A srcls.json that names other kind directories changes which files are served: restart
  // then (the server itself reloads the kinds whenever a srcls.json or kind file changes).
  const watcher = vscode.workspace.createFileSystemWatcher('**/srcls.json');
  const onProjectFile = async () => {
    const now = await findKindGlobs();
    if (client && JSON.stringify(now) !== JSON.stringify(kindGlobs)) await restart(context);
  };
  context.subscriptions.push(watcher, watcher.onDidCreate(onProjectFile),
    watcher.onDidChange(onProjectFile), watcher.onDidDelete(onProjectFile));
  return restart(context);
}

async function deactivate() {
  await stopClient();
}

module.exports = {
  activate, deactivate, _client: () => client, _settings: () => settings, _kindGlobs: () => kindGlobs,
};
