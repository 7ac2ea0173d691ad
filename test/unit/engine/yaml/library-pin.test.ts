/**
 * The `yaml` library is pinned exactly (package.json, package-lock.json, the installed copy agree),
 * because engine/yaml/ relies on more than its documented surface: the fast reader and the one-entry
 * re-parse promise the library's exact ranges and errors, composeSteps.ts composes hand-made CST
 * tokens and converts with `yaml/util`'s `toJS`, lazyDocument.ts replaces a document's `contents`,
 * duplicateKeys.ts reproduces where the library reports a duplicate key, and document.ts reads its
 * stack overflow as RESOURCE_EXHAUSTION. Each of those is checked here, so an upgrade that changes one
 * fails this file (upgrade: change the pin, run this file and the differential tests —
 * yaml-incremental, fast-read, yaml-duplicate-keys, `npm run fuzz -- --yaml N` — and fix what differs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as YAML from 'yaml';
import { toJS, type ToJSContext } from 'yaml/util';
import { parseYamlFile } from '../../../../server/src/engine/yaml/document';
import { appsetHead, MINIMAL_TEMPLATE_SPEC } from '../../../helpers/appsets';

const root = join(__dirname, '..', '..', '..', '..');
const json = (p: string) => JSON.parse(readFileSync(join(root, p), 'utf8')) as Record<string, unknown>;

test('yaml is pinned to one exact version, the same in package.json, package-lock.json and node_modules', () => {
  const pkg = json('package.json') as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const pin = pkg.dependencies?.yaml ?? pkg.devDependencies?.yaml;
  assert.match(pin ?? '', /^\d+\.\d+\.\d+$/, `package.json pins yaml exactly (not a range): ${pin}`);
  const lock = json('package-lock.json') as {
    packages: Record<string, { version?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> }>;
  };
  const asked = lock.packages[''].dependencies?.yaml ?? lock.packages[''].devDependencies?.yaml;
  assert.equal(asked, pin, 'package-lock.json asks for the same version');
  assert.equal(lock.packages['node_modules/yaml'].version, pin, 'package-lock.json resolves it');
  assert.equal((json('node_modules/yaml/package.json') as { version: string }).version, pin, 'the installed copy is it');
});

test("the library's ranges and errors that the readers reproduce", () => {
  // A document's range [start, contents end, end]: a comment after the contents ends it later.
  const [doc] = YAML.parseAllDocuments('a: 1\n# c\n---\nb:\n', { uniqueKeys: false });
  assert.deepEqual(doc.range, [0, 5, 9]);
  // An empty value and a comment after it: the document ends before the comment's line break when a
  // `---` follows, after it when the text ends (document.ts `splitDocuments` reads such texts whole).
  assert.deepEqual(YAML.parseAllDocuments('x:\n# c\n---\ny: 1\n')[0].range, [0, 6, 6]);
  assert.deepEqual(YAML.parseAllDocuments('x:\n# c\n')[0].range, [0, 7, 7]);
  // The duplicate-key error: its code, words and place — after an empty value, where that entry ended
  // (duplicateKeys.ts `keyStarts`, the library's `compose/resolve-block-map.js`).
  const [dup] = YAML.parseAllDocuments('a: 1\nb:\na: 2\n', { uniqueKeys: true });
  assert.deepEqual(
    dup.errors.map((e) => [e.code, e.pos, e.message.split(' at line')[0]]),
    [['DUPLICATE_KEY', [7, 8], 'Map keys must be unique']],
  );
  const [blockInFlow] = YAML.parseAllDocuments('---\n {b\nf: {g: 1,\n  -\nj: "ok"\nj: "ok"\n', { uniqueKeys: true });
  assert.deepEqual(
    blockInFlow.errors.map((e) => e.code),
    ['BLOCK_IN_FLOW', 'MISSING_CHAR', 'DUPLICATE_KEY', 'BLOCK_IN_FLOW', 'BAD_INDENT', 'MISSING_CHAR'],
  );
});

test('the internals composeSteps.ts and lazyDocument.ts use: hand-made CST tokens, toJS, toJSON overrides, contents', () => {
  // A block sequence token of two of a parsed sequence's items, composed on its own (composeApart).
  const parser = new YAML.Parser();
  const [cst] = [...parser.parse('- a\n- b\n- c\n')];
  assert.equal(cst.type, 'document');
  const seq = (cst as YAML.CST.Document).value as YAML.CST.BlockSequence;
  assert.equal(seq.type, 'block-seq');
  const items = seq.items.slice(1);
  const composer = new YAML.Composer({});
  const value: YAML.CST.BlockSequence = { type: 'block-seq', offset: items[0].start[0].offset, indent: seq.indent, items };
  const docs = [...composer.next({ type: 'document', offset: value.offset, start: [], value }), ...composer.end()];
  assert.equal(docs.length, 1);
  assert.deepEqual(docs[0].toJS(), ['b', 'c']);
  assert.deepEqual((docs[0].contents as YAML.YAMLSeq).range, [4, 12, 12]);
  // `toJS` of yaml/util with the context valueSteps builds, and a sequence's own toJSON taking its place.
  const doc = YAML.parseDocument('l: [1, 2]\n');
  const l = doc.get('l') as YAML.YAMLSeq;
  const ctx: ToJSContext = { anchors: new Map(), doc, keep: true, mapAsMap: false, mapKeyWarned: false, maxAliasCount: 100 };
  assert.deepEqual(toJS(l.items[1], '1', ctx), 2);
  Object.defineProperty(l, 'toJSON', { value: () => ['x'], configurable: true, writable: true });
  assert.deepEqual(doc.toJS({ maxAliasCount: 100 }), { l: ['x'] });
  // `contents` is an own data property that a getter may replace.
  const d = new YAML.Document(undefined);
  const desc = Object.getOwnPropertyDescriptor(d, 'contents');
  assert.ok(desc && desc.configurable && 'value' in desc);
});

test("the library's stack overflow is recorded as RESOURCE_EXHAUSTION (document.ts reads it as one finding)", () => {
  const items = Array.from({ length: 3000 }, (_, i) => [`          - cluster: c${i}`, `            url: https://c${i}.example`]).flat();
  items[1] = '\t' + items[1].trimStart();
  const text = `${appsetHead('tabbed')}  generators:\n    - list:\n        elements:\n${items.join('\n')}\n  template:\n    metadata:\n      name: x\n${MINIMAL_TEMPLATE_SPEC}`;
  const [doc] = YAML.parseAllDocuments(text, { uniqueKeys: false });
  assert.ok(
    doc.errors.some((e) => e.code === 'RESOURCE_EXHAUSTION'),
    `codes: ${[...new Set(doc.errors.map((e) => e.code))].join(', ')}`,
  );
  assert.deepEqual(
    parseYamlFile(text).diagnostics.map((d) => d.code),
    ['yaml/parser-overflow'],
  );
});

test("the library's codes and places the readers decide by, instead of its words", () => {
  const errors = (text: string) =>
    YAML.parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false, keepSourceTokens: true })[0].errors.map((e) => [
      e.code,
      e.pos[0],
    ]);
  // A tab in the indentation (document.ts syntaxMessage).
  assert.deepEqual(errors('a:\n\t- b\n')[0], ['TAB_AS_INDENT', 3]);
  // An unclosed flow collection (gotemplate/argo.ts unclosedFlow): reported at the end of its last item,
  // where its node's range stops, MISSING_CHAR at the root and BAD_INDENT below, innermost first; its
  // source token has no closing bracket.
  assert.deepEqual(errors('[a, b'), [['MISSING_CHAR', 5]]);
  assert.deepEqual(errors('k: [a, {b: c'), [
    ['BAD_INDENT', 12],
    ['BAD_INDENT', 12],
  ]);
  const [doc] = YAML.parseAllDocuments('k: [a, b', { keepSourceTokens: true });
  const seq = (doc.contents as YAML.YAMLMap).items[0].value as YAML.YAMLSeq;
  assert.equal(seq.range?.[1], 8);
  assert.equal(seq.srcToken?.type, 'flow-collection');
  assert.deepEqual(seq.srcToken?.type === 'flow-collection' && seq.srcToken.end, []);
  // An unclosed quote at the same place is reported first, at its token's end.
  assert.deepEqual(errors('["abc'), [
    ['MISSING_CHAR', 5],
    ['MISSING_CHAR', 5],
  ]);
  // A key without a value: MISSING_CHAR at the key's whole range (duplicateKeys.ts `after`).
  const [missing] = YAML.parseAllDocuments('a: 1\nkey\n', { uniqueKeys: false, prettyErrors: false })[0].errors;
  assert.deepEqual([missing.code, missing.pos], ['MISSING_CHAR', [5, 8]]);
  // Aliases past the limit: a ReferenceError (workspace/index.ts tells an alias bomb by it).
  const bomb = YAML.parseDocument('a: &a [1]\nb: [*a, *a, *a]\n');
  assert.throws(() => bomb.toJS({ maxAliasCount: 1 }), ReferenceError);
});
