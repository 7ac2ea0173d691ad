import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFile } from '../../../../server/src/engine/yaml/document';

test('parseFile finds ApplicationSets among other documents', () => {
  const f = parseFile(
    'kind: ConfigMap\napiVersion: v1\n---\napiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: x}\n',
  );
  assert.equal(f.docs.length, 2);
  assert.equal(f.appsets.length, 1);
  assert.equal(f.appsets[0].name, 'x');
});
