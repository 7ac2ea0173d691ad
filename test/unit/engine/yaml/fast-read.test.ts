/**
 * The fast reader (engine/yaml/fastRead.ts) gives what the `yaml` library gives, or nothing: for
 * every `---` part of every YAML file of the repository and of ../shared, and for many mutations of
 * them (characters that mean something in YAML inserted and removed, lines indented, repeated and
 * commented), whenever the fast reader answers, the library reads exactly one document without error
 * or warning, with the same value, the same located tree (kinds, spans, key spans, scalar values,
 * styles and sources) and the same document range.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import * as YAML from 'yaml';
import { fastRead } from '../../../../server/src/engine/yaml/fastRead';
import { astOf, child, walk, type AstNode } from '../../../../server/src/engine/yaml/ast';
import { parseYamlFile, splitDocuments } from '../../../../server/src/engine/yaml/document';
import { isUnmade } from '../../../../server/src/engine/yaml/lazyDocument';
import { diffTexts } from '../../../../server/src/engine/yaml/incremental';
import { PARSE_OPTIONS } from '../../../../server/src/engine/yaml/parseOptions';
import { longListAppSet } from '../../../helpers/appsets';
import { repositoryYaml } from '../../../helpers/yamlCorpus';
import { seededRandom } from '../../../helpers/random';

function library(text: string, offset: number): YAML.Document.Parsed[] {
  const parser = new YAML.Parser();
  parser.offset = offset;
  return [...new YAML.Composer(PARSE_OPTIONS).compose(parser.parse(text))] as YAML.Document.Parsed[];
}

/** A located tree without its parent links, for comparison. */
function dump(n: AstNode | undefined): unknown {
  if (!n) return n;
  const base = { kind: n.kind, span: n.span, key: n.key, keySpan: n.keySpan };
  if (n.kind === 'object')
    return { ...base, properties: n.properties.map((p) => ({ key: p.key, keySpan: p.keySpan, value: dump(p.value) })) };
  if (n.kind === 'array') return { ...base, items: n.items.map(dump) };
  if (n.kind === 'scalar') return { ...base, value: n.value, style: n.style, source: n.source };
  return base;
}

/** Checks one part; whether the fast reader answered. */
function same(text: string, offset: number, what: string): boolean {
  const fast = fastRead(text, offset);
  if (!fast) return false;
  const docs = library(text, offset);
  assert.equal(docs.length, 1, `${what}: the library reads ${docs.length} documents\n${text}`);
  const doc = docs[0];
  assert.deepEqual(
    [...doc.errors, ...doc.warnings].map((e) => e.code),
    [],
    `${what}: the library finds problems the fast reader missed\n${text}`,
  );
  const value = doc.toJS({ maxAliasCount: 100 });
  assert.ok(isDeepStrictEqual(fast.value, value), `${what}: value\n${JSON.stringify(fast.value)}\n${JSON.stringify(value)}\n${text}`);
  assert.deepEqual(dump(fast.root), dump(astOf(doc)), `${what}: located tree\n${text}`);
  assert.deepEqual(fast.range, doc.range, `${what}: document range\n${text}`);
  return true;
}

function parts(text: string): { text: string; start: number }[] {
  const split = splitDocuments(text);
  return split ? split.map(({ start, end }) => ({ text: text.slice(start, end), start })) : [{ text, start: 0 }];
}

const corpus = repositoryYaml;

test('every YAML part of the repository and ../shared: the fast reader gives what the library gives, or nothing', () => {
  let read = 0;
  let all = 0;
  for (const f of corpus()) {
    // Every part is compared; the rule fixtures (test/fixtures/rules/, a caret comment under each finding)
    // are not counted in the share: comment-heavy by design, they are not the common case measured here.
    const counted = !/[\\/]test[\\/]fixtures[\\/]rules[\\/]/.test(f);
    for (const p of parts(readFileSync(f, 'utf8'))) {
      const fast = same(p.text, p.start, f);
      if (!counted) continue;
      all++;
      if (fast) read++;
    }
  }
  // It has to be the common case to be worth having. (The repository alone has about 140 parts; with
  // ../shared, when it is there, many more.)
  assert.ok(all > 100 && read / all > 0.75, `${read} of ${all} parts read fast`);
});

