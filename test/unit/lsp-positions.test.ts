/**
 * `toRange` (server/src/lsp/convert.ts) places a span by the text's `\n` line starts when the text has no
 * `\r`, not by `TextDocument.positionAt`: the same positions as positionAt for every offset (in and out of
 * the text), for texts with every line terminator, and after the document is edited.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { toRange } from '../../server/src/lsp/convert';

/** Seeded random numbers (mulberry32), so a failure can be run again. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['a', 'key: value', ' ', '\n', '\n', '\r\n', '\r', 'é', '😀', '\t', '- x', '\n\n'];

function randomText(r: () => number, withCr: boolean): string {
  let s = '';
  const n = Math.floor(r() * 60);
  for (let i = 0; i < n; i++) {
    const p = PIECES[Math.floor(r() * PIECES.length)];
    s += withCr || !p.includes('\r') ? p : '\n';
  }
  return s;
}

/** What positionAt says, from a fresh document (its own line offsets). */
const expected = (text: string, start: number, end: number) => {
  const doc = TextDocument.create('file:///x.yaml', 'yaml', 1, text);
  return { start: doc.positionAt(start), end: doc.positionAt(end) };
};

test('toRange places every offset as TextDocument.positionAt does', () => {
  const r = rng(39);
  for (let round = 0; round < 3000; round++) {
    const text = randomText(r, round % 3 === 0);
    const doc = TextDocument.create('file:///x.yaml', 'yaml', 1, text);
    for (let k = 0; k < 8; k++) {
      const start = Math.floor(r() * (text.length + 6)) - 3;
      const end = start + Math.floor(r() * 10);
      assert.deepEqual(toRange(doc, { start, end }), expected(text, start, end), JSON.stringify({ text, start, end }));
    }
  }
});

test('toRange follows the document through edits (its line starts are those of the current text)', () => {
  const r = rng(7);
  let text = 'a: 1\nb: 2\n';
  const doc = TextDocument.create('file:///y.yaml', 'yaml', 1, text);
  for (let v = 2; v < 400; v++) {
    const pos = doc.positionAt(Math.floor(r() * (text.length + 1)));
    // Where the edit lands (positionAt moves an offset inside a `\r\n` before it).
    const at = doc.offsetAt(pos);
    const insert = randomText(r, v % 5 === 0).slice(0, 8);
    TextDocument.update(doc, [{ range: { start: pos, end: pos }, text: insert }], v);
    text = text.slice(0, at) + insert + text.slice(at);
    assert.equal(doc.getText(), text);
    const start = Math.floor(r() * (text.length + 1));
    assert.deepEqual(toRange(doc, { start, end: text.length }), expected(text, start, text.length));
  }
});

test('a long text with LF line ends: the line and column of its last lines', () => {
  const text = Array.from({ length: 5000 }, (_, i) => `line ${i}: ${'x'.repeat(i % 40)}`).join('\n');
  const doc = TextDocument.create('file:///z.yaml', 'yaml', 1, text);
  for (const start of [0, 1, text.indexOf('line 4321'), text.length - 1, text.length])
    assert.deepEqual(toRange(doc, { start, end: start }), expected(text, start, start));
});
