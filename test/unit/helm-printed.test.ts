/**
 * What Helm does to values before Argo CD sees them. A chart template printing a list or map of its values into the YAML (kinds/helmPrinted.ts): Helm's
 * Go templates print such a value with fmt (`[map[path:apps/*]]`), not as YAML. Our own chart, after
 * a bootstrap chart that wrote a git generator's directories as `'{{- $.Values…directories }}'`.
 * And an ApplicationSet in the argo-cd chart's `extraObjects` (kinds/extraObjects.ts), which the
 * chart writes out through Helm's tpl: one note, and its unescaped placeholders.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workspaceFor } from './generators-helpers';
import { chartFiles } from '../helpers/charts';
import { getLanguageService, emptyHost } from '@appset-tools/engine';

const VALUES = `source:
  repoURL: https://example.com/gitops.git
  directories:
    - path: apps/*
    - path: apps/legacy
      exclude: true
  labels:
    team: web
  empty: []
`;

/** The chart the templates below belong to: chart/Chart.yaml and VALUES as its values.yaml. */
const APPS_CHART = chartFiles('chart', 'apps', VALUES);

const template = (directories: string, extra = '') => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: apps
spec:
  goTemplate: true
  generators:
  - git:
      repoURL: '{{ .Values.source.repoURL }}'
      revision: HEAD
      directories: ${directories}
  template:
    metadata:
      name: '{{ "{{ .path.basename }}" }}'
${extra}    spec:
      project: default
      source:
        repoURL: '{{ $.Values.source.repoURL }}'
        path: '{{ "{{ .path.path }}" }}'
      destination:
        server: https://kubernetes.default.svc
        namespace: apps
`;

const printed = (ws: ReturnType<typeof workspaceFor>, text: string) =>
  ws.diagnostics(text, 'chart/templates/appset.yaml').filter((d) => d.code === 'helm/printed-collection');

test("a values list or map printed by a bare action is Go's text, an error with the toYaml form", (t) => {
  const ws = workspaceFor(t, APPS_CHART);
  const quoted = printed(ws, template(`'{{- $.Values.source.directories }}'`));
  assert.equal(quoted.length, 1);
  assert.equal(quoted[0].severity, 'error');
  assert.match(
    quoted[0].message,
    /^Helm prints \{\{- \$\.Values\.source\.directories \}\} as Go's text for a list, \[map\[path:apps\/\*\] map\[exclude:true path:apps\/legacy\]\], not as YAML/,
  );
  assert.match(quoted[0].message, /directories: \{\{- toYaml \$\.Values\.source\.directories \| nindent 8 \}\}$/);
  // Unquoted and a map (annotations get map[team:web]) are the same mistake.
  const map = printed(ws, template(`{{ .Values.source.directories }}`, `      labels: {{ .Values.source.labels }}\n`));
  assert.deepEqual(
    map.map((d) => d.message.match(/for a (\w+), (\S+)/)?.slice(1)),
    [
      ['list', '[map[path:apps/*]'],
      ['map', 'map[team:web],'],
    ],
  );
});

test('what Helm prints right is left alone: toYaml, a scalar, an empty list, a range, a value values.yaml does not have', (t) => {
  const ws = workspaceFor(t, APPS_CHART);
  assert.deepEqual(printed(ws, template(`{{- toYaml .Values.source.directories | nindent 8 }}`)), []);
  assert.deepEqual(printed(ws, template(`{{ .Values.source.empty }}`)), []);
  assert.deepEqual(printed(ws, template(`'{{ .Values.source.missing }}'`)), []);
  // Inside range, `.` is the element; `.Values` there is not the chart's values.
  assert.deepEqual(
    printed(ws, template(`\n{{- range .Values.source.directories }}\n      - path: {{ .path }}{{ .Values.source.labels }}\n{{- end }}`)),
    [],
  );
  // Without the chart's values.yaml nothing is known, and nothing is said.
  const bare = workspaceFor(t, chartFiles('chart', 'apps'));
  assert.deepEqual(printed(bare, template(`'{{- $.Values.source.directories }}'`)), []);
});

test("an ApplicationSet in the argo-cd chart's extraObjects: one note, and Helm's tpl checks its placeholders", () => {
  const ls = getLanguageService({ host: emptyHost() });
  const values = (name: string) => `configs:
  params:
    server.insecure: true
extraObjects:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: extra}
  - apiVersion: argoproj.io/v1alpha1
    kind: ApplicationSet
    metadata:
      name: apps
    spec:
      goTemplate: true
      generators:
        - list: {elements: [{env: prod}]}
      template:
        metadata:
          name: ${name}
        spec:
          project: default
          source: {repoURL: 'https://example.com/r.git', path: apps}
          destination: {server: 'https://kubernetes.default.svc', namespace: apps}
`;
  const escaped = values(`'{{ "{{ .env }}" }}'`);
  const a = ls.analyze('mem://values.yaml', escaped);
  assert.equal(ls.appsets(a).length, 0, 'not read as an ApplicationSet: Argo CD gets what Helm renders');
  const notes = ls.diagnostics(a).map((d) => [d.severity, d.code, escaped.slice(d.span.start, d.span.end)]);
  assert.deepEqual(notes, [['information', 'helm/chart-template', 'ApplicationSet']]);
  assert.match(ls.diagnostics(a)[0].message, /through Helm's tpl .*all are escaped/);
  const raw = values(`'{{path.basename}}-{{ .env }}'`);
  const b = ls.diagnostics(ls.analyze('mem://values2.yaml', raw));
  assert.deepEqual(
    b.map((d) => [d.severity, d.code, raw.slice(d.span.start, d.span.end)]),
    [
      ['information', 'helm/chart-template', 'ApplicationSet'],
      ['error', 'helm/argo-placeholder', '{{path.basename}}'],
      ['warning', 'helm/argo-placeholder', '{{ .env }}'],
    ],
  );
  // Another chart's extraObjects (no argo-cd values beside it) is not said to be the argo-cd chart's.
  const other = ls.diagnostics(
    ls.analyze('mem://values3.yaml', escaped.replace(/^configs:\n  params:\n    server.insecure: true\n/, 'web:\n  port: 80\n')),
  );
  assert.deepEqual(other, []);
  // Nor argo-rollouts' or argo-workflows' values: their `controller:` and `server:` sit beside an
  // extraObjects of their own (argo-helm charts/argo-rollouts, charts/argo-workflows values.yaml).
  for (const head of ['controller:\n  replicas: 2\n', 'server:\n  enabled: true\ncontroller:\n  workflowNamespaces: [argo]\n']) {
    const argoCharts = escaped.replace(/^configs:\n  params:\n    server.insecure: true\n/, head);
    assert.deepEqual(ls.diagnostics(ls.analyze('mem://values4.yaml', argoCharts)), [], head);
  }
});
