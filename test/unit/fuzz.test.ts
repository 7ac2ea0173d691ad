// The fuzz suite's short fixed-seed run (issue 16): generated ApplicationSets with deep nesting,
// shared template structures, placeholders and mutations through the engine and the running server,
// and random symlink trees through the workspace scan and the git generator, each kind in child
// processes with a 512 MB heap (test/fuzz/run.ts). `npm run fuzz` runs the long version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzz } from '../fuzz/run';

test('fuzz (fixed seed): no crash, no hang, no read outside the workspace', { timeout: 600_000 }, async () => {
  const t = await fuzz({ engine: 150, tree: 15, server: 30 }, 20261203);
  assert.equal(t.inputs, 195);
  assert.deepEqual(t.issues, []);
  assert.equal(t.crashes + t.hangs, 0);
  assert.equal(t.requests, 120);
});

test(
  'fuzz runner: a hang reported by a worker that then stops is one hang, a killed worker one crash, silence one hang',
  { timeout: 120_000 },
  async () => {
    // probe inputs: 0 passes, 1 is reported as a hang and its worker stops, 2 kills its worker, 3 never answers.
    const t = await fuzz({ probe: 5 }, 0);
    assert.equal(t.inputs, 5);
    assert.deepEqual(
      t.issues.map((i) => [i.input, i.what]),
      [
        [1, 'hang'],
        [2, 'crash'],
        [3, 'hang'],
      ],
    );
    assert.equal(t.crashes, 1);
    assert.equal(t.hangs, 2);
  },
);
