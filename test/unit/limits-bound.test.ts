/**
 * The limits pre-scan's bound (gotemplate/yamlGuard.ts `withinLimits`): a few native searches that say a
 * text cannot pass a limit, before the scan over every line. It may only say so where the scan finds no
 * limit passed: checked over every YAML file of the repository, generated texts (deep, flow, quoted,
 * block scalars, indicators inside flow scalars) and random edits of them typed one after another (the
 * bound of an edited text looks at the edited lines only), each at the real limits and at the tightest
 * depth the scan lets it pass and one below, where the scan finds the depth passed and the bound must not
 * hold. `checkYamlLimits` (the bound, then the scan) must give the scan's answer everywhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkYamlLimits, scanYamlLimits, withinLimits, withinLimitsEach, YAML_LIMITS, type YamlLimits } from '@appset-tools/gotemplate';
import { guardYaml } from '../../server/src/engine/yaml';
import { manyAppSets } from '../../scripts/bench/fixtures';
import { repoFiles } from '../helpers/memHost';
import { longList } from '../../scripts/bench/fixtures';
import { randomEdits } from '../helpers/random';

const PIECES = [
  '[[',
  '{',
  '}',
  ']',
  '"',
  "'",
  '\n',
  '\r\n',
  '- ',
  '- - ',
  '? ',
  ': ',
  'k: ',
  '  ',
  '      ',
  'a - b ? c: d',
  '[a - b - c]',
  '{x: [- y]}',
  '|\n',
  '>-\n',
  '# c: - d',
  '---\n',
  '\t',
  ':',
  '-',
  'x'.repeat(30),
];

const { rand, edit } = randomEdits(48, PIECES);

/** The bound of `text` computed afresh (another text looked at in between leaves nothing to build on). */
function freshBound(text: string, limits: YamlLimits): boolean {
  withinLimits('\u0000', limits);
  withinLimits('', limits);
  return withinLimits(text, limits);
}

/** The smallest depth limit the scan lets `text` pass (0 when a line or the size is over its limit). */
function tightest(text: string, limits: YamlLimits): number {
  let lo = 1;
  let hi = 1;
  while (scanYamlLimits(text, { ...limits, maxDepth: hi })) {
    if (scanYamlLimits(text, { ...limits, maxDepth: hi })?.kind !== 'depth') return 0;
    lo = hi + 1;
    hi *= 2;
  }
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (scanYamlLimits(text, { ...limits, maxDepth: mid })) lo = mid + 1;
    else hi = mid;
  }
  return hi;
}

/** Checks `text` at `limits`: the bound holds only where the scan passes, and checkYamlLimits is the scan. */
function check(text: string, limits: YamlLimits, bound: boolean): number {
  const scan = scanYamlLimits(text, limits);
  if (bound)
    assert.equal(scan, undefined, `the bound held where the scan found ${JSON.stringify(scan)}: ${JSON.stringify(text.slice(0, 200))}`);
  assert.deepEqual(checkYamlLimits(text, limits), scan);
  return bound ? 1 : 0;
}

/** At the real limits, at the tightest depth the text passes (the bound may hold) and one below (it must not). */
function checkAround(text: string, held: { real: number; tight: number; below: number }): void {
  held.real += check(text, YAML_LIMITS, freshBound(text, YAML_LIMITS));
  const base = { maxChars: 1 << 20, maxLineChars: 1 << 16, maxDepth: 1 };
  const depth = tightest(text, base);
  if (!depth) return;
  for (const d of [depth, depth + 3, depth * 2])
    held.tight += check(text, { ...base, maxDepth: d }, freshBound(text, { ...base, maxDepth: d }));
  if (depth > 1) held.below += check(text, { ...base, maxDepth: depth - 1 }, freshBound(text, { ...base, maxDepth: depth - 1 }));
}

/** Edits typed one after another: the bound of each builds on the last text's (its edited lines only). */
function typeInto(text: string, edits: number, limits: YamlLimits): number {
  let held = 0;
  withinLimits(text, limits);
  for (let i = 0; i < edits; i++) {
    text = edit(text);
    held += check(text, limits, withinLimits(text, limits));
  }
  return held;
}

