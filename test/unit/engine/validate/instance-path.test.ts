// Schema findings start from ajv's instancePath (a JSON pointer): validate/instancePath.ts resolves it
// in one walk down the located fields. Every field so reached has the place the path look-up gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nodeAt, spanAt, type JsonPath } from '../../../../server/src/engine/yaml';
import { parseFile, type AppSetDoc } from '../../../../server/src/engine/kinds';
import { instanceAt } from '../../../../server/src/engine/validate/instancePath';
import { repositoryYaml } from '../../../helpers/yamlCorpus';

/** Every path of a JSON value (the first `max`), and a pointer to it as ajv writes it. */
function paths(v: unknown, max: number, at: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  if (out.length >= max) return out;
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, max, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, max, [...at, k], out);
  return out;
}
const pointer = (p: JsonPath) => p.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');

function assertPointers(doc: AppSetDoc, where: string, extra: JsonPath[] = []): number {
  let n = 0;
  for (const p of [...paths(doc.value, 400), ...extra]) {
    const { path, at } = instanceAt(doc, pointer(p), doc.value);
    const here = `${where} ${pointer(p)}`;
    assert.deepEqual(path, p, here);
    assert.equal(at.exact, nodeAt(doc.doc, p).exact, here);
    assert.deepEqual(at.span, spanAt(doc.doc, p), here);
    assert.deepEqual(at.keySpan, spanAt(doc.doc, p, 'key'), here);
    n++;
  }
  return n;
}

test('every path of every repository ApplicationSet, as a pointer, reaches the field the path look-up finds', () => {
  let checked = 0;
  for (const file of repositoryYaml())
    for (const doc of parseFile(readFileSync(file, 'utf8')).appsets) checked += assertPointers(doc, file);
  assert.ok(checked > 1000, `only ${checked} pointers checked`);
});

test('escaped segments, digit keys of a map, and paths below a missing field', () => {
  const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: s
  annotations:
    a/b~c: x
    "0": y
spec:
  generators:
    - list: {elements: [{cluster: a}]}
`;
  const [doc] = parseFile(text).appsets;
  assertPointers(doc, 's', [
    ['metadata', 'annotations', 'a/b~c'],
    ['metadata', 'annotations', '0'],
    ['spec', 'template', 'spec', 'project'],
    ['spec', 'generators', 3, 'list'],
  ]);
  const { path, at } = instanceAt(doc, '/metadata/annotations/a~1b~0c', doc.value);
  assert.deepEqual(path, ['metadata', 'annotations', 'a/b~c']);
  assert.equal(text.slice(at.span.start, at.span.end), 'x');
  // A digit segment names an index only in a list.
  assert.deepEqual(instanceAt(doc, '/metadata/annotations/0', doc.value).path, ['metadata', 'annotations', '0']);
  assert.deepEqual(instanceAt(doc, '/spec/generators/0', doc.value).path, ['spec', 'generators', 0]);
});
