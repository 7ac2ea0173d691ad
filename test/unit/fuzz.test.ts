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