const generated = (): string[] => {
  const list = Array.from(
    { length: 300 },
    (_, i) => `  - name: app-${i}\n    labels: {a: "${i}", b: [1, 2]}\n    note: |\n      line ${i}\n      - more\n`,
  ).join('');
  const deep = Array.from({ length: 9 }, (_, i) => `${'  '.repeat(i)}- k${i}: ? x\n`).join('') + '  '.repeat(9) + 'v: 1\n';
  const flow = `a: [${'['.repeat(6)}1 - 2 - 3 ? 4${']'.repeat(6)}]\nb: {c: [d - e, {f: g}]}\n`;
  const quoted = `a: "x\n  - - - y"\nb: 'it''s: - x'\n`;
  return [`items:\n${list}`, deep.repeat(6), flow.repeat(20) + list, quoted.repeat(10), longList(40)];
};

test('the bound holds only where the scan passes (the repository, generated texts, tight depth limits)', () => {
  const files = [...repoFiles((n) => /\.ya?ml$/i.test(n), 'examples', 'test/fixtures').values()];
  assert.ok(files.length > 50, `${files.length} files`);
  const held = { real: 0, tight: 0, below: 0 };
  for (const text of [...files, ...generated()]) checkAround(text, held);
  // The bound is what the first answer of most files uses: it must hold on most of them at the real limits.
  assert.ok(held.real > files.length * 0.9, `the bound held on ${held.real} of ${files.length + 5} texts`);
  assert.equal(held.below, 0);
  assert.ok(freshBound(longList(), YAML_LIMITS), "the bench's 540-element list is within the bound");
});

test('mutated texts: the bound holds only where the scan passes', () => {
  const held = { real: 0, tight: 0, below: 0 };
  for (const start of generated())
    for (let i = 0; i < 120; i++) {
      let text = start;
      for (let k = 1 + rand(6); k > 0; k--) text = edit(text);
      checkAround(text, held);
    }
  assert.equal(held.below, 0);
  assert.ok(held.real > 100, JSON.stringify(held));
});

test('edits typed one after another: the bound of each edited text holds only where the scan passes', () => {
  const files = [...repoFiles((n) => /\.ya?ml$/i.test(n), 'examples', 'test/fixtures').values()].filter((t) => t.length > 200);
  let held = 0;
  for (const text of files) held += typeInto(text, 8, YAML_LIMITS);
  for (const text of generated()) {
    held += typeInto(text, 200, YAML_LIMITS);
    const depth = tightest(text, { maxChars: 1 << 20, maxLineChars: 1 << 16, maxDepth: 1 });
    for (const d of [depth, depth + 2]) held += typeInto(text, 200, { maxChars: 1 << 20, maxLineChars: 1 << 16, maxDepth: d });
  }
  assert.ok(held > 500, `${held} edited texts within the bound`);
});

test('texts built to come near the bound: at every depth limit where it holds, the scan passes', () => {
  // Lines indented 0, 1, …, m, each opening k levels, then flow brackets around indicators: the
  // estimate the bound is made of, nearly reached.
  const stair = (m: number, k: number, b: number, s: string) =>
    Array.from({ length: m + 1 }, (_, i) => ' '.repeat(i) + s.repeat(k - 1) + (s.length > 2 ? 'x' : 'k:')).join('\n') +
    `\n${' '.repeat(m + 1)}${'['.repeat(b)}a - b ? c${']'.repeat(b)}\n`;
  let held = 0;
  for (const s of ['- ', '? ', '- ? ', '- - '])
    for (let m = 0; m < 14; m += 3)
      for (let k = 1; k < 6; k++)
        for (const b of [0, 3, 9]) {
          const text = stair(m, k, b, s);
          for (let d = 1; d <= 100; d++)
            held += check(
              text,
              { maxChars: 1 << 20, maxLineChars: 1 << 16, maxDepth: d },
              freshBound(text, { maxChars: 1 << 20, maxLineChars: 1 << 16, maxDepth: d }),
            );
        }
  assert.ok(held > 1000, `${held}`);
});

test('a hostile line: no blow-up, the scan decides', () => {
  const colons = 'a:b'.repeat(80_000);
  assert.equal(withinLimits(colons, YAML_LIMITS), true);
  assert.equal(withinLimits(`${'- '.repeat(60)}x\n`, YAML_LIMITS), false);
  assert.deepEqual(checkYamlLimits(`${'- '.repeat(120)}x\n`), scanYamlLimits(`${'- '.repeat(120)}x\n`));
});

