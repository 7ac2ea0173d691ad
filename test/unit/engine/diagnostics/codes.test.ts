// The code registry and README.md agree: every registered code is documented, once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALL_CODES, finding, isDiagnosticCode, severityOf, type DiagnosticCode } from '../../../../server/src/engine/diagnostics/codes';

const repo = path.resolve(__dirname, '..', '..', '..', '..');

test('codes are unique, well-formed, with one-line summaries', () => {
  const seen = new Set<string>();
  for (const c of ALL_CODES) {
    assert.match(c.code, /^[a-z]+\/[a-z0-9-]+$/, c.code);
    assert.ok(!seen.has(c.code), `duplicate code ${c.code}`);
    seen.add(c.code);
    assert.ok(c.summary.length > 10 && !c.summary.includes('\n'), c.code);
  }
});

test('the code lists are plain data with only the fields the registry reads', () => {
  // The lists join with a spread, where tsc checks no excess fields: a misspelt `variant` would pass it.
  const fields = new Set(['code', 'severity', 'summary', 'variant', 'unchecked']);
  for (const c of ALL_CODES) for (const k of Object.keys(c)) assert.ok(fields.has(k), `${c.code}: ${k}`);
});

test('DiagnosticCode is the union of the registered codes, so tsc rejects an unregistered one', () => {
  // Each line under a @ts-expect-error must fail to compile: `npm test`'s tsc run fails when it compiles.
  // @ts-expect-error 'nope/unregistered' is no registered code
  const unregistered: DiagnosticCode = 'nope/unregistered';
  // @ts-expect-error finding() takes only a registered code
  const made = () => finding('nope/unregistered', 'message', { start: 0, end: 1 });
  // @ts-expect-error a plain string is no DiagnosticCode
  const fromString = (s: string): DiagnosticCode => s;
  assert.equal(isDiagnosticCode(unregistered), false);
  assert.equal(typeof made, 'function');
  assert.equal(fromString('yaml/syntax'), 'yaml/syntax');
  const registered: DiagnosticCode = 'yaml/syntax';
  assert.equal(isDiagnosticCode(registered), true);
  assert.equal(severityOf(registered), 'error');
});

test("finding() takes the located field's span, the registry's severity (or its variant) and the extras it is given", () => {
  const field = { value: 'x', exact: true, span: { start: 4, end: 9 }, keySpan: { start: 0, end: 3 } };
  assert.deepEqual(finding('appset/unknown-field', 'm', field), {
    code: 'appset/unknown-field',
    severity: 'error',
    message: 'm',
    span: { start: 4, end: 9 },
  });
  assert.deepEqual(finding('appset/unknown-field', 'm', field.keySpan, { variant: true, data: { replacement: 'y' } }), {
    code: 'appset/unknown-field',
    severity: 'information',
    message: 'm',
    span: { start: 0, end: 3 },
    data: { replacement: 'y' },
  });
  // An expansion problem's own fields come back typed.
  const problem = finding('generator/empty', 'm', field, { path: ['spec', 'generators', 0] });
  assert.deepEqual(problem.path, ['spec', 'generators', 0]);
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
