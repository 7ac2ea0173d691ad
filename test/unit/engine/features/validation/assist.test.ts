// Completions of field names / values and hover on fields, from the schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { emptyHost } from '@appset-tools/engine';
import { validationContributor } from '../../../../../server/src/engine/features/validation/contributor';

const ls = getLanguageService({ host: emptyHost(), contributors: [validationContributor] });
const at = (textWithCursor: string) => {
  const offset = textWithCursor.indexOf('|');
  const text = textWithCursor.replace('|', '');
  return { a: ls.analyze(`mem://${Math.random()}.yaml`, text), offset };
};
const HEAD = 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: x\n';

test('field names of the mapping at the cursor, without the ones already present', () => {
  const { a, offset } = at(HEAD + 'spec:\n  goTemplate: true\n  str|\n');
  const labels = ls.completions(a, offset).map((c) => c.label);
  assert.ok(labels.includes('strategy'));
  assert.ok(labels.includes('generators'));
  assert.ok(!labels.includes('goTemplate'));
  const strategy = ls.completions(a, offset).find((c) => c.label === 'strategy');
  assert.equal(strategy?.span?.end, offset);
  assert.equal(strategy?.span?.start, offset - 3);
});

test('field names inside a list item (rollingSync step) and a new list item', () => {
  const inStep = at(HEAD + 'spec:\n  strategy:\n    rollingSync:\n      steps:\n      - matchExpressions: []\n        max|\n');
  assert.deepEqual(inStep.a && ls.completions(inStep.a, inStep.offset).map((c) => c.label), ['maxUpdate']);
  const newGen = at(HEAD + 'spec:\n  generators:\n  - list: {}\n  - |\n');
  const labels = ls.completions(newGen.a, newGen.offset).map((c) => c.label);
  assert.ok(labels.includes('matrix') && labels.includes('clusters') && labels.includes('list'));
});

test('values: enums of the CRD and values the controller understands', () => {
  const t = at(HEAD + 'spec:\n  strategy:\n    type: R|\n');
  assert.deepEqual(
    ls.completions(t.a, t.offset).map((c) => c.label),
    ['AllAtOnce', 'RollingSync'],
  );
  const e = at(HEAD + 'spec:\n  syncPolicy:\n    applicationsSync: |\n');
  assert.deepEqual(
    ls.completions(e.a, e.offset).map((c) => c.label),
    ['create-only', 'create-update', 'create-delete', 'sync'],
  );
  const b = at(HEAD + 'spec:\n  goTemplate: |\n');
  assert.deepEqual(
    ls.completions(b.a, b.offset).map((c) => c.label),
    ['true', 'false'],
  );
  const op = at(
    HEAD + 'spec:\n  strategy:\n    rollingSync:\n      steps:\n      - matchExpressions:\n        - key: env\n          operator: |\n',
  );
  assert.deepEqual(
    ls.completions(op.a, op.offset).map((c) => c.label),
    ['In', 'NotIn'],
  );
});

test('hover on a field: type, path and a note for tricky fields', () => {
  const text = HEAD + 'spec:\n  strategy:\n    rollingSync:\n      steps:\n      - maxUpdate: 2\n';
  const a = ls.analyze('mem://hover.yaml', text);
  const h = ls.hover(a, text.indexOf('maxUpdate') + 2);
  assert.ok(h);
  assert.match(h!.markdown, /^\*\*maxUpdate\*\* — an integer or a string like "25%"/);
  assert.match(h!.markdown, /spec\.strategy\.rollingSync\.steps\[0\]\.maxUpdate/);
  assert.match(h!.markdown, /"3"` is invalid and means 1/);
  assert.equal(text.slice(h!.span.start, h!.span.end), 'maxUpdate');
  assert.equal(ls.hover(a, text.indexOf(': 2') + 2), undefined, 'no hover on values');
});
