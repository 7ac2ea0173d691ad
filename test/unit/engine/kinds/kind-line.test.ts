/**
 * "Is this an ApplicationSet" on a text (`kinds/appset.ts`): a `kind: ApplicationSet` line, read by character
 * codes, finds what the pattern that defines it finds (`^[ \t]*kind:[ \t]*(?:\r?\n[ \t]+)?["']?ApplicationSet\b`
 * with the `m` flag: after any line terminator, the value on the next indented line, one quote), on every text
 * generated from the pieces at its edges.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appSetKindAt, declaresAppSet } from '../../../../server/src/engine/kinds/appset';
import { seededRandom } from '../../../helpers/random';

const KIND_LINE = /^[ \t]*kind:[ \t]*(?:\r?\n[ \t]+)?["']?ApplicationSet\b/m;
const PIECES = [
  'kind:',
  'kind: ',
  'ApplicationSet',
  'ApplicationSets',
  'ApplicationSet_',
  'ApplicationSet-',
  ' ',
  '\t',
  '\n',
  '\r',
  '\r\n',
];
const MORE = ['\u2028', '\u2029', '"', "'", 'x', '- ', 'kind', ':', 'Application', '#'];

test('a kind: ApplicationSet line is found where the pattern finds it', () => {
  const r = seededRandom(39);
  const pieces = [...PIECES, ...MORE];
  for (let i = 0; i < 50_000; i++) {
    let text = '';
    for (let k = Math.floor(r() * 12); k > 0; k--) text += pieces[Math.floor(r() * pieces.length)];
    const m = KIND_LINE.exec(text);
    const end = m ? m.index + m[0].length : -1;
    assert.deepEqual(appSetKindAt(text), m ? { start: end - 'ApplicationSet'.length, end } : undefined, JSON.stringify(text));
    assert.equal(declaresAppSet(text), m !== null, JSON.stringify(text));
  }
});
