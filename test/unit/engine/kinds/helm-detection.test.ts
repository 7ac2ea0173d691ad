/**
 * Which texts are templates of another tool (kinds/helmChart.ts over kinds/templateActions.ts): Helm by
 * its objects or by Helm-only functions where YAML cannot hold them, never by one function name in a
 * string (issue 26: `tpl` is Argo CD's from 3.6, `env` is sprig's); and a linear scan on hostile input
 * (issue 25: 50,000 unclosed `{{` took 17 s), measured by the work it counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService, emptyHost } from '@appset-tools/engine';
import { chartTemplateOf, templateSignals } from '../../../../server/src/engine/kinds/helmChart';
import { seededRandom } from '../../../helpers/random';
import { scanActions } from '../../../../server/src/engine/kinds/templateActions';
import { createNodeHost } from '../../../../server/src/host/nodeHost';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ls = getLanguageService({ host: emptyHost() });
let n = 0;
const lint = (text: string) => {
  const a = ls.analyze(`mem://d${n++}.yaml`, text);
  return { appsets: ls.appsets(a).length, codes: ls.diagnostics(a).map((d) => `${d.severity} ${d.code}`) };
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
  // The three placeholders' ranges, severities and messages, and the chart-template note (the same
  // text): test/fixtures/rules/helm/argo-placeholder.yaml. Here, the quick fixes.
  const first = ds.find((d) => d.code === 'helm/argo-placeholder')!;
  assert.equal(chartAppSet.slice(first.span.start, first.span.end), '{{path.basename}}');
  const fix = ls.codeActions(a, first.span, [first]).find((c) => c.diagnosticCodes?.includes('helm/argo-placeholder'));
  assert.equal(fix?.edits?.[0].newText, '{{ "{{path.basename}}" }}');
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

/** An ApplicationSet of our own with the given metadata name, template name and a free line in the spec. */
const scaffold = (own: string, appName: string, extra = '', goTemplate = false) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: ${own}
  namespace: argocd
spec:
${goTemplate ? '  goTemplate: true\n' : ''}  generators:
  - list:
      elements:
      - svc: api
      - svc: web
  template:
    metadata:
      name: ${appName}
    spec:
      project: default
      source:
        repoURL: https://example.com/r.git
        targetRevision: HEAD
        path: apps
${extra}      destination:
        server: https://kubernetes.default.svc
        namespace: shop
`;

test('Helm escapes under fasttemplate mark a Helm template; under goTemplate they are Argo CD text/template and stay plain', () => {
  for (const name of [`'{{"{{"}}svc{{"}}"}}'`, "'{{`{{svc}}`}}'", `'{{ "{{svc}}" }}'`, `'{{- "{{svc}}" -}}'`]) {
    const r = lint(scaffold('shop', name));
    assert.equal(r.appsets, 0, name);
    assert.deepEqual(r.codes, ['information helm/chart-template'], name);
  }
  const go = lint(scaffold('shop', "'{{`{{`}} .svc {{`}}`}}-{{ .svc }}'", '', true));
  assert.equal(go.appsets, 1);
  assert.ok(!go.codes.some((c) => /chart-template|templated-file/.test(c)), go.codes.join(', '));
});

test('a scaffold filled in by another tool gets one yaml/templated-file note, decided from what Argo CD would do with the text', () => {
  const cases: [string, string][] = [
    // Argo CD never templates the ApplicationSet's own metadata, and Kubernetes rejects `{` in a name.
    [scaffold('{{APP_NAME}}-envs', "'{{svc}}'"), 'scaffolding'],
    [scaffold("'${TEAM}-shop'", "'{{svc}}'"), 'scaffolding'],
    [scaffold('shop', "'{{cookiecutter.slug}}-{{svc}}'"), 'cookiecutter'],
    [scaffold('shop', "'{{svc}}'", '{% if cookiecutter_helm %}\n        helm: {releaseName: x}\n{% endif %}\n'), 'Jinja'],
    // `$name` is no Argo CD syntax and no valid Application, project or namespace name.
    [scaffold('shop', '$name'), 'envsubst'],
    [scaffold('shop', "'{{svc}}'").replace('project: default', 'project: ${PROJECT}'), 'envsubst'],
  ];
  for (const [text, tool] of cases) {
    const a = ls.analyze(`mem://d${n++}.yaml`, text);
    const ds = ls.diagnostics(a);
    assert.equal(ls.appsets(a).length, 0, text);
    assert.deepEqual(
      ds.map((d) => d.code),
      ['yaml/templated-file'],
      text,
    );
    assert.match(ds[0].message, new RegExp(tool), text);
  }
});

