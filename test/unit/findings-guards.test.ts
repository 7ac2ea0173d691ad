// Issue 10: generator/missing-param agrees with the preview — a reference guarded by default, if,
// with, hasKey, coalesce, dig, ternary or empty renders its fallback, so it is not "missing". Here,
// what each construct guards in the template library; the findings are a rule fixture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { referencedParams } from '@appset-tools/gotemplate';

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

// missing-param: guarded references are not reported, unguarded ones are (with the Applications):
// test/fixtures/rules/generator/missing-param-guards.yaml.
