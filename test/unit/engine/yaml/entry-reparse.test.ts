/**
 * Re-parsing one block entry of a document on an edit (engine/yaml/incremental.ts, used by
 * `parseYamlFile(text, previous)`, through kinds/file.ts `parseFile`): thousands of seeded random edits to realistic ApplicationSets, each
 * parsed from the previous parse and from nothing, must give the same `yaml` documents (every node's
 * class, value, source, style, offsets, comments and flags; errors and warnings), the same values,
 * located trees, ApplicationSets and findings. The edits are typing as people do it (a character, a
 * deleted character, a new line with indentation, a pasted line) and hostile ones (indicators,
 * quotes, comments, tabs), at random places; the test also checks that most realistic edits took the
 * fast path, so that it tests something.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { parseFile as parseWith, type ParsedFile } from '../../../../server/src/engine/kinds';
import { astOf, child, pathOf, type AstNode } from '../../../../server/src/engine/yaml/ast';
import { diffTexts } from '../../../../server/src/engine/yaml/incremental';
import { appsetHead, listOf, clusterListMatrix, rollingSyncBy, longListAppSet, MINIMAL_TEMPLATE_SPEC } from '../../../helpers/appsets';
import { seededRandom } from '../../../helpers/random';

/**
 * The library's re-parse of one entry is what this file tests: in the product the fast reader reads
 * an edit first (fast-read.test.ts), and this re-parse serves the edits it leaves to the library.
 */
const parseFile = (text: string, previous?: ParsedFile) => parseWith(text, previous, undefined, 'library');

/** Texts people write: lists in block and flow style, matrices, strategies, comments, block scalars, anchors, several documents. */
const BASES: string[] = [
  longListAppSet(40),
  `${appsetHead('services')}  generators:
${listOf(Array.from({ length: 12 }, (_, i) => ({ service: `svc-${i}`, env: ['dev', 'prod'][i % 2], image: `'registry.example.com/svc-${i}:1.${i}.0'` })))}  template:
    metadata:
      name: '{{ .service }}-{{ .env }}'
      labels:
        env: '{{ .env }}'
${MINIMAL_TEMPLATE_SPEC}`,
  `${appsetHead('story', { options: '["missingkey=error"]' })}  generators:
${clusterListMatrix({ env: 'prod' }, [
  { service: 'api', image: 'r/api:1' },
  { service: 'web', image: '"r/web:2"' },
  { service: 'db', image: 'r/db:3' },
])}${rollingSyncBy('tier', [
    { values: ['canary'], maxUpdate: 1 },
    { values: ['low-traffic'], maxUpdate: '25%' },
  ])}  template:
    metadata:
      name: '{{ .service }}-{{ .name }}'
    spec:
      project: default
      source:
        repoURL: https://github.com/example/services.git
        targetRevision: main
        path: 'charts/{{ .service }}'
        helm:
          valuesObject:
            replicas: 2
            note: "a # not a comment"
      destination:
        server: '{{ .server }}'
        namespace: '{{ .service | lower }}'
`,
  `# ApplicationSets of the platform team
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: mixed # trailing comment
  labels: &labels
    team: platform
spec:
  goTemplate: true
  generators:
  - list:
      elements:
      - cluster: a
        url: https://a.example.com

      - cluster: b   # b is special
        url: https://b.example.com
      # c is off
      - cluster: d
        url: https://d.example.com
        extra: {x: 1, y: [1, 2,
          3]}
  template:
    metadata:
      name: '{{ .cluster }}-app'
      labels: *labels
    spec:
      project: default
      source:
        repoURL: https://example.com/r.git
        targetRevision: HEAD
        path: apps
        helm:
          values: |
            replicas: 1
            image: x

          valueFiles:
          - values.yaml
          - 'values-{{ .cluster }}.yaml'
      destination:
        server: '{{ .url }}'
        namespace: >-
          folded
          text
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
  a: "1"
  b: 'two'
  c: !!str 3
`,
];

/** Pieces typed or pasted: letters, digits, YAML indicators, quotes, comments, tabs, line breaks with indentation. */
const TYPED = [
  'a',
  'x',
  'Z',
  '0',
  '7',
  '-',
  '_',
  '.',
  '/',
  ' ',
  ' ',
  ':',
  ': ',
  '- ',
  '#',
  ' #',
  "'",
  '"',
  '{',
  '}',
  '[',
  ']',
  ',',
  '|',
  '>',
  '&a',
  '*a',
  '!',
  '?',
  '%',
  '\t',
  '\n',
  '\n  ',
  '\n    ',
  '\n          - ',
  '\n            ',
  'key: value',
  '{{ .x }}',
  '@',
  '---',
  '...',
];