/** The `---`/`...` parts of `text` as the engine's guard cuts them (engine/yaml/limits.ts), written here line by line. */
function partsOf(text: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 0; i < text.length;) {
    let e = text.indexOf('\n', i);
    if (e < 0) e = text.length;
    if (i > start && /^(?:---|\.\.\.)(?:[ \t\r]|$)/.test(text.slice(i, e))) {
      out.push([start, i]);
      start = i;
    }
    i = e + 1;
  }
  out.push([start, text.length]);
  return out;
}

/**
 * A file of several documents: `withinLimitsEach` may hold only where the scan of every part passes, and
 * the engine's guard (which asks it first) blanks and reports exactly what checking each part alone does.
 */
function checkEach(text: string, limits: YamlLimits): number {
  const parts = partsOf(text);
  const hits = parts.map(([s, e]) => scanYamlLimits(text.slice(s, e), limits, s));
  const each = withinLimitsEach(text, parts, limits);
  if (each) assert.deepEqual(hits.filter(Boolean), [], `the bound held where a part passed a limit: ${JSON.stringify(text.slice(0, 200))}`);
  if (limits === YAML_LIMITS) {
    const guarded = guardYaml(text);
    assert.deepEqual(
      guarded.diagnostics.map((d) => d.span.start),
      hits.filter((h) => h !== undefined).map((h) => h.offset),
    );
    if (!hits.some(Boolean)) assert.equal(guarded.text, text);
  }
  return each ? 1 : 0;
}

test('several documents in one text: the bound of all parts at once holds only where every part passes', () => {
  const files = [...repoFiles((n) => /\.ya?ml$/i.test(n), 'examples', 'test/fixtures').values()];
  const pieces = [...files.slice(0, 60), ...generated()];
  const tight = { maxChars: 1 << 20, maxLineChars: 1 << 16, maxDepth: 1 };
  let held = 0;
  let below = 0;
  for (let i = 0; i < 400; i++) {
    let text = '';
    for (let k = 2 + rand(5); k > 0; k--) {
      let part = pieces[rand(pieces.length)];
      if (rand(3) === 0) for (let j = 1 + rand(4); j > 0; j--) part = edit(part);
      text += (text && !text.endsWith('\n') ? '\n' : '') + (rand(4) === 0 ? '...\n' : '---\n') + part;
    }
    held += checkEach(text, YAML_LIMITS);
    // At the tightest depth every part passes, the bound may hold; one below (a part passes it), it must not.
    const depth = Math.max(...partsOf(text).map(([s, e]) => tightest(text.slice(s, e), tight)));
    if (depth > 0 && !partsOf(text).some(([s, e]) => tightest(text.slice(s, e), tight) === 0)) {
      held += checkEach(text, { ...tight, maxDepth: depth });
      if (depth > 1) below += checkEach(text, { ...tight, maxDepth: depth - 1 });
    }
  }
  assert.equal(below, 0);
  assert.ok(held > 200, `the bound held on ${held} texts`);
  // The bench's file of 50 ApplicationSets is answered by one bound.
  const fifty = manyAppSets();
  assert.equal(partsOf(fifty).length, 50);
  assert.ok(withinLimitsEach(fifty, partsOf(fifty), YAML_LIMITS));
  assert.equal(checkEach(fifty, YAML_LIMITS), 1);
});

test('several documents built to come near the bound: at every depth limit where it holds, every part passes', () => {
  // As above, with lines indented in steps of 1 (odd indentations: every indentation may enclose) or 2.
  const stair = (m: number, k: number, b: number, s: string, step: number) =>
    Array.from({ length: m + 1 }, (_, i) => ' '.repeat(i * step) + s.repeat(k - 1) + (s.length > 2 ? 'x' : 'k:')).join('\n') +
    `\n${' '.repeat((m + 1) * step)}${'['.repeat(b)}a - b ? c${']'.repeat(b)}\n`;
  let held = 0;
  for (const s of ['- ', '? ', '- - '])
    for (let m = 0; m < 12; m += 4)
      for (let k = 1; k < 5; k++)
        for (const b of [0, 4, 40])
          for (const steps of [[2], [2, 2], [1, 2], [2, 1, 2]]) {
            const text = steps.map((step, j) => `${j ? '---\n' : ''}${stair(m + j, k, b + j, s, step)}`).join('');
            for (let d = 1; d <= 100; d++) held += checkEach(text, { maxChars: 1 << 20, maxLineChars: 1 << 16, maxDepth: d });
          }
  assert.ok(held > 1000, `${held}`);
});
