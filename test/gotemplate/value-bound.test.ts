// Every function of the function table is charged for what it builds (issue 38): a property run grows
// values through each function, its results fed back into it forty times with large and small values
// for its other arguments (valueGrowth.ts makes the cases from the table, so a function added later is
// grown too). The run is a child process with a 512 MB heap that measures every result any call
// returns; a crash, an out-of-memory death, an internal error or a value over the limit fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { HANG_GUARD_MS } from '../helpers/guard';
import { allFunctions, growthCases } from './valueGrowth';
import { DEFAULT_MAX_ITEMS, DEFAULT_MAX_STRING } from '../../server/src/gotemplate/budget';

interface Done {
  fn: string;
  template: string;
  outcome: string;
  ms: number;
  largest: { string: number; list: number; map: number };
  rss: number;
}

test('the growth cases come from the function table: every function a template can call is grown', () => {
  const names = allFunctions();
  assert.ok(names.length > 200, `${names.length} functions`);
  for (const name of ['replace', 'repeat', 'randAlphaNum', 'wrapWith', 'js', 'splitList', 'b64enc', 'seq', 'printf', 'tpl', 'index'])
    assert.ok(names.includes(name), name);
  for (const name of names) assert.ok(growthCases(name).length > 0, `${name} has no growth case`);
});

test('no function builds a value over the value limit, and no growth crashes or exhausts the process', () => {
  const names = allFunctions();
  const r = spawnSync(process.execPath, ['--max-old-space-size=512', '--import', 'tsx', path.join(__dirname, 'valueGrowth.ts'), ...names], {
    encoding: 'utf8',
    timeout: 20 * HANG_GUARD_MS,
    maxBuffer: 256 * 1024 * 1024,
  });
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Done | { start: string; template: string });
  const last = lines.at(-1);
  assert.ok(last && !('start' in last), `the run died (${r.signal ?? r.status}) during ${last?.template}: ${r.stderr.slice(-1000)}`);
  assert.equal(r.signal, null, r.stderr.slice(-1000));
  assert.equal(r.status, 0, r.stderr.slice(-1000));
  const done = lines.filter((l): l is Done => !('start' in l));
  assert.deepEqual(new Set(done.map((d) => d.fn)), new Set(names));
  const limited = new Set<string>();
  let largest = 0;
  for (const d of done) {
    assert.ok(!d.outcome.startsWith('crash'), `${d.template}: ${d.outcome}`);
    // A function whose result is at most a few times the size of its arguments (js, html, quote, b64enc)
    // is measured when it returns: a result over the limit is never used, the render stops with the
    // limit; none is more than six times the limit (js writes a character as `\u003C`).
    const over = d.largest.string > DEFAULT_MAX_STRING || d.largest.list > DEFAULT_MAX_ITEMS || d.largest.map > DEFAULT_MAX_ITEMS;
    if (over) assert.equal(d.outcome, 'template error: limit', `${d.template} went on with ${JSON.stringify(d.largest)}`);
    assert.ok(d.largest.string <= 6 * DEFAULT_MAX_STRING, `${d.template} returned a string of ${d.largest.string} characters`);
    assert.ok(d.largest.list <= DEFAULT_MAX_ITEMS && d.largest.map <= DEFAULT_MAX_ITEMS, `${d.template}: ${JSON.stringify(d.largest)}`);
    assert.ok(d.ms < HANG_GUARD_MS, `${d.template} took ${d.ms} ms`);
    assert.ok(d.rss < 768 * 1024 * 1024, `${d.template}: the process reached ${Math.round(d.rss / 2 ** 20)} MB`);
    if (d.outcome === 'template error: limit') limited.add(d.fn);
    largest = Math.max(largest, d.largest.string);
  }
  // The growth is real: values reach the megabytes, and the functions that amplify are stopped by a limit.
  assert.ok(largest > 1024 * 1024, `largest string ${largest}`);
  for (const fn of [
    'replace',
    'repeat',
    'cat',
    'join',
    'b64enc',
    'js',
    'wrapWith',
    'indent',
    'printf',
    'randAlphaNum',
    'regexReplaceAll',
    'seq',
    'until',
    'tpl',
  ])
    assert.ok(limited.has(fn), `no growth through ${fn} reached a limit`);
});
