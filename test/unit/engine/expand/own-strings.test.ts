/**
 * engine/expand/ownStrings.ts: the template an expansion renders, copied with strings of its own. The copy
 * must render exactly as the original (same values, same shape, shared parts shared, a `__proto__` key
 * kept as a key) and be made once per template object.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { ownStrings, ownTemplate } from '../../../../server/src/engine/expand/ownStrings';

test('the copy holds the same values, a __proto__ key as a key, and shared or cyclic parts once', () => {
  const text = `metadata:
  name: '{{ .service }}-{{ .env }}'
  annotations: {__proto__: kept, note: "a lone surrogate \\ud800 and an emoji \\ud83d\\ude00"}
spec:
  source: &src {repoURL: https://git.example.com/platform/deploy.git, path: apps}
  sources: [*src]
  syncPolicy: {syncOptions: [CreateNamespace=true], automated: {prune: true}, retry: {limit: 5}}
  empty: null
`;
  const template = YAML.parse(text) as Record<string, unknown>;
  const copy = ownStrings(template) as Record<string, unknown>;
  assert.notEqual(copy, template);
  assert.deepEqual(copy, template);
  assert.equal(JSON.stringify(copy), JSON.stringify(template));
  const spec = copy.spec as Record<string, unknown>;
  assert.equal((spec.sources as unknown[])[0], spec.source, 'an alias stays one object');
  const annotations = (copy.metadata as Record<string, unknown>).annotations as Record<string, unknown>;
  assert.ok(Object.hasOwn(annotations, '__proto__'));
  assert.equal(Object.getPrototypeOf(annotations), Object.prototype);

  const cyclic: Record<string, unknown> = { name: 'a-name-longer-than-thirteen' };
  cyclic.self = cyclic;
  const c = ownStrings(cyclic) as Record<string, unknown>;
  assert.equal(c.self, c);
  assert.equal(c.name, 'a-name-longer-than-thirteen');

  const date = new Date(0);
  assert.equal((ownStrings({ at: date }) as { at: Date }).at, date, 'a value that is not plain data is kept as it is');
});

test('the same template object gives the same copy; another object another', () => {
  const a = { spec: { project: 'default-project-name' } };
  assert.equal(ownTemplate(a), ownTemplate(a));
  assert.notEqual(ownTemplate(a), ownTemplate({ ...a }));
});
