// Bad input never crashes or hangs the validation: it ends in diagnostics, quickly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appset, validateText } from './helpers';
import { getLanguageService } from '@appset-tools/engine';
import { emptyHost } from '@appset-tools/engine';

const HEAD = 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: x\n';

/** A hang guard, not a speed test (speed is `npm run bench`): bounds are 5× generous for shared, noisy machines. */
function timed<T>(fn: () => T, maxMs: number, what: string): T {
  maxMs *= 5;
  const t = Date.now();
  const r = fn();
  const ms = Date.now() - t;
  assert.ok(ms < maxMs, `${what} took ${ms} ms`);
  return r;
}

test('broken YAML: syntax diagnostics at their position, no crash', () => {
  const text = HEAD + 'spec:\n  generators:\n  - list: {elements: [\n  template: "unclosed\n';
  const ds = validateText(text);
  assert.ok(ds.some((d) => d.code === 'yaml/syntax'));
  for (const d of ds) assert.ok(d.span.start >= 0 && d.span.end <= text.length + 1);
});

test('wrong types everywhere', () => {
  const bodies = [
    'spec: 5',
    'spec: [1, 2]',
    'spec:\n  generators: "x"\n  template: []',
    'spec:\n  generators: [1, "a", [], null, {matrix: 3}, {merge: {generators: 5, mergeKeys: "k"}}]\n  template: {metadata: 1, spec: "x"}',
    'spec:\n  strategy: {type: 5, rollingSync: {steps: [5, {matchExpressions: 3}, {matchExpressions: [1, {operator: 5}]}, {maxUpdate: {}}]}, deletionOrder: []}\n  generators: []\n  template: {}',
    'spec:\n  goTemplateOptions: [1, {a: b}, null]\n  templatePatch: 12\n  generators: [{list: [], selector: {matchExpressions: [{operator: []}], matchLabels: [1]}}]',
    'spec:\n  generators: [{matrix: {generators: [{matrix: {generators: [{matrix: 1}, {merge: null}]}}, {}]}}]',
  ];
  for (const b of bodies) {
    const ds = validateText(HEAD + b + '\n');
    assert.ok(ds.length > 0, b);
    for (const d of ds) assert.ok(typeof d.message === 'string' && d.message.length > 0 && d.span.end >= d.span.start, b);
  }
});

test('__proto__ and other hostile keys are reported as unknown fields and do not pollute prototypes', () => {
  const text = appset('  __proto__:\n    polluted: true\n  constructor: {prototype: {x: 1}}\n', {
    generators: '  - list:\n      elements:\n      - __proto__: {admin: true}\n        name: a\n    __proto__: {x: 1}',
  });
  const ds = validateText(text);
  const unknown = ds
    .filter((d) => d.code === 'appset/unknown-field')
    .map((d) => d.text)
    .sort();
  assert.deepEqual(unknown, ['__proto__', '__proto__', 'constructor']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(({} as Record<string, unknown>).admin, undefined);
});

test('alias bomb (billion laughs) ends in a diagnostic, fast', () => {
  let text = HEAD + 'spec:\n  generators:\n  - list:\n      elements:\n      - a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
  for (let i = 1; i < 12; i++)
    text += `      - a${i}: &a${i} [${Array(10)
      .fill(`*a${i - 1}`)
      .join(', ')}]\n`;
  text += '  template: {}\n';
  const ds = timed(() => validateText(text), 3000, 'alias bomb');
  assert.ok(
    ds.some((d) => d.code === 'yaml/alias-limit'),
    ds.map((d) => d.code).join(),
  );
});

test('huge inputs stay fast: 5000 generators, 20000 list elements, deep nesting', () => {
  const many = Array.from({ length: 5000 }, (_, i) => `  - list:\n      elements: [{name: e${i}}]\n      elementz: []`).join('\n');
  const ds = timed(() => validateText(appset('', { generators: many })), 8000, '5000 generators');
  assert.ok(ds.length > 0 && ds.length <= 200, `${ds.length} diagnostics (capped)`);
  const elements = '  - list:\n      elements:\n' + Array.from({ length: 20000 }, (_, i) => `      - {name: e${i}, v: ${i}}`).join('\n');
  timed(() => validateText(appset('', { generators: elements })), 8000, '20000 elements');
  const deep = HEAD + 'spec:\n  generators:\n  - list:\n      elements:\n      - x: ' + '['.repeat(2000) + ']'.repeat(2000) + '\n';
  timed(() => validateText(deep), 8000, 'deep nesting');
});

test('the language service isolates and survives all of the above', () => {
  const ls = getLanguageService({ host: emptyHost() });
  for (const text of [
    '',
    '---\n---\n',
    ':\n-',
    HEAD,
    HEAD + 'spec: {generators: [{}], template: {}}\n',
    '\u0000\uffff',
    'kind: ApplicationSet\n'.repeat(3),
  ]) {
    const a = ls.analyze('mem://x.yaml', text);
    assert.ok(Array.isArray(ls.diagnostics(a)));
    for (let off = 0; off <= text.length; off += 7) {
      ls.completions(a, off);
      ls.hover(a, off);
    }
  }
});
