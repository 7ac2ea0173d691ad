/**
 * Go's time.ParseDuration and time.LoadLocation as Argo CD reads a sync window (rules/goTime.ts). The
 * durations are cases of Go's own table (src/time/time_test.go parseDurationTests), written here from
 * Go's documented rules: int64 nanoseconds, so 2562047h47m16.854775807s is the largest and one more
 * nanosecond is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadLocationProblem, parseGoDuration } from '../../../../server/src/engine/rules/goTime';

const ns = (s: string) => {
  const r = parseGoDuration(s);
  return 'ns' in r ? r.ns : r.error;
};

test('time.ParseDuration: values, fractions and signs as Go reads them', () => {
  const H = 3_600_000_000_000n;
  const M = 60_000_000_000n;
  const S = 1_000_000_000n;
  const cases: [string, bigint][] = [
    ['0', 0n],
    ['-0', 0n],
    ['+0', 0n],
    ['5s', 5n * S],
    ['30s', 30n * S],
    ['1478s', 1478n * S],
    ['-5s', -5n * S],
    ['+5s', 5n * S],
    ['5.0s', 5n * S],
    ['5.6s', 5n * S + 600_000_000n],
    ['5.s', 5n * S],
    ['.5s', 500_000_000n],
    ['1.004s', S + 4_000_000n],
    ['100.00100s', 100n * S + 1_000_000n],
    ['10ns', 10n],
    ['11us', 11_000n],
    ['12µs', 12_000n],
    ['12μs', 12_000n],
    ['13ms', 13_000_000n],
    ['14s', 14n * S],
    ['15m', 15n * M],
    ['16h', 16n * H],
    ['3h30m', 3n * H + 30n * M],
    ['10.5s4m', 4n * M + 10n * S + 500_000_000n],
    ['-2m3.4s', -(2n * M + 3n * S + 400_000_000n)],
    ['1h2m3s4ms5us6ns', H + 2n * M + 3n * S + 4_000_000n + 5_000n + 6n],
    ['39h9m14.425s', 39n * H + 9n * M + 14n * S + 425_000_000n],
    ['52763797000ns', 52_763_797_000n],
    ['0.3333333333333333333h', 20n * M],
    ['9007199254740993ns', 9_007_199_254_740_993n],
    ['9223372036854775807ns', (1n << 63n) - 1n],
    ['9223372036854775.807us', (1n << 63n) - 1n],
    ['9223372036s854ms775us807ns', (1n << 63n) - 1n],
    ['-9223372036854775808ns', -(1n << 63n)],
    ['-9223372036854775.808us', -(1n << 63n)],
    ['2562047h47m16.854775807s', (1n << 63n) - 1n],
    ['0.100000000000000000000h', 6n * M],
    ['0.830103483285477580700h', 49n * M + 48n * S + 372_539_827n],
  ];
  for (const [s, want] of cases) assert.equal(ns(s), want, s);
});

test('time.ParseDuration: what Go refuses, and why (syntax, or past int64 nanoseconds)', () => {
  for (const s of ['', '3', '-', 's', '.', '-.', '.s', '+.s', '1d', '1 h', 'h1', '\u0085\u0085', '1hh', '1.5.5s'])
    assert.equal(ns(s), 'syntax', JSON.stringify(s));
  for (const s of [
    '9223372036854775810ns',
    '9223372036854775808ns',
    '9223372036854775.808us',
    '-9223372036854775809ns',
    '2562047h47m16.854775808s',
    '3000000h',
    '1e300h'.replace('e300', '0'.repeat(300)),
    '9223372036854775807ns1ns',
  ])
    assert.equal(ns(s), 'overflow', s.slice(0, 40));
});

test('time.LoadLocation: UTC, Local and IANA names load; "..", a leading slash, unknown and miscased names do not', () => {
  for (const ok of ['', 'UTC', 'Local', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata'])
    assert.equal(loadLocationProblem(ok), undefined, ok);
  assert.match(loadLocationProblem('Europe/../Paris')!, /not a time zone name \(Go refuses a name with "\.\." or a leading slash\)/);
  assert.match(loadLocationProblem('../../etc/passwd')!, /not a time zone name/);
  assert.match(loadLocationProblem('/etc/localtime')!, /not a time zone name/);
  assert.match(loadLocationProblem('Mars/Olympus_Mons')!, /is not in the time zone database$/);
  assert.match(loadLocationProblem('europe/paris')!, /case-sensitive: Europe\/Paris/);
});
