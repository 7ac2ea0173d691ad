// ApplicationSets declared as values of Argo CD's argocd-apps Helm chart (both chart formats, and under
// an umbrella chart's alias) are validated, previewed and planned with positions in the values file.
// Fixtures: test/fixtures/real-world/argocd-apps-values/ (written for these tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundledCli, posix, REAL_WORLD, serviceOver } from '../helpers/realworld';
import { reportRoot } from '../../server/src/cli/common';

const dir = path.join(REAL_WORLD, 'argocd-apps-values');
const cli = bundledCli('rw-apps-');

function analyze(rel: string) {
  const abs = posix(path.join(dir, rel));
  const text = fs.readFileSync(abs, 'utf8');
  const service = serviceOver(path.dirname(abs));
  const a = service.analyze(abs, text, abs);
  const at = (needle: string) => text.indexOf(needle);
  return { a, text, at, service, diags: service.diagnostics(a) };
}

test('chart 2.x map form: one ApplicationSet per non-empty key, named by the key, shaped as the chart renders it', () => {
  const { a } = analyze('values-v2-map.yaml');
  assert.deepEqual(
    a.appsets.map((x) => x.doc.name),
    ['guestbook', 'platform'],
  );
  const g = a.appsets[0].doc;
  assert.deepEqual(g.helmValues, { form: 'map', path: ['applicationsets', 'guestbook'] });
  assert.deepEqual(g.value.metadata, { labels: { team: 'web' }, name: 'guestbook', namespace: 'argocd' });
  const spec = g.value.spec as Record<string, any>;
  assert.deepEqual(Object.keys(spec), ['goTemplate', 'goTemplateOptions', 'generators', 'template']);
  assert.equal(spec.template.metadata.finalizers, undefined, 'the chart drops template.metadata.finalizers');
  assert.equal(spec.template.spec.revisionHistoryLimit, undefined);
});

test('findings land on the values file: ignored fields, and the Go-template parameter without goTemplate', () => {
  const { diags, at, text } = analyze('values-v2-map.yaml');
  const ignored = diags.filter((d) => d.code === 'helm/values-ignored-field');
  assert.deepEqual(
    ignored.map((d) => text.slice(d.span.start, d.span.end)),
    ['finalizers', 'revisionHistoryLimit'],
  );
  assert.match(ignored[0].message, /does not copy "template\.metadata\.finalizers"/);
  // The mode confusion is reported once, where {{.cluster}} is written in the values file.
  const mode = diags.find((d) => d.code === 'template/gotemplate-syntax');
  assert.ok(mode, JSON.stringify(diags.map((d) => d.code)));
  assert.equal(mode.span.start, at("'{{.cluster}}-platform'") + 1);
  assert.ok(!diags.some((d) => d.code === 'appset/missing-field'), 'apiVersion/kind/metadata.name come from the chart, not the values');
});

test('the preview of a values-file ApplicationSet', () => {
  const { a, service, at } = analyze('values-v2-map.yaml');
  const p = service.preview(a, at('guestbook:') + 2);
  assert.ok(p);
  assert.equal(p.name, 'guestbook');
  assert.equal(p.apps, 2);
  assert.deepEqual(
    [...p.yaml.matchAll(/^  name: (.+)$/gm)].map((m) => m[1]),
    ['guestbook-dev', 'guestbook-prod'],
  );
  assert.equal(service.preview(a, at('platform:') + 2)?.name, 'platform');
});

test('chart 1.x list form: entries name themselves; checks run on the values (a misspelt strategy type)', () => {
  const { a, diags, text } = analyze('values-v1-list.yaml');
  assert.deepEqual(
    a.appsets.map((x) => [x.doc.name, x.doc.helmValues?.form]),
    [['addons', 'list']],
  );
  const st = diags.find((d) => d.code === 'appset/strategy-type');
  assert.ok(st);
  assert.equal(text.slice(st.span.start, st.span.end), 'Rollingsync');
  assert.equal(a.appsets[0].expansion().apps.length, 2);
});

test('umbrella chart: argocd-apps values under the dependency name, planned with the argo-cd values beside them', () => {
  const { a, service } = analyze('umbrella/values.yaml');
  assert.deepEqual(
    a.appsets.map((x) => x.doc.helmValues?.path),
    [['argocd-apps', 'applicationsets', 'services']],
  );
  const plan = service.rolloutPlan(a);
  assert.ok(plan);
  assert.equal(plan.enablement.state, 'enabled');
  assert.deepEqual(
    plan.steps.map((s) => s.apps),
    [['cart'], ['checkout']],
  );
});

test('appset lint finds values files in folders and prints values-file positions; render/plan take them', () => {
  const lint = cli.run(['lint', '.', '--workspace', '.'], dir);
  assert.equal(lint.err, '');
  // values-v2-map.yaml names its Applications '{{.cluster}}-platform' without goTemplate: fasttemplate
  // leaves the name as written and the API server rejects it, an error (exit 1).
  assert.equal(lint.code, 1);
  const lines = lint.out.trim().split('\n');
  // lint names files relative to the repository root (the git work tree around the current folder,
  // else the current folder: docs/cli.md), so from this fixture folder they carry its path in the clone.
  const shown = (f: string) => posix(path.relative(reportRoot(dir), path.join(dir, f)));
  assert.ok(
    lines.includes(
      `${shown('values-v1-list.yaml')}:23:13 warning appset/strategy-type strategy type "Rollingsync" is not AllAtOnce or RollingSync (case matters); the controller silently treats it as AllAtOnce; did you mean "RollingSync"?`,
    ),
    lint.out,
  );
  assert.ok(lines.some((l) => l.startsWith(`${shown('values-v2-map.yaml')}:21:9 warning helm/values-ignored-field`)));
  assert.ok(lines.some((l) => l.startsWith(`${shown('values-v2-map.yaml')}:41:16 error template/gotemplate-syntax`)));
  assert.match(lines[lines.length - 1], /^4 ApplicationSets in 3 files: /);
  const render = cli.run(['render', 'values-v1-list.yaml', '--workspace', '.'], dir);
  assert.equal(render.code, 0, render.err);
  assert.match(render.out, /# Preview of ApplicationSet "addons": 2 Applications/);
  const plan = cli.run(['plan', 'umbrella/values.yaml', '--workspace', 'umbrella'], dir);
  assert.match(plan.out, /^ApplicationSet services \(umbrella\/values\.yaml:8\)\n {2}progressive syncs: enabled/);
});