function edit(text: string, rnd: () => number): string {
  const r = rnd();
  // Mostly where people type: inside a line, after its indentation; now and then anywhere.
  let at = Math.floor(rnd() * (text.length + 1));
  if (rnd() < 0.7) {
    const ls = text.lastIndexOf('\n', at - 1) + 1;
    while (at < text.length && text[at] === ' ' && at - ls < 40) at++;
    if (at > ls && text[at - 1] === ' ' && text[at] !== '\n') at++;
  }
  if (r < 0.45) {
    // a realistic character (letters and digits most of the time)
    const ch = rnd() < 0.7 ? 'abcxyz0123456789-.'[Math.floor(rnd() * 18)] : TYPED[Math.floor(rnd() * TYPED.length)];
    return text.slice(0, at) + ch + text.slice(at);
  }
  if (r < 0.75) {
    const n = 1 + Math.floor(rnd() * (rnd() < 0.8 ? 2 : 30));
    return text.slice(0, at) + text.slice(at + n);
  }
  if (r < 0.9) {
    // replace a few characters
    const n = 1 + Math.floor(rnd() * 4);
    return text.slice(0, at) + TYPED[Math.floor(rnd() * TYPED.length)] + text.slice(at + n);
  }
  // paste a copy of another line after this one
  const le = text.indexOf('\n', at);
  const src = Math.floor(rnd() * text.length);
  const s0 = text.lastIndexOf('\n', src - 1) + 1;
  const s1 = text.indexOf('\n', src);
  const line = text.slice(s0, s1 < 0 ? text.length : s1);
  if (le < 0) return text + '\n' + line;
  return text.slice(0, le + 1) + line + '\n' + text.slice(le + 1);
}

/** Every own property of every node, recursively, with each collection's schema checked to be its document's. */
function nodeShape(n: unknown, schema: unknown, path: string): unknown {
  if (n === null || n === undefined || typeof n !== 'object') return n;
  if (YAML.isPair(n))
    return { pair: true, key: nodeShape(n.key, schema, path + '.key'), value: nodeShape(n.value, schema, path + '.value') };
  if (!YAML.isNode(n)) return { other: String(n) };
  const out: Record<string, unknown> = { proto: Object.getPrototypeOf(n)?.constructor?.name };
  for (const k of Object.keys(n).sort()) {
    const v = (n as unknown as Record<string, unknown>)[k];
    if (k === 'items') out.items = (v as unknown[]).map((it, i) => nodeShape(it, schema, `${path}[${i}]`));
    else out[k] = v;
  }
  if (YAML.isCollection(n)) assert.equal((n as { schema?: unknown }).schema, schema, `schema of ${path}`);
  return out;
}

function docShape(d: YAML.Document.Parsed) {
  const own: Record<string, unknown> = {};
  for (const k of Object.keys(d).sort()) {
    if (k === 'contents' || k === 'schema' || k === 'options' || k === 'directives') continue;
    const v = (d as unknown as Record<string, unknown>)[k];
    own[k] = k === 'errors' || k === 'warnings' ? (v as YAML.YAMLError[]).map((e) => [e.code, e.pos, e.message]) : v;
  }
  return { own, directives: { ...d.directives }, contents: nodeShape(d.contents, d.schema, '') };
}

function tree(n: AstNode | undefined): unknown {
  if (n === undefined) return null;
  if (n.kind === 'object') return { s: n.span, k: n.keySpan, p: n.properties.map((q) => [q.key, q.keySpan, tree(q.value)]) };
  if (n.kind === 'array') return { s: n.span, k: n.key, i: n.items.map(tree) };
  return { s: n.span, kind: n.kind, v: n.kind === 'scalar' ? [String(n.value), n.style, n.source] : undefined };
}

/** JSON with what JSON leaves out made visible (undefined, bigint, dates). */
const stringify = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) =>
    x === undefined ? '(undefined)' : typeof x === 'bigint' ? `${x}n` : x instanceof Date ? `date:${x.toISOString()}` : x,
  );

function summary(p: ParsedFile) {
  return {
    docs: p.docs.map((d) => ({ index: d.index, span: d.span, value: d.value, doc: docShape(d.doc), tree: tree(astOf(d.doc)) })),
    appsets: p.appsets.map((a) => [a.index, a.name, a.namespace, a.span, a.value]),
    diagnostics: p.diagnostics.map((d) => [d.code, d.span, d.message, d.severity]),
  };
}

// The same with Windows line ends.
BASES.push(BASES[1].replace(/\n/g, '\r\n'));

test('the edit between two texts', () => {
  assert.equal(diffTexts('abc', 'abc'), undefined);
  assert.deepEqual(diffTexts('abc', 'abXc'), { start: 2, oldEnd: 2, newEnd: 3 });
  assert.deepEqual(diffTexts('aaa', 'aa'), { start: 2, oldEnd: 3, newEnd: 2 });
  assert.deepEqual(diffTexts('abcd', 'aXYd'), { start: 1, oldEnd: 3, newEnd: 3 });
});

