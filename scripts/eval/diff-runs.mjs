#!/usr/bin/env node
/**
 * Compares two saved runs of the evaluation (`run.mjs --out`), the same list linted by two builds
 * (docs/evaluation.md, "Re-run on the merged code"): per half, the figures of each run, then every
 * finding that appeared, went, changed severity or changed its message, with the classification's
 * verdict (TRUE, FALSE or unclassified), so a lost true finding or a new false one cannot pass unseen.
 *
 *   node scripts/eval/diff-runs.mjs before.json after.json [--no-messages]
 *
 * Exit 1 when a true finding is gone or changed severity, or a new finding is false or unclassified.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { changes, compare, percent } from './compare.mjs';

const [beforeFile, afterFile] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!beforeFile || !afterFile) {
  console.error('usage: diff-runs.mjs before.json after.json [--no-messages]');
  process.exit(2);
}
const data = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'data', 'evaluation');
const classification = JSON.parse(readFileSync(join(data, 'classification.json'), 'utf8'));
const before = JSON.parse(readFileSync(beforeFile, 'utf8'));
const after = JSON.parse(readFileSync(afterFile, 'utf8'));
const messages = !process.argv.includes('--no-messages');
const tag = (v) => (v === true ? 'TRUE' : v === false ? 'FALSE' : 'unclassified');

let worse = false;
for (const half of Object.keys(after)) {
  const row = (r) =>
    `${r.files} files, false-error files ${r.filesWithFalseError} (${percent(r.filesWithFalseError, r.files)}), ` +
    `false-warning files ${r.filesWithFalseWarning} (${percent(r.filesWithFalseWarning, r.files)}), ` +
    `true ${r.trueFindings.length}, unclassified ${r.unclassified.length}, crashes ${r.crashes.length}`;
  console.log(
    `== ${half}\n  before: ${row(compare(before[half] ?? [], classification))}\n  after:  ${row(compare(after[half], classification))}`,
  );
  for (const c of changes(before[half] ?? [], after[half], classification)) {
    if (c.kind === 'message' && !messages) continue;
    const where = `${c.repo} ${c.file}${c.line ? ':' + c.line : ''}`;
    if (c.kind === 'status') console.log(`  status ${where}: ${c.before} -> ${c.after}`);
    else if (c.kind === 'message')
      console.log(`  message [${tag(c.verdict)}] ${where} ${c.code}\n    before: ${c.before}\n    after:  ${c.after}`);
    else
      console.log(
        `  ${c.kind} [${tag(c.verdict)}] ${where} ${c.code}: ${c.before ?? ''}${c.before && c.after ? ' -> ' : ''}${c.after ?? ''}`,
      );
    if ((c.kind === 'gone' || c.kind === 'severity') && c.verdict === true) worse = true;
    if (c.kind === 'new' && c.verdict !== true) worse = true;
  }
}
process.exit(worse ? 1 : 0);
