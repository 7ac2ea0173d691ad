/**
 * A release version split by searches (versions/releases.ts splitVersion, issue 39) is what its pattern split.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitVersion } from '../../../../server/src/engine/versions/releases';

test('a release version split by searches is what its pattern split (versions/releases.ts splitVersion)', () => {
  let seed = 3;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const parts = ['1', '2', '10', '007', '.', '..', 'x', '', 'v', ' ', '\n', '\u0661', '3.6', '2.9.1'];
  for (let i = 0; i < 50_000; i++) {
    let v = '';
    for (let n = 1 + Math.floor(next() * 6); n > 0; n--) v += parts[Math.floor(next() * parts.length)];
    const m = /^(\d+\.\d+)\.(\d+)$/.exec(v);
    assert.deepEqual(splitVersion(v), m ? [m[1], Number(m[2])] : [v, 0], JSON.stringify(v));
  }
});
