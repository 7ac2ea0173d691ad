// The ApplicationSet's located fields (engine/fields/): every field carries the place spanAt would give its path,
// so a check that takes its span from the located fields underlines exactly what a path lookup did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nodeAt, spanAt, type JsonPath } from '../../../../server/src/engine/yaml';
import { parseFile, type AppSetDoc } from '../../../../server/src/engine/kinds';
import { fieldsOf } from '../../../../server/src/engine/fields/appset';
import { readStrategy, stepKeySpan } from '../../../../server/src/engine/fields/strategy';
import { sub, subPath, type Field } from '../../../../server/src/engine/fields/place';
import { below, inGenerators, type GeneratorEntryFields } from '../../../../server/src/engine/fields/generatorFields';
import { repositoryYaml } from '../../../helpers/yamlCorpus';

type Json = Field['value'];

/** The value at a path of the document's JSON (own keys only, as the engine reads user objects). */
function jsonAt(v: Json, path: JsonPath): Json {
  for (const seg of path) {
    if (Array.isArray(v) && typeof seg === 'number') v = v[seg];
    else if (v && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, seg))
      v = (v as Record<string, Json>)[seg];
    else return undefined;
  }
  return v;
}

/** Every located field with the path it stands for. */
function fields(doc: AppSetDoc): [JsonPath, Field][] {
  const v = fieldsOf(doc);
  const s = v.strategy;
  const out: [JsonPath, Field][] = [
    [[], v.root],
    [['metadata'], v.metadata],
    [['metadata', 'finalizers'], v.finalizers],
    [['spec'], v.spec],
    [['spec', 'generators'], v.generators],
    ...v.generatorList.map((g, i): [JsonPath, Field] => [['spec', 'generators', i], g]),
    [['spec', 'template'], v.template],
    [['spec', 'template', 'spec'], v.templateSpec],
    [['spec', 'template', 'metadata', 'name'], v.templateName],
    [['spec', 'template', 'spec', 'destination'], v.templateDestination],
    [['spec', 'template', 'spec', 'project'], v.templateProject],
    [['spec', 'template', 'spec', 'syncPolicy', 'automated'], v.templateAutomated],
    [['spec', 'templatePatch'], v.templatePatch],
    [['spec', 'syncPolicy'], v.syncPolicy],
    [['spec', 'syncPolicy', 'applicationsSync'], v.applicationsSync],
    [['spec', 'goTemplate'], v.goTemplate],
    [['spec', 'goTemplateOptions'], v.goTemplateOptions],
    [['spec', 'ignoreApplicationDifferences'], v.ignoreApplicationDifferences],
    [['spec', 'strategy'], s.at.strategy],
    [['spec', 'strategy', 'type'], s.at.type],
    [['spec', 'strategy', 'rollingSync'], s.at.rollingSync],
    [['spec', 'strategy', 'rollingSync', 'steps'], s.at.steps],
    [['spec', 'strategy', 'deletionOrder'], s.at.deletionOrder],
  ];
  for (const st of s.steps) {
    out.push(
      [st.path, st.at.step],
      [[...st.path, 'matchExpressions'], st.at.matchExpressions],
      [[...st.path, 'maxUpdate'], st.at.maxUpdate],
    );
    for (const e of st.matchExpressions) out.push([e.path, e.at.expression], [[...e.path, 'operator'], e.at.operator]);
  }
  for (const g of v.generatorEntries) out.push(...entryFields(g));
  return out;
}

/** The fields of a generator entry and of the matrix/merge children below it, with their paths. */
function entryFields(g: GeneratorEntryFields): [JsonPath, Field][] {
  const out: [JsonPath, Field][] = [[g.path, g.at]];
  for (const k of g.kinds) out.push([[...g.path, k], g.kindAt[k] as Field]);
  for (const s of g.selectors) {
    out.push([s.path, s.at]);
    for (const l of s.labels) out.push([[...s.path, 'matchLabels', l.key], l.at]);
    for (const e of s.expressions) {
      const p = [...s.path, 'matchExpressions', e.index];
      out.push([p, e.at], [[...p, 'key'], e.key], [[...p, 'operator'], e.operator], [[...p, 'values'], e.values]);
    }
  }
  for (const pat of g.gitPatterns) {
    const p = [...g.path, 'git', pat.what, pat.index];
    out.push([p, pat.at], [[...p, 'path'], pat.path], [[...p, 'exclude'], pat.exclude]);
  }
  for (const c of g.combined) {
    out.push(
      [[...g.path, c.kind], c.at],
      [[...g.path, c.kind, 'generators'], c.generators],
      [[...g.path, c.kind, 'mergeKeys'], c.mergeKeys],
    );
    for (const child of c.children) out.push(...entryFields(child));
  }
  return out;
}