test('an edit re-parses one entry and gives exactly the whole parse (seeded random edits)', () => {
  let edits = 0;
  let spliced = 0;
  let valid = 0;
  for (const [b, base] of BASES.entries()) {
    for (let chain = 0; chain < 10; chain++) {
      const rnd = seededRandom(1000 * b + chain + 1);
      let text = base;
      let prev = parseFile(text);
      let broken = 0;
      for (let i = 0; i < 60; i++) {
        const next = edit(text, rnd);
        const inc = parseFile(next, prev);
        const fresh = parseFile(next);
        edits++;
        if (inc.reuse?.spliced) spliced++;
        const [x, y] = [summary(inc), summary(fresh)];
        // Compared as text first (fast); the structural comparison says where they differ.
        if (stringify(x) !== stringify(y)) {
          const e = diffTexts(text, next);
          assert.deepEqual(
            x,
            y,
            `base ${b}, chain ${chain}, edit ${i}: ${JSON.stringify(e)} in ${JSON.stringify(next.slice(Math.max(0, (e?.start ?? 0) - 60), (e?.newEnd ?? 0) + 60))}`,
          );
          assert.fail(`base ${b}, chain ${chain}, edit ${i}: the parses differ in something JSON shows and deepEqual does not`);
        }
        // Half the time the next edit starts from the fresh parse (as after a full parse), half from the spliced one.
        prev = rnd() < 0.5 ? inc : fresh;
        // Back to the base after a few edits of a broken text, so that the chains stay mostly valid ApplicationSets.
        broken = fresh.diagnostics.length ? broken + 1 : 0;
        if (!fresh.diagnostics.length) valid++;
        text = broken > 3 || rnd() < 0.05 ? base : next;
        if (text === base) prev = parseFile(base, prev);
      }
    }
  }
  assert.ok(edits >= 3000, `${edits} edits`);
  // Enough of them took the fast path for the comparison to mean something.
  assert.ok(spliced > valid / 2, `${spliced} of ${edits} edits re-parsed one entry (${valid} gave a text without findings)`);
});

test('typing in a list element or the template of a long list re-parses one entry, and the result is the whole parse', () => {
  let text = longListAppSet(200);
  let prev = parseFile(text);
  const anchors = ['name: e11', 'url: https://c7.example.com', "name: 'app-{{ .name }}", 'namespace: x', 'targetRevision: main'];
  for (let i = 0; i < 30; i++) {
    const anchor = anchors[i % anchors.length];
    const at = text.indexOf(anchor) + anchor.length;
    text = text.slice(0, at) + String(i % 10) + text.slice(at);
    const inc = parseFile(text, prev);
    assert.equal(inc.reuse?.spliced, 1, `keystroke ${i} after ${anchor}`);
    assert.equal(inc.reuse?.values, 1, `keystroke ${i}: the value made from the previous one`);
    assert.deepEqual(summary(inc), summary(parseFile(text)), `keystroke ${i}`);
    // ... sharing what did not change: the other list elements, the template's untouched fields
    const elements = (p: typeof inc) =>
      (p.docs[0].value as { spec: { generators: { list: { elements: unknown[] } }[] } }).spec.generators[0].list.elements;
    const tmpl = (p: typeof inc) => (p.docs[0].value as { spec: { template: { metadata: unknown } } }).spec.template;
    assert.equal(
      elements(inc).filter((e, j) => e === elements(prev)[j]).length,
      anchor === 'name: e11' || anchor.startsWith('url') ? 199 : 200,
    );
    if (!anchor.includes('.name')) assert.equal(tmpl(inc).metadata, tmpl(prev).metadata);
    // ... and the located tree's nodes before the entry: the first list element's, for an edit after it
    const first = (p: typeof inc) =>
      child(child(child(child(child(child(astOf(p.docs[0].doc), 'spec'), 'generators'), 0), 'list'), 'elements'), 0);
    if (i > 0) assert.equal(first(inc), first(prev), `keystroke ${i}: the first element's node is the previous tree's`);
    assert.equal(pathOf(first(inc)!).join('/'), 'spec/generators/0/list/elements/0');
    prev = inc;
  }
  // An anchor anywhere: an alias may repeat the edited value, the document is converted whole.
  const anchored = text.replace('name: long', 'name: &n long');
  const withAnchor = parseFile(anchored.replace('name: e11', 'name: e11x'), parseFile(anchored));
  assert.deepEqual([withAnchor.reuse?.spliced, withAnchor.reuse?.values], [1, 0]);
  // Fallbacks: a comment, a new sibling key, a duplicate key, a broken indentation.
  for (const [what, change] of [
    ['a comment', (t: string) => t.replace('name: e12', 'name: e12 # x')],
    // the key typed one letter at a time: 'nam' is new, 'name' repeats the element's first key
    ['a duplicate key', (t: string) => t.replace('nam: https://c13.example.com', 'name: https://c13.example.com')],
    ['an indentation', (t: string) => t.replace('            url: https://c14', '             url: https://c14')],
  ] as const) {
    if (what === 'a duplicate key') {
      text = text.replace('url: https://c13.example.com', 'nam: https://c13.example.com');
      prev = parseFile(text, prev);
      assert.equal(prev.reuse?.spliced, 1, 'a new key');
    }
    const next = change(text);
    const inc = parseFile(next, prev);
    assert.equal(inc.reuse?.spliced, 0, what);
    assert.deepEqual(summary(inc), summary(parseFile(next)), what);
  }
});
