// Glob patterns as VS Code writes them (`**`, `*`, `?`, `{a,b}`, `[abc]`), matched against a
// file's path, for the files the extension gives its own language: the user's srcls.files globs
// and the kind-file directories of srcls.json cannot go into the static manifest, so the
// extension decides for each opened document itself (extension.js). Free of `vscode`.
'use strict';

/** A RegExp source for one glob (separators `/`): `**` spans folders, `*` and `?` do not. */
function globSource(glob) {
  let out = '';
  let inGroup = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      i++;
      if (glob[i + 1] === '/') {
        i++;
        out += '(?:[^/]*/)*'; // `**/`: no folder or any number of them
      } else {
        out += '.*';
      }
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{') {
      inGroup++;
      out += '(?:';
    } else if (c === '}' && inGroup > 0) {
      inGroup--;
      out += ')';
    } else if (c === ',' && inGroup > 0) {
      out += '|';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) {
        out += '\\[';
      } else {
        let set = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        if (set.startsWith('!')) set = '^' + set.slice(1);
        out += `[${set}]`;
        i = end;
      }
    } else {
      out += c.replace(/[.+^$()|\\\]]/g, '\\$&');
    }
  }
  while (inGroup-- > 0) out += ')';
  return out;
}

/** The RegExp of a whole-path match for `glob`. */
function globToRegExp(glob) {
  return new RegExp(`^${globSource(glob)}$`);
}

/**
 * Whether `fsPath` matches one of `globs`: absolute globs (the kind-file folders) against the
 * absolute path, the others against it and against `relativePath`, the path from the document's
 * workspace folder (so that `deploy/sources/*.json` means that folder of the workspace).
 */
function matchesAny(globs, fsPath, relativePath) {
  const abs = String(fsPath).replace(/\\/g, '/');
  const rel = typeof relativePath === 'string' ? relativePath.replace(/\\/g, '/') : null;
  return globs.some((glob) => {
    const re = globToRegExp(glob);
    return re.test(abs) || (rel !== null && re.test(rel));
  });
}

module.exports = { globToRegExp, matchesAny };
