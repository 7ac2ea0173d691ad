// Every field of the ApplicationSet has our documentation (validate/fieldDocs.ts): every field path of
// the schema and of Argo CD's CRD resolves to an entry, so a new field cannot stay undocumented; the
// entries that matter say the right thing where they are (hover and completion through the facade).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { APPSET_SCHEMA, resolveRef, type SchemaNode } from '../../../../server/src/engine/validate/schemaIndex';
import { canonicalPath, fieldDoc } from '../../../../server/src/engine/validate/fieldDocs';
import { emptyHost, getLanguageService } from '@appset-tools/engine';
import type { JsonPath } from '../../../../server/src/engine/yaml';

/** Every field path of a schema (list items as index 0; free-form map values are not fields). */
function fieldPaths(root: SchemaNode, resolve: (n: SchemaNode | undefined) => SchemaNode | undefined): JsonPath[] {
  const out: JsonPath[] = [];
  const walk = (node: SchemaNode | undefined, at: JsonPath, depth: number) => {
    const n = resolve(node);
    if (!n || depth > 40) return;
    for (const [k, v] of Object.entries(n.properties ?? {})) {
      out.push([...at, k]);
      walk(v, [...at, k], depth + 1);
    }
    if (n.items) walk(n.items, [...at, 0], depth + 1);
  };
  walk(root, [], 0);
  return out;
}

const undocumented = (paths: JsonPath[]) => [...new Set(paths.filter((p) => !fieldDoc(p)).map((p) => canonicalPath(p).join('.')))];

test('every field path of the schema has documentation', () => {
  const paths = fieldPaths(APPSET_SCHEMA, resolveRef);
  assert.ok(paths.length > 10000, `the schema walk found ${paths.length} field paths`);
  assert.deepEqual(undocumented(paths), []);
});

test("every field path of Argo CD's CRD has documentation (status is not written by users)", (t) => {
  const crd = path.resolve(__dirname, '..', '..', '..', '..', '..', 'shared', 'argocd-data', 'applicationset-crd-v3.5.1.yaml');
  if (!fs.existsSync(crd)) return t.skip('../shared/argocd-data is not available');
  const doc = YAML.parse(fs.readFileSync(crd, 'utf8'));
  const root = doc.spec.versions[0].schema.openAPIV3Schema as SchemaNode;
  const paths = fieldPaths(root, (n) => n).filter((p) => p[0] !== 'status');
  assert.ok(paths.length > 5000);
  assert.deepEqual(undocumented(paths), []);
});

test('the same key is documented for where it is', () => {
  const doc = (...p: JsonPath) => fieldDoc(p)!.doc;
  assert.match(doc('spec', 'generators', 0, 'clusters', 'selector'), /which cluster Secrets/i);
  assert.match(doc('spec', 'generators', 0, 'selector'), /post-selector/i);
  assert.match(doc('spec', 'generators', 0, 'matrix', 'generators', 1, 'clusters', 'selector'), /which cluster Secrets/i);
  assert.match(doc('spec', 'template'), /once for every parameter set/);
  assert.match(doc('spec', 'generators', 0, 'git', 'template'), /merged over `spec.template`/);
  assert.match(doc('spec', 'generators', 0, 'list', 'template', 'spec', 'project'), /AppProject/);
  assert.equal(
    doc('spec', 'template', 'spec', 'sources', 0, 'helm', 'valueFiles'),
    doc('spec', 'template', 'spec', 'source', 'helm', 'valueFiles'),
  );
  assert.match(doc('spec', 'template', 'spec', 'sources', 0, 'plugin'), /config management plugin/);
  assert.match(doc('spec', 'generators', 0, 'plugin'), /HTTP plugin/);
  assert.match(doc('spec', 'generators', 0, 'pullRequest', 'github', 'tokenRef', 'secretName'), /Secret/);
  assert.equal(fieldDoc(['spec', 'nonsense']), undefined);
});

const ls = getLanguageService({ host: emptyHost() });
const HEAD = 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: x\n';
const hoverAt = (text: string, needle: string) => {
  const a = ls.analyze(`mem://${Math.random()}.yaml`, text);
  return ls.hover(a, text.indexOf(needle) + 1)?.markdown ?? '';
};

test('hover shows what a field does, its default, its values and its trap', () => {
  const text =
    HEAD +
    'spec:\n  goTemplate: true\n  goTemplateOptions: ["missingkey=error"]\n  applyNestedSelectors: true\n  syncPolicy:\n    preserveResourcesOnDeletion: true\n' +
    '  strategy:\n    type: RollingSync\n    rollingSync:\n      steps:\n      - matchExpressions:\n        - key: env\n          operator: In\n          values: [dev]\n        maxUpdate: 2\n';
  const strategy = hoverAt(text, 'strategy:');
  assert.match(strategy, /Default: AllAtOnce/);
  // The trap is the field's documentation; where the rollout hover says what happens here, it says it instead.
  assert.match(
    fieldDoc(['spec', 'strategy'])?.trap ?? '',
    /Ignored, without any warning, unless the ApplicationSet controller runs with progressive syncs enabled/,
  );
  // Here: the plan as it would run, and that nothing enables progressive syncs (the warning on the key says
  // the consequence; the hover does not repeat it, nor the trap).
  assert.match(strategy, /^\*\*RollingSync, if enabled: 1 step · /);
  assert.match(strategy, /\n\nProgressive syncs: not enabled \(nothing found; the controller's default is off\)/);
  assert.doesNotMatch(strategy, /Ignored, without any warning/);
  const maxUpdate = hoverAt(text, 'maxUpdate');
  assert.match(maxUpdate, /How many Applications of this step may sync at the same time/);
  assert.match(maxUpdate, /Default: unlimited/);
  assert.match(hoverAt(text, 'matchExpressions'), /Application labels, not cluster labels/);
  assert.match(hoverAt(text, 'operator'), /Values: `In`, `NotIn`\./);
  const options = hoverAt(text, 'goTemplateOptions');
  assert.match(options, /missingkey=error/);
  assert.match(options, /Values: `missingkey=error`, `missingkey=zero`, `missingkey=default`, `missingkey=invalid`/);
  assert.match(hoverAt(text, 'preserveResourcesOnDeletion'), /leaves its Kubernetes resources running/);
  assert.match(hoverAt(text, 'applyNestedSelectors'), /Ignored since Argo CD 3\.0/);
});

test('completion items of field names carry the documentation', () => {
  const text = HEAD + 'spec:\n  strategy:\n    rollingSync:\n      steps:\n      - matchExpressions: []\n        max';
  const a = ls.analyze('mem://complete.yaml', text);
  const item = ls.completions(a, text.length).find((c) => c.label === 'maxUpdate');
  assert.match(String(item?.documentation), /a quoted number like `"3"` is invalid and means 1/);
  const top = HEAD + 'spec:\n  goTemplate: true\n  goTemplateOp';
  const b = ls.analyze('mem://complete2.yaml', top);
  const opt = ls.completions(b, top.length).find((c) => c.label === 'goTemplateOptions');
  assert.match(String(opt?.documentation), /missingkey=error/);
});
