/**
 * `readDocuments` (engine/yaml/parse.ts), the reader of the workspace's files, gives what
 * `parseDocuments` (the `yaml` library over the whole text) gives: the same number of documents, and
 * for each the same errors, range and value, whether the fast reader read the text or not. Over every
 * YAML file of the repository and of ../shared, and texts put together from the boundary lines that
 * mean something at a `---` (yamlCorpus.ts), where the split into parts could read otherwise than the
 * whole text.
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
