#!/usr/bin/env node
// The GitHub Action's job summary (tools/action/run.sh): reads a `srcls --check --format json`
// report and writes Markdown for $GITHUB_STEP_SUMMARY — the counts by severity, by code, and the
// first findings, errors first. The report's messages never hold a secret value (srcls masks
// them), and every cell is escaped, so nothing in a document can change the page.
//   node summary.js REPORT.json VERSION STATUS
'use strict';
const fs = require('node:fs');

const [reportPath, version, status] = process.argv.slice(2);
const report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));
const SEVERITIES = ['error', 'warning', 'information', 'hint'];
const TOP = 20;

// Text for a Markdown table cell: no HTML, no cell break, no line break.
function cell(text) {
  return String(text)
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

const findings = [];
for (const file of report.files || []) {
  for (const d of file.diagnostics || []) findings.push({ path: file.path, ...d });
}
const s = report.summary || {};
const out = [];
const counts = [plural(s.errors || 0, 'error', 'errors'), plural(s.warnings || 0, 'warning', 'warnings'),
  `${s.information || 0} information`, plural(s.hints || 0, 'hint', 'hints')];
out.push(`## srcls: ${counts.join(', ')} in ${plural(s.files || 0, 'file', 'files')}`, '');
out.push(`srcls ${cell(version)}; ` + (status === '0' ? 'the check passed.' :
  status === '1' ? 'the check failed (findings at the failing severity).' :
    `srcls could not check everything (exit status ${cell(status)}): see the step's log.`), '');
if (findings.length === 0) {
  process.stdout.write(out.join('\n') + '\n');
  process.exit(0);
}

const byCode = new Map();
for (const f of findings) {
  const key = `${f.code}\u0000${f.severity}`;
  byCode.set(key, (byCode.get(key) || 0) + 1);
}
const rank = (severity) => SEVERITIES.indexOf(severity);
const codes = [...byCode].map(([key, n]) => ({ code: key.split('\u0000')[0], severity: key.split('\u0000')[1], n }))
  .sort((a, b) => rank(a.severity) - rank(b.severity) || b.n - a.n || (a.code < b.code ? -1 : 1));
out.push('| code | severity | findings |', '|---|---|---:|');
for (const c of codes) out.push(`| \`${cell(c.code)}\` | ${cell(c.severity)} | ${c.n} |`);
out.push('');

const first = findings.map((f, i) => ({ f, i }))
  .sort((a, b) => rank(a.f.severity) - rank(b.f.severity) || a.i - b.i).slice(0, TOP);
out.push(findings.length > TOP ? `### The first ${TOP} of ${findings.length} findings` : '### Findings', '');
out.push('| file | line | severity | code | message |', '|---|---:|---|---|---|');
for (const { f } of first) {
  const line = f.range && f.range.start ? f.range.start.line + 1 : '';
  out.push(`| ${cell(f.path)} | ${line} | ${cell(f.severity)} | \`${cell(f.code)}\` | ${cell(f.message)} |`);
}
process.stdout.write(out.join('\n') + '\n');
