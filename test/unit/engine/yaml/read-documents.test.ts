/**
 * `readDocuments` (engine/yaml/parse.ts), the reader of the workspace's files, gives what
 * `parseDocuments` (the `yaml` library over the whole text) gives: the same number of documents, and
 * for each the same errors, range and value, whether the fast reader read the text or not. Over every
 * YAML file of the repository and of ../shared, and texts put together from the boundary lines that
 * mean something at a `---` (yamlCorpus.ts), where the split into parts could read otherwise than the
 * whole text; texts at the edges; and 6,000 mutations of the repository's files (markers, comments, quotes,
 * anchors, tabs, lines repeated and indented), where whenever the text is read fast its lazy documents'
 * library nodes, once made, are the library's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { parseDocuments, readDocuments } from '../../../../server/src/engine/yaml/parse';
import { isUnmade } from '../../../../server/src/engine/yaml/lazyDocument';
import { BOUNDARY_LINES, repositoryYaml } from '../../../helpers/yamlCorpus';
import { seededRandom } from '../../../helpers/random';

/** Checks one text; whether the fast reader read it. */
function same(text: string, what: string): boolean {
  const lib = parseDocuments(text);
  const read = readDocuments(text);
  assert.equal(read.length, lib.length, `${what}: number of documents\n${text}`);
  read.forEach((r, i) => {
    const l = lib[i];
    assert.deepEqual(
      r.doc.errors.map((e) => [e.code, e.pos]),
      l.errors.map((e) => [e.code, e.pos]),
      `${what}: errors of document ${i}\n${text}`,
    );
    assert.deepEqual(r.doc.range, l.range, `${what}: range of document ${i}\n${text}`);
    if (l.errors.length) return;
    let want: unknown;
    try {
      want = l.toJS({ maxAliasCount: 100 });
    } catch {
      assert.equal(r.value, undefined, `${what}: a value where the library has none`);
      return;
    }
    const got = r.value !== undefined ? r.value : r.doc.toJS({ maxAliasCount: 100 });
    assert.ok(isDeepStrictEqual(got, want), `${what}: value of document ${i}\n${JSON.stringify(got)}\n${JSON.stringify(want)}\n${text}`);
  });
  // Read fast: every document at once, and none of the library's nodes made by reading it.
  const fast = read.some((r) => r.value !== undefined);
  if (fast)
    assert.ok(
      read.every((r) => r.value !== undefined && isUnmade(r.doc)),
      `${what}: all documents read fast, unmade`,
    );
  return fast;
}

test("the repository's YAML files: the fast reading equals the library's", () => {
  let fast = 0;
  const files = repositoryYaml();
  for (const file of files) if (same(readFileSync(file, 'utf8'), file)) fast++;
  // Most of the corpus is plain YAML: the fast reader must actually be taking part.
  assert.ok(fast > files.length / 3, `${fast} of ${files.length} files read fast`);
});

test('texts of several documents built from boundary lines: the fast reading equals the library’s', () => {
  const rnd = seededRandom(39);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const markers = ['---', '--- ', '---\n', '--- # c', '--- a: 1', '...'];
  let fast = 0;
  for (let i = 0; i < 3000; i++) {
    const lines: string[] = [];
    const n = 1 + Math.floor(rnd() * 12);
    for (let k = 0; k < n; k++)
      lines.push(rnd() < 0.25 ? pick(markers) : rnd() < 0.6 ? pick(['a: 1', 'b: x', 'c:', '  - y', '# c', '']) : pick(BOUNDARY_LINES));
    const text = lines.join(pick(['\n', '\r\n'])) + (rnd() < 0.5 ? '\n' : '');
    if (same(text, `text ${i}`)) fast++;
  }
  // Most are broken somewhere (the boundary lines are made to be): a few dozen are read fast all through.
  assert.ok(fast > 30, `${fast} texts read fast`);
  for (const text of ['', '\n', '# only a comment\n', '---\n', '---\n---\n', 'a: 1\n---\n', '---\na: 1\n---\nb: 2\n'])
    same(text, JSON.stringify(text));
});

/**
 * Checks one text the fast reader read (every document with its value), the lazy documents' library nodes
 * too once made (`make`); whether it read it fast.
 */
function sameWhenFast(text: string, what: string, make = false): boolean {
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
  for (const t of cases) sameWhenFast(t, JSON.stringify(t), true);
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
  const small = repositoryYaml()
    .map((f) => readFileSync(f, 'utf8'))
    .filter((t) => t.length < 20_000);
  let read = 0;
  const n = 6000;
  for (let i = 0; i < n; i++) {
    let text = small[Math.floor(rnd() * small.length)];
    const rounds = 1 + Math.floor(rnd() * 3);
    for (let r = 0; r < rounds; r++) text = mutate(text, rnd);
    if (sameWhenFast(text, `mutation ${i}`, i % 10 === 0)) read++;
  }
  assert.ok(read > n / 10, `${read} of ${n} mutated texts read fast`);
});
