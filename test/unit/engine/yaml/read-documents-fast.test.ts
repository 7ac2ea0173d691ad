/**
 * `readDocuments` (engine/yaml/parse.ts), how the workspace index reads its files, gives what
 * `parseDocuments` + `toJS` gave it whenever it reads a text fast (every document with its value): for every YAML file of the repository (and ../shared) and
 * for many mutations of them (markers, comments, quotes, anchors, tabs, lines repeated and indented),
 * whenever it answers, the library reads the same number of documents, each without errors, with the same
 * value and the same range, and the lazy document's library nodes, once made, are the library's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { parseDocuments, readDocuments } from '../../../../server/src/engine/yaml/parse';
import { isUnmade } from '../../../../server/src/engine/yaml/lazyDocument';
import { repositoryYaml } from '../../../helpers/yamlCorpus';
import { seededRandom } from '../../../helpers/random';

/** Checks one text; whether the fast reading answered. */
function same(text: string, what: string, make = false): boolean {
  const read = readDocuments(text);
  // Read fast: every document with its value (else the library read the text, as parseDocuments does).
  if (read.some((d) => d.value === undefined)) return false;
  const fast = read as { doc: (typeof read)[number]['doc']; value: unknown }[];
  const docs = parseDocuments(text);
  assert.equal(fast.length, docs.length, `${what}: ${fast.length} documents read fast, ${docs.length} by the library\n${text}`);
  docs.forEach((doc, i) => {
    assert.deepEqual(
      doc.errors.map((e) => e.code),
      [],
      `${what}: the library finds errors in document ${i}\n${text}`,
    );
    const value = doc.toJS({ maxAliasCount: 100 });
    assert.ok(isDeepStrictEqual(fast[i].value, value), `${what}: value ${i}\n${JSON.stringify(fast[i].value)}\n${JSON.stringify(value)}`);
    assert.deepEqual(fast[i].doc.range, doc.range, `${what}: range of document ${i}\n${text}`);
    assert.deepEqual(fast[i].doc.errors, [], what);
    if (make) {
      assert.ok(isUnmade(fast[i].doc), `${what}: the library's nodes were made before anything asked`);
      assert.ok(isDeepStrictEqual(fast[i].doc.toJS({ maxAliasCount: 100 }), value), `${what}: the lazy document's value ${i}`);
    }
  });
  return true;
}

const texts = repositoryYaml().map((f) => [f, readFileSync(f, 'utf8')] as const);

test('every YAML file of the repository: the fast reading gives what the library gives, or nothing', () => {
  let read = 0;
  for (const [f, text] of texts) if (same(text, f, true)) read++;
  // It has to be the common case to be worth having.
  assert.ok(read > texts.length / 2, `${read} of ${texts.length} files read fast`);
});

test('texts at the edges: empty, blank, comments only, markers only, a document end, directives', () => {
  const cases = [
    '',
    '\n',
    '   \n\n',
    '# only a comment\n',
    '---\n',
    '---\n---\n',
    'a: 1\n---\n',
    'a: 1\n---\n# end\n',
    '# head\n---\na: 1\n',
    '---\na: 1\n...\n',
    '%YAML 1.2\n---\na: 1\n',
    'a: 1\n---\nb: 2\n---\n\n---\nc: 3\n',
    '\ufeffa: 1\n',
    'a: 1\r\n---\r\nb: 2\r\n',
    'a: 1\n--- \nb: 2\n',
    'a: 1\n---\t# c\nb: 2\n',
    '- 1\n---\n"x"\n',
    'a:\n# c\n---\nb: 1\n',
    'a: &x 1\nb: *x\n',
    'a: 1\na: 2\n',
  ];
  for (const t of cases) same(t, JSON.stringify(t), true);
});

const INSERTS = [
  '\n---\n',
  '---\n',
  '\n...\n',
  '# c\n',
  ' #',
  ':',
  '- ',
  '"',
  "'",
  '|\n',
  '&a ',
  '*a',
  '!',
  '\t',
  '%YAML 1.2\n',
  '\n',
  '{',
  '[',
  '? ',
];

function mutate(text: string, rnd: () => number): string {
  const at = Math.floor(rnd() * (text.length + 1));
  const lines = text.split('\n');
  const line = Math.floor(rnd() * lines.length);
  switch (Math.floor(rnd() * 5)) {
    case 0:
    case 1:
      return text.slice(0, at) + INSERTS[Math.floor(rnd() * INSERTS.length)] + text.slice(at);
    case 2:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(rnd() * 3));
    case 3:
      lines.splice(line, 0, lines[line]);
      return lines.join('\n');
    default:
      lines[line] = ' '.repeat(1 + Math.floor(rnd() * 3)) + lines[line];
      return lines.join('\n');
  }
}

test('mutated texts: whenever the fast reading answers, it agrees with the library', () => {
  const rnd = seededRandom(20261206);
  const small = texts.map(([, t]) => t).filter((t) => t.length < 20_000);
  let read = 0;
  const n = 6000;
  for (let i = 0; i < n; i++) {
    let text = small[Math.floor(rnd() * small.length)];
    const rounds = 1 + Math.floor(rnd() * 3);
    for (let r = 0; r < rounds; r++) text = mutate(text, rnd);
    if (same(text, `mutation ${i}`, i % 10 === 0)) read++;
  }
  assert.ok(read > n / 10, `${read} of ${n} mutated texts read fast`);
});
