// When to ask the server for workspace diagnostics. vscode-languageclient (9.x) sends
// workspace/diagnostic again 2 s after every answer, for as long as the client runs: each time
// the server walks the workspace folders. The extension's middleware holds each request at this
// gate until something that can change a report has happened since the last one was sent: a
// file event on a JSON file, a save, a closed document (its report goes back to the file on
// disk), a settings change or a restart. Free of `vscode`.
'use strict';

/**
 * Whether a file event on `fsPath` can change a workspace report: a `.json` file outside the
 * folders the server's workspace walk skips (hidden folders and node_modules).
 */
function affectsWorkspace(fsPath) {
  const p = String(fsPath).replace(/\\/g, '/');
  if (!p.endsWith('.json')) return false;
  const folders = p.split('/').slice(0, -1);
  return !folders.some((f) => f === 'node_modules' || (f.startsWith('.') && f !== '.' && f !== '..'));
}

class PullGate {
  constructor() {
    this.dirty = true; // the first request goes through
    this.waiters = [];
    this.passed = 0;
  }

  /** Something changed: the next request (or the one waiting) goes through. */
  changed() {
    this.dirty = true;
    for (const wake of this.waiters.splice(0)) wake(true);
  }

  /**
   * Resolves true when a request may be sent (at once when something changed since the last
   * one), false when `token` (a CancellationToken) is cancelled first.
   */
  wait(token) {
    if (token && token.isCancellationRequested) return Promise.resolve(false);
    if (this.dirty) return Promise.resolve(this.pass());
    return new Promise((resolve) => {
      let subscription = null;
      const wake = (ok) => {
        if (subscription) subscription.dispose();
        resolve(ok ? this.pass() : false);
      };
      this.waiters.push(wake);
      if (token && typeof token.onCancellationRequested === 'function') {
        subscription = token.onCancellationRequested(() => {
          this.waiters = this.waiters.filter((w) => w !== wake);
          wake(false);
        });
      }
    });
  }

  pass() {
    this.dirty = false;
    this.passed++;
    return true;
  }

  /** Lets every waiting request go (the client is stopping). */
  release() {
    for (const wake of this.waiters.splice(0)) wake(false);
  }
}

/**
 * vscode-languageclient middleware for provideWorkspaceDiagnostics that waits at `gate`; a
 * request cancelled while waiting answers with no items (the client then tries again later).
 */
function workspaceDiagnosticsMiddleware(gate) {
  return async (resultIds, token, resultReporter, next) => {
    if (!(await gate.wait(token))) return { items: [] };
    return next(resultIds, token, resultReporter);
  };
}

module.exports = { PullGate, affectsWorkspace, workspaceDiagnosticsMiddleware };
