/**
 * V8's optimising compiler deferred until the language server's first whole answer
 * (server/src/optimiser.ts): V8 itself says it will not optimise while deferred and will after; the
 * built server turns it back on at its first whole answer, or once idle when it answers nothing, and
 * leaves it alone when the user chose V8's tiers; the answer is the same either way.
 * (The compiled-code cache under the start flags: bundle.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { HANG_GUARD_MS, repoRoot, startServer } from './client';
import { appsetHead } from '../helpers/appsets';
import { serverNodeOptions } from '@appset-tools/protocol';
import { userChoseTiers } from '../../server/src/optimiser';

test('V8 does not optimise while the optimiser is deferred, and does once it is resumed', () => {
  // A fresh function forced to optimise (%OptimizeFunctionOnNextCall), then V8's own status of it:
  // bit 6 (kTurboFanned) set means TurboFan compiled it. (Not bit 1, "the optimiser is off": from V8 12
  // on, Maglev keeps that bit clear while TurboFan alone is off.) Checked on Node 20 (V8 11.3) and
  // Node 24 (V8 13.6).
  const check = `
    const optimiser = require(${JSON.stringify(join(repoRoot, 'server', 'src', 'optimiser.ts'))});
    const turbofanned = () => {
      const f = new Function('a', 'return a + 1;');
      %PrepareFunctionForOptimization(f); f(1); f(2); %OptimizeFunctionOnNextCall(f); f(3);
      return (%GetOptimizationStatus(f) & 64) !== 0;
    };
    const out = { before: turbofanned(), deferred: optimiser.deferOptimiser([], '') };
    out.during = turbofanned();
    optimiser.resumeOptimiser();
    out.after = turbofanned();
    out.again = optimiser.deferOptimiser(['--no-turbofan'], '') || optimiser.deferOptimiser([], '--jitless');
    console.log(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '-e', check], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60000,
  });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}');
  assert.deepEqual(out, { before: true, deferred: true, during: false, after: true, again: false });
});

test("the user's choice of V8's tiers wins", () => {
  for (const a of ['--no-turbofan', '--turbofan', '--no-opt', '--max-opt=2', '--max_opt=0', '--jitless', '--always-turbofan']) {
    assert.equal(userChoseTiers([a]), true, a);
    assert.equal(userChoseTiers([], `--max-old-space-size=100 ${a}`), true, `NODE_OPTIONS ${a}`);
  }
  for (const a of ['--max-semi-space-size=2', '--maglev', '--optimize-for-size', '--heap-growing-percent=80'])
    assert.equal(userChoseTiers([a]), false, a);
});

const text = appsetHead('a') + '  generatorz: []\n  template: {}\n';
const lines = (err: string) => err.split('\n').filter((l) => l.startsWith('optimiser: '));

test('the built server defers its optimiser until its first whole answer, which is the same as without the deferral', async () => {
  const s = await startServer({}, {}, { nodeArgs: serverNodeOptions(process), env: { APPSET_DEBUG: 'optimiser' } });
  let deferred: string[];
  try {
    deferred = (await s.open('a.yaml', text)).map((d) => `${d.code} ${d.range.start.line} ${d.message}`);
    // stderr comes apart from the answer: polled, with the hang guard as the bound.
    const until = Date.now() + HANG_GUARD_MS;
    while (lines(s.stderr()).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const said = lines(s.stderr());
    assert.match(said[0] ?? '', /^optimiser: deferred \(/, s.stderr());
    assert.match(said[1] ?? '', /^optimiser: resumed after the first whole answer \(/, s.stderr());
    assert.equal(said.length, 2, s.stderr());
  } finally {
    await s.shutdown();
  }
  // The user's own choice: nothing deferred, nothing resumed; the same answer.
  const own = await startServer({}, {}, { nodeArgs: [...serverNodeOptions(process), '--turbofan'], env: { APPSET_DEBUG: 'optimiser' } });
  try {
    const plain = (await own.open('a.yaml', text)).map((d) => `${d.code} ${d.range.start.line} ${d.message}`);
    assert.deepEqual(plain, deferred);
    assert.ok(
      deferred.some((d) => d.startsWith('appset/unknown-field')),
      deferred.join('\n'),
    );
    assert.deepEqual(
      lines(own.stderr()).map((l) => l.replace(/ \(.*/, '')),
      ['optimiser: left as the command line set it'],
    );
  } finally {
    await own.shutdown();
  }
});

test('a session that answers no document gets its optimiser back once idle', async () => {
  const s = await startServer({}, {}, { nodeArgs: serverNodeOptions(process), env: { APPSET_DEBUG: 'optimiser' } });
  try {
    // Polled, with the hang guard as the bound: an idle period (1 s) or the bound (3 s) resumes it.
    const until = Date.now() + HANG_GUARD_MS;
    while (lines(s.stderr()).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    assert.match(lines(s.stderr())[1] ?? '', /^optimiser: resumed after (an idle period|the bound) \(/, s.stderr());
  } finally {
    await s.shutdown();
  }
});
