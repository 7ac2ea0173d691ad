// Issue 10: generator/missing-param agrees with the preview — a reference guarded by default, if,
// with, hasKey, coalesce, dig, ternary or empty renders its fallback, so it is not "missing".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { referencedParams } from '@appset-tools/gotemplate';
import { getLanguageService, emptyHost } from '@appset-tools/engine';

const guarded = (t: string) => referencedParams(t, true).map((r) => `${r.path.join('.')}${r.guarded ? '?' : ''}`);

test('guards: what each construct protects', () => {
  assert.deepEqual(guarded('{{ .a | default "x" }}'), ['a?']);
  assert.deepEqual(guarded('{{ default "x" .a }}'), ['a?']);
  assert.deepEqual(guarded('{{ coalesce .a .b "z" }}'), ['a?', 'b?']);
  assert.deepEqual(guarded('{{ ternary .a "n" (empty .b) }}'), ['a?', 'b?']);
  assert.deepEqual(guarded('{{ if .a }}{{ .a }}{{ else }}{{ .b }}{{ end }}'), ['a?', 'a?', 'b']);
  assert.deepEqual(guarded('{{ if .metadata }}{{ .metadata.labels.tier }}{{ end }}'), ['metadata?', 'metadata.labels.tier?']);
  assert.deepEqual(guarded('{{ with .x }}{{ .y }}{{ end }}{{ .x.z }}'), ['x?', 'x.y?', 'x.z']);
  assert.deepEqual(guarded('{{ if hasKey .metadata.labels "tier" }}{{ index .metadata.labels "tier" }}{{ end }}'), [
    'metadata.labels?',
    'metadata.labels.tier?',
  ]);
  assert.deepEqual(guarded('{{ dig "a" "b" "def" .values }}'), ['values?']);
  assert.deepEqual(guarded('{{ .a }}-{{ upper .b }}'), ['a', 'b']);
});

const APPSET = (name: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: g, namespace: argocd}
spec:
  goTemplate: true
  generators:
  - list:
      elements:
      - {app: a, team: x}
      - {app: b}
  template:
    metadata: {name: '${name}'}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', path: apps}
      destination: {server: 'https://kubernetes.default.svc', namespace: web}
`;

function missing(name: string): string[] {
  const ls = getLanguageService({ host: emptyHost() });
  const a = ls.analyze('mem://g.yaml', APPSET(name));
  return ls
    .diagnostics(a)
    .filter((d) => d.code === 'generator/missing-param')
    .map((d) => d.message);
}

test('missing-param: guarded references are not reported, unguarded ones are (with the Applications)', () => {
  for (const guardedName of [
    '{{ .app }}-{{ .team | default "none" }}',
    '{{ .app }}{{ if .team }}-{{ .team }}{{ end }}',
    '{{ .app }}{{ with .team }}-{{ . }}{{ end }}',
    '{{ .app }}-{{ coalesce .team "none" }}',
    '{{ .app }}-{{ ternary .team "none" (hasKey . "team") }}',
    '{{ .app }}{{ if not (empty .team) }}-{{ .team }}{{ end }}',
    '{{ .app }}-{{ dig "team" "none" . }}',
  ]) {
    assert.deepEqual(missing(guardedName), [], guardedName);
  }
  assert.deepEqual(missing('{{ .app }}-{{ .team }}'), [
    '.team renders <no value> where it is missing — in 1 of 2 Applications (b-<no value>)',
  ]);
});
