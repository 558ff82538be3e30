// The VS Code side of srcls: finds the server, starts it with vscode-languageclient for source
// and job documents, keeps its settings in step with the `srcls.*` configuration, and says
// clearly what went wrong when it cannot start. The decisions live in lib/config.js.
'use strict';

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

  const opts = config.clientOptions(sec);
  settings = opts.settings;
  reportSettingProblems(opts.problems);

  const serverOptions = config.serverCommand(found, ['--stdio']);
  const clientOptions = {
    documentSelector: opts.documentSelector,
    initializationOptions: opts.initializationOptions,
    outputChannel,
    middleware: {
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
  return restart(context);
}

async function deactivate() {
  await stopClient();
}

module.exports = { activate, deactivate, _client: () => client, _settings: () => settings };
