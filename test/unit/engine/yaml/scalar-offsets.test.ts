/**
 * Template positions inside YAML string scalars map back to the document whatever the scalar
 * style, so render diagnostics underline the failing action itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { valueSpan } from '../../../../server/src/engine/yaml/scalarOffsets';

function placed(text: string, needle: string): string {
  const doc = YAML.parseDocument(text);
  const node = (doc.contents as YAML.YAMLMap).items[0].value as YAML.Scalar;
  const v = String(node.value);
  const off = v.indexOf(needle);
  assert.ok(off >= 0, `value ${JSON.stringify(v)} lacks ${needle}`);
  const s = valueSpan(text, { start: node.range![0], end: node.range![1] }, v, off, needle.length);
  assert.ok(s);
  return text.slice(s.start, s.end);
}

const CASES: [string, string][] = [
  ['double-quoted with escaped quotes before the action', `a: "{{ .x | printf \\"%s\\" }}-{{ .nope }}"`],
  ['double-quoted with a \\u escape', `a: "caf\\u00e9 {{ .nope }}"`],
  ['double-quoted with an escaped line break', `a: "{{ .x }}\\\n   {{ .nope }}"`],
  ['single-quoted with a doubled quote', `a: '{{ .x }}''s {{ .nope }}'`],
  ['literal block scalar, deeper-indented line', `a: |\n  line1\n  {{ .x }}\n    {{ .nope }}\n`],
  ['folded block scalar', `a: >-\n  line1\n  {{ .x }} {{ .nope }}\n`],
  ['plain scalar folded over two lines', `a: plain {{ .x }}\n  folded {{ .nope }}\n`],
  ['flow mapping value', `a: {b: 1}\n`.replace('{b: 1}', "'{{ .nope }}'")],
];

for (const [name, text] of CASES) {
  test(`scalar offsets: ${name}`, () => {
    assert.equal(placed(text, '.nope'), '.nope');
  });
}

test('scalar offsets: an action spanning an escape keeps its source text', () => {
  assert.equal(placed(`a: "{{ printf \\"%s\\" .nope }}"`, 'printf "%s"'), 'printf \\"%s\\"');
});

test('scalar offsets: out-of-range offsets are refused, not guessed', () => {
  assert.equal(valueSpan('a: x', { start: 3, end: 4 }, 'x', 5, 1), undefined);
});
