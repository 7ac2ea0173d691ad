// The located document model: nodes carry kind, value, span, key span and parent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeAt, parseYamlFile, pathAt } from '../../../../server/src/engine/yaml/document';
import { parseFile } from '../../../../server/src/engine/kinds';
import { astOf, child, pathOf, walk, type AstNode } from '../../../../server/src/engine/yaml/ast';
import { readFileSync } from 'node:fs';
import { repositoryYaml } from '../../../helpers/yamlCorpus';

const TEXT = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: demo
spec:
  generators:
    - list:
        elements: [{env: dev}, {env: "prod"}]
  template:
    metadata: {name: 'x-{{env}}'}
`;

test('every node knows its span, key span, parent and path', () => {
  const doc = parseYamlFile(TEXT).docs[0].doc;
  const root = astOf(doc) as AstNode;
  assert.equal(root.kind, 'object');
  const prod = child(child(child(child(child(child(child(root, 'spec'), 'generators'), 0), 'list'), 'elements'), 1), 'env');
  assert.ok(prod && prod.kind === 'scalar');
  assert.equal(prod.value, 'prod');
  assert.equal(prod.style, 'double');
  assert.equal(TEXT.slice(prod.span.start, prod.span.end), '"prod"');
  assert.equal(TEXT.slice(prod.keySpan!.start, prod.keySpan!.end), 'env');
  assert.deepEqual(pathOf(prod), ['spec', 'generators', 0, 'list', 'elements', 1, 'env']);
  assert.equal(prod.parent?.kind, 'object');
  assert.equal(prod.parent?.parent?.kind, 'array');
  // The tree is built once per document.
  assert.equal(astOf(doc), root);
});

test('nodeAt and pathAt read the tree: exact paths, the deepest ancestor, the key under the cursor', () => {
  const doc = parseYamlFile(TEXT).docs[0].doc;
  const n = nodeAt(doc, ['metadata', 'name']);
  assert.ok(n.exact);
  assert.equal(TEXT.slice(n.value!.start, n.value!.end), 'demo');
  assert.equal(TEXT.slice(n.key!.start, n.key!.end), 'name');
  const missing = nodeAt(doc, ['metadata', 'labels', 'x']);
  assert.equal(missing.exact, false);
  assert.equal(TEXT.slice(missing.key!.start, missing.key!.end), 'metadata');
  const at = pathAt(doc, TEXT.indexOf('elements') + 2);
  assert.deepEqual(at.path, ['spec', 'generators', 0, 'list', 'elements']);
  assert.equal(at.onKey, true);
  assert.equal(TEXT.slice(at.span!.start, at.span!.end), 'elements');
});

test('walk visits in document order and reaches the bottom of a deeply nested document', () => {
  const doc = parseYamlFile(TEXT).docs[0].doc;
  const keys: string[] = [];
  walk(astOf(doc), (n) => {
    if (typeof n.key === 'string') keys.push(n.key);
  });
  assert.deepEqual(keys.slice(0, 5), ['apiVersion', 'kind', 'metadata', 'name', 'spec']);
  // (deeper than the pre-scan's nesting limit is blanked before parsing; see yaml/limits.ts)
  const deep = 'a: ' + '['.repeat(90) + ']'.repeat(90) + '\n';
  const d = parseYamlFile(deep).docs[0].doc;
  let depth = 0;
  walk(astOf(d), (n) => {
    depth = Math.max(depth, pathOf(n).length);
  });
  assert.ok(depth >= 90, `depth ${depth}`);
});

test("pathAt's trail holds, for each prefix of the cursor's path, what nodeAt gives it: every offset of the repository's ApplicationSets", () => {
  let checked = 0;
  for (const file of repositoryYaml()) {
    const text = readFileSync(file, 'utf8');
    for (const { doc } of parseFile(text).appsets) {
      const r = doc.range ?? [0, 0, 0];
      // Every 7th offset: each key, value and gap is reached in a typical file.
      for (let offset = r[0]; offset <= r[1]; offset += 7) {
        const at = pathAt(doc, offset);
        assert.equal(at.trail.length, at.path.length + 1);
        at.trail.forEach((t, i) => {
          const n = nodeAt(doc, at.path.slice(0, i));
          assert.ok(n.exact, `${file}@${offset}`);
          assert.deepEqual({ key: t.key, value: t.value }, { key: n.key, value: n.value }, `${file}@${offset} ${i}`);
          assert.equal(t.ast, n.ast, `${file}@${offset} ${i}`);
        });
        checked++;
      }
    }
  }
  assert.ok(checked > 1000, `only ${checked} offsets checked`);
});
