// The preview's in-place update (client/src/lineDiff.ts): the hunks always give the server's new text,
// and a refresh that changes a few lines gives a few small hunks (not one replacing the whole text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyHunks, lineHunks } from '../../client/src/lineDiff';

/** A small seeded generator, so that a failure can be replayed. */
function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

test('random line edits: the hunks turn the old text into the new one', () => {
  const r = rng(29);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const words = ['---', 'kind: Application', '  name: a', '  name: b', '', '# from: x', 'spec:', '  project: default'];
  for (let round = 0; round < 2000; round++) {
    const a = Array.from({ length: Math.floor(r() * 30) }, () => pick(words));
    const b = [...a];
    for (let e = Math.floor(r() * 6); e > 0; e--) {
      const at = Math.floor(r() * (b.length + 1));
      const op = r();
      if (op < 0.33) b.splice(at, 0, pick(words));
      else if (op < 0.66) b.splice(at, 1);
      else b[at] = pick(words);
    }
    // With and without a last line break, and with a tiny edit limit (the one-hunk fallback).
    for (const [oldText, newText] of [
      [a.join('\n'), b.join('\n')],
      [a.join('\n') + '\n', b.join('\n') + '\n'],
      [a.join('\n') + '\n', b.join('\n')],
    ])
      for (const limit of [4000, 2]) {
        const hunks = lineHunks(oldText, newText, limit);
        assert.equal(applyHunks(oldText, hunks), newText, JSON.stringify({ oldText, newText, limit }));
        for (let i = 1; i < hunks.length; i++) assert.ok(hunks[i].start >= hunks[i - 1].end, 'hunks in order, not overlapping');
      }
  }
});

test('a template edit in a 540-Application preview: one small hunk per Application, not the whole text', () => {
  const app = (n: number, rev: string) =>
    `---\n# from: element ${n}\napiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: app-${n}\nspec:\n  source:\n    targetRevision: ${rev}\n    path: services/${n}\n`;
  const before = Array.from({ length: 540 }, (_, i) => app(i, 'HEAD')).join('');
  const after = Array.from({ length: 540 }, (_, i) => app(i, 'main')).join('');
  const hunks = lineHunks(before, after);
  assert.equal(hunks.length, 540);
  assert.ok(hunks.every((h) => h.text === '    targetRevision: main\n'));
  assert.equal(applyHunks(before, hunks), after);
  // 45 Applications added in the middle (a new cluster): one hunk of them.
  const added = Array.from({ length: 585 }, (_, i) => app(i < 300 ? i : i < 345 ? 1000 + i : i - 45, 'HEAD')).join('');
  const grown = lineHunks(before, added);
  assert.equal(applyHunks(before, grown), added);
  assert.ok(grown.length <= 3, `${grown.length} hunks`);
  assert.deepEqual(lineHunks(before, before), []);
});