const MEANINGFUL = [
  ' ',
  ' ',
  '\n',
  '#',
  ' #',
  ':',
  ': ',
  '-',
  '- ',
  '"',
  "'",
  '|',
  '>',
  '{',
  '}',
  '[',
  ']',
  ',',
  '&a ',
  '*a',
  '!',
  '? ',
  'x',
  '0',
  '.',
  '~',
  '\\',
  '---',
  '  ',
  '\n  ',
  '\n\n',
  'true',
  '0x1f',
  '1e3',
  '"\\u00e9"',
  "''",
  '|-\n',
  '>\n',
];

function mutate(text: string, rnd: () => number): string {
  const at = Math.floor(rnd() * (text.length + 1));
  const lines = text.split('\n');
  const line = Math.floor(rnd() * lines.length);
  switch (Math.floor(rnd() * 7)) {
    case 0:
    case 1:
      return text.slice(0, at) + MEANINGFUL[Math.floor(rnd() * MEANINGFUL.length)] + text.slice(at);
    case 2:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(rnd() * 3));
    case 3:
      lines[line] = ' '.repeat(1 + Math.floor(rnd() * 3)) + lines[line];
      return lines.join('\n');
    case 4:
      lines[line] = lines[line].replace(/^ {1,2}/, '');
      return lines.join('\n');
    case 5:
      lines.splice(line, 0, lines[line]);
      return lines.join('\n');
    default:
      lines.splice(line, 0, ' '.repeat(Math.floor(rnd() * 8)) + '# note');
      return lines.join('\n');
  }
}

test('mutated texts: whenever the fast reader answers, it agrees with the library', () => {
  const rnd = seededRandom(20261204);
  const texts = corpus()
    .map((f) => readFileSync(f, 'utf8'))
    .filter((t) => t.length < 20_000);
  let read = 0;
  let tried = 0;
  for (let i = 0; i < 20000; i++) {
    let text = texts[Math.floor(rnd() * texts.length)];
    const rounds = 1 + Math.floor(rnd() * 3);
    for (let r = 0; r < rounds; r++) text = mutate(text, rnd);
    for (const p of parts(text)) {
      tried++;
      if (same(p.text, p.start, `mutation ${i}`)) read++;
    }
  }
  assert.ok(read > tried / 5, `${read} of ${tried} mutated parts read fast`);
  if (process.env.FAST_READ_COUNTS) console.log(`${read} of ${tried} mutated parts read fast`);
});

test('the shapes the fast reader takes on', () => {
  const cases: Record<string, string> = {
    'comments and blank lines between entries': 'a: 1  # c\n\n# section\nb:\n  c: x\n\n# next\nd:\n- 1\n- y: 2\n  z: 3\n',
    'a sequence at its key column': 'b:\n- 1\n- 2\nc: 3\n',
    'flow collections': 'a: [x, "y", {b: 1}]  # c\nz: {k: v, "q":1}\n',
    'block scalars': 'k: |\n  a\n\n  b\n\nf: >-\n  one\n  two\n\n  three\nz: 1\n',
    'quoted scalars': `a: "x\\ty \\u00e9"\nb: 'it''s'\n"c d": 1\n`,
    'core schema scalars': 'a: true\nb: ~\nc: 0o17\nd: 0x1F\ne: 1e3\nf: -2\ng: 1.50\nh: "3"\ni: 2026-12-04\nj: yes\n',
    'a document marker': '# head\n\n--- # c\n\nb: 1\n\n',
    'a block scalar at the end of a text without a last line break': 'k: |\n  a\n  b',
    'a folded one': 'k: >\n  a\n  b',
    'empty values followed by an entry of their mapping':
      'syncPolicy:\n  automated:\n  syncOptions: # c\n\n  retry:   \n  x: 1\n- y:\n  z: 2\n'.replace(
        '- y:\n  z: 2\n',
        'l:\n- y:\n  z: 2\n',
      ),
    'a long list': longListAppSet(300),
    // The reader fills one gap object again at each gap: a nested value's gaps come between an entry's
    // gap and the next entry's (comments at each level, a sequence at its key's column, blank lines).
    'gaps inside gaps':
      'a:\n  # one\n  b:\n    # two\n    - c: 1\n\n      # three\n      d:\n      - 2\n    # four\n    - e\n  # five\n  f: 3\n# six\ng:\n- h\n',
  };
  for (const [what, text] of Object.entries(cases)) assert.ok(same(text, 7, what), `${what}: not read fast`);
});

