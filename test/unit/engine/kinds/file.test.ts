import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFile } from '../../../../server/src/engine/kinds/file';
import { parseYamlFile } from '../../../../server/src/engine/yaml';

test('parseFile finds ApplicationSets among other documents', () => {
  const f = parseFile(
    'kind: ConfigMap\napiVersion: v1\n---\napiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: x}\n',
  );
  assert.equal(f.docs.length, 2);
  assert.equal(f.appsets.length, 1);
  assert.equal(f.appsets[0].name, 'x');
});

test("a document's findings about what it is follow its own YAML findings, in the order of the documents", () => {
  // Two argo-cd chart values documents, each with a YAML error and an ApplicationSet among its
  // extraObjects: the YAML reader alone gives the syntax findings; parseFile puts each document's
  // Helm findings right after that document's syntax finding.
  const values = (n: number) =>
    `configs: {}\nbad: [${n}\nextraObjects:\n  - apiVersion: argoproj.io/v1alpha1\n    kind: ApplicationSet\n    metadata: {name: e${n}}\n`;
  const text = `${values(1)}---\n${values(2)}`;
  const yaml = parseYamlFile(text);
  assert.equal(yaml.docs.length, 2);
  assert.ok(yaml.diagnostics.every((d) => d.code.startsWith('yaml/')));
  assert.ok(!('appsets' in yaml), 'the YAML reader says nothing about ApplicationSets');
  const f = parseFile(text);
  const codes = f.diagnostics.map((d) => `${d.code}@${text.slice(0, d.span.start).split('\n').length}`);
  assert.deepEqual(
    codes,
    codes.slice().sort((a, b) => Number(a.split('@')[1]) - Number(b.split('@')[1])),
  );
  assert.deepEqual(
    f.diagnostics.filter((d) => d.code.startsWith('yaml/')),
    yaml.diagnostics,
  );
  assert.ok(f.diagnostics.some((d) => d.code === 'helm/chart-template'));
});
