/**
 * Which texts are templates of another tool (kinds/helmChart.ts over kinds/templateActions.ts): Helm by
 * its objects or by Helm-only functions where YAML cannot hold them, never by one function name in a
 * string (issue 26: `tpl` is Argo CD's from 3.6, `env` is sprig's); and a linear scan on hostile input
 * (issue 25: 50,000 unclosed `{{` took 17 s), measured by the work it counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService, emptyHost } from '../../server/src/engine';
import { templateSignals } from '../../server/src/engine/kinds/helmChart';
import { scanActions } from '../../server/src/engine/kinds/templateActions';

const ls = getLanguageService({ host: emptyHost() });
let n = 0;
const lint = (text: string) => {
  const a = ls.analyze(`mem://d${n++}.yaml`, text);
  return { appsets: a.appsets.length, codes: ls.diagnostics(a).map((d) => `${d.severity} ${d.code}`) };
};

const plain = (extra: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: s
  annotations:
    note: '${extra}'
spec:
  goTemplate: true
  generators:
  - list: {elements: [{name: a, tmpl: 'x-{{ "{{" }}'}]}
  template:
    metadata: {name: '{{ .name }}'}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', path: apps, targetRevision: HEAD}
      destination: {server: 'https://kubernetes.default.svc', namespace: x}
`;

test('a plain ApplicationSet using tpl, env, include or required inside strings is checked, not taken for a template', () => {
  for (const s of ['{{ tpl .name . }}', '{{ env "HOME" }}', 'see {{ include "x" . }} in the chart', '{{ required "x" .name }}']) {
    const r = lint(plain(s.replace(/"/g, '"')));
    assert.equal(r.appsets, 1, s);
    assert.ok(!r.codes.some((c) => /helm\/chart-template|yaml\/templated-file/.test(c)), `${s}: ${r.codes.join(', ')}`);
  }
});

test('Helm is recognised by its objects anywhere, and by include/define where YAML cannot hold them', () => {
  assert.match(templateSignals('x: "{{ .Values.a }}"').helm ?? '', /Values/);
  assert.match(templateSignals('x: "{{ $.Release.Name }}"').helm ?? '', /Release/);
  assert.ok(templateSignals('name: {{ include "full" . }}').helm);
  assert.ok(templateSignals('{{- define "x" }}\n{{- end }}').helm);
  assert.equal(templateSignals('name: \'{{ include "full" . }}\'').helm, undefined);
  assert.equal(
    templateSignals('x: "{{ .values.a }} {{ .name.Values }}"').helm,
    undefined,
    'lower case and chained fields are Argo CD parameters',
  );
  assert.equal(templateSignals('x: "{{ `.Values` }} {{ ".Values" }}"').helm, undefined, 'string literals are not fields');
  assert.equal(templateSignals('x: {{ .Env.X }}').tool?.name, 'gomplate');
  assert.equal(templateSignals('x: {{ requiredEnv "X" }}').tool?.name, 'helmfile');
  assert.equal(templateSignals('x: \'{{ getenv "X" }}\'').tool, undefined);
});

test('a Terraform-templated ApplicationSet gets the one yaml/templated-file note, not a YAML cascade', () => {
  const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: \${name}
spec:
  generators:
  - list:
      elements:
%{ for c in clusters ~}
      - cluster: \${c}
%{ endfor ~}
  template:
    metadata: {name: '{{cluster}}'}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', path: apps}
      destination: {name: '{{cluster}}', namespace: x}
`;
  const r = lint(text);
  assert.deepEqual(r.codes, ['information yaml/templated-file']);
  assert.equal(r.appsets, 0);
});

test('the action scan is linear: work per character stays bounded as hostile inputs grow', () => {
  const shapes: ((k: number) => string)[] = [
    (k) => `a: '${'{{ a'.repeat(k)}'`,
    (k) => `a: '${'{{ "a'.repeat(k)}'`,
    (k) => `a: '${'{{ `a'.repeat(k)}'`,
    (k) => `${'{{/* x'.repeat(k)}`,
    (k) => `${'{{ .x }}'.repeat(k)}`,
    (k) => `kind: ApplicationSet\n${'  {{ include "x" . \n'.repeat(k)}`,
    (k) => `${'%{ for x \n'.repeat(k)}`,
  ];
  for (const shape of shapes) {
    const ratios = [1_000, 10_000, 50_000].map((k) => {
      const text = shape(k);
      return scanActions(text).work / text.length;
    });
    for (const r of ratios) assert.ok(r <= 2, `${shape(1)}: ${ratios.join(', ')}`);
    // And the whole detection (scan + the word tests of each action) on the issue's input.
    const big = shape(50_000);
    assert.ok(templateSignals(big).work <= 2 * big.length);
  }
});

const chartAppSet = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: {{ .Release.Name }}-apps
spec:
  goTemplate: true
  generators:
  - git:
      repoURL: {{ .Values.repoURL }}
      revision: HEAD
      directories: [{path: 'apps/*'}]
  template:
    metadata:
      name: '{{path.basename}}'
      labels:
        cluster: '{{ .cluster }}'
        env: '{{ .Values.env }}'
        ok: '{{ "{{ .name }}" }}'
        raw: '{{\`{{ .path.path }}\`}}'
        norm: '{{ normalize .name }}'
    spec:
      project: default
      source:
        repoURL: {{ .Values.repoURL }}
        path: '{{ "{{path}}" }}'
{{- range .Values.extraLabels }}
        note: '{{ .name }}'
{{- end }}
      destination: {server: 'https://kubernetes.default.svc', namespace: x}
`;

test('a Helm chart template: each unescaped Argo CD placeholder is reported as Helm sees it, with the escape as a quick fix', () => {
  const a = ls.analyze('mem://chart.yaml', chartAppSet);
  const ds = ls.diagnostics(a);
  const found = ds.filter((d) => d.code === 'helm/argo-placeholder').map((d) => [chartAppSet.slice(d.span.start, d.span.end), d.severity]);
  assert.deepEqual(found, [
    ['{{path.basename}}', 'error'],
    ['{{ .cluster }}', 'warning'],
    ['{{ normalize .name }}', 'error'],
  ]);
  const first = ds.find((d) => d.code === 'helm/argo-placeholder')!;
  assert.match(first.message, /^Helm fails on \{\{path.basename\}\} \(function "path" not defined\)/);
  const fix = ls.codeActions(a, first.span, [first]).find((c) => c.diagnosticCodes?.includes('helm/argo-placeholder'));
  assert.equal(fix?.edits?.[0].newText, '{{ "{{path.basename}}" }}');
  const note = ds.find((d) => d.code === 'helm/chart-template')!;
  assert.match(note.message, /3 need escaping/);
  assert.match(note.message, /not previewed/);
  // Every escaped form parses in Helm and prints the placeholder: no finding once fixed.
  let fixed = chartAppSet;
  for (const d of ds.filter((x) => x.code === 'helm/argo-placeholder').sort((x, y) => y.span.start - x.span.start)) {
    const e = ls.codeActions(a, d.span, [d]).find((c) => c.diagnosticCodes?.includes('helm/argo-placeholder'))!.edits![0];
    fixed = fixed.slice(0, e.span.start) + e.newText + fixed.slice(e.span.end);
  }
  const again = ls.diagnostics(ls.analyze('mem://chart-fixed.yaml', fixed));
  assert.deepEqual(
    again.filter((d) => d.code === 'helm/argo-placeholder'),
    [],
  );
});
