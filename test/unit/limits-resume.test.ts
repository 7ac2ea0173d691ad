/**
 * The limits pre-scan of an edited text resumes from the last scan's states (gotemplate/yamlGuard.ts,
 * `Resume`): before the edit it starts from a kept state, after it it stops where the state equals the
 * last scan's. Its answer must be the one a fresh scan gives, hit or no hit, over random edits of every
 * YAML file of the repository and of generated deep, flow, quoted and block-scalar texts, with the real
 * limits and with small ones that the edits pass and fall back under. The scan alone (`scanYamlLimits`):
 * `checkYamlLimits` answers most texts from its bound first (limits-bound.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanYamlLimits as checkYamlLimits, YAML_LIMITS, type YamlLimits } from '@appset-tools/gotemplate';
import { repoFiles } from '../helpers/memHost';
import { randomEdits } from '../helpers/random';

const SMALL: YamlLimits = { maxChars: 1 << 20, maxLineChars: 90, maxDepth: 7 };
const PIECES = [
  '[[',
  '"',
  '\n',
  '- ',
  '  ',
  '    ',
  'k: ',
  'a',
  '[',
  ']',
  '{',
  '}',
  ', ',
  '"',
  "'",
  '|\n',
  '>-\n',
  '# c',
  '---\n',
  '? ',
  ':',
  '\t',
  '\r\n',
  'x'.repeat(50),
];

const { edit } = randomEdits(39, PIECES);

/** A fresh scan: another text scanned in between leaves nothing to resume from. */
function fresh(text: string, limits: YamlLimits) {
  checkYamlLimits('', limits);
  return checkYamlLimits(text, limits);
}

/** Edits in turn (or each from the text itself, `fromStart`), each scanned after the text before it. */
function typeInto(text: string, edits: number, limits: YamlLimits, fromStart = false): number {
  let resumed = 0;
  const start = text;
  checkYamlLimits(text, limits);
  for (let i = 0; i < edits; i++) {
    if (fromStart) {
      text = start;
      checkYamlLimits(text, limits);
    }
    const next = edit(text);
    const got = checkYamlLimits(next, limits);
    const want = fresh(next, limits);
    assert.deepEqual(got, want, `after an edit of ${JSON.stringify(text.slice(0, 80))}…`);
    // Scan it again as the keystroke's text: the next edit resumes from this one.
    checkYamlLimits(next, limits);
    if (!got) resumed++;
    text = next;
  }
  return resumed;
}

test('an edited text gets the answer of a fresh scan (every YAML file of the repository, random edits)', () => {
  const files = [...repoFiles((n) => /\.ya?ml$/i.test(n), 'examples', 'test/fixtures').values()].filter((t) => t.length > 200);
  assert.ok(files.length > 50, `${files.length} files`);
  let passed = 0;
  for (const text of files) {
    passed += typeInto(text, 6, YAML_LIMITS);
    typeInto(text, 6, SMALL);
  }
  assert.ok(passed > 100, `${passed} edited texts passed the limits`);
});

test('an edited generated text gets the answer of a fresh scan (long lists, deep nesting, flow, block scalars)', () => {
  const list = Array.from(
    { length: 700 },
    (_, i) => `  - name: app-${i}\n    labels: {a: "${i}", b: [1, 2]}\n    note: |\n      line ${i}\n      more\n`,
  ).join('');
  const deep = Array.from({ length: 9 }, (_, i) => `${'  '.repeat(i)}k${i}:\n`).join('') + '  '.repeat(9) + 'v: 1\n';
  let passed = 0;
  for (const text of [`items:\n${list}`, deep.repeat(30), `a: [${'['.repeat(5)}1${']'.repeat(5)}]\n`.repeat(200) + list]) {
    typeInto(text, 150, YAML_LIMITS);
    typeInto(text, 150, SMALL);
    // The smallest depth limit the text passes: an edit that opens a bracket or a quote early passes it later on.
    let depth = 1;
    while (fresh(text, { ...SMALL, maxLineChars: 1 << 16, maxDepth: depth })) depth++;
    passed += typeInto(text, 300, { ...SMALL, maxLineChars: 1 << 16, maxDepth: depth }, true);
  }
  assert.ok(passed > 300, `${passed} edited texts passed the limits`);
});
