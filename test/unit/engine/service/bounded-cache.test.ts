// The language service's one cache helper (service/boundedCache.ts): kept in order of use, bounded by
// entries and by the weight of its values, never dropping the entry just stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedCache } from '../../../../server/src/engine/service/boundedCache';

const cache = () => new BoundedCache<string, string>({ maxEntries: 3, maxWeight: 10, weight: (v) => v.length });

test('the oldest entry goes first when there are too many; use() makes an entry the newest, peek() does not', () => {
  const c = cache();
  c.set('a', 'x');
  c.set('b', 'x');
  c.set('c', 'x');
  assert.equal(c.peek('a'), 'x');
  c.set('d', 'x'); // a was only peeked: still the oldest
  assert.equal(c.has('a'), false);
  assert.equal(c.use('b'), 'x');
  c.set('e', 'x'); // b was used: c goes
  assert.deepEqual(
    ['b', 'c', 'd', 'e'].map((k) => c.has(k)),
    [true, false, true, true],
  );
  assert.equal(c.size, 3);
});

test('the weight bound drops the oldest entries, but never the one just stored', () => {
  const c = cache();
  c.set('a', '1234');
  c.set('b', '1234');
  assert.equal(c.weight, 8);
  c.set('c', '123'); // 11 > 10: a goes
  assert.deepEqual(
    ['a', 'b', 'c'].map((k) => c.has(k)),
    [false, true, true],
  );
  assert.equal(c.weight, 7);
  c.set('big', '12345678901234'); // heavier than the bound alone: kept, every other entry dropped
  assert.deepEqual([c.size, c.weight, c.peek('big')], [1, 14, '12345678901234']);
});

test('replacing, deleting and clearing keep the weight right', () => {
  const c = cache();
  c.set('a', '1234');
  c.set('a', '12');
  assert.deepEqual([c.size, c.weight], [1, 2]);
  c.delete('a');
  c.delete('missing');
  assert.deepEqual([c.size, c.weight], [0, 0]);
  c.set('b', '123');
  c.clear();
  assert.deepEqual([c.size, c.weight, c.use('b')], [0, 0, undefined]);
});