test('what the fast reader leaves to the library', () => {
  const cases: Record<string, string> = {
    anchor: 'a: &x 1\nb: *x\n',
    tag: 'a: !!str 1\n',
    'multi-line plain scalar': 'a: one\n  two\n',
    'a comment that moves a collection end': 'b:\n  c: x\n  # t\nd: 1\n',
    'a comment at the end': 'b: 1\n# end\n',
    'duplicate key': 'a: 1\na: 2\n',
    'a quoted key with no space after its colon': "a:\n  'usage':value\n",
    'empty value ending its mapping': 'a:\n  b:\nc: 1\n',
    'empty value at the end': 'a: 1\nb:\n',
    'empty value before a comment': 'a:\n# c\nb: 1\n',
    tab: 'a:\t1\n',
    'windows line ends': 'a: 1\r\nb: 2\r\n',
    'merge key': 'a: {x: 1}\n<<: {y: 2}\n',
    'not a mapping': 'just text\n',
    'nested mapping on one line': 'a: b: c\n',
    'two documents': 'a: 1\n---\nb: 2\n',
    'bad indentation': 'a:\n  b: 1\n c: 2\n',
  };
  for (const [what, text] of Object.entries(cases)) assert.equal(fastRead(text, 0), undefined, what);
});

/** Everything of a library node a reader can see (class, range, value, comments, styles), items and pairs included. */
function nodes(node: unknown): unknown {
  if (YAML.isPair(node)) return { pair: [nodes(node.key), nodes(node.value)] };
  if (!YAML.isNode(node)) return node;
  const n = node as unknown as Record<string, unknown>;
  const own: Record<string, unknown> = { class: node.constructor.name };
  for (const k of Object.keys(n)) if (k !== 'schema') own[k] = k === 'items' ? (n.items as unknown[]).map(nodes) : n[k];
  return own;
}

test('a document read fast makes the library nodes when asked for them: the same as the library reading the file', () => {
  const text = `# services\n${longListAppSet(40)}---\n${longListAppSet(3).replace(/name: [a-z-]+/, 'name: other')}`;
  const parsed = parseYamlFile(text);
  const lib = library(text, 0);
  assert.equal(parsed.docs.length, 2);
  for (const [i, d] of parsed.docs.entries()) {
    assert.ok(isUnmade(d.doc), `document ${i} is read fast`);
    // The tree and value are there without the nodes.
    assert.deepEqual(dump(astOf(d.doc)), dump(astOf(lib[i])));
    assert.ok(isUnmade(d.doc));
    assert.deepEqual(nodes(d.doc.contents), nodes(lib[i].contents), `document ${i} nodes`);
    assert.ok(!isUnmade(d.doc));
    assert.deepEqual(d.doc.range, lib[i].range);
    assert.equal(d.doc.toString(), lib[i].toString());
    assert.ok(isDeepStrictEqual(d.doc.toJS(), d.value));
  }
});

test('an edit is read again with the entries before it taken from the previous reading; a moved document is read again at its offset', () => {
  const text = `${longListAppSet(600)}---\n${longListAppSet(2).replace(/name: [a-z-]+/, 'name: after')}`;
  const parsed = parseYamlFile(text);
  const [first, second] = parsed.docs;
  const elements = (doc: YAML.Document) => child(child(child(child(child(astOf(doc), 'spec'), 'generators'), 0), 'list'), 'elements');
  const before = elements(first.doc);
  // A keystroke in a list element.
  const at = text.indexOf('name: e5\n') + 'name: e5'.length;
  const edited = text.slice(0, at) + 'x' + text.slice(at);
  const next = parseYamlFile(edited, parsed);
  assert.deepEqual(next.reuse, { parsed: 0, reused: 0, moved: 1, spliced: 0, values: 0, read: 1 });
  const lib = library(edited, 0);
  assert.ok(isDeepStrictEqual(next.docs[0].value, lib[0].toJS()));
  assert.deepEqual(dump(astOf(next.docs[0].doc)), dump(astOf(lib[0])));
  assert.deepEqual(next.docs[0].doc.range, lib[0].range);
  // The elements before the edited one are the previous reading's (tree and value), the rest are read anew.
  const after = elements(next.docs[0].doc);
  assert.ok(before?.kind === 'array' && after?.kind === 'array');
  const firstValues = (first.value as { spec: { generators: { list: { elements: unknown[] } }[] } }).spec.generators[0].list.elements;
  const nextValues = (next.docs[0].value as typeof first.value & { spec: { generators: { list: { elements: unknown[] } }[] } }).spec
    .generators[0].list.elements;
  for (let i = 0; i < 5; i++) {
    assert.equal(after.items[i], before.items[i], `element ${i}: the same tree`);
    assert.equal(after.items[i].parent, after, `element ${i}: hung under the new list`);
    assert.equal(nextValues[i], firstValues[i], `element ${i}: the same value`);
  }
  assert.notEqual(after.items[5], before.items[5]);
  assert.notEqual(after.items[6], before.items[6], 'after the edit: read anew (its offsets moved)');
  // No library nodes were made for it.
  assert.ok(isUnmade(next.docs[0].doc));
  // The second document moved by one character: read fast again at its new offset, still lazy.
  assert.ok(isUnmade(next.docs[1].doc));
  assert.equal(next.docs[1].value, second.value, 'the moved document keeps its value');
  assert.deepEqual(dump(astOf(next.docs[1].doc)), dump(astOf(lib[1])));
  assert.deepEqual(next.docs[1].doc.range, lib[1].range);
  assert.deepEqual(nodes(next.docs[1].doc.contents), nodes(lib[1].contents));
});

