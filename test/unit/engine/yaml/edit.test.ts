import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { appendAt, removePair, replacePair, yamlString } from '../../../../server/src/engine/yaml/edit';
import { applyEdits } from '../../rollout-helpers';

const doc = (t: string) => YAML.parseAllDocuments(t)[0] as YAML.Document.Parsed;
function append(t: string, path: (string | number)[], lines: string[]): string | undefined {
  const e = appendAt(t, doc(t), path, lines);
  return e && applyEdits(t, [e]);
}

test('appendAt: block map keeps its indentation, trailing comments and blank lines stay after', () => {
  const t = 'a:\n    b: 1 # note\n    c:\n      - x\n\n# end\nz: 2\n';
  assert.equal(append(t, ['a'], ['d: 3']), 'a:\n    b: 1 # note\n    c:\n      - x\n    d: 3\n\n# end\nz: 2\n');
});

test('appendAt: creates missing parents under the deepest existing map', () => {
  const t = 'spec:\n  template:\n    metadata:\n      name: x\n';
  assert.equal(
    append(t, ['spec', 'template', 'metadata', 'labels'], ["tier: '{{t}}'"]),
    "spec:\n  template:\n    metadata:\n      name: x\n      labels:\n        tier: '{{t}}'\n",
  );
});

test('appendAt: key with no value, flow map, sequence, no final newline, CRLF', () => {
  assert.equal(append('data:\nx: 1\n', ['data'], ['k: v']), 'data:\n  k: v\nx: 1\n');
  assert.equal(append('labels: {}\n', ['labels'], ['k: v']), 'labels: {k: v}\n');
  assert.equal(append('labels: {a: b}\n', ['labels'], ['k: v']), 'labels: {a: b, k: v}\n');
  assert.equal(append('args:\n- a\n- b', ['args'], ['- c']), 'args:\n- a\n- b\n- c');
  assert.equal(append('a:\r\n  b: 1\r\nc: 2\r\n', ['a'], ['d: 3']), 'a:\r\n  b: 1\r\n  d: 3\r\nc: 2\r\n');
  assert.equal(append('a: [1]\n', ['a', 'b'], ['x: 1']), undefined);
});

test('removePair and replacePair work on whole blocks', () => {
  const t = 'sp:\n  automated:\n    prune: true\n  retry: {limit: 1}\n';
  assert.equal(applyEdits(t, [removePair(t, doc(t), ['sp', 'automated'])!]), 'sp:\n  retry: {limit: 1}\n');
  assert.equal(
    applyEdits(t, [replacePair(t, doc(t), ['sp', 'automated'], ['automated:', '  x: 1'])!]),
    'sp:\n  automated:\n    x: 1\n  retry: {limit: 1}\n',
  );
});

test('yamlString keeps strings strings under YAML 1.1 and 1.2', () => {
  for (const s of ['canary', 'low-traffic', 'yes', 'on', 'true', '1', '1.5', '0x10', 'a b', '', 'null', '~', '-x', '@x', '1e3', "it's"]) {
    const out = yamlString(s);
    assert.equal(YAML.parse(`v: ${out}`, { version: '1.1' }).v, s, out);
    assert.equal(YAML.parse(`v: ${out}`).v, s, out);
  }
  assert.equal(yamlString('canary'), 'canary');
});
