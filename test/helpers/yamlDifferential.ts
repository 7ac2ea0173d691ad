/**
 * The YAML readers against the library on the whole text: `parseFile` (the `---` split, the fast
 * reader, the one-entry re-parse) must give exactly what `YAML.parseAllDocuments` gives — values,
 * errors, every range — fresh and after an edit. Used by test/unit/engine/yaml/incremental.test.ts and, long,
 * by `npm run fuzz -- --yaml N` (test/fuzz/).
 */
import assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { astOf, type AstNode } from '../../server/src/engine/yaml';
import { parseFile, type ParsedFile } from '../../server/src/engine/kinds';
import { appsetHead, flowTemplate, LOCAL } from './appsets';
import { seededRandom } from './random';
import { boundaryEdit, boundaryText } from './yamlCorpus';

const appset = (name: string) => `${appsetHead(name, { namespace: null })}  generators:
    - list:
        elements:
          - {svc: a}
          - {svc: b}
${flowTemplate(`'${name}-{{ .svc }}'`, "repoURL: https://git.example.com/r.git, path: 'apps/{{ .svc }}'", `${LOCAL}, namespace: web`)}`;

/** What a parse says, offsets included, in a comparable form. */
export function summary(p: ParsedFile) {
  const tree = (n: AstNode | undefined): unknown =>
    n === undefined
      ? null
      : n.kind === 'object'
        ? { s: n.span, p: n.properties.map((q) => [q.key, q.keySpan, tree(q.value)]) }
        : n.kind === 'array'
          ? { s: n.span, i: n.items.map(tree) }
          : { s: n.span, k: n.kind, v: n.kind === 'scalar' ? String(n.value) : undefined };
  return {
    docs: p.docs.map((d) => ({ index: d.index, span: d.span, value: d.value, range: d.doc.range, tree: tree(astOf(d.doc)) })),
    appsets: p.appsets.map((a) => [a.index, a.name, a.span]),
    diagnostics: p.diagnostics.map((d) => [d.code, d.span, d.message]),
  };
}

/** The reference: the whole text through the yaml library at once (as before per-document parsing). */
export function whole(text: string, what = '') {
  const p = parseFile(text);
  const docs = YAML.parseAllDocuments(text, { prettyErrors: false, uniqueKeys: true, strict: false, logLevel: 'error' });
  const list = Array.isArray(docs) ? docs : [];
  assert.equal(p.docs.length, list.length, `document count: ${what}`);
  p.docs.forEach((d, i) => {
    assert.deepEqual(d.doc.range, list[i].range, `range of document ${i}`);
    assert.deepEqual(
      d.doc.errors.map((e) => [e.pos, e.code]),
      list[i].errors.map((e) => [e.pos, e.code]),
      `errors of document ${i}`,
    );
  });
  return summary(p);
}

export function check(before: string | ParsedFile, after: string, what: string) {
  const prev = typeof before === 'string' ? parseFile(before) : before;
  const incremental = parseFile(after, prev);
  assert.deepEqual(summary(incremental), whole(after, what), what);
  return incremental;
}

/**
 * The split at `---`, the fast reader and the one-entry re-parse against the library on the whole text
 * (value, errors, every range of every node), on generated texts at `---` boundaries — unterminated
 * quotes and flow collections, comments before markers, emptied values — fresh and after an edit.
 * `npm run fuzz -- --yaml N` runs the same comparison long (test/fuzz/).
 */
export function boundaryCase(seed: number): void {
  const rand = seededRandom(seed);
  const before = boundaryText(rand);
  const after = boundaryEdit(rand, before);
  const what = `seed ${seed}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`;
  assert.deepEqual(summary(parseFile(before)), whole(before, what), `${what} (fresh)`);
  check(before, after, what);
  // And the one-entry re-parse on the previous parse of a whole document, with an ApplicationSet around it.
  const doc = appset('edit');
  check(doc, doc.replace('  name: edit\n', `  name: edit\n${after.split('\n')[0].startsWith('---') ? '' : after.split('\n')[0]}\n`), what);
}