function assertPlaces(doc: AppSetDoc, where: string): number {
  let n = 0;
  for (const [path, f] of fields(doc)) {
    const at = `${where} ${path.join('.')}`;
    const found = nodeAt(doc.doc, path);
    assert.equal(f.exact, found.exact, at);
    assert.deepEqual(f.span, spanAt(doc.doc, path), at);
    assert.deepEqual(f.keySpan, spanAt(doc.doc, path, 'key'), at);
    assert.deepEqual(f.value, jsonAt(doc.value, path), at);
    n++;
  }
  return n;
}

test("every field of every repository ApplicationSet has the place spanAt gives its path, and the document's value", () => {
  let checked = 0;
  for (const file of repositoryYaml()) {
    const parsed = parseFile(readFileSync(file, 'utf8'));
    for (const doc of parsed.appsets) checked += assertPlaces(doc, file);
  }
  assert.ok(checked > 1000, `only ${checked} fields checked`);
});

test('a field the document does not have sits where the nearest enclosing field is, as spanAt says', () => {
  const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: s
spec:
  strategy:
    type: RollingSync
    rollingSync:
  template: {}
---
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: t}
spec:
  strategy:
    type: RollingSync
    rollingSync:
      steps:
        - maxUpdate: 0
        - matchExpressions: [{key: a, operator: In, values: [x]}]
          maxUpdate: 25%
`;
  const [s, t] = parseFile(text).appsets;
  assertPlaces(s, 's');
  assertPlaces(t, 't');
  const vs = fieldsOf(s).strategy;
  assert.equal(vs.at.steps.exact, false);
  assert.deepEqual(vs.at.steps.keySpan, spanAt(s.doc, ['spec', 'strategy', 'rollingSync'], 'key'));
  assert.equal(text.slice(vs.at.steps.keySpan.start, vs.at.steps.keySpan.end), 'rollingSync');
  const [first, second] = fieldsOf(t).strategy.steps;
  // A step with no matchExpressions: its finding sits on the step; else on `matchExpressions`.
  assert.match(text.slice(stepKeySpan(first).start, stepKeySpan(first).end), /^maxUpdate: 0\s*$/);
  assert.equal(text.slice(stepKeySpan(second).start, stepKeySpan(second).end), 'matchExpressions');
  assert.equal(text.slice(second.at.maxUpdate.span.start, second.at.maxUpdate.span.end), '25%');
  assert.equal(second.maxUpdate, '25%');
});

test('the located fields are read once per document, and a bare value reads the same strategy', () => {
  const doc = parseFile(
    'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: a}\nspec:\n  strategy: {type: RollingSync, rollingSync: {steps: [{maxUpdate: 2}]}}\n',
  ).appsets[0];
  assert.equal(fieldsOf(doc), fieldsOf(doc));
  const strip = ({ at: _at, ...rest }: { at: unknown }) => rest;
  const bare = readStrategy(doc.value);
  const placed = fieldsOf(doc).strategy;
  assert.deepEqual({ ...strip(bare), steps: bare.steps.map(strip) }, { ...strip(placed), steps: placed.steps.map(strip) });
  assert.equal(bare.steps[0].at.maxUpdate.exact, false);
  assert.equal(placed.steps[0].at.maxUpdate.exact, true);
});

test('generator entries, their selectors, git patterns and matrix/merge children carry the places spanAt gives', () => {
  const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: g}
spec:
  generators:
    -
    - {}
    - list: {elements: []}
      clusters:
        selector:
          matchLabels: {"bad key": x}
          matchExpressions: [{key: a, operator: In}, 3, {key: b, operator: Exists, values: [x]}]
    - matrix:
        generators:
          - git: {repoURL: x, directories: [{path: '!a'}, {path: b, exclude: true}]}
          - merge:
              mergeKeys: []
              generators:
                - matrix: {generators: [{list: {}}]}
      selector: {matchLabels: {}}
    - clusterDecisionResource: {labelSelector: {matchExpressions: [{key: k, operator: NotIn, values: []}]}}
`;
  const [doc] = parseFile(text).appsets;
  const n = assertPlaces(doc, 'g');
  const entries = fieldsOf(doc).generatorEntries;
  assert.equal(entries.length, 5);
  assert.deepEqual(entries[2].kinds, ['list', 'clusters']);
  assert.equal(entries[2].selectors[0].expressions.length, 2, 'the non-map expression is not read');
  const [, merge] = entries[3].combined[0].children;
  assert.equal(merge.level, 2);
  assert.equal(merge.combined[0].children[0].level, 3);
  assert.deepEqual(merge.combined[0].children[0].combined[0].children, [], 'nothing is read below the third level');
  const neg = entries[3].combined[0].children[0].gitPatterns[0].path;
  assert.equal(text.slice(neg.span.start, neg.span.end), "'!a'");
  assert.ok(n > 40, `only ${n} fields checked`);
});

