/**
 * The fast YAML writer (engine/yaml/fastWrite.ts) gives the `yaml` library's text or nothing: over the
 * value of every document of the repository's (and ../shared's) YAML, over the story's 540 generated
 * Applications (the preview's text is theirs joined: expand/preview.ts), and over seeded random values
 * with keys and strings that mean something in YAML, in both modes (`lineSafe` for CI output).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as YAML from 'yaml';
import { fastWriteYaml } from '../../../../server/src/engine/yaml/fastWrite';
import { libraryStringifyYaml, stringifyYaml } from '../../../../server/src/engine/yaml/parse';
import { repositoryYaml } from '../../../helpers/yamlCorpus';
import { seededRandom } from '../../../helpers/random';
import { storyAppSet, storySecrets } from '../../../helpers/story';
import { workspaceFor } from '../../generators-helpers';

/** Whether the fast writer answered; when it did, its text is the library's. */
function same(value: unknown, what: string): boolean {
  let answered = false;
  for (const lineSafe of [false, true]) {
    const fast = fastWriteYaml(value, lineSafe);
    if (fast === undefined) continue;
    answered = true;
    assert.equal(fast, libraryStringifyYaml(value, lineSafe), `${what} (lineSafe ${lineSafe}): ${JSON.stringify(value)?.slice(0, 500)}`);
  }
  return answered;
}

test('the fast writer writes every YAML document of the repository as the library does, or gives up', () => {
  let values = 0;
  let answered = 0;
  for (const file of repositoryYaml()) {
    for (const doc of YAML.parseAllDocuments(readFileSync(file, 'utf8'), { logLevel: 'silent' }) as YAML.Document.Parsed[]) {
      let value: unknown;
      try {
        value = doc.toJS({ maxAliasCount: 100 });
      } catch {
        continue;
      }
      values++;
      if (same(value, file)) answered++;
    }
  }
  // Most of them are plain maps and lists of one-line scalars.
  assert.ok(values > 100 && answered > values / 2, `${answered} of ${values} written fast`);
});

test("the story's 540 Applications: the fast writer writes each one as the library does", (t) => {
  // The preview's text is these texts joined with their header lines (expand/preview.ts `appYaml`).
  const ws = workspaceFor(t, { 'clusters.yaml': storySecrets() });
  const exp = ws.expand(storyAppSet('go'));
  assert.equal(exp.apps.length, 540);
  for (const a of exp.apps) assert.ok(same(a.app, a.name), `${a.name} not written fast`);
});

const WORDS = [
  '',
  'a',
  'name',
  '-',
  '- x',
  'a: b',
  'a:b',
  ':x',
  '::warning',
  ' :x',
  '#',
  'x #y',
  'x# y',
  'true',
  'True',
  'yes',
  'on',
  'off',
  'null',
  '~',
  'Null',
  '1',
  '-1',
  '0x1f',
  '0o7',
  '1e3',
  '.5',
  '+1',
  '1_000',
  '.inf',
  '.NaN',
  '2001-12-14',
  '@x',
  '`x',
  '"q"',
  "'q'",
  ' lead',
  'trail ',
  '{',
  '}',
  '[',
  ']',
  ',',
  '*a',
  '&a',
  '!t',
  '%x',
  '|',
  '>',
  '---',
  '...',
  '? x',
  'é',
  '日本',
  '😀',
  'a\nb',
  'a\tb',
  '\u2028',
  '\u0085',
  '\ufeffx',
  'x'.repeat(200),
  'https://example.com/a?b=c#d',
  '{{ .name }}',
  '${x}',
  'a b  c',
  '=',
  '<<',
  '__proto__',
  'constructor',
  'a'.repeat(1100),
];

function randomValue(rand: () => number, depth: number): unknown {
  const r = rand();
  const pick = () => WORDS[Math.floor(rand() * WORDS.length)];
  if (depth > 4 || r < 0.45) {
    const s = rand();
    if (s < 0.7) return pick();
    if (s < 0.8) return [0, -0, 1.5, -2, 1e21, 1e-7, NaN, Infinity, -Infinity, 123456789012][Math.floor(rand() * 10)];
    if (s < 0.9) return rand() < 0.5;
    return s < 0.97 ? null : undefined;
  }
  const n = Math.floor(rand() * 4);
  if (r < 0.7) {
    const o: Record<string, unknown> = {};
    for (let i = 0; i < n; i++)
      Object.defineProperty(o, pick(), { value: randomValue(rand, depth + 1), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return Array.from({ length: n }, () => randomValue(rand, depth + 1));
}

test('the fast writer writes seeded random values as the library does, or gives up', () => {
  const rand = seededRandom(29);
  let answered = 0;
  for (let i = 0; i < 5000; i++) if (same(randomValue(rand, 0), `value ${i}`)) answered++;
  assert.ok(answered > 1000, `${answered} of 5000 written fast`);
});

test('stringifyYaml gives the library text for what the fast writer does not write', () => {
  for (const v of [{ a: 'x\ny' }, { a: undefined, b: 1 }, { d: new Date(0) }, 'scalar', { ['k'.repeat(1100)]: 1 }, { a: ':: x' }])
    for (const lineSafe of [false, true]) assert.equal(stringifyYaml(v, lineSafe), libraryStringifyYaml(v, lineSafe));
});
