// Helm chart templates that produce ApplicationSets (patterns from public GitOps repositories, written
// as our own fixtures in test/fixtures/real-world/): one information finding, not a lint of Helm syntax.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundledCli, findingHeads, posix, REAL_WORLD, serviceOver, shownIn } from '../helpers/realworld';
import { appsetHead, flowTemplate } from '../helpers/appsets';

const fixtures = REAL_WORLD;
const cli = bundledCli('rw-helm-');

function analyze(rel: string) {
  const abs = posix(path.join(fixtures, rel));
  const service = serviceOver(fixtures);
  const text = fs.readFileSync(abs, 'utf8');
  const a = service.analyze(abs, text, abs);
  return { a, text, diags: service.diagnostics(a), shown: service.diagnosticsToShow(a), service };
}

test('a chart template that emits ApplicationSets: one information finding on its kind line, no syntax errors', () => {
  const { a, text, diags, shown, service } = analyze('helm-chart/templates/addons-appsets.yaml');
  assert.equal(service.appsets(a).length, 0);
  assert.deepEqual(
    diags.map((d) => [d.code, d.severity]),
    [['helm/chart-template', 'information']],
  );
  assert.equal(shown.length, 1, 'the editor shows it too');
  assert.equal(text.slice(diags[0].span.start, diags[0].span.end), 'ApplicationSet');
  assert.match(diags[0].message, /^this is a Helm chart template: it lies in the templates folder of the Helm chart helm-chart,/);
  assert.match(diags[0].message, /helm template/);
});

test('other templates of the chart (a CRD naming the kind, a ConfigMap) get at most the one note, never syntax errors', () => {
  const crd = analyze('helm-chart/templates/crd-mention.yaml');
  assert.deepEqual(
    crd.diags.map((d) => d.code),
    ['helm/chart-template'],
  );
  const cm = analyze('helm-chart/templates/configmap.yaml');
  assert.deepEqual(cm.diags, []);
});

test('Helm syntax outside a chart is recognised by its .Values / include actions', () => {
  const { a, diags, service } = analyze('helm-syntax/appset.yaml');
  assert.equal(service.appsets(a).length, 0);
  assert.deepEqual(
    diags.map((d) => d.code),
    ['helm/chart-template'],
  );
  assert.match(diags[0].message, /^this looks like a Helm template: it uses Helm template syntax \(\{\{/);
});

test('a Go-template ApplicationSet (lower-case .values, {{- if }} in strings) is not mistaken for Helm', () => {
  const service = serviceOver(fixtures);
  const text = `${appsetHead('x', { namespace: null })}  generators:
  - clusters: {values: {rev: main}}
${flowTemplate(
  "'{{ .name }}-x'",
  "repoURL: 'https://example.com/r.git', path: '{{ if .values.rev }}{{ .values.rev }}{{ end }}'",
  "name: '{{ .name }}', namespace: x",
)}`;
  const a = service.analyze('/nowhere/x.yaml', text, '/nowhere/x.yaml');
  assert.equal(service.appsets(a).length, 1);
  assert.ok(!service.diagnostics(a).some((d) => d.code.startsWith('helm/')));
});

test('appset lint on a folder with a chart: one note per ApplicationSet template, exit 0, nothing on stderr', () => {
  const shown = shownIn(fixtures);
  assert.deepEqual(findingHeads(cli.run(['lint', 'helm-chart', 'helm-syntax'], fixtures)), [
    `${shown('helm-chart/templates/addons-appsets.yaml')}:5:7 information helm/chart-template`,
    `${shown('helm-chart/templates/crd-mention.yaml')}:8:11 information helm/chart-template`,
    `${shown('helm-syntax/appset.yaml')}:4:7 information helm/chart-template`,
    '0 ApplicationSets in',
  ]);
});
