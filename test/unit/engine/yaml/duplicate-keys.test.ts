/**
 * Duplicate keys found with a Map (engine/yaml/duplicateKeys.ts) instead of the `yaml` library's
 * quadratic `uniqueKeys: true`: the same errors (code, message, position) as the library's on
 * generated mappings with repeated keys of every kind, the same findings through `parseYamlFile`, and work
 * that grows linearly with the number of keys (counted, never timed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { composeAllSteps } from '../../../../server/src/engine/yaml/composeSteps';
import { duplicateKeySteps, duplicateKeyWork } from '../../../../server/src/engine/yaml/duplicateKeys';
import { PARSE_OPTIONS } from '../../../../server/src/engine/yaml/parseOptions';
import { parseYamlFile } from '../../../../server/src/engine/yaml/document';
import { parseDocuments, parseGoYaml } from '../../../../server/src/engine/yaml/parse';
import { runSteps } from '@appset-tools/engine';
import { seededRandom } from '../../../helpers/random';

const LIBRARY = { ...PARSE_OPTIONS, uniqueKeys: true } as const;

// Sorted: the library reports an error found at a mapping's end (IMPOSSIBLE) after the keys inside
// it; findings are shown by position (the CLI sorts them, editors too).
const errorsOf = (docs: YAML.Document.Parsed[]) =>
  docs.map((d) => d.errors.map((e) => `${String(e.pos[0]).padStart(6)} ${e.code} ${e.message} ${e.pos.join('-')}`).sort());

function ours(text: string): string[][] {
  const { docs } = runSteps(composeAllSteps(text, 0, PARSE_OPTIONS));
  for (const d of docs) runSteps(duplicateKeySteps(d, text, 0));
  return errorsOf(docs);
}

const library = (text: string) => errorsOf(YAML.parseAllDocuments(text, LIBRARY) as YAML.Document.Parsed[]);

test("the engine's own check is on and the library's quadratic one is off", () => {
  assert.equal(PARSE_OPTIONS.uniqueKeys, false);
});

test('the same errors as the library on 3,000 generated documents with repeated keys', () => {
  const r = seededRandom(2025);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const keys = [
    'a',
    'b',
    '"a"',
    "'b'",
    '1',
    '1.0',
    '"1"',
    '0x1',
    '~',
    'null',
    '',
    '.nan',
    '.NaN',
    'true',
    'yes',
    '!!str a',
    '&x a',
    '*x',
    '? a',
    '[a]',
    '{a: 1}',
  ];
  const values = ['1', 'x', '[1, 2]', '{a: 1, a: 2}', '&x v', '*x', '', '"q'];
  const block = (depth: number, indent: string): string => {
    let out = '';
    const n = 1 + Math.floor(r() * 5);
    for (let i = 0; i < n; i++) {
      const k = pick(keys);
      if (k.startsWith('? ')) out += `${indent}${k}\n${indent}: ${pick(values)}\n`;
      else if (depth < 2 && r() < 0.3) out += `${indent}${k}:\n${block(depth + 1, indent + '  ')}`;
      else out += `${indent}${k}: ${pick(values)}\n`;
    }
    return out;
  };
  const flow = () =>
    `{${Array.from({ length: 1 + Math.floor(r() * 4) }, () => `${pick(keys.filter((k) => !k.startsWith('?')))}: ${pick(['1', 'x', ''])}`).join(', ')}}\n`;
  let dups = 0;
  for (let n = 0; n < 3000; n++) {
    const text = r() < 0.7 ? block(0, '') : flow();
    const want = library(text);
    dups += want.flat().filter((e) => e.includes('DUPLICATE_KEY')).length;
    assert.deepEqual(ours(text), want, text);
  }
  assert.ok(dups > 500, `${dups} duplicate keys met`);
});

test('a duplicate key is the same finding through parseYamlFile, with or without the fast reader', () => {
  const text = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: c\ndata:\n  a: 1\n  b: 2\n  a: 3\n';
  for (const reader of ['fast', 'library'] as const) {
    const f = parseYamlFile(text, undefined, undefined, reader);
    assert.deepEqual(
      f.diagnostics.map((d) => [d.code, d.message, d.span.start, d.span.end]),
      [['yaml/syntax', 'Map keys must be unique', text.lastIndexOf('a: 3'), text.lastIndexOf('a: 3') + 1]],
    );
  }
});

test('checking keys is linear: doubling the keys of one mapping doubles the work', () => {
  // Every other key repeats an earlier one: finding where each is reported is linear too.
  const secret = (n: number) =>
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: c\ndata:\n' +
    Array.from({ length: n }, (_, i) => `  k${i >> 1}: dmFsdWU=\n`).join('');
  const work: number[] = [];
  for (const n of [2500, 5000, 10000, 20000]) {
    const before = duplicateKeyWork.keys;
    const f = parseYamlFile(secret(n), undefined, undefined, 'library');
    assert.equal(f.diagnostics.filter((d) => d.message === 'Map keys must be unique').length, n / 2);
    work.push(duplicateKeyWork.keys - before);
  }
  for (let i = 1; i < work.length; i++) assert.ok(work[i] <= work[i - 1] * 2.5, `work ${work.join(' → ')}`);
});

test("the workspace's and Go's readers (yaml/parse.ts) report duplicates as the library did, with linear work", () => {
  const text = 'a: 1\nb:\n  c: 1\n  c: 2\n---\nx: 1\nx: 2\n';
  const want = YAML.parseAllDocuments(text, { strict: false, logLevel: 'error', prettyErrors: false }).map((d) =>
    d.errors.map((e) => [e.code, e.pos[0]]),
  );
  assert.deepEqual(
    parseDocuments(text).map((d) => d.errors.map((e) => [e.code, e.pos[0]])),
    want,
  );
  assert.throws(() => parseGoYaml('a: 1\na: 2\n'), /Map keys must be unique at line 2, column 1/);
  const work: number[] = [];
  for (const n of [5000, 10000, 20000]) {
    const before = duplicateKeyWork.keys;
    const secret = 'data:\n' + Array.from({ length: n }, (_, i) => `  k${i}: x\n`).join('');
    assert.equal(parseDocuments(secret)[0].errors.length, 0);
    work.push(duplicateKeyWork.keys - before);
  }
  assert.ok(work[1] <= work[0] * 2.5 && work[2] <= work[1] * 2.5, `work ${work.join(' → ')}`);
});

test("a repeated key's error sits where the library's list has it, not only at its position", () => {
  // From the `---` boundary differential (test/helpers/yamlDifferential.ts, seeds 40, 208 and 796):
  // the library checks a key once it has read the tokens before it and the key, so their errors come
  // first, even at or after its offset, and the key's own missing `:` and its value's errors come after.
  const inOrder = (docs: YAML.Document.Parsed[]) => docs.map((d) => d.errors.map((e) => `${e.code} ${e.pos.join('-')}`));
  for (const text of [
    "---\no: *a\na: 1\n- \n {b\nn: &a 1\n- 1\n  d: 'r",
    ": v\n- 1\n-  d: 'r\t\n",
    '\t\ni: >-\n  c: "q\n- {-- # x\nf: {g: 1,\n: v\n--- a',
  ]) {
    const { docs } = runSteps(composeAllSteps(text, 0, PARSE_OPTIONS));
    for (const d of docs) runSteps(duplicateKeySteps(d, text, 0));
    const expected = inOrder(YAML.parseAllDocuments(text, LIBRARY) as YAML.Document.Parsed[]);
    assert.ok(
      expected.flat().some((e) => e.startsWith('DUPLICATE_KEY')),
      JSON.stringify(text),
    );
    assert.deepEqual(inOrder(docs), expected, JSON.stringify(text));
  }
});
