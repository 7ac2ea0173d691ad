/**
 * `WorkspaceIndex.inSteps` (issue 39): a consumer that reads many files of the index at once (the language
 * server's enablement log) gets the large files it reads parsed in steps, with the same documents, values,
 * unread and invalid documents as the whole parse, and never a result computed while a file was still
 * unparsed. The bound on a step is counted (steps of the parse), not timed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { WorkspaceIndex, type IndexedFile } from '../../../../server/src/engine/workspace/index';
import { APPSET_FILES } from '../../../../server/src/engine/workspace/interests';
import { runSteps } from '../../../../server/src/engine/steps';
import { memHost, repoFiles } from '../../../helpers/memHost';
import { longListAppSet } from '../../../helpers/appsets';

/** Ahead of a text: makes any text large enough to be parsed in steps (16 KiB), without changing its documents. */
const PAD = `# ${'x'.repeat(16 * 1024)}\n`;

/** Texts the fixtures do not hold: errors, aliases over the limit, duplicate keys, empty and directive documents. */
const CRAFTED = [
  'a: [1, 2\nb: 3\n',
  `x: &a [1, 2]\ny: ${Array.from({ length: 120 }, () => '*a').join(' ')}\n`,
  `base: &b {k: v}\nlist: [${Array.from({ length: 150 }, () => '*b').join(', ')}]\n`,
  'k: 1\nk: 2\n',
  '---\n---\na: 1\n...\n---\n',
  '%YAML 1.2\n---\na: !!str 1\n',
  '- a\n- b\n---\nplain text\n---\n{broken\n',
  '',
];

/** What consumers read of a file: its documents, values, spans and errors. */
function view(f: IndexedFile | undefined) {
  if (!f) return undefined;
  return {
    docs: f.docs,
    unread: f.unread,
    invalid: f.invalid,
    parsed: f.parsed.map((d) => ({
      range: d.range,
      errors: d.errors.map((e) => [e.code, e.pos, e.message]),
      warnings: d.warnings.map((e) => [e.code, e.pos]),
      text: d.errors.length ? undefined : String(d),
    })),
  };
}

/** Runs `steps` to its end; the number of pauses it made. */
function stepped<T>(steps: Generator<void, T>): { value: T; pauses: number } {
  let pauses = 0;
  for (;;) {
    const r = steps.next();
    if (r.done) return { value: r.value, pauses };
    pauses++;
  }
}

test('files parsed in steps read as the whole parse reads them: every fixture and example, and crafted texts', () => {
  const files = new Map<string, string>();
  for (const [p, text] of repoFiles((n) => /\.ya?ml$/i.test(n), 'test/fixtures', 'examples')) files.set(p, PAD + text);
  CRAFTED.forEach((t, i) => files.set(`/ws/crafted/${i}.yaml`, PAD + t));
  files.set('/ws/long.yaml', longListAppSet(2992));
  const paths = [...files.keys()];
  const whole = new WorkspaceIndex(memHost(files), { prefilter: false });
  const expected = paths.map((p) => view(whole.file(p)));
  const inSteps = new WorkspaceIndex(memHost(files), { prefilter: false });
  let pauses = 0;
  const value = paths.map((p) => {
    const r = stepped(inSteps.inSteps(() => view(inSteps.file(p))));
    pauses += r.pauses;
    return r.value;
  });
  assert.deepEqual(value, expected);
  assert.ok(pauses >= paths.length, `every large file was parsed in steps (${pauses} pauses, ${paths.length} files)`);
  assert.equal(inSteps.counts.parsed, whole.counts.parsed, 'each file parsed once');
  assert.ok(
    expected.some((v) => v?.unread.length) && expected.some((v) => v?.invalid.length),
    'the texts hold unread and invalid documents to compare',
  );
});

test('an open 6,000-line ApplicationSet is read in steps of a bounded size', () => {
  const text = longListAppSet(2992);
  const host = memHost(new Map([['/ws/other.yaml', 'a: 1\n']]));
  const ws = new WorkspaceIndex(host, { prefilter: false });
  ws.setOverlay('/ws/long.yaml', text);
  const { value, pauses } = stepped(ws.inSteps(() => ws.matching(APPSET_FILES).map((f) => [f.path, f.docs[0]?.value])));
  const plain = new WorkspaceIndex(host, { prefilter: false });
  plain.setOverlay('/ws/long.yaml', text);
  assert.deepEqual(
    value,
    plain.matching(APPSET_FILES).map((f) => [f.path, f.docs[0]?.value]),
  );
  // 3,000 list items, composed and converted a few hundred a step (yaml/composeSteps.ts): the parse pauses
  // at least every 200 items, each way; one call of the library's parse, as before, would not pause at all.
  assert.ok(pauses >= (2 * 2992) / 200, `${pauses} pauses`);
});

test('a result computed while a large file was not parsed yet is never used, even when the stop was caught', () => {
  const ws = new WorkspaceIndex(memHost(new Map([['/ws/long.yaml', longListAppSet(600)]])), { prefilter: false });
  const got = runSteps(
    ws.inSteps(() => {
      try {
        return ws.file('/ws/long.yaml')!.docs.length;
      } catch {
        return -1;
      }
    }),
  );
  assert.equal(got, 1);
  // Outside `inSteps` a file is parsed at once, as before.
  const other = new WorkspaceIndex(memHost(new Map([['/ws/long.yaml', longListAppSet(600)]])), { prefilter: false });
  assert.equal(other.file('/ws/long.yaml')!.docs.length, 1);
});

test('the enablement summary in steps is the summary, every file it reads parsed in steps', () => {
  // Every file padded: each one the summary reads stops it once (the install model, the versions, the
  // ApplicationSets' template folders), and what it gives must not change.
  const files = new Map<string, string>();
  for (const [p, text] of repoFiles((n) => /\.ya?ml$/i.test(n), 'test/fixtures/installs', 'test/fixtures/rollout'))
    files.set(p, PAD + text);
  files.set('/ws/apps/long.yaml', longListAppSet(2992));
  const summary = getLanguageService({ host: memHost(files) }).enablementSummary();
  const { value, pauses } = stepped(getLanguageService({ host: memHost(files) }).enablementSummarySteps());
  assert.deepEqual(value, summary);
  assert.ok(summary.length > 1, summary.join('\n'));
  assert.ok(pauses > 100, `the files it read were parsed in steps (${pauses} pauses)`);
});
