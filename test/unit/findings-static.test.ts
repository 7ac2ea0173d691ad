// Issue 10: static checks that need no offline data — one precise finding each, with a quick fix
// where one is clear, replacing the generic errors the same mistake causes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService, emptyHost } from '@appset-tools/engine';

const ls = getLanguageService({ host: emptyHost() });
let n = 0;
const run = (text: string) => {
  const a = ls.analyze(`mem://s${n++}.yaml`, text);
  const ds = ls.diagnostics(a);
  return { a, ds, at: (code: string) => ds.filter((d) => d.code === code).map((d) => text.slice(d.span.start, d.span.end)) };
};

const appset = (
  goTemplate: boolean,
  name: string,
  destination = "{server: '{{ .server }}', namespace: x}",
) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: s, namespace: argocd}
spec:
  goTemplate: ${goTemplate}
  generators:
  - clusters:
      selector:
        matchLabels: {env: prod}
  template:
    metadata:
      name: ${name}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', path: apps}
      destination: ${destination}
`;

const errors = (ds: { severity: string; code: string }[]) => ds.filter((d) => d.severity === 'error').map((d) => d.code);

test('with no cluster data, a key needing index is still one error with the index quick fix', () => {
  const text = appset(true, "'{{ .metadata.labels.cluster-role }}-web'");
  const r = run(text);
  // Its range, and the dotted keys of string maps: test/fixtures/rules/template/needs-index.yaml.
  assert.deepEqual(errors(r.ds), ['template/needs-index']);
  const d = r.ds.find((x) => x.code === 'template/needs-index')!;
  const fix = ls.codeActions(r.a, d.span, [d]).find((x) => x.diagnosticCodes?.includes('template/needs-index'));
  assert.equal(fix?.edits?.[0].newText, 'index .metadata.labels "cluster-role"');
});

test('mode confusions: {{service}} under goTemplate is an error with a fix, {{ .x }} without it a warning', () => {
  // The ranges and the warning's message: test/fixtures/rules/template/mode-confusion.yaml.
  const go = run(appset(true, "'{{service}}-{{ .name }}'"));
  assert.deepEqual(errors(go.ds), ['template/fasttemplate-syntax']);
  const d = go.ds.find((x) => x.code === 'template/fasttemplate-syntax')!;
  assert.equal(ls.codeActions(go.a, d.span, [d])[0]?.edits?.[0].newText, '{{ .service }}');
});

test('an unquoted {{ }} value: one "quote it" error instead of "expected a string", with the quick fix', () => {
  const text = appset(true, '{{ .name }}');
  const r = run(text);
  assert.deepEqual(errors(r.ds), ['yaml/unquoted-template']);
  // Its range and message: test/fixtures/rules/yaml/unquoted-template.yaml.
  const d = r.ds.find((x) => x.code === 'yaml/unquoted-template')!;
  assert.equal(ls.codeActions(r.a, d.span, [d])[0]?.edits?.[0].newText, "'{{ .name }}'");
});

test('a template that can never parse is an error even when no parameter set exists offline', () => {
  const r = run(appset(true, "'{{ .name'"));
  // Its range and message: test/fixtures/rules/template/parse-error.yaml.
  assert.deepEqual(errors(r.ds), ['template/parse-error']);
});

test('a literal destination with neither name nor server is an error without data', () => {
  const text = appset(true, "'{{ .name }}'", '{namespace: x}');
  const r = run(text);
  // Its range: test/fixtures/rules/generator/invalid-application.yaml.
  assert.deepEqual(errors(r.ds), ['generator/invalid-application']);
});

test('Go control flow in the YAML structure: one "use templatePatch" error, not syntax errors and unknown fields', () => {
  const text = appset(true, "'{{ .name }}'").replace(
    '  template:\n',
    '  template:\n    {{- if .autosync }}\n    syncPolicy: {automated: {}}\n    {{- end }}\n',
  );
  const r = run(text);
  assert.deepEqual(errors(r.ds), ['appset/template-in-structure'], JSON.stringify(r.ds.map((d) => [d.code, d.message])));
  // Its range and message: test/fixtures/rules/appset/template-in-structure.yaml.
  assert.equal(r.ds.find((d) => d.code === 'appset/template-in-structure')?.related?.length, 1);
  // In a templatePatch block scalar the same lines are fine (no error of any prefix).
  const ok = appset(true, "'{{ .name }}'").replace(
    '  template:\n',
    '  templatePatch: |\n    {{- if .autosync }}\n    spec: {syncPolicy: {automated: {}}}\n    {{- end }}\n  template:\n',
  );
  assert.deepEqual(errors(run(ok).ds), []);
});
