// The code registry and README.md agree: every registered code is documented, once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALL_CODES } from '../../server/src/engine/diagnostics/codes';
import { VALIDATION_CODES } from '../../server/src/engine/validate/codes';

const repo = path.resolve(__dirname, '..', '..');

test('codes are unique, well-formed, with one-line summaries', () => {
  const seen = new Set<string>();
  for (const c of ALL_CODES) {
    assert.match(c.code, /^[a-z]+\/[a-z0-9-]+$/, c.code);
    assert.ok(!seen.has(c.code), `duplicate code ${c.code}`);
    seen.add(c.code);
    assert.ok(c.summary.length > 10 && !c.summary.includes('\n'), c.code);
  }
  assert.ok(VALIDATION_CODES.length >= 20);
});

test('docs/codes.md lists every registered code in the codes section', () => {
  const readme = fs.readFileSync(path.join(repo, 'docs', 'codes.md'), 'utf8');
  const start = readme.indexOf('<!-- section: codes -->');
  assert.ok(start >= 0);
  const end = readme.indexOf('<!-- section:', start + 5);
  const section = readme.slice(start, end < 0 ? undefined : end);
  // Each row carries the anchor SARIF rule help links to (`docs/codes.md#code-appset-unknown-field`).
  const missing = ALL_CODES.filter(
    (c) => !section.includes(`| <a id="code-${c.code.replace(/[^a-z0-9]+/g, '-')}"></a>\`${c.code}\` |`),
  ).map((c) => c.code);
  assert.deepEqual(missing, [], 'run: node --import tsx scripts/codes-table.mjs');
});