/** A keystroke: one character typed or deleted, or a line break typed, somewhere in the text. */
function keystroke(text: string, rnd: () => number): string {
  const at = Math.floor(rnd() * (text.length + 1));
  const r = rnd();
  if (r < 0.3) return text.slice(0, at) + text.slice(at + 1);
  if (r < 0.4) return text.slice(0, at) + '\n' + ' '.repeat(Math.floor(rnd() * 6)) + text.slice(at);
  // A character the fast reader leaves to the library (after a clean text it looks only at the edit).
  if (r < 0.43) return text.slice(0, at) + '\t\r\u2028\ufeff\x01'[Math.floor(rnd() * 5)] + text.slice(at);
  return text.slice(0, at) + 'x :-#"\'|>{}[],&0 '[Math.floor(rnd() * 19)] + text.slice(at);
}

test('random edits: reading with the previous reading gives exactly what a fresh reading gives', () => {
  const rnd = seededRandom(4242);
  const texts = [
    ...corpus()
      .map((f) => readFileSync(f, 'utf8'))
      .filter((t) => t.length < 8_000 && fastRead(t, 0)),
    longListAppSet(40),
  ];
  let lent = 0;
  let edits = 0;
  let withPrior = 0;
  for (let chain = 0; chain < 120; chain++) {
    let text = texts[Math.floor(rnd() * texts.length)];
    // Small texts too keep where their entries are (`lend`; the reader's default only for parts of LEND_MIN or more).
    let prev = fastRead(text, 0, undefined, true);
    for (let k = 0; k < 40; k++) {
      const next = rnd() < 0.5 ? keystroke(text, rnd) : mutate(text, rnd);
      const edit = diffTexts(text, next);
      // With the previous reading first (fresh readings of `next` would make it the last clean text).
      const inc =
        prev && edit
          ? fastRead(next, 0, { root: prev.root, value: prev.value, editStart: edit.start, text, editEnd: edit.newEnd }, true)
          : undefined;
      const fresh = fastRead(next, 0);
      edits++;
      if (!(prev && edit)) continue;
      assert.equal(!!inc, !!fresh, `chain ${chain} edit ${k}: read by one and not the other\n${next}`);
      if (inc && fresh) {
        assert.ok(isDeepStrictEqual(inc.value, fresh.value), `chain ${chain} edit ${k}: value\n${next}`);
        assert.deepEqual(dump(inc.root), dump(fresh.root), `chain ${chain} edit ${k}: tree\n${next}`);
        assert.deepEqual(inc.range, fresh.range, `chain ${chain} edit ${k}: range`);
        if (prev) {
          withPrior++;
          if (taken(prev.root, inc.root)) lent++;
        }
      }
      // An edit the fast reader gives up on is undone (the chain goes on from a reading).
      if (inc) {
        text = next;
        prev = inc;
      }
    }
  }
  // Most edits leave entries before them to take (an edit in the first line does not).
  if (process.env.FAST_READ_COUNTS) console.log(`${lent} of ${withPrior} readings after a reading (${edits} edits) took entries from it`);
  assert.ok(
    withPrior > edits / 3 && lent > withPrior / 2,
    `${lent} of ${withPrior} readings after a reading (${edits} edits) took entries from it`,
  );
});

/** Whether `next` holds a node of `prev` (an entry taken from the previous reading). */
function taken(prev: AstNode, next: AstNode): boolean {
  const seen = new Set<AstNode>();
  walk(prev, (n) => void seen.add(n));
  let found = false;
  walk(next, (n) => {
    if (n !== next && seen.has(n)) found = true;
    return !found;
  });
  return found;
}
