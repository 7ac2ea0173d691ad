import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineOfOffset, lineStarts } from '../../../../server/src/engine/yaml/lines';

/** The reference: every offset after a line feed, by a loop over every character. */
function reference(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

test('lineStarts finds every line start, line feeds at either end, runs of them and carriage returns included', () => {
  const pieces = ['a', 'key: value', '\n', '\r\n', '\n\n', '\r', '\u2028', ' ', '# ü'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const texts = ['', '\n', 'no line feed', 'ends\n', '\nstarts', '\n\n\n'];
  for (let k = 0; k < 300; k++) {
    let t = '';
    const n = Math.floor(next() * 40);
    for (let i = 0; i < n; i++) t += pieces[Math.floor(next() * pieces.length)];
    texts.push(t);
  }
  for (const t of texts) {
    assert.deepEqual([...lineStarts(t)], reference(t), JSON.stringify(t));
    const starts = lineStarts(t);
    for (let o = 0; o <= t.length; o++) assert.equal(lineOfOffset(starts, o), t.slice(0, o).split('\n').length - 1);
  }
});