test("Argo CD's own `$` stays plain: build environment, multi-source $values, and `$` inside a values block", () => {
  const texts = [
    scaffold('shop', "'{{svc}}'", '        plugin:\n          env:\n          - name: APP\n            value: $ARGOCD_APP_NAME\n'),
    scaffold('shop', "'{{svc}}'", '        helm:\n          valueFiles: [$values/envs/{{svc}}.yaml]\n'),
    scaffold('shop', "'{{svc}}'", '        helm:\n          values: |\n            name: $name\n            project: ${PROJECT}\n'),
    scaffold('shop', "'{{svc}}'").replace('namespace: shop', 'namespace: $ARGOCD_APP_NAMESPACE'),
  ];
  for (const text of texts) {
    const r = lint(text);
    assert.equal(r.appsets, 1, text);
    assert.ok(!r.codes.some((c) => /chart-template|templated-file/.test(c)), `${text}: ${r.codes.join(', ')}`);
  }
});

test("the preview of a chart template shows the ApplicationSet Helm renders from the chart's values.yaml", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'appset-helm-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'templates'));
  writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: shop\nversion: 0.1.0\n');
  writeFileSync(join(dir, 'values.yaml'), 'services: [api, web]\n');
  const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: {{ .Release.Name }}
spec:
  generators:
  - list:
      elements:
{{- range .Values.services }}
      - svc: {{ . }}
{{- end }}
  template:
    metadata:
      name: '{{\`{{svc}}\`}}'
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', path: '{{\`{{svc}}\`}}', targetRevision: HEAD}
      destination: {server: 'https://kubernetes.default.svc', namespace: shop}
`;
  writeFileSync(join(dir, 'templates', 'appset.yaml'), text);
  const service = getLanguageService({ host: createNodeHost([dir]) });
  const file = join(dir, 'templates', 'appset.yaml');
  const a = service.analyze(file, text, file);
  assert.equal(service.appsets(a).length, 0, 'the template itself is not YAML to check');
  const p = service.preview(a);
  assert.ok(p, 'a preview');
  assert.equal(p.apps, 2);
  assert.match(p.yaml, /^# rendered as `helm template` renders this chart template, with .*values\.yaml alone/);
  assert.match(p.yaml, /name: api[\s\S]*name: web/);
});

test('a goTemplate: true line and a template file name are read as the patterns that define them', () => {
  // `goTemplate: true` on a line of its own (after any line terminator, as `^` with the `m` flag) keeps Helm's
  // escapes Argo CD text; a template tool's extension (any case) names the tool that renders the file.
  const GO_TEMPLATE_ON = /^[ \t]*goTemplate:[ \t]*["']?true\b/m;
  const TEMPLATE_NAME = /\.(gotmpl|tmpl|tpl|j2|jinja2?)$/i;
  const r = seededRandom(39);
  const pieces = [
    'goTemplate:',
    'goTemplate: true',
    ' ',
    '\t',
    '\n',
    '\r',
    '\u2028',
    '\u2029',
    '"',
    "'",
    'true',
    'trueX',
    'true_',
    'true-',
    'x',
    '#',
  ];
  const host = emptyHost();
  for (let i = 0; i < 5000; i++) {
    let line = '';
    for (let k = Math.floor(r() * 8); k > 0; k--) line += pieces[Math.floor(r() * pieces.length)];
    const text = `kind: ApplicationSet\n${line}\nspec:\n  template: '{{ "{{" }}x{{ "}}" }}'\n`;
    const found = chartTemplateOf(text, undefined, host);
    assert.equal(found === undefined, GO_TEMPLATE_ON.test(text), JSON.stringify(text));
  }
  const names = [
    'a.gotmpl',
    'a.GOTMPL',
    'a.Tmpl',
    'a.tpl',
    'a.j2',
    'a.jinja',
    'a.JINJA2',
    'a.jinja3',
    'a.yaml',
    'a.tpl.yaml',
    'tpl',
    'a.',
    'dir.tpl/a',
    'a.İ',
    'a.tpl\n',
  ];
  for (const name of names) {
    const found = chartTemplateOf('x: {{ .a }}\n', `/repo/${name}`, host);
    const m = TEMPLATE_NAME.exec(name);
    assert.deepEqual(
      found,
      m ? { tool: m[1].toLowerCase() === 'gotmpl' ? 'helmfile' : 'a template tool', reason: `its name ends in .${m[1]}` } : undefined,
      name,
    );
  }
});
