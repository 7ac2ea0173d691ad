/**
 * The early answer for a large document just opened (service/earlyFindings.ts,
 * `earlyDiagnosticsSteps`): what needs no expansion, shown before the whole answer. It must be a
 * subset of the whole answer for the same text, so that nothing shown first disappears after.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '../../server/src/engine';
import { runSteps } from '../../server/src/engine';
import type { EngineDiagnostic } from '../../server/src/engine';
import { memHost, repoFiles } from '../helpers/memHost';
import { longListAppSet } from '../helpers/appsets';

const key = (d: EngineDiagnostic) => JSON.stringify([d.code, d.severity, d.span.start, d.span.end, d.message]);

/** The early answer (asked first, as the language server does), then the whole answer of the same analysis. */
function both(files: Map<string, string>, path: string) {
  const service = getLanguageService({ host: memHost(files), deferWorkspaceScan: true });
  const a = service.analyze(`file://${path}`, files.get(path)!, path);
  const early = runSteps(service.earlyDiagnosticsSteps(a));
  runSteps(service.prepare(a));
  return { early, whole: service.diagnosticsToShow(a) };
}

test('on every example and fixture file, the early answer is part of the whole answer', () => {
  const files = repoFiles((n) => /\.ya?ml$/.test(n), 'examples', 'test/fixtures');
  let early = 0;
  let whole = 0;
  let files_ = 0;
  for (const path of files.keys()) {
    const r = both(files, path);
    const all = new Set(r.whole.map(key));
    for (const d of r.early) assert.ok(all.has(key(d)), `${path}: ${key(d)} shown early, not in the whole answer`);
    early += r.early.length;
    whole += r.whole.length;
    files_++;
  }
  assert.ok(files_ > 50, `${files_} files`);
  // Not vacuous: the early answer holds findings, and the whole answer more.
  assert.ok(early > 20 && whole > early, `early ${early}, whole ${whole}`);
});

test('the early answer holds the schema finding, neither the expansion findings nor a suppression only they use', () => {
  let text = longListAppSet(300).replace('      project: default\n', '      project: default\n      projct: typo\n');
  // Two elements render the same name: an expansion finding, suppressed where it is reported. Early,
  // the suppression must not be called useless ("nothing here is reported as …").
  text = text
    .replace('          - name: e6\n', '          - name: e5\n')
    .replace(
      "      name: 'app-{{ .name }}'",
      "      # appset-tools: ignore generator/duplicate-name -- two tenants on purpose\n      name: 'app-{{ .name }}'",
    );
  const files = new Map([['/ws/long.yaml', text]]);
  const { early, whole } = both(files, '/ws/long.yaml');
  const codes = (ds: EngineDiagnostic[]) => ds.map((d) => d.code).sort();
  assert.deepEqual(codes(early), ['appset/unknown-field'], JSON.stringify(early));
  // The whole answer: the expansion's finding (300 Applications at once), the duplicate name suppressed.
  assert.deepEqual(codes(whole), ['appset/unknown-field', 'rollout/blast-radius'], JSON.stringify(whole.map((d) => d.message)));
});

test('a finding inside a template string is held back: the template finding of the whole answer replaces it', () => {
  // `{{prune}}` under goTemplate: the schema says "not a boolean" early, the whole answer says what is
  // wrong (fasttemplate syntax) and drops the schema's words (diagnostics/findings.ts dropSuperseded).
  const text = longListAppSet(3).replace('      destination:', "      syncPolicy: {automated: {prune: '{{prune}}'}}\n      destination:");
  const { early, whole } = both(new Map([['/ws/a.yaml', text]]), '/ws/a.yaml');
  assert.deepEqual(
    whole.map((d) => d.code),
    ['template/fasttemplate-syntax'],
  );
  assert.deepEqual(early, []);
});