test("a generator's reported path is walked from its entry's field to the place spanAt gives, present or not", () => {
  const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: r}
spec:
  generators:
    - list:
        elements:
          - {cluster: a}
          -
      selector: {matchLabels: {env: prod}}
    - matrix:
        generators:
          - git: {repoURL: x, files: [{path: 'a/*.yaml'}]}
          - list: {elementsYaml: "{{ .x }}"}
`;
  const [doc] = parseFile(text).appsets;
  const list = fieldsOf(doc).generatorList;
  const paths: JsonPath[] = [
    ['spec', 'generators', 0],
    ['spec', 'generators', 0, 'list', 'elements', 0],
    ['spec', 'generators', 0, 'list', 'elements', 1],
    ['spec', 'generators', 0, 'list', 'elements', 7, 'cluster'],
    ['spec', 'generators', 0, 'selector', 'matchLabels', 'env'],
    ['spec', 'generators', 0, 'selector', 'matchLabels', 'nope'],
    ['spec', 'generators', 1, 'matrix', 'generators', 0, 'git', 'files', 0, 'path'],
    ['spec', 'generators', 1, 'matrix', 'generators', 1, 'list', 'elementsYaml'],
    ['spec', 'generators', 1, 'matrix', 'generators', 1, 'list', 'elements'],
  ];
  for (const path of paths) {
    const gi = path[2] as number;
    const f = below(list[gi], ['spec', 'generators', gi], path);
    const n = nodeAt(doc.doc, path);
    assert.ok(f, path.join('/'));
    assert.deepEqual([f.span, f.keySpan], [spanAt(doc.doc, path), spanAt(doc.doc, path, 'key')], path.join('/'));
    assert.deepEqual([f.valueRange, f.keyRange, f.exact], [n.value, n.key, n.exact], path.join('/'));
    assert.deepEqual(inGenerators(list, path), f, path.join('/'));
  }
  assert.equal(below(list[0], ['spec', 'generators', 0], ['spec', 'generators', 1, 'matrix']), undefined, 'another entry');
  assert.equal(below(list[0], ['spec', 'generators', 0], ['spec']), undefined, 'above the entry');
  assert.equal(inGenerators(list, ['spec', 'template']), undefined);
  assert.equal(inGenerators(list, ['spec', 'generators', 5, 'list']), undefined, 'no such entry');
});

test('a big map is looked into by an index that finds what spanAt finds, the first of a repeated key too', () => {
  const keys = Array.from({ length: 40 }, (_, i) => `k${i}: v${i}`);
  const text = `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: big}\nspec:\n  template:\n    metadata:\n      labels:\n${keys.map((k) => `        ${k}\n`).join('')}        k3: again\n`;
  const [doc] = parseFile(text).appsets;
  const labels = subPath(fieldsOf(doc).template, ['metadata', 'labels']);
  for (let i = 0; i < 40; i++) {
    const f = sub(labels, `k${i}`);
    const path: JsonPath = ['spec', 'template', 'metadata', 'labels', `k${i}`];
    assert.deepEqual([f.span, f.keySpan], [spanAt(doc.doc, path), spanAt(doc.doc, path, 'key')], `k${i}`);
  }
  const k3 = sub(labels, 'k3');
  assert.equal(text.slice(k3.span.start, k3.span.end), 'v3');
});
