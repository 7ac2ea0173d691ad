// The preview's in-place update (client/src/lineDiff.ts): the hunks always give the server's new text,
// and a refresh that changes a few lines gives a few small hunks (not one replacing the whole text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyHunks, inPlaceHunks, joinNear, lineHunks, manyPartsChanged, onScreenHunks } from '../../client/src/lineDiff';

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
        const joined = joinNear(oldText, hunks, limit * 4);
        assert.equal(applyHunks(oldText, joined), newText, 'joined hunks give the same text');
        assert.ok(joined.length <= hunks.length);
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

test('a template edit seen on screen: only the Applications in the windows are edited, the rest left for the whole replacement', () => {
  const app = (n: number, rev: string, extra = '') =>
    `---\n# from: element ${n}\napiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: app-${n}\nspec:\n  source:\n    targetRevision: ${rev}\n${extra}    path: services/${n}\n`;
  const head = '# Preview of ApplicationSet "services": 540 Applications\n';
  const before = head + Array.from({ length: 540 }, (_, i) => app(i, 'HEAD')).join('');
  const after = head + Array.from({ length: 540 }, (_, i) => app(i, 'main')).join('');
  assert.equal(inPlaceHunks(before, after), undefined, 'too many changes to edit in place');
  assert.equal(manyPartsChanged(before, after), true, 'every Application changed: no line diff is tried');
  const twelve = head + Array.from({ length: 540 }, (_, i) => app(i, i % 45 === 3 ? 'main' : 'HEAD')).join('');
  assert.equal(manyPartsChanged(before, twelve), false, '12 Applications changed: the line diff edits them in place');
  assert.equal(inPlaceHunks(before, twelve)?.length, 12);
  assert.equal(
    manyPartsChanged(before, head + Array.from({ length: 541 }, (_, i) => app(i, 'main')).join('')),
    false,
    'parts added: not one to one',
  );
  // The editor shows Applications 100 to 103 (a window inside 100..103's text).
  const from = before.indexOf('  name: app-100\n');
  const to = before.indexOf('  name: app-103\n');
  const hunks = onScreenHunks(before, after, [{ start: from, end: to }])!;
  assert.deepEqual(
    hunks.map((h) => h.text),
    Array(4).fill('    targetRevision: main\n'),
    'one small hunk for each of the 4 Applications on screen',
  );
  const partly = applyHunks(before, hunks);
  for (let n = 0; n < 540; n++) {
    const shown = partly.includes(app(n, 'main'));
    assert.equal(shown, n >= 100 && n <= 103, `Application ${n}`);
  }
  // A window over everything gives the new text; the header counts as a part of its own.
  assert.equal(applyHunks(before, onScreenHunks(before, after, [{ start: 0, end: before.length }])!), after);
  const retitled = after.replace('540 Applications', '540 Applications (2 skipped)');
  assert.equal(applyHunks(before, onScreenHunks(before, retitled, [{ start: 0, end: 10 }])!).split('\n')[0], retitled.split('\n')[0]);
  // A line added in every Application: the parts on screen grow, the others keep their old text.
  const grown = head + Array.from({ length: 540 }, (_, i) => app(i, 'HEAD', '    ref: x\n')).join('');
  const g = applyHunks(before, onScreenHunks(before, grown, [{ start: from, end: from }])!);
  assert.ok(g.includes(app(100, 'HEAD', '    ref: x\n')) && g.includes(app(99, 'HEAD')) && g.includes(app(101, 'HEAD')));
  // Applications added or removed: the parts no longer match one to one.
  assert.equal(
    onScreenHunks(before, head + Array.from({ length: 541 }, (_, i) => app(i, 'main')).join(''), [{ start: from, end: to }]),
    undefined,
  );
  assert.deepEqual(onScreenHunks(before, before, [{ start: 0, end: before.length }]), []);
});

test('random previews: on-screen hunks over every window give the new text part by part', () => {
  const r = rng(31);
  const words = ['kind: Application', '  name: a', '  name: b', '', '# from: x', 'spec:', '  project: default'];
  const part = () => '---\n' + Array.from({ length: 1 + Math.floor(r() * 5) }, () => words[Math.floor(r() * words.length)] + '\n').join('');
  for (let round = 0; round < 500; round++) {
    const parts = Array.from({ length: 1 + Math.floor(r() * 8) }, part);
    const changed = parts.map((p) => (r() < 0.5 ? part() : p));
    const oldText = '# head\n' + parts.join('');
    const newText = '# head\n' + changed.join('');
    const all = onScreenHunks(oldText, newText, [{ start: 0, end: oldText.length }])!;
    assert.equal(applyHunks(oldText, all), newText);
    const at = Math.floor(r() * oldText.length);
    const some = onScreenHunks(oldText, newText, [{ start: at, end: at }])!;
    const result = applyHunks(oldText, some);
    for (let i = 1; i < some.length; i++) assert.ok(some[i].start >= some[i - 1].end);
    assert.ok(result.length > 0);
    assert.ok(some.length <= all.length);
  }
});
