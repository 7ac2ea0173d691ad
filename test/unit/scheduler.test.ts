/**
 * The language server's one queue of stepwise work (server/src/lsp/scheduler.ts): order and outcome
 * only (which run finishes first, what is dropped), never how long anything takes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Scheduler } from '../../server/src/lsp/scheduler';

/** A step that keeps the CPU busy for about `ms` (so that a run of many of them spans many turns). */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* busy */
  }
}

function* work(name: string, steps: number, stepMs: number, log: string[]): Generator<void, string> {
  for (let i = 0; i < steps; i++) {
    busy(stepMs);
    log.push(name);
    yield;
  }
  return `${name} done`;
}

test('a short run started while long ones are queued finishes first; two long runs take turns', async () => {
  const errors: string[] = [];
  const s = new Scheduler((name) => errors.push(name));
  const log: string[] = [];
  const finished: string[] = [];
  const a = s.run(work('a', 150, 2, log), () => false, 'a').then((o) => finished.push(o.value as string));
  const b = s.run(work('b', 150, 2, log), () => false, 'b').then((o) => finished.push(o.value as string));
  await new Promise((r) => setImmediate(r));
  const c = s.run(work('c', 2, 0, log), () => false, 'c').then((o) => finished.push(o.value as string));
  await Promise.all([a, b, c]);
  assert.equal(finished[0], 'c done', `finished: ${finished}`);
  // Neither long run waited for the other to end: b stepped before a's last step and a before b's.
  assert.ok(log.indexOf('b') < log.lastIndexOf('a') && log.indexOf('a') < log.lastIndexOf('b'), 'the long runs interleave');
  assert.deepEqual(errors, []);
  assert.equal(s.pending, 0);
});

test('a run that goes stale is dropped at its next pause; a failing run is reported and settles', async () => {
  const errors: string[] = [];
  const s = new Scheduler((name, e) => errors.push(`${name}: ${(e as Error).message}`));
  const log: string[] = [];
  let wanted = true;
  const dropped = s.run(work('x', 1000, 1, log), () => !wanted, 'x');
  await new Promise((r) => setImmediate(r));
  wanted = false;
  const outcome = await dropped;
  assert.deepEqual(outcome, { ok: false });
  assert.ok(log.length < 1000, `${log.length} of 1000 steps ran`);
  const ran = log.length;
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(log.length, ran, 'no step after the drop');

  function* failing(): Generator<void, string> {
    yield;
    throw new Error('broken');
  }
  assert.deepEqual(await s.run(failing(), () => false, 'findings'), { ok: true });
  assert.deepEqual(errors, ['findings: broken']);
  // Work that is done already is answered without a turn: settled before any immediate runs.
  let settled = false;
  function* cached(): Generator<void, number> {
    return 42;
  }
  const quick = s
    .run(cached(), () => false, 'cached')
    .then((o) => {
      settled = true;
      return o;
    });
  await Promise.resolve();
  await Promise.resolve();
  assert.ok(settled, 'settled within the same turn');
  assert.deepEqual(await quick, { ok: true, value: 42 });
});

test('a run not wanted when it starts takes no step, not even the inline one (issue 38)', async () => {
  const s = new Scheduler(() => undefined);
  const log: string[] = [];
  const out = await s.run(work('superseded', 3, 0, log), () => true, 'superseded');
  assert.deepEqual(out, { ok: false });
  assert.deepEqual(log, []);
  assert.equal(s.pending, 0);
});
