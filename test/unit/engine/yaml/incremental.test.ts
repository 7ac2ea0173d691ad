/**
 * Per-`---` document re-parsing (engine/yaml/document.ts `parseYamlFile(text, previous)`, through kinds/file.ts `parseFile`) and what the
 * language service re-uses on a keystroke: the result must be exactly the parse of the whole text
 * (values, spans, syntax errors, ApplicationSets), whatever was parsed before; and an unchanged
 * ApplicationSet keeps its parse and its expansion (the same objects), while edits across `---`
 * lines, deleted separators and moved documents are parsed correctly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { splitDocuments } from '../../../../server/src/engine/yaml/document';
import { parseFile } from '../../../../server/src/engine/kinds';
import { diffTexts } from '../../../../server/src/engine/yaml/incremental';
import { getLanguageService } from '@appset-tools/engine';
import { emptyHost } from '@appset-tools/engine';
import { appsetHead, flowTemplate, LOCAL } from '../../../helpers/appsets';
import { seededRandom } from '../../../helpers/random';
import { boundaryCase, check, summary, whole } from '../../../helpers/yamlDifferential';

const appset = (name: string, extra = '') => `${appsetHead(name, { namespace: null })}  generators:
    - list:
        elements:
          - {svc: a}
          - {svc: b}
${flowTemplate(`'${name}-{{ .svc | badfunc }}'${extra}`, "repoURL: https://git.example.com/r.git, path: 'apps/{{ .svc }}'", `${LOCAL}, namespace: web`)}`;

test('split points: before each `---` line after content; directives and `...` parse whole', () => {
  assert.deepEqual(splitDocuments('a: 1\n---\nb: 2\n'), [
    { start: 0, end: 5 },
    { start: 5, end: 14 },
  ]);
  // a leading comment and a first `---` stay with the first document
  assert.deepEqual(splitDocuments('# head\n---\na: 1\n--- # c\nb: 2'), [
    { start: 0, end: 16 },
    { start: 16, end: 28 },
  ]);
  assert.equal(splitDocuments('%YAML 1.2\n---\na: 1\n'), undefined);
  assert.equal(splitDocuments('a: 1\n...\n---\nb: 2\n'), undefined);
  // `----` and ` ---` are content, not markers
  assert.equal(splitDocuments('a: |\n  x\n----\n ---\n')?.length, 1);
});

test('an edit in one document re-parses only that one; the others keep their parse', () => {
  const docs = [appset('one'), appset('two'), appset('three')];
  const before = docs.join('---\n');
  const prev = parseFile(before);
  // same length: every later document stays where it was
  const same = check(prev, before.replace('name: two', 'name: twX'), 'same-length edit');
  assert.deepEqual(
    same.reuse,
    { parsed: 0, reused: 2, moved: 0, spliced: 0, values: 0, read: 1 },
    'the second document read again by the fast reader (fastRead.ts)',
  );
  assert.equal(same.docs[0].doc, prev.docs[0].doc);
  assert.equal(same.docs[2].doc, prev.docs[2].doc);
  assert.notEqual(same.docs[1].doc, prev.docs[1].doc);
  // a longer text: the later document moves, keeps its value and gets shifted offsets
  const longer = check(prev, before.replace('name: two', 'name: two-longer'), 'edit that moves the next document');
  assert.deepEqual(longer.reuse, { parsed: 0, reused: 1, moved: 1, spliced: 0, values: 0, read: 1 });
  // The library's re-parse of one entry, where the fast reader is left out (engine/yaml/entry-reparse.test.ts).
  const spliced = parseFile(
    before.replace('name: two', 'name: twX'),
    parseFile(before, undefined, undefined, 'library'),
    undefined,
    'library',
  );
  assert.deepEqual(spliced.reuse, { parsed: 0, reused: 2, moved: 0, spliced: 1, values: 1, read: 0 });
  assert.equal(longer.docs[2].value, prev.docs[2].value, 'the moved document keeps its value object');
  assert.equal(longer.docs[2].span.start, prev.docs[2].span.start + '-longer'.length);
  // the previous parse is untouched (its documents still have their own offsets)
  assert.deepEqual(summary(prev), whole(before));
});

test('edits across `---` lines: joining, splitting, deleting a separator, broken documents', () => {
  const a = appset('one');
  const b = appset('two');
  const c = appset('three');
  const base = `${a}---\n${b}---\n${c}`;
  const cases: [string, string][] = [
    ['delete a separator (two documents become one, with a duplicate key)', `${a}${b}---\n${c}`],
    ['insert a separator inside a document', base.replace('  template:\n', '---\n  template:\n')],
    ['a separator typed one character at a time', base.replace('spec:\n  goTemplate', '--\nspec:\n  goTemplate')],
    ['remove a whole document', `${a}---\n${c}`],
    ['a document moved first', `${c}---\n${a}---\n${b}`],
    ['the same document twice', `${a}---\n${a}---\n${a}`],
    ['a syntax error in the middle one', base.replace('name: two', 'name: [two')],
    ['a block scalar ended by a separator', `${a}---\nkey: |\n  line\n---\n${c}`],
    ['a quoted string read on past a separator', `${a}---\nkey: "abc\n---\n${c}`],
    ['a single-quoted string read on past a separator', `${a}---\nkey: 'abc\n---\n${c}`],
    ['a flow collection cut by a separator', `${a}---\nkey: [x,\n---\n${c}`],
    ['comments and blank documents between', `# head\n---\n${a}# tail\n---\n\n---\n# only a comment\n---\n${c}`],
    ['content on the marker line', `${a}--- !!map\nx: 1\n--- |\n  text\n---\n${c}`],
    ['CRLF line ends', base.replace(/\n/g, '\r\n')],
    ['directives: parsed whole', `%YAML 1.2\n---\n${a}---\n${b}`],
    ['document end markers: parsed whole', `${a}...\n---\n${b}`],
    ['empty text', ''],
  ];
  for (const [what, after] of cases) {
    assert.deepEqual(summary(parseFile(after)), whole(after, what), `${what} (fresh)`);
    check(base, after, what);
    check(after, base, `${what} (and back)`);
  }
});

test('generated texts at `---` boundaries and edits that empty values read exactly as the library reads the whole text', () => {
  for (let seed = 1; seed <= 3000; seed++) boundaryCase(seed);
});

test('known differences, now read whole: a quote or flow collection read on past `---`, a value emptied by an edit', () => {
  assert.deepEqual(summary(parseFile("  d:\n 'r\n---\n")), whole("  d:\n 'r\n---\n"));
  assert.deepEqual(summary(parseFile('a: {x: 1,\n---\nb: 2\n')), whole('a: {x: 1,\n---\nb: 2\n'));
  for (const [a, b] of [
    ['---\na: 1\n', '---\na: \n'],
    ['---\n- 1\n- 1\n', '---\n- 1\n-  \n'],
    ['x: 1\ny: abc\n', 'x: 1\ny:\n'],
  ])
    check(a, b, `${JSON.stringify(a)} → ${JSON.stringify(b)}`);
});

test('the differences the long differential run found, read as the library reads the whole text (issue 25)', () => {
  // Fresh: an empty value with a comment on its own line before `---` (the document's range), and
  // duplicate keys inside a block mapping that sits in an unclosed flow collection (the errors' order).
  for (const text of [
    'o: *a\r\nh: |\r\n  # c\r\n\r\n: #v\r\n  \r\n--- a\r\n# c\n',
    'i: >-\nb:\nh: |\n\n  # c\n  [a,\no:  # c\n\n---\t\n# c\n',
    'a: 1\nb:  # c\n---\nc: 2\n',
    '---\n {b\nf: {g: 1,\n  -\nj: "ok"\nj: "ok"\n',
    // Duplicates among other syntax errors: listed where the library's error recovery lists them.
    ': v\r\n# c\r\n?  \nk\r\n---\r\ni: >-\n',
    'h: |  -\n# c\n--- a\ni: >-\n',
    '  [a"\nf: {g: 1,\ni: >-\n# c\ni: >-\n--- a\n  text\n',
    "f: {g: 1,\n  d: 'r\n\t\n  d: 'r\n---\n...\n  # c\n",
    'o: *a\n{# c\n: v\n: v\nh: |\n---\nh: |\no: *a\n  # c\nf: {g: 1,\n- \n',
    'e: [1,\ni: >- -\n# c\n\n "q\n',
  ])
    assert.deepEqual(summary(parseFile(text)), whole(text), JSON.stringify(text));
  // After an edit: a line break typed at an entry's last line (blank lines at its end), and a value
  // typed into an empty one (`b:` → `bj: "ok"`): the one-entry re-parse leaves both to a whole parse.
  for (const [a, b] of [
    [': v\n---\n: v\n  text\n', ': v\n---\n: v\n  t "q\n\n'],
    ['o: *a\na: 1\n  text\n---\n  - x\no: *a\n', 'o: *a\na: 1\n  te\n\n---\n  - x\no: *a\n'],
    ['  \n  text\n---\n  - x\n', '  \n  text\n---\n  - x  - x\n\n'],
    ['---\n: v\n {b\n', '---\n: v\n  text\n\n'],
    ['\n- \n---\n- 1\n', '\n- \n---\n- - 1\n\n'],
    ['  text\r\n---\r\nb:\n', '  text\r\n---\r\nbj: "ok"\n'],
  ])
    check(a, b, `${JSON.stringify(a)} → ${JSON.stringify(b)}`);
});

test('every YAML file of the repository parses per document exactly as a whole', () => {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (n === 'node_modules' || n.startsWith('.')) continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(n)) files.push(p);
    }
  };
  walk(join(__dirname, '..', '..', '..', 'fixtures'));
  walk(join(__dirname, '..', '..', '..', '..', 'examples'));
  assert.ok(files.length > 20, `found ${files.length} files`);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    assert.deepEqual(summary(parseFile(text)), whole(text), f);
    // and after an edit in the first document, from the previous parse
    const at = text.indexOf('\n');
    if (at > 0) check(text, text.slice(0, at) + ' # edited' + text.slice(at), `${f} after an edit`);
  }
});

test('a finding in a later document follows it when an earlier one grows (no stale offsets)', () => {
  const s = getLanguageService({ host: emptyHost() });
  const uri = 'file:///work/sets.yaml';
  const before = `${appset('one')}---\n${appset('two')}`;
  const after = before.replace('name: one', 'name: one-longer');
  for (const text of [before, after, before]) {
    const a = s.analyze(uri, text);
    const unknown = s.diagnostics(a).filter((d) => d.code === 'template/unknown-function');
    assert.equal(unknown.length, 2, text);
    for (const d of unknown) assert.equal(text.slice(d.span.start, d.span.end), 'badfunc');
    // and the same as a fresh service computes
    const fresh = getLanguageService({ host: emptyHost() });
    assert.deepEqual(
      s.diagnostics(a).map((d) => [d.code, d.span, d.message]),
      fresh.diagnostics(fresh.analyze(uri, text)).map((d) => [d.code, d.span, d.message]),
    );
  }
});

test('diffTexts: the common prefix and suffix, across its 256-character blocks and around them', () => {
  const naive = (a: string, b: string) => {
    const max = Math.min(a.length, b.length);
    let p = 0;
    while (p < max && a[p] === b[p]) p++;
    let s = 0;
    while (s < max - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
    return { start: p, oldEnd: a.length - s, newEnd: b.length - s };
  };
  const rnd = seededRandom(7);
  const base = Array.from({ length: 1400 }, (_, i) => 'ab\n '[i % 4] + (i % 7 === 0 ? 'x' : '')).join('');
  for (let i = 0; i < 2000; i++) {
    const at = Math.floor(rnd() * base.length);
    const cut = Math.floor(rnd() * 600);
    const insert = 'ab\n x'.slice(0, Math.floor(rnd() * 5)).repeat(1 + Math.floor(rnd() * 80));
    const next = base.slice(0, at) + insert + base.slice(at + cut);
    if (next === base) {
      assert.equal(diffTexts(base, next), undefined);
      continue;
    }
    assert.deepEqual(diffTexts(base, next), naive(base, next), `edit ${i}`);
    assert.deepEqual(diffTexts(next, base), naive(next, base), `edit ${i}, the other way`);
  }
});
